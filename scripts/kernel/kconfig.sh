#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Configure a kernel: tinyconfig, then the fragments, then olddefconfig, then
# check that every option the fragments ask for survived (as kunit.py does).
#
# usage: scripts/kernel/kconfig.sh [--in-tree] TREE OBJDIR FRAGMENT...
#
# --in-tree puts the objects in TREE/obj-NAME (NAME: OBJDIR's last
# component) and makes OBJDIR a symlink to it, unless OBJDIR is already a
# directory of its own.  Kbuild names the sources "../FILE" when O= is a
# direct subdirectory of the tree, and by their absolute path otherwise.
# With relative names the compiler's command line and output are the same
# in every tree, so ccache builds the patched and KUnit kernels from the
# unpatched kernel's objects wherever neither the series nor the config
# changed a file.
#
# Fragments are merged in the order given, with the tree's own
# scripts/kconfig/merge_config.sh.  An option that olddefconfig dropped or
# changed (usually an unmet dependency, or an option the tree does not have)
# is named and the script exits with EX_CONFIG.  Writes OBJDIR/.config.
#
# Environment: ARCH (default x86_64), DRY_RUN=1 prints the merged .config
# and the check, and leaves OBJDIR/.config as it is now.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

in_tree=0
if [ "${1:-}" = --in-tree ]; then
	in_tree=1
	shift
fi
[ $# -ge 3 ] || die $EX_USAGE "usage: $0 [--in-tree] TREE OBJDIR FRAGMENT..."
tree=$(cd "$1" && pwd) || die $EX_MISSING "no kernel tree at $1"
obj=$2
shift 2
arch=${ARCH:-x86_64}
arch_facts "$arch"
for f in "$@"; do
	[ -f "$f" ] || die $EX_MISSING "config fragment $f not found"
done
[ -x "$tree/scripts/kconfig/merge_config.sh" ] ||
	die $EX_MISSING "$tree/scripts/kconfig/merge_config.sh not found"

# check_config CONFIG FRAGMENT...: name each requested option that is not
# in CONFIG with the requested value.
check_config() {
	local config=$1 missing=0 want name have
	shift
	while read -r want; do
		case "$want" in
		CONFIG_*=*) name=${want%%=*} ;;
		"# CONFIG_"*" is not set") name=${want#\# }; name=${name%% *} ;;
		*) continue ;;
		esac
		have=$(grep -E "^($name=|# $name is not set)" "$config" || true)
		# "not set" is asked for and also met by an option that is absent.
		if [ "$have" != "$want" ] &&
		   ! { [ "${want#\#}" != "$want" ] && [ -z "$have" ]; }; then
			echo "  $want: got ${have:-nothing (option absent)}" >&2
			missing=$((missing + 1))
		fi
	done < <(cat "$@")
	[ "$missing" -eq 0 ] && return 0
	echo "  (probably unmet dependencies, or an option this tree does not have)" >&2
	return 1
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make_=(make -s -C "$tree" O="$tmp" ARCH="$arch")
# Kconfig asks the compiler what it supports: the cross compiler's answer
[ -z "$ARCH_CROSS" ] || make_+=(CROSS_COMPILE="$ARCH_CROSS")
run "${make_[@]}" tinyconfig >/dev/null
run "$tree/scripts/kconfig/merge_config.sh" -m -O "$tmp" "$tmp/.config" "$@" \
	> "$tmp/merge.log" 2>&1 ||
	{ cat "$tmp/merge.log" >&2; die $EX_CONFIG "merge_config.sh failed"; }
run "${make_[@]}" olddefconfig >/dev/null
if [ "${DRY_RUN:-0}" = 1 ]; then
	cat "$tmp/.config"
	check_config "$tmp/.config" "$@" || die $EX_CONFIG "requested options did not survive olddefconfig"
	exit 0
fi
check_config "$tmp/.config" "$@" ||
	die $EX_CONFIG "requested options did not survive olddefconfig (see above)"
if [ "$in_tree" = 1 ] && { [ -L "$obj" ] || [ ! -e "$obj" ]; }; then
	mkdir -p "$tree/obj-$(basename "$obj")" "$(dirname "$obj")"
	ln -sfn "$tree/obj-$(basename "$obj")" "$obj"
fi
mkdir -p "$obj"
obj=$(cd "$obj" && pwd)
# Only replace .config when it changed: kbuild then has nothing to redo.
if ! cmp -s "$tmp/.config" "$obj/.config"; then
	cp "$tmp/.config" "$obj/.config"
	info "wrote $obj/.config"
else
	info "$obj/.config unchanged"
	touch "$obj/.config"
fi
