# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# The start every harness self-test shares (sourced): scripts/lib.sh, a
# scratch directory $tmp removed on exit, and status=0 for the test's
# exit status.
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2034 # the test that sources this sets and reads it
status=0

# expect_report NAME WANT GOT OUT: a report's crafted case, whose exit
# status and verdict ("STATUS VERDICT") GOT must equal WANT; OUT is its
# output, whose last line a failure shows.  Records NAME.
expect_report() {
	if [ "$3" = "$2" ]; then
		record PASS "$1" "exit ${3% *}, verdict ${3#* }"
	else
		record FAIL "$1" "want '$2', got '$3': $(tail -n 1 "$4")"
		status=1
	fi
}
