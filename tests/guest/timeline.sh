#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# timeline SPIKE_JOB[,IDLE,TRICKLE,PRESSURE]: what the swiotlb holds, second
# by second, through five phases (durations in seconds, default 10,10,20):
#   spike     SPIKE_JOB (tests/fio/bench-spike.fio), run again up to four
#             times until io_tlb_nslabs is four times its boot size
#   idle      nothing
#   trickle   one 4 KiB direct write every 0.5 s
#   pressure  the trickle goes on; drop_caches every second (reclaim asks
#             the shrinkers, the swiotlb's among them, for memory)
#   spike2    SPIKE_JOB once more, and 5 s of idle after it
# A sampler reads the debugfs counters and /proc/meminfo every second and
# reports each sample as one line:
#   sample=T,PHASE,NSLABS,USED,TRANSIENT,MEMAVAILABLE_KIB
# (T: seconds since the first sample; NSLABS: io_tlb_nslabs, the slots of
# the default and the grown pools; USED: io_tlb_used; TRANSIENT:
# io_tlb_transient_nslabs, the slots of transient pools).  Also reports
# nslabs_boot, spikes (runs of SPIKE_JOB in the first phase), the trickle's
# writes and errors, the pools_grown and pools_freed counters, samples.
# Works on any kernel with the debugfs files of the series (patch 0017);
# without CONFIG_SWIOTLB_SHRINK, drop_caches frees no pool.
# Exit status: 0, or 1 if a phase could not run (fio or a write failed).
# shellcheck source=tests/guest/guest-lib.sh
. /tests/guest-lib.sh

IFS=, read -r job idle trickle_s pressure <<EOF
$1
EOF
idle=${idle:-10} trickle_s=${trickle_s:-10} pressure=${pressure:-20}
[ -f "/tests/fio/$job" ] || { fail "no fio job /tests/fio/$job"; exit 1; }
[ "$(swiotlb_read io_tlb_transient_nslabs)" != -1 ] ||
	{ fail "no io_tlb_transient_nslabs: not a kernel with the series"; exit 1; }
status=0
memavail() { awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }
phase() { echo "$1" > /tmp/timeline.phase; echo "harness: phase $1"; }

phase boot
boot=$(swiotlb_read io_tlb_nslabs)
report nslabs_boot "$boot"
rm -f /tmp/timeline.stop
start=$(uptime_s)
(
	n=0
	while [ ! -e /tmp/timeline.stop ]; do
		t=$(awk -v a="$start" -v b="$(uptime_s)" 'BEGIN { printf "%.1f", b - a }')
		echo "sample=$t,$(cat /tmp/timeline.phase),$(swiotlb_read io_tlb_nslabs),$(swiotlb_read io_tlb_used),$(swiotlb_read io_tlb_transient_nslabs),$(memavail)" >> "$HARNESS_RESULT"
		n=$((n + 1))
		echo "$n" > /tmp/timeline.samples
		sleep 1
	done
) &
sampler=$!

spike() {
	fio --output=/tmp/timeline.fio "/tests/fio/$job" > /dev/null ||
		{ fail "fio $job failed"; cat /tmp/timeline.fio > /dev/console; status=1; }
}

sleep 2
phase spike
spikes=0
while [ "$spikes" -lt 4 ]; do
	spike
	spikes=$((spikes + 1))
	[ "$(swiotlb_read io_tlb_nslabs)" -ge $((4 * boot)) ] && break
done
report spikes "$spikes"

phase idle
sleep "$idle"

phase trickle
trickle_start
sleep "$trickle_s"

phase pressure
reclaim "$pressure" || status=1
trickle_stop
report trickle.writes "$TRICKLE_WRITES"
report trickle.errors "$TRICKLE_ERRORS"
[ "$TRICKLE_ERRORS" = 0 ] || status=1

phase spike2
spike
sleep 5
touch /tmp/timeline.stop
wait "$sampler"
report samples "$(cat /tmp/timeline.samples)"
report pools_grown "$(swiotlb_read io_tlb_pools_grown)"
report pools_freed "$(swiotlb_read io_tlb_pools_freed)"
exit "$status"
