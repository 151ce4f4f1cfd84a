#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The benchmark: fio bandwidth and dma_map_benchmark latency of
# three kernels side by side, in the form of the cover letter's tables.
#
# usage: scripts/bench/bench.sh OUTDIR
#
# The three kernels, all with swiotlb=force and the same virtio disk
# (iommu_platform=on, so every request is bounced):
#   base      the unpatched kernel, the default 64 MiB pool
#   default   the patched kernel (DYNAMIC=y), the default 64 MiB pool
#   growing   the patched kernel, swiotlb=512,force: a 1 MiB pool that grows
# and:
#   control   CONTROL=1 (the default): the base kernel booted again with
#             base's parameters; its paired interval against base must
#             contain 0, or the run is too noisy to judge anything
#             (bench-report.sh)
#   noshrink  with BZIMAGE_noshrink: the full series without
#             CONFIG_SWIOTLB_SHRINK, as growing (cmdline and spike); the
#             control of the reclaim goal, which it must miss
#   sized     SIZED=1 (the default): the base kernel with a fixed pool of the
#             size the measured loads of the first round's growing runs
#             needed (their largest io_tlb_used_hiwater, at least growing's
#             boot size, rounded up to a power of two as the kernel rounds
#             it), the alternative to growing that a user would set by
#             hand.  It runs last in each round, because its size is known
#             only after the first round.
#             meta.txt also keeps the size the growing runs' pools reached
#             (sized_rule4_nslabs), which the spike's 4x rule sets, not the load.
# Workloads: tests/fio/bench-WORKLOAD.fio (small, big, 4way).
#
# Every slot but sized runs the same warm-up before its measured load: the
# spike job (GROWING_SPIKE), once; a slot booted with growing's parameters
# repeats it until its swiotlb holds four times its boot size, at most
# four times.
#
# Every run boots a fresh VM with BENCH_SMP vCPUs (default 1) under
# "-icount shift=2,sleep=off" (the guest clock counts instructions: plain
# TCG timing varies by about 20 % from run to run, icount by under 1 %).
# Bookworm's QEMU 7.2 hangs at "Bringing up secondary CPUs" under icount
# with -smp 2 or more; `make bench SMP=N` runs backports' QEMU 10.0 from
# scripts/vm/get-qemu.sh instead, with QEMU_MACHINE=pc (its q35 firmware hangs
# under icount).  Runs are interleaved (for each run: each workload: base,
# default, growing) so that drift on the host hits all three alike, and the
# first round is a warm-up whose numbers are discarded.  Then DMA_RUNS
# rounds of one VM per kernel of DMA_SLOTS (base, default, growing) run
# dma_map_benchmark on QEMU's edu device, after the same warm-up on the
# virtio disk: under icount its microseconds are instructions (4 ns each),
# the per-operation cost of the swiotlb path without the host's I/O noise.
#
# Writes OUTDIR/raw/KERNEL-WORKLOAD-RUN/ (run 0 is the warm-up) and
# OUTDIR/raw/KERNEL-dma-RUN/ and OUTDIR/failed.txt (one line "NAME STATUS" per
# VM that did not pass), then runs scripts/bench/bench-report.sh OUTDIR.
# A progress line for every VM says which kernel, which workload, which run
# and the ETA.  Exits EX_OK when every run passed; otherwise with the
# status of the first run that did not (EX_TESTFAIL, EX_CRASH or
# EX_TIMEOUT), after the report of what did.
#
# Environment:
#   RUNS (6: the paired interval then has 97 % coverage)  RUNTIME (5 s of guest time per fio run)  WARMUP (1 or 0)
#   WORKLOADS ("small big 4way"; empty: dma_map_benchmark alone)
#   DMA_SECONDS (2 per dma_map_benchmark case)
#   DMA_RUNS (RUNS): rounds of dma_map_benchmark VMs
#   BZIMAGE_base, BZIMAGE_patched, INITRD, MEM (1024), SERIES (for the report)
#   BENCH_SMP (1): vCPUs (not SMP, which make exports for its QEMU tests);
#     more than one needs QEMU 8 or later (see above).
#   QEMU, QEMU_MACHINE: see scripts/vm/qemu-run.sh
#   BZIMAGE_default, BZIMAGE_growing (BZIMAGE_patched), DEFAULT_CMDLINE
#     (swiotlb=force), DEFAULT_LABEL, GROWING_LABEL ("patched"): another
#     kernel or parameters in a slot; make bench-perf puts the series
#     without the performance patches (0019-0020) in default's place.
#   BASE_LABEL ("unpatched"), BASE_CMDLINE (swiotlb=force): what the base
#     kernel is, for the report, and its parameters.  make bench-shrink
#     puts the full series without CONFIG_SWIOTLB_SHRINK in base's place.
#   BZIMAGE_noshrink (none): the noshrink slot; SIZED (1 or 0): the sized slot
#   CONTROL (1 or 0): the control slot
#   EXTRA_SLOTS (none): more slots, after noshrink: each NAME (lower-case
#     letters and digits: the report splits raw/ names at "-") needs
#     BZIMAGE_NAME and CMDLINE_NAME, and takes LABEL_NAME for the report;
#     a slot booted with growing's parameters repeats the spike as growing
#     does.  make bench-decompose puts a fixed pool on the patched kernel
#     and the series before its performance and scale patches there.
#   BENCH_STEPS (none): "A/B ..." pairs of slots that the report compares
#     round by round, B the reference, besides every slot against base;
#     on fio, and on dma_map_benchmark where both slots ran it.
#   DMA_SLOTS ("base default growing"): the slots of the dma rounds.
#   GROWING_SPIKE (bench-spike.fio): the warm-up, a job of tests/fio that
#     each run runs before the measured load, and repeats where growing's
#     parameters let the swiotlb grow (tests/guest/bench-fio.sh); empty: none.
#   GROWING_CMDLINE (swiotlb=512,force): the growing kernel's parameters.
#     With one vCPU, requests complete quickly: at most 80 (small), 250-320
#     (4way) and 280-420 (big) slots were in use at once, so a 512-slot
#     pool grew in only one of 18 runs (big, to 1024 slots); a 128-slot
#     pool (swiotlb=128,force) grew to 256 slots in a one-run check.
#
#   BENCH_DISK (virtio-sync): the disk of every VM, a virtio-blk-pci with
#     iommu_platform=on; virtio-sync has ioeventfd=off, virtio has not
#     (scripts/vm/qemu-run.sh).  Small I/O on bare QEMU varied less with
#     virtio-sync, and the first bench runs in which growing's 4 KiB
#     intervals resolved had it (docs/RESULTS.md).
#
# The guest clock counts instructions, but QEMU completes I/O on host
# threads: run it on an idle host.  A kernel build on the other core
# lowered the small-block numbers by about 7 % (measured).
set -uo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] || die $EX_USAGE "usage: $0 OUTDIR"
out=$1
runs=${RUNS:-6} runtime=${RUNTIME:-5} warmup=${WARMUP:-1} smp=${BENCH_SMP:-1}
workloads=${WORKLOADS-small big 4way} dma_seconds=${DMA_SECONDS:-2}
dma_runs=${DMA_RUNS:-$runs}
for v in runs runtime dma_seconds dma_runs smp; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || die $EX_USAGE "${v^^} must be a positive number, not '${!v}'"
done
[[ $warmup =~ ^[01]$ ]] || die $EX_USAGE "WARMUP must be 0 or 1, not '$warmup'"
sized=${SIZED:-1} control=${CONTROL:-1}
[[ $sized =~ ^[01]$ ]] || die $EX_USAGE "SIZED must be 0 or 1, not '$sized'"
[[ $control =~ ^[01]$ ]] || die $EX_USAGE "CONTROL must be 0 or 1, not '$control'"
disk=${BENCH_DISK:-virtio-sync}
[[ $disk =~ ^virtio(-sync)?$ ]] || die $EX_USAGE "BENCH_DISK must be virtio-sync or virtio, not '$disk'"
bz_base=${BZIMAGE_base:-$(make_var BZIMAGE_base)}
bz_patched=${BZIMAGE_patched:-$(make_var BZIMAGE_patched)}
bz_default=${BZIMAGE_default:-$bz_patched} bz_growing=${BZIMAGE_growing:-$bz_patched}
bz_noshrink=${BZIMAGE_noshrink:-}
initrd=${INITRD:-$(make_var INITRD)}
qemu=${QEMU:-qemu-system-x86_64}
command -v "$qemu" > /dev/null || die $EX_MISSING "$qemu not found"
# QEMU 7 hangs under icount with more than one vCPU: every VM would time out.
qemu_major=$("$qemu" --version 2> /dev/null | sed -n '1s/.*version \([0-9]*\)\..*/\1/p')
if [ "$smp" -gt 1 ] && [ "${qemu_major:-0}" -lt 8 ]; then
	die $EX_USAGE "BENCH_SMP=$smp needs QEMU 8 or later under icount ($qemu is ${qemu_major:-unknown}); use make bench SMP=$smp"
