#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# swiotlb-info: report the swiotlb debugfs counters once and pass if they
# can be read.  A quick boot check (tests/harness/test-vm-paths.sh).
# shellcheck source=tests/guest/guest-lib.sh
. /tests/guest-lib.sh
n=$(swiotlb_read io_tlb_nslabs)
report nslabs_boot "$n"
report used_boot "$(swiotlb_read io_tlb_used)"
[ "$n" -gt 0 ] || { fail "cannot read $SWIOTLB/io_tlb_nslabs"; exit 1; }
