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
# A scenario with ARCH=arm64 (make test-arm64) boots the arm64 kernel of
# its KERNEL (IMAGE_arm64_base or IMAGE_arm64_patched) with the arm64
# initramfs (INITRD_arm64) on QEMU's virt machine (qemu-run.sh
# QEMU_ARCH=arm64), and where the scenario has POOL_KIB with the device
# tree of scripts/vm/restricted-dtb.sh: a restricted DMA pool of that
# size for the first virtio-mmio disk.
#
# Environment: BZIMAGE_base, BZIMAGE_patched, INITRD (paths, set by the
# Makefile; for arm64 IMAGE_arm64_base, IMAGE_arm64_patched,
# INITRD_arm64), SMP, MEM, BOOT_TIMEOUT, TEST_TIMEOUT (passed on), QEMU_OUT
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
ARCH=x86_64 POOL_KIB=''
# shellcheck disable=SC1090 # a scenario of tests/scenarios, named at run time
. "$conf"
if [ -n "$as" ]; then
	[ "$KERNEL" = patched ] ||
		die $EX_USAGE "$conf: PATCHED_AS=$as needs a scenario of the patched kernel, not $KERNEL"
	checks_as=CHECKS_$as
	CHECKS=${!checks_as:-$CHECKS}
fi
case "$KERNEL" in base|patched) ;;
*) die $EX_USAGE "$conf: KERNEL must be base or patched, not '$KERNEL'" ;;
esac
case "$ARCH" in
x86_64)
	image=BZIMAGE_$KERNEL initrd_var=INITRD
	[ -z "$POOL_KIB" ] || die $EX_USAGE "$conf: POOL_KIB is for ARCH=arm64 (a device tree)"
	;;
arm64)
	image=IMAGE_arm64_$KERNEL initrd_var=INITRD_arm64
	[[ "$POOL_KIB" =~ ^([1-9][0-9]*)?$ ]] ||
		die $EX_USAGE "$conf: POOL_KIB is the restricted pool's size in KiB, not '$POOL_KIB'"
	[ -z "$as" ] || die $EX_USAGE "$conf: PATCHED_AS is for x86_64 scenarios"
	;;
*) die $EX_USAGE "$conf: ARCH must be x86_64 or arm64, not '$ARCH'" ;;
esac
bz=${!image:-$(make_var "$image")}
initrd=${!initrd_var:-$(make_var "$initrd_var")}
out=${QEMU_OUT:-$BUILD_DIR/qemu}/$name
smp=${SMP:-2}
export TEST_TIMEOUT BOOT_TIMEOUT

echo "=== qemu.$name: $DESCRIPTION${as:+ (the $as kernel in place of the patched one)}"
disk_opts=()
for d in $DISKS; do disk_opts+=(-d "$d"); done
rm -rf "$out"
mkdir -p "$out"
arch_opts=()
if [ -n "$POOL_KIB" ]; then
	"$(dirname "$0")/restricted-dtb.sh" "$out/virt.dtb" "${MEM:-1024}" "$smp" "$POOL_KIB" || {
		status=$?
		record FAIL "qemu.$name.run" "could not write the device tree (exit status $status, see above)"
		exit "$status"
	}
	arch_opts=(-x -dtb -x "$out/virt.dtb")
fi
QEMU_ARCH=$ARCH "$(dirname "$0")/qemu-run.sh" -k "$bz" -i "$initrd" -t "$TEST" -a "$ARGS" \
	-c "$CMDLINE" -o "$out" -s "$smp" -m "${MEM:-1024}" "${disk_opts[@]}" "${arch_opts[@]}"
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
