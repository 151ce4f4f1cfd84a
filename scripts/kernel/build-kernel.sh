#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Build the image of a configured kernel tree, out of tree: bzImage, or
# Image for ARCH=arm64 (lib.sh's arch_facts: make target, cross compiler).
#
# usage: scripts/kernel/build-kernel.sh TREE OBJDIR
#
# OBJDIR/.config must exist (scripts/kernel/kconfig.sh writes it).  The output of
# make goes to OBJDIR/build.log; on failure its last lines are printed and
# the script exits with EX_BUILD.  ccache is used when installed.
#
# Environment: ARCH (default x86_64), JOBS (default: number of CPUs).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 2 ] || die $EX_USAGE "usage: $0 TREE OBJDIR"
tree=$1 obj=$2
arch=${ARCH:-x86_64}
arch_facts "$arch"
jobs=${JOBS:-$(nproc)}
[ -f "$obj/.config" ] || die $EX_CONFIG "$obj/.config missing (run scripts/kernel/kconfig.sh)"
need_tools "apt-get install gcc make flex bison bc libelf-dev libssl-dev" gcc make flex bison bc
cc=$(kernel_cc)

log=$obj/build.log
start=$(date +%s)
info "building $obj/$ARCH_IMAGE (log: $log)"
# HOSTCC too: objtool and scripts/ are built afresh in each object
# directory, about 30 s of a cold build that ccache makes a few seconds.
cmd=(nice make -C "$tree" O="$(cd "$obj" && pwd)" ARCH="$arch" CC="$cc"
	HOSTCC="$(ARCH_CROSS='' kernel_cc)" -j"$jobs" "$ARCH_TARGET")
[ -z "$ARCH_CROSS" ] || cmd+=(CROSS_COMPILE="$ARCH_CROSS")
echo "+ ${cmd[*]}" >&2
if ! "${cmd[@]}" > "$log" 2>&1; then
	tail -n 30 "$log" >&2
	die $EX_BUILD "kernel build failed in $obj (full log: $log)"
fi
[ -f "$obj/$ARCH_IMAGE" ] || die $EX_BUILD "make $ARCH_TARGET left no $obj/$ARCH_IMAGE"
info "built $obj/$ARCH_IMAGE in $(( $(date +%s) - start )) s"
