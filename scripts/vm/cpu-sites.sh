#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Name the function each vCPU was in when the host gave up on a guest.
#
# usage: scripts/vm/cpu-sites.sh CPUS_TXT SYSTEM_MAP
#
# CPUS_TXT is what scripts/vm/qemu-run.sh saved from the QEMU monitor's
# "info registers -a" on a timeout; SYSTEM_MAP is the kernel's System.map.
# Prints one line per vCPU, "CPU#N function+0xOFFSET" (or "CPU#N ? RIP"
# outside the kernel's text).  Both inputs use 16 lowercase hex digits,
# and System.map is sorted, so plain string comparison finds the symbol.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 2 ] || die $EX_USAGE "usage: $0 CPUS_TXT SYSTEM_MAP"
[ -f "$1" ] || die $EX_MISSING "no CPU dump $1"
[ -f "$2" ] || die $EX_MISSING "no System.map $2"

awk '
	NR == FNR { if ($2 ~ /^[tT]$/) { addr[n] = $1; name[n] = $3; n++ } next }
	/^CPU#/ { cpu = $1 }
	/^RIP=/ {
		rip = tolower(substr($1, 5))
		lo = 0; hi = n - 1; best = -1
		while (lo <= hi) {
			mid = int((lo + hi) / 2)
			if (addr[mid] <= rip) { best = mid; lo = mid + 1 } else hi = mid - 1
		}
		if (best < 0) { print cpu, "?", rip; next }
		# offset: subtract the low 8 hex digits (kernel text is < 4 GiB long)
		off = hex(substr(rip, 9)) - hex(substr(addr[best], 9))
		printf "%s %s+0x%x\n", cpu, name[best], off
	}
	function hex(s,   i, v, c) {
		v = 0
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1)) - 1
			v = v * 16 + c
		}
		return v
	}
' "$2" "$1"
