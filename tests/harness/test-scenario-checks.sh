#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The scenarios' checks on crafted results: tests/scenarios/checks.sh's
# scenario_check on a result.txt and console.log written here (no kernel,
# no QEMU).  Each case gives the guest's keys, a check and the verdict it
# must reach; every check that can pass is also seen failing.
# Records harness.scenario-checks.CASE.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/harness/harness-lib.sh
. "$here/harness-lib.sh"

# checks_case NAME CHECK WANT KEY=VALUE...: scenario_check CHECK on a run
# whose guest reported the KEY=VALUE lines must record WANT (PASS or FAIL).
# CONSOLE_LINE, if set, is the console log's one line; NO_CONSOLE=1 leaves
# the log empty.
checks_case() {
	local name=$1 chk=$2 want=$3 got
	shift 3
	# checks.sh reads $out; check() is qemu-test.sh's, reduced.
	out=$tmp/$name
	mkdir -p "$out"
	printf '%s\n' "$@" > "$out/result.txt"
	if [ -n "${NO_CONSOLE:-}" ]; then
		: > "$out/console.log"
	else
		echo "${CONSOLE_LINE:-harness: fio /tests/fio/virtio-verify.fio}" > "$out/console.log"
	fi
	got=$(
		check() { echo "$1 $3"; }
		# shellcheck source=tests/scenarios/checks.sh
		. "$PROJECT_TOP/tests/scenarios/checks.sh"
		scenario_results
		scenario_check "$chk"
	)
	if [ "${got%% *}" = "$want" ]; then
		record PASS "harness.scenario-checks.$name" "$chk: $got"
	else
		record FAIL "harness.scenario-checks.$name" "$chk: want $want, got '$got'"
		status=1
	fi
}

# bounced: the high-water mark, reset before the load, rose; the samples
# of io_tlb_used missed the load (as they did on the Xen dom0's IDE disk).
checks_case bounced-hiwater bounced PASS \
	used_boot=320 hiwater_start=320 hiwater=352 used_max=320 samples=10
checks_case bounced-hiwater-flat bounced FAIL \
	used_boot=320 hiwater_start=320 hiwater=320 used_max=320 samples=10
# A kernel without the mark: samples above the use at boot, or nothing.
checks_case bounced-sampled bounced PASS \
	used_boot=0 used_max=64 samples=10
checks_case bounced-sampled-at-boot bounced FAIL \
	used_boot=320 used_max=320 samples=10
checks_case bounced-no-report bounced FAIL samples=10
checks_case grows grows PASS nslabs_boot=512 nslabs_after=2560
checks_case grows-not grows FAIL nslabs_boot=512 nslabs_after=512
checks_case constant constant PASS nslabs_boot=32768 nslabs_after=32768 nslabs_max=32768
checks_case constant-grew-meanwhile constant FAIL nslabs_boot=32768 nslabs_after=32768 nslabs_max=33280
checks_case counters counters PASS used_boot=0 nslabs_boot=512 hiwater=300 \
	used_max=200 used_after=0 hiwater_reset=0 transient_after=0
checks_case counters-below-sample counters FAIL used_boot=0 nslabs_boot=512 hiwater=100 \
	used_max=200 used_after=0 hiwater_reset=0 transient_after=0
checks_case counters-transient-left counters FAIL used_boot=0 nslabs_boot=512 hiwater=300 \
	used_max=200 used_after=0 hiwater_reset=0 transient_after=8
checks_case bytes bytes PASS write_kib=524288 read_kib=524288
checks_case bytes-short bytes FAIL write_kib=524288 read_kib=1024
# keeps: a kernel without the shrinker (Debian's 6.12) keeps what it grew.
keeps_run=(nslabs_boot=512 nslabs_before_shrink=4096 nslabs_after_shrink=4096
	spike2.nslabs_after=4096 trickle.seconds=30 trickle.writes=60 trickle.errors=0)
