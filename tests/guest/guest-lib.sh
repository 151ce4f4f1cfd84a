# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Helpers for the in-guest tests (busybox sh).

SWIOTLB=/sys/kernel/debug/swiotlb

# report KEY VALUE: one measurement, to the result port and to the console.
# REPORT_PREFIX, if set, goes before KEY (the steps of debug-load.sh).
report() {
	echo "${REPORT_PREFIX:-}$1=$2" >> "$HARNESS_RESULT"
	echo "harness: ${REPORT_PREFIX:-}$1=$2"
}

# fail MESSAGE: say why a test fails.
fail() {
	echo "harness: FAIL: $*"
}

swiotlb_read() {
	cat "$SWIOTLB/$1" 2>/dev/null || echo -1
}

# warm_up SPIKE MAXSPIKES: the bench's warm-up: fio SPIKE (a job file),
# again while the swiotlb holds less than four times its boot size, at
# most MAXSPIKES times in all; then io_tlb_used_hiwater is reset, so that
# hiwater is what the measured load used.  Reports spikes, nslabs_warm,
# transient_maps_warm and spike_hiwater (bench-fio.sh, bench-dma.sh).
warm_up() {
	warm_boot=$(swiotlb_read io_tlb_nslabs) warm_n=0 warm_now=$warm_boot
	while [ "$warm_n" -lt "$2" ] && [ "$warm_now" -lt $((4 * warm_boot)) ]; do
		echo "harness: warm-up spike $((warm_n + 1)), io_tlb_nslabs $warm_now"
		fio --eta=never --output=/dev/null "$1" ||
			{ fail "the warm-up spike $1 failed"; return 1; }
		warm_n=$((warm_n + 1)) warm_now=$(swiotlb_read io_tlb_nslabs)
	done
	report spikes "$warm_n"
	report nslabs_warm "$warm_now"
	[ -e "$SWIOTLB/io_tlb_transient_maps" ] &&
		report transient_maps_warm "$(swiotlb_read io_tlb_transient_maps)"
	if [ -e "$SWIOTLB/io_tlb_used_hiwater" ]; then
		report spike_hiwater "$(swiotlb_read io_tlb_used_hiwater)"
		echo 0 > "$SWIOTLB/io_tlb_used_hiwater"
	fi
	return 0
}

# shrinkers_run: run the kernel's memory shrinkers, the swiotlb's among
# them with CONFIG_SWIOTLB_SHRINK (drop_caches 2: slab and other objects).
shrinkers_run() {
	echo 2 > /proc/sys/vm/drop_caches || { fail "cannot write drop_caches"; return 1; }
}

# reclaim SECONDS [LIMIT]: shrinkers_run once a second, for at most SECONDS
# s, until io_tlb_nslabs is at most LIMIT (without LIMIT: for all SECONDS).
# Sets RECLAIM_S to the seconds it ran; status 1 if a run failed.
reclaim() {
	reclaim_limit=${2:--1} reclaim_status=0 RECLAIM_S=0
	while [ "$RECLAIM_S" -lt "$1" ] && { [ "$reclaim_limit" -lt 0 ] ||
		[ "$(swiotlb_read io_tlb_nslabs)" -gt "$reclaim_limit" ]; }; do
		shrinkers_run || reclaim_status=1
		sleep 1
		RECLAIM_S=$((RECLAIM_S + 1))
	done
	return "$reclaim_status"
}

# shrink_delay MS: set io_tlb_shrink_delay_ms, the shrinker's hysteresis
# (5000 at boot); status 1 without CONFIG_SWIOTLB_SHRINK.
shrink_delay() {
	echo "$1" 2>/dev/null > "$SWIOTLB/io_tlb_shrink_delay_ms"
}

# trickle_start: one 4 KiB direct write to /dev/vda every 0.5 s in the
# background, at 400 MiB and on (where no fio job of tests/fio writes).
# trickle_stop: stop it; sets TRICKLE_WRITES and TRICKLE_ERRORS.
trickle_start() {
	rm -f /tmp/trickle.stop
	(
		n=0 errors=0
		while [ ! -e /tmp/trickle.stop ]; do
			dd if=/dev/zero of=/dev/vda bs=4k count=1 \
				seek=$((102400 + n % 256)) oflag=direct 2>/dev/null ||
				errors=$((errors + 1))
			n=$((n + 1))
			sleep 0.5
		done
		echo "$n $errors" > /tmp/trickle.count
	) &
	TRICKLE_PID=$!
}

trickle_stop() {
	touch /tmp/trickle.stop
	wait "$TRICKLE_PID"
	# shellcheck disable=SC2034 # read by the scripts that source this file
	read -r TRICKLE_WRITES TRICKLE_ERRORS < /tmp/trickle.count
}

# sampler_start: sample io_tlb_used and io_tlb_nslabs every 0.2 s in the
# background and keep the largest values seen in /tmp/sample.*.
# sampler_stop: stop it and report used_max, nslabs_max and the sample count.
sampler_start() {
	rm -f /tmp/sample.stop
	echo 0 > /tmp/sample.used_max
	echo 0 > /tmp/sample.nslabs_max
	echo 0 > /tmp/sample.count
	(
		umax=0 nmax=0 n=0
		while [ ! -e /tmp/sample.stop ]; do
			u=$(swiotlb_read io_tlb_used)
			s=$(swiotlb_read io_tlb_nslabs)
			n=$((n + 1))
			[ "$u" -gt "$umax" ] && umax=$u && echo "$umax" > /tmp/sample.used_max
			[ "$s" -gt "$nmax" ] && nmax=$s && echo "$nmax" > /tmp/sample.nslabs_max
			echo "$n" > /tmp/sample.count
			sleep 0.2
		done
	) &
	SAMPLER_PID=$!
}

