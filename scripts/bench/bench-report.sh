#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Turn the raw results of scripts/bench/bench.sh into the cover letter's table.
#
# usage: scripts/bench/bench-report.sh OUTDIR
#
# Reads OUTDIR/meta.txt and OUTDIR/raw/*/result.txt (key=value lines the
# guest wrote; a run counts only if it ended with exit=0, and run 0 is the
# warm-up, never counted).  Writes, and prints the first:
#   OUTDIR/bench.md    the tables, in Markdown
#   OUTDIR/bench.json  the same numbers, and every run's bandwidth
#   OUTDIR/bench.png   bandwidth per workload and kernel (median, with error
#                      bars from the smallest to the largest run), if
#                      gnuplot is installed; EX_MISSING at the end if not
#   OUTDIR/runs.json   every run's key=value lines, as JSON (jq makes the
#                      statistics from it; bench.md and the chart are made
#                      from bench.json)
# Bandwidth is fio's read + write bandwidth in MiB/s.  "var" is the
# coefficient of variation (sample standard deviation / mean) over the
# runs; "diff" is the change of the median from base's median.
set -uo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] || die $EX_USAGE "usage: $0 OUTDIR"
out=$1
{ [ -f "$out/meta.txt" ] && [ -d "$out/raw" ]; } || die $EX_MISSING "no benchmark results in $out"

# key=value lines (a file on stdin) as one JSON object of strings.
kv_json() {
	tr -d '\r' | jq -Rn '[inputs | capture("^(?<key>[^=]+)=(?<value>.*)$")] | from_entries'
}

