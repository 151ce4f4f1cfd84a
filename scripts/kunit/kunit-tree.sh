#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Make the source tree of a KUnit kernel: the series, the test-only hook
# and the suite, and the header of what the cut offers.
#
# usage: scripts/kunit/kunit-tree.sh TREE [SERIES]
#   TREE    e.g. build/src/kunit-full; extracted when missing, extracted
#           again when it holds another version of the series
#   SERIES  the cut (default full; scripts/series/list-series.sh --cuts),
#           or mainline (lib.sh's MAINLINE_CUT): Debian's 6.12, no series,
#           or mainline-fixes (MAINLINE_FIXES_CUT): 6.12 with our fixes
#           for mainline's code (the Makefile's MAINLINE_FIXES directory,
#           in the order of its series file) and no other patch
#
# In order:
#   - the tree: scripts/series/get-source.sh and apply-series.sh, as the
#     Makefile makes build/src/full, with the same stamp (.series-applied);
#     for mainline get-source.sh TREE 6.12 alone, as build/src/mainline;
#     for mainline-fixes that and the fixes, with patch -F0 (a tree that
#     holds other fixes, or none, starts over: .mainline-fixes is the
#     copy of what it holds);
#   - the hook tests/kunit/swiotlb-kunit-hook.patch, or on mainline
#     swiotlb-kunit-hook-6.12.patch, with 6.12's context (an #include of the
#     seam swiotlb_dynamic_kunit.h near the top of kernel/dma/swiotlb.c and
#     of the suite at its end, both under CONFIG_KUNIT); the tree keeps a
#     copy in .kunit-hook, so that a changed hook replaces the old one;
#   - the suite: every .c and .h of tests/kunit/ into kernel/dma/, each
#     only when it changed (so that make rebuilds only then), and no copy
#     of a topic file that tests/kunit/ no longer has;
#   - kernel/dma/swiotlb_kunit_features.h: a macro for each line of
#     tests/kunit/features.txt whose name the tree has.  A cut reads the
#     lines of our patches, mainline those whose PATCH is "mainline" (what
#     6.12 has, in its own form) and no other: a name of ours that 6.12
#     happened to have must not turn on a feature it lacks.  On
#     mainline-fixes also SWIOTLB_KUNIT_MAINLINE_FIXES, which runs the
#     cases of the fixes.
# The shipped series never contains the hook.  Exit status: EX_OK,
# EX_PATCH (the series or the hook does not apply), EX_TESTFAIL (a patch
# of the cut, or mainline, lacks the name that detects it), or
# get-source.sh's.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

{ [ $# -ge 1 ] && [ $# -le 2 ]; } || die $EX_USAGE "usage: $0 TREE [SERIES]"
tree=$1 series=${2:-full}
need_cut --mainline "$series"
top=$PROJECT_TOP
kunit=$top/tests/kunit

fixes=
if is_mainline "$series"; then
	# Debian's 6.12: no series to apply (get-source.sh refuses a tree
	# that holds another version), and the hook with 6.12's context.
	version=$(make_var MAINLINE_VERSION)
	if [ "$series" = "$MAINLINE_FIXES_CUT" ]; then
		fixdir=$top/$(make_var MAINLINE_FIXES)
		[ -f "$fixdir/series" ] || die $EX_USAGE "no $fixdir/series"
		fixes=$(mktemp)
		trap 'rm -f "$fixes"' EXIT
		while read -r p _; do
			case "$p" in '' | '#'*) continue ;; esac
			[ -f "$fixdir/$p" ] || die $EX_USAGE "$fixdir/series names $p, which is not there"
			cat "$fixdir/$p"
		done < "$fixdir/series" > "$fixes"
		if [ -d "$tree" ] && ! cmp -s "$fixes" "$tree/.mainline-fixes"; then
			info "the fixes changed since $tree was patched: extracting it again"
			rm -rf "$tree"
		fi
	fi
	"$top/scripts/series/get-source.sh" "$tree" "$version"
	if [ -n "$fixes" ] && [ ! -f "$tree/.mainline-fixes" ]; then
		patch -d "$tree" -p1 -F0 -N -s --no-backup-if-mismatch < "$fixes" ||
			die $EX_PATCH "the fixes of $fixdir do not apply to $tree"
		cp "$fixes" "$tree/.mainline-fixes"
	fi
	hook=$kunit/swiotlb-kunit-hook-$version.patch
else
	# A tree patched with another version of the series starts over.
	if [ -f "$tree/.series-applied" ] &&
		! "$top/scripts/series/apply-series.sh" --is-applied "$tree" "$series"; then
		info "the series changed since $tree was patched: extracting it again"
		rm -rf "$tree"
	fi
	"$top/scripts/series/get-source.sh" "$tree"
	"$top/scripts/series/apply-series.sh" "$tree" "$series"
	hook=$kunit/swiotlb-kunit-hook.patch
fi

if ! cmp -s "$hook" "$tree/.kunit-hook"; then
	if [ -f "$tree/.kunit-hook" ]; then
		patch -d "$tree" -p1 -F0 -R -s --no-backup-if-mismatch \
			< "$tree/.kunit-hook" ||
			die $EX_PATCH "cannot take the old KUnit hook out of $tree (make distclean)"
		rm -f "$tree/.kunit-hook"
	fi
	patch -d "$tree" -p1 -F0 -N -s --no-backup-if-mismatch < "$hook" ||
		die $EX_PATCH "tests/kunit/${hook##*/} does not apply to $tree"
	cp "$hook" "$tree/.kunit-hook"
fi

for f in "$kunit"/*.c "$kunit"/*.h; do
	cmp -s "$f" "$tree/kernel/dma/${f##*/}" || cp "$f" "$tree/kernel/dma/"
done
for f in "$tree"/kernel/dma/swiotlb_kunit_*.c; do
	[ -e "$f" ] || continue
	[ -f "$kunit/${f##*/}" ] || rm -f "$f"
done

features=$(mktemp)
trap 'rm -f "$features" ${fixes:+"$fixes"}' EXIT
cut_patches=
is_mainline "$series" ||
	cut_patches=$("$top/scripts/series/list-series.sh" "$series" | sed 's|.*/||; s|-.*||')
while read -r macro file name patch _; do
	case "$macro" in '' | '#'*) continue ;; esac
	[ -n "$patch" ] || die $EX_USAGE "tests/kunit/features.txt: '$macro' has no patch"
	# mainline's lines on 6.12 only, those of our patches on a cut only
	if is_mainline "$series"; then
		[ "$patch" = "$MAINLINE_CUT" ] || continue
	else
		[ "$patch" != "$MAINLINE_CUT" ] || continue
	fi
	if grep -q "$name" "$tree/$file"; then
		echo "#define $macro 1"
	elif [ "$patch" = "$MAINLINE_CUT" ]; then
		die $EX_TESTFAIL "feature detection: $name is not in $file of the mainline tree ($macro)"
	elif grep -qx "$patch" <<< "$cut_patches"; then
		die $EX_TESTFAIL "feature detection: $name is not in $file, though patch $patch is in SERIES=$series ($macro)"
	fi
done < "$kunit/features.txt" > "$features"
# 6.12 with our fixes: the cases of those fixes run (test_skip_on_mainline()).
[ "$series" != "$MAINLINE_FIXES_CUT" ] || echo "#define SWIOTLB_KUNIT_MAINLINE_FIXES 1" >> "$features"
cmp -s "$features" "$tree/kernel/dma/swiotlb_kunit_features.h" ||
	cp "$features" "$tree/kernel/dma/swiotlb_kunit_features.h"
