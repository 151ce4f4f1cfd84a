#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Show that each KUnit case written for a bug of the plain v7 series fails
# on v7 (with its prerequisite) and passes on the full series.
#
# usage: scripts/kunit/test-regressions.sh
#
# Builds four KUnit kernels (scripts/kunit/kunit-run.sh v7, full,
# mainline and mainline-fixes).  The full one runs the whole suite in one boot.  On v7, every case named in EXPECTED_V7
# runs in a boot of its own (kunit.filter_glob), so that one case that
# oopses cannot hide the others; then the whole suite runs once more in one
# boot, for the cases that v7 passes.  A case that needs a boot of its own
# (BOOT_ENV: kernel arguments, RAM) boots alone on both series, and its
# full column is that boot's result.  The suite then runs on Debian's
# 6.12 (kunit-run.sh mainline: mainline's dynamic SWIOTLB, none of our
# patches) and on 6.12 with our fixes for mainline's code
# (mainline-fixes, the Makefile's MAINLINE_FIXES).  A case of a fix of
# ours that 6.12 lacks skips on both ("6.12 lacks ..."), and boots once
# more alone on each with the skip turned off (swiotlb.kunit_unskip=1):
# it must fail, crash or time out on 6.12 (6.12 has the bug) and pass
# with the fixes (the fix for 6.12 mends it).
# Prints one row per case:
#   CASE  v7-alone  v7-suite  full  6.12  6.12-alone  6.12+fixes-alone  bug
# where a result is PASS, FAIL, SKIP, CRASH (the boot crashed in that
# case), TIMEOUT, or none (the case did not run).  Exits EX_OK when every case
# passes on the full series, every EXPECTED_V7 case reads FAIL, CRASH
# or TIMEOUT on v7 alone, every case that skips on 6.12 for a fix it lacks
# does so alone on 6.12 and passes alone with the fixes, and no case
# fails in the suite on 6.12 with the fixes; EX_TESTFAIL otherwise.  Not
# part of `make test`: it costs four more kernel builds (about 12 min
# from a warm ccache, and 6.12's own objects cold).
set -uo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

# case: the bug it shows on v7, and which patch fixes it
declare -A EXPECTED_V7=(
	[swiotlb_test_misaligned_full_pool]="transient buffer ends past its pool (0010)"
	[swiotlb_test_alignment]="transient buffers end past their pools (0010)"
	[swiotlb_test_uses_io_tlb]="dma_uses_io_tlb is never read (0011)"
	[swiotlb_test_decrypt_below_limit]="pages decrypted before the limit check (0013)"
	[swiotlb_test_decrypt_failure_reencrypts]="failed decryption frees shared pages (0013)"
	[swiotlb_test_hopeless_no_growth]="hopeless requests grow the swiotlb (0014)"
	[swiotlb_test_restricted_pool]="restricted pool setup oopses (0015)"
	[swiotlb_test_free_in_process_context]="pools freed in softirq context (0016)"
	[swiotlb_test_limit_not_growable]="Xen dom0: 32-bit devices fail dma_set_mask() (0021)"
	[swiotlb_test_exit_forgets_pool]="IOMMU machines: swiotlb_exit() leaves the pool listed (0022)"
	[swiotlb_test_unencrypted_grow]="Hyper-V isolation VM: grown pool has no CPU address (0023)"
	[swiotlb_test_unencrypted_transient]="Hyper-V isolation VM: transient pool has no CPU address (0023)"
	[swiotlb_test_default_pool_areas]="a halved default pool keeps too many areas (0024)"
	[swiotlb_test_partial_sync]="partial sync in a later slot copies nothing (0025)"
	[swiotlb_test_alloc_order_aligned]="coherent buffers only page-aligned (0026)"
	[swiotlb_test_alloc_unaligned_pool]="pages from before an unaligned pool (0027)"
	[swiotlb_test_pool_areas_segment]="a grown pool's areas smaller than a segment (0044)"
)

# case: what its boot needs beyond the default (VAR=VALUE ... for
# scripts/kunit/kunit-run.sh). Such a case also boots alone on the full series, and
# that boot gives its full result: the whole suite boots the default way.
declare -A BOOT_ENV=(
	# 2 GiB cannot hold 2 GiB of swiotlb: the pool is halved at boot, below
	# one segment for each of its 8192 areas.
	[swiotlb_test_default_pool_areas]="KUNIT_MEM=2048 KUNIT_CMDLINE=swiotlb=1048576,8192,force"
)

build=$BUILD_DIR
out=$build/regressions
runs=$build/runs
rm -rf "$out"
mkdir -p "$out"

# result FILE CASE: PASS, FAIL, SKIP or CRASH as FILE records CASE, or none.
result() {
	local line
	line=$(grep -E "^[A-Z]+ [a-z0-9_-]+\.$2(:|\$)" "$1" | head -1)
	case "$line" in
	'') echo none ;;
	*crashed*) echo CRASH ;;
	*) echo "${line%% *}" ;;
	esac
}

RESULTS_FILE=$out/full.txt "$PROJECT_TOP/scripts/kunit/kunit-run.sh" full y
full_status=$?
# The whole suite on v7 also builds the v7 kernel for the single boots.
RESULTS_FILE=$out/v7.txt "$PROJECT_TOP/scripts/kunit/kunit-run.sh" v7 y
v7_status=$?
# kunit-run.sh exits with EX_BUILD, and no other status, when the kernel
# did not build; a crash of the v7 suite is expected.
[ "$v7_status" != "$EX_BUILD" ] ||
	die "$v7_status" "the v7 KUnit kernel did not build (status $v7_status)"