fi
for f in "$bz_base" "$bz_default" "$bz_growing" ${bz_noshrink:+"$bz_noshrink"} "$initrd"; do
	[ -f "$f" ] || die $EX_MISSING "$f not found (make kernels initramfs)"
done
for w in $workloads; do
	[ -f "$PROJECT_TOP/tests/fio/bench-$w.fio" ] ||
		die $EX_USAGE "no job file tests/fio/bench-$w.fio for workload '$w'"
done

# kernels: the slots, in the order of the first round; sized runs last.
kernels=(base default growing)
declare -A bz=([base]=$bz_base [default]=$bz_default [growing]=$bz_growing [sized]=$bz_base [control]=$bz_base)
declare -A cmdline=([base]=${BASE_CMDLINE:-swiotlb=force} [default]=${DEFAULT_CMDLINE:-swiotlb=force} [growing]=${GROWING_CMDLINE:-swiotlb=512,force})
cmdline[control]=${cmdline[base]}
growing_spike=${GROWING_SPIKE-bench-spike.fio}
[ -z "$growing_spike" ] || [ -f "$PROJECT_TOP/tests/fio/$growing_spike" ] ||
	die $EX_USAGE "no job file tests/fio/$growing_spike for GROWING_SPIKE"
if [ -n "$bz_noshrink" ]; then
	kernels+=(noshrink)
	bz[noshrink]=$bz_noshrink cmdline[noshrink]=${cmdline[growing]}
