#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Download Debian packages and unpack them into DIR/root, without
# installing them: the system's apt configuration, package lists and
# packages are not touched.
#
# usage: scripts/vm/apt-fetch.sh DIR SUITE ARCH PACKAGE...
#   SUITE    e.g. bookworm or bookworm-backports
#   ARCH     Debian's name of the architecture, e.g. amd64 or arm64
#
# A private sources list and package lists under DIR/apt, the .debs in
# DIR/debs (DEBIAN_MIRROR, default http://deb.debian.org/debian), each
# unpacked with dpkg-deb into DIR/root.  DIR/apt, DIR/debs and DIR/root
# start empty.  Exits EX_OK, or EX_MISSING (no apt-get or dpkg-deb, no
# network, or no such package).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -ge 4 ] || die $EX_USAGE "usage: $0 DIR SUITE ARCH PACKAGE..."
dir=$(mkdir -p "$1" && cd "$1" && pwd)
suite=$2 arch=$3
shift 3
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
for t in apt-get dpkg-deb; do
	command -v "$t" > /dev/null || die $EX_MISSING "$t not found"
done

rm -rf "$dir/apt" "$dir/debs" "$dir/root"
mkdir -p "$dir/apt/lists/partial" "$dir/apt/archives/partial" "$dir/debs" "$dir/root"
echo "deb [arch=$arch] $mirror $suite main" > "$dir/apt/sources.list"
apt=(-o "Dir::Etc::sourcelist=$dir/apt/sources.list" -o Dir::Etc::sourceparts=/dev/null
	-o "Dir::State::Lists=$dir/apt/lists" -o "Dir::Cache::archives=$dir/apt/archives"
	-o "APT::Architecture=$arch" -o "APT::Architectures=$arch"
	-o Dir::State::status=/dev/null
	-o APT::Sandbox::User="$(id -un)" -q)
info "package lists of $suite ($arch) from $mirror"
apt-get "${apt[@]}" --error-on=any update > "$dir/apt/update.log" 2>&1 ||
	die $EX_MISSING "apt-get update for $suite failed (see $dir/apt/update.log)"
(cd "$dir/debs" && apt-get "${apt[@]}" download "$@") > "$dir/apt/download.log" 2>&1 ||
	die $EX_MISSING "cannot download $* from $suite ($arch) (see $dir/apt/download.log)"
for deb in "$dir"/debs/*.deb; do
	dpkg-deb -x "$deb" "$dir/root"
done
info "unpacked $* ($arch, $suite) into $dir/root"
