#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Install the Debian packages of scripts/packages.txt that are missing.
#
# usage: scripts/deps.sh
#
# Does nothing when every package is installed.  Otherwise prints one line
# naming what it installs, and runs apt-get update and apt-get install as
# root, or through sudo when that works without a password prompt.  When
# it can do neither, it prints the exact command to run and exits
# EX_MISSING (3).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 0 ] || die $EX_USAGE "usage: $0"
command -v dpkg-query >/dev/null ||
	die $EX_MISSING "dpkg-query not found: this harness needs Debian 12"

mapfile -t packages < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' \
	"$PROJECT_TOP/scripts/packages.txt")
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit $EX_OK

if [ "$(id -u)" = 0 ]; then
	sudo=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
	sudo=(sudo -n)
else
	echo "deps: missing ${missing[*]}; as root, run:" >&2
	echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
	exit $EX_MISSING
fi

echo "deps: installing ${missing[*]}"
log=$(mktemp "${TMPDIR:-/tmp}/deps-apt.XXXXXX")
export DEBIAN_FRONTEND=noninteractive
if ! { "${sudo[@]}" apt-get update -q &&
	"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"; } \
	< /dev/null > "$log" 2>&1; then
	tail -20 "$log" >&2
	die $EX_MISSING "apt-get failed (log: $log)"
fi
rm -f "$log"
