#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# What a burst costs the grow worker, on KUnit kernels side by side: the
# case swiotlb_test_bench_grow (a private allocator grown to 256 MiB by
# the worker), or with GROW_CASE=bench_grow_fragmented the case that
# grows one to 64 MiB where no contiguous range can be had, booted under
# "-icount shift=2,sleep=off", where the guest clock counts instructions,
# in interleaved rounds.
#
# usage: scripts/bench/grow-cost.sh OUTDIR ROUNDS LABEL=BZIMAGE...
#
# The first LABEL is the reference; give one kernel twice under two
# labels for a control.  Each round boots every kernel once, in the order
# given.  Writes OUTDIR/grow.txt ("ROUND LABEL GROW_US", then the other
# numbers of the case's bench: line, per boot) and OUTDIR/grow.md (scripts/report/paired-ci.py's table of
# grow_us), and prints the table.  One vCPU, on the pc machine: the QEMU
# of bookworm hangs under icount otherwise (scripts/vm/get-qemu.sh).
# Exit status: EX_OK, EX_USAGE, or the status of a boot that failed
# (the case failed: EX_TESTFAIL; EX_CRASH, EX_TIMEOUT).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -ge 4 ] || die $EX_USAGE "usage: $0 OUTDIR ROUNDS LABEL=BZIMAGE LABEL=BZIMAGE..."
out=$1 rounds=$2
shift 2
if ! [[ $rounds =~ ^[0-9]+$ ]] || [ "$rounds" -lt 5 ]; then
	die $EX_USAGE "ROUNDS must be a number, at least 5 (no interval says anything below)"
fi
labels=() images=()
for arg; do
	[[ $arg == ?*=?* ]] || die $EX_USAGE "want LABEL=BZIMAGE, not '$arg'"
	labels+=("${arg%%=*}")
	images+=("${arg#*=}")
	[ -f "${arg#*=}" ] || die $EX_MISSING "no kernel ${arg#*=}"
done
case=${GROW_CASE:-bench_grow}
case "$case" in bench_grow|bench_grow_fragmented) ;;
*) die $EX_USAGE "GROW_CASE must be bench_grow or bench_grow_fragmented" ;; esac
initrd=${INITRD:-$PROJECT_TOP/build/initramfs.cpio}
[ -f "$initrd" ] || die $EX_MISSING "no initramfs $initrd (make initramfs)"
mkdir -p "$out"
: > "$out/grow.txt"

for ((r = 1; r <= rounds; r++)); do
	for i in "${!labels[@]}"; do
		run=$out/runs/$r-${labels[i]}
		status=0
		QEMU_MACHINE=pc TEST_TIMEOUT=600 BOOT_TIMEOUT=900 \
			"$PROJECT_TOP/scripts/vm/qemu-run.sh" -k "${images[i]}" -i "$initrd" \
			-t kunit -m 5120 -s 1 -o "$run" \
			-c "swiotlb=512,force kunit.filter_glob=swiotlb_dynamic.swiotlb_test_$case" \
			-x -icount -x shift=2,sleep=off >/dev/null || status=$?
		[ "$status" -eq 0 ] || die "$status" "round $r, ${labels[i]}: the boot failed (see $run/console.log)"
		tr -d '\r' < "$run/console.log" | grep -aq "ok 1 swiotlb_test_$case\$" ||
			die $EX_TESTFAIL "round $r, ${labels[i]}: swiotlb_test_$case did not pass (see $run/console.log)"
		line=$(tr -d '\r' < "$run/console.log" | grep -ao "swiotlb_test_$case: bench: .*") ||
			die $EX_TESTFAIL "round $r, ${labels[i]}: no bench: line (see $run/console.log)"
		us=$(awk '{ for (i = 1; i < NF; i++) if ($i == "grow_us") print $(i + 1) }' <<< "$line")
		[ -n "$us" ] || die $EX_TESTFAIL "round $r, ${labels[i]}: no grow_us in '$line'"
		echo "$r ${labels[i]} $us ${line#*bench: }" | tee -a "$out/grow.txt" >&2
	done
done
"$PROJECT_TOP/scripts/report/paired-ci.py" "$out/grow.txt" > "$out/grow.md"
cat "$out/grow.md"
