#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Build a test kernel with the KUnit suite of tests/kunit/, boot it, and
# record one result per test case, as parsed by the tree's own kunit.py.
#
# usage: scripts/kunit/kunit-run.sh [SERIES] [y|n]
#   SERIES  the cut of the series the kernel is built from (default full;
#           scripts/series/list-series.sh --cuts lists them)
#   y|n      CONFIG_SWIOTLB_DYNAMIC (default y)
#
# The suite is tests/kunit/swiotlb_dynamic_kunit.c and the files it
# includes, one per topic (tests/kunit/swiotlb_kunit_*.c).  The test-only
# hook tests/kunit/swiotlb-kunit-hook.patch (an #include of the test seam
# tests/kunit/swiotlb_dynamic_kunit.h near the top of kernel/dma/swiotlb.c
# and one of the suite at its end, both under CONFIG_KUNIT) is applied after
# the series to a tree of its own, build/src/kunit-SERIES; the shipped
# series never contains it.  The config is the patched kernel's (no option
# of its own), so that ccache shares every other object with that kernel.
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
#
# Records PASS/FAIL "kunit[-SERIES][-nodyn][-debug].CASE" lines; a crash or a
# timeout in the middle of the suite fails every case that did not report.
# Exit status: EX_OK, EX_TESTFAIL, or the status of the stage that broke.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

series=${1:-full}
dyn=${2:-y}
need_cut "$series"
case "$dyn" in y|n) ;; *) die $EX_USAGE "dynamic must be y or n" ;; esac
smp=${SMP:-2} icount=()
case "${KUNIT_ICOUNT:-0}" in
0) ;;
1) smp=1 icount=(-x -icount -x "shift=2,sleep=off") ;;
*) die $EX_USAGE "KUNIT_ICOUNT must be 0 or 1, not '$KUNIT_ICOUNT'" ;;
esac

top=$PROJECT_TOP
build=${BUILD:-$top/build}
tree=$build/src/kunit-$series
obj=$build/obj/kunit-$series-dyn$dyn
runs=$build/runs
name=kunit
[ "$series" = full ] || name=$name-$series
[ "$dyn" = y ] || name=$name-nodyn
if [ "${KUNIT_DEBUG:-0}" = 1 ]; then
	obj=$obj-debug
	name=$name-debug
fi
name=${KUNIT_RUN:-$name}
out=$runs/$name
preempt=${KUNIT_PREEMPT:-}
case "$preempt" in ''|none|voluntary|full) ;; *) die $EX_USAGE "KUNIT_PREEMPT must be none, voluntary or full" ;; esac
cmdline="swiotlb=512,force${KUNIT_FILTER:+ kunit.filter_glob=$KUNIT_FILTER}${preempt:+ preempt=$preempt}${KUNIT_CMDLINE:+ $KUNIT_CMDLINE}"

if [ "${KUNIT_BOOT_ONLY:-0}" = 1 ] && [ -f "$obj/arch/x86/boot/bzImage" ]; then
	info "KUNIT_BOOT_ONLY: booting $obj as it is"
