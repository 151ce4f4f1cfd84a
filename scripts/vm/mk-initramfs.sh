#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Build the test VM's initramfs (a newc cpio archive, not compressed).
#
# usage: scripts/vm/mk-initramfs.sh OUT.cpio TREE
#
# It holds:
#   /init, /tests/*        the guest side of the harness, from tests/guest
#                          and tests/fio (real files, copied as they are)
#   /bin/busybox + links   from busybox-static
#   /usr/bin/fio, jq + libs  Debian's fio and jq, and every library ldd
#                          lists for them
#   /usr/bin/dma_map_benchmark
#                          the kernel's selftest, built static from TREE
#   /usr/bin/memhog        tests/guest/memhog.c, built static (memory
#                          pressure for the debug kernel's run)
# TREE only provides tools/testing/selftests/dma/dma_map_benchmark.c and
# include/linux/map_benchmark.h; the header is copied into a private include
# directory because the tree's include/ clashes with glibc's headers.
#
# ARCH=arm64 (make test-arm64) builds the arm64 guest: BUSYBOX is then
# Debian's arm64 busybox-static (scripts/vm/apt-fetch.sh), linked as sh
# only (the init runs busybox --install, since this host cannot run it
# to list its applets), the two programs are built with
# aarch64-linux-gnu-gcc, and there is no fio or jq: its tests check data
# with md5sum.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 2 ] || die $EX_USAGE "usage: $0 OUT.cpio TREE"
out=$1 tree=$2
busybox=${BUSYBOX:-/bin/busybox}
arch_facts "${ARCH:-x86_64}"
cc=${ARCH_CROSS}gcc native=1
[ -z "$ARCH_CROSS" ] || native=0

[ -x "$busybox" ] || die $EX_MISSING "$busybox not found (apt-get install busybox-static)"
ldd "$busybox" >/dev/null 2>&1 &&
	die $EX_MISSING "$busybox is dynamically linked (apt-get install busybox-static)"
if [ "$native" = 1 ]; then
	fio=${FIO:-$(command -v fio || true)}
	jq=$(command -v jq || true)
	[ -n "$fio" ] || die $EX_MISSING "fio not found (apt-get install fio)"
	[ -n "$jq" ] || die $EX_MISSING "jq not found (apt-get install jq)"
fi
command -v cpio >/dev/null || die $EX_MISSING "cpio not found (apt-get install cpio)"
src=$tree/tools/testing/selftests/dma/dma_map_benchmark.c
hdr=$tree/include/linux/map_benchmark.h
{ [ -f "$src" ] && [ -f "$hdr" ]; } || die $EX_MISSING "$src or $hdr not found"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,tests/fio} "$work/include/linux"

# dma_map_benchmark, static, against only the header it needs.
cp "$hdr" "$work/include/linux/"
run "$cc" -static -O2 -I"$work/include" -o "$root/usr/bin/dma_map_benchmark" "$src" ||
	die $EX_BUILD "cannot build dma_map_benchmark"
run "$cc" -static -O2 -Wall -o "$root/usr/bin/memhog" "$PROJECT_TOP/tests/guest/memhog.c" ||
	die $EX_BUILD "cannot build tests/guest/memhog.c"

# busybox and its applet links (another architecture's: sh, and the init
# installs the rest).
cp "$busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
if [ "$native" = 1 ]; then
	for applet in $("$busybox" --list); do
		[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
	done
fi

# fio and jq (which reads fio's JSON report), with the shared libraries
# they link (Debian's fio is built with many optional engines, about 80 MB
# of libraries in all).
if [ "$native" = 1 ]; then
	for bin in "$fio" "$jq"; do
		cp "$bin" "$root/usr/bin/"
		ldd "$bin" | awk '/=> \// { print $3 } /^\t\/.*ld-linux/ { print $1 }' |
		while read -r lib; do
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		done
	done
	[ -f "$root/lib64/ld-linux-x86-64.so.2" ] || die $EX_MISSING "ldd did not list the dynamic loader of $fio"
fi

# The guest side of the harness.
cp "$PROJECT_TOP/tests/guest/init" "$root/init"
cp "$PROJECT_TOP"/tests/guest/*.sh "$root/tests/"
cp "$PROJECT_TOP"/tests/fio/*.fio "$root/tests/fio/"
chmod +x "$root/init"

mkdir -p "$(dirname "$out")"
(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc -R 0:0 --quiet) > "$out.tmp" ||
	die $EX_BUILD "cpio failed"
mv "$out.tmp" "$out"
info "wrote $out ($(du -m "$out" | cut -f1) MiB)"