# Every run: {kernel, workload, run, v: {KEY: VALUE, ...}} (raw/KERNEL-WORKLOAD-RUN).
for d in "$out"/raw/*/; do
	[ -f "$d/result.txt" ] || continue
	IFS=- read -r k w i <<< "$(basename "$d")"
	kv_json < "$d/result.txt" |
		jq -c --arg k "$k" --arg w "$w" --argjson i "${i:-0}" \
			'{kernel: $k, workload: $w, run: $i, v: .}'
done | jq -s . > "$out/runs.json" || die $EX_TESTFAIL "cannot read the results in $out/raw"
kv_json < "$out/meta.txt" > "$out/meta.json"

# The statistics, from the runs that count (not the warm-up, run 0):
#   fio     per kernel and workload: runs (exit=0 with a bandwidth), failed,
#           median, mean, sample standard deviation, its coefficient of
#           variation in %, min, max and every run's MiB/s (rounded to
#           1/1000 first, as shown)
#   diff_pct  each kernel's median against base's, per workload
#   memory  per kernel, over its counted fio runs: io_tlb_nslabs at boot
#           and the largest after a run, MemTotal and MemAvailable
#           (medians), the largest io_tlb_used_hiwater (null: the kernel
#           has no such counter, as base and v7); with a warm-up spike
#           (bench-fio.sh), the smallest io_tlb_nslabs after it, and how
#           many runs reached four times the boot size in the warm-up, how
#           many only by the end of the load, and how many not at all
#   dma_map_benchmark  every map_us_tT_gG of the dma runs that exited 0
jq --slurpfile meta "$out/meta.json" '
	def median: sort | length as $n |
		if $n == 0 then 0 elif $n % 2 == 1 then .[($n - 1) / 2]
		else (.[$n / 2 - 1] + .[$n / 2]) / 2 end;
	def round_to($d): . * $d | round / $d;
	def nums($key): [.[] | .[$key] | select(. != null) | tonumber];
	def counted: .v.exit == "0" and .v.read_kib_s != null;

	[.[] | select(.workload != "dma" and .run != 0)] as $runs |
	($runs | map(.kernel) | unique) as $kernels |
	($runs | map(.workload) | unique) as $workloads |
	[$kernels[] as $k | $workloads[] as $w |
		[$runs[] | select(.kernel == $k and .workload == $w)] as $rs |
		[$rs[] | select(counted) |
			((.v.read_kib_s | tonumber) + (.v.write_kib_s | tonumber)) / 1024 |
			round_to(1000)] as $bw |
		($bw | length) as $n |
		(if $n > 0 then ($bw | add) / $n else 0 end) as $mean |
		(if $n > 1 then (($bw | map((. - $mean) * (. - $mean)) | add) / ($n - 1)) | sqrt
		 else 0 end) as $sd |
		{kernel: $k, workload: $w, runs: $n, failed: (($rs | length) - $n),
		 median_mib_s: ($bw | median | round_to(1000)),
		 mean_mib_s: ($mean | round_to(1000)), sd_mib_s: ($sd | round_to(1000)),
		 cov_pct: (if $mean > 0 then 100 * $sd / $mean else 0 end | round_to(100)),
		 min_mib_s: ($bw | min // 0), max_mib_s: ($bw | max // 0), each_mib_s: $bw}
	] as $fio |
	{meta: $meta[0],
	 fio: $fio,
	 diff_pct: [$fio[] | select(.kernel != "base" and .runs > 0) | . as $f |
		($fio[] | select(.kernel == "base" and .workload == $f.workload and
				 .runs > 0 and .median_mib_s != 0)) as $b |
		{kernel: $f.kernel, workload: $f.workload,
		 diff_pct: (100 * ($f.median_mib_s - $b.median_mib_s) / $b.median_mib_s | round_to(100))}],
	 memory: [$kernels[] as $k |
		[$runs[] | select(.kernel == $k and counted) | .v] as $vs |
		($vs | nums("nslabs_boot") | last // -1) as $boot |
		($vs | nums("nslabs_after") | max // -1) as $after |
		($vs | map(select(.nslabs_warm != null))) as $ws |
		{kernel: $k, nslabs_boot: $boot, nslabs_after_max: $after,
		 warmup_runs: ($ws | length),
		 nslabs_warm_min: ($ws | nums("nslabs_warm") | min),
		 grown_in_warmup: [$ws[] | select((.nslabs_warm | tonumber) >= 4 * $boot)] | length,
		 grown_by_load: [$ws[] | select((.nslabs_warm | tonumber) < 4 * $boot and
						(.nslabs_after | tonumber) >= 4 * $boot)] | length,
		 not_grown: [$ws[] | select((.nslabs_after | tonumber) < 4 * $boot)] | length,
		 swiotlb_boot_kib: ($boot * 2), swiotlb_after_kib: ($after * 2),
		 memtotal_kib: ($vs | nums("memtotal_kib") | if length > 0 then median | floor else -1 end),
		 memavail_kib: ($vs | nums("memavail_kib") | if length > 0 then median | floor else -1 end),
		 hiwater_max: ($vs | nums("hiwater") | max),
		 peak_nslabs: ($vs | [nums("nslabs_boot"), nums("nslabs_warm"), nums("nslabs_after")] | add | max // -1),
		 reclaim_nslabs_max: ($vs | nums("nslabs_reclaim") | max),
		 reclaim_s_max: ($vs | nums("reclaim_s") | max),
		 not_reclaimed: ($vs | nums("reclaim_s") | map(select(. < 0)) | length),
		 transient_after_max: ($vs | nums("transient_after") | max),
		 transient_maps: ($vs | nums("transient_maps") | if length > 0 then add else null end),
		 transient_maps_load: ($vs | map(select(.transient_maps != null) |
			(.transient_maps | tonumber) - (.transient_maps_warm // "0" | tonumber)) |
			if length > 0 then add else null end),
		 swiotlb_full: ($vs | nums("swiotlb_full") | if length > 0 then add else null end)}],
	 dma_map_benchmark: [.[] | select(.workload == "dma" and .v.exit == "0") |
		.kernel as $k | .v as $v | $v | keys[] |
		capture("^map_us_t(?<t>[0-9]+)_g(?<g>[0-9]+)$") |
		("_t" + .t + "_g" + .g) as $s |
		{kernel: $k, threads: (.t | tonumber), granule: (.g | tonumber),
		 map_us: ($v["map_us" + $s] | tonumber), map_sd_us: ($v["map_sd" + $s] | tonumber),
		 unmap_us: ($v["unmap_us" + $s] | tonumber), unmap_sd_us: ($v["unmap_sd" + $s] | tonumber)}
	 ] | sort_by(.kernel, .threads, .granule)} |
	# The goals of the growing kernel, met or missed, with the numbers:
	# bandwidth within 1 % of base per workload, and the swiotlb held after
	# the reclaim at most 1/8 of what base holds.
	. as $r |
	.goals = ([$r.diff_pct[] | select(.kernel == "growing") |
		{goal: "growing within 1 % of base, \(.workload)",
		 value: "\(if .diff_pct > 0 then "+" else "" end)\(.diff_pct) %",
		 met: (.diff_pct >= -1 and .diff_pct <= 1)}] +
		[first($r.memory[] | select(.kernel == "base")) as $b |
		 $r.memory[] | select(.kernel == "growing" and .reclaim_nslabs_max != null) |
		 {goal: "growing holds at most 1/8 of base after reclaim",
		  value: "\(.reclaim_nslabs_max) of \($b.nslabs_boot) slots",
		  met: (.reclaim_nslabs_max * 8 <= $b.nslabs_boot)}])
' "$out/runs.json" > "$out/bench.json" || die $EX_TESTFAIL "cannot compute the statistics of $out"

# --- Markdown, from bench.json ---
jq -r '
	def m: .meta[$ARGS.named.key] // "";
	# fixed(D): the number with D decimals, as printf "%.Df" would.
	def fixed($d): (. * pow(10; $d) | round) as $n |
		($n | fabs | tostring) as $s |
		(if ($s | length) <= $d then ("0" * ($d + 1 - ($s | length))) + $s else $s end) as $p |
		(if $n < 0 then "-" else "" end) + $p[0:($p | length) - $d] + "." + $p[($p | length) - $d:];
	. as $r | ["base", "default", "growing"] as $ks |
	($r.meta.kernels // "base default growing" | split(" ") |
	 map(select(. != "sized" or ($r.meta.sized_nslabs // "") != ""))) as $all |
	($r.meta.workloads | split(" ")) as $ws |
	def fio($k; $w): first($r.fio[] | select(.kernel == $k and .workload == $w)) // null;
	def var($k; $w): fio($k; $w) | if . != null and .runs > 1 then "\(.cov_pct | fixed(2))%" else "n/a" end;
	def diff($k; $w): fio($k; $w) as $f | fio("base"; $w) as $b |
		if $f == null or $b == null or $f.runs == 0 or $b.runs == 0 or $b.median_mib_s == 0 then "n/a"
		else (100 * ($f.median_mib_s - $b.median_mib_s) / $b.median_mib_s) as $d |
			if $d > -0.1 and $d < 0.1 then "<0.1%"
			else (if $d >= 0 then "+" else "" end) + ($d | fixed(1)) + "%" end
		end;
	def mib: . * 2 / 1024 | fixed(1);
	"# Dynamic SWIOTLB benchmark: base vs. patched (\($r.meta.series) series)",
	"",
	"\($r.meta.runs) runs of \($r.meta.runtime) s per kernel and workload (warm-up discarded: \(if $r.meta.warmup == "1" then "yes" else "no" end)), a fresh VM per run, interleaved; \($r.meta.qemu), \($r.meta.qemu_args), \($r.meta.mem) MiB; \($r.meta.date).",
	"Kernels: base = \($r.meta.base_label), \($r.meta.cmdline_base); default = \($r.meta.default_label // "patched" | if . == "" then "patched" else . end), \($r.meta.cmdline_default); growing = \($r.meta.growing_label // "patched" | if . == "" then "patched" else . end), \($r.meta.cmdline_growing).",
	"",
	"## fio read+write bandwidth, in the cover letter'"'"'s form",
	"",
	"| workload | base var | default var | default diff | growing var | growing diff |",
	"|---|---:|---:|---:|---:|---:|",
	($ws[] as $w | "| \($w) | \(var("base"; $w)) | \(var("default"; $w)) | \(diff("default"; $w)) | \(var("growing"; $w)) | \(diff("growing"; $w)) |"),
	"",
	"## fio bandwidth, MiB/s (median, min..max over the counted runs)",
	"",
	"| workload | kernel | runs | failed | median | mean | min | max | var |",
	"|---|---|---:|---:|---:|---:|---:|---:|---:|",
	($ws[] as $w | $all[] as $k | fio($k; $w) | select(. != null) |
		"| \($w) | \($k) | \(.runs) | \(.failed) | \(.median_mib_s | fixed(2)) | \(.mean_mib_s | fixed(2)) | \(.min_mib_s | fixed(2)) | \(.max_mib_s | fixed(2)) | \(.cov_pct | fixed(2))% |"),
	"",
	"## Memory",
	"",
	"swiotlb size = io_tlb_nslabs x 2 KiB; after = the largest after any run;",
	"MemTotal and MemAvailable after boot (median); hiwater = the largest",
	"io_tlb_used_hiwater after a run (above 0: the I/O was bounced; n/a: the kernel",
	"has no such counter, as the base kernel and the v7 series).",
	"",
	"| kernel | swiotlb at boot | swiotlb after | MemTotal | MemAvailable | hiwater |",
	"|---|---:|---:|---:|---:|---:|",
	($all[] as $k | $r.memory[] | select(.kernel == $k) |
		"| \($k) | \(.nslabs_boot | mib) MiB (\(.nslabs_boot) slots) | \(.nslabs_after_max | mib) MiB (\(.nslabs_after_max) slots) | \(.memtotal_kib / 1024 | fixed(1)) MiB | \(.memavail_kib / 1024 | fixed(1)) MiB | \(if .hiwater_max == null then "n/a" else "\(.hiwater_max) slots" end) |"),
	"",
	"Growth: a kernel with a warm-up spike (\($r.meta.growing_spike // "" | if . == "" then "none" else . end)) repeats it before each run until the",
	"swiotlb holds four times its boot size. Smallest swiotlb after the warm-up, and",
	"in how many counted runs it reached four times the boot size in the warm-up, only",
	"by the end of the load, or not at all:",
	"",
	"| kernel | runs with a warm-up | swiotlb after it, smallest | grown in the warm-up | grown by the load | not grown |",
	"|---|---:|---:|---:|---:|---:|",
	($all[] as $k | $r.memory[] | select(.kernel == $k and .kernel != "sized" and .warmup_runs > 0) |
		"| \($k) | \(.warmup_runs) | \(.nslabs_warm_min | mib) MiB (\(.nslabs_warm_min) slots) | \(.grown_in_warmup) | \(.grown_by_load) | \(.not_grown) |"),
	"",
	"## Memory against bandwidth",
	"",
	"What each choice holds, and at what bandwidth. swiotlb held (io_tlb_nslabs x",
	"2 KiB, the largest over the counted runs, without transient pools): at the",
	"peak (after the warm-up spike or the load), after the load, and after the",
	"reclaim (drop_caches once a second, at most 15 s, in runs where it grew; in",
	"brackets the longest it took, or in how many runs the swiotlb stayed grown).",
	"Bandwidth: median MiB/s and diff against base. Full: \"swiotlb buffer is",
	"full\" lines in the kernel logs of the counted runs (rate-limited: a lower",
	"bound). Transient: mappings served by transient pools (io_tlb_transient_maps,",
	"patch 0036), in the counted runs and, after the slash, in their measured loads",
	"alone. n/a: not counted (the kernel has no such counter).",
	"",
	"| kernel | parameters | at boot | peak | after the load | after reclaim | \($ws | map(.) | join(" | ")) | full | transient |",
	"|---|---|---:|---:|---:|---:|\($ws | map("---:|") | join(""))---:|---:|",
	(["base", "sized", "growing", "noshrink"][] as $k | select($all | index($k)) | $r.memory[] | select(.kernel == $k) |
		"| \($k) (\(if $k == "sized" or $k == "base" then $r.meta.base_label
			elif $k == "noshrink" then $r.meta.noshrink_label
			else $r.meta.growing_label end)) | \($r.meta["cmdline_" + $k] // "") | \(.nslabs_boot | mib) MiB | \(.peak_nslabs | mib) MiB | \(.nslabs_after_max | mib) MiB | \(if .reclaim_nslabs_max == null then "n/a" else (.reclaim_nslabs_max | mib) + " MiB" + ([if .reclaim_s_max > 0 then "\(.reclaim_s_max) s" else empty end,
			  if .not_reclaimed > 0 then "\(.not_reclaimed) runs kept it" else empty end] |
			 if length > 0 then " (" + join(", ") + ")" else "" end) end) | \([$ws[] as $w | fio($k; $w) | if . == null or .runs == 0 then "n/a" else "\(.median_mib_s | fixed(2)) (\(if $k == "base" then "base" else diff($k; $w) end))" end] | join(" | ")) | \(.swiotlb_full // "n/a") | \(if .transient_maps == null then "n/a" else "\(.transient_maps) / \(.transient_maps_load)" end) |"),
	"",
	(if $r.meta.sized_nslabs == null then empty
	 elif $r.meta.sized_nslabs == "" then "No sized kernel: no growing run reported its swiotlb size.\n"
	 else "sized: the growing runs of the first round reached \($r.meta.sized_nslabs | tonumber | mib) MiB at most; \(first($r.memory[] | select(.kernel == "growing") | .peak_nslabs) as $p | if $p > ($r.meta.sized_nslabs | tonumber) then "later growing runs reached \($p | mib) MiB, more than sized holds" else "no later growing run held more" end).\n" end),
	"## Goals",
	"",
	"| goal | measured | met |",
	"|---|---|---|",
	($r.goals[] | "| \(.goal) | \(.value) | \(if .met then "yes" else "**missed**" end) |"),
	"",
	"## dma_map_benchmark (edu device, \($r.meta.dma_seconds) s per case), microseconds",
	"",
	"| kernel | threads | granule (pages) | map avg | map stddev | unmap avg | unmap stddev |",
	"|---|---:|---:|---:|---:|---:|---:|",
	($ks[] as $k | $r.dma_map_benchmark[] | select(.kernel == $k) |
		"| \($k) | \(.threads) | \(.granule) | \(.map_us) | \(.map_sd_us) | \(.unmap_us) | \(.unmap_sd_us) |")
' "$out/bench.json" > "$out/bench.md" || die $EX_TESTFAIL "cannot write $out/bench.md"

cat "$out/bench.md"
echo
echo "bench-report.sh: wrote $out/bench.md, bench.json"

# --- chart ---
if ! command -v gnuplot > /dev/null; then
	info "gnuplot not found (apt-get install gnuplot-nox): no chart"
	exit $EX_MISSING
fi
# The kernels of the chart: those with fio results, in the report's order.
mapfile -t chart_kernels < <(jq -r '. as $r | ($r.meta.kernels // "base default growing" | split(" "))[] |
	select(. as $k | any($r.fio[]; .kernel == $k and .runs > 0))' "$out/bench.json")
jq -r --arg ks "${chart_kernels[*]}" '. as $r | ($r.meta.workloads | split(" "))[] as $w |
	[$w] + ([($ks | split(" "))[] as $k |
		($r.fio[] | select(.kernel == $k and .workload == $w) |
		 [.median_mib_s, .min_mib_s, .max_mib_s])] | add // []) | join(" ")' \
	"$out/bench.json" > "$out/chart.dat"
plot='' col=2
for k in "${chart_kernels[@]}"; do
	title=$k
	[ "$k" = growing ] || [ "$k" = noshrink ] && title="$k ($(jq -r .meta.cmdline_growing "$out/bench.json"))"
	[ "$k" = sized ] && title="sized ($(jq -r .meta.cmdline_sized "$out/bench.json"))"
	if [ "$col" = 2 ]; then plot="\"$out/chart.dat\" using 2:3:4:xtic(1) title \"$title\""
	else plot="$plot, '' using $col:$((col + 1)):$((col + 2)) title \"$title\""; fi
	col=$((col + 3))
done
[ -n "$plot" ] || die $EX_TESTFAIL "no fio results for the chart"
gnuplot <<EOF || die $EX_TESTFAIL "gnuplot failed"
set terminal pngcairo size 900,500
set output "$out/bench.png"
set title "fio read+write bandwidth through the swiotlb ($(jq -r .meta.runs "$out/bench.json") runs, median, min..max)"
set ylabel "MiB/s"
set yrange [0:*]
set style data histograms
set style histogram errorbars gap 2 lw 1
set style fill solid 0.6 border -1
set key top left
plot $plot
EOF
echo "bench-report.sh: wrote $out/bench.png"
