#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# debug-load VERIFY_JOB SPIKE_JOB: the debug-kernel tests on the debug kernel, in steps.
# Each step prints "harness: step NAME" first (scripts/vm/classify-log.sh
# names the step a kernel report came in) and reports fio-verify.sh's keys
# with the prefix "NAME." (none for verify), and the keys below.
#   verify         VERIFY_JOB: fio verify, 4 KiB to 256 KiB, 1 and 4 jobs
#   inject_all     SPIKE_JOB while every page allocation of order 5 or more
#                  fails: the grow worker's 1 MiB buffers, and the buffers
#                  of transient pools of 128 KiB and more
#   resume         SPIKE_JOB with injection off: the pool grows again
#   inject_random  SPIKE_JOB while those allocations fail at 50 %, and
#                  non-sleeping slab allocations (the transient path's
#                  GFP_NOWAIT ones, virtio's GFP_ATOMIC ones) at 5 %;
#                  again (tries, of at most tries_max) until both kinds
#                  failed
#   pressure       SPIKE_JOB while memhog keeps physical memory fragmented:
#                  no free block of order 6 (256 KiB) or more, so every
#                  grow (1 MiB) fails and so do transient pools of 256 KiB
#                  mappings, while order 0 to 5 stay plentiful
#   shrink_loop    SPIKE_JOB while drop_caches runs the swiotlb shrinker
#                  every 0.5 s with io_tlb_shrink_delay_ms 0 (only with
#                  CONFIG_SWIOTLB_SHRINK; pools_freed: -1 without it)
#   leaks          a kmemleak scan
# Each step after verify first lets the shrinker (CONFIG_SWIOTLB_SHRINK)
# free the pools grown so far, so that its spike overflows the boot-size
# pool again (nslabs_reset: io_tlb_nslabs then).
# Keys of every fio step:
#   page_injected, slab_injected  failures injected (fail_page_alloc's and
#                  failslab's "times" count down from INJECT_TIMES)
#   transient_freed  transient pools freed; each served one mapping
#   worker_runs    runs of the grow worker (swiotlb_dyn_alloc)
#   alloc_tlb      buffer allocations the swiotlb tried (swiotlb_alloc_tlb)
#                  (the three from the function profiler; -1 if absent)
#   worker_failed  worker runs that added no pool (io_tlb_pools_grown of
#                  CONFIG_SWIOTLB_SHRINK; -1 without it)
#   settle_s       seconds the grow worker took to settle after the fio job
# pressure also: hog_ready, hog_alive (1 or 0), memfree_kib, free_order6
#                and free_order8 (free blocks of order 6 or more, and of
#                order 8, a grow's 1 MiB, or more) once memhog is ready.
# leaks: kmemleak_leaks (objects suspected; -1: no kmemleak), no prefix.
# Exit status: 0, or 1 if a step failed (the host judges the figures).
# shellcheck source=tests/guest/guest-lib.sh
. /tests/guest-lib.sh

verify_job=$1 spike_job=$2
FPA=/sys/kernel/debug/fail_page_alloc
FSL=/sys/kernel/debug/failslab
TRACING=/sys/kernel/debug/tracing
INJECT_TIMES=1000000
RANDOM_TRIES=5
PROFILED="swiotlb_dyn_free swiotlb_dyn_alloc swiotlb_alloc_tlb*"
status=0

step() {
	REPORT_PREFIX=
	[ "$1" = verify ] || REPORT_PREFIX=$1.
	export REPORT_PREFIX
	echo "harness: step $1"
}

# free_blocks ORDER: free blocks of ORDER or more, over all zones.
free_blocks() {
	awk -v min="$1" '{ for (i = 5; i <= NF; i++) if (i - 5 >= min) n += $i } END { print n + 0 }' \
		/proc/buddyinfo
}

# alive PID: the process runs (not gone, not a zombie: kill -0 says yes
# to a zombie, and memhog's holder is a child of init).
alive() {
	state=
	[ -r "/proc/$1/stat" ] && read -r _ _ state _ < "/proc/$1/stat" 2>/dev/null
	[ -n "$state" ] && [ "$state" != Z ]
}

