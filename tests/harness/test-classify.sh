#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The log classifier's own tests: judge every saved log in tests/harness/logs
# and compare with tests/harness/classify-expected.txt.  Needs no kernel and no QEMU.
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
	res=()
	[ -f "$here/logs/$name.result" ] && res=("$here/logs/$name.result")
	out=$("$PROJECT_TOP/scripts/vm/classify-log.sh" "$log" "${res[@]}" 2>&1)
	got=$?
	if [ "$got" = "${code[$want]}" ] && [ "${out%%:*}" = "$want" ]; then
		record PASS "harness.classify.$name" "$out"
	else
		record FAIL "harness.classify.$name" "want $want (${code[$want]}), got status $got: $out"
		status=1
	fi
done < "$here/classify-expected.txt"

# A crash verdict names the step of debug-load.sh that was running, and
# --reports counts report lines (the allocator's own dump does not count).
out=$("$PROJECT_TOP/scripts/vm/classify-log.sh" "$here/logs/kasan-in-step.log" 2>&1)
if [[ "$out" == "CRASH: KASAN (line 4, step inject_random): "* ]]; then
	record PASS harness.classify.names-step "$out"
else
	record FAIL harness.classify.names-step "want the KASAN line and step inject_random, got: $out"
	status=1
fi
got=$(for l in kasan-in-step alloc-failure pass; do
	"$PROJECT_TOP/scripts/vm/classify-log.sh" --reports "$here/logs/$l.log"
done | tr '\n' ' ')
if [ "$got" = "2 0 0 " ]; then
	record PASS harness.classify.reports "report lines: kasan-in-step 2, alloc-failure 0, pass 0"
else
	record FAIL harness.classify.reports "report lines of kasan-in-step, alloc-failure, pass: want 2 0 0, got $got"
	status=1
fi

# The CPU dump of a timed-out guest (a real livelock: one vCPU spinning in
# the slot search, one idle) names the functions the vCPUs were in.
out=$("$PROJECT_TOP/scripts/vm/cpu-sites.sh" "$here/logs/livelock.cpus.txt" \
	"$here/logs/livelock.System.map" 2>&1)
want=$'CPU#0 swiotlb_tbl_map_single+0x2af\nCPU#1 native_safe_halt+0x13'
if [ "$out" = "$want" ]; then
	record PASS harness.cpu-sites "$(echo "$out" | tr '\n' ' ')"
else
	record FAIL harness.cpu-sites "got: $(echo "$out" | tr '\n' ' ')"
	status=1
fi
exit $status
