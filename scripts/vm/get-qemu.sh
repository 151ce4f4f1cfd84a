#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Fetch QEMU from Debian's bookworm-backports into DIR, for the SMP runs of
# the benchmark of the performance patches, without installing it.
#
# usage: scripts/vm/get-qemu.sh DIR
#
# Bookworm's QEMU 7.2 hangs at "Bringing up secondary CPUs" under -icount
# with -smp 2 or more, on q35 and pc alike.  Backports' QEMU 10.0 boots the
# same kernels with -machine pc -smp 4 -icount shift=2,sleep=off (measured;
# its q35 hangs in SeaBIOS under icount, even with one vCPU).  This script
# downloads qemu-system-x86, qemu-system-common and qemu-system-data and
# unpacks them into DIR/root (scripts/vm/apt-fetch.sh: the system's apt
# configuration and packages are not touched), checks that the binary
# finds its libraries, and writes
# DIR/qemu-system-x86_64, a wrapper that runs it with its own firmware
# directory (and bookworm's SeaBIOS, which qemu-system-x86 installed) and
# "-audio none".  Without that, the pc machine's PC speaker has QEMU probe
# audio drivers: where the host has bookworm's qemu-system-gui (which
# qemu-system-arm recommends), QEMU 10 finds its audio-pa.so, refuses a
# module of another build and aborts on an assertion (measured).  So the
# wrapper is checked by starting the pc machine (stopped, -S) and quitting
# it from the monitor, not by --version alone, which loads no module.
# Exits EX_OK, EX_MISSING (no apt-get, dpkg-deb or network) or EX_BUILD (the
# binary does not run here).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] || die $EX_USAGE "usage: $0 DIR"
dir=$(mkdir -p "$1" && cd "$1" && pwd)
suite=${QEMU_SUITE:-bookworm-backports}
command -v ldd > /dev/null || die $EX_MISSING "ldd not found"
"$(dirname "$0")/apt-fetch.sh" "$dir" "$suite" amd64 \
	qemu-system-x86 qemu-system-common qemu-system-data

bin=$dir/root/usr/bin/qemu-system-x86_64
[ -x "$bin" ] || die $EX_BUILD "no qemu-system-x86_64 in the packages"
missing=$(ldd "$bin" | grep 'not found' || true)
[ -z "$missing" ] || die $EX_BUILD "$bin lacks libraries: $missing"
cat > "$dir/qemu-system-x86_64" <<WRAPPER
#!/bin/sh
# Written by scripts/vm/get-qemu.sh: QEMU from $suite, with its own firmware.
QEMU_MODULE_DIR=$dir/root/usr/lib/x86_64-linux-gnu/qemu
export QEMU_MODULE_DIR
exec $bin -L $dir/root/usr/share/qemu -L /usr/share/seabios -L /usr/share/qemu -audio none "\$@"
WRAPPER
chmod +x "$dir/qemu-system-x86_64"
"$dir/qemu-system-x86_64" --version | head -n 1 | sed 's/^/get-qemu: /' ||
	die $EX_BUILD "$dir/qemu-system-x86_64 does not run"
started=$(echo quit | timeout 60 "$dir/qemu-system-x86_64" -machine pc -accel tcg -S \
	-display none -serial none -nic none -monitor stdio 2>&1) ||
	die $EX_BUILD "$dir/qemu-system-x86_64 cannot start the pc machine: $(echo "$started" | tail -n 3)"
