# shellcheck shell=bash
# Shared by the harness scripts: exit codes and messages.
#
# Every way a run can end has its own exit status, so that a caller (make,
# CI, a person) can tell "the test found a bug" from "the kernel crashed"
# from "the machine is missing a package".

EX_OK=0          # everything passed
EX_TESTFAIL=1    # a test ran and failed
EX_USAGE=2       # the script was called wrongly
EX_MISSING=3     # a package, tool or file is missing (e.g. QEMU not found)
EX_VERSION=4     # the kernel source is not 6.1.x
EX_PATCH=5       # a patch of the series does not apply
EX_CONFIG=6      # an option asked for by a config fragment did not survive
EX_BUILD=7       # the kernel or a tool failed to build
EX_CRASH=8       # the guest kernel crashed (panic, Oops, BUG, WARNING, ...)
EX_TIMEOUT=9     # the guest did not boot or finish in time
EX_DISK=10       # a disk image could not be created

# shellcheck disable=SC2034
PROJECT_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# die STATUS MESSAGE: one line on stderr, then exit with STATUS.
die() {
	local status=$1
	shift
	echo "$(basename "$0"): error: $*" >&2
	exit "$status"
}

info() {
	echo "$(basename "$0"): $*" >&2
}

# run CMD...: print a command before running it, like kunit.py does.
run() {
	echo "+ $*" >&2
	"$@"
}

# record PASS|FAIL NAME [REASON]: note one test result.  Every stage of
# `make test` records into the same file; scripts/summarize.sh counts them
# and prints the closing "N passed, M failed" line.
RESULTS_FILE=${RESULTS_FILE:-$PROJECT_TOP/build/test-results.txt}
record() {
	local verdict=$1 name=$2
	shift 2
	mkdir -p "$(dirname "$RESULTS_FILE")"
	echo "$verdict $name${*:+: $*}" >> "$RESULTS_FILE"
	echo "$verdict $name${*:+: $*}"
}
