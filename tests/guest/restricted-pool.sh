#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# restricted-pool [MIB [JOBS [MAX_KB]]]: the disk /dev/vda sits on a virtio-mmio transport
# whose device-tree node has a memory-region of compatible
# "restricted-dma-pool" (make test-arm64 writes that device tree).  Its DMA
# must go through that pool and no other:
#   - the pool's debugfs directory exists (swiotlb/NAME or NAME, NAME the
#     reserved-memory node's name);
#   - MIB MiB (default 64) of random data written to the disk by JOBS
#     (default 1) dd processes at once, each to a region of its own,
#     flushed, the page cache dropped, and read back the same way: the
#     md5sum of every region is that of the data;
#   - while that runs, io_tlb_used of the pool was seen above 0 (and, where
#     the kernel has it, io_tlb_used_hiwater above 0 after it);
#   - the default swiotlb served nothing: its io_tlb_used stays 0 (and its
#     high-water mark, where the kernel has one);
#   - the pool did not grow: io_tlb_nslabs is the same after the load.
# With MAX_KB, the disk's largest request is set to MAX_KB KiB
# (max_sectors_kb) before the load.  Before the load it reports the
# largest request and the largest segment (max_sectors_kb,
# max_segment_size): the run of a pool too small for them hangs, so they
# must reach result.txt first.
# Reports pool, pool_nslabs_boot, pool_nslabs_end, pool_used_max,
# pool_hiwater, default_nslabs, default_used_end, default_hiwater, md5_ok,
# buffer_full (console lines "swiotlb buffer is full").
# shellcheck source=tests/guest/guest-lib.sh
. /tests/guest-lib.sh
mib=${1:-64} jobs=${2:-1} max_kb=${3:-}
status=0

pool=
for d in "$SWIOTLB"/restricted-dma-pool* /sys/kernel/debug/restricted-dma-pool*; do
	[ -e "$d/io_tlb_nslabs" ] && pool=$d && break
done
if [ -z "$pool" ]; then
	fail "no debugfs directory of a restricted-dma-pool"
	ls /sys/kernel/debug /sys/kernel/debug/swiotlb 2>&1
	exit 1
fi
report pool "${pool#/sys/kernel/debug/}"
disk=$(readlink -f /sys/block/vda/device 2>/dev/null)
report disk_device "${disk:-none}"
case "$disk" in
*virtio_mmio*) ;;
*) fail "/dev/vda is not on a virtio-mmio transport: ${disk:-no /dev/vda}"; exit 1 ;;
esac
queue=/sys/block/vda/queue
if [ -n "$max_kb" ]; then
	echo "$max_kb" > "$queue/max_sectors_kb" ||
		{ fail "cannot set $queue/max_sectors_kb to $max_kb"; exit 1; }
fi
report max_sectors_kb "$(cat "$queue/max_sectors_kb")"
report max_segment_size "$(cat "$queue/max_segment_size")"
pool_boot=$(cat "$pool/io_tlb_nslabs")
report pool_nslabs_boot "$pool_boot"
report default_nslabs "$(swiotlb_read io_tlb_nslabs)"
default_used0=$(swiotlb_read io_tlb_used)

# The load, with io_tlb_used of the pool sampled while it runs.
md5_load "$pool" "$mib" "$jobs" || exit 1
report pool_used_max "$LOAD_USED_MAX"
# md5_load said what failed
{ [ "$LOAD_STATUS" = 0 ] && [ "$LOAD_BAD" = 0 ]; } || status=1

hiwater=-1
[ -e "$pool/io_tlb_used_hiwater" ] && hiwater=$(cat "$pool/io_tlb_used_hiwater")
report pool_hiwater "$hiwater"
if [ "$LOAD_USED_MAX" -le 0 ] && [ "$hiwater" -le 0 ]; then
	fail "the restricted pool was never seen in use"
	status=1
fi
pool_end=$(cat "$pool/io_tlb_nslabs")
report pool_nslabs_end "$pool_end"
[ "$pool_end" = "$pool_boot" ] || { fail "the restricted pool changed size: $pool_boot > $pool_end"; status=1; }

default_used=$(swiotlb_read io_tlb_used)
report default_used_end "$default_used"
default_hiwater=$(swiotlb_read io_tlb_used_hiwater)
report default_hiwater "$default_hiwater"
if [ "$default_used" -gt 0 ] || [ "$default_used0" -gt 0 ] || [ "$default_hiwater" -gt 0 ]; then
	fail "the default swiotlb served mappings (used $default_used0 > $default_used, high-water $default_hiwater)"
	status=1
fi
report buffer_full "$(dmesg | grep -c 'swiotlb buffer is full')"
exit $status
