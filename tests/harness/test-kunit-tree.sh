#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/kunit/kunit-tree.sh on a toy tree that already holds the series
# and the hook (its stamps say so; a Makefile answers kernelversion), so
# that only the suite and the feature detection run:
#   - every name of tests/kunit/features.txt present: exit 0, one #define
#     per line, the suite copied, a stale topic file taken out;
#   - a name missing whose patch is in the cut (SERIES=full): exit 1, the
#     name and the patch in the message;
#   - the same name missing on a cut without its patch (SERIES=noscale):
#     exit 0, and no #define for it;
#   - on a toy 6.12 (SERIES=mainline) that has every name too: a #define
#     for each line whose PATCH is "mainline" and for no other; a cut has
#     none of those;
#   - a mainline name missing there: exit 1, the name in the message;
#   - on a toy 6.12 with our fixes (SERIES=mainline-fixes, its stamp the
#     fixes of patches/6.12 in their order): the mainline macros and
#     SWIOTLB_KUNIT_MAINLINE_FIXES, which plain 6.12 does not get.
# Records harness.kunit-tree.CASE.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/harness/harness-lib.sh
. "$here/harness-lib.sh"
features=$PROJECT_TOP/tests/kunit/features.txt
# the lines a cut reads, and those mainline reads
nfeat=$(awk '!/^#/ && NF && $4 != "mainline"' "$features" | wc -l)
nmain=$(awk '!/^#/ && NF && $4 == "mainline"' "$features" | wc -l)

# toy SERIES: a tree in $tmp/SERIES whose files have every name of
# features.txt, ours and mainline's; SERIES=mainline makes a 6.12.
toy() {
	local t=$tmp/$1 macro file name _
	mkdir -p "$t/kernel/dma" "$t/include/linux"
	touch "$t/.extracted"
	if is_mainline "$1"; then
		printf 'kernelversion:\n\t@echo 6.12.118\n' > "$t/Makefile"
		cp "$PROJECT_TOP/tests/kunit/swiotlb-kunit-hook-6.12.patch" "$t/.kunit-hook"
		[ "$1" = "$MAINLINE_CUT" ] ||
			sed '/^#/d; s|^|'"$PROJECT_TOP/$(make_var MAINLINE_FIXES)"'/|' \
				"$PROJECT_TOP/$(make_var MAINLINE_FIXES)/series" | xargs cat > "$t/.mainline-fixes"
	else
		printf 'kernelversion:\n\t@echo 6.1.192\n' > "$t/Makefile"
		# shellcheck disable=SC2046 # patch paths have no spaces
		series_stamp $("$PROJECT_TOP/scripts/series/list-series.sh" "$1") > "$t/.series-applied"
		cp "$PROJECT_TOP/tests/kunit/swiotlb-kunit-hook.patch" "$t/.kunit-hook"
	fi
	while read -r macro file name _; do
		case "$macro" in '' | '#'*) continue ;; esac
		echo "void $name(void);" >> "$t/$file"
	done < "$features"
	echo '/* an old topic file */' > "$t/kernel/dma/swiotlb_kunit_gone.c"
}

# tree_case NAME SERIES WANT_STATUS GREP: kunit-tree.sh's exit status and
# a line its output or the features header must have.
tree_case() {
	local got why=
	"$PROJECT_TOP/scripts/kunit/kunit-tree.sh" "$tmp/$2" "$2" > "$tmp/$1.log" 2>&1
	got=$?
	[ "$got" = "$3" ] || why="exit $got, want $3"
	grep -qF -- "$4" "$tmp/$1.log" "$tmp/$2/kernel/dma/swiotlb_kunit_features.h" 2> /dev/null ||
		why="${why:+$why; }no line '$4'"
	if [ -z "$why" ]; then
		record PASS "harness.kunit-tree.$1" "exit $got, '$4'"
	else
		record FAIL "harness.kunit-tree.$1" "$why: $(tail -n 1 "$tmp/$1.log")"
		status=1
	fi
}

