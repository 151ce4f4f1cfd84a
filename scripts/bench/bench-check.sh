#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# `make bench-smoke`: check that a short scripts/bench/bench.sh run produced a
# well-formed report with numbers in it.  It asserts the shape and the
# facts that do not depend on timing, never a bandwidth target:
#   - every VM passed (OUTDIR/failed.txt is empty);
#   - bench.json parses (jq), and has every workload for every kernel, each
#     with the runs asked for, none failed, and a median above 0;
#   - bench.md has the cover letter's table, one row per workload, with a
#     number in every diff cell;
#   - the pools: base, control and default boot with 32768 slots (64 MiB),
#     growing and noshrink with 512 (1 MiB), sized with its size; none is
#     smaller after a run than at boot; growing's MemTotal is at least
#     60 MiB above base's (the footprint a user of the series saves);
#   - growth: every counted run of the growing kernel with a warm-up spike
#     ran on a swiotlb of at least four times its boot size (grown in the
#     warm-up or by the load), so the growing column measures a swiotlb
#     that grew;
#   - bouncing: the patched kernels' io_tlb_used_hiwater is above 0 after
#     the fio runs, and rose during dma_map_benchmark in every round (full
#     series only: base and v7 have no such counter; the qemu-base-small
#     scenario shows that base bounces the same disk);
#   - sized (when bench.sh ran it): what the sized kernel reported at
#     boot is a whole number of 128-slot segments, no smaller than
#     growing's boot size nor than what the measured loads of the first
#     round's growing runs had in use at once (their hiwater);
#   - the table of memory against bandwidth has a row per kernel with a
#     bandwidth in every workload's cell, and each kernel's runs counted
#     their "swiotlb buffer is full" lines;
#   - goals: every goal has a verdict, none is "not tested", and none
#     contradicts what it should read: a goal that should be met is not
#     "missed" (bandwidth, reclaim, the control), and noshrink's reclaim
#     goal, which it must miss without a shrinker, is not "met" (then the
#     instrument is broken).  "not resolvable" is a finding, not a failure;
#   - reclaim (full series): every growing run that grew was back to its
#     boot size after the reclaim (the shrinker, CONFIG_SWIOTLB_SHRINK);
#   - transient (full series): the growing runs read the count of mappings
#     served by transient pools (patch 0036);
#   - dma_map_benchmark: 4 cases for each kernel (6 above 2 vCPUs), each
#     with map and unmap above 0 us in every round;
#   - bench.png is a PNG image.
# Records one result per check (bench.smoke.*) with scripts/lib.sh.
#
# usage: scripts/bench/bench-check.sh OUTDIR
# The $names in single quotes are jq's and the inner bash's, not ours:
# shellcheck disable=SC2016
set -uo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] || die $EX_USAGE "usage: $0 OUTDIR"
out=$1
command -v jq > /dev/null || die $EX_MISSING "jq not found (apt-get install jq)"
status=0
check() { # check NAME REASON COMMAND...: record PASS if COMMAND succeeds
	local name=$1 reason=$2
	shift 2
	if "$@" > /dev/null 2>&1; then
		record PASS "bench.smoke.$name" "$reason"
	else
		record FAIL "bench.smoke.$name" "$reason"
		status=1
		return 1
	fi
}
j=$out/bench.json
# load_table ARRAY FILTER: fill the associative array ARRAY from the
# "KEY<tab>VALUE" lines that jq's FILTER makes of bench.json, in one jq
# (each costs 35 ms here, and the harness runs this script ten times).
# table is a nameref: what it writes is the caller's array.
# shellcheck disable=SC2034
load_table() {
	local -n table=$1
	local key value
	while IFS=$'\t' read -r key value; do
		table["$key"]=$value
	done < <(jq -r "$2 | @tsv" "$j" 2> /dev/null)
}
# mem KERNEL FIELD: a field of bench.json's memory table.
declare -A memtab=()
load_table memtab '.memory[]? | .kernel as $k | to_entries[] | ["\($k).\(.key)", (.value | tostring)]'
mem() { echo "${memtab[$1.$2]-}"; }

