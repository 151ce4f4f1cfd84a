# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# The EX_* codes are read by the scripts that source this file:
# shellcheck disable=SC2034
# Shared by the harness scripts: exit codes and messages.
#
# Every way a run can end has its own exit status, so that a caller (make,
# CI, a person) can tell "the test found a bug" from "the kernel crashed"
# from "the machine is missing a package".

EX_OK=0          # everything passed
EX_TESTFAIL=1    # a test ran and failed
EX_USAGE=2       # the script was called wrongly
EX_MISSING=3     # a package, tool or file is missing (e.g. QEMU not found)
EX_VERSION=4     # the kernel source is not 6.1.x
EX_PATCH=5       # a patch of the series does not apply
EX_CONFIG=6      # an option asked for by a config fragment did not survive
EX_BUILD=7       # the kernel or a tool failed to build
EX_CRASH=8       # the guest kernel crashed (panic, Oops, BUG, WARNING, ...)
EX_TIMEOUT=9     # the guest did not boot or finish in time
EX_DISK=10       # a disk image could not be created

PROJECT_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# die STATUS MESSAGE: one line on stderr, then exit with STATUS.
die() {
	local status=$1
	shift
	echo "$(basename "$0"): error: $*" >&2
	exit "$status"
}

# indent PREFIX: copy stdin with PREFIX before each line.
indent() {
	awk -v p="$1" '{ print p $0 }'
}

info() {
	echo "$(basename "$0"): $*" >&2
}

# run CMD...: print a command before running it, like kunit.py does.
run() {
	echo "+ $*" >&2
	"$@"
}

# BUILD_DIR: where kernel trees, objects and outputs go: the Makefile's
# $(B), which it exports as HARNESS_BUILD, or build/ of this checkout when
# a script runs alone.
BUILD_DIR=${HARNESS_BUILD:-$PROJECT_TOP/build}

# record PASS|FAIL NAME [REASON]: note one test result.  Every stage of
# `make test` records into the same file; scripts/report/summarize.sh counts them
# and prints the closing "N passed, M failed" line.
RESULTS_FILE=${RESULTS_FILE:-$BUILD_DIR/test-results.txt}
record() {
	local verdict=$1 name=$2
	shift 2
	mkdir -p "$(dirname "$RESULTS_FILE")"
	echo "$verdict $name${*:+: $*}" >> "$RESULTS_FILE"
	echo "$verdict $name${*:+: $*}"
}

# MAINLINE_CUT: the KUnit scripts' name for Debian's 6.12 (make
# kunit-mainline), mainline's dynamic SWIOTLB with none of our patches.
# No cut of the series: nothing applies it, so list-series.sh --cuts,
# the Makefile's SERIES and every other SERIES= refuse it.
MAINLINE_CUT=mainline
# MAINLINE_FIXES_CUT: the same 6.12 with our fixes for mainline's code
# (the Makefile's MAINLINE_FIXES, patches/6.12/series) and nothing else.
MAINLINE_FIXES_CUT=mainline-fixes

# is_mainline SERIES: whether SERIES is one of the two names of 6.12.
is_mainline() {
	[ "$1" = "$MAINLINE_CUT" ] || [ "$1" = "$MAINLINE_FIXES_CUT" ]
}

# need_cut [--mainline] SERIES: die with EX_USAGE unless SERIES is a cut
# of the series (scripts/series/list-series.sh --cuts owns the list), or,
# with --mainline (scripts/kunit/kunit-tree.sh and kunit-run.sh only),
# MAINLINE_CUT or MAINLINE_FIXES_CUT.
need_cut() {
	local cuts
	cuts=$("$PROJECT_TOP/scripts/series/list-series.sh" --cuts)
	if [ "$1" = --mainline ]; then
		cuts="$cuts $MAINLINE_CUT $MAINLINE_FIXES_CUT"
		shift
	fi
	[[ " $cuts " == *" $1 "* ]] || die $EX_USAGE "SERIES must be one of $cuts, not '$1'"
}

# need_tools HINT TOOL...: die with EX_MISSING naming the first TOOL that
# is not installed, and HINT (what to apt-get install).
need_tools() {
	local hint=$1 tool
	shift
	for tool in "$@"; do
		command -v "$tool" >/dev/null || die $EX_MISSING "$tool not found ($hint)"
	done
}

