#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The docs check on docs made wrong: scripts/checks/check-docs.sh on a copy
# of the files it reads, once as they are (every fact must agree) and once
# per edit below, each of which must fail the fact named beside it.
# Records harness.check-docs.CASE.
# The backquotes in the sed expressions below are Markdown, not commands:
# shellcheck disable=SC2016
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/harness/harness-lib.sh
. "$here/harness-lib.sh"

# docs_case NAME WANT FILE SED-EXPRESSION: copy the checkout's files, apply
# the sed expression to FILE (nothing if empty), and run the check; WANT is
# "pass" or the fact that must fail (docs.WANT).
docs_case() {
	local name=$1 want=$2 file=$3 expr=$4 top=$tmp/$1 got fails
	mkdir -p "$top/docs" "$top/tests/kunit" "$top/scripts"
	cp "$PROJECT_TOP"/{README.md,series,Makefile} "$top/"
	cp "$PROJECT_TOP/docs/DESIGN.md" "$top/docs/"
	cp "$PROJECT_TOP/tests/kunit/swiotlb_dynamic_kunit.c" "$top/tests/kunit/"
	cp -r "$PROJECT_TOP"/scripts/{lib.sh,series,checks} "$top/scripts/"
	if [ -n "$expr" ]; then
		cp "$top/$file" "$top/$file.orig"
		sed -i "$expr" "$top/$file"
		if cmp -s "$top/$file" "$top/$file.orig"; then
			record FAIL "harness.check-docs.$name" "the edit '$expr' changed nothing in $file"
			status=1
			return
		fi
	fi
	RESULTS_FILE=$top.results "$top/scripts/checks/check-docs.sh" "$top" > "$top.out" 2>&1
	got=$?
	fails=$(grep '^FAIL ' "$top.results" 2> /dev/null | cut -d' ' -f2 | tr -d ':' | tr '\n' ' ')
	if { [ "$want" = pass ] && [ "$got" = 0 ] && [ -z "$fails" ]; } ||
		{ [ "$want" != pass ] && [ "$got" = "$EX_TESTFAIL" ] && [ "$fails" = "docs.$want " ]; }; then
		record PASS "harness.check-docs.$name" "status $got${fails:+, failed: $fails}"
	else
		record FAIL "harness.check-docs.$name" "want $want, got status $got, failed: ${fails:-none}; $(tail -n 1 "$top.out")"
		status=1
	fi
}

docs_case as-they-are pass README.md ''
docs_case kunit-row-missing kunit-cases docs/DESIGN.md '/^| `bounce` |/d'
docs_case scenario-row-missing scenarios README.md '/^| `qemu-nvme` |/d'
docs_case scenario-count scenario-count README.md 's/six QEMU scenarios/five QEMU scenarios/'
docs_case patch-uncovered patch-table README.md 's/^| 0037-0044 |/| 0037-0043 |/'
docs_case patch-heading patch-table README.md 's/^| 0018 | Beyond mainline (ours) |/| 0018 | Performance (ours) |/'
docs_case patch-count patch-count README.md '0,/^## The patches/s/^## The patches/## The patches\n\nThe series has 46 patches./'
docs_case cuts cuts README.md 's/SERIES=full|v7|noperf|noscale/SERIES=full|v7|noperf/'
docs_case test-time test-time README.md 's/\(from a fresh clone with an empty ccache about [0-9]*-\)[0-9]* min/\148 min/'
exit $status
