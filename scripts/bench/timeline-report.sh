#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The report of make bench-timeline (scripts/bench/bench-timeline.sh runs
# the VMs): the table, the trickle goal and the chart, from
# OUTDIR/timeline.csv and OUTDIR/raw/{full,noshrink}/result.txt.
#
# usage: scripts/bench/timeline-report.sh OUTDIR
#
# Writes OUTDIR/timeline.md (and prints it), OUTDIR/goals.txt (one line
# "KERNEL VERDICT EXPECTED" per kernel) and OUTDIR/timeline.png, deleting
# them first, and records timeline.trickle.KERNEL: PASS where the verdict
# is the expected one (scripts/lib.sh's RESULTS_FILE).  Exit status: EX_TESTFAIL when a goal was not tested (the
# spike did not grow the swiotlb beyond twice its boot size) or when
# noshrink meets the trickle goal (the instrument cannot tell a shrinker
# from none); EX_MISSING without gnuplot; else EX_OK.  The full series
# missing the goal is a finding of the bench, not a failure.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] || die $EX_USAGE "usage: $0 OUTDIR"
out=$1
csv=$out/timeline.csv
[ -f "$csv" ] || die $EX_MISSING "no $csv (make bench-timeline)"
# meta KEY: KEY of OUTDIR/meta.txt (bench-timeline.sh), or "unknown".
meta() { sed -n "s/^$1=//p" "$out/meta.txt" 2> /dev/null | grep . || echo unknown; }
[ "$(grep -c . "$csv")" -gt 20 ] || die $EX_TESTFAIL "fewer than 20 samples in $csv"

# value K KEY: KEY from kernel K's result.txt ("n/a" where the kernel has
# no such counter: -1, or absent)
value() {
	local v
	v=$(tr -d '\r' < "$out/raw/$1/result.txt" | sed -n "s/^$2=//p" | tail -n 1)
	case "$v" in ''|-1) echo n/a ;; *) echo "$v" ;; esac
}
# back_s K: the seconds from the last sample before the pressure phase to
# the first one of it with the swiotlb at most twice its boot size and no
# transient pool (an upper bound, at one sample a second); empty if never.
back_s() {
	awk -F, -v k="$1" '$1 != k { next }
		n++ == 0 { b = $4 }
		$3 == "pressure" && r == "" && $4 <= 2 * b && $6 == 0 { r = $2 - prev }
		$3 != "pressure" && !seen { prev = $2 }
		$3 == "pressure" { seen = 1 }
		END { if (r != "") printf "%.0f\n", r }' "$csv"
}

# boot_nslabs K, grown_before K: io_tlb_nslabs in K's first sample, and the
# most before the pressure phase.
boot_nslabs() { awk -F, -v k="$1" '$1 == k { print $4; exit }' "$csv"; }
grown_before() {
	awk -F, -v k="$1" '$1 == k && $3 == "pressure" { exit }
		$1 == k && $4 > m { m = $4 } END { print m + 0 }' "$csv"
}
# trickle_goal K: met, missed, or "not tested" if the spike did not grow
# the swiotlb beyond twice its boot size before the pressure phase.
trickle_goal() {
	local back
	if [ "$(grown_before "$1")" -le $((2 * $(boot_nslabs "$1"))) ]; then
		echo "not tested"
		return
	fi
	back=$(back_s "$1")
	if [ -n "$back" ] && [ "$back" -le 30 ]; then echo met; else echo missed; fi
}

