#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Bad input ends with a one-line reason and its own exit status, never a
# silent pass.  Each case runs one harness script the wrong way and checks
# its exit status and that its last line on stderr names the problem.
# Needs the extracted base tree (for the config case), no kernel build.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
. "$here/../../scripts/lib.sh"
s=$PROJECT_TOP/scripts
base=${BASE_SRC:-$(make_var BASE_SRC)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# expect NAME STATUS WORDS COMMAND...: COMMAND must exit with STATUS and its
# last stderr line must contain WORDS.
expect() {
	local name=$1 want=$2 words=$3 got last
	shift 3
	"$@" > "$tmp/out" 2> "$tmp/err"
	got=$?
	last=$(grep -v '^+ ' "$tmp/err" | tail -n 1)
	if [ "$got" = "$want" ] && [[ "$last" == *"$words"* ]]; then
		record PASS "harness.path.$name" "status $got: $last"
	else
		record FAIL "harness.path.$name" "want status $want and '$words', got $got: $last"
		status=1
	fi
}

touch "$tmp/bzImage" "$tmp/initrd"

# QEMU not found: a PATH with everything of /usr/bin but QEMU.
mkdir -p "$tmp/bin"
ln -s /usr/bin/* "$tmp/bin/"
rm -f "$tmp"/bin/qemu-system-*
expect qemu-missing $EX_MISSING "qemu-system-x86_64 not found" \
	env PATH="$tmp/bin" "$s/vm/qemu-run.sh" -k "$tmp/bzImage" -i "$tmp/initrd" -t x -o "$tmp/run"

# An accelerator that is neither tcg nor kvm; kvm with -icount.
expect accel-bogus $EX_USAGE "ACCEL must be tcg or kvm" \
	env ACCEL=bogus "$s/vm/qemu-run.sh" -k "$tmp/bzImage" -i "$tmp/initrd" -t x -o "$tmp/run"
if [ -w /dev/kvm ]; then
	expect accel-kvm-icount $EX_USAGE "-icount needs TCG" \
		env ACCEL=kvm "$s/vm/qemu-run.sh" -k "$tmp/bzImage" -i "$tmp/initrd" -t x -o "$tmp/run" -x -icount
else
	expect accel-kvm-missing $EX_MISSING "/dev/kvm is missing" \
		env ACCEL=kvm "$s/vm/qemu-run.sh" -k "$tmp/bzImage" -i "$tmp/initrd" -t x -o "$tmp/run"
fi
# The Xen dom0 test has its own QEMU command line, tried under TCG only.
expect xen-accel-kvm $EX_USAGE "runs under TCG only" env ACCEL=kvm "$s/vm/xen-dom0-test.sh" full

# No room for the disk image.
expect disk $EX_DISK "disk image" \
	env SHM_DIR="$tmp/nonexistent" "$s/vm/qemu-run.sh" -k "$tmp/bzImage" \
	-i "$tmp/initrd" -t x -o "$tmp/run" -d virtio

# The wrong kernel version: a tarball that holds a 5.10 tree.
mkdir -p "$tmp/fake/linux-source-5.10"
printf 'VERSION = 5\nPATCHLEVEL = 10\nSUBLEVEL = 209\n' > "$tmp/fake/linux-source-5.10/Makefile"
tar -cJf "$tmp/fake.tar.xz" -C "$tmp/fake" linux-source-5.10
expect wrong-version $EX_VERSION "not 6.1.x" \
	env LINUX_TARBALL="$tmp/fake.tar.xz" "$s/series/get-source.sh" "$tmp/src-fake"
expect wrong-version-6.12 $EX_VERSION "not 6.12.x" \
	env LINUX_TARBALL="$tmp/fake.tar.xz" "$s/series/get-source.sh" "$tmp/src-fake" 6.12
expect bad-version $EX_USAGE "VERSION must be like" \
	"$s/series/get-source.sh" "$tmp/src-fake" 6

# A missing package: the source tarball is not there.
expect missing-tarball $EX_MISSING "not found" \
	env LINUX_TARBALL="$tmp/nonexistent.tar.xz" "$s/series/get-source.sh" "$tmp/src-none"

# A missing package: busybox-static.
expect missing-busybox $EX_MISSING "busybox-static" \
	env BUSYBOX="$tmp/nonexistent" "$s/vm/mk-initramfs.sh" "$tmp/i.cpio" "$base"

# A patch that does not apply: its name, file and hunk are reported.
mkdir -p "$tmp/tree/kernel/dma" "$tmp/q/patches"
printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 192\n' > "$tmp/tree/Makefile"
printf 'int a;\n' > "$tmp/tree/kernel/dma/swiotlb.c"
cat > "$tmp/q/patches/0001-bad.patch" <<'PATCH'
Subject: [PATCH] a patch for another tree

--- a/kernel/dma/swiotlb.c
+++ b/kernel/dma/swiotlb.c
@@ -1 +1 @@
-int b;
+int c;
PATCH
echo 0001-bad.patch > "$tmp/q/series"
expect patch-does-not-apply $EX_PATCH "0001-bad.patch does not apply: file kernel/dma/swiotlb.c" \
	env SERIES_FILE="$tmp/q/series" "$s/series/apply-series.sh" "$tmp/tree" full

# A config option that disappears: the dynamic fragment on the base tree,
# which does not have CONFIG_SWIOTLB_DYNAMIC.
if [ -f "$base/Makefile" ]; then
	expect config-option-missing $EX_CONFIG "did not survive" \
		"$s/kernel/kconfig.sh" "$base" "$tmp/obj" "$PROJECT_TOP/configs/qemu-x86_64.config" \
		"$PROJECT_TOP/configs/swiotlb-dynamic.config"
	if grep -q 'CONFIG_SWIOTLB_DYNAMIC=y: got nothing' "$tmp/err"; then
		record PASS harness.path.config-option-named "the missing option is named"
	else
		record FAIL harness.path.config-option-named "CONFIG_SWIOTLB_DYNAMIC not named: $(cat "$tmp/err")"
		status=1
	fi
else
	record FAIL harness.path.config-option-missing "no base tree at $base (make $base/.extracted)"
	status=1
fi

# make deb-boot with no package to boot, and make deb with a flavour
# Debian does not have.
mkdir -p "$tmp/nodeb"
expect deb-boot-no-package $EX_MISSING "want one linux-image-*.deb" \
	env INITRD="$tmp/initrd" "$s/deb/deb-boot.sh" "$tmp/nodeb"
expect deb-bad-flavour $EX_USAGE "FLAVOUR must be amd64 or cloud-amd64" \
	env FLAVOUR=arm64 "$s/deb/deb.sh" "$tmp/deb-out"
# make bench SMP=N: backports' QEMU from a mirror that does not answer.
expect get-qemu-no-mirror $EX_MISSING "apt-get update for bookworm-backports failed" \
	env DEBIAN_MIRROR=http://127.0.0.1:9/debian "$s/vm/get-qemu.sh" "$tmp/qemu-bpo"
printf '#!/bin/sh\necho "QEMU emulator version 7.2.22"\n' > "$tmp/qemu72"
chmod +x "$tmp/qemu72"
expect bench-smp-old-qemu $EX_USAGE "BENCH_SMP=2 needs QEMU 8 or later" \
	env BENCH_SMP=2 QEMU="$tmp/qemu72" "$s/bench/bench.sh" "$tmp/bench-out"
# make bench-decompose's extra slots: a name the report cannot split, a
# name taken, a slot without its kernel.
bench_env=(env QEMU="$tmp/qemu72" BZIMAGE_base="$tmp/bzImage" BZIMAGE_patched="$tmp/bzImage" INITRD="$tmp/initrd")
expect bench-extra-bad-name $EX_USAGE "'fixed-1' is not a slot name" \
	"${bench_env[@]}" EXTRA_SLOTS=fixed-1 "$s/bench/bench.sh" "$tmp/bench-out"
expect bench-extra-taken $EX_USAGE "'growing' is a slot already" \
	"${bench_env[@]}" EXTRA_SLOTS=growing "$s/bench/bench.sh" "$tmp/bench-out"
expect bench-extra-no-kernel $EX_MISSING "BZIMAGE_fixed (not set) not found" \
	"${bench_env[@]}" EXTRA_SLOTS=fixed CMDLINE_fixed=swiotlb=2048,force "$s/bench/bench.sh" "$tmp/bench-out"
expect bench-disk-bad $EX_USAGE "BENCH_DISK must be virtio-sync or virtio, not 'nvme'" \
	"${bench_env[@]}" BENCH_DISK=nvme "$s/bench/bench.sh" "$tmp/bench-out"
expect qemu-disk-bad $EX_USAGE "unknown disk type 'scsi' (virtio, virtio-sync, nvme or virtio-mmio)" \
	"$s/vm/qemu-run.sh" -k "$tmp/bzImage" -i "$tmp/initrd" -t x -o "$tmp/run" -d scsi
expect bench-step-no-slot $EX_USAGE "BENCH_STEPS: 'fixed/base': no slot 'fixed'" \
	"${bench_env[@]}" BENCH_STEPS=fixed/base "$s/bench/bench.sh" "$tmp/bench-out"
expect list-series-bad $EX_USAGE "SERIES must be one of full v7 noperf noscale" \
	"$s/series/list-series.sh" perf

# A citation that names the wrong commit: 0026 as it stood before the
# ids of its mainline twin and 0027's were put right.
mkdir -p "$tmp/cite"
cp -r "$PROJECT_TOP/patches" "$PROJECT_TOP/docs" "$PROJECT_TOP/README.md" "$PROJECT_TOP/tests" "$tmp/cite/"
sed -i 's/cbf53074a528 ("swiotlb: Honour/823353b7cf0e ("swiotlb: Honour/' \
	"$tmp"/cite/patches/0026-*.patch
expect citation-wrong-commit $EX_TESTFAIL '823353b7cf0e is "swiotlb: Enforce page alignment in swiotlb_alloc()", not "swiotlb: Honour' \
	env CITE_ROOT="$tmp/cite" RESULTS_FILE="$tmp/cite.txt" "$s/checks/check-citations.sh"

# Our own patch named by number with another subject: 0039 as it was
# first written, with a subject of 0030 that the patch never had.
mkdir -p "$tmp/cite2"
cp -r "$PROJECT_TOP/patches" "$PROJECT_TOP/docs" "$PROJECT_TOP/README.md" "$PROJECT_TOP/tests" "$tmp/cite2/"
sed -i 's/^double in size"), which has no commit/double in size, up to 64 MiB"), which has no commit/' \
	"$tmp"/cite2/patches/0039-*.patch
expect citation-wrong-patch-subject $EX_TESTFAIL 'patch 0030 is "swiotlb: grow in pools that double in size", not "swiotlb: grow in pools that double in size, up to 64 MiB"' \
	env CITE_ROOT="$tmp/cite2" RESULTS_FILE="$tmp/cite2.txt" "$s/checks/check-citations.sh"

# make check-versions with a version the archive does not serve.
expect versions-unknown $EX_MISSING "1 of 1 versions failed: 0.0-0" \
	env VERSIONS_DIR="$tmp/versions" RESULTS_FILE="$tmp/versions.txt" FRAGMENTS=unused \
	"$s/series/check-versions.sh" 0.0-0

# A script without its licence line, in a checkout of two.
mkdir -p "$tmp/lic/scripts"
printf '#!/bin/bash\n# SPDX-License-Identifier: GPL-2.0-only\ntrue\n' > "$tmp/lic/scripts/good.sh"
printf '#!/bin/bash\ntrue\n' > "$tmp/lic/scripts/bad.sh"
git -C "$tmp/lic" init -q && git -C "$tmp/lic" add scripts
expect licence-missing $EX_TESTFAIL "1 of 2 program files lack 'SPDX-License-Identifier: GPL-2.0-only' in their first 3 lines: scripts/bad.sh" \
	env LICENCE_ROOT="$tmp/lic" RESULTS_FILE="$tmp/lic.txt" "$s/checks/check-licence.sh"

# A run that recorded nothing is no pass.
expect summary-of-nothing $EX_TESTFAIL "no results" \
	env RESULTS_FILE="$tmp/none.txt" "$s/report/summarize.sh"
exit $status