fi
extra_labels=()
for k in ${EXTRA_SLOTS:-}; do
	[[ $k =~ ^[a-z][a-z0-9]*$ ]] ||
		die $EX_USAGE "EXTRA_SLOTS: '$k' is not a slot name (lower-case letters and digits)"
	case " ${kernels[*]} control sized " in
	*" $k "*) die $EX_USAGE "EXTRA_SLOTS: '$k' is a slot already" ;;
	esac
	v=BZIMAGE_$k c=CMDLINE_$k l=LABEL_$k
	[ -f "${!v:-}" ] || die $EX_MISSING "EXTRA_SLOTS: $v (${!v:-not set}) not found"
	[ -n "${!c:-}" ] || die $EX_USAGE "EXTRA_SLOTS: $c is not set"
	kernels+=("$k")
	bz[$k]=${!v} cmdline[$k]=${!c}
	extra_labels+=("${k}_label=${!l:-$k}")
done
[ "$control" = 0 ] || kernels+=(control)
[ "$sized" = 0 ] || kernels+=(sized)
for st in ${BENCH_STEPS:-}; do
	[[ $st =~ ^[a-z][a-z0-9]*/[a-z][a-z0-9]*$ ]] || die $EX_USAGE "BENCH_STEPS: '$st' is not SLOT/SLOT"
	for k in "${st%/*}" "${st#*/}"; do
		case " ${kernels[*]} " in
		*" $k "*) ;;
		*) die $EX_USAGE "BENCH_STEPS: '$st': no slot '$k' in this run (${kernels[*]})" ;;
		esac
	done
