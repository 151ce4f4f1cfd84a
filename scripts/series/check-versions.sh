#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Apply the series to every linux-source-6.1 that the archive serves, and
# build kernel/dma/ and the QEMU kernel of each.
#
# usage: scripts/series/check-versions.sh [VERSION...]
#
# VERSION is a Debian package version of linux-source-6.1 ("6.1.176-1");
# without one, every version that `apt-cache madison linux-source-6.1`
# lists (run apt-get update first to see the newest).  For each version,
# in build/versions/VERSION/:
# - `apt-get download linux-source-6.1=VERSION` (the package is not
#   installed) and its tarball taken out with dpkg-deb;
# - the tree extracted, and the full series pushed with
#   `quilt push -a --fuzz=0`: every hunk must apply without fuzz; hunks at
#   an offset are counted;
# - the patched kernel's config (FRAGMENTS, the fragments in the order
#   the Makefile gives them: make check-versions passes its
#   PATCHED_FRAGMENTS), then `make kernel/dma/` with its warnings counted,
#   then the bzImage.
# Records versions.VERSION.download, .apply, .dma and .kernel, and writes
# build/versions/summary.md, a table of the results.  The trees go once a
# version is done (KEEP_TREES=1 keeps them); the logs and each version's
# tarball stay, so that a second run downloads nothing.  DOWNLOAD_ONLY=1
# fetches the tarballs and stops.
#
# Exit status: EX_OK if every version passed, EX_PATCH if a patch did not
# apply to one, EX_BUILD if one did not build, EX_MISSING if a package
# could not be had.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

top=$PROJECT_TOP
out=${VERSIONS_DIR:-$BUILD_DIR/versions}
package=linux-source-6.1
[ -n "${FRAGMENTS:-}" ] ||
	die $EX_USAGE "FRAGMENTS is not set: run make check-versions, which passes the patched kernel's fragments"
read -r -a frags <<< "$FRAGMENTS"
need_tools "apt-get install quilt dpkg apt" quilt dpkg-deb apt-get apt-cache

