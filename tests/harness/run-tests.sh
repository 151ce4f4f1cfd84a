#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Run the harness's self-tests (make test-harness), up to JOBS at a time.
#
# usage: tests/harness/run-tests.sh TEST...
#   TEST   a name of tests/harness/TEST.sh (the Makefile's HARNESS_TESTS,
#          longest first: a test starts when a lane is free)
#   JOBS   how many run at once (default: the number of CPUs)
#
# Each test's output is kept and printed whole, in the order given, as
# soon as it and every test before it have finished, so that the log
# reads as if they had run one after another.  Every test runs, even
# after one failed.  Exit status: 0 if all passed, 1 if any failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
. "$here/../../scripts/lib.sh"

[ $# -gt 0 ] || die $EX_USAGE "usage: $0 TEST..."
jobs=${JOBS:-$(nproc)}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die $EX_USAGE "JOBS must be a positive number, not '$jobs'"
for t in "$@"; do
	[ -x "$here/$t.sh" ] || die $EX_USAGE "no tests/harness/$t.sh"
done
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

status=0 next=0
tests=("$@")
# flush: print, in order, every finished test not printed yet that has no
# unfinished test before it.
flush() {
	while [ "$next" -lt "${#tests[@]}" ] && [ -f "$logs/$next.rc" ]; do
		echo "--- tests/harness/${tests[next]}.sh ($(cat "$logs/$next.s") s)"
		cat "$logs/$next.log"
		[ "$(cat "$logs/$next.rc")" = 0 ] || status=1
		next=$((next + 1))
	done
}
for i in "${!tests[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n
		flush
	done
	(
		start=$SECONDS rc=0
		"$here/${tests[i]}.sh" > "$logs/$i.log" 2>&1 || rc=$?
		echo $((SECONDS - start)) > "$logs/$i.s"
		# .rc last, and whole: flush takes its presence for the end.
		echo $rc > "$logs/$i.rc.tmp" && mv "$logs/$i.rc.tmp" "$logs/$i.rc"
	) &
done
wait
flush
exit $status