done
read -ra dma_slots <<< "${DMA_SLOTS:-base default growing}"
for k in "${dma_slots[@]}"; do
	case " ${kernels[*]} " in
	*" $k "*) [ "$k" != sized ] || die $EX_USAGE "DMA_SLOTS: sized has no size before the first round" ;;
	*) die $EX_USAGE "DMA_SLOTS: no slot '$k' in this run (${kernels[*]})" ;;
	esac
done
# spike_arg KERNEL: bench-fio's warm-up arguments: the spike, repeated
# (up to 4 times) only on growing's parameters.  sized runs none: its pool
# is what the loads needed, and the spike's 1 MiB requests need more (on a
# 512-slot sized pool every request waited for slots held by the others
# until the run timed out, measured).
spike_arg() {
	[ -n "$growing_spike" ] && [ "$1" != sized ] || return 0
	if [ "${cmdline[$1]}" = "${cmdline[growing]}" ]; then
		echo ",$growing_spike"
	else
		echo ",$growing_spike,1"
	fi
}
icount=(-s "$smp" -x -icount -x "shift=2,sleep=off")

rm -rf "$out/raw" "$out/failed.txt"
mkdir -p "$out/raw"
: > "$out/failed.txt"
{
	echo "runs=$runs"
	echo "runtime=$runtime"
	echo "warmup=$warmup"
	echo "workloads=$workloads"
	echo "dma_seconds=$dma_seconds"
	echo "dma_runs=$dma_runs"
	echo "series=${SERIES:-full}"
	echo "mem=${MEM:-1024}"
	echo "qemu=$("$qemu" --version 2> /dev/null | head -n 1)"
	echo "qemu_args=-accel tcg -machine ${QEMU_MACHINE:-q35} -smp $smp -icount shift=2,sleep=off"
	echo "smp=$smp"
	echo "disk=$disk"
	echo "base_label=${BASE_LABEL:-unpatched}"
	echo "default_label=${DEFAULT_LABEL:-patched}"
	echo "growing_label=${GROWING_LABEL:-patched}"
	echo "noshrink_label=full series without CONFIG_SWIOTLB_SHRINK"
	echo "control_label=${BASE_LABEL:-unpatched}, booted again"
	[ "${#extra_labels[@]}" = 0 ] || printf '%s\n' "${extra_labels[@]}"
	echo "extra_slots=${EXTRA_SLOTS:-}"
	echo "steps=${BENCH_STEPS:-}"
	echo "dma_slots=${dma_slots[*]}"
	echo "kernels=${kernels[*]}"
	for k in "${kernels[@]}"; do [ "$k" = sized ] || echo "cmdline_$k=${cmdline[$k]}"; done
	echo "growing_spike=$growing_spike"
	echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} > "$out/meta.txt"