failed=yes
[ -s "$out/failed.txt" ] && failed=$(tr '\n' ' ' < "$out/failed.txt")
check runs "every VM passed: $failed" \
	bash -c '[ -f "$1" ] && [ ! -s "$1" ]' _ "$out/failed.txt"

check json "bench.json parses, with fio, memory and dma_map_benchmark results" \
	jq -se 'length == 1 and (.[0] | [.fio, .memory, .dma_map_benchmark] |
		all(type == "array" and length > 0))' "$j" || exit "$status"

runs=$(jq -r .meta.runs "$j")
series=$(jq -r .meta.series "$j")
# The kernels bench.sh ran (meta.kernels; base, default and growing before
# it recorded them); sized only if it got a size.
sized=$(jq -r '.meta.sized_nslabs // "" | if . == "" then "none" else . end' "$j")
mapfile -t kernels < <(jq -r --arg sized "$sized" '.meta.kernels // "base default growing" |
	split(" ")[] | select(. != "sized" or $sized != "none")' "$j")
# fio rows: "runs failed median" by "KERNEL.WORKLOAD".
declare -A fiotab=()
load_table fiotab '.fio[] | ["\(.kernel).\(.workload)", "\(.runs) \(.failed) \(.median_mib_s)"]'
for w in $(jq -r .meta.workloads "$j"); do
	for k in "${kernels[@]}"; do
		read -r n f med <<< "${fiotab[$k.$w]:-0 -1 0}"
		check "fio.$k.$w" "$n runs, $f failed, median $med MiB/s" \
			awk -v n="$n" -v f="$f" -v m="$med" -v want="$runs" 'BEGIN { exit !(n == want && f == 0 && m > 0) }'
	done
	# | small | 0.47% | 0.52% | -1.5% | 0.52% | -2.2% |
	line=$(grep -E "^\| $w \| " "$out/bench.md" | head -n 1)
	check "table.$w" "cover-letter row: ${line:-missing}" \
		grep -qE "^\| $w \| [^|]+ \| [^|]+ \| (<0\.1|[-+][0-9]+\.[0-9])% \| [^|]+ \| (<0\.1|[-+][0-9]+\.[0-9])% \|$" <<< "$line"
done

if [ "$sized" != none ]; then
	# What the measured loads of the first round's growing runs had in use.
	first=$(jq '[.[] | select(.kernel == "growing" and .workload != "dma") | .run] | min' "$out/runs.json")
	need=$(jq --argjson i "$first" '[.[] | select(.kernel == "growing" and .workload != "dma" and .run == $i) |
		.v.hiwater, .v.nslabs_boot | select(. != null) | tonumber] | max' "$out/runs.json")
	check sized.size "sized booted with $(mem sized nslabs_boot) slots; the growing runs of round $first needed ${need:-nothing}" \
		jq -e --argjson need "${need:-null}" '.memory[] | select(.kernel == "sized") |
			$need != null and .nslabs_boot % 128 == 0 and .nslabs_boot >= $need' "$j"
fi
for k in "${kernels[@]}"; do
	[ "$k" = default ] && continue
	line=$(grep -E "^\| $k \(" "$out/bench.md" | head -n 1)
	check "gain.$k" "memory against bandwidth: ${line:-missing}" \
		grep -qE "^\| $k \(.* MiB( \([^)]*\))? \| ([0-9]+\.[0-9]+ \((base|<0\.1%|[-+][0-9]+\.[0-9]%)\) \| )+[0-9]+ \| (n/a|[0-9]+ / [0-9]+) \|$" <<< "$line"
done
check goals "$(jq -r '[.goals[] | "\(.goal): \(.verdict)\(if .verdict != .expect then " (expected \(.expect))" else "" end)"] | join("; ")' "$j")" \
	jq -e '(.goals | length) > 0 and all(.goals[];
		.verdict != "not tested" and
		(.expect != "met" or .verdict != "missed") and
		(.expect != "missed" or .verdict != "met"))' "$j"

