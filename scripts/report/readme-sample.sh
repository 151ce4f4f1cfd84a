#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Put the outcomes table of a real run into README.md: the indented block
# under "=== outcomes side by side" becomes what scripts/report/compare.sh
# prints for make qemu-test's scenarios.  So the sample that README shows
# is a run's output, not text edited by hand.
#
# usage: scripts/report/readme-sample.sh [QEMU_OUT]
#   QEMU_OUT  the scenarios' outputs (default build/qemu; a fresh clone's
#             build/qemu after its make test)
# Exit status: EX_OK; EX_MISSING when a scenario of QEMU_STAGES has no
# summary.txt there; EX_TESTFAIL when README has no such block.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -le 1 ] || die $EX_USAGE "usage: $0 [QEMU_OUT]"
dir=${1:-$BUILD_DIR/qemu}
readme=${README:-$PROJECT_TOP/README.md}
names=() stages=$(sed -n 's/^QEMU_STAGES := //p' "$PROJECT_TOP/Makefile")
for s in $stages; do
	s=${s#qemu-}
	s=${s#test-}
	[ -f "$dir/$s/summary.txt" ] || die $EX_MISSING "no $dir/$s/summary.txt: run make qemu-test first"
	names+=("$s")
done
table=$(mktemp)
trap 'rm -f "$table"' EXIT
QEMU_OUT=$dir "$PROJECT_TOP/scripts/report/compare.sh" "${names[@]}" | sed 's/^/    /' > "$table"
grep -q '^    === outcomes side by side$' "$readme" ||
	die $EX_TESTFAIL "$readme has no '    === outcomes side by side' block"
awk -v table="$table" '
	/^    === outcomes side by side$/ { print; while ((getline l < table) > 0) print l; skip = 1; next }
	skip && /^    / { next }
	{ skip = 0; print }' "$readme" > "$readme.new"
mv "$readme.new" "$readme"
info "README.md: the outcomes of $dir (${names[*]})"
