#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Check "shellcheck": every shell file of the project, the guest's
# included, has no shellcheck finding at all (any severity).  A `disable`
# directive in a file must say why on its line or the line before.
#
# usage: scripts/checks/check-shellcheck.sh
#
# The files: *.sh, .ci/run, and every other file that starts with a
# #!/bin/sh or #!/bin/bash line, outside build/ and .git/.  Records
# PASS/FAIL "shellcheck"; exits EX_OK or EX_TESTFAIL.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

need_tools "apt-get install shellcheck" shellcheck
cd "$PROJECT_TOP"
mapfile -t files < <(find . -path ./build -prune -o -path ./.git -prune -o \
	-type f -print | sed 's|^\./||' | sort | while read -r f; do
		case "$f" in
		*.sh|.ci/run) echo "$f" ;;
		*) head -n 1 "$f" 2>/dev/null | grep -qE '^#!/bin/(ba)?sh' && echo "$f" ;;
		esac
	done)
[ ${#files[@]} -gt 0 ] || die $EX_MISSING "no shell files found under $PROJECT_TOP"

# A disable directive without a reason: no "# why" after it on its line,
# and no comment line of its own just before it.
bare=$(awk '/^[[:space:]]*# shellcheck disable=/ {
		rest = $0; sub(/^[[:space:]]*# shellcheck disable=[^[:space:]]*/, "", rest)
		if (rest !~ /#/ && prev !~ /^[[:space:]]*#/ ) print FILENAME ":" FNR ": " $0 " (no reason given)"
	} { prev = $0 }' "${files[@]}")

out=$(shellcheck -x -f gcc "${files[@]}" 2>&1) || true
[ -n "$bare" ] && out+=${out:+$'\n'}$bare
n=$(grep -c . <<< "$out" || true)
if [ "$n" -gt 0 ]; then
	indent "  " <<< "$out" >&2
	record FAIL shellcheck "$n findings in ${#files[@]} files: $(head -n 1 <<< "$out")"
	exit $EX_TESTFAIL
fi
record PASS shellcheck "${#files[@]} files, no finding"
