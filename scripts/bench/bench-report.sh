#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Turn the raw results of scripts/bench/bench.sh into the cover letter's table.
#
# usage: scripts/bench/bench-report.sh OUTDIR
#
# Reads OUTDIR/meta.txt, OUTDIR/failed.txt and OUTDIR/raw/*/result.txt
# (key=value lines the guest wrote).  A run counts only if it ended with
# exit=0 and the host did not list it in failed.txt (a crash or timeout
# after the guest's exit=0 is still a failure); run 0 is the warm-up,
# never counted.  Every output below is deleted first, so a step that
# fails leaves none behind.  Writes, and prints the first:
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
# runs; "diff" is the change of the median from base's median, shown as
# the cover letter did, and never a verdict.
#
# Verdicts come from paired intervals: within each round (the runs of one
# workload, interleaved), each kernel's bandwidth divided by base's, and
# the sign-test interval of the median ratio (scripts/report/paired-ci.py;
# 5 rounds or more).  A goal reads "met" when its interval lies inside the
# goal, "missed" when it lies outside, and "not resolvable" when it
# straddles the goal's edge, when there are too few rounds, or when the
# control (the base kernel booted again) resolved a difference from base:
# the noise of that run is wider than anything it could judge.  The
# reclaim goal (every grown pool back at its boot size after the reclaim)
# is read on growing and on noshrink, which has no shrinker and must miss
# it; a goal no run exercised (no pool grew) reads "not tested".
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

rm -f "$out"/{runs.json,meta.json,paired.json,steps.json,dma-paired.json,dma-steps.json,bench.json,bench.md,bench.png,chart.dat}{,.new}

# Every run: {kernel, workload, run, host_failed, v: {KEY: VALUE, ...}}
# (raw/KERNEL-WORKLOAD-RUN; v is empty if the guest wrote no result).
# One awk and one jq for all of them: "NAME<tab>KEY=VALUE" lines, and a
# "NAME<tab>" line for every directory.
{
	for d in "$out"/raw/*/; do [ -d "$d" ] && printf '%s\t\n' "$(basename "$d")"; done
	find "$out/raw" -mindepth 2 -maxdepth 2 -name result.txt -exec awk '{
		sub(/\r$/, ""); n = FILENAME; sub(/\/result\.txt$/, "", n); sub(/.*\//, "", n)
		print n "\t" $0 }' {} +
} | jq -Rn --arg failed "$(cat "$out/failed.txt" 2> /dev/null)" '
	($failed | split("\n") | map(select(. != "") | split(" ")[0])) as $f |
	[inputs | capture("^(?<name>[^\t]*)\t(?<kv>.*)$")] | group_by(.name) |
	map(.[0].name as $n | ($n | split("-")) as $p |
		{kernel: $p[0], workload: $p[1], run: ($p[2] // "0" | tonumber),
		 host_failed: any($f[]; . == $n),
		 v: ([.[].kv | select(. != "") | capture("^(?<key>[^=]+)=(?<value>.*)$")] | from_entries)})
' > "$out/runs.json" || die $EX_TESTFAIL "cannot read the results in $out/raw"
kv_json < "$out/meta.txt" > "$out/meta.json"

# paired FILE REF FIELDS: FILE holds "ROUND KERNEL VALUE" lines, REF's
# first (paired-ci.py's reference); prints the JSON object FIELDS with
# paired-ci.py's comparison added, or no kernels where REF or another is
# missing.
paired() {
	if [ "$(awk '{ print $2 }' "$1" | sort -u | grep -c .)" -lt 2 ] ||
		[ "$(head -n 1 "$1" | awk '{ print $2 }')" != "$2" ]; then
		jq -nc --arg r "$2" --argjson f "$3" '$f + {reference: $r, rounds: 0, kernels: []}'
	else
		"$PROJECT_TOP/scripts/report/paired-ci.py" --json "$1" |
			jq -c --argjson f "$3" '$f + .'
	fi || die $EX_TESTFAIL "paired-ci.py failed on $1"
	rm -f "$1"
}

# fio_rounds WORKLOAD REF [KERNEL]: "ROUND KERNEL MiB/s" of the counted
# fio runs of REF, then of KERNEL (of every other kernel if none).
counted='.v.exit == "0" and .v.read_kib_s != null and (.host_failed | not)'
fio_rounds() {
	jq -r --arg w "$1" --arg ref "$2" --arg k "${3:-}" '
		(.[] | select(.kernel == $ref)),
		(.[] | select(.kernel != $ref and ($k == "" or .kernel == $k))) |
		select(.workload == $w and .run != 0) | select('"$counted"') |
		"\(.run) \(.kernel) \((((.v.read_kib_s | tonumber) + (.v.write_kib_s | tonumber)) / 1024 * 1000 | round) / 1000)"' \
		"$out/runs.json"
}

# The paired comparison of fio, per workload: every kernel against base.
for w in $(jq -r '.workloads' "$out/meta.json"); do
	fio_rounds "$w" base > "$out/paired-$w.txt"
	paired "$out/paired-$w.txt" base "$(jq -nc --arg w "$w" '{workload: $w}')"
done | jq -s . > "$out/paired.json" || die $EX_TESTFAIL "cannot compute the paired intervals of $out"

# Steps between two slots other than base (meta.steps: "A/B ...", from
# bench.sh's BENCH_STEPS): per workload, A's bandwidth divided by B's in
# each round, with B as the reference, so that a step of a decomposition
# has an interval of its own.
for w in $(jq -r '.workloads' "$out/meta.json"); do
	for st in $(jq -r '.steps // ""' "$out/meta.json"); do
		fio_rounds "$w" "${st#*/}" "${st%/*}" > "$out/paired-step.txt"
		paired "$out/paired-step.txt" "${st#*/}" "$(jq -nc --arg w "$w" --arg st "$st" '{workload: $w, step: $st}')"
	done
