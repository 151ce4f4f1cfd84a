#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The config fragments of one kernel of the harness, from configs/kernels.txt
# (the one list), one path per line, in merge order.
#
# usage: scripts/kernel/fragments.sh [--relative] KERNEL
#   --relative  paths relative to the project (configs/NAME), as the
#               Makefile writes them; default absolute
# Exit status: EX_OK, EX_USAGE (no such kernel), EX_MISSING (a fragment
# the list names does not exist).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

prefix=$PROJECT_TOP/
[ "${1:-}" = --relative ] && prefix= && shift
[ $# -eq 1 ] || die $EX_USAGE "usage: $0 [--relative] KERNEL"
list=$PROJECT_TOP/configs/kernels.txt
frags=$(awk -v k="$1" '!/^#/ && $1 == k { $1 = ""; print; found = 1 } END { exit !found }' "$list") ||
	die $EX_USAGE "no kernel '$1' in configs/kernels.txt (it has: $(awk '!/^#/ && NF { printf "%s ", $1 }' "$list"))"
for f in $frags; do
	[ -f "$PROJECT_TOP/configs/$f" ] || die $EX_MISSING "configs/kernels.txt names configs/$f for $1, which does not exist"
	echo "${prefix}configs/$f"
done
