# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# The start every harness self-test shares (sourced): scripts/lib.sh, a
# scratch directory $tmp removed on exit, and status=0 for the test's
# exit status.
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2034 # the test that sources this sets and reads it
status=0
