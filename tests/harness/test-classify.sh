#!/bin/bash
# The log classifier's own tests: judge every saved log in tests/harness/logs
# and compare with tests/harness/expected.  Needs no kernel and no QEMU.
# Records one result per log (harness.classify.NAME).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
. "$here/../../scripts/lib.sh"

declare -A code=([PASS]=$EX_OK [FAIL]=$EX_TESTFAIL [CRASH]=$EX_CRASH [TIMEOUT]=$EX_TIMEOUT)
status=0
while read -r name want; do
	case "$name" in ''|'#'*) continue ;; esac
	log=$here/logs/$name.log
	res=$here/logs/$name.result
	[ -f "$res" ] || res=
	out=$("$PROJECT_TOP/scripts/classify-log.sh" "$log" $res 2>&1)
	got=$?
	if [ "$got" = "${code[$want]}" ] && [ "${out%%:*}" = "$want" ]; then
		record PASS "harness.classify.$name" "$out"
	else
		record FAIL "harness.classify.$name" "want $want (${code[$want]}), got status $got: $out"
		status=1
	fi
done < "$here/expected"

# The CPU dump of a timed-out guest (a real livelock: one vCPU spinning in
# the slot search, one idle) names the functions the vCPUs were in.
out=$("$PROJECT_TOP/scripts/cpu-sites.sh" "$here/logs/livelock.cpus.txt" \
	"$here/logs/livelock.System.map" 2>&1)
want=$'CPU#0 swiotlb_tbl_map_single+0x2af\nCPU#1 native_safe_halt+0x13'
if [ "$out" = "$want" ]; then
	record PASS harness.cpu-sites "$(echo "$out" | tr '\n' ' ')"
else
	record FAIL harness.cpu-sites "got: $(echo "$out" | tr '\n' ' ')"
	status=1
fi
exit $status