rm -f "$out"/{timeline.md,timeline.png,goals.txt} "$out"/timeline-*.dat
{
	echo "# The swiotlb through spike, idle, trickle, pressure, spike"
	echo
	echo "$(meta date), $(meta version)," \
		"swiotlb=512,force, $(meta smp) vCPUs, plain TCG. MiB held: the default, grown and"
	echo "transient pools (2 KiB a slot). Pressure: drop_caches every second with the"
	echo "trickle of one 4 KiB direct write every 0.5 s still running."
	echo
	echo "| kernel | boot | peak | end of idle | end of pressure | end | pressure until <= 2x boot | MemAvailable, end of pressure | pools grown / freed |"
	echo "|---|---|---|---|---|---|---|---|---|"
	for k in full noshrink; do
		label=$k
		[ "$k" = full ] && label="full series"
		[ "$k" = noshrink ] && label="without CONFIG_SWIOTLB_SHRINK"
		back=$(back_s "$k")
		awk -F, -v k="$k" -v label="$label" -v grown="$(value "$k" pools_grown)" \
			-v freed="$(value "$k" pools_freed)" -v back="${back:+within $back s}" '
			$1 != k { next }
			n == 0 { boot = $7 }
			{ n++; if ($7 > peak) peak = $7; last = $7 }
			$3 == "idle" { idle_end = $7 }
			$3 == "pressure" { pend = $7; mem = $9 }
			END {
				printf "| %s | %.1f MiB | %.1f MiB | %.1f MiB | %.1f MiB | %.1f MiB | %s | %.0f MiB | %s / %s |\n",
					label, boot, peak, idle_end, pend, last,
					back == "" ? "not reached" : back, mem, grown, freed
			}' "$csv"
	done
	echo
	echo "Goal, the trickle back at most twice the boot size within 30 s of reclaim,"
	echo "after a spike that grew the swiotlb beyond that (else: not tested). Without"
	echo "the shrinker it must be missed, or the instrument is broken."
	echo
	echo "| kernel | grown before the pressure | back within | verdict | expected |"
	echo "|---|---|---|---|---|"
	for k in full noshrink; do
		v=$(trickle_goal "$k")
		want=met
		[ "$k" = noshrink ] && want=missed
		back=$(back_s "$k")
		back=${back:-not reached} back=${back/%[0-9]/& s}
		echo "| $k | $(grown_before "$k") slots at most (boot $(boot_nslabs "$k")) | $back | $([ "$v" = "$want" ] && echo "$v" || echo "**$v**") | $want |"
		echo "$k ${v// /_} $want" >> "$out/goals.txt"
	done
} > "$out/timeline.md"
cat "$out/timeline.md"
# A goal not tested, or one that reads other than it should (noshrink's
# met: the instrument cannot tell a shrinker from none), fails the bench.
# full's "missed" is a finding, printed above.
goal_status=0
while read -r k v want; do
	# One line per kernel in RESULTS_FILE, for a count of passes over
	# many runs (scripts/report/pass-rate.sh).
	if [ "$v" = "$want" ]; then
		record PASS "timeline.trickle.$k" "$v, as expected"
	else
		record FAIL "timeline.trickle.$k" "${v//_/ }, expected $want"
	fi
	if [ "$v" = not_tested ]; then
		info "$k: the spike did not grow the swiotlb beyond twice its boot size: the trickle goal tested nothing"
		goal_status=$EX_TESTFAIL
	elif [ "$want" = missed ] && [ "$v" = met ]; then
		info "$k meets the trickle goal without a shrinker: the instrument cannot tell a shrinker from none"
		goal_status=$EX_TESTFAIL
	fi
done < "$out/goals.txt"

if ! command -v gnuplot > /dev/null; then
	info "gnuplot not found (apt-get install gnuplot-nox): no chart"
	exit $EX_MISSING
fi
for k in full noshrink; do
	awk -F, -v k="$k" '$1 == k { print $2, $7 }' "$csv" > "$out/timeline-$k.dat"
done
# The phases of the full series' VM, as labelled lines.
marks=$(awk -F, '$1 == "full" && $3 != p { p = $3
	printf "set arrow from %s, graph 0 to %s, graph 1 nohead dashtype 3 lc rgb \"gray\"\n", $2, $2
	printf "set label \"%s\" at %s, graph 0.98 rotate by -90 offset 0.6,0 font \",9\"\n", $3, $2 }' "$csv")
gnuplot <<EOF || die $EX_TESTFAIL "gnuplot failed"
set terminal pngcairo size 900,500 noenhanced
set output "$out/timeline.png"
set title "MiB of swiotlb held, swiotlb=512,force (QEMU TCG; phases of the full series' VM)"
set xlabel "seconds"
set ylabel "MiB"
set key below
set yrange [0:*]
$marks
plot "$out/timeline-full.dat" using 1:2 with lines lw 2 title "full series", \
	"$out/timeline-noshrink.dat" using 1:2 with lines lw 2 title "full series without CONFIG_SWIOTLB_SHRINK"
EOF
info "wrote $out/timeline.md, timeline.csv, timeline.png"
exit "$goal_status"
