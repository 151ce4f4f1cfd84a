# SPDX-License-Identifier: GPL-2.0-only
# The port checks (included by the top-level Makefile).
#
#   make port-checks [SERIES=CUT]   what `make test` runs: the series
#       applies (quilt, git am), checkpatch, kernel-doc, a build after each
#       patch (DYNAMIC=n, and =y from the patch that adds it) with vmlinux
#       of both linked alongside the steps, and the x86_64 coverage
#       configs.  make test runs it with BISECT_VMLINUX= (no link: the
#       build-patched stage links DYNAMIC=y, and a DYNAMIC=n link is a cold
#       kernel build); see scripts/checks/check-*.sh.
#   make cross-check [SERIES=...]       arch/arm/xen/mm.o and
#       arch/mips/pci/pci-octeon.o with Debian's cross compilers (installed
#       with apt-get when missing).  Not part of `make test`: it needs two
#       more compilers and two more kernel preparations.
#   make check-apply|check-checkpatch|check-kernel-doc|check-bisect|
#        check-coverage             one check alone (check-apply first: the
#       others use its trees).
#   make check-checkpatch-seeds SEEDS_DIR=DIR   checkpatch, and also each
#       port of v7 against its original mail in DIR (its subject, and the
#       allowed warnings).  Not part of `make test`: the mails are not in
#       the repository.
#
# Each check records PASS/FAIL lines in $(RESULTS_FILE) (scripts/lib.sh).
# Trees, objects and logs: $(CHECKS_DIR)/SERIES/ (logs/ has every log).

SERIES ?= full
BUILD ?= build
CHECKS_DIR ?= $(CURDIR)/$(BUILD)/checks
export CHECKS_DIR

PORT_CHECKS := apply checkpatch kernel-doc bisect coverage

.PHONY: port-checks cross-check check-checkpatch-seeds $(addprefix check-,$(PORT_CHECKS))

# Every check runs even when an earlier one failed (a check that cannot run
# for want of a tree records FAIL itself); the target fails if any did.
port-checks:
	@start=$$(date +%s); rc=0; \
	for c in $(PORT_CHECKS); do \
		echo "--- port check $$c (SERIES=$(SERIES))"; t=$$(date +%s); \
		scripts/checks/check-$$c.sh $(SERIES) || rc=1; \
		echo "--- port check $$c took $$(( $$(date +%s) - t )) s"; \
	done; \
	echo "--- port checks (SERIES=$(SERIES)) took $$(( ($$(date +%s) - start) / 60 )) min $$(( ($$(date +%s) - start) % 60 )) s"; \
	exit $$rc

# It applies the series afresh first, so that it never builds stale trees.
cross-check:
	@scripts/checks/check-apply.sh $(SERIES) && scripts/checks/check-cross.sh $(SERIES)

$(addprefix check-,$(PORT_CHECKS)):
	@scripts/checks/$@.sh $(SERIES)

check-checkpatch-seeds:
	@test -n "$(SEEDS_DIR)" || { echo "set SEEDS_DIR to the directory of the v7 mails" >&2; exit 2; }
	@SEEDS_DIR="$(SEEDS_DIR)" scripts/checks/check-checkpatch.sh $(SERIES)
