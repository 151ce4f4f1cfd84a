#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Boot the series as a Xen PV dom0 under Debian's own Xen, in QEMU (TCG),
# and check that a 32-bit DMA device (an IDE disk behind ata_piix) gets
# its DMA mask and passes fio verify through swiotlb-xen.
#
# usage: scripts/vm/xen-dom0-test.sh [SERIES]  (a cut of list-series.sh --cuts)
#
# Xen: Debian's xen-hypervisor-4.17-amd64, fetched with apt-get download
# and unpacked into build/xen/ (never installed on the host); its gzip'd
# ELF is unpacked and booted with QEMU's multiboot loader, the dom0 kernel
# and the initramfs as modules.  The dom0 kernel is BZIMAGE_xen (make
# test-xen-dom0 builds it: the patched tree with the fragments of xen-dom0
# in configs/kernels.txt, in build/obj/xen-SERIES), the initramfs INITRD.
# QEMU: -machine pc (its IDE controller is PIIX), -cpu max without SMAP
# (QEMU 7.2's TCG reads IRET's stack frame as a supervisor access, which
# SMAP forbids for a PV kernel in ring 3: dom0 dies in its first
# sync_core(), in __static_call_update_early()), 6 GiB for Xen and 2 GiB
# for dom0, so that dom0's top of memory is a machine address above 4 GiB.
#
# Records xen-dom0.SERIES.boot, .dma-mask, .fio-verify and .bounced.  Not in make
# test: a cold dom0 kernel build takes 10-25 min here, the boot 1-2 min.
# Exit status: EX_OK, EX_TESTFAIL, EX_MISSING (no kernel, initramfs or
# Xen), or the status of the stage that broke.
set -uo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

series=${1:-full}
need_cut "$series"
# Xen under KVM needs nested virtualisation and other -cpu flags; only
# TCG has been tried.
[ "${ACCEL:-tcg}" = tcg ] ||
	die $EX_USAGE "ACCEL=$ACCEL: the Xen dom0 test runs under TCG only (unset ACCEL)"
need_tools "apt-get install qemu-system-x86 apt dpkg" qemu-system-x86_64 apt-get dpkg-deb
top=$PROJECT_TOP
xen=$BUILD_DIR/xen
out=$xen/run-$series
bz=${BZIMAGE_xen:-$(export SERIES=$series; make_var BZIMAGE_xen)}
initrd=${INITRD:-$(make_var INITRD)}
for f in "$bz" "$initrd"; do
	[ -f "$f" ] || die $EX_MISSING "$f not found (make test-xen-dom0 builds it)"
done
mkdir -p "$xen" "$out"

# Debian's hypervisor, unpacked, never installed.
if [ ! -f "$xen/xen.elf" ]; then
	(cd "$xen" && apt-get download -q xen-hypervisor-4.17-amd64) ||
		die $EX_MISSING "cannot download xen-hypervisor-4.17-amd64 (apt-get download)"
	dpkg-deb -x "$xen"/xen-hypervisor-4.17-amd64_*.deb "$xen/pkg" ||
		die $EX_MISSING "cannot unpack the Xen package"
	zcat "$xen"/pkg/boot/xen-4.17-amd64.gz > "$xen/xen.elf" ||
		die $EX_MISSING "no xen-4.17-amd64.gz in the Xen package"
fi

disk=$(mktemp /dev/shm/swiotlb-harness-xen.XXXXXX.img) ||
	die $EX_DISK "cannot create a disk image in /dev/shm"
trap 'rm -f "$disk"' EXIT
truncate -s 64M "$disk"
rm -f "$out/console.log" "$out/result.txt"
# Module command lines: QEMU splits modules at commas, and ",," is a comma.
dom0="$bz console=hvc0 earlyprintk=xen panic=-1"
dom0+=" harness.test=fio-verify harness.args=ata-verify.fio swiotlb=512,,force"
cmd=(qemu-system-x86_64 -accel tcg -machine pc -cpu "max,-smap" -m 6144 -smp 1
	-nographic -no-reboot -kernel "$xen/xen.elf"
	-append "console=com1 com1=115200,8n1 dom0_mem=2048M,max:2048M noreboot"
	-initrd "$dom0,$initrd"
	-drive "file=$disk,format=raw,if=ide,cache=unsafe"
	-device "virtio-serial-pci,id=vser"
	-chardev "file,id=result,path=$out/result.txt"
	-device "virtserialport,bus=vser.0,chardev=result,name=harness.result")
echo "+ ${cmd[*]}" > "$out/cmdline"
info "booting Xen and the $series dom0 (console: $out/console.log)"
timeout "${TEST_TIMEOUT:-600}" "${cmd[@]}" > "$out/console.log" 2>&1 < /dev/null
st=$?

status=$EX_OK
if grep -q '^exit=' "$out/result.txt" 2>/dev/null; then
	record PASS "xen-dom0.$series.boot" "dom0 ran its test (QEMU exit status $st)"
else
	tail -n 20 "$out/console.log" >&2
	record FAIL "xen-dom0.$series.boot" "no result from dom0 (QEMU exit status $st; see $out/console.log)"
	status=$EX_TESTFAIL
fi
bad=$(grep -a -m1 'failed to set dma mask' "$out/console.log" | tr -d '\r')
dma=$(grep -a -m1 -E 'ata1: PATA max (MW|U)DMA' "$out/console.log" | tr -d '\r')
if [ -z "$bad" ] && [ -n "$dma" ]; then
	record PASS "xen-dom0.$series.dma-mask" "${dma#*] }"
else
	record FAIL "xen-dom0.$series.dma-mask" "${bad:-no DMA mode for ata1}"
	status=$EX_TESTFAIL
fi
if grep -q '^fio_status=0$' "$out/result.txt" 2>/dev/null &&
   grep -q '^exit=0$' "$out/result.txt"; then
	record PASS "xen-dom0.$series.fio-verify" "16 MiB written and verified on /dev/sda"
else
	record FAIL "xen-dom0.$series.fio-verify" "$(grep -E '^(fio_status|fio_errors|exit)=' "$out/result.txt" 2>/dev/null | tr '\n' ' ')"
	status=$EX_TESTFAIL
fi
# The disk's I/O went through swiotlb-xen (a DMA mask fallback to PIO
# would bounce nothing): the scenarios' check, on this run's files.
check() { # check VERDICT CHECK REASON (tests/scenarios/checks.sh)
	record "$1" "xen-dom0.$series.$2" "$3"
	[ "$1" = PASS ] || status=$EX_TESTFAIL
}
# shellcheck source=tests/scenarios/checks.sh
. "$top/tests/scenarios/checks.sh"
if [ -f "$out/result.txt" ]; then
	scenario_results
	scenario_check bounced
else
	check FAIL bounced "no result from dom0"
fi
exit $status
