// SPDX-License-Identifier: GPL-2.0-only
/*
 * The search hint (patch 0031) and the oldest-first search (0032, 0043):
 * which pool the next map tries first, and bench_hint, which measures the
 * hint under contention. Included by swiotlb_dynamic_kunit.c, not built on
 * its own.
 */

#if defined(SWIOTLB_KUNIT_SEARCH_HINT) && defined(CONFIG_SWIOTLB_DYNAMIC)
/*
 * 8g. Patch 0031: the slot search tries first the pool where it last
 * found room (mem->hint). Four pools of one segment, w[] in the order the
 * list walk tries them: newest first before patch 0032, oldest (the
 * default pool) first since. With w[0..2] full, a map that finds room
 * only in w[3] makes it the hint. When w[0] has room again:
 * - before 0032, the next map still takes w[3], the hint;
 * - since 0032, giving back slots of w[0], older than the hint, drops the
 *   hint, and the next map takes w[0], the oldest pool with room.
 * w[0] is the default pool then: the map goes to the default pool either
 * way. A pool that the shrinker frees is no longer the hint.
 */
static void swiotlb_test_search_hint(struct kunit *test)
{
	struct io_tlb_pool *pool, *pools[3], *w[4];
	struct swiotlb_test_ctx *ctx;
	phys_addr_t fill[3], tlb;
	unsigned int i;

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, false, NULL);
	for (i = 0; i < ARRAY_SIZE(pools); i++) {
		pools[i] = swiotlb_alloc_pool(NULL, IO_TLB_SEGSIZE,
					      IO_TLB_SEGSIZE, 1,
					      ctx->mem.phys_limit, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, pools[i]);
		KUNIT_ASSERT_EQ(test, add_mem_pool(&ctx->mem, pools[i]), 0);
	}
	KUNIT_EXPECT_NULL(test, READ_ONCE(ctx->mem.hint));
#ifdef SWIOTLB_KUNIT_OLDEST_FIRST
	w[0] = &ctx->mem.defpool;
	for (i = 0; i < ARRAY_SIZE(pools); i++)
		w[1 + i] = pools[i];
#else
	for (i = 0; i < ARRAY_SIZE(pools); i++)
		w[i] = pools[ARRAY_SIZE(pools) - 1 - i];
	w[3] = &ctx->mem.defpool;
#endif
	i = 0;
	list_for_each_entry(pool, &ctx->mem.pools, node) {
		KUNIT_ASSERT_LT(test, i, (unsigned int)ARRAY_SIZE(w));
		KUNIT_EXPECT_PTR_EQ_MSG(test, pool, w[i], "pool %u of the list", i);
		i++;
	}

	/* each map fills one pool, in the order of the list */
	for (i = 0; i < ARRAY_SIZE(fill); i++) {
		fill[i] = test_map(ctx, ctx->orig, TEST_SEG_BYTES, 0,
				   DMA_TO_DEVICE, 0);
		KUNIT_ASSERT_NE(test, fill[i], TEST_MAP_ERROR);
		pool = test_pool_of(ctx, fill[i]);
		KUNIT_EXPECT_PTR_EQ(test, pool, w[i]);
		KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(ctx->mem.hint), pool);
	}

	/* the room is in the last pool only: it becomes the hint */
	tlb = test_map(ctx, ctx->orig, SZ_2K, 0, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	KUNIT_EXPECT_PTR_EQ(test, test_pool_of(ctx, tlb), w[3]);
	KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(ctx->mem.hint), w[3]);
	test_unmap(ctx, tlb, SZ_2K, DMA_TO_DEVICE);

	/* the first pool has room again */
	test_unmap(ctx, fill[0], TEST_SEG_BYTES, DMA_TO_DEVICE);
#ifdef SWIOTLB_KUNIT_OLDEST_FIRST
	KUNIT_EXPECT_NULL_MSG(test, READ_ONCE(ctx->mem.hint),
			      "slots of an older pool came back, the hint stayed");
