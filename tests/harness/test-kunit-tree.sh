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
#     exit 0, and no #define for it.
# Records harness.kunit-tree.CASE.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/harness/harness-lib.sh
. "$here/harness-lib.sh"
features=$PROJECT_TOP/tests/kunit/features.txt
nfeat=$(grep -cv '^\(#\|$\)' "$features")

# toy SERIES: a tree in $tmp/SERIES whose files have every name of
# features.txt.
toy() {
	local t=$tmp/$1 macro file name _
	mkdir -p "$t/kernel/dma" "$t/include/linux"
	printf 'kernelversion:\n\t@echo 6.1.192\n' > "$t/Makefile"
	touch "$t/.extracted"
	# shellcheck disable=SC2046 # patch paths have no spaces
	series_stamp $("$PROJECT_TOP/scripts/series/list-series.sh" "$1") > "$t/.series-applied"
	cp "$PROJECT_TOP/tests/kunit/swiotlb-kunit-hook.patch" "$t/.kunit-hook"
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
exit $status