RESULTS_FILE=$out/mainline.txt "$PROJECT_TOP/scripts/kunit/kunit-run.sh" mainline y
mainline_status=$?
RESULTS_FILE=$out/mainline-fixes.txt "$PROJECT_TOP/scripts/kunit/kunit-run.sh" mainline-fixes y
fixes_status=$?

# alone SERIES CASE [VAR=VALUE...]: boot the SERIES KUnit kernel for CASE
# alone, with its BOOT_ENV and the VAR=VALUEs, print its result.
alone() {
	local series=$1 c=$2 st r
	local -a env=()
	[ -n "${BOOT_ENV[$c]:-}" ] && read -ra env <<< "${BOOT_ENV[$c]}"
	env+=("${@:3}")
	: > "$out/$series-$c.txt"
	env RESULTS_FILE="$out/$series-$c.txt" KUNIT_BOOT_ONLY=1 \
		KUNIT_RUN="kunit-$series-$c" KUNIT_FILTER="swiotlb_dynamic*.$c" \
		"${env[@]}" "$PROJECT_TOP/scripts/kunit/kunit-run.sh" "$series" y \
		> "$out/$series-$c.log" 2>&1
	st=$?
	r=$(result "$out/$series-$c.txt" "$c")
	[ "$st" = "$EX_TIMEOUT" ] && [ "$r" != PASS ] && r=TIMEOUT
	[ "$st" = "$EX_CRASH" ] && [ "$r" != PASS ] && r=CRASH
	echo "$r"
}

declare -A alone=() full_alone=()
for c in "${!EXPECTED_V7[@]}"; do
	alone[$c]=$(alone v7 "$c")
done
for c in "${!BOOT_ENV[@]}"; do
	full_alone[$c]=$(alone full "$c")
done
# The cases that skip on 6.12 for a fix of ours that it lacks, each alone
# with the skip turned off: does 6.12 have the bug, and do our fixes for
# 6.12 mend it?
declare -A mainline_alone=() fixes_alone=()
while read -r c; do
	mainline_alone[$c]=$(alone mainline "$c" KUNIT_CMDLINE=swiotlb.kunit_unskip=1 < /dev/null)
	fixes_alone[$c]=$(alone mainline-fixes "$c" KUNIT_CMDLINE=swiotlb.kunit_unskip=1 < /dev/null)
done < <(sed -n 's/^SKIP [a-z0-9_-]*\.\(swiotlb_test_[a-z0-9_]*\): 6\.12 lacks .*/\1/p' "$out/mainline.txt")

status=$EX_OK
printf '%-42s %-8s %-8s %-6s %-6s %-10s %-16s %s\n' CASE v7-alone v7-suite full 6.12 6.12-alone 6.12+fixes-alone "bug shown on v7 (fixed by)"
cases=$({ printf '%s\n' "${!EXPECTED_V7[@]}"
	sed -n 's/^[A-Z]* [a-z0-9_-]*\.\(swiotlb_test_[a-z0-9_]*\).*/\1/p' \
		"$out/full.txt" "$out/v7.txt" "$out/mainline.txt"; } | sort -u)
for c in $cases; do
	rf=${full_alone[$c]:-$(result "$out/full.txt" "$c")}
	r7=$(result "$out/v7.txt" "$c")
	printf '%-42s %-8s %-8s %-6s %-6s %-10s %-16s %s\n' "$c" "${alone[$c]:--}" "$r7" "$rf" \
		"$(result "$out/mainline.txt" "$c")" "${mainline_alone[$c]:--}" "${fixes_alone[$c]:--}" \
		"${EXPECTED_V7[$c]:-}"
	if [ "$rf" != PASS ]; then
		echo "  $c does not pass on the full series" >&2
		status=$EX_TESTFAIL
	fi
	if [ -n "${EXPECTED_V7[$c]:-}" ]; then
		case "${alone[$c]}" in
		FAIL|CRASH|TIMEOUT) ;;
		*)
			echo "  expected $c to fail on v7, alone it reads ${alone[$c]}" >&2
			status=$EX_TESTFAIL
			;;
		esac
	fi
done
for c in "${!mainline_alone[@]}"; do
	case "${mainline_alone[$c]}" in
	FAIL|CRASH|TIMEOUT) ;;
	*)
		echo "  $c skips on 6.12 for a fix it lacks, yet alone it reads ${mainline_alone[$c]} there" >&2
		status=$EX_TESTFAIL
		;;
	esac
	if [ "${fixes_alone[$c]}" != PASS ]; then
		echo "  $c reads ${fixes_alone[$c]} on 6.12 with the fixes of $(make_var MAINLINE_FIXES)" >&2
		status=$EX_TESTFAIL
	fi
done
if [ ! -s "$out/mainline-fixes.txt" ] || grep -q '^FAIL ' "$out/mainline-fixes.txt"; then
	echo "  the suite on 6.12 with the fixes: a case failed, or none ran (exit status $fixes_status)" >&2
	status=$EX_TESTFAIL
fi
grep -h '^FAIL [a-z0-9_-]*\.suite' "$out/v7.txt" "$out/full.txt" "$out/mainline.txt" "$out/mainline-fixes.txt" || true
echo "run full: exit status $full_status; run v7 (whole suite): exit status $v7_status; run 6.12: exit status $mainline_status; run 6.12 with the fixes: exit status $fixes_status"
for c in "${!EXPECTED_V7[@]}"; do
	[ "${alone[$c]}" = CRASH ] || continue
	oops=$(grep -a -m1 -E 'BUG:|Oops|WARNING:|RIP:' "$runs/kunit-v7-$c/console.log" 2>/dev/null |
		sed 's/^\[[ 0-9.]*\] //')
	echo "v7, $c alone: ${oops:-no report line}"
done
echo "logs: $out, $runs/kunit-v7-*"
exit $status
