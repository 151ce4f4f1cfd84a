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
# Exit status: EX_OK, the status of the VM that did not pass, or that of
# scripts/bench/timeline-report.sh, which writes the report.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] || die $EX_USAGE "usage: $0 OUTDIR"
out=$1
: "${BZIMAGE_patched:?}" "${BZIMAGE_noshrink:?}" "${INITRD:?}"
mkdir -p "$out/raw"
csv=$out/timeline.csv
echo "kernel,seconds,phase,nslabs,used,transient,held_mib,used_mib,memavailable_mib" > "$csv"
printf 'smp=%s\ndate=%s\nversion=%s\n' "${SMP:-2}" "$(date -u +%F)" \
	"$(git -C "$PROJECT_TOP" describe --always --dirty 2>/dev/null || echo unknown)" > "$out/meta.txt"

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
exec "$PROJECT_TOP/scripts/bench/timeline-report.sh" "$out"