done | jq -s . > "$out/steps.json" || die $EX_TESTFAIL "cannot compute the steps of $out"

# The same for dma_map_benchmark, per case (threads and granule): map +
# unmap microseconds of each round's VM (raw/KERNEL-dma-ROUND), to the
# tool's 0.1 us, so that equal costs give a ratio of exactly 1.
# dma_rounds CASE REF [KERNEL]: "ROUND KERNEL MAP+UNMAP" of REF's dma
# rounds, then of KERNEL's (of every other kernel if none).
dma_ok='.workload == "dma" and .v.exit == "0" and (.host_failed | not)'
dma_rounds() {
	jq -r --arg c "$1" --arg ref "$2" --arg k "${3:-}" '
		(.[] | select(.kernel == $ref)),
		(.[] | select(.kernel != $ref and ($k == "" or .kernel == $k))) |
		select('"$dma_ok"' and .v["map_us_" + $c] != null) |
		"\(.run) \(.kernel) \(((.v["map_us_" + $c] | tonumber) + (.v["unmap_us_" + $c] | tonumber)) * 10 | round / 10)"' \
		"$out/runs.json"
}
dma_cases=$(jq -r '[.[] | select('"$dma_ok"') | .v | keys[] |
	capture("^map_us_(?<c>t[0-9]+_g[0-9]+)$").c] | unique[]' "$out/runs.json")
for c in $dma_cases; do
	dma_rounds "$c" base > "$out/paired-$c.txt"
	paired "$out/paired-$c.txt" base "$(jq -nc --arg c "$c" '{case: $c}')"
done | jq -s . > "$out/dma-paired.json" || die $EX_TESTFAIL "cannot compute the paired intervals of $out"
# The steps of BENCH_STEPS on dma_map_benchmark, where both slots ran it.
for c in $dma_cases; do
	for st in $(jq -r '.steps // ""' "$out/meta.json"); do
		dma_rounds "$c" "${st#*/}" "${st%/*}" > "$out/paired-step.txt"
		paired "$out/paired-step.txt" "${st#*/}" "$(jq -nc --arg c "$c" --arg st "$st" '{case: $c, step: $st}')"
	done