if [ "$series" = full ]; then
	check reclaim.growing "growing after the reclaim: at most $(mem growing reclaim_nslabs_max) slots, $(mem growing not_reclaimed) runs not back to the boot size" \
		jq -e '.memory[] | select(.kernel == "growing") | .reclaim_nslabs_max == .nslabs_boot and .not_reclaimed == 0' "$j"
	check transient.growing "growing: $(mem growing transient_maps) mappings served by transient pools ($(mem growing transient_maps_load) in the loads)" \
		jq -e '.memory[] | select(.kernel == "growing") | .transient_maps != null and .transient_maps_load != null' "$j"
	for k in default growing; do
		h=$(jq -r --arg k "$k" '.memory[] | select(.kernel == $k) | .hiwater_max' "$j")
		check "bounced.$k" "io_tlb_used_hiwater after the runs: ${h:-missing}" \
			jq -e --arg k "$k" '.memory[] | select(.kernel == $k) | .hiwater_max > 0' "$j"
		# dma_map_benchmark's maps: the mark, reset before it, rose in
		# every round and case.
		h=$(jq -r --arg k "$k" '[.dma_ops[] | select(.kernel == $k) | .hiwater_min] | min' "$j")
		check "dma.bounced.$k" "dma_map_benchmark: io_tlb_used_hiwater at least ${h:-missing} after it, in every round" \
			jq -e --arg k "$k" '[.dma_ops[] | select(.kernel == $k)] | length > 0 and all(.bounced == true)' "$j"
	done
fi

for k in "${kernels[@]}"; do
	# Every slot boots with the size of its swiotlb=N (sized's is already
	# rounded as the kernel rounds it), or the default 64 MiB.
	want=$(jq -r --arg k "$k" '.meta["cmdline_" + $k] // "" |
		(capture("swiotlb=(?<n>[0-9]+)").n // "32768")' "$j")
	check "pool.$k" "$(mem "$k" nslabs_boot) slots at boot (want $want), $(mem "$k" nslabs_after_max) after" \
		jq -e --arg k "$k" --argjson n "$want" \
		'.memory[] | select(.kernel == $k) | .nslabs_boot == $n and .nslabs_after_max >= $n and .memtotal_kib > 0' \
		"$j"
done
if [ "$(jq -r .meta.growing_spike "$j")" != "" ]; then
	check grew.growing "$(mem growing warmup_runs) runs with a warm-up: $(mem growing grown_in_warmup) grown to 4x the boot size in it, $(mem growing grown_by_load) by the load, $(mem growing not_grown) not" \
		jq -e '.memory[] | select(.kernel == "growing") | .warmup_runs > 0 and .not_grown == 0' "$j"
fi
saved=$(jq -r '[.memory[] | select(.kernel == "growing" or .kernel == "base") | {(.kernel): .memtotal_kib}] |
	add | if .growing > 0 and .base > 0 then (.growing - .base) / 1024 | floor else "n/a" end' "$j")
check footprint "MemTotal growing - base = $saved MiB (want >= 60)" test "$saved" -ge 60

# bench-dma.sh: 1 and 2 threads, and one per vCPU above 2; 2 granules each.
cases=4
[ "$(jq -r '.meta.smp // "1"' "$j")" -gt 2 ] && cases=6
dma_runs=$(jq -r '.meta.dma_runs // "1"' "$j")
for k in base default growing; do
	n=$(jq --arg k "$k" --argjson r "$dma_runs" '[.dma_ops[] | select(.kernel == $k and
		.map_us > 0 and .unmap_us > 0 and .runs == $r)] | length' "$j")
	check "dma.$k" "$n of $cases dma_map_benchmark cases with latencies in all $dma_runs rounds" test "$n" = "$cases"
done

check chart "bench.png is a PNG image" \
	bash -c '[ "$(head -c 8 "$1" | od -An -tx1 | tr -d " \n")" = 89504e470d0a1a0a ]' _ "$out/bench.png"
exit "$status"