toy full
tree_case every-name full 0 "#define SWIOTLB_KUNIT_STOP_GROWTH 1"
n=$(grep -c '^#define ' "$tmp/full/kernel/dma/swiotlb_kunit_features.h" 2> /dev/null)
copied=1
for f in "$PROJECT_TOP"/tests/kunit/*.c "$PROJECT_TOP"/tests/kunit/*.h; do
	cmp -s "$f" "$tmp/full/kernel/dma/${f##*/}" || copied=0
done
if [ "${n:-0}" = "$nfeat" ] && [ "$copied" = 1 ] && [ ! -e "$tmp/full/kernel/dma/swiotlb_kunit_gone.c" ]; then
	record PASS harness.kunit-tree.suite "$n of $nfeat macros, the suite copied, the stale topic file gone"
else
	record FAIL harness.kunit-tree.suite "$n of $nfeat macros, suite copied: $copied, stale file: $(ls "$tmp/full/kernel/dma/swiotlb_kunit_gone.c" 2> /dev/null || echo gone)"
	status=1
fi

sed -i '/swiotlb_hint_release/d' "$tmp/full/kernel/dma/swiotlb.c"
tree_case name-missing full 1 "swiotlb_hint_release is not in kernel/dma/swiotlb.c, though patch 0032 is in SERIES=full"

toy noscale
sed -i '/swiotlb_hint_release/d' "$tmp/noscale/kernel/dma/swiotlb.c"
tree_case cut-without-patch noscale 0 "#define SWIOTLB_KUNIT_STOP_GROWTH 1"
if grep -q SWIOTLB_KUNIT_OLDEST_FIRST "$tmp/noscale/kernel/dma/swiotlb_kunit_features.h"; then
	record FAIL harness.kunit-tree.no-macro "SWIOTLB_KUNIT_OLDEST_FIRST defined without its name"
	status=1
else
	record PASS harness.kunit-tree.no-macro "no SWIOTLB_KUNIT_OLDEST_FIRST where the cut lacks its name"
fi

toy "$MAINLINE_CUT"
tree_case mainline-names "$MAINLINE_CUT" 0 "#define SWIOTLB_KUNIT_MAINLINE 1"
n=$(grep -c '^#define ' "$tmp/$MAINLINE_CUT/kernel/dma/swiotlb_kunit_features.h" 2> /dev/null)
if [ "${n:-0}" = "$nmain" ] &&
	! grep -q SWIOTLB_KUNIT_STOP_GROWTH "$tmp/$MAINLINE_CUT/kernel/dma/swiotlb_kunit_features.h" &&
	! grep -q SWIOTLB_KUNIT_MAINLINE "$tmp/full/kernel/dma/swiotlb_kunit_features.h"; then
	record PASS harness.kunit-tree.mainline-only "$n of $nmain mainline macros on 6.12, none of ours; none of mainline's on a cut"
else
	record FAIL harness.kunit-tree.mainline-only "$n of $nmain macros on 6.12, or a macro of ours there, or mainline's on SERIES=full"
	status=1
fi
sed -i '/tlb_vaddr/d' "$tmp/$MAINLINE_CUT/kernel/dma/swiotlb.c"
tree_case mainline-name-missing "$MAINLINE_CUT" 1 "tlb_vaddr is not in kernel/dma/swiotlb.c of the mainline tree"

toy "$MAINLINE_FIXES_CUT"
tree_case mainline-fixes "$MAINLINE_FIXES_CUT" 0 "#define SWIOTLB_KUNIT_MAINLINE_FIXES 1"
if grep -q SWIOTLB_KUNIT_MAINLINE_FIXES "$tmp/$MAINLINE_CUT/kernel/dma/swiotlb_kunit_features.h"; then
	record FAIL harness.kunit-tree.fixes-only "plain 6.12 runs the cases of our fixes for it"
	status=1
else
	record PASS harness.kunit-tree.fixes-only "SWIOTLB_KUNIT_MAINLINE_FIXES on 6.12 with the fixes only"
fi
exit $status