nwork=$(wc -w <<< "$workloads")
total=$(((runs + warmup) * nwork * ${#kernels[@]} + ${#dma_slots[@]} * dma_runs))
done_vms=0 start=$SECONDS first_bad=0

# vm KERNEL NAME LABEL QEMU-RUN-OPTIONS...: one VM, one progress line.
vm() {
	local k=$1 name=$2 label=$3 eta='?' status
	shift 3
	if [ "$done_vms" -gt 0 ]; then
		eta=$(((SECONDS - start) * (total - done_vms) / done_vms))
		eta="$((eta / 60)) min $((eta % 60)) s"
	fi
	echo "bench: [$((done_vms + 1))/$total] $k, $label; ETA $eta"
	MEM=${MEM:-1024} LAST_LINES=20 "$PROJECT_TOP/scripts/vm/qemu-run.sh" \
		-k "${bz[$k]}" -i "$initrd" -c "${cmdline[$k]}" -o "$out/raw/$name" \
		"${icount[@]}" "$@" > "$out/raw/$name.out" 2>&1
	status=$?
	done_vms=$((done_vms + 1))
	if [ "$status" != 0 ]; then
		echo "bench: $name did not pass (status $status):"
		sed 's/^/  /' "$out/raw/$name.out" | tail -n 25
		echo "$name $status" >> "$out/failed.txt"
		[ "$first_bad" != 0 ] || first_bad=$status
	fi
}

# sized_nslabs KEY: the largest KEY of the growing runs so far, at least
# growing's boot size, rounded up to a power of two, as 6.1's swiotlb
# rounds its default pool (round_up_default_nslabs(): swiotlb=640 boots
# 1024 slots); nothing if no run reported one.  KEY is
# hiwater (what the measured loads had in use at once) or nslabs (the
# largest pool after the spikes or the load: the 4x rule's figure).
sized_nslabs() {
	cat "$out"/raw/growing-*/result.txt 2> /dev/null | tr -d '\r' |
		awk -F= -v key="$1" '$1 == "nslabs_boot" { boot = $2 + 0 }
			key == "hiwater" && $1 == "hiwater" { if ($2 + 0 > max) max = $2 + 0 }
			key == "nslabs" && ($1 == "nslabs_warm" || $1 == "nslabs_after") { if ($2 + 0 > max) max = $2 + 0 }
			END { if (max > 0) { if (boot > max) max = boot; n = 128; while (n < max) n *= 2; print n } }'
}

# fio_vm KERNEL WORKLOAD RUN
fio_vm() {
	local label="$2, run $3 of $runs"
	[ "$3" = 0 ] && label="$2, warm-up run (discarded)"
	vm "$1" "$1-$2-$3" "$label" -t bench-fio -a "bench-$2.fio,$runtime$(spike_arg "$1")" -d "$disk"
}

# The slots run in an order that rotates from round to round (sized,
# whose size the first round sets, after them): in a fixed order a drift
# within each round reads as a difference between the slots.
mapfile -t order < <(printf '%s\n' "${kernels[@]}" | grep -vx sized)
first_run=$((1 - warmup))
for ((i = first_run; i <= runs; i++)); do
	for w in $workloads; do
		for k in "${order[@]}"; do
			fio_vm "$k" "$w" "$i"
		done
	done
	order=("${order[@]:1}" "${order[0]}")
	[ "$sized" = 1 ] || continue
	if [ "$i" = "$first_run" ]; then
		n=$(sized_nslabs hiwater)
		echo "sized_rule4_nslabs=$(sized_nslabs nslabs)" >> "$out/meta.txt"
		if [ -z "$n" ]; then
			echo "bench: no growing run reported its high-water mark: no sized kernel"
			sized=0 total=$((total - (runs - first_run + 1) * nwork))
			echo "sized_nslabs=" >> "$out/meta.txt"
			continue
		fi
		cmdline[sized]="swiotlb=$n,force"
		echo "bench: sized = ${BASE_LABEL:-unpatched} with ${cmdline[sized]} (what the growing runs' loads had in use)"
		{ echo "sized_nslabs=$n"; echo "cmdline_sized=${cmdline[sized]}"; } >> "$out/meta.txt"
	fi
	for w in $workloads; do fio_vm sized "$w" "$i"; done
done
for ((r = 1; r <= dma_runs; r++)); do
	for k in "${dma_slots[@]}"; do
		vm "$k" "$k-dma-$r" "dma_map_benchmark, round $r of $dma_runs" \
			-t bench-dma -a "$dma_seconds$(spike_arg "$k")" -d "$disk" -x -device -x edu
	done
done
echo "bench: $done_vms VMs in $(((SECONDS - start) / 60)) min $(((SECONDS - start) % 60)) s"

"$PROJECT_TOP/scripts/bench/bench-report.sh" "$out"
report=$?
[ "$first_bad" = 0 ] || exit "$first_bad"
exit "$report"
