#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The docs agree with the code: every count and list that README.md and
# docs/DESIGN.md state about the present is compared with its owner.
#   kunit-cases   DESIGN.md's table of KUnit cases lists the suite's
#                 KUNIT_CASE()s, all of them, in the order they run
#   scenarios     README's scenario table lists the Makefile's QEMU_STAGES,
#                 and every "N (QEMU) scenarios" says their number
#   patches       README's patch table covers the patches of `series`
#                 (full), each range under the heading series gives it,
#                 and every "N patches" in README says their number
#   cuts          every SERIES=a|b|... list in README and DESIGN.md is the
#                 cuts of scripts/series/list-series.sh --cuts
#   test-time     README's time for `make test` from a fresh clone is
#                 within the 45-minute budget
# docs/RESULTS.md is a dated record (each entry says when and at which
# commit), so its counts are those of their day and are not checked.
# Records docs.FACT; exits EX_TESTFAIL if any disagrees.
#
# usage: scripts/checks/check-docs.sh [TOP]   (TOP: the checkout, default
# this one; the harness gives it a copy with a wrong doc)
set -uo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

top=${1:-$PROJECT_TOP}
readme=$top/README.md design=$top/docs/DESIGN.md
for f in "$readme" "$design" "$top/series" "$top/Makefile" "$top/tests/kunit/swiotlb_dynamic_kunit.c"; do
	[ -f "$f" ] || die $EX_MISSING "no $f"
done
status=0
fact() { # fact NAME WANT GOT WHAT: PASS if WANT equals GOT
	local w g i
	if [ "$2" = "$3" ]; then
		record PASS "docs.$1" "$4"
		return
	fi
	# Lists of words: name the first place where they part.
	read -ra w <<< "$2"
	read -ra g <<< "$3"
	for ((i = 0; i < ${#w[@]} || i < ${#g[@]}; i++)); do
		[ "${w[i]-}" = "${g[i]-}" ] || break
	done
	if [ "${#w[@]}" -gt 3 ] || [ "${#g[@]}" -gt 3 ]; then
		record FAIL "docs.$1" "$4: word $((i + 1)) is '${w[i]-nothing}' in the code, '${g[i]-nothing}' in the docs"
	else
		record FAIL "docs.$1" "$4: the code says '${2% }', the docs '${3% }'"
	fi
	status=$EX_TESTFAIL
}
words=(zero one two three four five six seven eight nine ten eleven twelve)

# --- KUnit cases: KUNIT_CASE(swiotlb_test_NAME) against the table rows
# "| `NAME` | ..." or "| `A`, `B` | ..." under "| case | asserts |".
code_cases=$(sed -n 's/^[[:space:]]*KUNIT_CASE(swiotlb_test_\([a-z0-9_]*\)).*/\1/p' \
	"$top/tests/kunit/swiotlb_dynamic_kunit.c" | tr '\n' ' ')
doc_cases=$(awk '/^\| case \| asserts \|/ { t = 1; next }
	t && !/^\|/ { exit }
	t && /^\| `/ { split($0, c, "|"); s = c[2]; gsub(/[` ]/, "", s); gsub(/,/, " ", s); print s }' \
	"$design" | tr '\n' ' ')
fact kunit-cases "$code_cases" "$doc_cases" \
	"DESIGN.md's table of KUnit cases: $(wc -w <<< "$doc_cases") rows, the suite $(wc -w <<< "$code_cases") cases"

# --- scenarios
stages=$(sed -n 's/^QEMU_STAGES := //p' "$top/Makefile")
n=$(wc -w <<< "$stages")
doc_stages=$(awk '/^\| scenario \(`make \.\.\.`\)/ { t = 1; next } t && !/^\|/ { exit }
	t && /^\| `/ { split($0, c, "`"); print c[2] }' "$readme" | sort | tr '\n' ' ')
fact scenarios "$(tr ' ' '\n' <<< "$stages" | grep . | sort | tr '\n' ' ')" "$doc_stages" \
	"README's scenario table against the Makefile's QEMU_STAGES"
said=$(grep -ohE '\b[a-z]+ (QEMU )?scenarios\b' "$readme" "$design" |
	awk '{ print $1 }' | grep -xE "$(IFS='|'; echo "${words[*]}")" | sort -u | tr '\n' ' ')
fact scenario-count "${words[$n]} " "${said:-none }" "how many scenarios README and DESIGN.md say there are"

# --- patches: the table's ranges and headings against `series`.
# series_groups: "NNNN HEADING" for every patch, HEADING the first line of
# the comment block above its group.
series_groups=$(awk '/^$/ { fresh = 1; next }
	/^# / { if (fresh) { h = substr($0, 3); sub(/[.:]? *$/, "", h) } fresh = 0; next }
	/^[0-9][0-9][0-9][0-9]-/ { print substr($0, 1, 4) "\t" h; fresh = 0 }' "$top/series")
doc_groups=$(awk -F'|' '/^\| patches \| heading \| what \|/ { t = 1; next } t && !/^\|/ { exit }
	t && /^\| [0-9]/ { r = $2; h = $3; gsub(/ /, "", r); sub(/^ /, "", h); sub(/ $/, "", h)
		split(r, a, "-"); if (a[2] == "") a[2] = a[1]
		for (i = a[1] + 0; i <= a[2] + 0; i++) printf "%04d\t%s\n", i, h }' "$readme")
bad=$(join -t $'\t' -a 1 -a 2 -e MISSING -o 0,1.2,2.2 <(echo "$series_groups") <(echo "$doc_groups") |
	awk -F'\t' 'index($2, $3) != 1 || $3 == "" || $3 == "MISSING" { print $1 " (series: " $2 ", README: " $3 ")" }' | head -n 3)
npatch=$(grep -c . <<< "$series_groups")
fact patch-table "" "$bad" "README's patch table: $npatch patches of series, each under its series heading"
said=$(grep -ohE '\b[0-9]+ patches\b' "$readme" | awk '{ print $1 }' | sort -u | tr '\n' ' ')
fact patch-count "$npatch " "${said:-$npatch }" "how many patches README says the series has"

# --- cuts of the series
cuts=$("$top/scripts/series/list-series.sh" --cuts | tr ' ' '|')
said=$(grep -ohE 'SERIES=[a-z0-9]+(\|[a-z0-9]+)+' "$readme" "$design" | sed 's/^SERIES=//' | sort -u | tr '\n' ' ')
fact cuts "$cuts " "${said:-none }" "the SERIES=...|... lists of README and DESIGN.md"

# --- make test's time from a fresh clone
# The backquotes are README's Markdown, not a command:
# shellcheck disable=SC2016
mins=$(grep -ohE '`make test` from a fresh clone[^.]* about [0-9]+(-[0-9]+)? min' "$readme" |
	grep -oE '[0-9]+ min$|[0-9]+-[0-9]+ min$' | grep -oE '[0-9]+ min' | grep -oE '[0-9]+')
fact test-time yes "$([ -n "$mins" ] && [ "$mins" -le 45 ] && echo yes || echo "${mins:-no} min")" \
	"README: make test from a fresh clone in ${mins:-?} min, within 45"
exit $status