done | jq -s . > "$out/dma-steps.json" || die $EX_TESTFAIL "cannot compute the dma steps of $out"

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
jq --slurpfile meta "$out/meta.json" --slurpfile paired "$out/paired.json" \
	--slurpfile dma_paired "$out/dma-paired.json" --slurpfile steps "$out/steps.json" \
	--slurpfile dma_steps "$out/dma-steps.json" '
	def median: sort | length as $n |
		if $n == 0 then 0 elif $n % 2 == 1 then .[($n - 1) / 2]
		else (.[$n / 2 - 1] + .[$n / 2]) / 2 end;
	def round_to($d): . * $d | round / $d;
	def nums($key): [.[] | .[$key] | select(. != null) | tonumber];
	def counted: '"$counted"';

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
		 reclaim_nslabs_min: ($vs | nums("nslabs_reclaim") | min),
		 reclaim_s_max: ($vs | nums("reclaim_s") | max),
		 not_reclaimed: ($vs | nums("reclaim_s") | map(select(. < 0)) | length),
		 transient_after_max: ($vs | nums("transient_after") | max),
		 transient_maps: ($vs | nums("transient_maps") | if length > 0 then add else null end),
		 transient_maps_load: ($vs | map(select(.transient_maps != null) |
			(.transient_maps | tonumber) - (.transient_maps_warm // "0" | tonumber)) |
			if length > 0 then add else null end),
		 swiotlb_full: ($vs | nums("swiotlb_full") | if length > 0 then add else null end)}],
	 dma_map_benchmark: [.[] | select('"$dma_ok"') |
		.kernel as $k | .run as $i | .v as $v | $v | keys[] |
		capture("^map_us_t(?<t>[0-9]+)_g(?<g>[0-9]+)$") |
		("_t" + .t + "_g" + .g) as $s |
		{kernel: $k, run: $i, threads: (.t | tonumber), granule: (.g | tonumber),
		 hiwater_start: ($v.dma_hiwater_start // null | if . == null then null else tonumber end),
		 hiwater: ($v.dma_hiwater // null | if . == null then null else tonumber end),
		 map_us: ($v["map_us" + $s] | tonumber), map_sd_us: ($v["map_sd" + $s] | tonumber),
		 unmap_us: ($v["unmap_us" + $s] | tonumber), unmap_sd_us: ($v["unmap_sd" + $s] | tonumber)}
	 ] | sort_by(.kernel, .threads, .granule, .run)} |
	# Per kernel and case, over the dma rounds: medians, the coefficient of
	# variation of map + unmap, and that in instructions (icount: 2^shift
	# ns each, from qemu_args; null without icount), with the paired
	# interval against base.
	(.meta.qemu_args | capture("shift=(?<s>[0-9]+)").s // null) as $shift |
	.dma_ops = [.dma_map_benchmark | group_by([.kernel, .threads, .granule])[] |
		. as $g | [.[] | .map_us + .unmap_us] as $tot |
		($tot | add / length) as $mean |
		(if ($tot | length) > 1 then (($tot | map((. - $mean) * (. - $mean)) | add) / (($tot | length) - 1)) | sqrt else 0 end) as $sd |
		("t\($g[0].threads)_g\($g[0].granule)") as $c |
		(first($dma_paired[0][] | select(.case == $c) | .kernels[] | select(.label == $g[0].kernel)) // null) as $pv |
		{kernel: $g[0].kernel, threads: $g[0].threads, granule: $g[0].granule, runs: ($tot | length),
		 map_us: ([.[].map_us] | median), unmap_us: ([.[].unmap_us] | median),
		 total_us: ($tot | median), cov_pct: (if $mean > 0 then 100 * $sd / $mean else 0 end | round_to(1000)),
		 instructions: (if $shift == null then null else ($tot | median) * 1000 / pow(2; $shift | tonumber) | round end),
		 bounced: (if any(.[]; .hiwater == null or .hiwater_start == null) then null
			   else all(.[]; .hiwater > .hiwater_start) end),
		 hiwater_min: ([.[].hiwater | numbers] | min),
		 vs_base: $pv}] |
	# The goals, each with its verdict (met, missed, not resolvable, not
	# tested) and the verdict it should have (expect): growing within 1 %
	# of base per workload; the control within the noise; growing back at
	# its boot size after every reclaim, and noshrink not.
	. as $r | $paired[0] as $p |
	def pct: (. - 1) * 100 | round_to(10);
	def sgn: if . > 0 then "+\(.)" else "\(.)" end;
	def ival: if .low == null then null else "\(.low | pct | sgn) % .. \(.high | pct | sgn) % (\(.coverage * 100 | round) %)" end;
	def pair($k; $w): first($p[] | select(.workload == $w) | .kernels[] | select(.label == $k)) // null;
	def rounds($w): first($p[] | select(.workload == $w) | .rounds) // 0;
	[$r.meta.workloads | split(" ")[] as $w | pair("control"; $w) |
		select(. != null) |
		{goal: "control: base booted again, within the noise, \($w)", kernel: "control",
		 value: "\(.ratio | pct | sgn) %", interval: ival, expect: "met",
		 verdict: (if .low == null then "not resolvable"
			elif .low <= 1 and .high >= 1 then "met" else "missed" end)}] as $control |
	($control | any(.verdict == "missed")) as $noisy |
	.paired = $p | .steps = $steps[0] | .dma_steps = [$dma_steps[0][] | select(.kernels != [])] |
	.goals = ($control +
		[$r.meta.workloads | split(" ")[] as $w | pair("growing"; $w) as $g |
		 select($g != null) | $g |
		 {goal: "growing within 1 % of base, \($w)", kernel: "growing",
		  value: "\(.ratio | pct | sgn) %", interval: ival, expect: "met",
		  verdict: (if .low == null then "not resolvable"
			elif $noisy then "not resolvable"
			elif .low >= 0.99 and .high <= 1.01 then "met"
			elif .high < 0.99 or .low > 1.01 then "missed"
			else "not resolvable" end),
		  why: (if .low == null then "\(rounds($w)) rounds: too few for an interval"
			elif $noisy then "the control resolved a difference: too noisy to judge"
			else null end)}] +
		[$r.memory[] | select(.kernel == "growing" or .kernel == "noshrink") | .kernel as $k |
		 [$runs[] | select(.kernel == $k and counted) | .v |
			select(([.nslabs_warm, .nslabs_after] | map(select(. != null) | tonumber) | max // 0) >
			       (.nslabs_boot | tonumber))] as $grew |
		 ($grew | map(select(.nslabs_reclaim != null and
				     (.nslabs_reclaim | tonumber) <= (.nslabs_boot | tonumber))) | length) as $back |
		 {goal: "\($k) back at its boot size after every reclaim", kernel: $k,
		  value: ("\($back) of \($grew | length) grown runs back to \(.nslabs_boot) slots" +
			(if .reclaim_nslabs_max == null then "" else ", at most \(.reclaim_nslabs_max) slots after" end)),
		  interval: null, expect: (if $k == "noshrink" then "missed" else "met" end),
		  verdict: (if ($grew | length) == 0 then "not tested"
			elif $back == ($grew | length) then "met" else "missed" end),
		  why: (if ($grew | length) == 0 then "no counted run grew the pool"
			elif $k == "noshrink" then "the control of the instrument: no shrinker, so it must miss"
			else null end)}] +
		# Against Debian 6.12 (make bench with the mainline slots): no
		# loss above 1 % (the interval'"'"'s low end at 0.99 or more), and
		# at most a quarter of what 6.12 still holds after the reclaim.
		# Where 6.12 with its default pool differs from the series with
		# its own as much, the kernels differ outside the swiotlb: the
		# verdict stands, and says so.
		[$r.meta.workloads | split(" ")[] as $w |
		 (first($steps[0][] | select(.workload == $w and .step == "default/mainline") |
			.kernels[0]) // null) as $dm |
		 first($steps[0][] | select(.workload == $w and .step == "growing/mainlinegrow") |
			.kernels[0]) // null | select(. != null) |
		 {goal: "growing loses at most 1 % against 6.12 growing, \($w)", kernel: "growing",
		  value: "\(.ratio | pct | sgn) %", interval: ival, expect: "met",
		  verdict: (if .low == null or $noisy then "not resolvable"
			elif .low >= 0.99 then "met" elif .high < 0.99 then "missed"
			else "not resolvable" end),
		  why: (if .low == null then "\(rounds($w)) rounds: too few for an interval"
			elif $noisy then "the control resolved a difference: too noisy to judge"
			elif $dm != null and $dm.low != null and ($dm.low > 1 or $dm.high < 1) then
				"6.12 with its default pool differs too, default against mainline \($dm.ratio | pct | sgn) %: the kernels differ outside the swiotlb, whose own cost the per-operation table compares"
			else null end)}] +
		[first($r.memory[] | select(.kernel == "growing")) as $g |
		 first($r.memory[] | select(.kernel == "mainlinegrow")) // null | select(. != null) |
		 {goal: "growing holds at most 1/4 of 6.12 growing after the reclaim", kernel: "growing",
		  value: (if $g.reclaim_nslabs_max == null or .reclaim_nslabs_min == null then "n/a"
			else "at most \($g.reclaim_nslabs_max * 2 / 1024) MiB against at least \(.reclaim_nslabs_min * 2 / 1024) MiB" end),
		  interval: null, expect: "met",
		  verdict: (if $g.reclaim_nslabs_max == null or .reclaim_nslabs_min == null then "not tested"
			elif 4 * $g.reclaim_nslabs_max <= .reclaim_nslabs_min then "met" else "missed" end),
		  why: (if $g.reclaim_nslabs_max == null or .reclaim_nslabs_min == null then "a kernel never grew, so never reclaimed" else null end)}])
' "$out/runs.json" > "$out/bench.json.new" ||
	die $EX_TESTFAIL "cannot compute the statistics of $out"
mv "$out/bench.json.new" "$out/bench.json"

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
	# steprow(FIRST; D): a step'"'"'s row of a table, FIRST in its first
	# column, the percentages with D decimals.
	def steprow($first; $d): . as $q | ($q.kernels[0] // {}) as $k |
		"| \($first) | \($q.step | sub("/"; " against ")) | \($q.rounds) | \(if $k.ratio == null then "n/a" else "\(($k.ratio - 1) * 100 | fixed($d)) %" end) | \(if $k.low == null then "n/a (fewer than 5 rounds)" else "\(($k.low - 1) * 100 | fixed($d)) % .. \(($k.high - 1) * 100 | fixed($d)) % (\($k.coverage * 100 | round) %)" end) | \(if $k.low == null then "no" elif $k.low > 1 or $k.high < 1 then "**yes**" else "no" end) |";
	"# Dynamic SWIOTLB benchmark: base vs. patched (\($r.meta.series) series)",
	"",
	"\($r.meta.runs) runs of \($r.meta.runtime) s per kernel and workload (warm-up discarded: \(if $r.meta.warmup == "1" then "yes" else "no" end)), a fresh VM per run, interleaved; \($r.meta.qemu), \($r.meta.qemu_args), disk \($r.meta.disk // "virtio"), \($r.meta.mem) MiB; \($r.meta.date).",
	"Kernels: base = \($r.meta.base_label), \($r.meta.cmdline_base); default = \($r.meta.default_label // "patched" | if . == "" then "patched" else . end), \($r.meta.cmdline_default); growing = \($r.meta.growing_label // "patched" | if . == "" then "patched" else . end), \($r.meta.cmdline_growing)\(if $all | index("control") then "; control = base booted again" else "" end)\([($r.meta.extra_slots // "") | split(" ")[] | select(. != "") as $k | "; \($k) = \($r.meta[$k + "_label"] // $k), \($r.meta["cmdline_" + $k] // "")"] | join("")).",
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
	((["base", "control", "sized", "growing", "noshrink"] + (($r.meta.extra_slots // "") | split(" ") | map(select(. != ""))))[] as $k |
		select($all | index($k)) | $r.memory[] | select(.kernel == $k) |
		"| \($k) (\(if $k == "sized" or $k == "base" then $r.meta.base_label
			elif $k == "control" then $r.meta.control_label
			elif $k == "noshrink" then $r.meta.noshrink_label
			elif $k == "growing" then $r.meta.growing_label
			else $r.meta[$k + "_label"] // $k end)) | \($r.meta["cmdline_" + $k] // "") | \(.nslabs_boot | mib) MiB | \(.peak_nslabs | mib) MiB | \(.nslabs_after_max | mib) MiB | \(if .reclaim_nslabs_max == null then "n/a" else (.reclaim_nslabs_max | mib) + " MiB" + ([if .reclaim_s_max > 0 then "\(.reclaim_s_max) s" else empty end,
			  if .not_reclaimed > 0 then "\(.not_reclaimed) runs kept it" else empty end] |
			 if length > 0 then " (" + join(", ") + ")" else "" end) end) | \([$ws[] as $w | fio($k; $w) | if . == null or .runs == 0 then "n/a" else "\(.median_mib_s | fixed(2)) (\(if $k == "base" then "base" else diff($k; $w) end))" end] | join(" | ")) | \(.swiotlb_full // "n/a") | \(if .transient_maps == null then "n/a" else "\(.transient_maps) / \(.transient_maps_load)" end) |"),
	"",
	(if $r.meta.sized_nslabs == null then empty
	 elif $r.meta.sized_nslabs == "" then "No sized kernel: no growing run reported its swiotlb size.\n"
	 else "sized: \($r.meta.sized_nslabs | tonumber | mib) MiB, what the measured loads of the first round'"'"'s growing runs had in use at once (their largest io_tlb_used_hiwater, at least the boot size), rounded up to a power of two as the kernel rounds it\(if ($r.meta.sized_rule4_nslabs // "") != "" then "; their pools reached \($r.meta.sized_rule4_nslabs | tonumber | mib) MiB, which the warm-up'"'"'s 4x rule sets" else "" end); \(first($r.memory[] | select(.kernel == "growing") | .hiwater_max) as $h | if $h != null and $h > ($r.meta.sized_nslabs | tonumber) then "later growing loads had \($h | mib) MiB in use, more than sized holds" else "no later growing load had more in use" end).\n" end),
	"## Paired against base",
	"",
	"Each round'"'"'s bandwidth divided by base'"'"'s in the same round; the median",
	"ratio and its sign-test interval (coverage in brackets; 5 rounds give 94 %,",
	"6 or more at least 95 %). Resolved: the interval excludes 0. Differences",
	"that it does not resolve are noise at this number of rounds.",
	"",
	"| workload | kernel | rounds | median vs base | interval | resolved |",
	"|---|---|---:|---:|---|---|",
	($r.paired[] as $q | $q.kernels[] |
		"| \($q.workload) | \(.label) | \($q.rounds) | \(if .ratio == null then "n/a" else "\((.ratio - 1) * 100 | fixed(1)) %" end) | \(if .low == null then "n/a (fewer than 5 rounds)" else "\((.low - 1) * 100 | fixed(1)) % .. \((.high - 1) * 100 | fixed(1)) % (\(.coverage * 100 | round) %)" end) | \(if .low == null then "no" elif .low > 1 or .high < 1 then "**yes**" else "no" end) |"),
	"",
	(if ($r.steps // []) | length == 0 then empty else
	"## Steps between slots",
	"",
	"A against B, round by round (B is the reference), for the steps bench.sh was",
	"asked for (BENCH_STEPS): the median ratio and its sign-test interval.",
	"",
	"| workload | step | rounds | median | interval | resolved |",
	"|---|---|---:|---:|---|---|",
	($r.steps[] | steprow(.workload; 1)),
	"" end),
	"## Goals",
	"",
	"Verdicts from the intervals above (bench-report.sh says how); expected: the",
	"verdict a sound instrument gives (noshrink, without a shrinker, must miss",
	"the reclaim goal).",
	"",
	"| goal | measured | interval | verdict | expected |",
	"|---|---|---|---|---|",
	($r.goals[] | "| \(.goal) | \(.value) | \(.interval // "") | \(if .verdict == .expect then .verdict else "**\(.verdict)**" end)\(if .why == null then "" else " (\(.why))" end) | \(.expect) |"),
	"",
	"## Per-operation cost: dma_map_benchmark (edu device, \($r.meta.dma_seconds) s per case)",
	"",
	"One VM per kernel and round (\($r.meta.dma_runs // "1") rounds), after the same warm-up as the fio runs.",
	"Map and unmap: the median over the rounds of the tool'"'"'s average, in",
	"microseconds; under icount the guest clock counts instructions, so map + unmap",
	"is also given as instructions. CoV: of map + unmap over the rounds. Against",
	"base: the paired median ratio of map + unmap and its sign-test interval.",
	"Bounced: io_tlb_used_hiwater, reset before the benchmark, higher after it in",
	"every round (the fewest slots in use at once; n/a: the kernel has no mark).",
	"",
	"| kernel | threads | pages | rounds | map us | unmap us | map+unmap, instructions | CoV | vs base | interval | resolved | bounced |",
	"|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|",
	($all[] as $k | $r.dma_ops[] | select(.kernel == $k) |
		"| \($k) | \(.threads) | \(.granule) | \(.runs) | \(.map_us | fixed(1)) | \(.unmap_us | fixed(1)) | \(.instructions // "n/a") | \(.cov_pct | fixed(2)) % | \(if $k == "base" then "base" elif .vs_base == null then "n/a" else "\((.vs_base.ratio - 1) * 100 | fixed(2)) %" end) | \(if .vs_base == null or .vs_base.low == null then "n/a" else "\((.vs_base.low - 1) * 100 | fixed(2)) % .. \((.vs_base.high - 1) * 100 | fixed(2)) % (\(.vs_base.coverage * 100 | round) %)" end) | \(if .vs_base == null or .vs_base.low == null then "no" elif .vs_base.low > 1 or .vs_base.high < 1 then "**yes**" else "no" end) | \(if .bounced == null then "n/a" elif .bounced then "yes, \(.hiwater_min) slots" else "**no**" end) |"),
	(if ($r.dma_steps // []) | length == 0 then empty else
	"",
	"The steps of BENCH_STEPS on map + unmap, A against B, round by round:",
	"",
	"| case | step | rounds | median | interval | resolved |",
	"|---|---|---:|---:|---|---|",
	($r.dma_steps[] | steprow("\(.case | sub("^t"; "") | sub("_g"; " threads, ")) pages"; 2)) end)
' "$out/bench.json" > "$out/bench.md.new" ||
	die $EX_TESTFAIL "cannot write $out/bench.md"
mv "$out/bench.md.new" "$out/bench.md"

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
if [ -z "$plot" ]; then
	# WORKLOADS= (dma_map_benchmark alone) has nothing to chart.
	[ -z "$(jq -r .meta.workloads "$out/bench.json")" ] || die $EX_TESTFAIL "no fio results for the chart"
	info "no fio workloads: no chart"
	exit 0
fi
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
