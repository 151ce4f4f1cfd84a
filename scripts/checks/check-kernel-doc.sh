#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Port check "kernel-doc": `scripts/kernel-doc -none` prints no warning on
# the patched tree that it does not print on the unpatched tree.
#
# usage: scripts/checks/check-kernel-doc.sh [SERIES]
#
# Files: kernel/dma/swiotlb.c and include/linux/swiotlb.h (the port checks), and
# every other .c or .h file the series changes.  Warnings are compared
# without their line numbers, as multisets.  Needs the quilt tree of
# scripts/checks/check-apply.sh.  Records one result, kernel-doc.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=scripts/checks/checks-lib.sh
. "$(dirname "$0")/checks-lib.sh"

checks_series "${1:-${SERIES:-full}}"
name=port-checks.$SERIES.kernel-doc
tree=$S/quilt
if [ ! -f "$tree/.pc/applied-patches" ]; then
	record FAIL "$name" "cannot run: no patched tree in $tree (check-apply failed or did not run)"
	exit $EX_PATCH
fi
pristine_tree
files=$( { echo kernel/dma/swiotlb.c; echo include/linux/swiotlb.h
	   series_files "$SERIES" | grep -E '\.[ch]$'; } | sort -u)

# kdoc TREE: the warnings of kernel-doc -none on $files in TREE, without
# line numbers.  A file missing from TREE is a warning of its own.
kdoc() {
	local f
	for f in $files; do
		if [ -f "$1/$f" ]; then
			(cd "$1" && perl "$CHECKS_SRC/scripts/kernel-doc" -none "$f" 2>&1) || true
		else
			echo "$f: missing"
		fi
	done | sed -e 's|^\([^: ]*\):[0-9]*: |\1: |' | LC_ALL=C sort
}

before=$LOGS/kernel-doc.base
after=$LOGS/kernel-doc.$SERIES
kdoc "$CHECKS_SRC" > "$before"
kdoc "$tree" > "$after"
new=$(new_warnings "$before" "$after")
n=$(echo "$files" | wc -l)
if [ -z "$new" ]; then
	record PASS "$name" "$n files, no new warnings ($(grep -c ": warning: " "$after" || true) old ones remain)"
	exit 0
fi
indent "  " <<< "$new" >&2
record FAIL "$name" "$(echo "$new" | grep -c .) new: $(echo "$new" | head -3 | tr '\n' ';' | sed 's/;$//')"
exit $EX_TESTFAIL
