#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bench-fio JOBFILE RUNTIME [SPIKE [MAXSPIKES]]: one benchmark run of
# /tests/fio/JOBFILE for RUNTIME seconds (scripts/bench/bench.sh, the
# benchmark).  With SPIKE (a job file), a warm-up first: SPIKE runs, and
# again while the swiotlb holds less than four times its boot size, at most
# MAXSPIKES (4) times; then io_tlb_used_hiwater is reset, so that hiwater is
# the measured load's.  After the load, if the swiotlb grew: reclaim, as a
# guest short of memory would (drop_caches, which runs the shrinkers, once a
# second, for at most 15 s, until the swiotlb is back to its boot size).
# Reports:
#   memtotal_kib, memavail_kib  /proc/meminfo after boot, before the load
#   nslabs_boot, nslabs_after   io_tlb_nslabs before and after the load
#   spikes, nslabs_warm         with SPIKE: how many spikes ran, and
#                               io_tlb_nslabs after them (before the load)
#   spike_hiwater               io_tlb_used_hiwater after the spikes
#   hiwater                     io_tlb_used_hiwater after the load (> 0:
#                               the I/O was bounced), where the kernel has
#                               it (patch 0017; not base, not v7)
#   transient_after             io_tlb_transient_nslabs after the load
#   transient_maps_warm,        io_tlb_transient_maps (patch 0036: mappings
#   transient_maps              served by transient pools since boot) after
#                               the spikes and after the load
#   nslabs_reclaim, reclaim_s   io_tlb_nslabs after the reclaim, and its
#                               seconds (-1: not back to the boot size);
#                               nslabs_after and 0 if the swiotlb did not grow
#   swiotlb_full                "swiotlb buffer is full" lines in the kernel
#                               log (rate-limited by the kernel: a lower bound)
#   read_kib_s, write_kib_s     fio's bandwidth, summed over its jobs
#   fio_status, fio_errors, fio_jobs
# No sampling of io_tlb_used during the run: it would take CPU time from
# the load it measures (and with one vCPU, requests complete before a
# sampler runs, so it reads 0).
# shellcheck source=tests/guest/guest-lib.sh
. /tests/guest-lib.sh

job=/tests/fio/$1
RUNTIME=$2
spike=${3:+/tests/fio/$3}
maxspikes=${4:-4}
[ -f "$job" ] || { fail "no fio job file $job"; exit 2; }
[ -z "$spike" ] || [ -f "$spike" ] || { fail "no fio job file $spike"; exit 2; }
case "$RUNTIME" in
''|*[!0-9]*) fail "RUNTIME must be a number of seconds, not '$RUNTIME'"; exit 2 ;;
esac
case "$maxspikes" in
''|*[!0-9]*|0) fail "MAXSPIKES must be a positive number, not '$maxspikes'"; exit 2 ;;
esac
export RUNTIME

report memtotal_kib "$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)"
report memavail_kib "$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)"
boot=$(swiotlb_read io_tlb_nslabs)
report nslabs_boot "$boot"

if [ -n "$spike" ]; then
	warm_up "$spike" "$maxspikes" || exit 1
fi

echo "harness: fio $job, $RUNTIME s"
fio --eta=never --output-format=json --output=/tmp/fio.json "$job"
status=$?
report nslabs_after "$(swiotlb_read io_tlb_nslabs)"
[ -e "$SWIOTLB/io_tlb_used_hiwater" ] && report hiwater "$(swiotlb_read io_tlb_used_hiwater)"
[ -e "$SWIOTLB/io_tlb_transient_nslabs" ] &&
	report transient_after "$(swiotlb_read io_tlb_transient_nslabs)"
[ -e "$SWIOTLB/io_tlb_transient_maps" ] &&
	report transient_maps "$(swiotlb_read io_tlb_transient_maps)"

now=$(swiotlb_read io_tlb_nslabs) waited=0
if [ "$now" -gt "$boot" ]; then
	reclaim 15 "$boot"
	now=$(swiotlb_read io_tlb_nslabs) waited=$RECLAIM_S
	[ "$now" -le "$boot" ] || waited=-1
fi
report nslabs_reclaim "$now"
report reclaim_s "$waited"
report swiotlb_full "$(dmesg | grep -c 'swiotlb buffer is full')"
report fio_status "$status"

fio_json /tmp/fio.json > /tmp/fio.report
fio_summary bw read_kib_s write_kib_s || exit 1
[ "$FIO_ERRORS" -eq 0 ] || { fail "fio reported errors"; exit 1; }
[ "$status" -eq 0 ] || fail "fio exited with status $status"
exit "$status"
