#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Port check "config coverage": the whole series builds, on x86_64, in each
# config of configs/coverage/ (or the fragments named on the command line).
#
# usage: scripts/checks/check-coverage.sh [SERIES] [FRAGMENT...]
#
# For each fragment: configure (scripts/kernel/kconfig.sh: every requested option
# must survive olddefconfig, and a "# CONFIG_X is not set" line must name an
# option the tree has), then build its "# build:" targets and the object of
# every x86 .c file the series changes, and check that each "# expect:"
# object was built; a directory target builds only what the config enables,
# so that proves the config reaches the code.  Any compiler warning in that
# build is a failure (the unpatched tree has none at W=0 in these configs).
#
# Builds in the git tree of scripts/checks/check-apply.sh at its last commit, in
# O=SERIES/obj-NAME: after scripts/checks/check-bisect.sh, dynamic-n and dynamic-y
# are configured and prepared; their targets build again, without W=1.
# Records coverage-NAME per fragment.  Exits 0 if all passed.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=scripts/checks/checks-lib.sh
. "$(dirname "$0")/checks-lib.sh"

checks_start "$PROJECT_TOP/configs/coverage" "$@"
tree=$S/git
export ARCH=x86_64
unset CROSS_COMPILE

if ! [ -f "$S/git-commits" ]; then
	for f in "${frags[@]}"; do
		record FAIL "$name.coverage-$(basename "$f" .config)" "cannot run: no git tree with the series in $tree (check-apply failed or did not run)"
	done
	exit $EX_PATCH
fi
pristine_tree
last=$(tail -1 "$S/git-commits" | cut -d' ' -f1)
git -C "$tree" checkout -q -f "$last"

# cover FRAGMENT: configure, build and judge one fragment; records its
# result and returns its status.
cover() {
	local frag=$1 cfg obj log missing targets expect kept bad t e err start warnings
	cfg=$(basename "$frag" .config)
	obj=$S/obj-$cfg
	log=$LOGS/coverage-$cfg.log
	info "coverage: $cfg (log: $log)"
	: > "$log"
	if ! "$PROJECT_TOP/scripts/kernel/kconfig.sh" "$tree" "$obj" "$frag" >> "$log" 2>&1 ||
	   ! strict_config "$obj/.config" "$frag" 2>> "$log"; then
		missing=$(grep -E '^  (CONFIG_|# CONFIG_)' "$log" | sed 's/^  //' | tr '\n' ';' | sed 's/;$//')
		record FAIL "$name.coverage-$cfg" "requested options did not survive olddefconfig: ${missing:-see $log}"
		return $EX_CONFIG
	fi
	mapfile -t targets < <( { fragment_list "$frag" build
		series_files "$SERIES" | grep -E '\.c$' | grep -vE '^arch/' | sed 's/\.c$/.o/'
		series_files "$SERIES" | grep -E '^arch/x86/.*\.c$' | sed 's/\.c$/.o/'
		} | awk '!seen[$0]++')
	mapfile -t expect < <(fragment_list "$frag" expect)
	# An expected object must come from a directory target: built as a
	# target of its own, it would exist whatever the config says.
	kept=() bad=()
	for t in "${targets[@]}"; do
		if printf '%s\n' "${expect[@]}" | grep -qxF "$t"; then
			fragment_list "$frag" build | grep -qxF "$t" && bad+=("$t")
		else
			kept+=("$t")
		fi
	done
	targets=("${kept[@]}")
	if [ ${#bad[@]} -gt 0 ]; then
		record FAIL "$name.coverage-$cfg" "cannot prove that the config builds ${bad[*]}: a '# build:' target, list its directory instead"
		return $EX_USAGE
	fi
	for e in "${expect[@]}"; do rm -f "$obj/$e"; done
	start=$SECONDS
	if ! kmake "$tree" "$obj" -k "${targets[@]}" >> "$log" 2>&1; then
		err=$(grep -m1 -E ': error: |Error [0-9]' "$log" | sed "s|$tree/||g" | cut -c1-200)
		record FAIL "$name.coverage-$cfg" "build failed: ${err:-see $log}"
		return $EX_BUILD
	fi
	missing=()
	for e in "${expect[@]}"; do
		[ -f "$obj/$e" ] || missing+=("$e")
	done
	warnings=$(warnings_of "$log" "$tree")
	if [ ${#missing[@]} -gt 0 ]; then
		record FAIL "$name.coverage-$cfg" "the config does not build ${missing[*]}"
		return $EX_CONFIG
	elif [ -n "$warnings" ]; then
		indent "  " <<< "$warnings" >&2
		record FAIL "$name.coverage-$cfg" "$(echo "$warnings" | grep -c .) warnings: $(echo "$warnings" | head -2 | tr '\n' ';')"
		return $EX_BUILD
	else
		record PASS "$name.coverage-$cfg" "${#targets[@]} targets, ${expect[*]} built, no warnings ($((SECONDS - start)) s)"
	fi
}

# Two fragments at a time, each in an object directory of its own: a
# fragment's build is mostly make's serial start (kconfig, prepare, objtool)
# and a few objects, so one alone leaves a CPU idle.
status=0
for ((i = 0; i < ${#frags[@]}; i += 2)); do
	pids=()
	for frag in "${frags[@]:i:2}"; do
		cover "$frag" &
		pids+=("$!")
	done
	for pid in "${pids[@]}"; do
		wait "$pid" || status=$?
	done
done
exit $status
