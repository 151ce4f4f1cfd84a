#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Turn a saved console log of a KUnit boot into result lines.
#
# usage: scripts/kunit/kunit-results.sh TREE CONSOLE_LOG NAME
#
# The log is parsed by the tree's own tools/testing/kunit/kunit.py parse
# --json, read with jq (its output is kept next to the log, as kunit.txt
# and kunit.json).  Each test case gives
# one "PASS NAME.CASE", "FAIL NAME.CASE" or "SKIP NAME.CASE" line.  If
# the suite did not report all the cases its plan announced (a crash or a
# timeout in the middle), the case kunit.py saw crash, or else the suite,
# gets a FAIL line that says so.  A failed case's line carries its first
# failed expectation (file, line, values), a skipped one its reason.
# Works offline on saved logs (tests/harness/test-kunit-results.sh).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 3 ] || die $EX_USAGE "usage: $0 TREE CONSOLE_LOG NAME"
tree=$1 log=$2 name=$3
kunit=$tree/tools/testing/kunit/kunit.py
[ -f "$kunit" ] || die $EX_MISSING "$kunit not found"
[ -f "$log" ] || die $EX_MISSING "no console log $log"
need_tools "apt-get install python3 jq" python3 jq

# kunit.py changes to the tree's top directory: give it an absolute path.
log=$(realpath "$log")
parsed=$(dirname "$log")/kunit.txt
json=$(dirname "$log")/kunit.json
rm -f "$json"
python3 "$kunit" parse --json="$json" "$log" > "$parsed" 2>&1 || true

# kunit.py's JSON: a group per suite, a status per case (PASS, FAIL, SKIP,
# or ERROR for the case that crashed); the cases a crash cut off are
# listed as ERROR with no name.
suite=
[ -s "$json" ] &&
	suite=$(jq -c '.sub_groups[]? | select(.name == "swiotlb_dynamic")' "$json" 2>/dev/null | head -n 1)
if [ -z "$suite" ]; then
	record FAIL "$name.suite" "no swiotlb_dynamic suite in $log"
	exit 0
fi
# console: the log without the serial console's CRs.
console() {
	tr -d '\r' < "$log"
}

# why CASE: CASE's first failed expectation or assertion as the console
# has it, on one line ("at FILE:LINE; Expected ...; ..."): KUnit prints
# each as one message, whose lines share the time stamp of its first.
why() {
	console | awk -v c="$1" '
	{
		ts = ""; body = $0
		if (match($0, /^\[ *[0-9.]+\] /)) {
			ts = substr($0, 1, RLENGTH); body = substr($0, RLENGTH + 1)
		}
	}
	!on && index(body, "# " c ": ") && body ~ /(EXPECTATION|ASSERTION) FAILED at / {
		on = 1; t = ts; sub(/.*FAILED at /, "at ", body); out = body; next
	}
	on && ts == t { gsub(/^ +| +$/, "", body); if (body != "") out = out "; " body; next }
	on { exit }
	END { print out }'
}

# skip_why CASE: the reason CASE gave kunit_skip() ("ok N CASE # SKIP ...").
skip_why() {
	console | sed -n "s/.*ok [0-9]* $1 # SKIP *//p" | head -n 1
}

plan=$(jq '.test_cases | length' <<< "$suite")
seen=0
while IFS=$'\t' read -r case status; do
	case "$status" in
	PASS) record PASS "$name.$case" ;;
	SKIP) record SKIP "$name.$case" "$(skip_why "$case")" ;;
	FAIL) record FAIL "$name.$case" "$(why "$case")" ;;
	*) record FAIL "$name.$case" "crashed (see $log)" ;;
	esac
	seen=$((seen + 1))
done < <(jq -r '.test_cases[] | select(.name != "") | [.name, .status] | @tsv' <<< "$suite")
if [ "$seen" -lt "$plan" ]; then
	record FAIL "$name.suite" "only $seen of $plan cases reported (crash or timeout; see $log)"
fi
