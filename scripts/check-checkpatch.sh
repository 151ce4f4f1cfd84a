#!/bin/bash
# Port check "checkpatch": the tree's scripts/checkpatch.pl reports no error
# on any patch of the series, and a warning only where the original v7 patch
# has the same warning and the allow-list names it.
#
# usage: scripts/check-checkpatch.sh [full|v7]
#
# Patch NNNN-*.patch with 1 <= NNNN <= 9 is the port of "[PATCH v7 N/9]" in
# the seeds ($SEEDS_DIR, default ../shared/seeds beside the project); its
# subject must be the seed's.  Every other patch (the prerequisite, the
# follow-up fixes) has no original, so it may have no warning at all.
#
# The allow-list ($CHECKPATCH_ALLOW, default patches/checkpatch-allow.txt)
# has one line per allowed warning: PATCH TYPE REASON...  An entry is only
# honoured if checkpatch gives the seed at least as many warnings of TYPE as
# the port; an entry the seed does not justify is itself a failure.
# Records one result, checkpatch.  Exits 0 on PASS, EX_TESTFAIL on FAIL.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/checks-lib.sh
. "$(dirname "$0")/checks-lib.sh"

checks_series "${1:-${SERIES:-full}}"
name=port-checks/$SERIES/checkpatch
seeds=${SEEDS_DIR:-$PROJECT_TOP/../shared/seeds}
allow=${CHECKPATCH_ALLOW:-$PROJECT_TOP/patches/checkpatch-allow.txt}
if [ ! -d "$seeds" ]; then
	record FAIL "$name" "cannot run: no seed patches in $seeds (set SEEDS_DIR)"
	exit $EX_MISSING
fi
pristine_tree
checkpatch=$CHECKS_SRC/scripts/checkpatch.pl
log=$LOGS/checkpatch.log
: > "$log"

# cp_types FILE: checkpatch's verdicts on FILE, one "LEVEL:TYPE" a line;
# its full output goes to the log.
cp_types() {
	local out
	out=$("$checkpatch" --root="$CHECKS_SRC" --no-summary --show-types \
		--terse "$1" 2>&1) || true
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

problems=()
allowed=0
declare -A used_entry=()
for p in $("$PROJECT_TOP/scripts/list-series.sh" "$SERIES"); do
	pname=$(basename "$p")
	echo "== $pname" >> "$log"
	mapfile -t port < <(cp_types "$p")
	num=$((10#${pname%%-*}))
	seed=
	if [ "$num" -ge 1 ] && [ "$num" -le 9 ]; then
		seed=$(seed_of "$num")
		if [ -z "$seed" ]; then
			problems+=("$pname: no seed [PATCH v7 $num/9] in $seeds")
			continue
		fi
		if [ "$(subject "$p")" != "$(subject "$seed")" ]; then
			problems+=("$pname: subject is not that of v7 $num/9 ('$(subject "$seed")')")
		fi
		echo "== seed $(basename "$seed")" >> "$log"
		mapfile -t orig < <(cp_types "$seed")
	else
		orig=()
	fi
	for e in "${port[@]}"; do
		case "$e" in
		ERROR:*) problems+=("$pname: ${e}"); continue ;;
		WARNING:*) ;;
		*) continue ;;
		esac
		type=${e#WARNING:}
		[ -n "${used_entry[$pname $type]:-}" ] && continue
		used_entry[$pname $type]=1
		n_port=$(printf '%s\n' "${port[@]}" | grep -cx "WARNING:$type" || true)
		n_seed=$( ((${#orig[@]})) && printf '%s\n' "${orig[@]}" | grep -cx "WARNING:$type" || true)
		n_seed=${n_seed:-0}
		listed=$(awk -v p="$pname" -v t="$type" '$1 == p && $2 == t' "$allow" 2>/dev/null)
		if [ -z "$listed" ]; then
			problems+=("$pname: WARNING:$type x$n_port, not in $(basename "$allow")")
		elif [ -z "$seed" ]; then
			problems+=("$pname: WARNING:$type is allow-listed, but the patch has no v7 original to justify it")
		elif [ "$n_seed" -lt "$n_port" ]; then
			problems+=("$pname: WARNING:$type x$n_port, the v7 original has it x$n_seed")
		else
			allowed=$((allowed + n_port))
		fi
	done
done

# Entries that no warning used: stale, or justified by nothing.
if [ -f "$allow" ]; then
	while read -r pname type _; do
		case "$pname" in ''|'#'*) continue ;; esac
		[ -n "${used_entry[$pname $type]:-}" ] && continue
		if ! grep -qxF "$pname" <(for p in $("$PROJECT_TOP/scripts/list-series.sh" full); do basename "$p"; done); then
			problems+=("$(basename "$allow"): $pname is not a patch of the series")
		elif grep -qxF "$pname" <(for p in $("$PROJECT_TOP/scripts/list-series.sh" "$SERIES"); do basename "$p"; done); then
			info "note: $(basename "$allow") allows $pname $type, which checkpatch no longer reports"
		fi
	done < "$allow"
fi

if [ ${#problems[@]} -eq 0 ]; then
	record PASS "$name" "no errors; $allowed allow-listed warnings that the v7 originals share"
	exit 0
fi
printf '  %s\n' "${problems[@]}" >&2
info "checkpatch output: $log"
record FAIL "$name" "$(printf '%s; ' "${problems[@]}" | sed 's/; $//')"
exit $EX_TESTFAIL