# hits NAME: calls of NAME (or NAME.constprop.0 ...) since profiling began,
# summed over the CPUs; -1 without the profiler.
hits() {
	[ -e "$TRACING/function_profile_enabled" ] || { echo -1; return; }
	awk -v f="$1" '$1 == f || index($1, f ".") == 1 { n += $2 } END { print n + 0 }' \
		"$TRACING"/trace_stat/function*
}

profile_start() {
	if [ -e "$TRACING/function_profile_enabled" ] &&
	   echo "$PROFILED" > "$TRACING/set_ftrace_filter"; then
		echo 1 > "$TRACING/function_profile_enabled"
	else
		fail "no function profiler for $PROFILED"
		status=1
	fi
}

# inject PAGE_PERCENT SLAB_PERCENT: page allocations of order 5 or more,
# sleeping or not, and non-sleeping slab allocations fail at these rates.
inject() {
	for d in "$FPA" "$FSL"; do
		echo 0 > "$d/probability"
		echo 1 > "$d/interval"
		echo 0 > "$d/space"
		echo 0 > "$d/verbose"
		echo N > "$d/task-filter"
		echo "$INJECT_TIMES" > "$d/times"
	done
	echo N > "$FPA/ignore-gfp-wait"
	echo 5 > "$FPA/min-order"
	echo Y > "$FSL/ignore-gfp-wait"
	echo "$1" > "$FPA/probability"
	echo "$2" > "$FSL/probability"
}

# inject_stop: no more failures; report how many there were.
inject_stop() {
	echo 0 > "$FPA/probability"
	echo 0 > "$FSL/probability"
	page_injected=$((INJECT_TIMES - $(cat "$FPA/times")))
	slab_injected=$((INJECT_TIMES - $(cat "$FSL/times")))
	report page_injected "$page_injected"
	report slab_injected "$slab_injected"
}

# shrink_to_boot: with CONFIG_SWIOTLB_SHRINK, let the shrinker (delay 0,
# drop_caches) free every grown pool, so that the next spike starts from
# the boot size and overflows it again; report nslabs_reset.
shrink_to_boot() {
	if [ -w "$SWIOTLB/io_tlb_shrink_delay_ms" ]; then
		shrink_delay 0
		shrinkers_run || status=1
		shrink_delay 5000
	fi
	report nslabs_reset "$(swiotlb_read io_tlb_nslabs)"
}

# settle: wait until the grow worker has been idle for two seconds (its
# runs and the pools it added unchanged), at most 30 s.  It runs on an
# unbound workqueue, on its own: a run queued at the end of a spike, which
# a fixed second missed under memory pressure, belongs to that step, not
# to the next one.
settle() {
	last='' same=0 n=0
	while [ $n -lt 30 ] && [ $same -lt 2 ]; do
		now="$(hits swiotlb_dyn_alloc) $(swiotlb_read io_tlb_pools_grown)"
		if [ "$now" = "$last" ]; then same=$((same + 1)); else same=0; fi
		last=$now
		sleep 1
		n=$((n + 1))
	done
	report settle_s "$n"
}

# spike JOB: fio-verify.sh JOB, and the profiler's counts for the step,
# taken once the grow worker has settled.
spike() {
	tf=$(hits swiotlb_dyn_free) wr=$(hits swiotlb_dyn_alloc) at=$(hits swiotlb_alloc_tlb)
	gr=$(swiotlb_read io_tlb_pools_grown)
	/tests/fio-verify.sh "$1" || status=1
	settle
	report transient_freed $(( $(hits swiotlb_dyn_free) - tf ))
	runs=$(( $(hits swiotlb_dyn_alloc) - wr ))
	report worker_runs "$runs"
	report alloc_tlb $(( $(hits swiotlb_alloc_tlb) - at ))
	# runs that added no pool (needs io_tlb_pools_grown: -1 without it)
	if [ "$gr" -ge 0 ] && [ "$(hits swiotlb_dyn_alloc)" -ge 0 ]; then
		report worker_failed $(( runs - ($(swiotlb_read io_tlb_pools_grown) - gr) ))
	else
		report worker_failed -1
	fi
}

{ [ -w "$FPA/probability" ] && [ -w "$FSL/probability" ]; } ||
	{ fail "no fault injection knobs in debugfs"; exit 1; }
