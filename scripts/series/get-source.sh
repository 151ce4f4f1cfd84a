#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Get Debian's linux-source-VERSION and extract it into DEST.
#
# usage: scripts/series/get-source.sh DEST [VERSION]
#
# VERSION is 6.1 (the default: the kernel of the series) or another
# linux-source-VERSION of the archive (6.12: the peer with mainline's
# dynamic SWIOTLB).  The tarball comes from the package manager (apt-get
# install linux-source-VERSION) when it is missing.  DEST is created
# fresh: an existing DEST that holds a VERSION.x tree is left as it is, so
# running this twice does nothing the second time.  Anything that is not
# VERSION.x is refused.
#
# Environment:
#   LINUX_TARBALL  the tarball (default /usr/src/linux-source-VERSION.tar.xz)
#   LINUX_PACKAGE  the package that provides it (default linux-source-VERSION)
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] || [ $# -eq 2 ] || die $EX_USAGE "usage: $0 DEST [VERSION]"
dest=$1 want=${2:-6.1}
[[ $want =~ ^[0-9]+\.[0-9]+$ ]] || die $EX_USAGE "VERSION must be like 6.1 or 6.12, not '$want'"
tarball=${LINUX_TARBALL:-/usr/src/linux-source-$want.tar.xz}
package=${LINUX_PACKAGE:-linux-source-$want}

# tree_version DIR: "6.1.192", as the tree's own make kernelversion says
# (empty if it cannot; a parent make's flags are not passed on).
tree_version() {
	MAKEFLAGS='' make -s -C "$1" kernelversion 2>/dev/null || true
}

check_version() {
	local ver
	[ -f "$1/Makefile" ] || die $EX_VERSION "$1 is not a kernel tree (no Makefile)"
	ver=$(tree_version "$1")
	case "$ver" in
	"$want".*) info "found Linux $ver in $1" ;;
	*) die $EX_VERSION "$1 holds Linux ${ver:-of unknown version}, not $want.x" ;;
	esac
}

if [ -f "$dest/.extracted" ]; then
	check_version "$dest"
	exit 0
fi

if [ ! -f "$tarball" ]; then
	if [ -z "${LINUX_TARBALL:-}" ] && [ "$(id -u)" = 0 ] &&
	   command -v apt-get >/dev/null; then
		info "$tarball is missing; installing $package"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$package" >&2 ||
			die $EX_MISSING "apt-get install $package failed"
	fi
	[ -f "$tarball" ] ||
		die $EX_MISSING "$tarball not found (apt-get install $package)"
fi

tmp="$dest.tmp.$$"
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
info "extracting $tarball"
tar -xJf "$tarball" -C "$tmp" ||
	die $EX_MISSING "cannot extract $tarball"
top=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d)
{ [ "$(echo "$top" | wc -l)" = 1 ] && [ -n "$top" ]; } ||
	die $EX_VERSION "$tarball does not hold a single kernel tree"
check_version "$top"
rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
mv "$top" "$dest"
touch "$dest/.extracted"
