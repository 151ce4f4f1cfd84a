#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The outcomes side by side on crafted summaries: scripts/report/compare.sh
# on QEMU_OUT=DIR with a summary.txt per scenario written here (no
# kernel, no QEMU).  A patched run shows its high-water mark, a base run
# its largest sample marked as one, a run that ended early dashes.
# Records harness.compare.CASE.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/harness/harness-lib.sh
. "$here/harness-lib.sh"

summary() { # summary NAME KEY=VALUE...: QEMU_OUT/NAME/summary.txt
	local n=$1
	shift
	mkdir -p "$tmp/qemu/$n"
	printf '%s\n' "$@" > "$tmp/qemu/$n/summary.txt"
}
summary grow kernel=patched cmdline=swiotlb=512,force verdict=PASS buffer_full=0 \
	nslabs_boot=512 nslabs_after=2048 nslabs_max=2048 used_max=324 hiwater=917 \
	fio_status=0 fio_errors=0 write_kib=524288 read_kib=524288
summary base-small kernel=base cmdline=swiotlb=512,force verdict=PASS buffer_full=20 \
	nslabs_boot=512 nslabs_after=512 nslabs_max=512 used_max=320 hiwater=-1 \
	fio_status=0 fio_errors=0 write_kib=524288 read_kib=524288
summary livelock kernel=base cmdline=swiotlb=512,force verdict=CRASH buffer_full=0 \
	nslabs_boot=512 nslabs_after=-1 nslabs_max=-1 used_max=-1 hiwater=-1 \
	fio_status=-1 fio_errors=-1 write_kib=-1 read_kib=-1
QEMU_OUT=$tmp/qemu "$PROJECT_TOP/scripts/report/compare.sh" > "$tmp/out" 2>&1
st=$?

# compare_case NAME REGEX: the line of scenario NAME must match REGEX.
compare_case() {
	local line
	line=$(grep "^$1 " "$tmp/out")
	if [ "$st" = 0 ] && [[ $line =~ $2 ]]; then
		record PASS "harness.compare.$1" "$(echo "$line" | tr -s ' ')"
	else
		record FAIL "harness.compare.$1" "exit $st, want /$2/ in '${line:-no line}'"
		status=1
	fi
}
compare_case grow 'PASS +512 > 2048 +917 +0 times +512 / 512$'
compare_case base-small 'PASS +512 > 512 +320 \(sampled\) +20 times +512 / 512$'
compare_case livelock 'CRASH +512 > - +- +0 times +- / -$'
exit $status