profile_start

step verify
spike "$verify_job"

step inject_all
shrink_to_boot
inject 100 0
spike "$spike_job"
inject_stop

step resume
shrink_to_boot
spike "$spike_job"

step inject_random
# At 50 % a spike that needs few large allocations may see none of them
# fail (about 2 a spike here, so one try in four sees none): the
# spike runs again, up to RANDOM_TRIES times, until both kinds failed;
# the figures are the last try's, and a fio failure in any try fails the
# run (exit 1).
tries=0
while :; do
	tries=$((tries + 1))
	shrink_to_boot
	inject 50 5
	spike "$spike_job"
	inject_stop
	{ [ "$page_injected" -gt 0 ] && [ "$slab_injected" -gt 0 ]; } ||
		[ $tries -ge $RANDOM_TRIES ] || continue
	break
done
report tries "$tries"
report tries_max "$RANDOM_TRIES"

step pressure
shrink_to_boot
# memhog fills memory and keeps one page in each order-6 block (256 KiB),
# locked where compaction does not move it, and gives the rest back: no
# free block of order 6 is left for the grow worker (1 MiB) or a 256 KiB
# mapping's transient pool, while nearly all memory is free in smaller
# blocks.  It does so again, up to four rounds, while memory freed
# meanwhile makes such a block (with one round, two runs began the spike
# with 27 and 67 of them free, and in each the grow worker found its
# 1 MiB).
# memhog runs in the foreground, so that this shell forks nothing while
# memory is at its tightest (a fork needs an order-3 stack on this kernel),
# and leaves a child that holds the pages.
rm -f /tmp/memhog.pid
hog=
if memhog 1 6 /tmp/memhog.pid && read -r hog < /tmp/memhog.pid; then
	report hog_ready 1
	report memfree_kib "$(awk '$1 == "MemFree:" { print $2 }' /proc/meminfo)"
	report free_order6 "$(free_blocks 6)"
	report free_order8 "$(free_blocks 8)"
	spike "$spike_job"
	if alive "$hog"; then
		report hog_alive 1
	else
		report hog_alive 0
		fail "memhog did not live through the spike"
		status=1
	fi
else
	report hog_ready 0
	fail "memhog could not build the pressure"
	status=1
fi
if [ -n "$hog" ]; then
	kill "$hog" 2>/dev/null
	n=0
	while alive "$hog" && [ $n -lt 50 ]; do
		sleep 0.2
		n=$((n + 1))
	done
fi
# memhog kept compaction off locked pages (the kernel's default is 1)
if [ -w /proc/sys/vm/compact_unevictable_allowed ]; then
	echo 1 > /proc/sys/vm/compact_unevictable_allowed
fi

step shrink_loop
# The shrinker of CONFIG_SWIOTLB_SHRINK frees idle pools (delay 0)
# over and over while the spike maps and unmaps.
if [ -w "$SWIOTLB/io_tlb_shrink_delay_ms" ]; then
	shrink_to_boot
	shrink_delay 0
	freed=$(swiotlb_read io_tlb_pools_freed)
	rm -f /tmp/shrink.stop
	( while [ ! -e /tmp/shrink.stop ]; do
		shrinkers_run
		sleep 0.5
	done ) &
	loop=$!
	spike "$spike_job"
	touch /tmp/shrink.stop
	wait "$loop"
	report pools_freed $(( $(swiotlb_read io_tlb_pools_freed) - freed ))
	shrink_delay 5000
else
	report pools_freed -1
fi

step leaks
REPORT_PREFIX=
leaks=/sys/kernel/debug/kmemleak
# kmemleak reports only objects older than 5 s, and only after they were
# unreferenced in two scans.  It refuses to scan once it has disabled
# itself (it runs out of memory for its metadata, for one).
sleep 6
if echo scan > "$leaks" && echo scan > "$leaks"; then
	n=$(grep -c '^unreferenced object' "$leaks")
	[ "$n" -gt 0 ] && head -n 60 "$leaks"
	report kmemleak_leaks "$n"
else
	fail "kmemleak cannot scan (absent, or disabled: see the console)"
	report kmemleak_leaks -1
	status=1
fi
exit "$status"