#endif
	tlb = test_map(ctx, ctx->orig, SZ_2K, 0, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	KUNIT_EXPECT_PTR_EQ(test, test_pool_of(ctx, tlb), &ctx->mem.defpool);
	test_unmap(ctx, tlb, SZ_2K, DMA_TO_DEVICE);

	/* with the default pool full, the room moves, and the hint with it */
	tlb = test_map(ctx, ctx->orig, TEST_SEG_BYTES, 0, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	KUNIT_EXPECT_PTR_EQ(test, test_pool_of(ctx, tlb), &ctx->mem.defpool);
	test_fill_add(test, ctx, tlb, TEST_SEG_BYTES);
	tlb = test_map(ctx, ctx->orig, SZ_2K, 0, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	KUNIT_EXPECT_PTR_EQ(test, test_pool_of(ctx, tlb), pools[2]);
	KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(ctx->mem.hint), pools[2]);
	test_unmap(ctx, tlb, SZ_2K, DMA_TO_DEVICE);
#ifdef CONFIG_SWIOTLB_SHRINK
	/* idle now: the shrinker frees it, and it is the hint no more */
	KUNIT_EXPECT_EQ(test, swiotlb_shrink(&ctx->mem, ULONG_MAX, jiffies),
			pools[2]->nslabs);
	KUNIT_EXPECT_NULL(test, READ_ONCE(ctx->mem.hint));
	rcu_barrier();
#endif
	test_fill_add(test, ctx, fill[1], TEST_SEG_BYTES);
	test_fill_add(test, ctx, fill[2], TEST_SEG_BYTES);
	test_ctx_destroy(test, ctx);
}
#endif

#if defined(SWIOTLB_KUNIT_OLDEST_FIRST) && defined(CONFIG_SWIOTLB_DYNAMIC)
#define TEST_HINT_MAPS	(IO_TLB_SEGSIZE / 2)

/*
 * A full default pool of 4 KiB mappings and a newer pool with room, which
 * the next map makes the hint. An allocator of its own, with one pool
 * added by hand. Returns the newer pool; @fill gets the default pool's
 * mappings.
 */
static struct io_tlb_pool *test_hint_setup(struct kunit *test,
					   struct swiotlb_test_ctx *ctx,
					   phys_addr_t *fill)
{
	struct io_tlb_pool *newer;
	unsigned int i;

	newer = swiotlb_alloc_pool(NULL, IO_TLB_SEGSIZE, IO_TLB_SEGSIZE, 1,
				   ctx->mem.phys_limit, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, newer);
	KUNIT_ASSERT_EQ(test, add_mem_pool(&ctx->mem, newer), 0);
	for (i = 0; i < TEST_HINT_MAPS; i++) {
		fill[i] = test_map(ctx, ctx->orig, SZ_4K, 0, DMA_TO_DEVICE, 0);
		KUNIT_ASSERT_NE(test, fill[i], TEST_MAP_ERROR);
		KUNIT_ASSERT_PTR_EQ(test, test_pool_of(ctx, fill[i]),
				    &ctx->mem.defpool);
	}
	return newer;
}

/*
 * 0043: a release drops the search hint only when it leaves a free run of
 * at least SWIOTLB_HINT_DROP_SLOTS. With the default pool full of 4 KiB
 * mappings and the hint on a newer pool, the unmap of one of them (a free
 * run of 2 slots between mappings) keeps the hint; once the whole default
 * pool is free again, the hint is gone. Before 0043 the first unmap
 * dropped it.
 */
static void swiotlb_test_hint_kept_small_release(struct kunit *test)
{
	phys_addr_t fill[TEST_HINT_MAPS], tlb;
	struct io_tlb_pool *newer, *hint;
	struct swiotlb_test_ctx *ctx;
	unsigned int i;

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, false, NULL);
	newer = test_hint_setup(test, ctx, fill);
	tlb = test_map(ctx, ctx->orig, SZ_2K, 0, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	KUNIT_ASSERT_PTR_EQ(test, READ_ONCE(ctx->mem.hint), newer);

	test_unmap(ctx, fill[TEST_HINT_MAPS / 2], SZ_4K, DMA_TO_DEVICE);
	hint = READ_ONCE(ctx->mem.hint);
	KUNIT_EXPECT_PTR_EQ_MSG(test, hint, newer,
				"2 slots freed between mappings dropped the hint");
	for (i = 0; i < TEST_HINT_MAPS; i++)
		if (i != TEST_HINT_MAPS / 2)
			test_unmap(ctx, fill[i], SZ_4K, DMA_TO_DEVICE);
	hint = READ_ONCE(ctx->mem.hint);
	KUNIT_EXPECT_NULL_MSG(test, hint,
			      "the default pool is free again, the hint stayed");
	test_unmap(ctx, tlb, SZ_2K, DMA_TO_DEVICE);
	test_ctx_destroy(test, ctx);
}

struct test_hint_thread {
	struct swiotlb_test_ctx *ctx;
	struct completion done;
	phys_addr_t orig;
	unsigned int errors;
	unsigned int in_default;
	u64 ns;
};

#define TEST_HINT_OPS	2000

static int test_hint_fn(void *data)
{
	struct test_hint_thread *t = data;
	u64 start = ktime_get_ns();
	phys_addr_t tlb;
	unsigned int i;

	for (i = 0; i < TEST_HINT_OPS; i++) {
		tlb = test_tbl_map(&t->ctx->dev, t->orig, SZ_4K, 0,
				   DMA_TO_DEVICE, DMA_ATTR_NO_WARN);
		if (tlb == TEST_MAP_ERROR) {
			t->errors++;
			continue;
		}
		if (tlb >= t->ctx->mem.defpool.start &&
		    tlb < t->ctx->mem.defpool.end)
			t->in_default++;
		swiotlb_tbl_unmap_single(&t->ctx->dev, tlb, SZ_4K,
					 DMA_TO_DEVICE,
					 DMA_ATTR_SKIP_CPU_SYNC);
	}
	t->ns = ktime_get_ns() - start;
	complete(&t->done);
	return 0;
}

/*
 * A measurement more than a test: one thread per CPU maps and unmaps 4 KiB
 * TEST_HINT_OPS times on the allocator of hint_kept_small_release, where
 * two mappings of the full default pool were given back: two holes of 2
 * slots, fewer than the threads at SMP=4. A thread that finds them taken
 * makes the newer pool the hint; before 0043 each unmap into a hole
 * dropped it again, and the next map searched the default pool first.
 * One bench: line: ns per map and unmap (the mean over the threads), and
 * how many of the maps went to the default pool's holes. Fails if a map
 * fails.
 */
static void swiotlb_test_bench_hint(struct kunit *test)
{
	phys_addr_t fill[TEST_HINT_MAPS];
	struct test_hint_thread *threads;
	unsigned int i, n, nthreads = num_online_cpus();
	unsigned int in_default = 0;
	struct swiotlb_test_ctx *ctx;
	u64 ns = 0;

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, false, NULL);
	test_hint_setup(test, ctx, fill);
	for (i = 0; i < TEST_HINT_MAPS; i += TEST_HINT_MAPS / 2) {
		test_unmap(ctx, fill[i], SZ_4K, DMA_TO_DEVICE);
		fill[i] = 0;
	}
	threads = kunit_kcalloc(test, nthreads, sizeof(*threads), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, threads);
	for (n = 0; n < nthreads; n++) {
		struct task_struct *task;

		threads[n].ctx = ctx;
		threads[n].orig = ctx->orig;
		init_completion(&threads[n].done);
		task = kthread_create(test_hint_fn, &threads[n],
				      "swiotlb-hint/%u", n);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, task);
		kthread_bind(task, cpumask_nth(n, cpu_online_mask));
		wake_up_process(task);
	}
	for (n = 0; n < nthreads; n++) {
		wait_for_completion(&threads[n].done);
		KUNIT_EXPECT_EQ(test, threads[n].errors, 0U);
		ns += threads[n].ns;
		in_default += threads[n].in_default;
	}
	kunit_info(test, "bench: hint_cpus %u op_ns %llu default_maps %u\n",
		   nthreads, div_u64(ns, nthreads * TEST_HINT_OPS), in_default);
	for (i = 0; i < TEST_HINT_MAPS; i++)
		if (fill[i])
			test_unmap(ctx, fill[i], SZ_4K, DMA_TO_DEVICE);
	test_ctx_destroy(test, ctx);
}
#endif
