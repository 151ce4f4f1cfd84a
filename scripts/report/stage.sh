#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Run one stage of `make test`, time it, and make sure it leaves a result.
#
# usage: scripts/report/stage.sh NAME COMMAND...
#
# A stage that records its own results (the QEMU scenarios, the port
# checks) is left to do so.  A stage that records nothing gets one line: PASS
# NAME if the command succeeded, FAIL NAME with its exit status otherwise,
# so a build that breaks is counted, never skipped.  Exits with the
# command's status.
set -uo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -ge 2 ] || die $EX_USAGE "usage: $0 NAME COMMAND..."
name=$1
shift
count() { grep -c "^$1 " "$RESULTS_FILE" 2>/dev/null || echo 0; }

# make -n still runs the recipe lines that call $(MAKE), and so this
# script: then run the command (a sub-make, itself a dry run) and record
# nothing.  Single-letter flags are the first word of MAKEFLAGS.
flags=${MAKEFLAGS:-}
flags=${flags%% *}
if [[ -n $flags && $flags != -* && $flags == *n* ]]; then
	"$@"
	exit
fi

before=$(count PASS)+$(count FAIL)
fails_before=$(count FAIL)
echo "=== stage $name: $*"
start=$SECONDS
"$@"
status=$?
took=$((SECONDS - start))
if [ "$before" = "$(count PASS)+$(count FAIL)" ]; then
	if [ "$status" = 0 ]; then
		record PASS "$name" "done in $took s"
	else
		record FAIL "$name" "exit status $status after $took s"
	fi
elif [ "$status" != 0 ] && [ "$fails_before" = "$(count FAIL)" ]; then
	record FAIL "$name" "exit status $status after $took s, though every recorded check passed"
fi
echo "=== stage $name: exit status $status after $((took / 60)) min $((took % 60)) s"
exit "$status"
