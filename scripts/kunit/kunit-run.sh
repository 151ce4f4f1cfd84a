#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Build a test kernel with the KUnit suite of tests/kunit/, boot it, and
# record one result per test case, as parsed by the tree's own kunit.py.
#
# usage: scripts/kunit/kunit-run.sh [SERIES] [y|n]
#   SERIES  the cut of the series the kernel is built from (default full;
#           scripts/series/list-series.sh --cuts lists them), or mainline
#           (lib.sh's MAINLINE_CUT): Debian's 6.12, none of our patches,
#           or mainline-fixes (MAINLINE_FIXES_CUT): 6.12 with our fixes
#           for mainline's code and nothing else
#   y|n      CONFIG_SWIOTLB_DYNAMIC (default y)
#
# The tree is build/src/kunit-SERIES, made by scripts/kunit/kunit-tree.sh:
# the series, the test-only hook tests/kunit/swiotlb-kunit-hook.patch, the
# suite (tests/kunit/swiotlb_dynamic_kunit.c and the files it includes, one
# per topic) and the header of what the cut offers (tests/kunit/features.txt);
# the shipped series never contains the hook.  The config is the patched
# kernel's (no option of its own), so that ccache shares every other object
# with that kernel; scripts/kernel/kconfig.sh and build-kernel.sh make it,
# as they make the other kernels.  On mainline the tree is
# build/src/kunit-mainline (kunit-tree.sh TREE mainline: 6.12 and its own
# hook), the config the mainline kernel's (DYN=n: kunit-dynn's), and the
# Makefile's KUNIT_MAINLINE_* and make kunit-kernel-mainline build it;
# on mainline-fixes, KUNIT_MAINLINE_FIXES_* and
# make kunit-kernel-mainline-fixes, the same with the fixes.
# The VM has no disk (nothing else may bounce while the suite swaps the
# system's allocator) and 5 GiB of RAM, so that the 32-bit DMA mask case
# has memory above 4 GiB to avoid.
#
# KUNIT_DEBUG=1 adds configs/debug.config (KASAN, lockdep, kmemleak, ...;
# the debug-kernel tests) in build/obj/kunit-SERIES-dynY-debug, results "kunit-debug".
#
# KUNIT_FILTER=GLOB boots with kunit.filter_glob=GLOB ("suite.case"), so
# that only the matching cases run; KUNIT_RUN=NAME then names the run
# (build/runs/NAME, result lines "NAME.CASE").  KUNIT_BOOT_ONLY=1 boots
# the kernel built last time without checking the tree and the build.
# KUNIT_CMDLINE=ARGS adds kernel arguments after the default ones (a
# later swiotlb= overrides the first); KUNIT_MEM=MiB sets the VM's RAM.
# KUNIT_ICOUNT=1 boots under "-icount shift=2,sleep=off" on one vCPU
# (the guest clock counts instructions; bookworm's QEMU hangs under icount
# with more), for the measurement cases (make bench-pools).
# KUNIT_PREEMPT=none|voluntary|full boots with preempt=MODE (the kernels
# are PREEMPT_DYNAMIC, as Debian's amd64 is) and records NAME.preempt:
# PASS only if the kernel said it runs in that mode.
# KUNIT_ARCH=arm64 (make kunit-arm64) builds the cut's KUnit tree for
# arm64 (the Makefile's KUNIT_ARM64_*, make kunit-kernel-arm64) and boots
# it on QEMU's virt machine with the arm64 initramfs; results
# "kunit[-SERIES]-arm64.CASE".  Not for mainline.
#
# Records PASS/FAIL "kunit[-SERIES][-nodyn][-debug].CASE" lines; a crash or a
# timeout in the middle of the suite fails every case that did not report.
# Exit status: EX_OK, EX_TESTFAIL, or the status of the stage that broke.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

series=${1:-full}
dyn=${2:-y}
need_cut --mainline "$series"
case "$dyn" in y|n) ;; *) die $EX_USAGE "dynamic must be y or n" ;; esac
smp=${SMP:-2} icount=()
case "${KUNIT_ICOUNT:-0}" in
0) ;;
1) smp=1 icount=(-x -icount -x "shift=2,sleep=off") ;;
*) die $EX_USAGE "KUNIT_ICOUNT must be 0 or 1, not '$KUNIT_ICOUNT'" ;;
esac

top=$PROJECT_TOP
build=$BUILD_DIR
arch=${KUNIT_ARCH:-x86_64}
arch_facts "$arch"
# The Makefile's variables and target of this kernel: KUNIT_* and
# kunit-kernel for a cut, KUNIT_MAINLINE_* and kunit-kernel-mainline for
# Debian's 6.12, which is no SERIES of the Makefile (any cut will do);
# KUNIT_MAINLINE_FIXES_* and kunit-kernel-mainline-fixes for it fixed.
if [ "$series" = "$MAINLINE_CUT" ]; then
	make_series=full var=KUNIT_MAINLINE target=kunit-kernel-mainline