else
	# A tree patched with an older version of the series starts over (as the
	# Makefile does for build/src/full): the hook and the suite go in again.
	# shellcheck disable=SC2046 # patch paths have no spaces
	want=$(series_stamp $("$top/scripts/series/list-series.sh" "$series"))
	if [ -f "$tree/.series-applied" ] && [ "$(cat "$tree/.series-applied")" != "$want" ]; then
		info "the series changed since $tree was patched: extracting it again"
		rm -rf "$tree"
	fi
	"$top/scripts/series/get-source.sh" "$tree"
	"$top/scripts/series/apply-series.sh" "$tree" "$series"
	# The tree keeps a copy of the hook it has applied in .kunit-hook: when the
	# hook changed since, take the old one out before the new one goes in.
	hook=$top/tests/kunit/swiotlb-kunit-hook.patch
	if ! cmp -s "$hook" "$tree/.kunit-hook"; then
		if [ -f "$tree/.kunit-hook" ]; then
			patch -d "$tree" -p1 -F0 -R -s --no-backup-if-mismatch \
				< "$tree/.kunit-hook" ||
				die $EX_PATCH "cannot take the old KUnit hook out of $tree (make distclean)"
			rm -f "$tree/.kunit-hook"
		fi
		patch -d "$tree" -p1 -F0 -N -s --no-backup-if-mismatch < "$hook" ||
			die $EX_PATCH "tests/kunit/swiotlb-kunit-hook.patch does not apply to $tree"
		cp "$hook" "$tree/.kunit-hook"
	fi
	# Copy the suite (every .c and .h of tests/kunit/) file by file, each
	# only when it changed, so that make rebuilds only then; and take out
	# the copy of a topic file that tests/kunit/ no longer has (renamed or
	# merged), so that no stale one stays in the tree.
	for f in "$top"/tests/kunit/*.c "$top"/tests/kunit/*.h; do
		cmp -s "$f" "$tree/kernel/dma/${f##*/}" ||
			cp "$f" "$tree/kernel/dma/"
	done
	for f in "$tree"/kernel/dma/swiotlb_kunit_*.c; do
		[ -e "$f" ] || continue
		[ -f "$top/tests/kunit/${f##*/}" ] || rm -f "$f"
	done
	# What the series in the tree offers, for the cases that need more than
	# v7 has: one macro per patch, defined where the tree has a name that
	# the patch brings (MACRO FILE NAME, then the patch).
	# A name that is missing although its patch is in the cut means the
	# detection is broken (a rename), and the cases that need it would
	# only skip: that stops the run.
	features=$(mktemp)
	cut_patches=$("$top/scripts/series/list-series.sh" "$series" | sed 's|.*/||; s|-.*||')
	missing=
	# (Not "name": that is this run's name, used below.)
	while read -r f_macro f_file f_name f_patch _; do
		if grep -q "$f_name" "$tree/$f_file"; then
			echo "#define $f_macro 1"
		elif grep -qx "${f_patch%,}" <<< "$cut_patches"; then
			missing="$f_name is not in $f_file, though patch ${f_patch%,} is in SERIES=$series ($f_macro)"
			break
		fi
	done > "$features" <<-'EOF'
		SWIOTLB_KUNIT_COUNT_FREED kernel/dma/swiotlb.c swiotlb_count_freed  0017, not in SERIES=v7
		SWIOTLB_KUNIT_AREA_MAJOR kernel/dma/swiotlb.c swiotlb_search_pools  0019, not in SERIES=v7
		SWIOTLB_KUNIT_POOL_OPS include/linux/swiotlb.h swiotlb_pool_unmap_single  0020, not in SERIES=v7
		SWIOTLB_KUNIT_POOL_INDEX kernel/dma/swiotlb.c swiotlb_index_update  0028, not in SERIES=noscale
		SWIOTLB_KUNIT_INDEX_SPARE kernel/dma/swiotlb.c swiotlb_index_alloc  0040, not in SERIES=noscale
		SWIOTLB_KUNIT_GROW_STEPS kernel/dma/swiotlb.c swiotlb_grow_nslabs  0030, not in SERIES=noscale
		SWIOTLB_KUNIT_SEARCH_HINT kernel/dma/swiotlb.c swiotlb_cpu_area  0031, not in SERIES=noscale
		SWIOTLB_KUNIT_OLDEST_FIRST kernel/dma/swiotlb.c swiotlb_hint_release  0032, not in SERIES=noscale
		SWIOTLB_KUNIT_TRANSIENT_MAPS include/linux/swiotlb.h transient_maps  0036, not in SERIES=noscale
		SWIOTLB_KUNIT_STOP_GROWTH kernel/dma/swiotlb.c swiotlb_stop_growth  0038, not in SERIES=noscale
	EOF
	if [ -n "$missing" ]; then
		rm -f "$features"
		die $EX_TESTFAIL "feature detection: $missing"
	fi
	cmp -s "$features" "$tree/kernel/dma/swiotlb_kunit_features.h" ||
		cp "$features" "$tree/kernel/dma/swiotlb_kunit_features.h"
	rm -f "$features"

	# The patched kernel's fragments, in its order (configs/kernels.txt):
	# the same .config, so ccache gives this kernel the patched kernel's
	# objects.
	mapfile -t frags < <("$top/scripts/kernel/fragments.sh" "kunit-dyn$dyn")
	[ "${#frags[@]}" -gt 0 ] || die $EX_CONFIG "no fragments for kunit-dyn$dyn (configs/kernels.txt)"
	[ "${KUNIT_DEBUG:-0}" = 1 ] && frags+=("$top/configs/debug.config")
	stamp=$obj/.fragments
	if [ ! -f "$obj/.config" ] || [ "$(cat "${frags[@]}" | md5sum)" != "$(cat "$stamp" 2>/dev/null)" ]; then
		"$top/scripts/kernel/kconfig.sh" --in-tree "$tree" "$obj" "${frags[@]}"
		cat "${frags[@]}" | md5sum > "$stamp"
	fi
	"$top/scripts/kernel/build-kernel.sh" "$tree" "$obj"
fi

initrd=$build/initramfs.cpio
[ -f "$initrd" ] || "$top/scripts/vm/mk-initramfs.sh" "$initrd" "$tree"

status=0
TEST_TIMEOUT=${KUNIT_TIMEOUT:-600} BOOT_TIMEOUT=${KUNIT_BOOT_TIMEOUT:-900} \
	"$top/scripts/vm/qemu-run.sh" -k "$obj/arch/x86/boot/bzImage" -i "$initrd" \
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
