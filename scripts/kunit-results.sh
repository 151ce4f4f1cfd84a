#!/bin/bash
# Turn a saved console log of a KUnit boot into result lines.
#
# usage: scripts/kunit-results.sh TREE CONSOLE_LOG NAME
#
# The log is parsed by the tree's own tools/testing/kunit/kunit.py parse
# (its output is kept next to the log, as kunit.txt).  Each test case gives
# one "PASS NAME.CASE", "FAIL NAME.CASE" or "SKIP NAME.CASE" line.  If
# the suite did not report all the cases its plan announced (a crash or a
# timeout in the middle), the case kunit.py saw crash, or else the suite,
# gets a FAIL line that says so.  Works offline on saved logs.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] || die $EX_USAGE "usage: $0 TREE CONSOLE_LOG NAME"
tree=$1 log=$2 name=$3
kunit=$tree/tools/testing/kunit/kunit.py
[ -f "$kunit" ] || die $EX_MISSING "$kunit not found"
[ -f "$log" ] || die $EX_MISSING "no console log $log"
command -v python3 >/dev/null || die $EX_MISSING "python3 not found (apt-get install python3)"

# kunit.py changes to the tree's top directory: give it an absolute path.
log=$(realpath "$log")
parsed=$(dirname "$log")/kunit.txt
python3 "$kunit" parse "$log" > "$parsed" 2>&1 || true
# Strip the timestamps and colours kunit.py adds.
clean=$(sed -e 's/\x1b\[[0-9;]*m//g' -e 's/^\[[0-9:]*\] //' "$parsed")

plan=$(echo "$clean" | sed -n 's/^=* swiotlb_dynamic (\([0-9]*\) subtests\{0,1\}) =*$/\1/p' | head -1)
seen=0
while read -r tag case; do
	case "$tag" in
	"[PASSED]") record PASS "$name.$case" ;;
	"[SKIPPED]") record SKIP "$name.$case" ;;
	"[FAILED]") record FAIL "$name.$case" ;;
	"[CRASHED]") record FAIL "$name.$case" "crashed (see $log)" ;;
	*) continue ;;
	esac
	seen=$((seen + 1))
done < <(echo "$clean" | grep -E '^\[(PASSED|SKIPPED|FAILED|CRASHED)\] swiotlb_test_')

if [ -z "$plan" ]; then
	record FAIL "$name.suite" "no swiotlb_dynamic suite in $log"
elif [ "$seen" -lt "$plan" ]; then
	record FAIL "$name.suite" "only $seen of $plan cases reported (crash or timeout; see $log)"
fi
