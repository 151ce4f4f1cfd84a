#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# grow-md5 [MIB [JOBS]]: the load of md5_load (guest-lib.sh: JOBS dd
# writers and readers, MIB MiB in all, md5sums compared) on /dev/vda
# through the default swiotlb, for a guest without fio (arm64).  Reports
# nslabs_boot, nslabs_after, used_boot, used_max and samples (sampled),
# hiwater_start and hiwater (the series' high-water mark, reset before the
# load; -1 without one), jobs and md5_ok.  Fails when a dd,
# the flush or a read-back failed, or a region came back different; the
# scenario's checks judge growth.
# shellcheck source=tests/guest/guest-lib.sh
. /tests/guest-lib.sh
mib=${1:-64} jobs=${2:-1}
report nslabs_boot "$(swiotlb_read io_tlb_nslabs)"
report used_boot "$(swiotlb_read io_tlb_used)"
disk=$(readlink -f /sys/block/vda/device 2>/dev/null)
report disk_device "${disk:-none}"
[ -n "$disk" ] || { fail "no /dev/vda"; exit 1; }
# The series' high-water mark, reset: after the load it is what the load
# used (the bounced check).
if [ -e "$SWIOTLB/io_tlb_used_hiwater" ]; then
	echo 0 > "$SWIOTLB/io_tlb_used_hiwater"
	report hiwater_start "$(swiotlb_read io_tlb_used_hiwater)"
fi
md5_load "$SWIOTLB" "$mib" "$jobs" || exit 1
report used_max "$LOAD_USED_MAX"
report samples "$LOAD_SAMPLES"
report hiwater "$(swiotlb_read io_tlb_used_hiwater)"
report nslabs_after "$(swiotlb_read io_tlb_nslabs)"
status=0
# md5_load said what failed
{ [ "$LOAD_STATUS" = 0 ] && [ "$LOAD_BAD" = 0 ]; } || status=1
exit $status
