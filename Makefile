# SPDX-License-Identifier: GPL-2.0-only
# Dynamic SWIOTLB for Debian bookworm's linux-source-6.1: build an unpatched
# (base) and a patched kernel from the same config and test both in QEMU.
# `make help` lists the targets and variables.

SHELL := /bin/bash
.DEFAULT_GOAL := help
.NOTPARALLEL:
.DELETE_ON_ERROR:

# --- variables (override on the command line: make qemu-test SMP=4) ---
SERIES ?= full
SMP ?= 2
MEM ?= 1024
BOOT_TIMEOUT ?= 60
TEST_TIMEOUT ?=
JOBS ?= $(shell nproc)
KERNEL ?= patched
CMDLINE ?= swiotlb=512,force
RUNS ?= 6
RUNTIME ?= 5
# make bench runs one vCPU unless SMP is given (command line or environment).
BENCH_SMP := $(if $(filter command line environment,$(origin SMP)),$(SMP),1)
BENCH_OUT ?= $(CURDIR)/results$(if $(filter-out 1,$(BENCH_SMP)),-smp$(BENCH_SMP))
export SMP MEM BOOT_TIMEOUT TEST_TIMEOUT JOBS
# Debian's 6.12 is no cut (scripts/lib.sh, MAINLINE_CUT): it has
# make kunit-mainline, make test-mainline and make bench-mainline.
SERIES_CUTS := $(shell scripts/series/list-series.sh --cuts)
ifeq ($(filter $(SERIES_CUTS),$(SERIES)),)
$(error SERIES must be one of $(SERIES_CUTS), not '$(SERIES)'$(if $(filter mainline,$(SERIES)), (the KUnit suite on Debian's 6.12 is make kunit-mainline)))
endif
# The shrinker (patch 0018), the packages and the before/after bench of
# the performance patches need the full series.
ifneq ($(SERIES),full)
FULL_ONLY := bench-shrink bench-perf bench-decompose bench-mainline bench-pools bench-timeline pass-rates deb
ifneq ($(filter $(FULL_ONLY),$(MAKECMDGOALS)),)
$(error $(filter $(FULL_ONLY),$(MAKECMDGOALS)) needs SERIES=full, not $(SERIES))
endif
endif

B := $(CURDIR)/build
# The scripts' build root (scripts/lib.sh: BUILD_DIR).
export HARNESS_BUILD := $(B)
RESULTS_FILE ?= $(B)/test-results.txt
export RESULTS_FILE

BZ := arch/x86/boot/bzImage
BASE_SRC := $(B)/src/base
BASE_OBJ := $(B)/obj/base
PATCHED_SRC := $(B)/src/$(SERIES)
PATCHED_OBJ := $(B)/obj/$(SERIES)
# Each kernel's config fragments: configs/kernels.txt, the one list.
fragments = $(or $(shell scripts/kernel/fragments.sh --relative $(1)),$(error no fragments for $(1) in configs/kernels.txt))
BASE_FRAGMENTS := $(call fragments,base)
PATCHED_FRAGMENTS := $(call fragments,patched)
NOSHRINK_OBJ := $(B)/obj/$(SERIES)-noshrink
NOSHRINK_FRAGMENTS := $(call fragments,noshrink)
# The Xen PV dom0 kernel (make test-xen-dom0): the patched tree with the
# fragments of xen-dom0.
XEN_OBJ := $(B)/obj/xen-$(SERIES)
XEN_FRAGMENTS := $(call fragments,xen-dom0)
PATCHES := $(wildcard patches/*.patch)
# The KUnit kernel: the series, the test-only hook and the suite of
# tests/kunit/ in a tree of its own (scripts/kunit/kunit-tree.sh), the
# patched kernel's fragments (DYN=n: without CONFIG_SWIOTLB_DYNAMIC), and
# configs/debug.config with KUNIT_DEBUG=1.
DYN ?= y
KUNIT_DEBUG ?= 0
ifeq ($(filter y n,$(DYN)),)
$(error DYN must be y or n, not '$(DYN)')
endif
ifeq ($(filter 0 1,$(KUNIT_DEBUG)),)
$(error KUNIT_DEBUG must be 0 or 1, not '$(KUNIT_DEBUG)')
endif
# $(call kunit_obj,SERIES,DYN,KUNIT_DEBUG): its object directory.
kunit_obj = $(B)/obj/kunit-$(1)-dyn$(2)$(if $(filter 1,$(3)),-debug)
KUNIT_SRC := $(B)/src/kunit-$(SERIES)
KUNIT_OBJ := $(call kunit_obj,$(SERIES),$(DYN),$(KUNIT_DEBUG))
KUNIT_FRAGMENTS := $(call fragments,kunit-dyn$(DYN)) $(if $(filter 1,$(KUNIT_DEBUG)),configs/debug.config)
# Debian's own 6.12 (linux-source-6.12): mainline's dynamic SWIOTLB and
# none of our patches, the peer that make test-mainline and
# make bench-mainline measure the series against.
MAINLINE_VERSION := 6.12
MAINLINE_SRC := $(B)/src/mainline
MAINLINE_OBJ := $(B)/obj/mainline
MAINLINE_FRAGMENTS := $(call fragments,mainline)
# The KUnit suite on Debian's 6.12 (make kunit-mainline): a tree of its
# own with no series and the 6.12 hook (scripts/kunit/kunit-tree.sh TREE
# mainline), the mainline kernel's fragments (DYN=n: kunit-dynn's) and
# configs/debug.config with KUNIT_DEBUG=1.
KUNIT_MAINLINE_SRC := $(B)/src/kunit-mainline
KUNIT_MAINLINE_OBJ := $(call kunit_obj,mainline,$(DYN),$(KUNIT_DEBUG))
KUNIT_MAINLINE_FRAGMENTS := $(if $(filter y,$(DYN)),$(MAINLINE_FRAGMENTS),$(call fragments,kunit-dynn)) \
	$(if $(filter 1,$(KUNIT_DEBUG)),configs/debug.config)
# Our fixes for bugs of mainline's code that the suite shows on 6.12, in
# the order of their series file (docs/MAINLINE-FIXES.md), and the KUnit
# kernel of 6.12 with them and nothing else (make kunit-mainline-fixes;
# scripts/kunit/kunit-tree.sh TREE mainline-fixes).
MAINLINE_FIXES := patches/$(MAINLINE_VERSION)
# arm64 (make test-arm64): the base and patched trees built for QEMU's
# virt machine with Debian's cross compiler, objects of their own, and a
# guest of Debian's arm64 busybox-static (scripts/vm/apt-fetch.sh).
ARM64_IMAGE := arch/arm64/boot/Image
ARM64_BASE_OBJ := $(B)/obj/arm64-base
ARM64_PATCHED_OBJ := $(B)/obj/arm64-$(SERIES)
ARM64_BASE_FRAGMENTS := $(call fragments,arm64-base)
ARM64_PATCHED_FRAGMENTS := $(call fragments,arm64-patched)
ARM64_GUEST := $(B)/arm64-guest
export IMAGE_arm64_base := $(ARM64_BASE_OBJ)/$(ARM64_IMAGE)
export IMAGE_arm64_patched := $(ARM64_PATCHED_OBJ)/$(ARM64_IMAGE)
export INITRD_arm64 := $(B)/initramfs-arm64.cpio
# The KUnit suite on arm64 (make kunit-arm64): the cut's KUnit tree, built
# for arm64 into objects of its own.
KUNIT_ARM64_SRC := $(KUNIT_SRC)
KUNIT_ARM64_OBJ := $(B)/obj/kunit-$(SERIES)-arm64
KUNIT_ARM64_FRAGMENTS := $(call fragments,arm64-kunit)
KUNIT_MAINLINE_FIXES_SRC := $(B)/src/kunit-mainline-fixes
KUNIT_MAINLINE_FIXES_OBJ := $(call kunit_obj,mainline-fixes,$(DYN),$(KUNIT_DEBUG))
INITRD := $(B)/initramfs.cpio
export BZIMAGE_base := $(BASE_OBJ)/$(BZ)
export BZIMAGE_patched := $(PATCHED_OBJ)/$(BZ)
export BZIMAGE_xen := $(XEN_OBJ)/$(BZ)
export BZIMAGE_mainline := $(MAINLINE_OBJ)/$(BZ)
export INITRD

# Scenarios in tests/scenarios/NAME.conf, run in this order.
QEMU_PATCHED := qemu-grow qemu-shrink qemu-default qemu-nvme qemu-kreclaim
QEMU_BASE := qemu-base-small test-livelock-base
QEMU_STAGES := qemu-grow qemu-shrink qemu-default qemu-base-small qemu-nvme test-livelock-base
# Scenarios that make qemu-test and make test do not run.
QEMU_OTHER := qemu-kreclaim

.PHONY: help deps test qemu-test qemu-stages test-harness test-harness-vm shellcheck check-citations check-licence check-docs \
	kernels kernel-base kernel-patched kernel-mainline test-mainline kunit-kernel initramfs config-show qemu-shell kunit kunit-preempt kunit-nodyn test-regressions \
	kunit-mainline kunit-kernel-mainline kunit-mainline-fixes kunit-kernel-mainline-fixes test-arm64 kernels-arm64 kunit-arm64 kunit-kernel-arm64 \
	qemu-compare bench bench-shrink bench-perf bench-decompose bench-mainline bench-pools bench-timeline bench-smoke pass-rates test-debug test-xen-dom0 check-versions deb deb-boot clean distclean $(QEMU_STAGES) $(QEMU_OTHER)

help:
	@echo "Targets:"
	@echo "  make qemu-test        build what is missing, run every QEMU scenario, compare, summarize"
	@echo "  make test             harness self-tests, shellcheck, port-checks, the QEMU scenarios, Debian configs, bench-smoke,"
	@echo "                        kunit, then one line 'N passed, M failed' (make exits 2 on a failure)"
	@echo "  make deps             apt-get install what scripts/packages.txt lists and this machine lacks"
	@echo "                        (as root or through sudo; qemu-test and test run it first)"
	@echo "  make kernels          build both kernels (make kernel-base, make kernel-patched)"
	@echo "  make initramfs        build $(INITRD:$(CURDIR)/%=%)"
	@echo "  make qemu-grow        patched, swiotlb=512,force: fio verify, the pool must grow"
	@echo "  make qemu-shrink      patched, swiotlb=512,force: grow, drop_caches shrinks, grow again, a trickle keeps no pool (the shrinker)"
	@echo "  make qemu-default     patched, swiotlb=force (64 MiB): the pool must not grow"
	@echo "  make qemu-base-small  base, swiotlb=512,force: nslabs constant, 'buffer is full' noted"
	@echo "  make qemu-nvme        patched, NVMe bs=4608/6k iodepth 32, 4 vCPUs: must pass (the NVMe slot-search livelock)"
	@echo "  make test-livelock-base  base, same NVMe load: must end as crash/timeout (the NVMe slot-search livelock)"
	@echo "  make qemu-kreclaim    patched, swiotlb=512,force: memory pressure (kswapd, no drop_caches) frees the pools"
	@echo "  make qemu-compare     print the scenarios' outcomes side by side"
	@echo "  make bench            fio and dma_map_benchmark: base vs. default vs. growing, paired per round"
	@echo "                        against base with a control (base booted again), the cover letter's table, and"
	@echo "                        memory against bandwidth (base sized to what growing's loads used; SERIES=full:"
	@echo "                        growing without the shrinker) in $(BENCH_OUT:$(CURDIR)/%=%)/ (~45 min),"
	@echo "                        then bench-pools into $(BENCH_OUT:$(CURDIR)/%=%)-pools/ (SERIES=full; ~20 min more cold)"
	@echo "                        and bench-timeline into $(BENCH_OUT:$(CURDIR)/%=%)-timeline/ (SERIES=full)"
	@echo "  make bench-shrink     the same bench, base = the full series without CONFIG_SWIOTLB_SHRINK"
	@echo "                        (the shrinker), in $(BENCH_OUT:$(CURDIR)/%=%)-shrink/ (~25 min + a kernel build)"
	@echo "  make bench-perf       the same bench, default = SERIES=noperf, both growing: the growing case"
	@echo "                        before and after the performance patches, in $(BENCH_OUT:$(CURDIR)/%=%)-perf/"
	@echo "  make bench-decompose  where growing's cost goes: base, control, default, a fixed pool on the"
	@echo "                        patched kernel, growing, SERIES=noperf growing; small only (DECOMPOSE_WORKLOADS)"
	@echo "  make bench-mainline   Debian's $(MAINLINE_VERSION) beside the series: base, control, default, growing, and 6.12"
	@echo "                        with the default pool and growing from 1 MiB; paired steps on fio and"
	@echo "                        dma_map_benchmark (make bench runs the same slots among its own)"
	@echo "  make bench-pools      lookup and map cost against 1-256 pools (the search hint at the room, and"
	@echo "                        stale), 10 rounds under icount, and the pools of a 256 MiB burst,"
	@echo "                        SERIES=noscale vs full, and full vs Debian's $(MAINLINE_VERSION) (three KUnit kernels)"
	@echo "  make bench-timeline   the swiotlb second by second through spike, idle, trickle, pressure, spike:"
	@echo "                        full series vs. without CONFIG_SWIOTLB_SHRINK, table and chart (2 VMs)"
	@echo "  make bench SMP=4      any bench with 4 vCPUs (backports' QEMU 10.0, fetched, not installed)"
	@echo "  make pass-rates       qemu-shrink, the KUnit shrinker cases and the timeline (PASS_TESTS), PASS_RUNS=$(PASS_RUNS)"
	@echo "                        runs each: how often each check passes, in $(B:$(CURDIR)/%=%)/pass-rates/ (~1 h)"
	@echo "  make bench-smoke      one short run of the small workload on each kernel; checks the report's shape (~1.5 min)"
	@echo "  make deb              linux-image and linux-headers .debs of Debian's $(DEB_FLAVOUR) config with the"
	@echo "                        full series, release 6.1.x-dynswiotlb, in build/deb/ (DEB_FLAVOUR=; ~1 h)"
	@echo "  make deb-boot         boot that package's kernel and modules through the grow, shrink, default"
	@echo "                        and nvme scenarios"
	@echo "  make test-harness     classifier and KUnit parser on saved logs, failure paths; bench-check, the"
	@echo "                        scenarios' checks, the timeline's and bench-pools' reports and pass-rate.sh"
	@echo "                        on crafted results (no kernel build)"
	@echo "  make shellcheck       shellcheck -x over every shell file, guest scripts included: no finding"
	@echo "  make check-citations  every cited mainline commit is in patches/cited-commits.txt, with its subject"
	@echo "  make check-licence    every script and source file carries the SPDX line of LICENSE"
	@echo "  make check-docs       README and docs/DESIGN.md agree with the code (cases, scenarios, patches, cuts)"
	@echo "  make test-harness-vm  guest panic, hang and test failure on the base kernel"
	@echo "  make kunit            the KUnit suite of tests/kunit on its own kernel (DYN=n: without SWIOTLB_DYNAMIC)"
	@echo "  make kunit-kernel     build that kernel only (scripts/kunit/kunit-tree.sh, kconfig.sh, build-kernel.sh)"
	@echo "  make kunit-preempt    the KUnit suite again, booted with preempt=full (in make test)"
	@echo "  make kunit-nodyn      the KUnit suite on a CONFIG_SWIOTLB_DYNAMIC=n kernel"
	@echo "  make kunit-mainline   the KUnit suite on Debian's $(MAINLINE_VERSION) (none of our patches; the cases of"
	@echo "                        what $(MAINLINE_VERSION) lacks skip), on a kernel of its own (DYN=, KUNIT_DEBUG=)"
	@echo "  make kunit-kernel-mainline  build that kernel only"
	@echo "  make kunit-mainline-fixes  the same on $(MAINLINE_VERSION) with our fixes for mainline's code ($(MAINLINE_FIXES))"
	@echo "  make kunit-kernel-mainline-fixes  build that kernel only"
	@echo "  make test-regressions each KUnit case of a v7 bug in a boot of its own on SERIES=v7, and the"
	@echo "                        suite on full: FAIL/CRASH on v7 and PASS on full, or the target fails;"
	@echo "                        and the suite on Debian's $(MAINLINE_VERSION) beside them, as a column that judges nothing"
	@echo "  make check-versions   the series on every linux-source-6.1 the archive serves (VERSIONS=...):"
	@echo "                        quilt --fuzz=0, kernel/dma/ with no warning, the QEMU kernel"
	@echo "  make test-mainline    Debian's $(MAINLINE_VERSION) (mainline's dynamic SWIOTLB, none of our patches) in"
	@echo "                        the patched kernel's place: $(MAINLINE_SCENARIOS) beside the series (a kernel of its own)"
	@echo "  make test-arm64       arm64 on QEMU's virt machine, unpatched and patched (cross-built): a virtio-mmio"
	@echo "                        disk through a device-tree restricted-dma-pool, filled; growth under force;"
	@echo "                        the KUnit suite (make kunit-arm64); Debian's arm64 config (make debian-config-arm64)"
	@echo "  make kunit-arm64      the KUnit suite on arm64 (QEMU's virt machine; a cross-built kernel of its own)"
	@echo "  make test-xen-dom0    the series as a Xen PV dom0 under Debian's Xen (TCG): an ata_piix disk"
	@echo "                        (32-bit DMA) gets its DMA mask and passes fio verify (a kernel of its own)"
	@echo "  make test-debug       on a KASAN/lockdep kernel booted with preempt=full: KUnit, then fio verify,"
	@echo "                        fault injection, memory pressure and a kmemleak scan in one VM"
	@echo "  make qemu-shell       interactive shell in the guest (KERNEL=, CMDLINE=)"
	@echo "  make config-show      print the merged .config of KERNEL= and check it"
	@echo "  make port-checks      apply, checkpatch, kernel-doc, bisect builds, coverage configs (scripts/checks/checks.mk)"
	@echo "  make check-apply | check-checkpatch | check-kernel-doc | check-bisect | check-coverage"
	@echo "                        one port check alone (check-apply first: the others use its trees)"
	@echo "  make check-checkpatch-seeds SEEDS_DIR=DIR   checkpatch, and each port of v7 against its mail in DIR"
	@echo "  make cross-check      arch/arm/xen/mm.o and arch/mips/pci/pci-octeon.o with cross compilers"
	@echo "  make qemu-stages      the stages of qemu-test without its fresh results file and summary"
	@echo "  make debian-config-check  Debian's amd64 and cloud-amd64 configs + DYNAMIC=y: the series'"
	@echo "                        objects build with no new warning (Debian configs and packages; also in make test)"
	@echo "  make clean / distclean   remove outputs / everything under build/"
	@echo "Variables (now):"
	@echo "  SERIES=$(SERIES)   one of $(SERIES_CUTS) (scripts/series/list-series.sh"
	@echo "                     says what each cut is)"
	@echo "  SMP=$(SMP) MEM=$(MEM)   vCPUs and MiB of the guest (qemu-nvme and"
	@echo "                     test-livelock-base always use 4 vCPUs)"
	@echo "  BOOT_TIMEOUT=$(BOOT_TIMEOUT) TEST_TIMEOUT=$(TEST_TIMEOUT)   seconds (TEST_TIMEOUT unset: 300,"
	@echo "                     and 60 for test-livelock-base)"
	@echo "  JOBS=$(JOBS)   make -j for kernel builds"
	@echo "  DYN=$(DYN) KUNIT_DEBUG=$(KUNIT_DEBUG)   the KUnit kernel: CONFIG_SWIOTLB_DYNAMIC, configs/debug.config"
	@echo "  KERNEL=$(KERNEL) CMDLINE='$(CMDLINE)'   for qemu-shell and config-show"
	@echo "  LINUX_TARBALL   kernel source tarball (default /usr/src/linux-source-6.1.tar.xz)"
	@echo "  RUNS=$(RUNS) RUNTIME=$(RUNTIME)   make bench: counted runs, s of guest time per run"
	@echo "  BENCH_OUT=$(BENCH_OUT:$(CURDIR)/%=%)   where make bench writes bench.md, bench.json, bench.png"
	@echo "  RESULTS_FILE=$(RESULTS_FILE:$(CURDIR)/%=%)"

# make -s print-VAR prints VAR: the paths the Makefile owns, for the
# scripts that need one (scripts/kunit/kunit-run.sh).
print-%:
	@echo '$($*)'

# --- kernel trees: extracted from Debian's tarball, never in git ---
$(BASE_SRC)/.extracted:
	scripts/series/get-source.sh $(BASE_SRC)

# A changed series means a fresh tree and a fresh object directory: a patch
# that was dropped leaves files with old timestamps that kbuild would trust.
# Changed means other patches or other text in one (apply-series.sh
# --is-applied), not a newer file: an edited comment in series keeps both.
$(PATCHED_SRC)/.series-applied: series $(PATCHES) scripts/series/apply-series.sh
	@if scripts/series/apply-series.sh --is-applied $(PATCHED_SRC) $(SERIES); then \
		echo "$(PATCHED_SRC:$(CURDIR)/%=%) has the $(SERIES) series already"; touch $@; \
	else \
		echo "rm -rf $(PATCHED_SRC) $(PATCHED_OBJ) $(NOSHRINK_OBJ) $(ARM64_PATCHED_OBJ)"; \
		rm -rf $(PATCHED_SRC) $(PATCHED_OBJ) $(NOSHRINK_OBJ) $(ARM64_PATCHED_OBJ) && \
		scripts/series/get-source.sh $(PATCHED_SRC) && \
		scripts/series/apply-series.sh $(PATCHED_SRC) $(SERIES); \
	fi

# --- configs and kernels ---
# $(call kernel_rules,TREE,OBJ,FRAGMENTS,STAMP[,ARCH,IMAGE]): OBJ/.config,
# tinyconfig + FRAGMENTS checked after olddefconfig, once TREE is ready
# (STAMP); and OBJ's image from it (touch: a no-op kbuild run leaves its
# date alone).  ARCH and IMAGE: arm64 and ARM64_IMAGE for make test-arm64
# (Debian's cross compiler, lib.sh's arch_facts); x86_64 and bzImage
# without them.
define kernel_rules
$(2)/.config: $(4) $(3) configs/kernels.txt scripts/kernel/kconfig.sh
	$(if $(5),ARCH=$(5) )scripts/kernel/kconfig.sh --in-tree $(1) $(2) $(3)

$(2)/$(or $(6),$(BZ)): $(2)/.config
	$(if $(5),ARCH=$(5) )scripts/kernel/build-kernel.sh $(1) $(2)
	touch $$@
endef
$(eval $(call kernel_rules,$(BASE_SRC),$(BASE_OBJ),$(BASE_FRAGMENTS),$(BASE_SRC)/.extracted))
$(eval $(call kernel_rules,$(PATCHED_SRC),$(PATCHED_OBJ),$(PATCHED_FRAGMENTS),$(PATCHED_SRC)/.series-applied))
$(eval $(call kernel_rules,$(PATCHED_SRC),$(NOSHRINK_OBJ),$(NOSHRINK_FRAGMENTS),$(PATCHED_SRC)/.series-applied))
$(eval $(call kernel_rules,$(PATCHED_SRC),$(XEN_OBJ),$(XEN_FRAGMENTS),$(PATCHED_SRC)/.series-applied))
$(eval $(call kernel_rules,$(MAINLINE_SRC),$(MAINLINE_OBJ),$(MAINLINE_FRAGMENTS),$(MAINLINE_SRC)/.extracted))
$(eval $(call kernel_rules,$(KUNIT_SRC),$(KUNIT_OBJ),$(KUNIT_FRAGMENTS),$(KUNIT_SRC)/.kunit-tree))
$(eval $(call kernel_rules,$(KUNIT_MAINLINE_SRC),$(KUNIT_MAINLINE_OBJ),$(KUNIT_MAINLINE_FRAGMENTS),$(KUNIT_MAINLINE_SRC)/.kunit-tree))
$(eval $(call kernel_rules,$(KUNIT_MAINLINE_FIXES_SRC),$(KUNIT_MAINLINE_FIXES_OBJ),$(KUNIT_MAINLINE_FRAGMENTS),$(KUNIT_MAINLINE_FIXES_SRC)/.kunit-tree))
$(eval $(call kernel_rules,$(BASE_SRC),$(ARM64_BASE_OBJ),$(ARM64_BASE_FRAGMENTS),$(BASE_SRC)/.extracted,arm64,$(ARM64_IMAGE)))
$(eval $(call kernel_rules,$(PATCHED_SRC),$(ARM64_PATCHED_OBJ),$(ARM64_PATCHED_FRAGMENTS),$(PATCHED_SRC)/.series-applied,arm64,$(ARM64_IMAGE)))
$(eval $(call kernel_rules,$(KUNIT_ARM64_SRC),$(KUNIT_ARM64_OBJ),$(KUNIT_ARM64_FRAGMENTS),$(KUNIT_SRC)/.kunit-tree,arm64,$(ARM64_IMAGE)))

config-show: $(if $(filter base,$(KERNEL)),$(BASE_SRC)/.extracted,$(PATCHED_SRC)/.series-applied)
	DRY_RUN=1 scripts/kernel/kconfig.sh $(if $(filter base,$(KERNEL)),$(BASE_SRC) $(BASE_OBJ) $(BASE_FRAGMENTS),$(PATCHED_SRC) $(PATCHED_OBJ) $(PATCHED_FRAGMENTS))

$(MAINLINE_SRC)/.extracted:
	scripts/series/get-source.sh $(MAINLINE_SRC) $(MAINLINE_VERSION)

# The KUnit kernel's tree (scripts/kunit/kunit-tree.sh): the series, the
# test-only hook and the suite; for Debian's 6.12 its own hook and no series.
$(KUNIT_SRC)/.kunit-tree: series $(PATCHES) $(wildcard tests/kunit/*) scripts/kunit/kunit-tree.sh scripts/series/apply-series.sh
	scripts/kunit/kunit-tree.sh $(KUNIT_SRC) $(SERIES)
	touch $@

$(KUNIT_MAINLINE_SRC)/.kunit-tree: $(wildcard tests/kunit/*) scripts/kunit/kunit-tree.sh scripts/series/get-source.sh
	scripts/kunit/kunit-tree.sh $(KUNIT_MAINLINE_SRC) mainline
	touch $@

$(KUNIT_MAINLINE_FIXES_SRC)/.kunit-tree: $(wildcard tests/kunit/* $(MAINLINE_FIXES)/*) scripts/kunit/kunit-tree.sh scripts/series/get-source.sh
	scripts/kunit/kunit-tree.sh $(KUNIT_MAINLINE_FIXES_SRC) mainline-fixes
	touch $@

kernel-base: $(BASE_OBJ)/$(BZ)
kernel-patched: $(PATCHED_OBJ)/$(BZ)
kernels: kernel-base kernel-patched
kernel-mainline: $(MAINLINE_OBJ)/$(BZ)
kernels-arm64: $(IMAGE_arm64_base) $(IMAGE_arm64_patched)
kunit-kernel-arm64: $(KUNIT_ARM64_OBJ)/$(ARM64_IMAGE)
kunit-kernel: $(KUNIT_OBJ)/$(BZ)
kunit-kernel-mainline: $(KUNIT_MAINLINE_OBJ)/$(BZ)
kunit-kernel-mainline-fixes: $(KUNIT_MAINLINE_FIXES_OBJ)/$(BZ)

# --- initramfs: busybox, fio, dma_map_benchmark, tests/guest, tests/fio ---
$(INITRD): $(BASE_SRC)/.extracted $(wildcard tests/guest/* tests/fio/*) scripts/vm/mk-initramfs.sh
	scripts/vm/mk-initramfs.sh $@ $(BASE_SRC)

initramfs: $(INITRD)

# The arm64 guest: the same init and tests, Debian's arm64 busybox-static,
# no fio (scripts/vm/mk-initramfs.sh ARCH=arm64).
$(INITRD_arm64): $(BASE_SRC)/.extracted $(wildcard tests/guest/*) scripts/vm/mk-initramfs.sh scripts/vm/apt-fetch.sh
	scripts/vm/apt-fetch.sh $(ARM64_GUEST) bookworm arm64 busybox-static
	ARCH=arm64 BUSYBOX=$(ARM64_GUEST)/root/bin/busybox scripts/vm/mk-initramfs.sh $@ $(BASE_SRC)

# --- QEMU scenarios ---
$(QEMU_PATCHED): $(PATCHED_OBJ)/$(BZ) $(INITRD)
$(QEMU_BASE): $(BASE_OBJ)/$(BZ) $(INITRD)
$(QEMU_STAGES) $(QEMU_OTHER):
	scripts/vm/qemu-test.sh tests/scenarios/$(patsubst test-%,%,$(patsubst qemu-%,%,$@)).conf

qemu-compare:
	@scripts/report/compare.sh $(patsubst test-%,%,$(patsubst qemu-%,%,$(QEMU_STAGES)))

qemu-shell: $(if $(filter base,$(KERNEL)),$(BASE_OBJ),$(PATCHED_OBJ))/$(BZ) $(INITRD)
	INTERACTIVE=1 TEST_TIMEOUT=86400 scripts/vm/qemu-run.sh \
		-k $(if $(filter base,$(KERNEL)),$(BASE_OBJ),$(PATCHED_OBJ))/$(BZ) \
		-i $(INITRD) -t shell -c "$(CMDLINE)" -d virtio -d nvme -o $(B)/qemu/shell

# --- the benchmark (scripts/bench/bench.sh): not a timed test ---
# SMP=N (N > 1) runs backports' QEMU 10.0 (scripts/vm/get-qemu.sh) on the pc
# machine: bookworm's QEMU hangs under icount with more than one vCPU.
QEMU_BPO := $(B)/qemu-bpo/qemu-system-x86_64
$(QEMU_BPO): scripts/vm/get-qemu.sh
	scripts/vm/get-qemu.sh $(dir $@)
BENCH_QEMU := $(if $(filter-out 1,$(BENCH_SMP)),$(QEMU_BPO))
BENCH_ENV = BENCH_SMP=$(BENCH_SMP) $(if $(BENCH_QEMU),QEMU=$(BENCH_QEMU) QEMU_MACHINE=pc) \
	RUNS=$(RUNS) RUNTIME=$(RUNTIME) SERIES=$(SERIES)

# bench.sh also runs base with a fixed pool of the size the growing runs of
# the first round reached (sized; SIZED=0: not) and, with the full series,
# the growing case without the shrinker (noshrink), for the table of memory
# against bandwidth.
# With the full series, make bench also runs the pool-count bench of
# bench-pools (its own three KUnit kernels), into $(BENCH_OUT)-pools, and the
# timeline of bench-timeline (the kernel without the shrinker), into
# $(BENCH_OUT)-timeline.  The vCPUs differ on purpose: the fio bench runs
# one vCPU under icount unless SMP is given (bookworm's QEMU 7.2 hangs
# under icount with more); bench-pools one vCPU under icount (instruction
# counts, not bandwidth); the timeline SMP vCPUs (2 unless given) under
# plain TCG, as the scenarios do: it follows MiB held, not bandwidth, and
# needs no icount.
bench: $(BASE_OBJ)/$(BZ) $(PATCHED_OBJ)/$(BZ) $(INITRD) $(BENCH_QEMU) $(if $(filter full,$(SERIES)),$(NOSHRINK_OBJ)/$(BZ) $(MAINLINE_OBJ)/$(BZ))
	$(if $(filter full,$(SERIES)),BZIMAGE_noshrink=$(NOSHRINK_OBJ)/$(BZ) $(MAINLINE_BENCH_ENV)) \
		$(BENCH_ENV) scripts/bench/bench.sh $(BENCH_OUT)
	$(if $(filter full,$(SERIES)),scripts/bench/bench-pools.sh $(BENCH_OUT)-pools)
	$(if $(filter full,$(SERIES)),$(TIMELINE_ENV) scripts/bench/bench-timeline.sh $(BENCH_OUT)-timeline)

# Debian's 6.12 in the bench (SERIES=full): its kernel with the default
# pool (mainline) and growing from the same 1 MiB (mainlinegrow), in the
# same rounds, each paired against the series' kernel with the same
# parameters, on fio and on dma_map_benchmark.  bench-report.sh judges
# growing against mainlinegrow: no loss above 1 %, and at most a quarter
# of what 6.12 holds after the reclaim.
MAINLINE_BENCH_ENV = EXTRA_SLOTS="mainline mainlinegrow" \
	CMDLINE_mainline=swiotlb=force LABEL_mainline="Debian $(MAINLINE_VERSION)" \
	BZIMAGE_mainlinegrow=$(MAINLINE_OBJ)/$(BZ) CMDLINE_mainlinegrow="$${GROWING_CMDLINE:-swiotlb=512,force}" \
	LABEL_mainlinegrow="Debian $(MAINLINE_VERSION), growing" \
	BENCH_STEPS="default/mainline growing/mainlinegrow" DMA_SLOTS="base default growing mainline mainlinegrow"

# The same comparison alone: base, the control, default, growing and the
# two 6.12 slots; no sized, no noshrink, no bench-pools and no timeline.
bench-mainline: $(BASE_OBJ)/$(BZ) $(PATCHED_OBJ)/$(BZ) $(MAINLINE_OBJ)/$(BZ) $(INITRD) $(BENCH_QEMU)
	$(MAINLINE_BENCH_ENV) SIZED=0 $(BENCH_ENV) scripts/bench/bench.sh $(BENCH_OUT)-mainline

# What the swiotlb holds, second by second, through spike, idle, trickle,
# pressure and spike, on the full series and on it without
# CONFIG_SWIOTLB_SHRINK: one VM each (tests/guest/timeline.sh), a table
# and a chart (scripts/bench/bench-timeline.sh).
TIMELINE_ENV = BZIMAGE_noshrink=$(NOSHRINK_OBJ)/$(BZ) SMP=$(SMP)
bench-timeline: $(NOSHRINK_OBJ)/$(BZ) $(PATCHED_OBJ)/$(BZ) $(INITRD)
	$(TIMELINE_ENV) scripts/bench/bench-timeline.sh $(BENCH_OUT)-timeline

# The shrinker's cost while it does not run.  The same bench with
# the full series minus CONFIG_SWIOTLB_SHRINK (same cmdline) in base's place.
bench-shrink: $(NOSHRINK_OBJ)/$(BZ) $(PATCHED_OBJ)/$(BZ) $(INITRD)
	BZIMAGE_base=$(NOSHRINK_OBJ)/$(BZ) BASE_LABEL="full series without CONFIG_SWIOTLB_SHRINK" SIZED=0 \
		$(BENCH_ENV) scripts/bench/bench.sh $(BENCH_OUT)-shrink

# Where growing's cost on small I/O goes, in one interleaved run: base,
# the control, default (patched, 64 MiB), fixed (patched, a fixed pool of
# the size growing's warm-up reaches, DECOMPOSE_FIXED), growing, and
# noperf (patches 0000-0018, before the performance and scale patches,
# with growing's parameters).  Between neighbours: the patched code path,
# the pool's size, several pools, what 0019-0044 buy.  Only the dma
# round that bench.sh always runs; DECOMPOSE_WORKLOADS (small).  Builds
# the noperf kernel with a make of its own.
DECOMPOSE_WORKLOADS ?= small
DECOMPOSE_FIXED ?= swiotlb=2048,force
bench-decompose: $(BASE_OBJ)/$(BZ) $(PATCHED_OBJ)/$(BZ) $(INITRD) $(BENCH_QEMU)
	$(MAKE) --no-print-directory SERIES=noperf kernel-patched
	EXTRA_SLOTS="fixed noperf" BZIMAGE_fixed=$(PATCHED_OBJ)/$(BZ) CMDLINE_fixed="$(DECOMPOSE_FIXED)" \
		LABEL_fixed="patched, a fixed pool" BZIMAGE_noperf=$(B)/obj/noperf/$(BZ) \
		CMDLINE_noperf="$${GROWING_CMDLINE:-swiotlb=512,force}" LABEL_noperf="SERIES=noperf (0000-0018)" \
		BENCH_STEPS="default/base fixed/default growing/fixed growing/noperf" \
		SIZED=0 WORKLOADS="$(DECOMPOSE_WORKLOADS)" DMA_RUNS=1 \
		$(BENCH_ENV) scripts/bench/bench.sh $(BENCH_OUT)-decompose

# The performance patches: the growing case before and after the performance patches, in
# one run, beside the unpatched kernel: default = SERIES=noperf (every patch
# above "# Performance" in series) and growing = full, both with the
# growing parameters.  Builds the noperf kernel with a make of its own.
bench-perf: $(BASE_OBJ)/$(BZ) $(PATCHED_OBJ)/$(BZ) $(INITRD) $(BENCH_QEMU)
	$(MAKE) --no-print-directory SERIES=noperf kernel-patched
	BZIMAGE_default=$(B)/obj/noperf/$(BZ) DEFAULT_LABEL="SERIES=noperf (before the performance patches)" \
		DEFAULT_CMDLINE="$${GROWING_CMDLINE:-swiotlb=512,force}" GROWING_LABEL="full series" SIZED=0 \
		$(BENCH_ENV) scripts/bench/bench.sh $(BENCH_OUT)-perf

# How often the checks whose timing or precondition depends on chance
# pass: qemu-shrink, the KUnit shrinker cases (swiotlb_test_shrink_*) and
# the timeline, PASS_RUNS runs each, one after another
# (scripts/report/pass-rate.sh), into $(B)/pass-rates/NAME.md.
# PASS_TESTS picks some of the three.
PASS_RUNS ?= 20
PASS_TESTS ?= qemu-shrink kunit-shrink timeline
pass-rates: $(PATCHED_OBJ)/$(BZ) $(NOSHRINK_OBJ)/$(BZ) $(INITRD)
	@status=0; for t in $(PASS_TESTS); do \
		case $$t in \
		qemu-shrink) set -- scripts/vm/qemu-test.sh tests/scenarios/shrink.conf ;; \
		kunit-shrink) set -- env KUNIT_RUN=kunit-shrink KUNIT_FILTER='swiotlb_dynamic.swiotlb_test_shrink*' \
			scripts/kunit/kunit-run.sh full ;; \
		timeline) set -- env $(TIMELINE_ENV) scripts/bench/bench-timeline.sh $(B)/pass-rates/timeline-run ;; \
		*) echo "PASS_TESTS: no test '$$t' (qemu-shrink, kunit-shrink or timeline)" >&2; exit 2 ;; \
		esac; \
		scripts/report/pass-rate.sh $(B)/pass-rates $(PASS_RUNS) $$t "$$@" || status=1; \
	done; exit $$status

# The cost of a lookup, and of a map and unmap, against the number of
# pools: the KUnit benchmark case on SERIES=noscale, on the full series and
# on Debian's 6.12, in one run (three KUnit kernels, built by
# scripts/kunit/kunit-run.sh, and booted under icount);
# scripts/bench/pools-report.sh judges it.
bench-pools: $(INITRD)
	scripts/bench/bench-pools.sh $(BENCH_OUT)-pools

# One short run of the small workload on each kernel, and checks on the
# report's shape (in make test).  No control: one round judges nothing,
# and tests/harness/test-bench-check.sh covers the control's verdicts.  BENCH_SMOKE_WORKLOADS="small big 4way"
# runs all three.
BENCH_SMOKE_WORKLOADS ?= small
bench-smoke: $(BASE_OBJ)/$(BZ) $(PATCHED_OBJ)/$(BZ) $(INITRD)
	-BENCH_SMP=1 RUNS=1 RUNTIME=2 WARMUP=0 CONTROL=0 DMA_SECONDS=1 WORKLOADS="$(BENCH_SMOKE_WORKLOADS)" SERIES=$(SERIES) \
		scripts/bench/bench.sh $(B)/bench-smoke
	scripts/bench/bench-check.sh $(B)/bench-smoke

# --- Debian configs and packages: the Debian packages of the cloud flavour (not in make test) ---
DEB_FLAVOUR ?= cloud-amd64
deb: $(PATCHED_SRC)/.series-applied
	FLAVOUR=$(DEB_FLAVOUR) scripts/deb/deb.sh $(B)/deb

# Boots the package of make deb, with its own modules, through the
# patched scenarios of make qemu-test; its own results file and summary.
deb-boot: $(INITRD)
	@rm -f $(B)/deb/results.txt
	-@RESULTS_FILE=$(B)/deb/results.txt scripts/deb/deb-boot.sh $(B)/deb
	@RESULTS_FILE=$(B)/deb/results.txt scripts/report/summarize.sh

# --- the harness's own tests ---
# shellcheck -x over every shell file, the guest's included: no finding,
# and every disable directive says why (scripts/checks/check-shellcheck.sh).
shellcheck:
	@scripts/checks/check-shellcheck.sh

# Every mainline commit cited in patches/, docs/, README.md and the KUnit
# suite is in patches/cited-commits.txt, with the subject written beside
# it (scripts/checks/check-citations.sh; no kernel tree needed).
check-citations:
	@scripts/checks/check-citations.sh

# Every program file names its licence (scripts/checks/check-licence.sh).
check-licence:
	@scripts/checks/check-licence.sh

# README.md and docs/DESIGN.md agree with the code: KUnit cases, scenarios,
# patches, series cuts, make test's time (scripts/checks/check-docs.sh).
check-docs:
	@scripts/checks/check-docs.sh

# tests/harness/run-tests.sh runs them two at a time (JOBS: the CPUs),
# longest first, and prints each one's output whole, in this order; every
# test runs, even after one failed (a failure must not hide the others'
# results), and the target fails if any did.
HARNESS_TESTS := test-failure-paths test-check-docs test-bench-check \
	test-timeline-report test-kunit-tree test-classify test-kunit-results \
	test-scenario-checks test-pools-report test-pass-rate test-compare test-watch
test-harness: $(BASE_SRC)/.extracted
	@tests/harness/run-tests.sh $(HARNESS_TESTS)

test-harness-vm: $(BASE_OBJ)/$(BZ) $(INITRD)
	tests/harness/test-vm-paths.sh

# The KUnit suite (tests/kunit/): a third kernel, built by the rules
# above; scripts/kunit/kunit-run.sh boots it and parses its results.
kunit: $(KUNIT_OBJ)/$(BZ) $(INITRD)
	KUNIT_BOOT_ONLY=1 scripts/kunit/kunit-run.sh $(SERIES) $(DYN)

# The same suite booted with preempt=full (the kernels are PREEMPT_DYNAMIC,
# as Debian's amd64 is): an unlock is a preemption point and a grace
# period may end there.  Results kunit-preempt-full.CASE, and .preempt for
# the mode the kernel reported.  make test boots the kernel of its kunit
# stage again (KUNIT_BOOT_ONLY=1).
kunit-preempt: $(KUNIT_OBJ)/$(BZ) $(INITRD)
	KUNIT_BOOT_ONLY=1 KUNIT_RUN=kunit-preempt-full KUNIT_PREEMPT=full scripts/kunit/kunit-run.sh $(SERIES) $(DYN)

# The same suite on Debian's 6.12 (scripts/kunit/kunit-run.sh mainline):
# mainline's dynamic SWIOTLB, none of our patches.  A case of a feature or
# fix of ours that 6.12 lacks skips and says so; results
# kunit-mainline[-nodyn][-debug].CASE.  Not in make test: a cold kernel
# build of its own, as for make test-mainline.
kunit-mainline: $(KUNIT_MAINLINE_OBJ)/$(BZ) $(INITRD)
	KUNIT_BOOT_ONLY=1 scripts/kunit/kunit-run.sh mainline $(DYN)

# The same suite on 6.12 with our fixes for mainline's code
# ($(MAINLINE_FIXES)): the cases of those fixes run, where 6.12 skips them
# (make test-regressions also boots each alone on both, to show the bug
# and the fix).
kunit-mainline-fixes: $(KUNIT_MAINLINE_FIXES_OBJ)/$(BZ) $(INITRD)
	KUNIT_BOOT_ONLY=1 scripts/kunit/kunit-run.sh mainline-fixes $(DYN)

# The same suite on arm64 (QEMU's virt machine, the arm64 initramfs):
# results kunit[-SERIES]-arm64.CASE.  Not in make test: a cross build of
# its own.
kunit-arm64: $(KUNIT_ARM64_OBJ)/$(ARM64_IMAGE) $(INITRD_arm64)
	KUNIT_ARCH=arm64 KUNIT_BOOT_ONLY=1 scripts/kunit/kunit-run.sh $(SERIES) y

# The same suite on a CONFIG_SWIOTLB_DYNAMIC=n build of the series (a
# fourth kernel, so not in make test): full pools fail cleanly, the
# dynamic-only and shrinker cases skip with their reason.
kunit-nodyn: $(INITRD)
	@rm -f $(RESULTS_FILE)
	-@$(MAKE) --no-print-directory DYN=n kunit
	@scripts/report/summarize.sh

# The debug-kernel tests: the KUnit suite and a verified fio load with a
# kmemleak scan on a debug kernel (configs/debug.config: KASAN, lockdep,
# kmemleak, ...) built from the KUnit tree of the full series.  A fifth
# kernel, so not in make test.
DEBUG_BZ := $(call kunit_obj,full,y,1)/$(BZ)
test-debug: $(INITRD)
	@rm -f $(RESULTS_FILE)
	-@KUNIT_DEBUG=1 KUNIT_PREEMPT=full scripts/report/stage.sh kunit-debug scripts/kunit/kunit-run.sh full y
	-@BZIMAGE_patched=$(DEBUG_BZ) scripts/report/stage.sh qemu-debug scripts/vm/qemu-test.sh tests/scenarios/debug.conf
	@scripts/report/summarize.sh

# A real Xen PV dom0 (scripts/vm/xen-dom0-test.sh): Debian's Xen under TCG,
# the series as dom0, an IDE disk behind ata_piix (32-bit DMA) that must
# get its DMA mask and pass fio verify.  A kernel of its own; not in make test.
test-xen-dom0: $(BZIMAGE_xen) $(INITRD)
	scripts/vm/xen-dom0-test.sh $(SERIES)

# The patched kernel's scenarios that mean something on mainline's code,
# on the 6.1 kernel with the series and on Debian's 6.12 in its place
# (PATCHED_AS=mainline: checks of its own where the scenario has them),
# one after the other, and their outcomes side by side.  Not in make test:
# 6.12 is a cold kernel build of its own.
MAINLINE_SCENARIOS := grow nvme shrink
test-mainline: $(PATCHED_OBJ)/$(BZ) $(MAINLINE_OBJ)/$(BZ) $(INITRD)
	@rm -f $(RESULTS_FILE)
	-@for s in $(MAINLINE_SCENARIOS); do \
		scripts/report/stage.sh $$s scripts/vm/qemu-test.sh tests/scenarios/$$s.conf; \
		BZIMAGE_patched=$(MAINLINE_OBJ)/$(BZ) PATCHED_AS=mainline \
			scripts/report/stage.sh mainline-$$s scripts/vm/qemu-test.sh tests/scenarios/$$s.conf; \
	done
	@echo "=== outcomes side by side"
	@scripts/report/compare.sh $(foreach s,$(MAINLINE_SCENARIOS),$(s) mainline-$(s))
	@scripts/report/summarize.sh

# Every linux-source-6.1 the archive serves (apt-cache madison), or
# VERSIONS="6.1.176-1 ...": apt-get download (not installed), quilt push
# -a --fuzz=0, kernel/dma/ with no warning and the QEMU kernel; a table in
# build/versions/summary.md (scripts/series/check-versions.sh; not in make
# test: about 3 min a version with ccache warm, more cold).
VERSIONS ?=
check-versions:
	FRAGMENTS="$(PATCHED_FRAGMENTS)" scripts/series/check-versions.sh $(VERSIONS)

# Follow-up fixes: the KUnit cases that fail on SERIES=v7 and pass on the
# full series, side by side, with the suite on Debian's 6.12 beside them
# (three KUnit kernels; not in make test).
# arm64 on QEMU's virt machine (TCG): the scenarios of tests/scenarios/
# whose ARCH is arm64, on the unpatched and the patched kernel, side by
# side: a device-tree restricted pool, filled (a 2 MiB pool, and a 512 KiB
# one with requests that fit it and with requests larger than it), and
# growth under swiotlb=512,force; then the KUnit suite on arm64 (make
# kunit-arm64) and the series' objects with Debian's arm64 config (make
# debian-config-arm64).
# Kernels of their own (a cold cross build each); not in make test.
ARM64_SCENARIOS := arm64-restricted-base arm64-restricted arm64-restricted-full-base arm64-restricted-full \
	arm64-restricted-small-base arm64-restricted-small arm64-restricted-stuck-base arm64-restricted-stuck \
	arm64-grow-base arm64-grow
test-arm64: $(IMAGE_arm64_base) $(IMAGE_arm64_patched) $(INITRD_arm64)
	@rm -f $(RESULTS_FILE)
	-@for s in $(ARM64_SCENARIOS); do \
		scripts/report/stage.sh $$s scripts/vm/qemu-test.sh tests/scenarios/$$s.conf; \
	done
	-@scripts/report/stage.sh kunit-arm64 $(MAKE) --no-print-directory kunit-arm64
	-@scripts/report/stage.sh debian-config.arm64 $(MAKE) --no-print-directory debian-config-arm64
	@scripts/report/compare.sh $(ARM64_SCENARIOS)
	@scripts/report/summarize.sh

test-regressions: $(INITRD)
	scripts/kunit/test-regressions.sh

# --- the two commands of the README ---
# Every stage runs even when an earlier one failed; each leaves results in
# $(RESULTS_FILE), and scripts/report/summarize.sh has the last word.
qemu-stages:
	-@scripts/report/stage.sh build-base $(MAKE) --no-print-directory kernel-base
	-@scripts/report/stage.sh build-patched $(MAKE) --no-print-directory kernel-patched
	-@scripts/report/stage.sh initramfs $(MAKE) --no-print-directory initramfs
	-@for s in $(QEMU_STAGES); do \
		scripts/report/stage.sh $$s $(MAKE) --no-print-directory $$s; \
	done
	@echo "=== outcomes side by side"
	@scripts/report/compare.sh $(patsubst test-%,%,$(patsubst qemu-%,%,$(QEMU_STAGES)))

# The Debian packages of scripts/packages.txt that are missing, installed
# with apt-get as root or through sudo (scripts/deps.sh); nothing when all
# are there.  The two commands of the README run it first.
deps:
	@scripts/deps.sh

qemu-test: deps
	@rm -f $(RESULTS_FILE)
	-@$(MAKE) --no-print-directory qemu-stages
	@scripts/report/summarize.sh

test: deps
	@rm -f $(RESULTS_FILE)
	-@scripts/report/stage.sh test-harness $(MAKE) --no-print-directory test-harness
	-@scripts/report/stage.sh shellcheck $(MAKE) --no-print-directory shellcheck
	-@scripts/report/stage.sh citations $(MAKE) --no-print-directory check-citations
	-@scripts/report/stage.sh licence $(MAKE) --no-print-directory check-licence
	-@scripts/report/stage.sh docs $(MAKE) --no-print-directory check-docs
	-@BISECT_VMLINUX= scripts/report/stage.sh port-checks $(MAKE) --no-print-directory port-checks
	-@$(MAKE) --no-print-directory qemu-stages
	-@for f in $(TEST_DEBIAN_FLAVOURS); do \
		scripts/report/stage.sh debian-config.$$f scripts/checks/debian-config-check.sh $$f; \
	done
	-@scripts/report/stage.sh test-harness-vm $(MAKE) --no-print-directory test-harness-vm
	-@scripts/report/stage.sh bench-smoke $(MAKE) --no-print-directory bench-smoke
	-@scripts/report/stage.sh kunit $(MAKE) --no-print-directory kunit
	-@KUNIT_BOOT_ONLY=1 scripts/report/stage.sh kunit-preempt $(MAKE) --no-print-directory kunit-preempt
	@scripts/report/summarize.sh

# Kernel objects live in the trees (build/src/TREE/obj-NAME, linked from
# build/obj/NAME; scripts/kernel/kconfig.sh --in-tree says why).
clean:
	rm -rf $(B)/obj $(B)/src/*/obj-* $(B)/qemu $(INITRD) $(RESULTS_FILE)

distclean:
	rm -rf $(B)

# The port checks (checkpatch, bisect builds, kernel-doc) live in their own file.
-include scripts/checks/checks.mk

# Debian's own configs (linux-config-6.1, amd64 and
# cloud-amd64) plus CONFIG_SWIOTLB_DYNAMIC=y; the objects the series touches
# and the swiotlb's x86 callers build on the unpatched and the patched tree,
# with no warning the unpatched tree lacks (scripts/checks/debian-config-check.sh).
# Objects only, in build/obj/debcfg-*; make test runs the same script
# after the QEMU stages (about 1.5 min with ccache warm, 3 min cold).
DEBIAN_FLAVOURS := amd64 cloud-amd64
# make test builds amd64 alone: for what the series touches its config is
# cloud-amd64's plus XEN_DOM0 (docs/DESIGN.md has the table).
TEST_DEBIAN_FLAVOURS := amd64
debian-config-check: $(BASE_SRC)/.extracted $(PATCHED_SRC)/.series-applied
	@rm -f $(RESULTS_FILE)
	-@for f in $(DEBIAN_FLAVOURS); do \
		SERIES=$(SERIES) scripts/report/stage.sh debian-config$(if $(filter v7,$(SERIES)),-v7).$$f \
			scripts/checks/debian-config-check.sh $$f; \
	done
	@scripts/report/summarize.sh
.PHONY: debian-config-check

# The same with Debian's arm64 config (config.arm64_none_arm64 of the arm64
# linux-config-6.1, fetched without installing it), cross-built; the
# last stage of make test-arm64.
DEBIAN_ARM64_CONFIG := $(B)/debian-arm64
$(DEBIAN_ARM64_CONFIG)/root/usr/src/linux-config-6.1/config.arm64_none_arm64.xz: scripts/vm/apt-fetch.sh
	scripts/vm/apt-fetch.sh $(DEBIAN_ARM64_CONFIG) bookworm arm64 linux-config-6.1
	touch $@
debian-config-arm64: $(BASE_SRC)/.extracted $(PATCHED_SRC)/.series-applied \
		$(DEBIAN_ARM64_CONFIG)/root/usr/src/linux-config-6.1/config.arm64_none_arm64.xz
	DEBIAN_CONFIG_DIR=$(DEBIAN_ARM64_CONFIG)/root/usr/src/linux-config-6.1 \
		scripts/checks/debian-config-check.sh arm64
.PHONY: debian-config-arm64
