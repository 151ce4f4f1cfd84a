// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the dynamic software IO TLB.
 *
 * This file is not built on its own: the test-only hook
 * (tests/kunit/swiotlb-kunit-hook.patch, or on 6.12
 * swiotlb-kunit-hook-6.12.patch) includes it at the end of
 * kernel/dma/swiotlb.c, so that the tests can see the static pool
 * structures and helpers. It is never part of the shipped series.
 *
 * The same suite runs on Debian's 6.12 (make kunit-mainline), whose
 * swiotlb.c is mainline's dynamic SWIOTLB with none of our patches: the
 * helpers of swiotlb_kunit_lib.c call what the two spell differently, and
 * a case of a fix or feature of ours that 6.12 lacks skips there.
 *
 * Most cases work on a private struct io_tlb_mem with a small default
 * pool, so that exhausting it, growing it and freeing what grew leaves
 * the system's swiotlb as it was. Each case makes its own fake device
 * with the DMA mask, minimum alignment and segment boundary it needs.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/sizes.h>

/*
 * Written by scripts/kunit/kunit-tree.sh: what the series in the tree
 * offers, or on 6.12 what mainline has in a form of its own
 * (tests/kunit/features.txt).
 */
#include "swiotlb_kunit_features.h"

#define TEST_MAX_FILL		160
#define TEST_ORIG_ORDER		get_order(IO_TLB_SEGSIZE << IO_TLB_SHIFT)
#define TEST_SEG_BYTES		(IO_TLB_SEGSIZE << IO_TLB_SHIFT)
#define TEST_MAP_ERROR		((phys_addr_t)DMA_MAPPING_ERROR)
/* slots in the largest buddy block (SWIOTLB_MAX_POOL_SLABS, which v7 lacks) */
#define TEST_BUDDY_SLABS	\
	((unsigned long)MAX_ORDER_NR_PAGES << (PAGE_SHIFT - IO_TLB_SHIFT))

/* Since patch 0040, swiotlb_index_update() takes a spare copy too. */
#ifdef SWIOTLB_KUNIT_INDEX_SPARE
#define test_swiotlb_index_update(mem, add, del, gfp) \
	swiotlb_index_update(mem, add, del, NULL, gfp)
#else
#define test_swiotlb_index_update(mem, add, del, gfp) \
	swiotlb_index_update(mem, add, del, gfp)
#endif

#include "swiotlb_kunit_seams.c"
#include "swiotlb_kunit_lib.c"

#include "swiotlb_kunit_basic.c"

#include "swiotlb_kunit_lookup.c"

#include "swiotlb_kunit_bench.c"

#include "swiotlb_kunit_hint.c"

#include "swiotlb_kunit_index.c"

#include "swiotlb_kunit_concurrent.c"

#include "swiotlb_kunit_grow.c"

#include "swiotlb_kunit_shrink.c"

#include "swiotlb_kunit_fixes.c"

/*
 * Every case is listed in every build, so that every run reports the same
 * cases: where a case's feature is not in the tree (a cut of the series)
 * or not configured, it is this stub, which skips with the reason.
 */
#define SWIOTLB_TEST_SKIPS(name, why)				\
static void swiotlb_test_##name(struct kunit *test)		\
{								\
	kunit_skip(test, why);					\
}

#ifndef CONFIG_SWIOTLB_DYNAMIC
#define SKIP_NO_DYNAMIC(name) \
	SWIOTLB_TEST_SKIPS(name, "needs CONFIG_SWIOTLB_DYNAMIC")
