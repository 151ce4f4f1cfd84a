#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make bench-timeline: what the swiotlb holds, second by second, on the full
# series and on the full series without CONFIG_SWIOTLB_SHRINK, through
# spike -> idle -> trickle -> pressure (the trickle still running) ->
# spike (tests/guest/timeline.sh has the phases).
#
# usage: scripts/bench/bench-timeline.sh OUTDIR
#
# One VM per kernel, swiotlb=512,force (1 MiB), the bench's virtio disk,
# SMP vCPUs (default 2), plain TCG: the timeline is in the guest's seconds.
# Writes, and prints the first:
#   OUTDIR/timeline.md    per kernel: MiB held at boot, at the peak, after
#                         the idle phase, at the end of the pressure phase
#                         and at the end; the seconds of pressure until the
#                         swiotlb was back to at most twice its boot size
#                         (at one sample a second, an upper bound);
#                         MemAvailable at the end of the pressure phase
#   OUTDIR/timeline.csv   every sample: kernel, seconds, phase, the slots
#                         (io_tlb_nslabs, io_tlb_used, transient), MiB held
#                         and in use, MemAvailable in MiB
#   OUTDIR/timeline.png   MiB held (default, grown and transient pools)
#                         against seconds, a line per kernel, the phases of
#                         the full series' VM marked, if gnuplot is
#                         installed; EX_MISSING at the end if not
#   OUTDIR/raw/KERNEL/    each VM's console.log and result.txt
# Environment: BZIMAGE_patched, BZIMAGE_noshrink (the two kernels), INITRD,
# SMP.  "Held" counts a slot as 2 KiB (IO_TLB_SIZE).
# Exit status: EX_OK, or the status of the VM that did not pass.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] || die $EX_USAGE "usage: $0 OUTDIR"
out=$1
: "${BZIMAGE_patched:?}" "${BZIMAGE_noshrink:?}" "${INITRD:?}"
mkdir -p "$out/raw"
csv=$out/timeline.csv
echo "kernel,seconds,phase,nslabs,used,transient,held_mib,used_mib,memavailable_mib" > "$csv"

for k in full noshrink; do
	if [ "$k" = full ]; then bz=$BZIMAGE_patched; else bz=$BZIMAGE_noshrink; fi
	info "timeline on $k ($bz)"
	rm -rf "$out/raw/$k"
	"$PROJECT_TOP/scripts/vm/qemu-run.sh" -k "$bz" -i "$INITRD" -t timeline \
		-a bench-spike.fio -c "swiotlb=512,force" -d virtio -s "${SMP:-2}" \
		-o "$out/raw/$k" >&2 ||
		die $? "the timeline VM on $k did not pass (see $out/raw/$k/console.log)"
	tr -d '\r' < "$out/raw/$k/result.txt" | sed -n 's/^sample=//p' |
		awk -F, -v k="$k" '{ printf "%s,%s,%s,%d,%d,%d,%.2f,%.2f,%.1f\n",
			k, $1, $2, $3, $4, $5, ($3 + $5) / 512, $4 / 512, $6 / 1024 }' >> "$csv"
done
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

{
	echo "# The swiotlb through spike, idle, trickle, pressure, spike"
	echo
	echo "$(date -u +%F), $(git -C "$PROJECT_TOP" describe --always --dirty 2>/dev/null || echo unknown)," \
		"swiotlb=512,force, ${SMP:-2} vCPUs, plain TCG. MiB held: the default, grown and"
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
	back=$(back_s full)
	if [ -n "$back" ] && [ "$back" -le 30 ]; then
		echo "Goal, the trickle return within 30 s of reclaim: **met** (within $back s, full series)."
	else
		echo "Goal, the trickle return within 30 s of reclaim: **missed** (full series: ${back:+$back s}${back:-not reached in the pressure phase})."
	fi
} > "$out/timeline.md"
cat "$out/timeline.md"

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