sampler_stop() {
	touch /tmp/sample.stop
	wait "$SAMPLER_PID" 2>/dev/null
	report used_max "$(cat /tmp/sample.used_max)"
	report nslabs_max "$(cat /tmp/sample.nslabs_max)"
	report samples "$(cat /tmp/sample.count)"
}

# fio_json FILE: the JSON report that fio --output-format=json wrote to
# FILE, on stdout. fio writes its warnings ("fio: multiple writers may
# overwrite blocks ...") into the same file, before the JSON: those go to
# the console.
fio_json() {
	sed '/^{/,$d' "$1" > /dev/console
	sed -n '/^{/,$p' "$1"
}

# fio_summary FIELD RKEY WKEY: from fio's JSON report /tmp/fio.report (one
# entry of "jobs" per job), report fio_jobs (how many jobs reported),
# fio_errors (their errors, summed; -1: no report) and, as RKEY and WKEY,
# FIELD of their reads and of their writes, summed (bw: KiB/s; io_kbytes:
# the KiB moved).  Sets FIO_ERRORS.  Status 1, and says so, when no job
# reported.
fio_summary() {
	jq -r --arg f "$1" '[(.jobs | length), ([.jobs[].error] | add // 0),
		([.jobs[].read[$f]] | add // 0), ([.jobs[].write[$f]] | add // 0)] | @tsv' \
		/tmp/fio.report > /tmp/fio.sum 2> /dev/console
	read -r fio_jobs FIO_ERRORS fio_r fio_w < /tmp/fio.sum
	FIO_ERRORS=${FIO_ERRORS:--1}
	report fio_jobs "${fio_jobs:-0}"
	report fio_errors "$FIO_ERRORS"
	report "$2" "${fio_r:-0}"
	report "$3" "${fio_w:-0}"
	[ "${fio_jobs:-0}" -gt 0 ] || { fail "fio wrote no job report"; return 1; }
}

# md5_load DIR MIB JOBS: the load of the tests without fio (the arm64
# guest): JOBS dd writers at once, each MIB/JOBS MiB of the same random
# data to a region of /dev/vda of its own, then sync, drop the page cache,
# and as many readers.  Samples DIR/io_tlb_used while it runs.  Sets
# LOAD_USED_MAX (the largest sample), LOAD_SAMPLES (how many samples),
# LOAD_STATUS (0: every dd, the sync and the drop worked) and LOAD_BAD
# (regions whose md5sum differs from the data's), and says which failed;
# reports jobs, write_kib and read_kib (the KiB of the regions that came
# back right) and md5_ok.  Status 1 if it could not start.
md5_load() {
	md5_dir=$1 md5_per=$(($2 / $3)) md5_jobs=$3
	[ "$md5_per" -gt 0 ] || { fail "$2 MiB cannot be shared by $3 jobs"; return 1; }
	dd if=/dev/urandom of=/tmp/data bs=1M count="$md5_per" 2> /dev/null ||
		{ fail "cannot make $md5_per MiB of data in /tmp"; return 1; }
	md5_sum=$(md5sum < /tmp/data)
	(
		st=0 pids='' j=0
		while [ "$j" -lt "$md5_jobs" ]; do
			dd if=/tmp/data of=/dev/vda bs=1M seek=$((j * md5_per)) 2> /dev/null &
			pids="$pids $!" j=$((j + 1))
		done
		for p in $pids; do wait "$p" || st=1; done
		{ sync && echo 3 > /proc/sys/vm/drop_caches; } || st=1
		pids='' j=0
		while [ "$j" -lt "$md5_jobs" ]; do
			dd if=/dev/vda of=/tmp/back.$j bs=1M skip=$((j * md5_per)) count="$md5_per" 2> /dev/null &
			pids="$pids $!" j=$((j + 1))
		done
		for p in $pids; do wait "$p" || st=1; done
		echo "$st" > /tmp/load.status
	) &
	md5_pid=$!
	LOAD_USED_MAX=0 LOAD_SAMPLES=0
	while kill -0 "$md5_pid" 2> /dev/null; do
		u=$(cat "$md5_dir/io_tlb_used" 2> /dev/null || echo 0)
		[ "$u" -gt "$LOAD_USED_MAX" ] && LOAD_USED_MAX=$u
		LOAD_SAMPLES=$((LOAD_SAMPLES + 1))
	done
	wait "$md5_pid"
	LOAD_STATUS=$(cat /tmp/load.status) LOAD_BAD=0 j=0
	while [ "$j" -lt "$md5_jobs" ]; do
		[ "$(md5sum < /tmp/back.$j)" = "$md5_sum" ] || LOAD_BAD=$((LOAD_BAD + 1))
		j=$((j + 1))
	done
	[ "$LOAD_STATUS" = 0 ] || fail "a write, the flush or a read-back of /dev/vda failed"
	[ "$LOAD_BAD" = 0 ] ||
		fail "the data read back from $LOAD_BAD of $md5_jobs regions of /dev/vda differs from what was written"
	report jobs "$md5_jobs"
	# as fio-verify.sh reports them (KiB), for scripts/report/compare.sh
	report write_kib $((md5_jobs * md5_per * 1024))
	report read_kib $(((md5_jobs - LOAD_BAD) * md5_per * 1024))
	if [ "$LOAD_STATUS" = 0 ] && [ "$LOAD_BAD" = 0 ]; then
		report md5_ok 1
	else
		report md5_ok 0
	fi
	rm -f /tmp/data /tmp/back.*
	return 0
}