SKIP_NO_DYNAMIC(transient_when_full)
SKIP_NO_DYNAMIC(grow_worker)
SKIP_NO_DYNAMIC(bench_pools)
SKIP_NO_DYNAMIC(bench_grow)
SKIP_NO_DYNAMIC(bench_grow_fragmented)
SKIP_NO_DYNAMIC(pool_size_capped)
SKIP_NO_DYNAMIC(pool_areas_segment)
SKIP_NO_DYNAMIC(slots_fail_halves)
SKIP_NO_DYNAMIC(contig_above_limit)
SKIP_NO_DYNAMIC(index_alloc_first)
SKIP_NO_DYNAMIC(grow_cap_lowmem)
SKIP_NO_DYNAMIC(contig_fail_backs_off)
SKIP_NO_DYNAMIC(hopeless_no_growth)
SKIP_NO_DYNAMIC(decrypt_below_limit)
SKIP_NO_DYNAMIC(decrypt_failure_reencrypts)
SKIP_NO_DYNAMIC(free_in_process_context)
SKIP_NO_DYNAMIC(exit_stops_queued_grow)
SKIP_NO_DYNAMIC(unencrypted_grow)
SKIP_NO_DYNAMIC(unencrypted_transient)
#endif
#ifndef SWIOTLB_KUNIT_POOL_OPS
SWIOTLB_TEST_SKIPS(pool_lookup, "needs the pool-taking functions of 0020")
#endif
#if !defined(SWIOTLB_KUNIT_AREA_MAJOR) || !defined(CONFIG_SWIOTLB_DYNAMIC)
SWIOTLB_TEST_SKIPS(area_major,
		   "needs the area-major search of 0019 and CONFIG_SWIOTLB_DYNAMIC")
#endif
#if !defined(SWIOTLB_KUNIT_SEARCH_HINT) || !defined(CONFIG_SWIOTLB_DYNAMIC)
SWIOTLB_TEST_SKIPS(search_hint, "needs the search hint of 0031 and CONFIG_SWIOTLB_DYNAMIC")
#endif
#if !defined(SWIOTLB_KUNIT_OLDEST_FIRST) || !defined(CONFIG_SWIOTLB_DYNAMIC)
SWIOTLB_TEST_SKIPS(hint_kept_small_release,
		   "needs the oldest-first search of 0032 and CONFIG_SWIOTLB_DYNAMIC")
SWIOTLB_TEST_SKIPS(bench_hint,
		   "needs the oldest-first search of 0032 and CONFIG_SWIOTLB_DYNAMIC")
#endif
#if !defined(SWIOTLB_KUNIT_POOL_INDEX) || !defined(CONFIG_SWIOTLB_DYNAMIC)
SWIOTLB_TEST_SKIPS(index_bounds, "needs the pool index of 0028 and CONFIG_SWIOTLB_DYNAMIC")
SWIOTLB_TEST_SKIPS(index_rcu, "needs the pool index of 0028 and CONFIG_SWIOTLB_DYNAMIC")
#endif
#ifndef CONFIG_SWIOTLB_SHRINK
#define SKIP_NO_SHRINK(name) \
	SWIOTLB_TEST_SKIPS(name, "needs CONFIG_SWIOTLB_SHRINK (0018)")
SKIP_NO_SHRINK(shrink_frees_idle)
SKIP_NO_SHRINK(shrink_keeps_used)
SKIP_NO_SHRINK(shrink_hysteresis)
SKIP_NO_SHRINK(shrink_concurrent)
SKIP_NO_SHRINK(shrink_trickle)
SKIP_NO_SHRINK(shrink_busy_not_retired)
SKIP_NO_SHRINK(shrink_long_idle)
#endif
#ifndef CONFIG_DMA_RESTRICTED_POOL
#define SKIP_NO_RESTRICTED(name) \
	SWIOTLB_TEST_SKIPS(name, "needs CONFIG_DMA_RESTRICTED_POOL")
SKIP_NO_RESTRICTED(restricted_pool)
SKIP_NO_RESTRICTED(alloc_order_aligned)
SKIP_NO_RESTRICTED(alloc_unaligned_pool)
#endif

/*
 * The cases that show bugs of the plain v7 series (SERIES=v7, see
 * `make test-regressions`, which also runs each of them in a boot of its
 * own) come last, and the two that make v7 write past a transient pool
 * come after the others, so that the corruption they cause there cannot
 * hide the other results in a run of the whole suite. The restricted
 * pool case oopses on v7; the exit case tears the system's default
 * swiotlb down, so it is the very last.
 */
