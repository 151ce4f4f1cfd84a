#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Print the patches of the series, one path a line, in order.
#
# usage: scripts/series/list-series.sh [full|v7|noperf|noscale]
#        scripts/series/list-series.sh --cuts   (prints the names above,
#        the one list every target and doc of SERIES= takes them from)
#
# `series` is a quilt series file: one patch name a line, `#` starts a
# comment, and `# Heading` lines group the patches.  "v7" is the nine v7
# patches together with their prerequisites: every patch before the
# `# Follow-up fixes` heading.  "noperf" is every patch before the
# `# Performance` heading (the baseline of make bench-perf).  "noscale" is
# every patch before the `# Scale` heading (the baseline of make
# bench-pools).  "full" (the default) is every patch listed.  Debian's
# 6.12, which the KUnit suite also runs on (make kunit-mainline), is no
# cut: it has none of the patches (lib.sh, MAINLINE_CUT).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

cuts=(full v7 noperf noscale)
which=${1:-full}
if [ "$which" = --cuts ]; then
	echo "${cuts[*]}"
	exit 0
fi
[[ " ${cuts[*]} " == *" $which "* ]] ||
	die $EX_USAGE "SERIES must be one of ${cuts[*]}, not '$which'"

series=${SERIES_FILE:-$PROJECT_TOP/series}
patchdir=${PATCH_DIR:-$(dirname "$series")/patches}
[ -f "$series" ] || die $EX_MISSING "no series file at $series"

while read -r line; do
	case "$line" in
	"# Follow-up fixes"*)
		[ "$which" = v7 ] && break
		continue
		;;
	"# Performance"*)
		[ "$which" = noperf ] && break
		continue
		;;
	"# Scale"*)
		[ "$which" = noscale ] && break
		continue
		;;
	''|'#'*) continue ;;
	esac
	name=${line%%[[:space:]]*}
	[ -f "$patchdir/$name" ] ||
		die $EX_PATCH "series names $name, but $patchdir/$name does not exist"
	echo "$patchdir/$name"
done < "$series"
