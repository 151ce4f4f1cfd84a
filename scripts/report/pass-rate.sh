#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# How often a test passes: one command run N times, its outcomes counted.
# For the checks whose timing or precondition depends on chance: the
# shrinker's scenario, the timeline, the KUnit shrinker cases.
#
# usage: scripts/report/pass-rate.sh OUTDIR N NAME COMMAND [ARG...]
#
# Run i (1..N) runs COMMAND with RESULTS_FILE=OUTDIR/NAME/i.txt, its
# output in OUTDIR/NAME/i.log.  Its outcome is its exit status, by the
# name scripts/lib.sh gives it (pass, testfail, crash, timeout, ...), and
# every PASS or FAIL line it records counts for its check.  Writes
# OUTDIR/NAME.md (the outcomes of the runs, and for each check how many
# runs passed it) and prints it.
# Exit status: EX_OK when every run passed, EX_TESTFAIL when one did not,
# EX_USAGE.
set -uo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -ge 4 ] || die $EX_USAGE "usage: $0 OUTDIR N NAME COMMAND [ARG...]"
out=$1 n=$2 name=$3
shift 3
[[ $n =~ ^[1-9][0-9]*$ ]] || die $EX_USAGE "N must be a number of runs, not '$n'"
[[ $name =~ ^[A-Za-z0-9._-]+$ ]] || die $EX_USAGE "NAME must be a plain word, not '$name'"
# The names of scripts/lib.sh's exit statuses (EX_TESTFAIL: testfail).
outcome() {
	local v
	[ "$1" -eq 0 ] && { echo pass; return; }
	for v in $(compgen -v EX_); do
		[ "${!v}" = "$1" ] && { v=${v#EX_}; echo "${v,,}"; return; }
	done
	echo "status $1"
}

dir=$out/$name
rm -rf "$dir" "$out/$name.md"
mkdir -p "$dir"
: > "$dir/outcomes.txt"
for ((i = 1; i <= n; i++)); do
	start=$(date +%s)
	RESULTS_FILE=$dir/$i.txt "$@" > "$dir/$i.log" 2>&1
	st=$?
	echo "$i $(outcome "$st") $(($(date +%s) - start))" | tee -a "$dir/outcomes.txt" >&2
done

passed=$(awk '$2 == "pass"' "$dir/outcomes.txt" | wc -l)
{
	echo "# $name: $passed of $n runs passed"
	echo
	echo "Command: \`${*#"$PROJECT_TOP"/}\`, $n runs one after another, $(date -u +%F)."
	echo
	echo "| outcome | runs | run numbers |"
	echo "|---|---:|---|"
	awk '{ k = $2; for (i = 3; i < NF; i++) k = k " " $i; c[k]++; r[k] = r[k] (r[k] ? ", " : "") $1 }
		END { for (k in c) print "| " k " | " c[k] " | " r[k] " |" }' "$dir/outcomes.txt" | sort
	echo
	echo "Seconds per run: $(awk '{ print $NF }' "$dir/outcomes.txt" | sort -n |
		awk '{ v[NR] = $1 } END { print v[1] " to " v[NR] ", median " v[int((NR + 1) / 2)] }')."
	echo
	echo "| check | passed | failed | runs that failed it |"
	echo "|---|---:|---:|---|"
	for ((i = 1; i <= n; i++)); do
		[ -f "$dir/$i.txt" ] && sed -n "s/^\(PASS\|FAIL\) \([^:]*\).*/$i \1 \2/p" "$dir/$i.txt"
	done | awk '{ k = $3; if ($2 == "PASS") p[k]++; else { f[k]++; r[k] = r[k] (r[k] ? ", " : "") $1 } seen[k] = 1 }
		END { for (k in seen) print "| " k " | " p[k] + 0 " | " f[k] + 0 " | " r[k] " |" }' | sort
} > "$out/$name.md"
cat "$out/$name.md"
[ "$passed" -eq "$n" ] || exit $EX_TESTFAIL
