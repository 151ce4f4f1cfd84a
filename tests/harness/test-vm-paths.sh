#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The runner's outcomes on a real guest (the base kernel, no swiotlb load):
# a clean pass, a test that fails, a guest panic, a guest hang, a boot that
# does not finish in time.  Each must end with its own exit status.
# About a minute under TCG.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
. "$here/../../scripts/lib.sh"
bz=${BZIMAGE_base:-$(make_var BZIMAGE_base)}
initrd=${INITRD:-$(make_var INITRD)}
out=${QEMU_OUT:-$BUILD_DIR/qemu}/harness
status=0

# vm NAME STATUS WORDS [ENV=VALUE...] -- QEMU-RUN-OPTIONS...: the run must
# exit with STATUS and its verdict line must contain WORDS.
vm() {
	local name=$1 want=$2 words=$3 envs=() got verdict
	shift 3
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	env "${envs[@]}" LAST_LINES=5 "$PROJECT_TOP/scripts/vm/qemu-run.sh" -k "$bz" -i "$initrd" \
		-s 1 -o "$out/$name" "$@" > "$out/$name.out" 2>&1
	got=$?
	verdict=$(grep -E '^(PASS|FAIL|CRASH|TIMEOUT):' "$out/$name.out" | tail -n 1)
	if [ "$got" = "$want" ] && [[ "$verdict" == *"$words"* ]]; then
		record PASS "harness.vm.$name" "status $got: $verdict"
	else
		record FAIL "harness.vm.$name" "want status $want and '$words', got $got: ${verdict:-$(tail -n 1 "$out/$name.out")}"
		status=1
	fi
}
mkdir -p "$out"
vm pass $EX_OK "PASS" -- -t swiotlb-info -c swiotlb=512,force
vm test-failure $EX_TESTFAIL "exited with status 2" -- -t no-such-test
vm guest-panic $EX_CRASH "Kernel panic" -- -t swiotlb-info -c rdinit=/bin/false
vm guest-hang $EX_TIMEOUT "test did not finish" TEST_TIMEOUT=15 -- -t hang
vm boot-timeout $EX_TIMEOUT "did not boot" BOOT_TIMEOUT=1 -- -t swiotlb-info
exit $status
