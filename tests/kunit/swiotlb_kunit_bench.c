// SPDX-License-Identifier: GPL-2.0-only
/*
 * Measurements more than tests, run by scripts/bench/bench-pools.sh: what a
 * lookup and a map cost against the number of pools (bench_pools), and the
 * pools a burst grows (bench_grow, bench_grow_fragmented). Included by
 * swiotlb_dynamic_kunit.c, not built on its own.
 */

#ifdef CONFIG_SWIOTLB_DYNAMIC
/*
 * 8d. A measurement, not a test of speed: what a lookup by address, and a
 * map and unmap, cost against the number of pools. For 1, 16, 64 and 256
 * pools (the default pool and small dynamic ones), each on an allocator
 * of its own, with every pool full but the one that the slot search
 * reaches last (the room), so that a search that does not start at the
 * room passes them all:
 *  - the time per swiotlb_find_pool() of an address in the default pool,
 *    the newest and the oldest dynamic pool, and for a device that never
 *    bounced;
 *  - the time per map and unmap of 2 KiB: with the search hint at the
 *    room (patch 0031), and with a stale hint at a full pool, or none at
 *    one pool, before every map (the hint's worst case);
 *  - the steps of each walk through the pool list (the walk seam), which
 *    do not depend on timing: a map with the hint at the room takes none,
 *    one without it passes every pool, and since patch 0028 an unmap
 *    looks its pool up without the list.
 * The times are taken in TEST_BENCH_ROUNDS rounds, each of which measures
 * every pool count in turn (scripts/bench/bench-pools.sh boots the case
 * under -icount, where they count instructions, and judges them). One
 * "bench:" line per pool count for the steps, and one per round and pool
 * count for the times, in ps per operation. The case fails if a lookup
 * finds the wrong pool, a map fails, or a walk takes other steps than
 * the above.
 */
#define TEST_BENCH_ROUNDS	10
#define TEST_BENCH_LOOKUPS	20000
#define TEST_BENCH_MAPS		5000

struct test_bench_set {
	struct swiotlb_test_ctx *ctx;
	struct device *nodev;
	struct io_tlb_pool *oldest, *newest, *room;
	phys_addr_t *fill;
	unsigned int npools;
};

static u64 test_bench_find(struct kunit *test, struct device *dev,
			   phys_addr_t addr, struct io_tlb_pool *want)
{
	struct io_tlb_pool *got = NULL;
	unsigned int i;
	u64 start;

	start = ktime_get_ns();
	for (i = 0; i < TEST_BENCH_LOOKUPS; i++)
		got = swiotlb_find_pool(dev, READ_ONCE(addr));
	start = ktime_get_ns() - start;
	KUNIT_EXPECT_PTR_EQ(test, got, want);
	return div_u64(start * 1000, TEST_BENCH_LOOKUPS);
}

/* the hint's worst case: it points to a full pool, or nowhere */
static void test_bench_stale_hint(struct test_bench_set *b)
{
#ifdef SWIOTLB_KUNIT_SEARCH_HINT
	WRITE_ONCE(b->ctx->mem.hint, b->npools > 1 ? b->oldest : NULL);
#endif
}

static u64 test_bench_maps(struct kunit *test, struct test_bench_set *b,
			   bool stale)
{
	struct swiotlb_test_ctx *ctx = b->ctx;
	phys_addr_t tlb;
	unsigned int i;
	u64 start;

	start = ktime_get_ns();
	for (i = 0; i < TEST_BENCH_MAPS; i++) {
		if (stale)
			test_bench_stale_hint(b);
		tlb = test_map(ctx, ctx->orig, SZ_2K, 0, DMA_TO_DEVICE, 0);
		if (tlb == TEST_MAP_ERROR)
			break;
		test_unmap(ctx, tlb, SZ_2K, DMA_TO_DEVICE);
	}
	start = ktime_get_ns() - start;
	KUNIT_EXPECT_EQ_MSG(test, i, TEST_BENCH_MAPS,
			    "a map failed with %u pools", b->npools);
	return div_u64(start * 1000, TEST_BENCH_MAPS);
}

