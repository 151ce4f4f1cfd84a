#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Apply the series to a kernel tree, the way quilt would: -p1, no fuzz.
#
# usage: scripts/series/apply-series.sh [--is-applied] TREE [CUT]
#
# CUT: a cut of the series (scripts/series/list-series.sh --cuts; default full).
#
# --is-applied applies nothing: exit 0 if TREE has exactly that series
# (the same patches, the same text), 1 if not (the Makefile's test for a
# fresh tree: an edit of a comment in `series` keeps the trees and their
# objects).
# Each patch is tried with --dry-run first, so a patch that does not apply
# leaves the tree as the previous patch left it.  A failure names the patch,
# the file and the hunk, and exits with EX_PATCH.  The applied patches, by
# name and md5sum, are kept in TREE/.series-applied: applying the same
# series to the same tree again does nothing, and a tree with another
# series, or another version of a patch, is refused.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

check=0
[ "${1:-}" = --is-applied ] && check=1 && shift
{ [ $# -ge 1 ] && [ $# -le 2 ]; } || die $EX_USAGE "usage: $0 [--is-applied] TREE [CUT] (CUT: $("$(dirname "$0")/list-series.sh" --cuts))"
tree=$1
which=${2:-full}
[ "$check" = 1 ] && [ ! -f "$tree/.series-applied" ] && exit 1
[ -f "$tree/Makefile" ] || die $EX_MISSING "$tree is not a kernel tree"
command -v patch >/dev/null || die $EX_MISSING "patch not found (apt-get install patch)"

patches=$("$(dirname "$0")/list-series.sh" "$which")
stamp="$tree/.series-applied"
# shellcheck disable=SC2086 # patch paths have no spaces
want=$(series_stamp $patches)
if [ "$check" = 1 ]; then
	[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]
	exit
fi

if [ -f "$stamp" ]; then
	if [ "$(cat "$stamp")" = "$want" ]; then
		info "$tree already has the $which series"
		exit 0
	fi
	die $EX_PATCH "$tree already has another series applied ($stamp); start from a fresh tree"
fi

: > "$stamp.partial"
for p in $patches; do
	name=$(basename "$p")
	if ! out=$(patch -d "$tree" -p1 -F0 -N --dry-run --no-backup-if-mismatch \
			< "$p" 2>&1); then
		file=$(echo "$out" | awk '/^(patching|checking) file/ { f = $3 }
			/FAILED|malformed|Reversed|can.t find file/ { print f; exit }')
		hunk=$(echo "$out" | grep -m1 -E 'FAILED|malformed|Reversed|can.t find' || true)
		indent "  " <<< "$out" >&2
		die $EX_PATCH "$name does not apply: file ${file:-?}: ${hunk:-see above}"
	fi
	patch -d "$tree" -p1 -F0 -N -s --no-backup-if-mismatch < "$p" ||
		die $EX_PATCH "$name: patch failed after a clean dry run"
	series_stamp "$p" >> "$stamp.partial"
	info "applied $name"
done
mv "$stamp.partial" "$stamp"
info "$(echo "$want" | grep -c .) patches applied to $tree ($which series)"
