#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Port check "bisect": the tree builds after each patch of the series, with
# no warning that the unpatched tree does not have, and vmlinux links at the
# end.
#
# usage: scripts/checks/check-bisect.sh [SERIES]
#
# Works in the git tree of scripts/checks/check-apply.sh: checks out the unpatched
# base, then each patch's commit in turn, and rebuilds incrementally in two
# O= directories:
#   dynamic-n  configs/coverage/dynamic-n.config, at every step;
#   dynamic-y  configs/coverage/dynamic-y.config, from the patch that adds
#              CONFIG_SWIOTLB_DYNAMIC on (before it the option does not
#              exist, and the config would be dynamic-n's).
# Each step builds with W=1 the "# build:" targets of the fragment and the
# object of every .c file the series changes outside other architectures'
# arch/ directories; an object that does not build even unpatched is dropped
# with a note.  Warnings (compiler, kernel-doc, objtool) are compared, without
# line numbers, with those of the unpatched tree.  At the end each directory
# builds vmlinux.
#
# Records bisect-dynamic-n, bisect-dynamic-y, vmlinux-dynamic-n and
# vmlinux-dynamic-y.  BISECT_VMLINUX lists the configs whose vmlinux is
# linked (unset: both; set and empty: none).  make test links none: its
# build-patched stage links the full series with DYNAMIC=y (in a larger
# config), and a DYNAMIC=n link is a cold build of a whole kernel (the
# series changes include/linux/device.h, so ccache has none of its
# objects); make port-checks and make check-bisect link both.
# A link is a cold build of the whole config (4-5 min)
# where a step is a few objects behind make's serial start, so the links
# run alongside the steps, at a lower priority, in a git worktree at the
# last patch (SERIES/git-vmlinux) with object directories of their own
# (SERIES/obj-vmlinux-CFG), and are judged at the end.
# Exits 0 if all passed, EX_BUILD otherwise.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=scripts/checks/checks-lib.sh
. "$(dirname "$0")/checks-lib.sh"

checks_series "${1:-${SERIES:-full}}"
name=port-checks.$SERIES
tree=$S/git
frag_n=$PROJECT_TOP/configs/coverage/dynamic-n.config
cfgs=(dynamic-n dynamic-y)
cannot() {
	local c
	for c in "${cfgs[@]}"; do
		record FAIL "$name.bisect-$c" "cannot run: $1"
		record FAIL "$name.vmlinux-$c" "cannot run: $1"
	done
	exit "$2"
}
{ [ -f "$S/git-commits" ] && git -C "$tree" rev-parse -q --verify base >/dev/null; } ||
	cannot "no git tree with the series in $tree (check-apply failed or did not run)" $EX_PATCH
pristine_tree
export ARCH=x86_64
unset CROSS_COMPILE

# Targets: the fragment's, and the series' .c files that x86 can compile.
mapfile -t targets < <( { fragment_list "$frag_n" build
	series_files "$SERIES" | grep -E '\.c$' |
		grep -vE '^arch/' | sed 's/\.c$/.o/'
	series_files "$SERIES" | grep -E '^arch/x86/.*\.c$' | sed 's/\.c$/.o/'
	} | awk '!seen[$0]++')