/*
 * The steps of one map, with the hint at the room or stale, and of its
 * unmap, counted by the walk seam; the map must land in the room.
 */
static void test_bench_steps(struct kunit *test, struct test_bench_set *b,
			     bool stale, unsigned long *map_steps,
			     unsigned long *unmap_steps)
{
	struct swiotlb_test_ctx *ctx = b->ctx;
	phys_addr_t tlb;

	if (stale)
		test_bench_stale_hint(b);
	WRITE_ONCE(swiotlb_kunit_walk_list, &ctx->mem.pools);
	swiotlb_kunit_walk_steps = 0;
	static_branch_enable(&swiotlb_kunit_walk_on);
	tlb = test_map(ctx, ctx->orig, SZ_2K, 0, DMA_TO_DEVICE, 0);
	*map_steps = swiotlb_kunit_walk_steps;
	swiotlb_kunit_walk_steps = 0;
	if (tlb != TEST_MAP_ERROR)
		test_unmap(ctx, tlb, SZ_2K, DMA_TO_DEVICE);
	*unmap_steps = swiotlb_kunit_walk_steps;
	static_branch_disable(&swiotlb_kunit_walk_on);
	WRITE_ONCE(swiotlb_kunit_walk_list, NULL);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
}

static void test_bench_setup(struct kunit *test, struct test_bench_set *b,
			     unsigned int npools)
{
	struct device_dma_parameters *parms;
	unsigned long hit, miss, unmap;
	struct swiotlb_test_ctx *ctx;
	struct io_tlb_pool *pool;
	phys_addr_t tlb;
	unsigned int i;
	u64 *mask;

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, false, NULL);
	b->ctx = ctx;
	b->npools = npools;
	b->nodev = kunit_kzalloc(test, sizeof(*b->nodev), GFP_KERNEL);
	parms = kunit_kzalloc(test, sizeof(*parms), GFP_KERNEL);
	mask = kunit_kzalloc(test, sizeof(*mask), GFP_KERNEL);
	b->fill = kunit_kcalloc(test, npools, sizeof(*b->fill), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, b->nodev && parms && mask && b->fill);
	test_dev_init(b->nodev, parms, mask, &ctx->mem);
	b->oldest = NULL;
	b->newest = NULL;
	for (i = 1; i < npools; i++) {
		pool = swiotlb_alloc_pool(NULL, IO_TLB_SEGSIZE, IO_TLB_SEGSIZE,
					  1, ctx->mem.phys_limit, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, pool);
		add_mem_pool(&ctx->mem, pool);
		b->oldest = b->oldest ? b->oldest : pool;
		b->newest = pool;
	}
	b->oldest = b->oldest ? b->oldest : &ctx->mem.defpool;
	b->newest = b->newest ? b->newest : &ctx->mem.defpool;

	/* the device has bounced: its lookups search the pools */
	tlb = test_map(ctx, ctx->orig, SZ_2K, 0, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	test_unmap(ctx, tlb, SZ_2K, DMA_TO_DEVICE);

	/*
	 * Every pool full but the one the list walk tries last: the default
	 * pool, or since patch 0032 (oldest first) the newest pool.
	 */
#ifdef SWIOTLB_KUNIT_OLDEST_FIRST
	b->room = b->newest;
#else
	b->room = &ctx->mem.defpool;
#endif
	for (i = 1; i < npools; i++) {
		tlb = test_map(ctx, ctx->orig, TEST_SEG_BYTES, 0,
			       DMA_TO_DEVICE, DMA_ATTR_NO_WARN);
		KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
		b->fill[i] = tlb;
		KUNIT_ASSERT_PTR_NE(test, test_pool_of(ctx, tlb), b->room);
	}

	/* the first map finds the room; with patch 0031 it is the hint now */
	test_bench_steps(test, b, true, &miss, &unmap);
	test_bench_steps(test, b, false, &hit, &unmap);
	/*
	 * One walk of the list per map since the area-major search (0019)
	 * and the single lookup (0020); before them a map walks it again
	 * to look up the pool it mapped from.
	 */
#if defined(SWIOTLB_KUNIT_AREA_MAJOR) && defined(SWIOTLB_KUNIT_POOL_OPS)
	KUNIT_EXPECT_EQ_MSG(test, miss, (unsigned long)npools,
			    "a search without the hint passes every pool");
#ifdef SWIOTLB_KUNIT_SEARCH_HINT
	KUNIT_EXPECT_EQ_MSG(test, hit, 0UL,
			    "a search that the hint serves walks no list");
#else
	KUNIT_EXPECT_EQ(test, hit, (unsigned long)npools);
#endif
#endif
#ifdef SWIOTLB_KUNIT_POOL_INDEX
	KUNIT_EXPECT_EQ_MSG(test, unmap, 0UL,
			    "an unmap finds its pool in the index");
#endif
	kunit_info(test, "bench: pools %u steps_map_hint %lu steps_map_stale %lu steps_unmap %lu\n",
		   npools, hit, miss, unmap);
}

