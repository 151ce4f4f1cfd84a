#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make bench-pools: what a lookup by address, and a map and unmap, cost
# against the number of pools, before and after the "# Scale" patches of
# the series, and on Debian's 6.12, in one run.
#
# usage: scripts/bench/bench-pools.sh OUTDIR
#
# Boots the KUnit kernel of SERIES=noscale (every patch above "# Scale"),
# of the full series and of Debian's 6.12 (kunit-run.sh mainline: none of
# our patches), one after the other, with only the cases
# swiotlb_test_bench_* (tests/kunit/swiotlb_kunit_bench.c, and bench_hint
# in swiotlb_kunit_hint.c), under "-icount shift=2,sleep=off" on one
# vCPU, where the guest clock counts instructions (4 ns each).
# swiotlb_test_bench_pools holds allocators of 1, 16, 64 and 256 pools,
# every pool full but the one the slot search reaches last, and measures
# each pool count in turn, in 10 rounds: ps per swiotlb_find_pool() of an
# address in the default pool, the newest and the oldest dynamic pool,
# and for a device that never bounced; ps per map and unmap of 2 KiB with
# the search hint at the room (patch 0031) and with a stale hint (its
# worst case: a full pool first, then the whole walk).  It also counts
# the steps of each walk through the pool list, which do not depend on
# timing, and asserts them.  swiotlb_test_bench_grow prints how many
# pools the grow worker adds to take a private allocator to 256 MiB, and
# the largest.  6.12 has no search hint (its two map+unmap lines measure
# the same walk); its lines are the reference of the goal "map+unmap
# cheaper on the full series than on 6.12 at 64 pools or more".
#
# Writes OUTDIR/pools.json (every bench: line, with its series: noscale,
# full or mainline), then scripts/bench/pools-report.sh judges it and
# writes the tables.
# Exit status: EX_OK; the KUnit run's status (a failed case: a lookup
# found the wrong pool, a map failed, or a walk took other steps than the
# case expects); or pools-report.sh's.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] || die $EX_USAGE "usage: $0 OUTDIR"
out=$1
mkdir -p "$out"
need_tools "apt-get install jq" jq
runs=$BUILD_DIR/runs
rm -f "$out"/pools.json "$out"/kunit-results.txt

for series in noscale full mainline; do
	info "the KUnit benchmark on SERIES=$series, under icount"
	KUNIT_RUN=bench-pools-$series KUNIT_ICOUNT=1 \
	KUNIT_FILTER='swiotlb_dynamic.swiotlb_test_bench_*' \
	RESULTS_FILE=$out/kunit-results.txt \
		"$PROJECT_TOP/scripts/kunit/kunit-run.sh" "$series" y >&2 ||
		die $? "the benchmark case failed on SERIES=$series (see $runs/bench-pools-$series/console.log)"
	tr -d '\r' < "$runs/bench-pools-$series/console.log" |
		grep -ao 'bench: .*' |
		jq -Rn --arg series "$series" '[inputs |
			[scan("([a-z_]+) ([0-9]+)") | {(.[0]): (.[1] | tonumber)}] |
			add + {series: $series}]'
done | jq -s 'add' > "$out/pools.json.tmp"
mv "$out/pools.json.tmp" "$out/pools.json"

exec "$PROJECT_TOP/scripts/bench/pools-report.sh" "$out"
