#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The report of make bench-pools (scripts/bench/bench-pools.sh), from the
# bench: lines of its KUnit boots in OUTDIR/pools.json: SERIES=noscale,
# the full series, and Debian's 6.12 (series "mainline").
#
# usage: scripts/bench/pools-report.sh OUTDIR
#
# Each operation at 256 pools is compared with the same operation at 1
# pool, round by round (scripts/report/paired-ci.py: the median ratio and
# its sign-test interval), on SERIES=noscale and on the full series.  A
# goal, "at most 10 % more at 256 pools than at 1", is met when the
# interval's top is at most +10 %, missed when its bottom is above, and
# not resolvable otherwise.  A map and unmap on the full series is
# compared with the same on 6.12 at each pool count, round i of the one
# kernel with round i of the other: the two boot one after the other, so
# the pairs are by round index across two boots, not interleaved (under
# icount a round varies by less than 0.1 %).  A goal, "cheaper on the
# full series than on 6.12 at 64 pools or more", with the hint at the
# room and with a stale hint, is met when the interval of full/6.12 is
# below 1, missed when its bottom is at 1 or above, and not resolvable
# otherwise.  Writes, and prints the first:
#   OUTDIR/pools.md     the tables and the verdicts
#   OUTDIR/ratios.json  paired-ci.py's comparison per series and operation,
#                       and of full against 6.12 per operation and count
#   OUTDIR/goals.txt    "SERIES OPERATION VERDICT" per series and goal;
#                       against 6.12 "full-vs-6.12 map_unmap_stale_ps@64 met"
#   OUTDIR/pools.png    ns against pools, both axes log scale (6.12's
#                       map+unmap too), if gnuplot is installed;
#                       EX_MISSING at the end if not
# A missed goal is a finding, in the table.  Exit status: EX_OK,
# EX_MISSING (no gnuplot), or EX_TESTFAIL when pools.json lacks a line:
# fewer than 10 rounds, a pool count or an operation missing (on any of
# the three kernels), no walk steps or no burst (noscale and full; 6.12
# need not have them), or fewer than 10 rounds that full and 6.12 share.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] || die $EX_USAGE "usage: $0 OUTDIR"
out=$1
need_tools "apt-get install jq" jq
[ -s "$out/pools.json" ] || die $EX_TESTFAIL "no $out/pools.json"
rounds_min=10
counts="1 16 64 256"
metrics="find_default_ps find_newest_ps find_oldest_ps find_nobounce_ps map_unmap_hint_ps map_unmap_stale_ps"
# Against 6.12: these operations, with a goal from this pool count up.
vs_metrics="map_unmap_stale_ps map_unmap_hint_ps"
vs_pools_min=64
rm -f "$out"/pools.md "$out"/ratios.json "$out"/goals.txt \
	"$out"/pools.png "$out"/pools-*.dat
rm -rf "$out/ci"
mkdir -p "$out/ci"

