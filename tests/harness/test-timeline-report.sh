#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The timeline's report on crafted samples: scripts/bench/timeline-report.sh
# on an OUTDIR written here (timeline.csv, raw/*/result.txt; no kernel, no
# QEMU).  A sound timeline passes; a kernel without the shrinker that
# meets the trickle goal, and a spike that did not grow the swiotlb, must
# fail the report; the full series missing the goal is a finding, in the
# table, with exit 0.  Records harness.timeline-report.CASE.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/harness/harness-lib.sh
. "$here/harness-lib.sh"

# samples KERNEL PEAK AFTER: a timeline of KERNEL that boots with 512
# slots, grows to PEAK in the spike and holds AFTER from the fifth second
# of the pressure phase on.
samples() {
	awk -v k="$1" -v peak="$2" -v after="$3" 'BEGIN {
		n = split("boot 1 spike 5 idle 10 trickle 10 pressure 20 spike2 8", p, " ")
		for (i = 1; i < n; i += 2)
			for (j = 0; j < p[i + 1]; j++) {
				nslabs = p[i] == "boot" ? 512 : peak
				if (p[i] == "pressure" && j >= 5) nslabs = after
				if (p[i] == "spike2") nslabs = peak
				printf "%s,%d,%s,%d,0,0,%.2f,0.00,800.0\n", k, t++, p[i], nslabs, nslabs / 512
			}
	}'
}

# timeline_case NAME WANT FULL_PEAK FULL_AFTER NOSHRINK_PEAK NOSHRINK_AFTER:
# WANT is the report's exit status and the verdict of full, "STATUS VERDICT".
timeline_case() {
	local name=$1 want=$2 d=$tmp/$1 got verdict
	mkdir -p "$d/raw/full" "$d/raw/noshrink"
	echo "kernel,seconds,phase,nslabs,used,transient,held_mib,used_mib,memavailable_mib" > "$d/timeline.csv"
	samples full "$3" "$4" >> "$d/timeline.csv"
	samples noshrink "$5" "$6" >> "$d/timeline.csv"
	printf 'pools_grown=2\npools_freed=2\n' > "$d/raw/full/result.txt"
	printf 'pools_grown=2\npools_freed=-1\n' > "$d/raw/noshrink/result.txt"
	printf 'smp=2\ndate=2026-12-06\nversion=test\n' > "$d/meta.txt"
	RESULTS_FILE=$d.results "$PROJECT_TOP/scripts/bench/timeline-report.sh" "$d" > "$d.out" 2>&1
	got=$?
	verdict=$(awk '$1 == "full" { print $2 }' "$d/goals.txt" 2> /dev/null)
	expect_report "harness.timeline-report.$name" "$want" "$got ${verdict:-none}" "$d.out"
}

timeline_case sound "0 met" 2048 512 2048 2048
timeline_case full-keeps-its-pools "0 missed" 2048 2048 2048 2048
timeline_case noshrink-frees "$EX_TESTFAIL met" 2048 512 2048 512
timeline_case spike-did-not-grow "$EX_TESTFAIL not_tested" 1024 512 1024 1024
exit $status