if [ $# -gt 0 ]; then
	versions=("$@")
else
	mapfile -t versions < <(apt-cache madison "$package" | awk -F'|' '{ gsub(/ /, "", $2); print $2 }' | sort -uV)
	[ ${#versions[@]} -gt 0 ] ||
		die $EX_MISSING "apt-cache madison lists no $package (run apt-get update)"
fi
info "versions: ${versions[*]}"
mkdir -p "$out"
status=$EX_OK
failed=()
fail() { # STATUS: keep the first failure's status; note the version
	[ "$status" != "$EX_OK" ] || status=$1
	failed+=("$ver")
}
summary=$out/summary.md
{
	echo "| $package | tree | quilt push -a --fuzz=0 | kernel/dma/ | QEMU kernel |"
	echo "|---|---|---|---|---|"
} > "$summary"

for ver in "${versions[@]}"; do
	d=$out/$ver
	logs=$d/logs
	rm -rf "$d/src" "$d/deb"
	mkdir -p "$logs"
	name=versions.$ver
	row_apply="-" row_dma="-" row_kernel="-" tree_ver="-"

	# --- the package, without installing it: only its tarball is kept ---
	tarball=$d/linux-source-6.1.tar.xz
	if [ ! -f "$tarball" ]; then
		mkdir -p "$d/deb"
		if ! (cd "$d/deb" && apt-get download "$package=$ver") > "$logs/download.log" 2>&1; then
			record FAIL "$name.download" "apt-get download $package=$ver failed (see $logs/download.log)"
			echo "| $ver | - | not downloaded | - | - |" >> "$summary"
			fail $EX_MISSING
			continue
		fi
		dpkg-deb --fsys-tarfile "$d"/deb/*.deb |
			tar -x -O ./usr/src/linux-source-6.1.tar.xz > "$tarball.part"
		mv "$tarball.part" "$tarball"
		rm -rf "$d/deb"
	fi
	[ "${DOWNLOAD_ONLY:-0}" = 1 ] && continue
	if ! LINUX_TARBALL=$tarball \
		"$top/scripts/series/get-source.sh" "$d/src" > "$logs/extract.log" 2>&1; then
		record FAIL "$name.download" "cannot extract the tree (see $logs/extract.log)"
		echo "| $ver | - | not extracted | - | - |" >> "$summary"
		fail $EX_MISSING
		continue
	fi
	tree_ver=$(MAKEFLAGS='' make -s -C "$d/src" kernelversion)
	record PASS "$name.download" "Linux $tree_ver"

	# --- the series, no fuzz ---
	if (cd "$d/src" && QUILT_PATCHES=$top/patches QUILT_SERIES=$top/series \
		quilt --quiltrc=- push -a --fuzz=0) > "$logs/quilt.log" 2>&1; then
		n=$(grep -c '^Applying patch' "$logs/quilt.log" || true)
		offsets=$(grep -c 'succeeded at .* (offset' "$logs/quilt.log" || true)
		# the patches with a hunk at an offset, by number
		moved=$(awk '/^Applying patch/ { p = substr($3, 1, 4) } /succeeded at .* \(offset/ { print p }' \
			"$logs/quilt.log" | sort -u | paste -sd, -)
		row_apply="$n patches, $offsets hunks at an offset${moved:+ ($moved)}"
		record PASS "$name.apply" "$row_apply, no fuzz"
	else
		bad=$(sed -n 's/^Applying patch //p' "$logs/quilt.log" | tail -1)
		record FAIL "$name.apply" "$(basename "${bad:-?}") does not apply with --fuzz=0 (see $logs/quilt.log)"
		echo "| $ver | $tree_ver | **fails at $(basename "${bad:-?}")** | - | - |" >> "$summary"
		fail $EX_PATCH
		continue
	fi

	# --- kernel/dma/, then the QEMU kernel ---
	obj=$d/obj
	if ! "$top/scripts/kernel/kconfig.sh" --in-tree "$d/src" "$obj" "${frags[@]}" \
		> "$logs/config.log" 2>&1; then
		record FAIL "$name.dma" "the patched kernel's config does not hold (see $logs/config.log)"
		echo "| $ver | $tree_ver | $row_apply | config fails | - |" >> "$summary"
		fail $EX_BUILD
		continue
	fi
	cc=$(kernel_cc)
	if MAKEFLAGS='' nice make -C "$d/src" O="$(readlink -f "$obj")" ARCH=x86_64 CC="$cc" \
		HOSTCC="$cc" -j"${JOBS:-$(nproc)}" kernel/dma/ > "$logs/dma.log" 2>&1; then
		warnings=$(grep -c 'warning:' "$logs/dma.log" || true)
		row_dma="builds, $warnings warnings"
		if [ "$warnings" = 0 ]; then
			record PASS "$name.dma" "kernel/dma/ builds with no warning"
		else
			record FAIL "$name.dma" "kernel/dma/ builds with $warnings warnings (see $logs/dma.log)"
			fail $EX_BUILD
		fi
	else
		row_dma="**does not build**"
		record FAIL "$name.dma" "kernel/dma/ does not build (see $logs/dma.log)"
		fail $EX_BUILD
	fi
	if "$top/scripts/kernel/build-kernel.sh" "$d/src" "$obj" > "$logs/kernel.log" 2>&1; then
		row_kernel="builds"
		record PASS "$name.kernel" "the QEMU kernel builds"
	else
		row_kernel="**does not build**"
		record FAIL "$name.kernel" "the QEMU kernel does not build (see $logs/kernel.log)"
		fail $EX_BUILD
	fi
	echo "| $ver | $tree_ver | $row_apply | $row_dma | $row_kernel |" >> "$summary"
	[ "${KEEP_TREES:-0}" = 1 ] || rm -rf "$d/src"
done

info "summary: $summary"
cat "$summary"
[ ${#failed[@]} = 0 ] ||
	die "$status" "$(printf '%s\n' "${failed[@]}" | sort -u | wc -l) of ${#versions[@]} versions failed: $(printf '%s\n' "${failed[@]}" | sort -u | paste -sd' ' -) (see above)"