[ ${#targets[@]} -gt 0 ] || cannot "no build targets in $frag_n" $EX_USAGE

git_() { git -C "$tree" "$@"; }
has_dynamic() { grep -q '^config SWIOTLB_DYNAMIC$' "$tree/kernel/dma/Kconfig"; }

# configure CFG: write obj-CFG/.config from its fragment (without the
# SWIOTLB_DYNAMIC line while the tree has no such option).
configure() {
	local cfg=$1 frag="$PROJECT_TOP/configs/coverage/$1.config" use
	use=$S/obj-$cfg.fragment
	if has_dynamic; then
		cp "$frag" "$use"
	else
		grep -v 'CONFIG_SWIOTLB_DYNAMIC[= ]' "$frag" > "$use"
	fi
	"$PROJECT_TOP/scripts/kernel/kconfig.sh" "$tree" "$S/obj-$cfg" "$use" \
		>> "$LOGS/bisect-$cfg.kconfig.log" 2>&1 &&
	{ ! has_dynamic || strict_config "$S/obj-$cfg/.config" "$use"; }
}

# build CFG STEP: build the targets W=1 in obj-CFG; the warnings go to
# LOGS/bisect-CFG.STEP.warnings.  Returns make's status.
build() {
	local cfg=$1 step=$2 log=$LOGS/bisect-$1.$2.log rc=0
	kmake "$tree" "$S/obj-$cfg" W=1 -k "${targets[@]}" > "$log" 2>&1 || rc=$?
	warnings_of "$log" "$tree" > "$LOGS/bisect-$cfg.$step.warnings"
	return $rc
}

# first_error LOG: the first compiler or linker error of a build log.
first_error() {
	{ grep -m1 -E ': (fatal )?error: |undefined reference|multiple definition' "$1" ||
	  grep -m1 -E 'Error [0-9]+' "$1"; } | sed -e "s|$tree/||g" -e "s|$S/git-vmlinux/||g" | cut -c1-200
}

# start_link CFG: configure SERIES/obj-vmlinux-CFG in the worktree and build
# vmlinux there in the background (link_pid[CFG]); a config that does not
# survive olddefconfig is noted in link_err[CFG] instead.
declare -A link_pid=() link_err=()
start_link() {
	local cfg=$1 wt=$S/git-vmlinux obj=$S/obj-vmlinux-$1
	local frag=$PROJECT_TOP/configs/coverage/$1.config log=$LOGS/vmlinux-$1.log
	rm -rf "$obj"
	if ! "$PROJECT_TOP/scripts/kernel/kconfig.sh" "$wt" "$obj" "$frag" > "$log" 2>&1 ||
	   ! strict_config "$obj/.config" "$frag" 2>> "$log"; then
		link_err[$cfg]="the config does not survive olddefconfig at the last patch (log: $log)"
		return
	fi
	info "vmlinux with $cfg at the end of the series, alongside the steps (log: $log)"
	(
		renice -n 9 -p "$BASHPID" > /dev/null
		start=$SECONDS rc=0
		kmake "$wt" "$obj" vmlinux || rc=$?
		echo "$((SECONDS - start))" > "$obj/.link-seconds"
		exit $rc
	) >> "$log" 2>&1 &
	link_pid[$cfg]=$!
}

rm -rf "$S"/obj-dynamic-*
rm -f "$LOGS"/bisect-*
declare -A fails=() active=() from=() nsteps=()
# fail CFG MESSAGE: note a failing step; the steps after it are still built,
# so that every patch that breaks the build or adds a warning is named.
fail() { fails[$1]="${fails[$1]:+${fails[$1]}; }$2"; }

# --- the unpatched tree: configure, prepare, baseline warnings ----------
info "bisect: unpatched base (logs: $LOGS/bisect-*)"
git_ checkout -q -f base
configure dynamic-n || cannot "configs/coverage/dynamic-n.config does not configure the unpatched tree (see $LOGS/bisect-dynamic-n.kconfig.log)" $EX_CONFIG
# Single objects that do not build unpatched are not the series' fault.
if ! build dynamic-n 0000-base; then
	kept=()
	for t in "${targets[@]}"; do
		case "$t" in
		*/) kept+=("$t") ;;
		*) if [ -f "$S/obj-dynamic-n/$t" ]; then kept+=("$t")
		   else info "note: $t does not build unpatched in this config; dropped"
		   fi ;;
		esac
	done
	targets=("${kept[@]}")
	build dynamic-n 0000-base ||
		cannot "the unpatched tree does not build: $(first_error "$LOGS/bisect-dynamic-n.0000-base.log")" $EX_BUILD
fi
baseline=$LOGS/bisect.baseline.warnings
cp "$LOGS/bisect-dynamic-n.0000-base.warnings" "$baseline"
active[dynamic-n]=1
info "bisect targets: ${targets[*]}; $(grep -c . "$baseline" || true) warnings unpatched"

# --- vmlinux at the last patch, built while the steps run ----------------
links=()
for cfg in "${cfgs[@]}"; do
	[[ " ${BISECT_VMLINUX-dynamic-n dynamic-y} " == *" $cfg "* ]] && links+=("$cfg")
