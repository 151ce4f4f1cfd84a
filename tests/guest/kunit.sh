#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The KUnit suites of a test kernel run at boot, before init; their KTAP
# output is on the console, and the host parses it with the tree's
# tools/testing/kunit/kunit.py.  Here we only check that the swiotlb suite
# ran to its end, so that a kernel built without it cannot pass.
if ! dmesg | grep -q "# Subtest: swiotlb_dynamic"; then
	echo "kunit: the swiotlb_dynamic suite did not start"
	exit 1
fi
if ! dmesg | grep -Eq "(not )?ok [0-9]+ swiotlb_dynamic"; then
	echo "kunit: the swiotlb_dynamic suite did not finish"
	exit 1
fi
exit 0
