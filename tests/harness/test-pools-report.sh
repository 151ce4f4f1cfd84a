#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# bench-pools' report on crafted lines: scripts/bench/pools-report.sh on a
# pools.json written here (no kernel, no QEMU).  A flat cost meets the
# +10 % goal, a cost 20 % higher at 256 pools misses it, noise of +-15 %
# cannot resolve it, and incomplete lines (9 rounds, a round without a
# pool count, no walk steps) fail the report.  Records
# harness.pools-report.CASE.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/harness/harness-lib.sh
. "$here/harness-lib.sh"

# lines ROUNDS AT256 NOISE SKIP: pools.json of both series; every
# operation costs 1000 ps times AT256 at 256 pools (1 below), times
# 1 +- NOISE alternating by round; SKIP names a kind of line to leave out
# (steps, or a pool count of round 3).
lines() {
	awk -v rounds="$1" -v at256="$2" -v noise="$3" -v skip="$4" 'BEGIN {
		n = split("find_default_ps find_newest_ps find_oldest_ps find_nobounce_ps map_unmap_hint_ps map_unmap_stale_ps", m, " ")
		split("1 16 64 256", c, " ")
		printf "["
		sep = ""
		for (s = 1; s <= 2; s++) {
			series = s == 1 ? "noscale" : "full"
			for (i = 1; i <= 4; i++)
				if (skip != "steps") {
					printf "%s{\"pools\":%d,\"steps_map_hint\":0,\"steps_map_stale\":%d,\"steps_unmap\":0,\"series\":\"%s\"}", sep, c[i], c[i], series
					sep = ","
				}
			printf "%s{\"pools\":2,\"largest_kib\":131072,\"grow_to_mib\":256,\"grow_us\":90000,\"series\":\"%s\"}", sep, series
			sep = ","
			for (r = 1; r <= rounds; r++)
				for (i = 1; i <= 4; i++) {
					if (skip == c[i] && r == 3)
						continue
					f = (c[i] == 256 ? at256 : 1) * (1 + (r % 2 ? noise : -noise) * (c[i] == 256))
					printf ",{\"round\":%d,\"pools\":%d", r, c[i]
					for (k = 1; k <= n; k++)
						printf ",\"%s\":%d", m[k], 1000 * f
					printf ",\"series\":\"%s\"}", series
				}
		}
		print "]"
	}'
}

# report_case NAME WANT ROUNDS AT256 NOISE SKIP: WANT is "STATUS VERDICT",
# the report's exit status and its verdict on the full series' map+unmap
# with the hint at the room.
report_case() {
	local name=$1 want=$2 d=$tmp/$1 got verdict
	mkdir -p "$d"
	lines "$3" "$4" "$5" "$6" > "$d/pools.json"
	"$PROJECT_TOP/scripts/bench/pools-report.sh" "$d" > "$d.out" 2>&1
	got=$?
	# Without gnuplot the report ends with EX_MISSING: not the point here.
	[ "$got" -ne "$EX_MISSING" ] || got=0
	verdict=$(awk '$1 == "full" && $2 == "map_unmap_hint_ps" { print $3 }' "$d/goals.txt" 2> /dev/null)
	expect_report "harness.pools-report.$name" "$want" "$got ${verdict:-none}" "$d.out"
}

report_case flat "0 met" 10 1.00 0.005 none
report_case plus-20pc "0 missed" 10 1.20 0.005 none
report_case noisy "0 not_resolvable" 10 1.05 0.15 none
report_case nine-rounds "$EX_TESTFAIL none" 9 1.00 0.005 none
report_case round-without-64 "$EX_TESTFAIL none" 10 1.00 0.005 64
report_case no-steps "$EX_TESTFAIL none" 10 1.00 0.005 steps
exit $status
