# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Shared by the port checks (scripts/checks/check-*.sh, `make port-checks`):
# where their trees live, how they run make, and how they compare warnings.
# Source it after scripts/lib.sh.  Each check takes SERIES, a cut of the
# series (scripts/series/list-series.sh --cuts; default full), which
# checks_series validates.
#
# Layout under $CHECKS_DIR (default build/checks):
#   src/                the unpatched 6.1 tree (scripts/series/get-source.sh)
#   SERIES/quilt/       a copy with the series pushed by quilt
#   SERIES/git/         a git-initialised copy with the series applied by git am
#   SERIES/obj-NAME/    one O= directory per kernel config
#   SERIES/logs/        every make, quilt, git and checkpatch log
# The copies are hard-linked to src/ (cp -al): quilt, patch and git replace a
# file they change instead of writing into it, so src/ stays unpatched;
# assert_unshared checks that after each apply.

CHECKS_DIR=${CHECKS_DIR:-$BUILD_DIR/checks}
CHECKS_SRC=$CHECKS_DIR/src
JOBS=${JOBS:-$(nproc)}

# checks_series SERIES: validate SERIES (a cut of list-series.sh) and set
# S, the work directory of that series, and LOGS.
checks_series() {
	need_cut "$1"
	SERIES=$1
	S=$CHECKS_DIR/$SERIES
	LOGS=$S/logs
	mkdir -p "$LOGS"
}

# checks_fragments DIR [FRAGMENT...]: print the fragments named on the
# command line, or else every DIR/*.config, one a line.
checks_fragments() {
	local dir=$1
	shift
	if [ $# -gt 0 ]; then
		printf '%s\n' "$@"
	else
		printf '%s\n' "$dir"/*.config
	fi
}

# checks_start DIR [SERIES [FRAGMENT...]]: the start of a check that builds
# config fragments: checks_series SERIES (default $SERIES, or full), name
# (port-checks.SERIES, the prefix of its records) and the array frags
# (checks_fragments DIR FRAGMENT...).
checks_start() {
	local dir=$1
	shift
	checks_series "${1:-${SERIES:-full}}"
	shift || true
	# shellcheck disable=SC2034 # read by the caller
	name=port-checks.$SERIES
	# shellcheck disable=SC2034 # read by the caller
	mapfile -t frags < <(checks_fragments "$dir" "$@")
}

# pristine_tree: make sure $CHECKS_SRC holds the unpatched 6.1 tree.
pristine_tree() {
	"$PROJECT_TOP/scripts/series/get-source.sh" "$CHECKS_SRC" ||
		die "$EX_MISSING" "cannot get the unpatched tree into $CHECKS_SRC"
}

# copy_tree DEST: a fresh hard-linked copy of the unpatched tree.
copy_tree() {
	rm -rf "$1"
	mkdir -p "$1"
	cp -al "$CHECKS_SRC/." "$1"
	rm -f "$1/.extracted"
}

# assert_unshared TREE FILE...: the patched FILEs of TREE must no longer be
# hard links into the unpatched tree; if one is, the tool wrote into it and
# $CHECKS_SRC is no longer pristine.
assert_unshared() {
	local tree=$1 f
	shift
	for f in "$@"; do
		{ [ -e "$tree/$f" ] && [ -e "$CHECKS_SRC/$f" ]; } || continue
		if [ "$tree/$f" -ef "$CHECKS_SRC/$f" ] &&
		   ! cmp -s "$tree/$f" "$CHECKS_SRC/$f"; then
			rm -f "$CHECKS_SRC/.extracted"
			die "$EX_PATCH" "$f was patched in place in $CHECKS_SRC; it is no longer pristine, run again to extract it afresh"
		fi
	done
}

# series_files SERIES: the files the series changes, one a line.
series_files() {
	# shellcheck disable=SC2046 # patch paths have no spaces
	sed -n 's|^+++ b/||p' $("$PROJECT_TOP/scripts/series/list-series.sh" "$1") | sort -u
}

# kmake TREE OBJDIR ARGS...: make in TREE with output in OBJDIR, niced,
# with ccache when installed, for the host programs too (objtool and
# scripts/ are built afresh in each of the checks' object directories).
# ARCH and CROSS_COMPILE come from the environment (default: native x86_64).
kmake() {
	local tree=$1 obj=$2 cc hostcc
	shift 2
	cc=${CROSS_COMPILE:-}gcc
	command -v ccache >/dev/null && cc="ccache $cc"
	hostcc=$(kernel_cc)
	mkdir -p "$obj"
	run nice make -C "$tree" O="$(cd "$obj" && pwd)" ARCH="${ARCH:-x86_64}" \
		${CROSS_COMPILE:+CROSS_COMPILE="$CROSS_COMPILE"} CC="$cc" \
		HOSTCC="$hostcc" -j"$JOBS" "$@"
}

# warnings_of LOG TREE: the compiler and kernel-doc warnings and errors in a
# build log (objtool's and modpost's too), one a line, with TREE's path, line
# and column numbers and code offsets removed, so that the same warning
# compares equal before and after a patch moves it.
warnings_of() {
	local tree
	tree=$(cd "$2" && pwd)
	grep -E ': (warning|error): |^(WARNING|ERROR): ' "$1" |
		sed -e "s|$tree/||g" -e 's|^\./||' \
		    -e 's|^\([^: ]*\):[0-9]*\(:[0-9]*\)\?: |\1: |' \
		    -e 's|+0x[0-9a-f]*\(/0x[0-9a-f]*\)\?||g' |
		LC_ALL=C sort || true
}

# new_warnings BEFORE AFTER: the lines of AFTER that BEFORE does not have,
# counted as multisets (a warning that appears twice where the unpatched
# tree had it once is new).  Both files sorted with LC_ALL=C.
new_warnings() {
	LC_ALL=C comm -13 "$1" "$2"
}

# fragment_list FRAGMENT KEY: the words after "# KEY:" in a config fragment
# (e.g. "# build: kernel/dma/ drivers/xen/").
fragment_list() {
	sed -n "s|^# $2:[[:space:]]*||p" "$1" | tr -s ' \t' '\n' | grep -v '^$' || true
}

# strict_config CONFIG FRAGMENT...: scripts/kernel/kconfig.sh lets an absent option
# meet "# CONFIG_X is not set"; the coverage configs ask for options that
# must exist, so each such line must be in CONFIG as it is.
strict_config() {
	local config=$1 missing=0 want
	shift
	while read -r want; do
		case "$want" in
		"# CONFIG_"*" is not set") ;;
		*) continue ;;
		esac
		if ! grep -qxF "$want" "$config"; then
			echo "  $want: the option is absent (this tree does not have it, or its dependencies are unmet)" >&2
			missing=$((missing + 1))
		fi
	done < <(cat "$@")
	[ "$missing" -eq 0 ]
}