checks_case keeps keeps PASS shrinker=0 "${keeps_run[@]}" trickle.nslabs_end=4096
checks_case keeps-shrank keeps FAIL shrinker=0 "${keeps_run[@]}" trickle.nslabs_end=512
checks_case keeps-has-shrinker keeps FAIL shrinker=1 "${keeps_run[@]}" trickle.nslabs_end=4096
checks_case keeps-no-growth keeps FAIL shrinker=0 nslabs_boot=512 nslabs_before_shrink=512 \
	nslabs_after_shrink=512 spike2.nslabs_after=512 trickle.nslabs_end=512 trickle.writes=60 trickle.errors=0
# The arm64 restricted pool (tests/guest/restricted-pool.sh).
checks_case on-mmio on-mmio PASS disk_device=/sys/devices/platform/a003e00.virtio_mmio/virtio0
checks_case on-mmio-other on-mmio FAIL disk_device=/sys/devices/platform/a003c00.virtio_mmio/virtio1
checks_case on-mmio-none on-mmio FAIL md5_ok=1
checks_case restricted-used restricted-used PASS pool_used_max=0 pool_hiwater=532
checks_case restricted-used-sampled restricted-used PASS pool_used_max=12 pool_hiwater=-1
checks_case restricted-unused restricted-used FAIL pool_used_max=0 pool_hiwater=0
checks_case md5 md5 PASS md5_ok=1 jobs=8
checks_case md5-differs md5 FAIL md5_ok=0 jobs=8
checks_case md5-not-reported md5 FAIL jobs=8
checks_case restricted-fixed restricted-fixed PASS pool_nslabs_boot=1024 pool_nslabs_end=1024
checks_case restricted-grew restricted-fixed FAIL pool_nslabs_boot=1024 pool_nslabs_end=2048
checks_case restricted-fixed-no-pool restricted-fixed FAIL pool_nslabs_boot=-1 pool_nslabs_end=-1
# 512 KiB pool (256 slots), 256 KiB segments: 1 segment beside the ring's.
checks_case request-fits request-fits PASS max_sectors_kb=128 max_segment_size=262144 pool_nslabs_boot=256
checks_case request-fits-2m request-fits PASS max_sectors_kb=1280 max_segment_size=262144 pool_nslabs_boot=1024
checks_case request-fits-not request-fits FAIL max_sectors_kb=1280 max_segment_size=262144 pool_nslabs_boot=256
checks_case request-fits-one-over request-fits FAIL max_sectors_kb=257 max_segment_size=262144 pool_nslabs_boot=256
checks_case request-fits-unreported request-fits FAIL max_segment_size=262144 pool_nslabs_boot=256
checks_case request-too-big request-too-big PASS max_sectors_kb=1280 max_segment_size=262144 pool_nslabs_boot=256
checks_case request-too-big-fits request-too-big FAIL max_sectors_kb=512 max_segment_size=262144 pool_nslabs_boot=256
checks_case request-too-big-unreported request-too-big FAIL max_sectors_kb=1280 pool_nslabs_boot=256
checks_case default-idle default-idle PASS default_nslabs=32768 default_used_end=0 default_hiwater=0
checks_case default-idle-no-pool default-idle PASS default_nslabs=-1 default_used_end=-1 default_hiwater=-1
checks_case default-used default-idle FAIL default_nslabs=32768 default_used_end=0 default_hiwater=40
checks_case default-not-reported default-idle FAIL md5_ok=1
CONSOLE_LINE="[ 7.5] virtio-mmio a003e00.virtio_mmio: swiotlb buffer is full (sz: 262144 bytes)" \
	checks_case buffer-full buffer-full PASS md5_ok=1
checks_case buffer-never-full buffer-full FAIL md5_ok=1
CONSOLE_LINE="swiotlb buffer is full (sz: 192512 bytes); INFO: task dd:56 blocked for more than 61 seconds." \
	checks_case writers-hung writers-hung PASS nslabs_boot=512
CONSOLE_LINE="swiotlb buffer is full (sz: 192512 bytes)" \
	checks_case writers-not-hung writers-hung FAIL nslabs_boot=512
CONSOLE_LINE="INFO: task dd:56 blocked for more than 61 seconds." \
	checks_case writers-hung-not-full writers-hung FAIL nslabs_boot=512
