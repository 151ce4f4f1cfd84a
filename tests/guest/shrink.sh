#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# shrink JOB: the shrinker of CONFIG_SWIOTLB_SHRINK, in four steps, with
# io_tlb_shrink_delay_ms set to 1000:
#   spike1  fio verify JOB: the swiotlb grows
#   shrink  2 s later (the pools are idle), echo 2 > drop_caches runs the
#           shrinkers: the swiotlb is back to its boot size
#   spike2  JOB again: it grows again (run again, up to 4 runs, until the
#           swiotlb holds 4x its boot size; spike2.runs)
#   trickle with io_tlb_shrink_delay_ms back at 5000 and one 4 KiB direct
#           write every 0.5 s still going on, drop_caches every second
#           for up to 30 s, until io_tlb_nslabs is at most twice the boot
#           size (the boot size and one first-size pool): the trickle
#           must not keep the pools of the spike busy
# Reports fio-verify.sh's keys with the prefixes spike1. and spike2., and
#   shrinker                            1, or 0 without io_tlb_shrink_delay_ms
#   nslabs_boot                         io_tlb_nslabs before spike1
#   nslabs_before_shrink, nslabs_after_shrink
#   pools_before_shrink, pools_after_shrink   io_tlb_pools
#   memfree_before_shrink, memfree_after_shrink  MemFree, KiB
#   pools_grown, pools_freed            the counters after spike2
#   nslabs_after                        io_tlb_nslabs after spike2
#   trickle.limit, trickle.seconds      the goal, and the seconds it took
#                                       (30: not reached)
#   trickle.nslabs_end, trickle.pools_end   io_tlb_nslabs, io_tlb_pools then
#   trickle.writes, trickle.errors      the trickle's writes, failed writes
# Exit status: 0, or 1 if a step could not run or fio failed.
# shellcheck source=tests/guest/guest-lib.sh
. /tests/guest-lib.sh

job=$1
status=0
# A kernel without the shrinker (Debian's 6.12, make test-mainline) runs
# the same steps: they show what it keeps.  The host's checks judge.
shrinker=1
shrink_delay 1000 || shrinker=0
[ "$shrinker" = 1 ] ||
	echo "harness: no io_tlb_shrink_delay_ms: a kernel without CONFIG_SWIOTLB_SHRINK"
report shrinker "$shrinker"
memfree() { awk '$1 == "MemFree:" { print $2 }' /proc/meminfo; }

boot=$(swiotlb_read io_tlb_nslabs)
report nslabs_boot "$boot"
echo "harness: step spike1"
REPORT_PREFIX=spike1. /tests/fio-verify.sh "$1" || status=1

echo "harness: step shrink"
report nslabs_before_shrink "$(swiotlb_read io_tlb_nslabs)"
report pools_before_shrink "$(swiotlb_read io_tlb_pools)"
report memfree_before_shrink "$(memfree)"
sleep 2
shrinkers_run || status=1
# The pools go after an RCU grace period, from a work item.
sleep 1
report nslabs_after_shrink "$(swiotlb_read io_tlb_nslabs)"
report pools_after_shrink "$(swiotlb_read io_tlb_pools)"
report memfree_after_shrink "$(memfree)"

echo "harness: step spike2"
# The trickle below judges the shrinker only after a spike that grew the
# swiotlb to at least 4x its boot size (checks.sh: trickle): a spike that
# grew less is run again, up to 4 runs in all, so that chance does not
# decide the check (spike2.runs).
runs=0
while :; do
	runs=$((runs + 1))
	REPORT_PREFIX=spike2. /tests/fio-verify.sh "$job" || status=1
	if [ "$(swiotlb_read io_tlb_nslabs)" -ge $((4 * boot)) ] || [ "$runs" -ge 4 ]; then
		break
	fi
done
report spike2.runs "$runs"
report pools_grown "$(swiotlb_read io_tlb_pools_grown)"
report pools_freed "$(swiotlb_read io_tlb_pools_freed)"
report nslabs_after "$(swiotlb_read io_tlb_nslabs)"

echo "harness: step trickle"
[ "$shrinker" = 0 ] || shrink_delay 5000 || status=1
limit=$((2 * boot))
trickle_start
reclaim 30 "$limit" || status=1
trickle_stop
report trickle.limit "$limit"
report trickle.seconds "$RECLAIM_S"
report trickle.nslabs_end "$(swiotlb_read io_tlb_nslabs)"
report trickle.pools_end "$(swiotlb_read io_tlb_pools)"
report trickle.writes "$TRICKLE_WRITES"
report trickle.errors "$TRICKLE_ERRORS"
exit "$status"
