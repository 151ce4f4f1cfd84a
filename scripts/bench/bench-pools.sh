#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make bench-pools: what a lookup by address, and a map and unmap, cost
# against the number of pools, before and after the "# Scale" patches of
# the series, in one run.
#
# usage: scripts/bench/bench-pools.sh OUTDIR
#
# Boots the KUnit kernel of SERIES=noscale (every patch above "# Scale")
# and of the full series with only the cases swiotlb_test_bench_*
# (tests/kunit/swiotlb_dynamic_kunit.c).  swiotlb_test_bench_pools prints
# one "bench:" line per pool count (1, 16, 64, 256): ns per
# swiotlb_find_pool() of an address in the default pool, the newest and
# the oldest dynamic pool, and for a device that never bounced, and ns per
# map and unmap of 2 KiB while every dynamic pool is full.
# swiotlb_test_bench_grow prints one: how many pools the grow worker adds
# to take a private allocator to 256 MiB, and the largest.  QEMU TCG,
# plain (not icount): compare columns, not machines.  Writes, and prints
# the first:
#   OUTDIR/pools.md     the tables, and the goals met or missed
#   OUTDIR/pools.json   the same numbers
#   OUTDIR/pools.png    ns against pools, both axes log scale, if gnuplot
#                       is installed; EX_MISSING at the end if not
# Exit status: EX_OK, or the KUnit run's status (a failed case: a lookup
# found the wrong pool or a map failed).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] || die $EX_USAGE "usage: $0 OUTDIR"
out=$1
mkdir -p "$out"
need_tools "apt-get install jq" jq
runs=${BUILD:-$PROJECT_TOP/build}/runs

for series in noscale full; do
	info "the KUnit benchmark on SERIES=$series"
	KUNIT_RUN=bench-pools-$series \
	KUNIT_FILTER='swiotlb_dynamic.swiotlb_test_bench_*' \
	RESULTS_FILE=$out/kunit-results.txt \
		"$PROJECT_TOP/scripts/kunit/kunit-run.sh" "$series" y >&2 ||
		die $? "the benchmark case failed on SERIES=$series (see $runs/bench-pools-$series/console.log)"
	tr -d '\r' < "$runs/bench-pools-$series/console.log" |
		grep -ao 'bench: .*' |
		jq -Rn --arg series "$series" '[inputs |
			[scan("([a-z_]+) ([0-9]+)") | {(.[0]): (.[1] | tonumber)}] |
			add + {series: $series}]'
done | jq -s 'add' > "$out/pools.json"
rows=$(jq '[.[] | select(has("pools") and has("find_default_ns"))] | length' "$out/pools.json")
[ "$rows" -eq 8 ] || die $EX_TESTFAIL "want 4 pool-count lines per series, got $rows in all ($out/pools.json)"
rows=$(jq '[.[] | select(has("grow_to_mib"))] | length' "$out/pools.json")
[ "$rows" -eq 2 ] || die $EX_TESTFAIL "want 1 burst line per series, got $rows in all ($out/pools.json)"

