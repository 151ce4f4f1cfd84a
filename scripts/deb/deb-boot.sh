#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Debian configs and packages: boot the packaged kernel of make deb in QEMU and run the
# patched kernel's scenarios of make qemu-test on it (make deb-boot; not in
# make test).  This tests the artefact a user installs, not the test kernel.
#
# usage: scripts/deb/deb-boot.sh DEBDIR
#
# 1. DEBDIR/linux-image-*.deb (exactly one) is unpacked with dpkg-deb -x;
#    its kernel is boot/vmlinuz-RELEASE.  If the package has no
#    modules.dep, depmod -b makes one.
# 2. The modules the test VM needs are found from the devices it has, not
#    from a list of modules: the modalias of each device (QEMU's modern
#    virtio PCI function, virtio block and console, NVMe) goes through the
#    host's modprobe -d ROOT -S RELEASE --show-depends, which resolves it
#    with the package's modules.alias and modules.dep into insmod lines in
#    load order.  An alias no module serves is taken as built in (6.1
#    records no aliases of built-in drivers; NVMe is built in in
#    cloud-amd64) and said; the scenario that uses the device tells.
# 3. Those modules and /etc/harness-modules (their paths, in load order)
#    go into a second cpio archive, appended to the harness's initramfs
#    (INITRD, default build/initramfs.cpio); the guest's init loads them
#    before it looks for the result port.
# 4. scripts/vm/qemu-test.sh runs $scenarios with that kernel and initramfs;
#    results are recorded as qemu.deb-NAME.CHECK.
#
# Exit status: EX_OK when every scenario passed, EX_TESTFAIL otherwise;
# EX_MISSING (no package, no initramfs, no tool), EX_USAGE.
set -uo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] || die $EX_USAGE "usage: $0 DEBDIR"
debdir=$1
scenarios=${DEB_SCENARIOS:-grow shrink default nvme}
initrd=${INITRD:-$(make_var INITRD)}
[ -f "$initrd" ] || die $EX_MISSING "$initrd not found (make initramfs)"
need_tools "apt-get install dpkg kmod cpio" dpkg-deb modprobe depmod cpio
shopt -s nullglob
debs=("$debdir"/linux-image-*.deb)
shopt -u nullglob
[ ${#debs[@]} -eq 1 ] ||
	die $EX_MISSING "want one linux-image-*.deb in $debdir, found ${#debs[@]} (make deb)"
deb=${debs[0]}

work=$debdir/boot
rm -rf "$work"
mkdir -p "$work/root" "$work/extra/etc"
run dpkg-deb -x "$deb" "$work/root" || die $EX_MISSING "cannot unpack $deb"
shopt -s nullglob
kernels=("$work"/root/boot/vmlinuz-*)
shopt -u nullglob
[ ${#kernels[@]} -eq 1 ] || die $EX_MISSING "want one boot/vmlinuz-* in $deb, found ${#kernels[@]}"
kernel=${kernels[0]}
release=${kernel##*/vmlinuz-}
moddir=lib/modules/$release
[ -d "$work/root/$moddir" ] || die $EX_MISSING "$deb has no /$moddir"
if [ ! -f "$work/root/$moddir/modules.dep" ]; then
	run depmod -b "$work/root" "$release" || die $EX_MISSING "depmod failed for $release"
fi
info "$release: $(find "$work/root/$moddir" -name '*.ko*' | wc -l) modules in the package"

# The devices of the test VM (scripts/vm/qemu-run.sh), as the kernel names
# them in uevents: QEMU's virtio-blk-pci with disable-legacy (modern
# virtio PCI, 1af4:1040 + virtio ID 2), its virtio-serial-pci
# (transitional, 1af4:1003), the virtio IDs of block (2) and console (3),
# and QEMU's NVMe controller (1b36:0010, class 01 08 02).
modaliases=(
	"pci:v00001AF4d00001042sv00001AF4sd00001100bc01sc00i00"
	"virtio:d00000002v00001AF4"
	"pci:v00001AF4d00001003sv00001AF4sd00000003bc07sc80i00"
	"virtio:d00000003v00001AF4"
	"pci:v00001B36d00000010sv00001AF4sd00001100bc01sc08i02"
)
: > "$work/extra/etc/harness-modules"
for a in "${modaliases[@]}"; do
	if ! deps=$(modprobe -d "$work/root" -S "$release" --show-depends "$a" 2>&1); then
		# 6.1 keeps no aliases of built-in drivers (modules.builtin.modinfo
		# has none), so "not found" also means "built in": the scenarios
		# that use the device fail if nothing serves it.
		info "$a: no loadable module (built in, or not served: the boot will tell)"
		continue
	fi
	while read -r verb path _; do
		case "$verb" in
		insmod)
			# modprobe -d prints the path with the root in front
			rel=${path#"$work/root"/}
			grep -qxF "/$rel" "$work/extra/etc/harness-modules" && continue
			mkdir -p "$work/extra/$(dirname "$rel")"
			cp "$work/root/$rel" "$work/extra/$rel" || die $EX_MISSING "cannot copy /$rel"
			echo "/$rel" >> "$work/extra/etc/harness-modules"
			;;
		builtin) ;;
		*) die $EX_MISSING "modprobe --show-depends $a said: $verb $path" ;;
		esac
	done <<< "$deps"
	info "$a: $(echo "$deps" | awk '{ sub(".*/", "", $2); printf "%s%s %s", sep, $1, $2; sep = ", " }')"
done
info "$(grep -c . "$work/extra/etc/harness-modules") modules in load order: $(xargs -n 1 basename < "$work/extra/etc/harness-modules" | tr '\n' ' ')"
(cd "$work/extra" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet) > "$work/extra.cpio" ||
	die $EX_MISSING "cannot write $work/extra.cpio"
cat "$initrd" "$work/extra.cpio" > "$work/initramfs.cpio"

failed=0
for s in $scenarios; do
	BZIMAGE_patched=$kernel INITRD=$work/initramfs.cpio QEMU_OUT=$work/qemu \
		PATCHED_AS=deb BOOT_TIMEOUT=${BOOT_TIMEOUT:-180} \
		"$PROJECT_TOP/scripts/vm/qemu-test.sh" "$PROJECT_TOP/tests/scenarios/$s.conf" || failed=1
done
[ $failed = 0 ] || exit $EX_TESTFAIL
exit $EX_OK
