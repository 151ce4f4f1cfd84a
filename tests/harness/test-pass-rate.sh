#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/report/pass-rate.sh on a toy command whose outcome each run is
# known: every run passing gives exit 0 and "3 of 3"; a crash in run 2
# and a failed check in run 3 give exit 1, "1 of 3", the crash named as
# one, and the check counted 2 passed, 1 failed in run 3.  Records
# harness.pass-rate.CASE.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/harness/harness-lib.sh
. "$here/harness-lib.sh"

# The toy: its run number from a counter file; FAILS lists "RUN:STATUS".
cat > "$tmp/toy.sh" <<'EOF'
#!/bin/bash
. "$TOY_LIB"
n=$(($(cat "$TOY_COUNT" 2> /dev/null || echo 0) + 1))
echo "$n" > "$TOY_COUNT"
st=0
for f in $TOY_FAILS; do [ "${f%%:*}" = "$n" ] && st=${f#*:}; done
if [ "$st" = 1 ]; then record FAIL toy.check "run $n"; else record PASS toy.check "run $n"; fi
exit "$st"
EOF
chmod +x "$tmp/toy.sh"

# rate_case NAME FAILS WANT_STATUS WANT_HEADLINE GREP...: every GREP must
# be a line of NAME.md.
rate_case() {
	local name=$1 fails=$2 want=$3 head=$4 got line why=
	shift 4
	TOY_LIB=$PROJECT_TOP/scripts/lib.sh TOY_COUNT=$tmp/$name.count TOY_FAILS=$fails \
		"$PROJECT_TOP/scripts/report/pass-rate.sh" "$tmp/out" 3 "$name" "$tmp/toy.sh" \
		> "$tmp/$name.log" 2>&1
	got=$?
	[ "$got" = "$want" ] || why="exit $got, want $want"
	grep -qxF "# $name: $head" "$tmp/out/$name.md" 2> /dev/null || why="${why:+$why; }no headline '$head'"
	for line; do
		grep -qF "$line" "$tmp/out/$name.md" 2> /dev/null || why="${why:+$why; }no line '$line'"
	done
	if [ -z "$why" ]; then
		record PASS "harness.pass-rate.$name" "exit $got, $head"
	else
		record FAIL "harness.pass-rate.$name" "$why"
		status=1
	fi
}

rate_case all-pass "" 0 "3 of 3 runs passed" "| pass | 3 | 1, 2, 3 |" "| toy.check | 3 | 0 |  |"
rate_case crash-and-fail "2:$EX_CRASH 3:1" 1 "1 of 3 runs passed" \
	"| crash | 1 | 2 |" "| testfail | 1 | 3 |" "| toy.check | 2 | 1 | 3 |"
exit $status