# Complete lines, or nothing is judged.  6.12 (mainline) has the same
# round lines; its walk steps and its burst are not judged.
{ for series in noscale full mainline; do
	if [ "$series" != mainline ]; then
		n=$(jq --arg s "$series" '[.[] | select(.series == $s and has("steps_map_stale"))] | length' "$out/pools.json")
		[ "$n" -eq 4 ] || die $EX_TESTFAIL "SERIES=$series: want 4 lines of walk steps, got $n ($out/pools.json)"
		n=$(jq --arg s "$series" '[.[] | select(.series == $s and has("grow_to_mib"))] | length' "$out/pools.json")
		[ "$n" -eq 1 ] || die $EX_TESTFAIL "SERIES=$series: want 1 burst line, got $n ($out/pools.json)"
	fi
	n=$(jq --arg s "$series" '[.[] | select(.series == $s and has("round"))] | map(.round) | unique | length' "$out/pools.json")
	[ "$n" -ge "$rounds_min" ] || die $EX_TESTFAIL "SERIES=$series: want at least $rounds_min rounds, got $n ($out/pools.json)"
	for m in $metrics; do
		# "ROUND POOLS VALUE", 1 pool first: the reference.
		jq -r --arg s "$series" --arg m "$m" '.[] |
			select(.series == $s and has("round")) |
			"\(.round) \(.pools) \(.[$m] // "missing")"' "$out/pools.json" |
			sort -k1,1n -k2,2n > "$out/ci/$series-$m.txt"
		n=$(awk -v want="$counts" 'BEGIN { split(want, c, " "); for (i in c) ok[c[i]] = 1 }
			!($2 in ok) || $3 !~ /^[0-9]+$/ { bad++ } { n[$1]++ }
			END { for (r in n) if (n[r] != 4) bad++; print bad + 0 }' "$out/ci/$series-$m.txt")
		[ "$n" -eq 0 ] || die $EX_TESTFAIL "SERIES=$series: round lines without $m, with another pool count, or a round without every count ($out/ci/$series-$m.txt)"
		"$PROJECT_TOP/scripts/report/paired-ci.py" --json "$out/ci/$series-$m.txt" |
			jq -c --arg s "$series" --arg m "$m" '. + {series: $s, metric: $m}'
	done
done
# Full against 6.12 at each pool count: "ROUND KERNEL VALUE", 6.12 first
# (the reference, so the ratio is full/6.12).  Round i of the one boot
# is paired with round i of the other.
for m in $vs_metrics; do
	for n in $counts; do
		f=$out/ci/full-vs-6.12-$m-$n.txt
		jq -r --arg m "$m" --argjson n "$n" '
			(.[] | select(.series == "mainline" and .pools == $n and has("round"))),
			(.[] | select(.series == "full" and .pools == $n and has("round"))) |
			"\(.round) \(.series) \(.[$m])"' "$out/pools.json" > "$f"
		r=$("$PROJECT_TOP/scripts/report/paired-ci.py" --json "$f")
		k=$(jq .rounds <<< "$r")
		[ "$k" -ge "$rounds_min" ] || die $EX_TESTFAIL "full and 6.12: want at least $rounds_min rounds of both, got $k ($f)"
		jq -c --arg m "$m" --argjson n "$n" '. + {series: "full-vs-6.12", metric: $m, pools: $n}' <<< "$r"
	done
done; } | jq -s '.' > "$out/ratios.json"

# The goals: 256 pools against 1, at most +10 %, for what the "# Scale"
# patches make independent of the pool count.  The lookup of a dynamic
# pool is compared too, without a goal: at 1 pool the "newest" and
# "oldest" pool is the default pool, and the index is a bisection, so it
# grows with the logarithm of the count; a map with a stale hint walks
# every pool (the steps say so).
# Against 6.12, the goal is a map and unmap cheaper on the full series
# at $vs_pools_min pools or more, with a stale hint (the series' worst
# case) and with the hint at the room.
goals="find_default_ps find_nobounce_ps map_unmap_hint_ps"
# The one place a verdict is decided: it goes into ratios.json, which
# goals.txt and pools.md read.
jq --arg goals "$goals" --argjson vs_from "$vs_pools_min" '
	def verdict: if .high == null then "not resolvable"
		elif .high <= 1.10 then "met" elif .low > 1.10 then "missed"
		else "not resolvable" end;
	def cheaper: if .high == null then "not resolvable"
		elif .high < 1 then "met" elif .low >= 1 then "missed"
		else "not resolvable" end;
	map(if .series == "full-vs-6.12" then
		if .pools >= $vs_from then .kernels |= map(. + {verdict: cheaper}) else . end
	    elif .series != "mainline" and (.metric | IN($goals | splits(" "))) then
		.kernels |= map(if .label == "256" then . + {verdict: verdict} else . end)
	    else . end)' "$out/ratios.json" > "$out/ratios.json.new"
mv "$out/ratios.json.new" "$out/ratios.json"
jq -r '.[] | . as $r | .kernels[] | select(has("verdict")) |
	"\($r.series) \($r.metric)\(if $r.pools then "@\($r.pools)" else "" end) \(.verdict | gsub(" "; "_"))"' \
	"$out/ratios.json" > "$out/goals.txt"

jq -r --slurpfile ratios "$out/ratios.json" --argjson vs_from "$vs_pools_min" '
	. as $all | $ratios[0] as $rs |
	def r($s; $m): first($rs[] | select(.series == $s and .metric == $m));
	def med($s; $m; $n): r($s; $m) as $r |
		if $n == "1" then $r.reference_median
		else first($r.kernels[] | select(.label == $n)).median end;
	def ns: . / 1000 | (. * 10 | round) / 10 | tostring;
	def pct: (. - 1) * 100 | (. * 10 | round) / 10 |
		if . == 0 then "±0 %" elif . > 0 then "+\(.) %" else "\(.) %" end;
	def k256($s; $m): first(r($s; $m).kernels[] | select(.label == "256"));
	def cmp($s; $m): k256($s; $m) |
		"\(.ratio | pct) (\(.low | pct) .. \(.high | pct))" +
		(if has("verdict") then ", \(.verdict)" else "" end);
	def cell($n; $m): "\(med("noscale"; $m; $n) | ns) / \(med("full"; $m; $n) | ns)";
	def steps($s; $n): first($all[] | select(.series == $s and .pools == ($n | tonumber) and has("steps_map_stale")));
	def vs($m; $n): first($rs[] | select(.series == "full-vs-6.12" and .metric == $m and .pools == ($n | tonumber)));
	def r3: (. * 1000 | round) as $k | "\($k / 1000 | floor).\("00\($k % 1000)"[-3:])";
	def vscmp: .kernels[0] |
		"\(.ratio | r3) (\(.low | r3) .. \(.high | r3))" +
		(if has("verdict") then ", \(.verdict)" else "" end);
	(r("full"; "find_default_ps").rounds) as $rounds |
	"# Cost against the number of pools: SERIES=noscale / full",
	"",
	"KUnit case swiotlb_test_bench_pools under `-icount shift=2,sleep=off`",
	"on one vCPU, where a guest nanosecond is a quarter of an instruction;",
	"medians of \($rounds) rounds, each of which measures every pool count",
	"in turn. Every pool is full but the one the slot search reaches last",
	"(the default pool; with patch 0032 in the series the newest). A lookup",
	"is swiotlb_find_pool() of an address in that pool; \"never bounced\" is",
	"a device that has mapped nothing; map+unmap is 2 KiB, with the search",
	"hint at the room (patch 0031; SERIES=noscale has no hint), or stale",
	"(pointing to a full pool) before every map.",
	"",
	"| pools | lookup, default pool | lookup, newest pool | lookup, oldest pool | never bounced | map+unmap, hint at the room | map+unmap, stale hint |",
	"|---:|---:|---:|---:|---:|---:|---:|",
	(("1", "16", "64", "256") as $n |
		"| \($n) | \(cell($n; "find_default_ps")) | \(cell($n; "find_newest_ps")) | \(cell($n; "find_oldest_ps")) | \(cell($n; "find_nobounce_ps")) | \(cell($n; "map_unmap_hint_ps")) | \(cell($n; "map_unmap_stale_ps")) |"),
	"",
	"256 pools against 1 pool: median ratio (sign-test interval), and the",
	"verdict on the goal of at most +10 % where the \"# Scale\" patches set",
	"one. A lookup in a dynamic pool has none: at 1 pool the newest and the",
	"oldest pool are the default pool, and since patch 0028 the index is a",
	"bisection, which grows with the logarithm of the count. A map with a",
	"stale hint has none either: it passes every full pool (the steps).",
	"",
	"| operation | SERIES=noscale | full |",
	"|---|---|---|",
	((["lookup, default pool", "find_default_ps"], ["lookup, newest pool", "find_newest_ps"],
	  ["lookup, oldest pool", "find_oldest_ps"], ["never bounced", "find_nobounce_ps"],
	  ["map+unmap, hint at the room", "map_unmap_hint_ps"],
	  ["map+unmap, stale hint", "map_unmap_stale_ps"]) as [$name, $m] |
		"| \($name) | \(cmp("noscale"; $m)) | \(cmp("full"; $m)) |"),
	"",
	"Steps through the pool list (the walk seam of the KUnit suite; the",
	"case asserts them): one map with the hint at the room, one with a",
	"stale hint, and one unmap. SERIES=noscale / full:",
	"",
	"| pools | map, hint at the room | map, stale hint | unmap |",
	"|---:|---:|---:|---:|",
	(("1", "16", "64", "256") as $n | steps("noscale"; $n) as $a | steps("full"; $n) as $b |
		"| \($n) | \($a.steps_map_hint) / \($b.steps_map_hint) | \($a.steps_map_stale) / \($b.steps_map_stale) | \($a.steps_unmap) / \($b.steps_unmap) |"),
	"",
	"# A burst to 256 MiB: the pools that the grow worker adds",
	"",
	"KUnit case swiotlb_test_bench_grow: the worker runs on a private",
	"allocator with a default pool of the boot size (swiotlb=512: 1 MiB)",
	"until it holds 256 MiB.",
	"",
	"| series | pools | largest pool | swiotlb at the end | worker time |",
	"|---|---:|---:|---:|---:|",
	(("noscale", "full") as $s | first($all[] | select(.series == $s and has("grow_to_mib"))) |
		"| \($s) | \(.pools) | \(.largest_kib / 1024) MiB | \(.grow_to_mib) MiB | \(.grow_us / 1000 | round) ms |"),
	"",
	"Goal, full series: at most 16 pools for the burst: \(first($all[] | select(.series == "full" and has("grow_to_mib"))).pools) (SERIES=noscale: \(first($all[] | select(.series == "noscale" and has("grow_to_mib"))).pools))",
	"",
	"# Map+unmap: the full series against 6.12",
	"",
	"The same case on Debian 6.12 (none of our patches), in a boot of its",
	"own. 6.12 has no search hint: its two map+unmap lines measure the same",
	"walk, and its column here is the stale one. Round i of the full series",
	"is paired with round i of 6.12: the kernels boot one after the other,",
	"so the pairs are by round index across two boots, not interleaved",
	"(under icount a round varies by less than 0.1 %). Medians in ns;",
	"full/6.12 is the median ratio (sign-test interval, \(vs("map_unmap_stale_ps"; "256").rounds) pairs), and the",
	"verdict on the goal of a map+unmap cheaper on the full series than on",
	"6.12 at \($vs_from) pools or more: met when the interval is below 1,",
	"missed when its bottom is at 1 or above.",
	"",
	"| pools | 6.12 | full, hint at the room | full, stale hint | full/6.12, stale hint | full/6.12, hint at the room |",
	"|---:|---:|---:|---:|---|---|",
	(("1", "16", "64", "256") as $n | vs("map_unmap_stale_ps"; $n) as $s | vs("map_unmap_hint_ps"; $n) as $h |
		"| \($n) | \($s.reference_median | ns) | \($h.kernels[0].median | ns) | \($s.kernels[0].median | ns) | \($s | vscmp) | \($h | vscmp) |")
' "$out/pools.json" > "$out/pools.md"
cat "$out/pools.md"

if ! command -v gnuplot > /dev/null; then
	info "gnuplot not found (apt-get install gnuplot-nox): no chart"
	exit $EX_MISSING
fi
for series in noscale full mainline; do
	jq -r --arg s "$series" '
		def med($m; $n): first(.[] | select(.series == $s and .metric == $m)) |
			if $n == "1" then .reference_median
			else first(.kernels[] | select(.label == $n)).median end;
		("1", "16", "64", "256") as $n |
		"\($n) \(med("find_default_ps"; $n) / 1000) \(med("find_oldest_ps"; $n) / 1000) \(med("map_unmap_hint_ps"; $n) / 1000) \(med("map_unmap_stale_ps"; $n) / 1000)"' \
		"$out/ratios.json" > "$out/pools-$series.dat"
done
gnuplot <<EOF || die $EX_TESTFAIL "gnuplot failed"
set terminal pngcairo size 800,500
set output "$out/pools.png"
set title "swiotlb cost against the number of pools (QEMU TCG, icount)"
set xlabel "pools"
set ylabel "ns per operation (a quarter of an instruction)"
set logscale xy
set key below
plot "$out/pools-noscale.dat" using 1:2 with linespoints title "lookup, default pool (noscale)", \
	"$out/pools-full.dat" using 1:2 with linespoints title "lookup, default pool (full)", \
	"$out/pools-noscale.dat" using 1:3 with linespoints title "lookup, oldest pool (noscale)", \
	"$out/pools-full.dat" using 1:3 with linespoints title "lookup, oldest pool (full)", \
	"$out/pools-noscale.dat" using 1:4 with linespoints title "map+unmap (noscale)", \
	"$out/pools-full.dat" using 1:4 with linespoints title "map+unmap, hint at the room (full)", \
	"$out/pools-full.dat" using 1:5 with linespoints title "map+unmap, stale hint (full)", \
	"$out/pools-mainline.dat" using 1:5 with linespoints title "map+unmap (6.12)"
EOF
info "wrote $out/pools.md, pools.json, ratios.json, goals.txt, pools.png"