jq -r '
	def at($s; $n): first(.[] | select(.series == $s and .pools == $n));
	def pct($a; $b): if $b == 0 then "n/a" else
		(100 * ($a - $b) / $b | round) as $p |
		(if $p >= 0 then "+" else "" end) + ($p | tostring) + "%" end;
	(map(select(has("grow_to_mib")))) as $g |
	def burst($s): first($g[] | select(.series == $s));
	map(select(has("find_default_ns"))) |
	. as $r | (map(.pools) | unique) as $counts |
	def cell($n; $k): "\($r | at("noscale"; $n)[$k]) / \($r | at("full"; $n)[$k])";
	"# Cost against the number of pools: SERIES=noscale / full, ns per operation",
	"",
	"QEMU TCG (plain, not icount), KUnit case swiotlb_test_bench_pools; a",
	"lookup is swiotlb_find_pool() of an address in that pool; \"never",
	"bounced\" is a device that has mapped nothing; map+unmap is 2 KiB while",
	"every pool is full but the one the search tries last (the default pool,",
	"or with patch 0032 in the series the newest pool).",
	"",
	"| pools | lookup, default pool | lookup, newest pool | lookup, oldest pool | never bounced | map+unmap, others full |",
	"|---:|---:|---:|---:|---:|---:|",
	($counts[] as $n |
		"| \($n) | \(cell($n; "find_default_ns")) | \(cell($n; "find_newest_ns")) | \(cell($n; "find_oldest_ns")) | \(cell($n; "find_nobounce_ns")) | \(cell($n; "map_unmap_full_ns")) |"),
	"",
	"Goals, full series, 256 pools against 1 pool:",
	"- map+unmap within +10%: \(pct(at("full"; 256).map_unmap_full_ns; at("full"; 1).map_unmap_full_ns)) (SERIES=noscale: \(pct(at("noscale"; 256).map_unmap_full_ns; at("noscale"; 1).map_unmap_full_ns)))",
	"- lookup in the default pool: \(pct(at("full"; 256).find_default_ns; at("full"; 1).find_default_ns)) (SERIES=noscale: \(pct(at("noscale"; 256).find_default_ns; at("noscale"; 1).find_default_ns)))",
	"- a device that never bounced pays nothing measurable: \(at("full"; 256).find_nobounce_ns) ns at 256 pools, \(at("full"; 1).find_nobounce_ns) ns at 1",
	"",
	"# A burst to 256 MiB: the pools that the grow worker adds",
	"",
	"KUnit case swiotlb_test_bench_grow: the worker runs on a private",
	"allocator with a default pool of the boot size (swiotlb=512: 1 MiB)",
	"until it holds 256 MiB.",
	"",
	"| series | pools | largest pool | swiotlb at the end | worker time |",
	"|---|---:|---:|---:|---:|",
	(("noscale", "full") as $s | burst($s) |
		"| \($s) | \(.pools) | \(.largest_kib / 1024) MiB | \(.grow_to_mib) MiB | \(.grow_us / 1000 | round) ms |"),
	"",
	"Goal, full series: at most 16 pools for the burst: \(burst("full").pools) (SERIES=noscale: \(burst("noscale").pools))"
' "$out/pools.json" > "$out/pools.md"
cat "$out/pools.md"

if ! command -v gnuplot > /dev/null; then
	info "gnuplot not found (apt-get install gnuplot-nox): no chart"
	exit $EX_MISSING
fi
for series in noscale full; do
	jq -r --arg s "$series" '.[] | select(.series == $s) |
		"\(.pools) \(.find_default_ns) \(.find_oldest_ns) \(.map_unmap_full_ns)"' \
		"$out/pools.json" > "$out/pools-$series.dat"
done
gnuplot <<EOF || die $EX_TESTFAIL "gnuplot failed"
set terminal pngcairo size 800,500
set output "$out/pools.png"
set title "swiotlb cost against the number of pools (QEMU TCG)"
set xlabel "pools"
set ylabel "ns per operation"
set logscale xy
set key below
plot "$out/pools-noscale.dat" using 1:2 with linespoints title "lookup, default pool (noscale)", \
	"$out/pools-full.dat" using 1:2 with linespoints title "lookup, default pool (full)", \
	"$out/pools-noscale.dat" using 1:3 with linespoints title "lookup, oldest pool (noscale)", \
	"$out/pools-full.dat" using 1:3 with linespoints title "lookup, oldest pool (full)", \
	"$out/pools-noscale.dat" using 1:4 with linespoints title "map+unmap, others full (noscale)", \
	"$out/pools-full.dat" using 1:4 with linespoints title "map+unmap, others full (full)"
EOF
info "wrote $out/pools.md, pools.json, pools.png"
