#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Count the results that the stages of `make test` recorded and print the
# closing line "N passed, M failed".  Exits 1 if anything failed, and also
# if nothing was recorded at all: a run that tested nothing is no pass.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -f "$RESULTS_FILE" ] || die $EX_TESTFAIL "no results recorded in $RESULTS_FILE"
passed=$(grep -c '^PASS ' "$RESULTS_FILE" || true)
failed=$(grep -c '^FAIL ' "$RESULTS_FILE" || true)
skipped=$(grep -c '^SKIP ' "$RESULTS_FILE" || true)
if [ "$failed" -gt 0 ]; then
	echo "Failed:"
	grep '^FAIL ' "$RESULTS_FILE" | sed 's/^/  /'
fi
if [ "$skipped" -gt 0 ]; then
	echo "Skipped (not counted as passed):"
	grep '^SKIP ' "$RESULTS_FILE" | sed 's/^/  /'
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
