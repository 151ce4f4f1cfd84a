#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# One KUnit bench case on several KUnit kernels side by side, booted under
# "-icount shift=2,sleep=off", where the guest clock counts instructions,
# in interleaved rounds.  BENCH_CASE names the case and what is compared:
#   bench_grow             (default) grow_us: the grow worker takes a
#                          private allocator to 256 MiB
#   bench_grow_fragmented  grow_us: the same to 64 MiB where no contiguous
#                          range can be had
#   bench_hint             op_ns: one thread per vCPU maps and unmaps
#                          4 KiB beside a nearly full older pool
#
# usage: scripts/bench/kunit-bench.sh OUTDIR ROUNDS LABEL=BZIMAGE...
#
# The first LABEL is the reference; give one kernel twice under two
# labels for a control.  Each round boots every kernel once, in the order
# given.  Writes OUTDIR/bench.txt ("ROUND LABEL VALUE", then the other
# numbers of the case's bench: line, per boot) and OUTDIR/bench.md
# (scripts/report/paired-ci.py's table of the values), and prints the
# table.  BENCH_SMP vCPUs (default 1), on the pc machine; above one, QEMU
# must be backports' (QEMU=build/qemu-bpo/qemu-system-x86_64, from
# scripts/vm/get-qemu.sh): bookworm's hangs under icount.
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
case=${BENCH_CASE:-bench_grow}
case "$case" in
bench_grow|bench_grow_fragmented) key=grow_us ;;
bench_hint) key=op_ns ;;
*) die $EX_USAGE "BENCH_CASE must be bench_grow, bench_grow_fragmented or bench_hint" ;;
esac
smp=${BENCH_SMP:-1}
[[ $smp =~ ^[1-9][0-9]*$ ]] || die $EX_USAGE "BENCH_SMP must be a number of vCPUs, not '$smp'"
initrd=${INITRD:-$(make_var INITRD)}
[ -f "$initrd" ] || die $EX_MISSING "no initramfs $initrd (make initramfs)"
mkdir -p "$out"
: > "$out/bench.txt"

for ((r = 1; r <= rounds; r++)); do
	for i in "${!labels[@]}"; do
		run=$out/runs/$r-${labels[i]}
		status=0
		QEMU_MACHINE=pc TEST_TIMEOUT=600 BOOT_TIMEOUT=900 \
			"$PROJECT_TOP/scripts/vm/qemu-run.sh" -k "${images[i]}" -i "$initrd" \
			-t kunit -m 5120 -s "$smp" -o "$run" \
			-c "swiotlb=512,force kunit.filter_glob=swiotlb_dynamic.swiotlb_test_$case" \
			-x -icount -x shift=2,sleep=off >/dev/null || status=$?
		[ "$status" -eq 0 ] || die "$status" "round $r, ${labels[i]}: the boot failed (see $run/console.log)"
		tr -d '\r' < "$run/console.log" | grep -aq "ok 1 swiotlb_test_$case\$" ||
			die $EX_TESTFAIL "round $r, ${labels[i]}: swiotlb_test_$case did not pass (see $run/console.log)"
		line=$(tr -d '\r' < "$run/console.log" | grep -ao "swiotlb_test_$case: bench: .*") ||
			die $EX_TESTFAIL "round $r, ${labels[i]}: no bench: line (see $run/console.log)"
		value=$(awk -v k="$key" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' <<< "$line")
		[ -n "$value" ] || die $EX_TESTFAIL "round $r, ${labels[i]}: no $key in '$line'"
		echo "$r ${labels[i]} $value ${line#*bench: }" | tee -a "$out/bench.txt" >&2
	done
done
"$PROJECT_TOP/scripts/report/paired-ci.py" "$out/bench.txt" > "$out/bench.md"
cat "$out/bench.md"
