#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Port check "checkpatch": the tree's scripts/checkpatch.pl reports no error
# on any patch of the series, and exactly the warnings that the allow-list
# records, no more and no fewer; and none on our fixes for 6.12.
#
# usage: scripts/checks/check-checkpatch.sh [SERIES]
#
# The allow-list ($CHECKPATCH_ALLOW, default patches/checkpatch-allow.txt)
# has one line per allowed warning: PATCH TYPE COUNT REASON...  Only the
# ports of the nine v7 patches (0001-0009) may have entries, each for a
# warning the v7 original has too; every other patch (the prerequisite,
# the follow-up fixes, ours) must be clean.  The check needs nothing
# outside the repository.
#
# With SEEDS_DIR set to a directory of the original v7 mails
# ("[PATCH v7 N/9]"; `make check-checkpatch-seeds SEEDS_DIR=...`), it also
# checks that each port keeps its original's subject and that checkpatch
# gives the original at least COUNT warnings of each allowed TYPE.
# Records one result, checkpatch (checkpatch-seeds with SEEDS_DIR).
# Exits 0 on PASS, EX_TESTFAIL on FAIL, EX_MISSING without the seeds asked for.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=scripts/checks/checks-lib.sh
. "$(dirname "$0")/checks-lib.sh"

checks_series "${1:-${SERIES:-full}}"
seeds=${SEEDS_DIR:-}
name=port-checks.$SERIES.checkpatch${seeds:+-seeds}
allow=${CHECKPATCH_ALLOW:-$PROJECT_TOP/patches/checkpatch-allow.txt}
allow_name=$(basename "$allow")
if [ -n "$seeds" ] && [ ! -d "$seeds" ]; then
	record FAIL "$name" "cannot run: SEEDS_DIR=$seeds is not a directory"
	exit $EX_MISSING
fi
[ -f "$allow" ] || die $EX_MISSING "no allow-list $allow"
pristine_tree
checkpatch=$CHECKS_SRC/scripts/checkpatch.pl
log=$LOGS/checkpatch${seeds:+-seeds}.log
: > "$log"

# cp_types FILE: checkpatch's verdicts on FILE, one "LEVEL:TYPE" a line;
# its full output goes to the log.
cp_types() {
	local out
	# UNKNOWN_COMMIT_ID: checkpatch looks the shas of "Fixes:" and
	# "[ Upstream commit ]" up in the git repository it runs in, and
	# neither the extracted tree nor this project has mainline's history.
	out=$("$checkpatch" --root="$CHECKS_SRC" --no-summary --show-types \
		--ignore UNKNOWN_COMMIT_ID --terse "$1" 2>&1) || true
	[ -n "$out" ] && echo "$out" >> "$log"
	echo "$out" |
		sed -n 's/^[^ ]*: \(ERROR\|WARNING\|CHECK\):\([A-Z0-9_]*\):.*/\1:\2/p'
}

# subject FILE: the Subject of a mail or format-patch file, unfolded and
# without its [PATCH ...] prefix.
subject() {
	awk '/^Subject: / { s = substr($0, 10); getline n
			while (n ~ /^[ \t]/) { sub(/^[ \t]+/, " ", n); s = s n; getline n }
			print s; exit }' "$1" | sed 's/^\[[^]]*\] *//'
}

