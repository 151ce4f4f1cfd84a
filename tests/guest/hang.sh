#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# hang: never finish.  The harness's own test of the host's test timeout
# (tests/harness/test-vm-paths.sh).
echo "harness: sleeping forever"
while :; do sleep 60; done