# kernel_cc: print the compiler for kernel builds, "ccache gcc" when
# ccache is installed, else gcc.  Kbuild passes absolute paths; relative to
# CCACHE_BASEDIR (the checkout) they are the same in every clone, so a
# second clone (or CI) hits the cache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PROJECT_TOP}
# Depend mode: on a miss ccache takes the headers from the compiler's own
# dependency file (kbuild passes -Wp,-MMD) instead of running the
# preprocessor first; a cold kernel build here took 539 s instead of 601.
# The price: no hits across configs that differ (the kernel without the
# shrinker gets none of the patched kernel's objects), as those came from
# the preprocessor's output.
export CCACHE_DEPEND=${CCACHE_DEPEND:-1}
kernel_cc() {
	if command -v ccache >/dev/null; then
		echo "ccache ${ARCH_CROSS:-}gcc"
	else
		echo "${ARCH_CROSS:-}gcc"
	fi
}

# arch_facts ARCH: what a kernel for ARCH needs, x86_64 (every kernel but
# make test-arm64's) or arm64: ARCH_CROSS, the compiler's prefix (Debian's
# cross compiler for arm64, gcc-aarch64-linux-gnu), ARCH_TARGET, make's
# target, and ARCH_IMAGE, its path in the object directory.
arch_facts() {
	case "$1" in
	x86_64) ARCH_CROSS='' ARCH_TARGET=bzImage ARCH_IMAGE=arch/x86/boot/bzImage ;;
	arm64) ARCH_CROSS=aarch64-linux-gnu- ARCH_TARGET=Image ARCH_IMAGE=arch/arm64/boot/Image ;;
	*) die $EX_USAGE "ARCH must be x86_64 or arm64, not '$1'" ;;
	esac
	if [ -n "$ARCH_CROSS" ]; then
		need_tools "apt-get install gcc-${ARCH_CROSS%-}" "${ARCH_CROSS}gcc"
	fi
}

# make_var NAME: NAME as the project's Makefile defines it (make -s
# print-NAME), for the SERIES of the environment: the Makefile owns the
# paths of the trees and kernels, and a script run without make asks it
# for the default it needs instead of writing the path again.
make_var() {
	project_make -s "print-$1"
}

# project_make ARG...: the project's Makefile, with nothing of a calling
# make's flags.
project_make() {
	MAKEFLAGS='' make --no-print-directory -C "$PROJECT_TOP" "$@"
}

# series_stamp PATCH...: one line per patch, its name and the md5sum of
# its text: what TREE/.series-applied holds (scripts/series/apply-series.sh),
# so that a tree patched with an older version of a patch is told apart.
series_stamp() {
	local p
	for p in "$@"; do
		echo "$(basename "$p") $(md5sum < "$p" | cut -c1-32)"
	done
}

# config_value TREE CONFIG OPTION: CONFIG_OPTION in the file CONFIG, as
# TREE's own scripts/config -s prints it (y, m, a number, a string without
# its quotes), or n when it is not set or absent.
config_value() {
	local v
	v=$("$1/scripts/config" --file "$2" -s "$3") || return
	if [ "$v" = undef ]; then echo n; else echo "$v"; fi
}

# debian_config_local XZ OUT LABEL: Debian's kernel config XZ (package
# linux-config-6.1) written to OUT without the string settings that name
# files of Debian's own build tree (debian/...: CONFIG_SYSTEM_TRUSTED_KEYS,
# CONFIG_SYSTEM_REVOCATION_KEYS, CONFIG_MODULE_SIG_KEY), so that
# olddefconfig gives the upstream defaults ("" for the key lists, and
# certs/signing_key.pem, generated by the build, for the signing key): a
# local build has no debian/certs/.  Each dropped line is said on stderr.
debian_config_local() {
	local line
	xzcat "$1" | while IFS= read -r line; do
		case "$line" in
		CONFIG_*=\"*debian/*\")
			echo "  $3: dropped $line (a file of Debian's build tree; olddefconfig gives the default)" >&2
			;;
		*) echo "$line" ;;
		esac
	done > "$2"
}
