#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Run one QEMU scenario and record its assertions.
#
# usage: scripts/vm/qemu-test.sh tests/scenarios/NAME.conf
#
# A scenario (see tests/scenarios/*.conf) names the kernel (base or
# patched), the kernel parameters, the guest test and its disks, the
# verdicts it accepts (EXPECT) and the checks to make on what the guest
# measured (CHECKS, each judged by tests/scenarios/checks.sh, beside the
# scenarios).  Every check is one `record` line, qemu.NAME.CHECK;
# the run itself is qemu.NAME.run.  Outputs stay in build/qemu/NAME/, with a
# summary.txt that scripts/report/compare.sh prints side by side.
#
# Environment: BZIMAGE_base, BZIMAGE_patched, INITRD (paths, set by the
# Makefile), SMP, MEM, BOOT_TIMEOUT, TEST_TIMEOUT (passed on), QEMU_OUT
# (default build/qemu).  A scenario's own SMP, TEST_TIMEOUT and
# BOOT_TIMEOUT win.
# PATCHED_AS=KIND: another kernel stands in the patched kernel's place
# (BZIMAGE_patched), a scenario of KERNEL=patched only: deb (make
# deb-boot: the packaged kernel) or mainline (make test-mainline: Debian's
# 6.12).  KIND- goes before NAME in the results and the output directory,
# the summary names KIND as the kernel, and where the scenario has
# CHECKS_KIND, those are its checks there.
set -uo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] || die $EX_USAGE "usage: $0 tests/scenarios/NAME.conf"
conf=$1
[ -f "$conf" ] || die $EX_USAGE "no scenario $conf"
as=${PATCHED_AS:-}
case "$as" in
''|deb|mainline) ;;
*) die $EX_USAGE "PATCHED_AS must be deb or mainline, not '$as'" ;;
esac
name=${as:+$as-}$(basename "$conf" .conf)
KERNEL='' CMDLINE='' TEST='' ARGS='' DISKS='' EXPECT=PASS CHECKS='' DESCRIPTION=''
# shellcheck disable=SC1090 # a scenario of tests/scenarios, named at run time
. "$conf"
if [ -n "$as" ]; then
	[ "$KERNEL" = patched ] ||
		die $EX_USAGE "$conf: PATCHED_AS=$as needs a scenario of the patched kernel, not $KERNEL"
	checks_as=CHECKS_$as
	CHECKS=${!checks_as:-$CHECKS}
fi
case "$KERNEL" in
base) bz=${BZIMAGE_base:-$(make_var BZIMAGE_base)} ;;
patched) bz=${BZIMAGE_patched:-$(make_var BZIMAGE_patched)} ;;
*) die $EX_USAGE "$conf: KERNEL must be base or patched, not '$KERNEL'" ;;
esac
initrd=${INITRD:-$(make_var INITRD)}
out=${QEMU_OUT:-$BUILD_DIR/qemu}/$name
smp=${SMP:-2}
export TEST_TIMEOUT BOOT_TIMEOUT

echo "=== qemu.$name: $DESCRIPTION${as:+ (the $as kernel in place of the patched one)}"
disk_opts=()
for d in $DISKS; do disk_opts+=(-d "$d"); done
rm -rf "$out"
"$(dirname "$0")/qemu-run.sh" -k "$bz" -i "$initrd" -t "$TEST" -a "$ARGS" \
	-c "$CMDLINE" -o "$out" -s "$smp" -m "${MEM:-1024}" "${disk_opts[@]}"
status=$?
case "$status" in
"$EX_OK") verdict=PASS ;;
"$EX_TESTFAIL") verdict=FAIL ;;
"$EX_CRASH") verdict=CRASH ;;
"$EX_TIMEOUT") verdict=TIMEOUT ;;
*)	record FAIL "qemu.$name.run" "could not run (exit status $status, see above)"
	exit "$status" ;;
esac

failed=0
check() { # check VERDICT CHECK REASON
	record "$1" "qemu.$name.$2" "$3"
	[ "$1" = PASS ] || failed=1
}
if [[ " $EXPECT " == *" $verdict "* ]]; then
	check PASS run "$verdict, as expected ($EXPECT)"
else
	check FAIL run "$verdict, expected $EXPECT: $(tail -n 1 "$out/console.log")"
fi

# The checks themselves live beside the scenarios.
# shellcheck source=tests/scenarios/checks.sh
. "$PROJECT_TOP/tests/scenarios/checks.sh"
scenario_results
for c in $CHECKS; do
	scenario_check "$c"
done

{
	echo "kernel=${as:-$KERNEL}"
	echo "cmdline=$CMDLINE"
	echo "verdict=$verdict"
	echo "buffer_full=$full"
	for k in nslabs_boot nslabs_after nslabs_max used_max hiwater fio_status fio_errors write_kib read_kib; do
		echo "$k=$(val $k)"
	done
} > "$out/summary.txt"
exit $failed
