#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The KUnit parser's own tests: scripts/kunit/kunit-results.sh on the saved
# console logs of tests/harness/kunit must print exactly the lines of
# tests/harness/kunit/results-expected.txt (LOG stands for the log's path there).
# Needs the extracted base tree (its tools/testing/kunit/kunit.py), no
# kernel build and no QEMU.  Records harness.kunit-results.LOG.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
. "$here/../../scripts/lib.sh"
base=${BASE_SRC:-$(make_var BASE_SRC)}
dir=$here/kunit
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

for log in "$dir"/*.log; do
	name=$(basename "$log" .log)
	cp "$log" "$tmp/$name.log"
	awk -F '\t' -v n="$name" '$1 == n { print $2 }' "$dir/results-expected.txt" |
		sed "s|LOG|$tmp/$name.log|" > "$tmp/$name.want"
	if [ ! -s "$tmp/$name.want" ]; then
		record FAIL "harness.kunit-results.$name" "no expected lines for $name.log in $dir/results-expected.txt"
		status=1
		continue
	fi
	RESULTS_FILE=$tmp/$name.got "$PROJECT_TOP/scripts/kunit/kunit-results.sh" \
		"$base" "$tmp/$name.log" k > /dev/null 2> "$tmp/$name.err"
	got=$?
	if [ "$got" = 0 ] && cmp -s "$tmp/$name.want" "$tmp/$name.got"; then
		record PASS "harness.kunit-results.$name" "$(wc -l < "$tmp/$name.got") lines as expected"
	else
		record FAIL "harness.kunit-results.$name" "status $got; $(diff "$tmp/$name.want" "$tmp/$name.got" 2>&1 | grep '^[<>]' | head -n 2 | tr '\n' ' ')$(tail -n 1 "$tmp/$name.err")"
		status=1
	fi
done
exit $status
