#!/bin/bash
# Show that the KUnit cases written for the follow-up fixes fail on the
# plain v7 series (with its prerequisite) and pass on the full series.
#
# usage: scripts/test-regressions.sh
#
# Builds and boots two KUnit kernels (scripts/kunit.sh v7 and full), then
# prints one line per case with its result on each, and the verdict of
# each run (the harness's crash detector flags the allocator WARNING of
# follow-up bug 3 on v7, and CONFIG_DEBUG_ATOMIC_SLEEP's report of bug 7).  Exits EX_OK when every case passes on the full
# series and every case named in EXPECTED_V7 fails on v7 (or v7's run
# crashed before reporting it); EX_TESTFAIL otherwise.  Not part of
# `make test`: it costs two more kernel builds.
set -uo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

# case: the follow-up bug it shows on v7
declare -A EXPECTED_V7=(
	[swiotlb_test_uses_io_tlb]="bug 2: dma_uses_io_tlb is never read"
	[swiotlb_test_hopeless_no_growth]="bug 5: hopeless requests grow the swiotlb"
	[swiotlb_test_decrypt_below_limit]="bug 4: pages decrypted before the limit check"
	[swiotlb_test_decrypt_failure_reencrypts]="bug 4: failed decryption frees shared pages"
	[swiotlb_test_free_in_process_context]="bug 7: pools freed in softirq context"
	[swiotlb_test_restricted_pool]="bug 6: restricted pool setup oopses (v7's run ends there)"
	[swiotlb_test_misaligned_full_pool]="bug 1: transient buffer ends past its pool"
	[swiotlb_test_alignment]="bug 1: transient buffers end past their pools"
)

out=${BUILD:-$PROJECT_TOP/build}/regressions
mkdir -p "$out"
declare -A verdict
for s in v7 full; do
	: > "$out/$s.txt"
	RESULTS_FILE=$out/$s.txt "$PROJECT_TOP/scripts/kunit.sh" "$s" y
	verdict[$s]=$?
done

status=$EX_OK
printf '%-40s %-6s %-6s %s\n' CASE v7 full "bug shown on v7"
cases=$(sed -n 's/^[A-Z]* kunit[a-z0-9-]*: \(swiotlb_test_[a-z0-9_]*\).*/\1/p' \
	"$out/full.txt" "$out/v7.txt" | sort -u)
for c in $cases; do
	r7=$(sed -n "s/^\([A-Z]*\) kunit[a-z0-9-]*: $c\b.*/\1/p" "$out/v7.txt" | head -1)
	rf=$(sed -n "s/^\([A-Z]*\) kunit[a-z0-9-]*: $c\b.*/\1/p" "$out/full.txt" | head -1)
	printf '%-40s %-6s %-6s %s\n' "$c" "${r7:-none}" "${rf:-none}" "${EXPECTED_V7[$c]:-}"
	[ "$rf" = PASS ] || status=$EX_TESTFAIL
	if [ -n "${EXPECTED_V7[$c]:-}" ] && [ "$r7" = PASS ]; then
		echo "  expected $c to fail on v7" >&2
		status=$EX_TESTFAIL
	fi
done
grep -h '^FAIL .*: suite' "$out/v7.txt" "$out/full.txt" || true
runs=${BUILD:-$PROJECT_TOP/build}/runs
for s in v7 full; do
	dir=$runs/kunit
	[ "$s" = v7 ] && dir=$runs/kunit-v7
	echo "run $s: exit status ${verdict[$s]}: $("$PROJECT_TOP/scripts/classify-log.sh" \
		"$dir/console.log" "$dir/result.txt" 2>&1 | head -1)"
done
first_warn=$(grep -a -m1 -A2 'WARNING:' "$runs/kunit-v7/console.log" 2>/dev/null |
	sed 's/^\[[ 0-9.]*\] //' | tr '\n' ' ')
echo "first WARNING on v7 (bug 3 when it is in __alloc_pages): ${first_warn:-none}"
first_sleep=$(grep -a -m1 -A3 'BUG: sleeping function called from invalid context' \
	"$runs/kunit-v7/console.log" 2>/dev/null | sed 's/^\[[ 0-9.]*\] //' | tr '\n' ' ')
first_oops=$(grep -a -m1 -A6 'BUG: kernel NULL pointer dereference' \
	"$runs/kunit-v7/console.log" 2>/dev/null | grep -a -m1 'RIP:' | sed 's/^\[[ 0-9.]*\] //')
echo "first NULL dereference on v7 (bug 6 when it is in add_mem_pool): ${first_oops:-none}"
echo "first atomic-sleep report on v7 (bug 7 when it names swiotlb_kunit_set_memory_encrypted): ${first_sleep:-none}"
exit $status