elif [ "$series" = "$MAINLINE_FIXES_CUT" ]; then
	make_series=full var=KUNIT_MAINLINE_FIXES target=kunit-kernel-mainline-fixes
else
	make_series=$series var=KUNIT target=kunit-kernel
fi
initrd_var=INITRD
if [ "$arch" = arm64 ]; then
	is_mainline "$series" && die $EX_USAGE "KUNIT_ARCH=arm64 is for a cut of the series, not $series"
	var=KUNIT_ARM64 target=kunit-kernel-arm64 initrd_var=INITRD_arm64
fi
# kunit_make ARG...: the project's Makefile, for this kernel.
kunit_make() {
	project_make B="$build" SERIES="$make_series" DYN="$dyn" KUNIT_DEBUG="${KUNIT_DEBUG:-0}" "$@"
}
# The tree, the object directory and the initramfs are the Makefile's.
tree=$(kunit_make -s "print-${var}_SRC") obj=$(kunit_make -s "print-${var}_OBJ")
initrd=$(kunit_make -s "print-$initrd_var")
if [ -z "$tree" ] || [ -z "$obj" ] || [ -z "$initrd" ]; then
	die $EX_USAGE "the Makefile gave no KUnit tree, object directory or initramfs"
fi
runs=$build/runs
name=kunit
[ "$series" = full ] || name=$name-$series
[ "$dyn" = y ] || name=$name-nodyn
[ "${KUNIT_DEBUG:-0}" = 1 ] && name=$name-debug
[ "$arch" = x86_64 ] || name=$name-$arch
name=${KUNIT_RUN:-$name}
out=$runs/$name
preempt=${KUNIT_PREEMPT:-}
case "$preempt" in ''|none|voluntary|full) ;; *) die $EX_USAGE "KUNIT_PREEMPT must be none, voluntary or full" ;; esac
cmdline="swiotlb=512,force${KUNIT_FILTER:+ kunit.filter_glob=$KUNIT_FILTER}${preempt:+ preempt=$preempt}${KUNIT_CMDLINE:+ $KUNIT_CMDLINE}"

if [ "${KUNIT_BOOT_ONLY:-0}" = 1 ] && [ -f "$obj/$ARCH_IMAGE" ]; then
	info "KUNIT_BOOT_ONLY: booting $obj as it is"
else
	# The Makefile builds it (make kunit-kernel: kunit-tree.sh, kconfig.sh,
	# build-kernel.sh), as it builds the other kernels.
	if is_mainline "$series"; then
		how="make $target DYN=$dyn"
	else
		how="make $target SERIES=$series DYN=$dyn"
	fi
	kunit_make "$target" ||
		die $EX_BUILD "the KUnit kernel did not build ($how; its error is above)"
fi

# The initramfs is the same for every kernel of an architecture. On
# mainline and on arm64 the Makefile's rule makes it (from 6.1's base
# tree): mk-initramfs.sh on the KUnit tree would build dma_map_benchmark
# from 6.12's source and header, and arm64's needs its busybox.
if [ -f "$initrd" ]; then
	:
elif is_mainline "$series" || [ "$arch" != x86_64 ]; then
	kunit_make "$initrd" || die $EX_BUILD "no initramfs $initrd (make $initrd; its error is above)"
else
	"$top/scripts/vm/mk-initramfs.sh" "$initrd" "$tree"
fi

status=0
TEST_TIMEOUT=${KUNIT_TIMEOUT:-600} BOOT_TIMEOUT=${KUNIT_BOOT_TIMEOUT:-900} \
	QEMU_ARCH=$arch "$top/scripts/vm/qemu-run.sh" -k "$obj/$ARCH_IMAGE" -i "$initrd" \
	-t kunit -c "$cmdline" -m "${KUNIT_MEM:-5120}" \
	-s "$smp" -o "$out" "${icount[@]}" || status=$?

# The results go under this run's name ($out is named after it too):
# without one they would all be ".CASE", which no later step can find.
[ -n "$name" ] || die $EX_TESTFAIL "the run has lost its name (its results would be recorded as .CASE)"
# Judge this run's lines only: RESULTS_FILE may hold earlier runs.
before=0
[ ! -f "$RESULTS_FILE" ] || before=$(wc -l < "$RESULTS_FILE")
"$top/scripts/kunit/kunit-results.sh" "$tree" "$out/console.log" "$name" || true
# The mode asked for, as the kernel reports it (sched_dynamic_update()).
if [ -n "$preempt" ]; then
	if grep -q "Dynamic Preempt: $preempt" "$out/console.log" 2>/dev/null; then
		record PASS "$name.preempt" "the kernel ran with preempt=$preempt"
	else
		record FAIL "$name.preempt" "no 'Dynamic Preempt: $preempt' on the console"
	fi
fi
[ $status -eq 0 ] || exit $status
tail -n +"$((before + 1))" "$RESULTS_FILE" | grep -q "^FAIL $name\." && exit $EX_TESTFAIL
exit $EX_OK
