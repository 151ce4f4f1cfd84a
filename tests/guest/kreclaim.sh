#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kreclaim JOB: the shrinker called by the kernel's own reclaim, never by
# drop_caches, with io_tlb_shrink_delay_ms set to 1000:
#   spike     fio verify JOB: the swiotlb grows
#   pressure  2 s later (the pools are idle), with a trickle of one 4 KiB
#             direct write every 0.5 s going on: vm.min_free_kbytes is
#             raised to 64 MiB (the zones' watermarks with it), and a
#             tmpfs, which nothing can reclaim without swap, is filled
#             1 MiB at a time until MemFree is below the zones' low
#             watermarks, the point where an allocation wakes kswapd;
#             the fill goes on, slowly, while MemFree stays above the
#             min watermarks (below them, allocations reclaim directly),
#             until the swiotlb is back to its boot size or 30 s passed.
#             Then the tmpfs is emptied and the watermarks put back.
#   spike2    JOB again: the swiotlb still works and the data verifies
# Reports fio-verify.sh's keys with the prefixes spike1. and spike2., and
#   nslabs_boot, nslabs_grown   io_tlb_nslabs before and after the spike
#   pools_grown                 io_tlb_pools after the spike
#   pressure.seconds            until io_tlb_nslabs was back to the boot
#                               size (-1: it was not, within 30 s)
#   pressure.nslabs_end, pressure.pools_end, pressure.pools_freed
#   pressure.hog_mib            MiB the tmpfs held at the end
#   pressure.memfree_min_kib    the lowest MemFree seen
#   pressure.low_kib, pressure.min_kib   the zones' watermarks, summed
#   pressure.VMSTAT             the change of these /proc/vmstat counters:
#                               pageoutrun (kswapd's runs), allocstall
#                               (direct reclaim), slabs_scanned,
#                               drop_pagecache, drop_slab (0: no drop_caches);
#                               -1 where the kernel counts no such event
#   pressure.oom_kills          "Killed process" lines in the kernel log
#   trickle.writes, trickle.errors
# Exit status: 0, or 1 if a step could not run or fio failed.
# shellcheck source=tests/guest/guest-lib.sh
. /tests/guest-lib.sh

job=$1
status=0
shrink_delay 1000 ||
	{ fail "no io_tlb_shrink_delay_ms: a kernel without CONFIG_SWIOTLB_SHRINK"; exit 1; }
meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
# watermark low|min: the zones' watermark, summed, in KiB.
watermark() { awk -v w="$1" '$1 == w && NF == 2 { s += $2 } END { print s * 4 }' /proc/zoneinfo; }
vmstat_all() { grep -E '^(pageoutrun|allocstall_[a-z]+|slabs_scanned|drop_pagecache|drop_slab) ' /proc/vmstat; }
# vmstat_sum FILE NAME: NAME in a saved vmstat_all (allocstall: every zone).
vmstat_sum() { awk -v n="$2" 'index($1, n) == 1 { s += $2 } END { print s + 0 }' "$1"; }

boot=$(swiotlb_read io_tlb_nslabs)
report nslabs_boot "$boot"
echo "harness: step spike"
REPORT_PREFIX=spike1. /tests/fio-verify.sh "$job" || status=1
report nslabs_grown "$(swiotlb_read io_tlb_nslabs)"
report pools_grown "$(swiotlb_read io_tlb_pools)"
freed0=$(swiotlb_read io_tlb_pools_freed)

echo "harness: step pressure"
sleep 2
vmstat_all > /tmp/vmstat.before
min_free=$(cat /proc/sys/vm/min_free_kbytes)
echo 65536 > /proc/sys/vm/min_free_kbytes || status=1
low=$(watermark low) min=$(watermark min)
report pressure.low_kib "$low"
report pressure.min_kib "$min"
mkdir -p /hog
mount -t tmpfs -o size=90% hog /hog || { fail "cannot mount a tmpfs on /hog"; exit 1; }
trickle_start
start=$(cut -d. -f1 /proc/uptime) mib=0 seconds=-1 memfree_min=$(meminfo MemFree)
while :; do
	now=$(cut -d. -f1 /proc/uptime)
	if [ "$(swiotlb_read io_tlb_nslabs)" -le "$boot" ]; then
		seconds=$((now - start))
		break
	fi
	[ $((now - start)) -lt 30 ] || break
	free=$(meminfo MemFree)
	[ "$free" -ge "$memfree_min" ] || memfree_min=$free
	if [ "$free" -gt $((low + 8192)) ]; then
		# Far above the low watermarks: fill fast.
		dd if=/dev/zero of=/hog/$mib bs=1M count=8 2>/dev/null || break
		mib=$((mib + 8))
	elif [ "$free" -gt $((min + 4096)) ]; then
		# Between them: kswapd's ground; a page now and then keeps
		# waking it.
		dd if=/dev/zero of=/hog/$mib bs=1M count=1 2>/dev/null || break
		mib=$((mib + 1))
		sleep 0.2
	else
		sleep 0.2
	fi
done
report pressure.seconds "$seconds"
report pressure.nslabs_end "$(swiotlb_read io_tlb_nslabs)"
report pressure.pools_end "$(swiotlb_read io_tlb_pools)"
report pressure.pools_freed $(($(swiotlb_read io_tlb_pools_freed) - freed0))
report pressure.hog_mib "$mib"
report pressure.memfree_min_kib "$memfree_min"
trickle_stop
rm -rf /hog/*
umount /hog
echo "$min_free" > /proc/sys/vm/min_free_kbytes
vmstat_all > /tmp/vmstat.after
# Without CONFIG_VM_EVENT_COUNTERS (the QEMU kernels' tinyconfig base)
# /proc/vmstat has none of these: -1, not 0.
for n in pageoutrun allocstall slabs_scanned drop_pagecache drop_slab; do
	if grep -q "^$n" /tmp/vmstat.after; then
		report "pressure.$n" $(($(vmstat_sum /tmp/vmstat.after "$n") - $(vmstat_sum /tmp/vmstat.before "$n")))
	else
		report "pressure.$n" -1
	fi
done
report pressure.oom_kills "$(dmesg | grep -c 'Killed process')"
report trickle.writes "$TRICKLE_WRITES"
report trickle.errors "$TRICKLE_ERRORS"

echo "harness: step spike2"
REPORT_PREFIX=spike2. /tests/fio-verify.sh "$job" || status=1
exit "$status"
