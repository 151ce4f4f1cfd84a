#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Debian configs and packages: installable Debian packages of the kernel our users ship, with
# the full series (make deb; not in make test).
#
# usage: scripts/deb/deb.sh OUTDIR
#
# The config is Debian's (/usr/src/linux-config-6.1/config.amd64_none_FLAVOUR.xz,
# package linux-config-6.1) with the settings that name files of Debian's
# build tree dropped (as in debian-config-check.sh), and:
#   CONFIG_SWIOTLB_DYNAMIC=y          the series (SWIOTLB_SHRINK: default y)
#   CONFIG_LOCALVERSION="-dynswiotlb" the project's name in the release, the
#                                     package names and /lib/modules/
#   CONFIG_LOCALVERSION_AUTO off      no "+" or git hash after it
#   CONFIG_DEBUG_INFO_NONE=y          Debian's DEBUG_INFO (with BTF) would
#                                     add a -dbg package of several GiB and
#                                     most of the link time
# The source is build/src/full (the series applied; make kernel-patched
# extracts it), the objects go to build/obj/deb-FLAVOUR, and `make
# bindeb-pkg` (dpkg-buildpackage -b) builds linux-image-RELEASE and
# linux-headers-RELEASE, version RELEASE-N (N counts the builds in that
# object directory).  The two packages are moved to OUTDIR, with
# OUTDIR/build.log; dpkg-deb --info of each is printed.  bindeb-pkg's
# linux-libc-dev is deleted: installed, it would replace the system's.
#
# Exit status: EX_OK; EX_MISSING (a tool, Debian's config or the tree),
# EX_CONFIG (an option did not survive olddefconfig), EX_BUILD.
#
# Environment: FLAVOUR (cloud-amd64, or amd64), JOBS (make -j, default
# nproc), DEBIAN_CONFIG_DIR (default /usr/src/linux-config-6.1).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] || die $EX_USAGE "usage: $0 OUTDIR"
out=$1
flavour=${FLAVOUR:-cloud-amd64}
case "$flavour" in
amd64|cloud-amd64) ;;
*) die $EX_USAGE "FLAVOUR must be amd64 or cloud-amd64, not '$flavour'" ;;
esac
localversion=-dynswiotlb
debcfg=${DEBIAN_CONFIG_DIR:-/usr/src/linux-config-6.1}/config.amd64_none_$flavour.xz
tree=$(SERIES=full make_var PATCHED_SRC)
obj=$(make_var B)/obj/deb-$flavour
jobs=${JOBS:-$(nproc)}

[ -f "$debcfg" ] || die $EX_MISSING "$debcfg not found (apt-get install linux-config-6.1)"
[ -f "$tree/.series-applied" ] ||
	die $EX_MISSING "no patched tree in $tree (make kernel-patched extracts it)"
need_tools "apt-get install build-essential flex bison bc libelf-dev libssl-dev xz-utils dpkg-dev fakeroot rsync cpio kmod openssl" \
	gcc make flex bison bc xzcat dpkg-buildpackage dpkg-deb fakeroot rsync cpio kmod openssl
cc=$(kernel_cc)

# kmake ARGS...: make in the patched tree, out of tree, for the packages.
kmake() {
	run nice -n 10 make -C "$tree" O="$obj" ARCH=x86_64 CC="$cc" HOSTCC="$cc" \
		LOCALVERSION= -j"$jobs" "$@"
}

mkdir -p "$obj" "$out"
cfg=$(mktemp)
trap 'rm -f "$cfg"' EXIT
debian_config_local "$debcfg" "$cfg" "$flavour"
cat >> "$cfg" <<EOF
CONFIG_SWIOTLB_DYNAMIC=y
CONFIG_LOCALVERSION="$localversion"
# CONFIG_LOCALVERSION_AUTO is not set
# CONFIG_DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT is not set
# CONFIG_DEBUG_INFO_DWARF4 is not set
# CONFIG_DEBUG_INFO_DWARF5 is not set
CONFIG_DEBUG_INFO_NONE=y
EOF
# Only a changed config goes in, so that an unchanged one rebuilds nothing.
if ! cmp -s "$cfg" "$obj/.config.deb-wanted"; then
	cp "$cfg" "$obj/.config"
	kmake olddefconfig > "$obj/olddefconfig.log" 2>&1 ||
		{ cat "$obj/olddefconfig.log" >&2; die $EX_CONFIG "olddefconfig failed"; }
	cp "$cfg" "$obj/.config.deb-wanted"
fi
for want in SWIOTLB_DYNAMIC=y DEBUG_INFO_NONE=y "LOCALVERSION=$localversion"; do
	got=$(config_value "$tree" "$obj/.config" "${want%%=*}")
	[ "$got" = "${want#*=}" ] ||
		die $EX_CONFIG "CONFIG_$want did not survive olddefconfig (got $got)"
done
info "$flavour: SWIOTLB_DYNAMIC=$(config_value "$tree" "$obj/.config" SWIOTLB_DYNAMIC)" \
	"SWIOTLB_SHRINK=$(config_value "$tree" "$obj/.config" SWIOTLB_SHRINK)" \
	"AMD_MEM_ENCRYPT=$(config_value "$tree" "$obj/.config" AMD_MEM_ENCRYPT)" \
	"SWIOTLB_XEN=$(config_value "$tree" "$obj/.config" SWIOTLB_XEN)"

# (kernelrelease needs a prepared tree; the name is known beforehand)
release=$(make -s -C "$tree" kernelversion)$localversion

# bindeb-pkg writes the packages (and .buildinfo, .changes) next to OBJDIR,
# version RELEASE-N, N counting the builds in OBJDIR.
parent=$(dirname "$obj")
clean_parent() {
	rm -f "$parent"/linux-*-"$release"_*.deb "$parent"/linux-libc-dev_"$release"-*.deb \
		"$parent"/linux-upstream_"$release"-*.buildinfo "$parent"/linux-upstream_"$release"-*.changes
}
clean_parent
start=$SECONDS
info "$flavour: building $release (log: $out/build.log; about an hour on 2 cores)"
if ! kmake KDEB_CHANGELOG_DIST=bookworm DEBEMAIL="dynamic-swiotlb <nobody@localhost>" \
	bindeb-pkg > "$out/build.log" 2>&1; then
	grep -E ': error: |Error [0-9]|dpkg-[a-z]*: error' "$out/build.log" | head -20 >&2 || true
	die $EX_BUILD "bindeb-pkg failed after $((SECONDS - start)) s (log: $out/build.log)"
fi
rm -f "$out"/linux-image-*.deb "$out"/linux-headers-*.deb
n=0
for pkg in linux-image linux-headers; do
	debs=("$parent/$pkg-$release"_*.deb)
	[ -f "${debs[0]}" ] || die $EX_BUILD "bindeb-pkg succeeded but left no $pkg-${release}_*.deb in $parent"
	mv "${debs[0]}" "$out/"
	n=$((n + 1))
	echo "--- dpkg-deb --info $(basename "${debs[0]}")"
	dpkg-deb --info "$out/$(basename "${debs[0]}")" | sed -n '/^ Package:/,/^ Description:/p'
done
# Also built: linux-libc-dev of this tree, which would replace the
# system's own headers package; not kept.
clean_parent
echo "$release" > "$out/release"
info "$n packages of $release in $out in $((SECONDS - start)) s"