# fio's verdicts, and what the log says.
checks_case fio-ok fio-ok PASS fio_status=0 fio_errors=0 fio_jobs=4
checks_case fio-ok-errors fio-ok FAIL fio_status=0 fio_errors=3 fio_jobs=4
checks_case fio-ok-no-job fio-ok FAIL fio_status=0 fio_errors=0 fio_jobs=0
checks_case fio-noted fio-noted PASS fio_status=1 fio_errors=2 write_kib=1024
checks_case fio-not-noted fio-noted FAIL md5_ok=1
checks_case no-buffer-full no-buffer-full PASS md5_ok=1
CONSOLE_LINE="swiotlb buffer is full (sz: 4096 bytes)" \
	checks_case buffer-was-full no-buffer-full FAIL md5_ok=1
checks_case buffer-full-noted buffer-full-noted PASS md5_ok=1
NO_CONSOLE=1 checks_case buffer-full-no-log buffer-full-noted FAIL md5_ok=1
CONSOLE_LINE="Dynamic Preempt: full" checks_case preempt-full preempt-full PASS md5_ok=1
CONSOLE_LINE="Dynamic Preempt: voluntary" checks_case preempt-voluntary preempt-full FAIL md5_ok=1
checks_case no-leaks no-leaks PASS kmemleak_leaks=0
checks_case leaks no-leaks FAIL kmemleak_leaks=2
checks_case leaks-no-kmemleak no-leaks FAIL md5_ok=1
# The debug and shrink scenarios' steps (tests/guest/debug-load.sh,
# tests/guest/shrink-load.sh): each a verified fio run (fine PREFIX).
fine() { printf "$1%s\n" fio_status=0 fio_errors=0 fio_jobs=1 read_kib=1024 write_kib=1024; }
mapfile -t spikes < <(fine spike1.; fine spike2.)
checks_case spikes-ok spikes-ok PASS "${spikes[@]}"
checks_case spikes-ok-errors spikes-ok FAIL "${spikes[@]}" spike2.fio_errors=1
mapfile -t step < <(fine inject_all.)
all=(inject_all.page_injected=5 inject_all.nslabs_boot=512 inject_all.worker_failed=2)
checks_case inject-all inject-all PASS "${step[@]}" "${all[@]}" \
	inject_all.nslabs_after=512 inject_all.nslabs_max=512
checks_case inject-all-grew inject-all FAIL "${step[@]}" "${all[@]}" \
	inject_all.nslabs_after=1024 inject_all.nslabs_max=1024
mapfile -t step < <(fine resume.)
checks_case resume resume PASS "${step[@]}" resume.nslabs_boot=512 resume.nslabs_after=1024
checks_case resume-no-growth resume FAIL "${step[@]}" resume.nslabs_boot=512 resume.nslabs_after=512
mapfile -t step < <(fine inject_random.)
checks_case inject-random inject-random PASS "${step[@]}" inject_random.page_injected=3 \
	inject_random.slab_injected=2 inject_random.transient_after=0
checks_case inject-random-left inject-random FAIL "${step[@]}" inject_random.page_injected=3 \
	inject_random.slab_injected=2 inject_random.transient_after=4
mapfile -t step < <(fine pressure.)
hog=(pressure.hog_ready=1 pressure.worker_failed=1 pressure.transient_freed=6)
checks_case pressure pressure PASS "${step[@]}" "${hog[@]}" pressure.hog_alive=1
checks_case pressure-hog-died pressure FAIL "${step[@]}" "${hog[@]}" pressure.hog_alive=0
mapfile -t step < <(fine shrink_loop.)
checks_case shrink-loop shrink-loop PASS "${step[@]}" shrink_loop.pools_freed=3 shrink_loop.transient_after=0
checks_case shrink-loop-no-shrinker shrink-loop FAIL "${step[@]}" shrink_loop.transient_after=0
# figures: every step's counts reported, no kernel report on the console.
mapfile -t figs < <(for p in '' inject_all. resume. inject_random. pressure. shrink_loop.; do
	printf "$p%s\n" transient_freed=1 write_kib=1024 read_kib=1024; done)
checks_case figures figures PASS "${figs[@]}"
checks_case figures-missing figures FAIL "${figs[@]:3}"
exit $status
