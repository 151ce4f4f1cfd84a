# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# out, bz and conf are set by scripts/vm/qemu-test.sh, which sources this:
# shellcheck disable=SC2154
# The checks a scenario names in CHECKS (tests/scenarios/*.conf): each is
# one case of scenario_check, and records one line, qemu.NAME.CHECK.
#
# Sourced by scripts/vm/qemu-test.sh after the VM has run, which provides:
#   out    the run's output directory (console.log, result.txt, cpus.txt)
#   bz     the kernel it booted
#   conf   the scenario file
#   check VERDICT CHECK REASON   record one result line
# and calls scenario_results once, then scenario_check for each check.
# MIN_KIB (default 524288) is what the bytes check wants written and read.

# scenario_results: read what the guest measured ($out/result.txt,
# key=value lines) for val, and count "swiotlb buffer is full" in the
# console log (full).
scenario_results() {
	local k v
	declare -gA m=()
	while IFS='=' read -r k v; do
		[ -n "$k" ] && m[$k]=${v%$'\r'}
	done < "$out/result.txt"
	full=$(grep -ac 'swiotlb buffer is full' "$out/console.log")
}

# val KEY: a value the guest measured; -1 when missing.
val() { echo "${m[$1]:--1}"; }

# in_step STEP REGEX: console lines matching REGEX after the guest's
# "harness: step STEP" line and before its next step (tests/guest/debug-load.sh).
in_step() {
	tr -d '\r' < "$out/console.log" |
	awk -v step="$1" -v re="$2" '/^harness: step / { cur = $3; next }
		cur == step && $0 ~ re { n++ } END { print n + 0 }'
}
# worker_failed STEP: grow-worker runs of the step that added no pool (the
# guest counts them), and the worker's warnings the console shows in it.
worker_failed() { val "$1.worker_failed"; }
worker_warned() { in_step "$1" 'Failed to allocate new pool'; }
# fio_fine PREFIX: empty if the fio run of a step verified, else why not.
fio_fine() {
	if [ "$(val "$1fio_status")" = 0 ] && [ "$(val "$1fio_errors")" = 0 ] &&
	   [ "$(val "$1fio_jobs")" -gt 0 ] && [ "$(val "$1read_kib")" -gt 0 ]; then
		return
	fi
	echo "fio status $(val "$1fio_status"), errors $(val "$1fio_errors"), job reports $(val "$1fio_jobs"), $(val "$1read_kib") KiB verified"
}

# pass_if CHECK PASS_REASON FAIL_REASON COMMAND...: record CHECK as PASS
# with the first reason when COMMAND succeeds, else as FAIL with the second.
pass_if() {
	local c=$1 yes=$2 no=$3
	shift 3
	if "$@"; then
		check PASS "$c" "$yes"
	else
		check FAIL "$c" "$no"
	fi
}

