#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Port check "cross": the other architectures' files the series changes
# compile with Debian's cross compilers, with no warning that the unpatched
# tree does not have.
#
# usage: scripts/checks/check-cross.sh [SERIES] [FRAGMENT...]
#
# One fragment per architecture in configs/cross/ (default: all).  Its header
# names the architecture ("# arch:"), the compiler prefix ("# cross-compile:"),
# the Debian package that provides it ("# package:", installed with apt-get
# when it is missing and this runs as root), the make targets ("# build:")
# and the objects the config must build ("# expect:").  Each fragment is
# built twice, unpatched and patched (the quilt tree of scripts/checks/check-apply.sh),
# and the warnings compared.  Objects only: no vmlinux.
# Records cross-NAME per fragment.  Exits 0 if all passed.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=scripts/checks/checks-lib.sh
. "$(dirname "$0")/checks-lib.sh"

checks_start "$PROJECT_TOP/configs/cross" "$@"
tree=$S/quilt
if [ ! -f "$tree/.pc/applied-patches" ]; then
	for f in "${frags[@]}"; do
		record FAIL "$name.cross-$(basename "$f" .config)" "cannot run: no patched tree in $tree (check-apply failed or did not run)"
	done
	exit $EX_PATCH
fi
pristine_tree

# header FRAGMENT KEY: the one value of "# KEY:".
header() { fragment_list "$1" "$2" | head -1; }

# ensure_compiler PREFIX PACKAGE: the cross gcc, from apt-get if need be.
ensure_compiler() {
	command -v "${1}gcc" >/dev/null && return 0
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		info "${1}gcc not found; installing $2"
		{ DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2" ||
		  { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2"; }
		} >&2 || true
	fi
	command -v "${1}gcc" >/dev/null
}

# build_in TREE OBJ LOG: configure and build the targets; 0 if it built.
build_in() {
	"$PROJECT_TOP/scripts/kernel/kconfig.sh" "$1" "$2" "$frag" >> "$3" 2>&1 || return $EX_CONFIG
	for e in "${expect[@]}"; do rm -f "$2/$e"; done
	kmake "$1" "$2" -k "${targets[@]}" >> "$3" 2>&1 || return $EX_BUILD
}

status=0
for frag in "${frags[@]}"; do
	cfg=$(basename "$frag" .config)
	export ARCH CROSS_COMPILE
	ARCH=$(header "$frag" arch)
	CROSS_COMPILE=$(header "$frag" cross-compile)
	package=$(header "$frag" package)
	mapfile -t targets < <(fragment_list "$frag" build)
	mapfile -t expect < <(fragment_list "$frag" expect)
	if [ -z "$ARCH" ] || [ -z "$CROSS_COMPILE" ] || [ ${#targets[@]} -eq 0 ]; then
		record FAIL "$name.cross-$cfg" "cannot run: $frag lacks an arch, cross-compile or build line"
		status=$EX_USAGE
		continue
	fi
	if ! ensure_compiler "$CROSS_COMPILE" "${package:-?}"; then
		record FAIL "$name.cross-$cfg" "cannot run: ${CROSS_COMPILE}gcc not found (apt-get install $package)"
		status=$EX_MISSING
		continue
	fi
	start=$SECONDS
	verdict=
	for side in base patched; do
		if [ $side = base ]; then src=$CHECKS_SRC obj=$CHECKS_DIR/cross/obj-$cfg-base
		else src=$tree obj=$S/obj-cross-$cfg
		fi
		log=$LOGS/cross-$cfg.$side.log
		: > "$log"
		info "cross: $cfg, $side (log: $log)"
		rc=0
		build_in "$src" "$obj" "$log" || rc=$?
		if [ $rc = $EX_CONFIG ]; then
			missing=$(grep -E '^  (CONFIG_|# CONFIG_)' "$log" | sed 's/^  //' | tr '\n' ';')
			verdict="$side tree: requested options did not survive olddefconfig: ${missing:-see $log}"
			status=$EX_CONFIG
			break
		elif [ $rc != 0 ]; then
			err=$(grep -m1 -E ': error: |Error [0-9]' "$log" | sed "s|$src/||g" | cut -c1-200)
			verdict="$side tree does not build: ${err:-see $log}"
			status=$EX_BUILD
			break
		fi
		for e in "${expect[@]}"; do
			[ -f "$obj/$e" ] || verdict="${verdict:+$verdict; }$side config does not build $e"
		done
		[ -z "$verdict" ] || { status=$EX_CONFIG; break; }
		warnings_of "$log" "$src" > "$LOGS/cross-$cfg.$side.warnings"
	done
	if [ -z "$verdict" ]; then
		new=$(new_warnings "$LOGS/cross-$cfg.base.warnings" "$LOGS/cross-$cfg.patched.warnings")
		if [ -n "$new" ]; then
			indent "  " <<< "$new" >&2
			verdict="$(echo "$new" | grep -c .) new warnings: $(echo "$new" | head -2 | tr '\n' ';')"
			status=$EX_BUILD
		fi
	fi
	if [ -z "$verdict" ]; then
		record PASS "$name.cross-$cfg" "${expect[*]} built with ${CROSS_COMPILE}gcc, no new warnings ($((SECONDS - start)) s)"
	else
		record FAIL "$name.cross-$cfg" "$verdict"
	fi
done
exit $status
