#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Print the outcomes of the QEMU scenarios side by side, from the
# build/qemu/NAME/summary.txt files that scripts/vm/qemu-test.sh wrote.
#
# usage: scripts/report/compare.sh [NAME...]   (default: every scenario that ran)
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

dir=${QEMU_OUT:-$BUILD_DIR/qemu}
if [ $# -eq 0 ]; then
	set --
	for d in "$dir"/*/; do
		[ -d "$d" ] || continue
		d=${d%/}
		set -- "$@" "${d##*/}"
	done
fi
# "in use at most": io_tlb_used_hiwater after the load (reset before it),
# or where the kernel has no mark (base, v7) the largest of the samples
# of io_tlb_used, marked "(sampled)".
# The first column is as wide as the longest name, and 16 at least.
width=16
for name in "$@"; do
	[ "${#name}" -le "$width" ] || width=${#name}
done
fmt="%-${width}s %-8s %-18s %-8s %-18s %-14s %-15s %s\n"
# shellcheck disable=SC2059 # the format is the fixed one above
printf "$fmt" scenario kernel cmdline verdict "nslabs boot > end" "in use at most" '"buffer is full"' "MiB written / verified"
for name in "$@"; do
	f=$dir/$name/summary.txt
	[ -f "$f" ] || continue
	declare -A s=()
	while IFS='=' read -r k v; do s[$k]=$v; done < "$f"
	# -1 is "not measured" (the run ended before the guest reported it).
	for k in "${!s[@]}"; do [ "${s[$k]}" = -1 ] && s[$k]=-; done
	w=${s[write_kib]} r=${s[read_kib]} u=${s[hiwater]:--}
	[ "$u" != - ] || [ "${s[used_max]}" = - ] || u="${s[used_max]} (sampled)"
	[ "$w" != - ] && w=$((w / 1024))
	[ "$r" != - ] && r=$((r / 1024))
	# shellcheck disable=SC2059 # the format is the fixed one above
	printf "$fmt" "$name" "${s[kernel]}" "${s[cmdline]}" "${s[verdict]}" \
		"${s[nslabs_boot]} > ${s[nslabs_after]}" "$u" "${s[buffer_full]} times" "$w / $r"
done
