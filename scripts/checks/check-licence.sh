#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Every program file of the project names its licence (LICENSE: the
# kernel's GPL-2.0-only) in an SPDX line within its first three lines.
#
# usage: scripts/checks/check-licence.sh
#
# Program files: the tracked *.sh, *.py, *.c, *.h and *.mk files, the
# Makefile, and every other tracked file that is executable.  Data (logs,
# fio jobs, configs, patches) carries none.  Environment: LICENCE_ROOT,
# the checkout to read (default: this one), for the harness self-test.
# Records one result, licence.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

root=${LICENCE_ROOT:-$PROJECT_TOP}
want='SPDX-License-Identifier: GPL-2.0-only'
need_tools "apt-get install git" git

missing=() n=0
while IFS= read -r -d '' f; do
	case "$f" in
	*.sh|*.py|*.c|*.h|*.mk|Makefile) ;;
	*) [ -x "$root/$f" ] || continue ;;
	esac
	n=$((n + 1))
	head -n 3 "$root/$f" | grep -qF "$want" || missing+=("$f")
done < <(git -C "$root" ls-files -z)

if [ ${#missing[@]} -eq 0 ]; then
	record PASS licence "$n program files, each with '$want'"
	exit $EX_OK
fi
why="${#missing[@]} of $n program files lack '$want' in their first 3 lines: ${missing[*]:0:5}$([ ${#missing[@]} -le 5 ] || echo ' ...')"
record FAIL licence "$why"
die $EX_TESTFAIL "$why"
