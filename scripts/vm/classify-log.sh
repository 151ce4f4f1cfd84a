#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Tell how a test VM run ended, from its saved console log and result file.
#
# usage: scripts/vm/classify-log.sh CONSOLE_LOG [RESULT_FILE]
#        scripts/vm/classify-log.sh --reports CONSOLE_LOG
#
# Prints one line "VERDICT: reason" and exits with its status from lib.sh:
#   PASS     EX_OK       the guest reported exit=0 and the kernel said nothing bad
#   FAIL     EX_TESTFAIL the guest reported exit=N, N != 0
#   CRASH    EX_CRASH    a crash report is in the log (any of the patterns
#                        below, even if the test itself passed), or the VM
#                        stopped without reporting a result
#   TIMEOUT  EX_TIMEOUT  no crash report, and the host stopped the VM at a
#                        boot or test timeout (even if a result came in
#                        while it stopped), or there is no result at all
# A crash verdict names the guest's step that was running when the report
# came ("harness: step NAME" lines of tests/guest/debug-load.sh).
# The stack dump of a failed page allocation ("page allocation failure",
# up to its "Mem-Info:") is the allocator's own report of an allocation
# that was allowed to fail, not a bug: it does not count.
# --reports prints the number of report lines in the log instead.
# It only reads files, so it works on logs saved by earlier runs (see
# tests/harness/); scripts/vm/qemu-run.sh calls it after every run.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

count=0
if [ "${1:-}" = --reports ]; then
	count=1
	shift
	[ $# -eq 1 ] || die $EX_USAGE "usage: $0 --reports CONSOLE_LOG"
fi
{ [ $# -ge 1 ] && [ $# -le 2 ]; } || die $EX_USAGE "usage: $0 CONSOLE_LOG [RESULT_FILE]"
log=$1 result=${2:-}
[ -f "$log" ] || die $EX_MISSING "no console log $log"

# What a crash looks like on the console: "category<TAB>extended regex".
crash_patterns='panic	Kernel panic - not syncing
soft lockup	BUG: soft lockup
hung task	INFO: task .* blocked for more than [0-9]+ seconds
RCU stall	rcu: INFO: .*detected stalls? on
RCU stall	rcu_(sched|preempt|bh) (self-)?detected stall
KASAN	BUG: KASAN|KASAN:
UBSAN	UBSAN:
kmemleak	kmemleak: [0-9]+ new suspected memory leaks
lockdep	possible (circular|recursive) locking dependency|inconsistent lock state|bad unlock balance
BUG	kernel BUG at|BUG: 
Oops	Oops: |general protection fault
WARNING	WARNING: 
OOM	invoked oom-killer:|Out of memory: Kill
call trace	Call Trace:'

# The crash lines in the log, with their category and step: the first one
# only (the earliest report is the cause; what follows it is often only a
# consequence), or how many there are (ALL=1).
crash_lines() {
	tr -d '\r' < "$log" | awk -v pats="$crash_patterns" -v all="$1" '
		BEGIN { n = split(pats, lines, "\n")
			for (i = 1; i <= n; i++) { split(lines[i], f, "\t"); cat[i] = f[1]; re[i] = f[2] } }
		match($0, /harness: step [^ ]+/) { step = substr($0, RSTART + 14, RLENGTH - 14) }
		/page allocation failure: order:/ { alloc_fail = 1 }
		/Mem-Info:/ { alloc_fail = 0 }
		{ for (i = 1; i <= n; i++) {
			if ($0 !~ re[i] || (alloc_fail && cat[i] == "call trace"))
				continue
			found++
			if (!all) {
				printf "%s (line %d%s): %s\n", cat[i], NR, step == "" ? "" : ", step " step, $0
				exit
			}
			break
		} }
		END { if (all) print found + 0 }'
}

if [ "$count" = 1 ]; then
	crash_lines 1
	exit $EX_OK
fi
crash=$(crash_lines 0)
if [ -n "$crash" ]; then
	echo "CRASH: $crash"
	exit $EX_CRASH
fi

# A timeout the host declared stands even if a result came in afterwards,
# while QEMU was being stopped: the deadline had already passed.
host=$(grep -a '^harness-host: ' "$log" | tail -n 1 || true)
case "$host" in
*"boot timeout"*)
	echo "TIMEOUT: the guest did not boot in time (${host#harness-host: })"
	exit $EX_TIMEOUT ;;
*"test timeout"*)
	echo "TIMEOUT: the test did not finish in time (${host#harness-host: })"
	exit $EX_TIMEOUT ;;
esac

status=
if [ -n "$result" ] && [ -f "$result" ]; then
	status=$(tr -d '\r' < "$result" | sed -n 's/^exit=\([0-9]*\)$/\1/p' | tail -n 1)
fi
if [ "$status" = 0 ]; then
	echo "PASS: the guest test exited with status 0"
	exit $EX_OK
elif [ -n "$status" ]; then
	echo "FAIL: the guest test exited with status $status"
	exit $EX_TESTFAIL
fi

# No result.  scripts/vm/qemu-run.sh appends "harness-host: ..." lines that say
# why QEMU stopped; a log without them is judged by the boot marker.
case "$host" in
*"qemu exited"*)
	echo "CRASH: the VM stopped without reporting a result (${host#harness-host: })"
	exit $EX_CRASH ;;
esac
if ! grep -aq '^harness: init started' "$log"; then
	echo "TIMEOUT: the guest never reached the harness init, and reported no result"
	exit $EX_TIMEOUT
fi
echo "TIMEOUT: the guest started the test but reported no result"
exit $EX_TIMEOUT