static void test_bench_teardown(struct kunit *test, struct test_bench_set *b)
{
	unsigned int i;

	for (i = 1; i < b->npools; i++)
		if (b->fill[i])
			test_unmap(b->ctx, b->fill[i], TEST_SEG_BYTES,
				   DMA_TO_DEVICE);
	test_ctx_destroy(test, b->ctx);
}

static void test_bench_round(struct kunit *test, struct test_bench_set *b,
			     unsigned int round)
{
	struct swiotlb_test_ctx *ctx = b->ctx;
	u64 find_default, find_newest, find_oldest, nobounce, hint, stale;

	/* a first round to warm the caches, not counted */
	test_bench_find(test, &ctx->dev, ctx->mem.defpool.start,
			&ctx->mem.defpool);
	find_default = test_bench_find(test, &ctx->dev,
				       ctx->mem.defpool.start + SZ_2K,
				       &ctx->mem.defpool);
	find_newest = test_bench_find(test, &ctx->dev, b->newest->start + SZ_2K,
				      b->newest);
	find_oldest = test_bench_find(test, &ctx->dev, b->oldest->start + SZ_2K,
				      b->oldest);
	nobounce = test_bench_find(test, b->nodev, b->newest->start + SZ_2K,
				   NULL);
	/* a map that finds the room makes it the hint (patch 0031) */
	test_bench_maps(test, b, true);
	hint = test_bench_maps(test, b, false);
	stale = test_bench_maps(test, b, true);
	kunit_info(test, "bench: round %u pools %u find_default_ps %llu find_newest_ps %llu find_oldest_ps %llu find_nobounce_ps %llu map_unmap_hint_ps %llu map_unmap_stale_ps %llu\n",
		   round, b->npools, find_default, find_newest, find_oldest,
		   nobounce, hint, stale);
}