done
if [ ${#links[@]} -gt 0 ]; then
	rm -rf "$S/git-vmlinux"
	git_ worktree prune
	git_ worktree add -q -f --detach "$S/git-vmlinux" "$(tail -1 "$S/git-commits" | cut -d' ' -f1)"
	for cfg in "${links[@]}"; do start_link "$cfg"; done
fi

# --- each patch ---------------------------------------------------------
while read -r sha patch; do
	info "bisect: $patch"
	git_ checkout -q -f "$sha"
	kconfig_changed=$(git_ diff --name-only "$sha~1" "$sha" | grep -c 'Kconfig' || true)
	if [ -z "${active[dynamic-y]:-}" ] && has_dynamic; then
		active[dynamic-y]=1 from[dynamic-y]=$patch
		kconfig_changed=1
	fi
	step=()
	for cfg in "${cfgs[@]}"; do
		[ -n "${active[$cfg]:-}" ] || continue
		if [ "$kconfig_changed" -gt 0 ] || [ ! -f "$S/obj-$cfg/.config" ]; then
			if ! configure "$cfg"; then
				fail "$cfg" "$patch: the config does not survive olddefconfig (see $LOGS/bisect-$cfg.kconfig.log)"
				continue
			fi
		fi
		step+=("$cfg")
	done
	# The configs build side by side: a step is a few objects behind make's
	# serial start (prepare, syncconfig), so two builds at once keep both
	# CPUs busy where one after the other would leave one idle.
	declare -A pid=()
	for cfg in "${step[@]}"; do
		build "$cfg" "$patch" &
		pid[$cfg]=$!
	done
	for cfg in "${step[@]}"; do
		nsteps[$cfg]=$(( ${nsteps[$cfg]:-0} + 1 ))
		if ! wait "${pid[$cfg]}"; then
			fail "$cfg" "$patch: build failed: $(first_error "$LOGS/bisect-$cfg.$patch.log") (log: $LOGS/bisect-$cfg.$patch.log)"
			continue
		fi
		new=$(new_warnings "$baseline" "$LOGS/bisect-$cfg.$patch.warnings")
		if [ -n "$new" ]; then
			indent "  $cfg $patch: " <<< "$new" >&2
			fail "$cfg" "$patch: $(echo "$new" | grep -c .) new warnings: $(echo "$new" | head -2 | tr '\n' ';' | sed 's/;$//')"
		fi
	done
done < "$S/git-commits"

status=0
for cfg in "${cfgs[@]}"; do
	if [ -z "${active[$cfg]:-}" ]; then
		[ -z "${link_pid[$cfg]:-}" ] || wait "${link_pid[$cfg]}" || true
		record FAIL "$name.bisect-$cfg" "no patch of the series adds config SWIOTLB_DYNAMIC to kernel/dma/Kconfig"
		record FAIL "$name.vmlinux-$cfg" "not built: no patch adds SWIOTLB_DYNAMIC"
		status=$EX_BUILD
		continue
	fi
	if [ -n "${fails[$cfg]:-}" ]; then
		record FAIL "$name.bisect-$cfg" "${fails[$cfg]}"
		status=$EX_BUILD
	else
		record PASS "$name.bisect-$cfg" "${from[$cfg]:+from $(echo "${from[$cfg]}" | cut -c1-4) on: }${nsteps[$cfg]} patches, ${#targets[@]} targets with W=1, no new warnings"
	fi
	log=$LOGS/vmlinux-$cfg.log
	if [ -n "${link_err[$cfg]:-}" ]; then
		record FAIL "$name.vmlinux-$cfg" "${link_err[$cfg]}"
		status=$EX_BUILD
	elif [ -z "${link_pid[$cfg]:-}" ]; then
		info "vmlinux with $cfg: not linked here (BISECT_VMLINUX='${BISECT_VMLINUX-}')"
	elif wait "${link_pid[$cfg]}"; then
		record PASS "$name.vmlinux-$cfg" "links after the last patch ($(cat "$S/obj-vmlinux-$cfg/.link-seconds") s, alongside the steps)"
	else
		record FAIL "$name.vmlinux-$cfg" "$(first_error "$log") (log: $log)"
		status=$EX_BUILD
	fi
done
[ ${#links[@]} -eq 0 ] || git_ worktree remove --force "$S/git-vmlinux"
exit $status