# seed_of N: the seed file of "[PATCH v7 N/9]".
seed_of() {
	grep -l -E "^Subject: \[PATCH v7 0?$1/9\]" "$seeds"/*.patch 2>/dev/null | head -1
}

# count TYPE LIST...: how many of LIST are "WARNING:TYPE".
count() {
	local type=$1 n=0 e
	shift
	for e in "$@"; do
		[ "$e" = "WARNING:$type" ] && n=$((n + 1))
	done
	echo "$n"
}

# The allow-list, checked for form first.
problems=()
declare -A listed=()
in_full=$(for p in $("$PROJECT_TOP/scripts/series/list-series.sh" full); do basename "$p"; done)
in_series=$(for p in $("$PROJECT_TOP/scripts/series/list-series.sh" "$SERIES"); do basename "$p"; done)
while read -r pname type n why; do
	case "$pname" in ''|'#'*) continue ;; esac
	if ! grep -qxF "$pname" <<< "$in_full"; then
		problems+=("$allow_name: $pname is not a patch of the series")
	elif ! [[ "$n" =~ ^[1-9][0-9]*$ ]] || [ -z "$why" ]; then
		problems+=("$allow_name: $pname $type: want PATCH TYPE COUNT REASON")
	elif ! [[ "$pname" =~ ^000[1-9]- ]]; then
		problems+=("$allow_name: $pname has no v7 original, so it may have no warning")
	elif grep -qxF "$pname" <<< "$in_series"; then
		listed[$pname $type]=$n
	fi
done < "$allow"

allowed=0
for p in $("$PROJECT_TOP/scripts/series/list-series.sh" "$SERIES"); do
	pname=$(basename "$p")
	echo "== $pname" >> "$log"
	mapfile -t port < <(cp_types "$p")
	num=$((10#${pname%%-*}))
	orig=()
	if [ -n "$seeds" ] && [ "$num" -ge 1 ] && [ "$num" -le 9 ]; then
		seed=$(seed_of "$num")
		if [ -z "$seed" ]; then
			problems+=("$pname: no seed [PATCH v7 $num/9] in $seeds")
		else
			[ "$(subject "$p")" = "$(subject "$seed")" ] ||
				problems+=("$pname: subject is not that of v7 $num/9 ('$(subject "$seed")')")
			echo "== seed $(basename "$seed")" >> "$log"
			mapfile -t orig < <(cp_types "$seed")
		fi
	fi
	declare -A seen=()
	for e in "${port[@]}"; do
		case "$e" in
		ERROR:*) problems+=("$pname: $e"); continue ;;
		WARNING:*) type=${e#WARNING:} ;;
		*) continue ;;
		esac
		[ -n "${seen[$type]:-}" ] && continue
		seen[$type]=1
		n_port=$(count "$type" "${port[@]}")
		n_list=${listed[$pname $type]:-0}
		if [ "$n_list" = 0 ]; then
			problems+=("$pname: WARNING:$type x$n_port, not in $allow_name")
		elif [ "$n_port" != "$n_list" ]; then
			problems+=("$pname: WARNING:$type x$n_port, $allow_name records x$n_list")
		else
			allowed=$((allowed + n_port))
		fi
	done
	for key in "${!listed[@]}"; do
		[ "${key%% *}" = "$pname" ] || continue
		type=${key#* }
		n_list=${listed[$key]}
		[ -n "${seen[$type]:-}" ] ||
			problems+=("$pname: $allow_name records WARNING:$type x$n_list, checkpatch gives none")
		if [ -n "$seeds" ] && [ "${#orig[@]}" -gt 0 ]; then
			n_seed=$(count "$type" "${orig[@]}")
			[ "$n_seed" -ge "$n_list" ] ||
				problems+=("$pname: WARNING:$type x$n_list allowed, the v7 original has it x$n_seed")
		fi
	done
	unset seen
done

# Our fixes for 6.12 (the Makefile's MAINLINE_FIXES) have no original:
# each must be clean.
fixdir=$(make_var MAINLINE_FIXES)
nfixes=0
for p in "$PROJECT_TOP/$fixdir"/*.patch; do
	[ -f "$p" ] || continue
	pname=$fixdir/$(basename "$p")
	nfixes=$((nfixes + 1))
	echo "== $pname" >> "$log"
	while read -r e; do
		[ -z "$e" ] || problems+=("$pname: $e")
	done < <(cp_types "$p")
done

if [ ${#problems[@]} -eq 0 ]; then
	record PASS "$name" "no errors; the $allowed warnings that $allow_name records${seeds:+, each shared by its v7 original}; the $nfixes patches of $fixdir clean"
	exit 0
fi
printf '  %s\n' "${problems[@]}" >&2
info "checkpatch output: $log"
record FAIL "$name" "$(printf '%s; ' "${problems[@]}" | sed 's/; $//')"
exit $EX_TESTFAIL
