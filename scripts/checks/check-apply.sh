#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Port check "applies": the series applies to a fresh copy of the unpatched
# tree with `quilt push -a` (no fuzz, no rejects), and with `git am` on a
# git-initialised copy.
#
# usage: scripts/checks/check-apply.sh [SERIES]
#
# Records two results, applies-quilt and applies-git-am.  Leaves the trees
# for the other checks: $CHECKS_DIR/SERIES/quilt (the series pushed) and
# $CHECKS_DIR/SERIES/git (one commit "base" for the unpatched tree, then one
# commit per patch; SERIES/git-commits lists "SHA PATCH" in series order).
# Exits 0 if both passed, EX_PATCH otherwise.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=scripts/checks/checks-lib.sh
. "$(dirname "$0")/checks-lib.sh"

checks_series "${1:-${SERIES:-full}}"
name=port-checks.$SERIES
for tool in quilt git patch; do
	command -v $tool >/dev/null || {
		record FAIL "$name.applies-quilt" "cannot run: $tool not installed"
		record FAIL "$name.applies-git-am" "cannot run: $tool not installed"
		die $EX_MISSING "$tool not found (apt-get install quilt git patch)"
	}
done
pristine_tree
patches=$("$PROJECT_TOP/scripts/series/list-series.sh" "$SERIES")
mapfile -t touched < <(series_files "$SERIES")
status=0

# --- quilt -----------------------------------------------------------------
# quilt reads the series from QUILT_SERIES; for v7 that is the list cut at
# the "# Follow-up fixes" heading, written next to the tree.
qtree=$S/quilt
copy_tree "$qtree"
if [ "$SERIES" = full ]; then
	qseries=$PROJECT_TOP/series
else
	qseries=$S/series
	for p in $patches; do basename "$p"; done > "$qseries"
fi
log=$LOGS/quilt.log
info "quilt push -a --fuzz=0 in $qtree (log: $log)"
if (cd "$qtree" &&
    QUILT_PATCHES=$PROJECT_TOP/patches QUILT_SERIES=$qseries \
	quilt --quiltrc=- push -a --fuzz=0) > "$log" 2>&1; then
	assert_unshared "$qtree" "${touched[@]}"
	n=$(grep -c '^Applying patch' "$log" || true)
	offsets=$(grep -c 'succeeded at .* (offset' "$log" || true)
	[ "$offsets" -gt 0 ] && offsets=", $offsets hunks at an offset" || offsets=
	record PASS "$name.applies-quilt" "$n patches, no fuzz$offsets"
else
	bad=$(sed -n 's/^Patch \(.*\) does not apply.*/\1/p' "$log" | head -1)
	bad=${bad:-$(sed -n 's/^Applying patch //p' "$log" | tail -1)}
	where=$(awk '/^patching file/ { f = $3 }
		/^Hunk .*FAILED|can.t find file|malformed|with fuzz/ { print f ": " $0; exit }' "$log")
	sed 's/^/  /' "$log" | tail -20 >&2
	record FAIL "$name.applies-quilt" "$(basename "${bad:-?}") does not apply with quilt --fuzz=0: ${where:-see $log}"
	status=$EX_PATCH
fi

# --- git am ----------------------------------------------------------------
gtree=$S/git
copy_tree "$gtree"
log=$LOGS/git-am.log
git_=(git -C "$gtree" -c user.name="port checks" -c user.email=checks@localhost
	-c core.autocrlf=false -c gc.auto=0)
info "git init, add and commit of $gtree (about 35 s; log: $log)"
{
	"${git_[@]}" init -q &&
	# The Debian tree's .gitignore ignores everything: add by force.
	"${git_[@]}" add -f -A . &&
	"${git_[@]}" commit -q -m "base: unpatched $(basename "$CHECKS_SRC")" &&
	"${git_[@]}" tag base
} > "$log" 2>&1 || die $EX_MISSING "cannot make a git repository of $gtree (see $log)"
: > "$S/git-commits.partial"
am_ok=1
for p in $patches; do
	if ! "${git_[@]}" am --quiet --whitespace=nowarn "$p" >> "$log" 2>&1; then
		where=$(grep -m1 -E '^error: |^Patch failed' "$log" || true)
		sed 's/^/  /' "$log" | tail -20 >&2
		"${git_[@]}" am --abort >> "$log" 2>&1 || true
		record FAIL "$name.applies-git-am" "$(basename "$p") does not apply with git am: ${where:-see $log}"
		status=$EX_PATCH am_ok=0
		break
	fi
	echo "$("${git_[@]}" rev-parse HEAD) $(basename "$p")" >> "$S/git-commits.partial"
done
if [ "$am_ok" = 1 ]; then
	assert_unshared "$gtree" "${touched[@]}"
	mv "$S/git-commits.partial" "$S/git-commits"
	record PASS "$name.applies-git-am" "$(wc -l < "$S/git-commits") commits on top of base"
else
	rm -f "$S/git-commits"
fi
exit $status
