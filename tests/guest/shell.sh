#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# shell: an interactive shell on the console, for debugging (make qemu-shell).
echo "harness: interactive shell; 'exit' powers the VM off"
setsid cttyhack sh