static struct kunit_case swiotlb_dynamic_test_cases[] __refdata = {
	KUNIT_CASE(swiotlb_test_default_pool_serves),
	KUNIT_CASE(swiotlb_test_transient_when_full),
	KUNIT_CASE(swiotlb_test_grow_worker),
	KUNIT_CASE(swiotlb_test_bounce),
	KUNIT_CASE(swiotlb_test_dma32),
	KUNIT_CASE(swiotlb_test_can_grow_base),
	KUNIT_CASE(swiotlb_test_can_grow_remap),
	KUNIT_CASE(swiotlb_test_full_pool_fails),
	KUNIT_CASE(swiotlb_test_concurrent),
	KUNIT_CASE(swiotlb_test_uses_io_tlb),
	KUNIT_CASE(swiotlb_test_pool_lookup),
	KUNIT_CASE(swiotlb_test_area_major),
	KUNIT_CASE(swiotlb_test_bench_pools),
	KUNIT_CASE(swiotlb_test_bench_grow),
	KUNIT_CASE(swiotlb_test_bench_grow_fragmented),
	KUNIT_CASE(swiotlb_test_search_hint),
	KUNIT_CASE(swiotlb_test_hint_kept_small_release),
	KUNIT_CASE(swiotlb_test_bench_hint),
	KUNIT_CASE(swiotlb_test_index_bounds),
	KUNIT_CASE(swiotlb_test_index_rcu),
	KUNIT_CASE(swiotlb_test_pool_size_capped),
	KUNIT_CASE(swiotlb_test_pool_areas_segment),
	KUNIT_CASE(swiotlb_test_slots_fail_halves),
	KUNIT_CASE(swiotlb_test_contig_above_limit),
	KUNIT_CASE(swiotlb_test_index_alloc_first),
	KUNIT_CASE(swiotlb_test_grow_cap_lowmem),
	KUNIT_CASE(swiotlb_test_contig_fail_backs_off),
	KUNIT_CASE(swiotlb_test_hopeless_no_growth),
	KUNIT_CASE(swiotlb_test_decrypt_below_limit),
	KUNIT_CASE(swiotlb_test_decrypt_failure_reencrypts),
	KUNIT_CASE(swiotlb_test_free_in_process_context),
	KUNIT_CASE(swiotlb_test_exit_stops_queued_grow),
	KUNIT_CASE(swiotlb_test_misaligned_full_pool),
	KUNIT_CASE(swiotlb_test_alignment),
	KUNIT_CASE(swiotlb_test_shrink_frees_idle),
	KUNIT_CASE(swiotlb_test_shrink_keeps_used),
	KUNIT_CASE(swiotlb_test_shrink_hysteresis),
	KUNIT_CASE(swiotlb_test_shrink_concurrent),
	KUNIT_CASE(swiotlb_test_shrink_trickle),
	KUNIT_CASE(swiotlb_test_shrink_busy_not_retired),
	KUNIT_CASE(swiotlb_test_shrink_long_idle),
	KUNIT_CASE(swiotlb_test_shrink_unmap_race),
	KUNIT_CASE(swiotlb_test_unencrypted_grow),
	KUNIT_CASE(swiotlb_test_unencrypted_transient),
	KUNIT_CASE(swiotlb_test_limit_not_growable),
	KUNIT_CASE(swiotlb_test_restricted_pool),
	KUNIT_CASE(swiotlb_test_no_double_alloc),
	KUNIT_CASE(swiotlb_test_default_pool_areas),
	KUNIT_CASE(swiotlb_test_partial_sync),
	KUNIT_CASE(swiotlb_test_alloc_order_aligned),
	KUNIT_CASE(swiotlb_test_alloc_unaligned_pool),
	/* tears the system's default swiotlb down: the very last */
	KUNIT_CASE(swiotlb_test_exit_forgets_pool),
	{}
};

static int swiotlb_dynamic_suite_init(struct kunit_suite *suite)
{
	if (!io_tlb_default_mem.nslabs) {
		pr_err("swiotlb_dynamic: no default swiotlb; boot with swiotlb=force\n");
		return -ENODEV;
	}
	return 0;
}

/* A case that stopped early must not leave the platform it played. */
static void swiotlb_dynamic_case_exit(struct kunit *test)
{
	test_gpa_stop();
	test_mem_enc_stop();
	test_release_stop();
}

static struct kunit_suite swiotlb_dynamic_test_suite = {
	.name = "swiotlb_dynamic",
	.suite_init = swiotlb_dynamic_suite_init,
	.exit = swiotlb_dynamic_case_exit,
	.test_cases = swiotlb_dynamic_test_cases,
};

kunit_test_init_section_suite(swiotlb_dynamic_test_suite);