static void swiotlb_test_bench_pools(struct kunit *test)
{
	static const unsigned int npools[] = { 1, 16, 64, 256 };
	struct test_bench_set *b;
	unsigned int i, round;

	b = kunit_kcalloc(test, ARRAY_SIZE(npools), sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	for (i = 0; i < ARRAY_SIZE(npools); i++)
		test_bench_setup(test, &b[i], npools[i]);
	for (round = 1; round <= TEST_BENCH_ROUNDS; round++)
		for (i = 0; i < ARRAY_SIZE(npools); i++)
			test_bench_round(test, &b[i], round);
	for (i = 0; i < ARRAY_SIZE(npools); i++)
		test_bench_teardown(test, &b[i]);
}

/*
 * 8f. A burst to 256 MiB, from a private allocator with a default pool of
 * the boot size (1 MiB with swiotlb=512, as the KUnit kernel boots): the
 * grow worker runs until the allocator holds 256 MiB, and the case
 * reports how many pools it took. Before patch 0030, every new pool has
 * the default pool's size: 255 pools. With it, the first pool has that
 * size and each further one twice the newest, up to
 * swiotlb_max_grow_nslabs(); the case checks each size, the count (at
 * most 16, or without CONFIG_CONTIG_ALLOC what doubling up to the buddy
 * block needs), and that a pool larger than the largest buddy block came
 * from alloc_contig_pages() where the kernel has it, bounces, and is
 * freed.
 */
#define TEST_BURST_BYTES	SZ_256M

#ifdef SWIOTLB_KUNIT_GROW_STEPS
/*
 * How many pools the grow worker adds to take @have slots to @goal: the
 * first of @first slots, each further one twice the newest, up to @max.
 */
static unsigned int test_pools_to_reach(unsigned long have, unsigned long goal,
					unsigned long first, unsigned long max)
{
	unsigned long size = min(first, max);
	unsigned int n = 0;

	for (; have < goal; n++) {
		have += size;
		size = min(2 * size, max);
	}
	return n;
}
#endif

static void swiotlb_test_bench_grow(struct kunit *test)
{
	const unsigned long goal = TEST_BURST_BYTES >> IO_TLB_SHIFT;
	const unsigned long boot = min(default_nslabs, TEST_BUDDY_SLABS);
	unsigned long largest = 0, prev = 0;
	struct io_tlb_pool *pool, *newest;
	struct swiotlb_test_ctx *ctx;
	unsigned int npools = 0, i;
	phys_addr_t tlb;
	u64 ns;

	ctx = test_ctx_create(test, boot, true, swiotlb_dyn_alloc);
	ns = ktime_get_ns();
	for (i = 0; i < 1024 && ctx->mem.nslabs < goal; i++)
		swiotlb_dyn_alloc(&ctx->mem.dyn_alloc);
	ns = ktime_get_ns() - ns;
	KUNIT_EXPECT_GE_MSG(test, ctx->mem.nslabs, goal,
			    "the worker stopped growing after %u runs", i);

	/* oldest first: since patch 0032 the list order, before it reversed */
#ifdef SWIOTLB_KUNIT_OLDEST_FIRST
	list_for_each_entry(pool, &ctx->mem.pools, node) {
#else
	list_for_each_entry_reverse(pool, &ctx->mem.pools, node) {
#endif
		if (pool == &ctx->mem.defpool)
			continue;
		npools++;
		largest = max(largest, pool->nslabs);
#ifdef SWIOTLB_KUNIT_GROW_STEPS
		KUNIT_EXPECT_EQ_MSG(test, pool->nslabs,
				    prev ? min(2 * prev, swiotlb_max_grow_nslabs()) :
				    min(default_nslabs, SWIOTLB_MAX_POOL_SLABS),
				    "pool %u of the burst", npools);
#endif
		prev = pool->nslabs;
	}
	kunit_info(test, "bench: grow_to_mib %lu pools %u largest_kib %lu grow_us %llu\n",
		   (ctx->mem.nslabs << IO_TLB_SHIFT) >> 20, npools,
		   (largest << IO_TLB_SHIFT) >> 10, div_u64(ns, 1000));
#ifdef SWIOTLB_KUNIT_GROW_STEPS
	/*
	 * At most 16 pools where a pool may outgrow the buddy block
	 * (CONFIG_CONTIG_ALLOC); without it the pools stop at the block, and
	 * the burst takes as many as doubling up to it needs (65 with the
	 * 4 MiB block of arm64's 4K pages).
	 */
	KUNIT_EXPECT_LE(test, npools,
			IS_ENABLED(CONFIG_CONTIG_ALLOC) ? 16U :
			test_pools_to_reach(boot, goal,
					    min(default_nslabs, SWIOTLB_MAX_POOL_SLABS),
					    swiotlb_max_grow_nslabs()));
	KUNIT_EXPECT_EQ(test, largest > SWIOTLB_MAX_POOL_SLABS,
			IS_ENABLED(CONFIG_CONTIG_ALLOC));
#endif

	/*
	 * The newest, largest pool serves a map, and bounces. Since patch
	 * 0032 the search tries the oldest pools first: point the search
	 * hint, which it tries before them, at the newest pool, as a search
	 * that found the older pools full would.
	 */
	newest = test_newest_pool(&ctx->mem);
#ifdef SWIOTLB_KUNIT_OLDEST_FIRST
	WRITE_ONCE(ctx->mem.hint, newest);
#endif
	memset(page_address(ctx->orig_page), 0x5a, SZ_4K);
	tlb = test_map(ctx, ctx->orig, SZ_4K, 0, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	test_fill_add(test, ctx, tlb, SZ_4K);
	KUNIT_EXPECT_PTR_EQ(test, test_pool_of(ctx, tlb), newest);
	KUNIT_EXPECT_EQ(test, memcmp(test_tlb_vaddr(ctx, tlb),
				     page_address(ctx->orig_page), SZ_4K), 0);
	test_ctx_destroy(test, ctx);
}

/*
 * A measurement more than a test: the burst of bench_grow on memory where
 * no contiguous range above the buddy block can be had. One page at the
 * start of every 8 MiB below the allocator's limit is taken (a page in
 * use is unmovable: alloc_contig_pages() fails on every range), while the
 * 4 MiB buddy blocks between stay free. The worker grows a private
 * allocator to 64 MiB. One bench: line: the time, and the contiguous
 * ranges it tried; with patch 0042 it backs off after the first failure.
 */
static void swiotlb_test_bench_grow_fragmented(struct kunit *test)
{
#if defined(SWIOTLB_KUNIT_GROW_STEPS) && defined(CONFIG_CONTIG_ALLOC)
	const unsigned long step = PFN_DOWN(2 * TEST_BUDDY_SLABS << IO_TLB_SHIFT);
	const unsigned long goal = SZ_64M >> IO_TLB_SHIFT;
	unsigned long pfn, end, *pinned, npinned = 0;
	struct swiotlb_test_ctx *ctx;
	unsigned int i;
	u64 ns;

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, true, swiotlb_dyn_alloc);
	end = min_t(unsigned long, max_pfn,
		    PFN_DOWN(min_t(u64, ctx->mem.phys_limit, PFN_PHYS(max_pfn))));
	pinned = kvcalloc(end / step + 1, sizeof(*pinned), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pinned);
	/* not in the holes of the memory map (2-4 GiB on q35) */
	for (pfn = step; pfn < end; pfn += step)
		if (pfn_to_online_page(pfn) &&
		    !alloc_contig_range(pfn, pfn + 1, MIGRATE_MOVABLE,
					GFP_KERNEL))
			pinned[npinned++] = pfn;

	test_alloc_start();
	ns = ktime_get_ns();
	for (i = 0; i < 64 && ctx->mem.nslabs < goal; i++)
		swiotlb_dyn_alloc(&ctx->mem.dyn_alloc);
	ns = ktime_get_ns() - ns;
	test_alloc_stop();
	KUNIT_EXPECT_GE(test, ctx->mem.nslabs, goal);
	KUNIT_EXPECT_LE_MSG(test, test_newest_pool(&ctx->mem)->nslabs,
			    TEST_BUDDY_SLABS,
			    "a contiguous range was had: memory is not fragmented");
	kunit_info(test, "bench: fragmented_grow_to_mib %lu runs %u contig_tries %u pinned %lu grow_us %llu\n",
		   (ctx->mem.nslabs << IO_TLB_SHIFT) >> 20, i,
		   test_alloc.contig, npinned, div_u64(ns, 1000));

	while (npinned)
		free_contig_range(pinned[--npinned], 1);
	kvfree(pinned);
	test_ctx_destroy(test, ctx);
#else
	kunit_skip(test, "needs pools above the buddy block (0030) and CONFIG_CONTIG_ALLOC");
#endif
}
#endif