# scenario_check CHECK: judge one check of the scenario.
scenario_check() {
	local c=$1 p why wf facts hw ub nb nbs nas pinned freed_kib w r tr inj
	local missing reports site sites k min_kib=${MIN_KIB:-524288}
	local req_kib seg_kib pool_kib segs room
	case "$c" in
		fio-ok)
			pass_if fio-ok "fio status 0, $(val fio_jobs) job reports, 0 errors" \
				"fio status $(val fio_status), errors $(val fio_errors), job reports $(val fio_jobs)" \
				test "$(val fio_status)" = 0 -a "$(val fio_errors)" = 0 -a "$(val fio_jobs)" -gt 0 ;;
		bytes)
			w=$(val write_kib) r=$(val read_kib)
			pass_if bytes "$((w / 1024)) MiB written, $((r / 1024)) MiB read back and verified (>= $((min_kib / 1024)))" \
				"$w KiB written, $r KiB verified, want >= $min_kib each" \
				test "$w" -ge "$min_kib" -a "$r" -ge "$min_kib" ;;
		bounced)
			# The load mapped a bounce buffer: the high-water mark, reset
			# just before the load, rose (tests/guest/fio-verify.sh). A
			# kernel without the mark (base, v7) has only the samples of
			# io_tlb_used, every 0.2 s, which can miss a short load: there
			# the check can fail wrongly, never pass wrongly.
			hw=$(val hiwater) ub=$(val used_boot)
			if [ "$(val hiwater_start)" != -1 ]; then
				if [ "$hw" -gt "$(val hiwater_start)" ]; then
					check PASS bounced "io_tlb_used_hiwater $(val hiwater_start) when reset before the load, $hw after it"
				else
					check FAIL bounced "io_tlb_used_hiwater $(val hiwater_start) when reset before the load, $hw after it: nothing was bounced"
				fi
			elif [ "$ub" -ge 0 ] && [ "$(val used_max)" -gt "$ub" ]; then
				check PASS bounced "io_tlb_used $ub before the load, $(val used_max) at most in $(val samples) samples (no high-water mark in this kernel)"
			else
				check FAIL bounced "io_tlb_used $ub before the load, $(val used_max) at most in $(val samples) samples (no high-water mark in this kernel): nothing seen bounced"
			fi ;;
		grows)
			pass_if grows "io_tlb_nslabs $(val nslabs_boot) -> $(val nslabs_after)" \
				"io_tlb_nslabs $(val nslabs_boot) -> $(val nslabs_after), expected growth" \
				test "$(val nslabs_boot)" -gt 0 -a "$(val nslabs_after)" -gt "$(val nslabs_boot)" ;;
		constant)
			pass_if constant "io_tlb_nslabs stayed $(val nslabs_boot) (largest sampled $(val nslabs_max))" \
				"io_tlb_nslabs $(val nslabs_boot) -> $(val nslabs_after) (largest sampled $(val nslabs_max)), expected constant" \
				test "$(val nslabs_boot)" -gt 0 -a "$(val nslabs_after)" = "$(val nslabs_boot)" \
					-a "$(val nslabs_max)" = "$(val nslabs_boot)" ;;
		no-buffer-full)
			pass_if no-buffer-full "no \"swiotlb buffer is full\" in the log" \
				"\"swiotlb buffer is full\" $full times in the log" \
				test "$full" = 0 ;;
		preempt-full)
			# The debug run boots with preempt=full: the kernel must say so.
			pass_if preempt-full "the kernel ran with preempt=full" \
				"no 'Dynamic Preempt: full' on the console" \
				grep -aq 'Dynamic Preempt: full' "$out/console.log" ;;
		buffer-full-noted)
			# A recorded observation, not an assertion on the kernel: it can
			# only fail if the log is missing.
			pass_if buffer-full-noted "\"swiotlb buffer is full\" appeared $full times" \
				"no console log" test -s "$out/console.log" ;;
		fio-noted)
			pass_if fio-noted "fio status $(val fio_status), errors $(val fio_errors), $(( $(val write_kib) / 1024 )) MiB written" \
				"fio did not report" test "$(val fio_status)" != -1 ;;
		counters)
			# debugfs counters of patch 0017: not zeroed when created
			# (no underflow at boot), a high-water mark at least as high as
			# any sample, reset by writing 0 to the current use, and no
			# transient slots left once the load is over.
			hw=$(val hiwater) ub=$(val used_boot) nb=$(val nslabs_boot)
			pass_if counters "used at boot $ub of $nb, high-water $hw (largest sample $(val used_max)), reset to $(val hiwater_reset), transient slots after the load 0" \
				"used at boot $ub of $nb, high-water $hw (largest sample $(val used_max)), reset to $(val hiwater_reset) with $(val used_after) in use, transient slots after the load $(val transient_after)" \
				test "$ub" -ge 0 -a "$ub" -lt "$nb" -a "$hw" -gt 0 -a "$hw" -ge "$(val used_max)" \
					-a "$(val hiwater_reset)" = "$(val used_after)" -a "$(val transient_after)" = 0 ;;
		no-leaks)
			pass_if no-leaks "kmemleak suspects no object after the load" \
				"kmemleak: $(val kmemleak_leaks) suspected leaks (-1: no kmemleak in this kernel)" \
				test "$(val kmemleak_leaks)" = 0 ;;
		inject-all)
			# Every grow fails, and says so; fio still verifies (a mapping
			# that finds no slot is retried by the block layer).
			p=inject_all. why=$(fio_fine inject_all.) wf=$(worker_failed inject_all)
			facts="$(val ${p}page_injected) page allocations failed, io_tlb_nslabs $(val ${p}nslabs_boot) -> $(val ${p}nslabs_after) (largest sampled $(val ${p}nslabs_max)), grow-worker runs that failed $wf (console warnings in the step $(worker_warned inject_all)), 'buffer is full' $(in_step inject_all 'swiotlb buffer is full') times"
			pass_if inject-all "data verified; $facts" \
				"${why:-data verified}; $facts (want failures injected, a failed worker run, no growth)" \
				test -z "$why" -a "$(val ${p}page_injected)" -gt 0 -a "$(val ${p}nslabs_boot)" -gt 0 \
					-a "$(val ${p}nslabs_after)" = "$(val ${p}nslabs_boot)" \
					-a "$(val ${p}nslabs_max)" = "$(val ${p}nslabs_boot)" -a "$wf" -gt 0 ;;
		resume)
			p=resume. why=$(fio_fine resume.)
			pass_if resume "injection off: io_tlb_nslabs $(val ${p}nslabs_boot) -> $(val ${p}nslabs_after), data verified" \
				"${why:-data verified}; io_tlb_nslabs $(val ${p}nslabs_boot) -> $(val ${p}nslabs_after), want growth once injection stops" \
				test -z "$why" -a "$(val ${p}nslabs_boot)" -gt 0 -a "$(val ${p}nslabs_after)" -gt "$(val ${p}nslabs_boot)" ;;
		inject-random)
			p=inject_random. why=$(fio_fine inject_random.)
			facts="$(val ${p}page_injected) page and $(val ${p}slab_injected) slab allocations failed (try $(val ${p}tries) of at most $(val ${p}tries_max)), io_tlb_nslabs $(val ${p}nslabs_boot) -> $(val ${p}nslabs_after), $(val ${p}transient_freed) transient pools, grow-worker runs that failed $(worker_failed inject_random)"
			pass_if inject-random "data verified; $facts" \
				"${why:-data verified}; $facts; transient slots left $(val ${p}transient_after) (want failures of both kinds, none left)" \
				test -z "$why" -a "$(val ${p}page_injected)" -gt 0 -a "$(val ${p}slab_injected)" -gt 0 \
					-a "$(val ${p}transient_after)" = 0 ;;
		pressure)
			# memhog leaves no free block of order 6 in the memory it
			# touched: the grow worker (1 MiB) fails and says so; transient
			# pools of smaller mappings still serve; fio verifies.
			p=pressure. why=$(fio_fine pressure.) wf=$(worker_failed pressure)
			facts="MemFree $(( $(val ${p}memfree_kib) / 1024 )) MiB and $(val ${p}free_order6) free blocks of order 6 or more ($(val ${p}free_order8) of order 8, a grow's 1 MiB, or more) under pressure, grow-worker runs that failed $wf (console warnings $(worker_warned pressure)), $(val ${p}transient_freed) transient pools, io_tlb_nslabs $(val ${p}nslabs_boot) -> $(val ${p}nslabs_after), memhog alive after the spike: $(val ${p}hog_alive)"
			pass_if pressure "data verified; $facts" \
				"${why:-data verified}; $facts (want a failed worker run and transient pools)" \
				test -z "$why" -a "$(val ${p}hog_ready)" = 1 -a "$(val ${p}hog_alive)" = 1 \
					-a "$wf" -gt 0 -a "$(val ${p}transient_freed)" -gt 0 ;;
		shrink-loop)
			p=shrink_loop. why=$(fio_fine shrink_loop.)
			pass_if shrink-loop "data verified while the shrinker freed $(val ${p}pools_freed) pools; io_tlb_nslabs $(val ${p}nslabs_boot) -> $(val ${p}nslabs_after)" \
				"${why:-data verified}; pools freed $(val ${p}pools_freed) (-1: no CONFIG_SWIOTLB_SHRINK), transient slots left $(val ${p}transient_after)" \
				test -z "$why" -a "$(val ${p}pools_freed)" -gt 0 -a "$(val ${p}transient_after)" = 0 ;;
		figures)
			# The debug-kernel tests's figures, in one line; fails only if one is missing
			# or a kernel report was found.
			inj=0 tr=0 w=0 r=0 missing=''
			for p in '' inject_all. resume. inject_random. pressure. shrink_loop.; do
				for k in transient_freed write_kib read_kib; do
					[ "$(val "$p$k")" -ge 0 ] || missing="$missing $p$k"
				done
				tr=$(( tr + $(val "${p}transient_freed") ))
				w=$(( w + $(val "${p}write_kib") )) r=$(( r + $(val "${p}read_kib") ))
			done
			for p in inject_all. inject_random.; do
				inj=$(( inj + $(val "${p}page_injected") + $(val "${p}slab_injected") ))
			done
			reports=$("$PROJECT_TOP/scripts/vm/classify-log.sh" --reports "$out/console.log")
			facts="injected failures $inj, $((w / 1024)) MiB written and $((r / 1024)) MiB verified, $tr maps served from transient pools, $reports kernel report lines"
			pass_if figures "$facts" "$facts${missing:+; missing:$missing}" \
				test -z "$missing" -a "$reports" = 0 ;;
		spikes-ok)
			why="$(fio_fine spike1.)$(fio_fine spike2.)"
			pass_if spikes-ok "both spikes verified: $(( ($(val spike1.read_kib) + $(val spike2.read_kib)) / 1024 )) MiB" \
				"$why" test -z "$why" ;;
		shrinks)
			# Grown by the first spike, back to the boot size after
			# drop_caches, with only the default pool left.
			nb=$(val nslabs_boot) nbs=$(val nslabs_before_shrink) nas=$(val nslabs_after_shrink)
			pinned=$(( (nbs - nb) * 2 / 1024 ))
			freed_kib=$(( $(val memfree_after_shrink) - $(val memfree_before_shrink) ))
			facts="io_tlb_nslabs $nb -> $nbs after the spike ($pinned MiB of pools pinned) -> $nas after drop_caches; pools $(val pools_before_shrink) -> $(val pools_after_shrink); MemFree +$((freed_kib / 1024)) MiB"
			if [ "$nb" -gt 0 ] && [ "$nbs" -gt "$nb" ] && [ "$nas" = "$nb" ] &&
			   [ "$(val pools_after_shrink)" = 1 ]; then
				check PASS shrinks "$facts"
			else
				check FAIL shrinks "$facts (want growth, then the boot size and one pool)"
			fi ;;
		regrows)
			if [ "$(val spike2.nslabs_after)" -gt "$(val nslabs_after_shrink)" ] &&
			   [ "$(val pools_freed)" -gt 0 ]; then
				check PASS regrows "io_tlb_nslabs $(val nslabs_after_shrink) -> $(val spike2.nslabs_after) in the second spike; pools grown $(val pools_grown), freed $(val pools_freed)"
			else
				check FAIL regrows "io_tlb_nslabs $(val nslabs_after_shrink) -> $(val spike2.nslabs_after) in the second spike, pools grown $(val pools_grown), freed $(val pools_freed) (want growth again)"
			fi ;;
		keeps)
			# A kernel without the shrinker (Debian's 6.12) keeps what
			# it grew: drop_caches after the first spike, and 30 s of it
			# with the trickle after the second, leave io_tlb_nslabs
			# where the spikes took it.
			nb=$(val nslabs_boot) nbs=$(val nslabs_before_shrink) nas=$(val nslabs_after_shrink)
			nst=$(val spike2.nslabs_after) p=trickle.
			facts="no shrinker: $([ "$(val shrinker)" = 0 ] && echo yes || echo "no (shrinker=$(val shrinker))"); io_tlb_nslabs $nb at boot, $nbs after the first spike -> $nas after drop_caches; $nst after the second spike -> $(val ${p}nslabs_end) after $(val ${p}seconds) s of drop_caches with $(val ${p}writes) trickle writes ($(val ${p}errors) failed); $(( (nst - nb) * 2 / 1024 )) MiB of pools kept"
			if [ "$(val shrinker)" = 0 ] && [ "$nb" -gt 0 ] && [ "$nbs" -gt "$nb" ] &&
			   [ "$nas" = "$nbs" ] && [ "$nst" -ge "$nas" ] &&
			   [ "$(val ${p}nslabs_end)" = "$nst" ] && [ "$(val ${p}writes)" -gt 0 ] &&
			   [ "$(val ${p}errors)" = 0 ]; then
				check PASS keeps "$facts"
			else
				check FAIL keeps "$facts (want growth that neither drop_caches nor reclaim gives back)"
			fi ;;
		kreclaim)
			# The kernel's own reclaim (kswapd, direct reclaim), never
			# drop_caches, gives the idle pools of the spike back.
			p=pressure. nst=$(val nslabs_grown) nb=$(val nslabs_boot)
			facts="io_tlb_nslabs $nb at boot, $nst after the spike -> $(val ${p}nslabs_end) ($(val ${p}pools_freed) pools freed) after $(val ${p}seconds) s of pressure; tmpfs $(val ${p}hog_mib) MiB, MemFree down to $(( $(val ${p}memfree_min_kib) / 1024 )) MiB (low watermarks $(( $(val ${p}low_kib) / 1024 )) MiB)"
			# The vmstat events, where the kernel counts them: who
			# reclaimed, and that no drop_caches ran.
			ev=ok
			if [ "$(val ${p}drop_slab)" = -1 ]; then
				facts="$facts; /proc/vmstat counts no events (CONFIG_VM_EVENT_COUNTERS off): kswapd and direct reclaim not told apart"
			else
				facts="$facts; kswapd runs $(val ${p}pageoutrun), direct reclaim stalls $(val ${p}allocstall), slab objects scanned $(val ${p}slabs_scanned), drop_caches $(val ${p}drop_pagecache)/$(val ${p}drop_slab)"
				[ "$(val ${p}drop_pagecache)" = 0 ] && [ "$(val ${p}drop_slab)" = 0 ] || ev=
			fi
			if [ "$nst" -ge $((2 * nb)) ] && [ "$(val ${p}seconds)" -ge 0 ] &&
			   [ "$(val ${p}nslabs_end)" -le "$nb" ] && [ "$(val ${p}pools_freed)" -gt 0 ] &&
			   [ -n "$ev" ]; then
				check PASS kreclaim "$facts"
			else
				check FAIL kreclaim "$facts (want a spike to at least twice the boot size, then the boot size within 30 s, with no drop_caches)"
			fi ;;
		no-oom)
			facts="$(val pressure.oom_kills) processes killed by the OOM killer; $(val trickle.writes) trickle writes, $(val trickle.errors) failed"
			if [ "$(val pressure.oom_kills)" = 0 ] && [ "$(val trickle.writes)" -gt 0 ] &&
			   [ "$(val trickle.errors)" = 0 ]; then
				check PASS no-oom "$facts"
			else
				check FAIL no-oom "$facts"
			fi ;;
		trickle)
			# After the second spike, reclaim with a trickle of I/O
			# still going on must give back the pools of the spike.
			p=trickle. nst=$(val spike2.nslabs_after) lim=$(val trickle.limit)
			facts="io_tlb_nslabs $nst after the spike -> $(val ${p}nslabs_end) ($(val ${p}pools_end) pools) after $(val ${p}seconds) s of drop_caches, with $(val ${p}writes) trickle writes ($(val ${p}errors) failed)"
			if [ "$nst" -ge $((2 * lim)) ] && [ "$(val ${p}nslabs_end)" -le "$lim" ] &&
			   [ "$(val ${p}seconds)" -lt 30 ] && [ "$(val ${p}writes)" -gt 0 ] &&
			   [ "$(val ${p}errors)" = 0 ]; then
				check PASS trickle "$facts"
			else
				check FAIL trickle "$facts (want a spike to at least 4x the boot size, then at most $lim slots within 30 s, and every write done)"
			fi ;;
		stall-in-swiotlb)
			# The crash report must show the CPU spinning in the slot search,
			# not some other bug. If every CPU spins with interrupts off no
			# report is printed: then the CPU dump taken on the timeout
			# (scripts/vm/qemu-run.sh, cpus.txt) must put a vCPU in swiotlb_*.
			site=$(grep -aoE 'RIP: [0-9]+:swiotlb_[a-z_]+' "$out/console.log" | head -n 1)
			sites=''
			if [ -z "$site" ] && [ -f "$out/cpus.txt" ]; then
				sites=$("$PROJECT_TOP/scripts/vm/cpu-sites.sh" "$out/cpus.txt" \
					"${bz%/arch/x86/boot/bzImage}/System.map" 2>&1 | tr '\n' ' ')
				site=$(echo "$sites" | grep -oE 'swiotlb_[a-z_]+\+0x[0-9a-f]+' | head -n 1)
			fi
			if [ -n "$site" ]; then
				check PASS stall-in-swiotlb "a stalled CPU is at ${site#RIP: }${sites:+ (CPU dump at the timeout: $sites)}"
			else
				check FAIL stall-in-swiotlb "no CPU in swiotlb_* in the crash report${sites:+ nor in the CPU dump: $sites}"
			fi ;;
		on-mmio)
			# The disk is the device of the pool: the first virtio-mmio
			# transport (scripts/vm/restricted-dtb.sh).
			pass_if on-mmio "/dev/vda is ${m[disk_device]:-}" \
				"/dev/vda is ${m[disk_device]:-nowhere}, not on virtio_mmio@a003e00, the transport with the restricted pool" \
				grep -q '/a003e00\.virtio_mmio/' <<< "${m[disk_device]:-}" ;;
		restricted-used)
			# The pool served the disk: io_tlb_used seen above 0 while
			# the load ran (every kernel), or its high-water mark (the
			# series) after it.
			pass_if restricted-used \
				"${m[pool]:-the pool}: io_tlb_used up to $(val pool_used_max) while the load ran, high-water mark $(val pool_hiwater)" \
				"${m[pool]:-no restricted pool}: io_tlb_used never seen above 0 (high-water mark $(val pool_hiwater)): the disk did not bounce through it" \
				test "$(val pool_used_max)" -gt 0 -o "$(val pool_hiwater)" -gt 0 ;;
		md5)
			# The load without fio (md5_load of tests/guest/guest-lib.sh).
			pass_if md5 "every region read back from /dev/vda has the md5sum of what was written ($(val jobs) jobs)" \
				"md5_ok $(val md5_ok): a region read back differs, or a dd failed, or nothing was read" \
				test "$(val md5_ok)" = 1 ;;
		restricted-fixed)
			# A restricted pool must not grow: its size is the device tree's.
			nb=$(val pool_nslabs_boot) nbs=$(val pool_nslabs_end)
			pass_if restricted-fixed "the restricted pool had $nb slots before the load and after it" \
				"the restricted pool had $nb slots before the load and $nbs after it" \
				test "$nb" -gt 0 -a "$nbs" = "$nb" ;;
		request-fits|request-too-big)
			# Whether the disk's largest request can be bounced through
			# the restricted pool at all.  virtio-blk bounds each segment
			# of a request by the swiotlb's largest mapping (one pool
			# segment, max_segment_size), but not the request's total
			# (max_sectors_kb, the block layer's 1280 KiB).  A pool
			# segment holds at most one such segment, and the first holds
			# the ring (a coherent buffer from the pool).  So a request
			# fits when its segments do in the pool's segments but one;
			# it can never be mapped when it is larger than the pool
			# (slots of 2 KiB), and virtio-blk then retries it forever.
			req_kib=$(val max_sectors_kb) seg_kib=$(($(val max_segment_size) / 1024))
			pool_kib=$(($(val pool_nslabs_boot) * 2)) segs=-1 room=-1
			if [ "$req_kib" -gt 0 ] && [ "$seg_kib" -gt 0 ] && [ "$pool_kib" -gt 0 ]; then
				segs=$(((req_kib + seg_kib - 1) / seg_kib)) room=$((pool_kib / seg_kib - 1))
			fi
			facts="the disk's largest request $req_kib KiB (segments of up to $seg_kib KiB: $segs), the pool $pool_kib KiB (room for such segments beside the ring: $room)"
			if [ "$c" = request-fits ]; then
				pass_if request-fits "$facts: it fits" "$facts: it does not fit, or a size was not reported" \
					test "$segs" -gt 0 -a "$segs" -le "$room"
			else
				pass_if request-too-big "$facts: larger than the pool, it can never be mapped" \
					"$facts: not larger than the pool, or a size was not reported" \
					test "$segs" -gt 0 -a "$req_kib" -gt "$pool_kib"
			fi ;;
		default-idle)
			# Nothing of the disk's went through the default swiotlb (-1:
			# it has no pool, or the kernel no high-water mark); the
			# guest must have reported both.
			pass_if default-idle \
				"the default swiotlb: $(val default_nslabs) slots, $(val default_used_end) in use after the load, high-water mark $(val default_hiwater)" \
				"the default swiotlb: ${m[default_used_end]:-not reported} in use after the load, high-water mark ${m[default_hiwater]:-not reported}; want both reported, neither above 0" \
				test -n "${m[default_used_end]:-}" -a -n "${m[default_hiwater]:-}" \
					-a "$(val default_used_end)" -le 0 -a "$(val default_hiwater)" -le 0 ;;
		writers-hung)
			# What the unpatched kernel does when its pool is full and
			# cannot grow (tests/scenarios/arm64-grow-base.conf): maps
			# fail, and the writers block in writeback.
			pass_if writers-hung "\"swiotlb buffer is full\" $full times, and a task blocked: $(grep -aom1 'task [a-z0-9]*:[0-9]* blocked for more than [0-9]* seconds' "$out/console.log")" \
				"\"swiotlb buffer is full\" $full times, and no task reported blocked" \
				test "$full" -gt 0 -a -n "$(grep -aom1 'blocked for more than' "$out/console.log")" ;;
		buffer-full)
			# The precondition of a full-pool scenario: the load did fill
			# the pool, or the scenario shows nothing about a full one.
			pass_if buffer-full "\"swiotlb buffer is full\" $full times in the log: the load filled the pool" \
				"no \"swiotlb buffer is full\" in the log: the load never filled the pool" \
				test "$full" -gt 0 ;;
	*) check FAIL "$c" "unknown check in $conf" ;;
	esac
}
