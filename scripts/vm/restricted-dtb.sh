#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Write the device tree of QEMU's arm64 virt machine with a restricted DMA
# pool for its first virtio-mmio disk.
#
# usage: scripts/vm/restricted-dtb.sh OUT.dtb MEM_MIB SMP POOL_KIB
#   MEM_MIB, SMP  the guest's RAM and vCPUs, as qemu-run.sh -m and -s
#                 will boot it (the dumped tree's memory and cpus nodes)
#   POOL_KIB      the pool's size
#
# QEMU dumps the tree it would generate (-machine virt,dumpdtb=FILE, with
# the Cortex-A57 of qemu-run.sh QEMU_ARCH=arm64); dtc turns it into source,
# and this adds
#   - a reserved-memory node with a child of compatible
#     "restricted-dma-pool", POOL_KIB at 0x70000000 (RAM starts at
#     0x40000000 and the kernel and initramfs sit at its start);
#   - memory-region = <&restricted_dma> on virtio_mmio@a003e00, the
#     transport of the highest address, which QEMU gives the first
#     -device virtio-blk-device;
# and compiles it back.  QEMU fills /chosen (bootargs, initrd) into a tree
# given with -dtb as it does into its own.  OUT.dts keeps the source.
# Exits EX_OK, EX_MISSING (no QEMU or dtc), EX_USAGE, or EX_BUILD (the
# tree lacks the node this edits, or dtc refuses the result).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || die $EX_USAGE "usage: $0 OUT.dtb MEM_MIB SMP POOL_KIB"
out=$1 mem=$2 smp=$3 pool_kib=$4
for n in "$mem" "$smp" "$pool_kib"; do
	[[ "$n" =~ ^[1-9][0-9]*$ ]] || die $EX_USAGE "MEM_MIB, SMP and POOL_KIB are numbers, not '$n'"
done
[ "$mem" -ge 1024 ] ||
	die $EX_USAGE "MEM_MIB must be 1024 or more: the pool is at 0x70000000"
qemu=${QEMU:-qemu-system-aarch64}
need_tools "apt-get install qemu-system-arm" "$qemu"
need_tools "apt-get install device-tree-compiler" dtc
transport=virtio_mmio@a003e00

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$qemu" -machine "virt,dumpdtb=$work/virt.dtb" -cpu cortex-a57 -m "$mem" -smp "$smp" \
	-nographic > "$work/qemu.log" 2>&1 ||
	die $EX_BUILD "$qemu did not dump the virt machine's tree: $(tail -n 3 "$work/qemu.log")"
dtc -q -I dtb -O dts -o "$work/virt.dts" "$work/virt.dtb" ||
	die $EX_BUILD "dtc cannot read the dumped tree"
grep -q "^	$transport {" "$work/virt.dts" ||
	die $EX_BUILD "the dumped tree has no $transport"
grep -q "reserved-memory" "$work/virt.dts" &&
	die $EX_BUILD "the dumped tree has a reserved-memory node already"

size_hex=$(printf '0x%x' $((pool_kib * 1024)))
awk -v t="	$transport {" -v size="$size_hex" '
	# the pool: a reserved-memory node before the first node of the root
	!done_rmem && /^	[a-z].* {$/ {
		print "\treserved-memory {"
		print "\t\t#address-cells = <0x02>;"
		print "\t\t#size-cells = <0x02>;"
		print "\t\tranges;"
		print ""
		print "\t\trestricted_dma: restricted-dma-pool@70000000 {"
		print "\t\t\tcompatible = \"restricted-dma-pool\";"
		print "\t\t\treg = <0x00 0x70000000 0x00 " size ">;"
		print "\t\t};"
		print "\t};"
		print ""
		done_rmem = 1
	}
	{ print }
	$0 == t { print "\t\tmemory-region = <&restricted_dma>;"; done_dev = 1 }
	END { if (!done_rmem || !done_dev) exit 1 }
' "$work/virt.dts" > "${out%.dtb}.dts" ||
	die $EX_BUILD "cannot add the pool to the dumped tree"
dtc -q -I dts -O dtb -o "$out" "${out%.dtb}.dts" ||
	die $EX_BUILD "dtc refuses the tree with the pool (${out%.dtb}.dts)"
info "wrote $out: a ${pool_kib} KiB restricted-dma-pool at 0x70000000 for $transport"
