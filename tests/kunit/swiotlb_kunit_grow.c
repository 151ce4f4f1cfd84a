// SPDX-License-Identifier: GPL-2.0-only
/*
 * The grow worker's pools: their size and areas, contiguous ranges, the
 * slot array, the index copy and decryption; a map too large to grow for,
 * growth after exit, and where a transient pool is freed. Included by
 * swiotlb_dynamic_kunit.c, not built on its own.
 */

#ifdef CONFIG_SWIOTLB_DYNAMIC

/*
 * Patch 0012: a new pool of the default size (64 MiB unless swiotlb=
 * says otherwise) is more than the buddy allocator serves in one piece.
 * v7 asks for it anyway, and __alloc_pages() warns (the harness flags the
 * WARNING); the fix caps the request at the largest order. Patch 0030
 * serves larger pools from alloc_contig_pages(), up to its own limit.
 */
static void swiotlb_test_pool_size_capped(struct kunit *test)
{
#ifdef SWIOTLB_KUNIT_GROW_STEPS
	unsigned long max_slabs = swiotlb_max_grow_nslabs();
#else
	unsigned long max_slabs = TEST_BUDDY_SLABS;
#endif
	struct io_tlb_pool *pool;

	pool = swiotlb_alloc_pool(NULL, IO_TLB_MIN_SLABS,
				  IO_TLB_DEFAULT_SIZE >> IO_TLB_SHIFT, 1,
				  default_swiotlb_limit(), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pool);
	KUNIT_EXPECT_LE(test, pool->nslabs, max_slabs);
	KUNIT_EXPECT_GE(test, pool->nslabs, (unsigned long)IO_TLB_MIN_SLABS);
	swiotlb_dyn_free(&pool->rcu);
	rcu_barrier();
}

/*
 * 0044: a pool has no area smaller than a segment. The grow worker asks
 * for default_nareas areas, one per CPU; a pool of four segments asked
 * for with sixteen areas must get four. v7 gives it sixteen of 32 slots,
 * and then:
 * - a free run goes on to the end of its segment, so a mapping found
 *   under the lock of area 0 near its end takes slots of area 1, which
 *   another CPU searches under area 1's lock at the same time, and area
 *   0 counts more slots used than it has;
 * - a mapping of more than an area's slots (64 KiB) fits in no area.
 */
static void swiotlb_test_pool_areas_segment(struct kunit *test)
{
	struct swiotlb_test_ctx *ctx;
	struct io_tlb_pool *pool;
	unsigned int i;
	int next, big;

	test_skip_on_mainline(test, "0044: swiotlb_alloc_pool() keeps the areas asked for, however small");
	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, false, NULL);
	pool = swiotlb_alloc_pool(NULL, 4 * IO_TLB_SEGSIZE, 4 * IO_TLB_SEGSIZE,
				  16, DMA_BIT_MASK(64), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL_MSG(test, pool, "no pool of %lu KiB in one piece",
				  (4UL * IO_TLB_SEGSIZE << IO_TLB_SHIFT) >> 10);
	KUNIT_EXPECT_EQ(test, pool->nslabs, 4UL * IO_TLB_SEGSIZE);
	KUNIT_EXPECT_GE_MSG(test, pool->area_nslabs, (unsigned int)IO_TLB_SEGSIZE,
			    "%u areas of %u slots", pool->nareas,
			    pool->area_nslabs);
	KUNIT_EXPECT_EQ(test, pool->nareas, 4U);

	/*
	 * Mappings of 24 slots came and went: area 0's search goes on from
	 * slot 24 (a release does not move it back). 16 slots more.
	 */
	pool->areas[0].index = 24;
	next = test_area_find_slots(&ctx->dev, pool, 0, ctx->orig,
				    16 << IO_TLB_SHIFT, 0);
	KUNIT_EXPECT_GE(test, next, 0);
	KUNIT_EXPECT_LE_MSG(test, next + 16, (int)pool->area_nslabs,
			    "slots %d-%d taken under the lock of area 0, of %u slots",
			    next, next + 15, pool->area_nslabs);
	for (i = 0; i < pool->nareas; i++)
		KUNIT_EXPECT_LE_MSG(test, pool->areas[i].used,
				    (unsigned long)pool->area_nslabs,
				    "area %u counts %lu slots used of its %u", i,
				    pool->areas[i].used, pool->area_nslabs);
	big = test_area_find_slots(&ctx->dev, pool, pool->nareas - 1,
				   ctx->orig, SZ_128K, 0);
	KUNIT_EXPECT_GE_MSG(test, big, 0,
			    "128 KiB fits in no area of %u slots",
			    pool->area_nslabs);
	swiotlb_dyn_free(&pool->rcu);
	rcu_barrier();
	test_ctx_destroy(test, ctx);
}

/*
 * 0039: the slot array of a pool is CPU-only memory, from kvcalloc().
 * When it fails after a contiguous buffer (8 MiB, twice the buddy block),
 * the buffer goes back and a pool of the buddy block's size is made.
 * Before 0039 the array came from __get_free_pages() in one piece, 256 KiB
 * here and 1 MiB for a 64 MiB pool, and its failure lost the pool.
 */
static void swiotlb_test_slots_fail_halves(struct kunit *test)
{
#if defined(SWIOTLB_KUNIT_GROW_STEPS) && defined(CONFIG_CONTIG_ALLOC)
	const unsigned long nslabs = 2 * TEST_BUDDY_SLABS;
	struct io_tlb_pool *pool;

	if (swiotlb_max_grow_nslabs() < nslabs)
		kunit_skip(test, "pools above the buddy block need more RAM");
	test_alloc_start();
	test_alloc.fail_kvcalloc = 1;
	pool = swiotlb_alloc_pool(NULL, IO_TLB_MIN_SLABS, nslabs, 1,
				  DMA_BIT_MASK(64), GFP_KERNEL);
	test_alloc_stop();

	KUNIT_EXPECT_GE_MSG(test, test_alloc.kvcalloc, 1U,
			    "the slot array does not come from kvcalloc()");
	KUNIT_ASSERT_NOT_NULL_MSG(test, pool,
				  "a failed slot array lost the pool");
	KUNIT_EXPECT_EQ(test, test_alloc.contig, 1U);
	KUNIT_EXPECT_EQ_MSG(test, test_alloc.contig_freed, 1U,
			    "the contiguous buffer did not go back");
	KUNIT_EXPECT_EQ(test, test_alloc.last_freed_pfn,
			test_alloc.first_contig_pfn);
	KUNIT_EXPECT_EQ(test, pool->nslabs, TEST_BUDDY_SLABS);
	swiotlb_dyn_free(&pool->rcu);
	flush_workqueue(swiotlb_free_wq);
#else
	kunit_skip(test, "needs pools above the buddy block (0030) and CONFIG_CONTIG_ALLOC");
#endif
}

/*
 * A contiguous range that alloc_contig_pages() finds above the limit (a
 * device with 32-bit DMA on a machine with RAM above 4 GiB) is given back
 * whole, still encrypted, and the next try comes from ZONE_DMA32.
 */
static void swiotlb_test_contig_above_limit(struct kunit *test)
{
#if defined(SWIOTLB_KUNIT_GROW_STEPS) && defined(CONFIG_CONTIG_ALLOC)
	const size_t bytes = 2 * TEST_BUDDY_SLABS << IO_TLB_SHIFT;
	const phys_addr_t limit = SZ_4G + PAGE_SIZE - 1;
	struct page *page;

	if (max_pfn <= PFN_DOWN(SZ_4G + 2 * bytes))
		kunit_skip(test, "needs memory above 4 GiB");
	test_alloc_start();
	test_mem_enc_start(limit, false);
	page = test_alloc_tlb(NULL, bytes, limit, GFP_KERNEL);
	test_mem_enc_stop();
	test_alloc_stop();

	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_LE(test, page_to_phys(page) + bytes - 1, limit);
	KUNIT_EXPECT_EQ(test, test_alloc.contig, 2U);
	KUNIT_EXPECT_GT_MSG(test, PFN_PHYS(test_alloc.first_contig_pfn), limit,
			    "the first range was not above the limit");
	KUNIT_EXPECT_EQ_MSG(test, test_alloc.contig_freed, 1U,
			    "the range above the limit was not given back");
	KUNIT_EXPECT_EQ(test, test_alloc.last_freed_pfn,
			test_alloc.first_contig_pfn);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&test_mem_enc.decrypted_high), 0,
			    "pages above the limit were decrypted");
	KUNIT_EXPECT_EQ(test, atomic_read(&test_mem_enc.decrypted), 1);
	swiotlb_free_tlb(page_address(page), bytes);
#else
	kunit_skip(test, "needs contiguous pools (0030) and CONFIG_CONTIG_ALLOC");
#endif
}

/*
 * 0040: the grow worker allocates the copy of the index that will list
 * its pool before the pool, where it may sleep. With every allocation of
 * swiotlb.c that may not sleep failing, the pool is still added. Before
 * 0040 the copy was allocated under the lock, without sleeping, and the
 * worker freed the pool it had just made.
 */
static void swiotlb_test_index_alloc_first(struct kunit *test)
{
#ifdef SWIOTLB_KUNIT_POOL_INDEX
	struct swiotlb_test_ctx *ctx;
	struct io_tlb_pool *pool;
	unsigned long nslabs;

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, true, swiotlb_dyn_alloc);
	nslabs = ctx->mem.nslabs;
	test_alloc_start();
	test_alloc.fail_nowait = true;
	swiotlb_dyn_alloc(&ctx->mem.dyn_alloc);
	test_alloc_stop();

	KUNIT_EXPECT_GT_MSG(test, ctx->mem.nslabs, nslabs,
			    "the worker threw away the pool it had made (%u allocations failed)",
			    test_alloc.nowait_failed);
	pool = test_newest_pool(&ctx->mem);
	KUNIT_EXPECT_PTR_NE(test, pool, &ctx->mem.defpool);
	rcu_read_lock();
	KUNIT_EXPECT_PTR_EQ(test, swiotlb_index_find(&ctx->mem, pool->start),
			    pool);
	rcu_read_unlock();
	test_ctx_destroy(test, ctx);
#else
	kunit_skip(test, "needs the index of 0028");
#endif
}

/*
 * 0041: pools grow to at most a sixteenth of lowmem, with no floor but
 * one segment. The seam makes swiotlb.c see 32 MiB of RAM, then the same
 * with 1 GiB of highmem, then 1 MiB. Before 0041 the first gave the buddy
 * block (4 MiB on x86, 512 MiB on arm64 with 64K pages) and the second
 * counted highmem: 64 MiB.
 */
static void swiotlb_test_grow_cap_lowmem(struct kunit *test)
{
#ifdef SWIOTLB_KUNIT_GROW_STEPS
	const unsigned long low = SZ_32M >> PAGE_SHIFT;
	const unsigned long high = SZ_1G >> PAGE_SHIFT;
	unsigned long small, with_high, tiny;

	test_alloc_start();
	test_alloc.totalram = low;
	small = swiotlb_max_grow_nslabs();
	test_alloc.totalram = low + high;
	test_alloc.totalhigh = high;
	with_high = swiotlb_max_grow_nslabs();
	test_alloc.totalram = SZ_1M >> PAGE_SHIFT;
	test_alloc.totalhigh = 0;
	tiny = swiotlb_max_grow_nslabs();
	test_alloc_stop();

	KUNIT_EXPECT_EQ_MSG(test, small, (unsigned long)SZ_2M >> IO_TLB_SHIFT,
			    "32 MiB of RAM: pools up to %lu KiB",
			    (small << IO_TLB_SHIFT) >> 10);
	KUNIT_EXPECT_EQ_MSG(test, with_high, small,
			    "highmem counted: pools up to %lu KiB",
			    (with_high << IO_TLB_SHIFT) >> 10);
	KUNIT_EXPECT_EQ(test, tiny, (unsigned long)IO_TLB_SEGSIZE);
	KUNIT_EXPECT_LE(test, swiotlb_max_grow_nslabs(),
			IO_TLB_DEFAULT_SIZE >> IO_TLB_SHIFT);
#else
	kunit_skip(test, "needs the pool sizes of 0030");
#endif
}

/*
 * 0042: one contiguous range per run of the grow worker, and none for a
 * while after one failed. The worker grows a private allocator until the
 * next pool it wants is 64 MiB; then every contiguous range fails. The
 * run tries one range and adds a pool of the buddy block; the next run
 * tries none. Before 0042 the first run tried 64, 32, 16 and 8 MiB, and
 * the next one 8 MiB again.
 */
static void swiotlb_test_contig_fail_backs_off(struct kunit *test)
{
#if defined(SWIOTLB_KUNIT_GROW_STEPS) && defined(CONFIG_CONTIG_ALLOC)
	const unsigned long want = IO_TLB_DEFAULT_SIZE >> IO_TLB_SHIFT;
	struct swiotlb_test_ctx *ctx;
	unsigned int i, first;

	if (swiotlb_max_grow_nslabs() < want)
		kunit_skip(test, "64 MiB pools need 1 GiB of RAM");
	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, true, swiotlb_dyn_alloc);
	for (i = 0; i < 16 && swiotlb_grow_nslabs(&ctx->mem) < want; i++)
		swiotlb_dyn_alloc(&ctx->mem.dyn_alloc);
	KUNIT_ASSERT_EQ(test, swiotlb_grow_nslabs(&ctx->mem), want);

	test_alloc_start();
	test_alloc.fail_contig = true;
	swiotlb_dyn_alloc(&ctx->mem.dyn_alloc);
	first = test_alloc.contig;
	KUNIT_EXPECT_EQ(test, test_newest_pool(&ctx->mem)->nslabs,
			TEST_BUDDY_SLABS);
	swiotlb_dyn_alloc(&ctx->mem.dyn_alloc);
	test_alloc_stop();

	KUNIT_EXPECT_EQ_MSG(test, first, 1U,
			    "one run tried %u contiguous ranges", first);
	KUNIT_EXPECT_EQ_MSG(test, test_alloc.contig, first,
			    "the next run tried %u more at once",
			    test_alloc.contig - first);
	KUNIT_EXPECT_EQ(test, test_newest_pool(&ctx->mem)->nslabs,
			TEST_BUDDY_SLABS);
	test_ctx_destroy(test, ctx);
#else
	kunit_skip(test, "needs pools above the buddy block (0030) and CONFIG_CONTIG_ALLOC");
#endif
}

/*
 * Patch 0014: a mapping larger than one segment fits no pool, so it
 * must neither ask for a new pool nor make a transient one; one segment
 * still maps.
 */
static void swiotlb_test_hopeless_no_growth(struct kunit *test)
{
	struct swiotlb_test_ctx *ctx;
	unsigned long nslabs;
	phys_addr_t tlb;

	ctx = test_ctx_create(test, 2 * IO_TLB_SEGSIZE, true, NULL);
	nslabs = ctx->mem.nslabs;

	tlb = test_map(ctx, ctx->orig, TEST_SEG_BYTES + IO_TLB_SIZE, 0,
		       DMA_TO_DEVICE, DMA_ATTR_NO_WARN);
	KUNIT_EXPECT_EQ(test, tlb, TEST_MAP_ERROR);
	flush_work(&ctx->mem.dyn_alloc);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&ctx->grow_requests), 0,
			    "a hopeless request asked for a new pool");
	KUNIT_EXPECT_EQ(test, ctx->mem.nslabs, nslabs);
	rcu_barrier();
	KUNIT_EXPECT_TRUE(test, list_empty(&ctx->dev.dma_io_tlb_pools));

	tlb = test_map(ctx, ctx->orig, TEST_SEG_BYTES, 0, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	KUNIT_EXPECT_EQ(test, test_kind_of(ctx, tlb), KIND_DEFAULT);
	test_fill_add(test, ctx, tlb, TEST_SEG_BYTES);
	test_ctx_destroy(test, ctx);
}

/*
 * Patch 0013: pages for a new pool are checked against the physical
 * limit before they are decrypted. A limit one page above 4 GiB lets the
 * first try come from ZONE_NORMAL, above it; the retry from ZONE_DMA32 fits.
 * v7 decrypts the first pages before it checks them, and frees them
 * decrypted (shared with the host, on a confidential VM).
 */
static void swiotlb_test_decrypt_below_limit(struct kunit *test)
{
	phys_addr_t limit = SZ_4G + PAGE_SIZE - 1;
	struct page *page;
	int decrypted, high;

	if (max_pfn <= PFN_DOWN(SZ_4G) + 1)
		kunit_skip(test, "needs memory above 4 GiB");
	test_mem_enc_start(limit, false);
	page = test_alloc_tlb(NULL, PAGE_SIZE, limit, GFP_KERNEL);
	test_mem_enc_stop();
	decrypted = atomic_read(&test_mem_enc.decrypted);
	high = atomic_read(&test_mem_enc.decrypted_high);

	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_LE(test, page_to_phys(page) + PAGE_SIZE - 1, limit);
	KUNIT_EXPECT_EQ_MSG(test, high, 0,
			    "pages above the limit were decrypted");
	KUNIT_EXPECT_EQ(test, decrypted, 1);
	KUNIT_EXPECT_EQ(test, test_mem_enc.last_decrypted,
			(unsigned long)page_address(page));
	swiotlb_free_tlb(page_address(page), PAGE_SIZE);
}

/*
 * Patch 0013: when decryption fails, the pages may be partly
 * decrypted; they are encrypted again before they are freed. v7 frees them
 * as they are.
 */
static void swiotlb_test_decrypt_failure_reencrypts(struct kunit *test)
{
	struct page *page;

	test_mem_enc_start(DMA_BIT_MASK(64), true);
	page = test_alloc_tlb(NULL, PAGE_SIZE, DMA_BIT_MASK(64), GFP_KERNEL);
	test_mem_enc_stop();

	KUNIT_EXPECT_NULL(test, page);
	KUNIT_EXPECT_EQ(test, atomic_read(&test_mem_enc.decrypted), 1);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&test_mem_enc.encrypted), 1,
			    "pages that failed to decrypt were freed as they were");
	KUNIT_EXPECT_EQ(test, test_mem_enc.last_encrypted,
			test_mem_enc.last_decrypted);
}

/*
 * 0038: once swiotlb_exit() has stopped growth (swiotlb_stop_growth()), a
 * run of the grow worker that was queued before, or that a mapper queued
 * after reading can_grow a moment earlier, adds no pool. Without 0038 the
 * run adds one, and it stays: no shrinker is registered after exit.
 */
static void __init swiotlb_test_exit_stops_queued_grow(struct kunit *test)
{
#ifdef SWIOTLB_KUNIT_STOP_GROWTH
	struct swiotlb_test_ctx *ctx;
	unsigned long nslabs;

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, true, swiotlb_dyn_alloc);
	nslabs = ctx->mem.nslabs;
	swiotlb_stop_growth(&ctx->mem);
	KUNIT_EXPECT_FALSE(test, ctx->mem.can_grow);
	/* the run that was queued before, starting only now */
	swiotlb_dyn_alloc(&ctx->mem.dyn_alloc);
	KUNIT_EXPECT_EQ_MSG(test, ctx->mem.nslabs, nslabs,
			    "the worker added a pool after growth had stopped");
	KUNIT_EXPECT_TRUE(test, list_is_singular(&ctx->mem.pools));
	test_ctx_destroy(test, ctx);
#else
	kunit_skip(test, "needs swiotlb_stop_growth() (0038)");
#endif
}

/*
 * Patch 0016: a transient pool is freed after a grace period, and
 * freeing encrypts its pages again, which may sleep on a confidential VM.
 * It must happen in process context. v7 frees the pool in its RCU
 * callback, in softirq context: this case fails there, and the seam's
 * might_sleep() makes CONFIG_DEBUG_ATOMIC_SLEEP report it.
 */
static void swiotlb_test_free_in_process_context(struct kunit *test)
{
	struct swiotlb_test_ctx *ctx;
	phys_addr_t tlb;
	int i;

	test_skip_on_mainline(test, "0016: it frees a transient pool in its RCU callback, in softirq context");
	ctx = test_ctx_create(test, 2 * IO_TLB_SEGSIZE, true, NULL);
	tlb = test_map_when_full_atomic(test, ctx, SZ_4K);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	KUNIT_ASSERT_EQ(test, test_kind_of(ctx, tlb), KIND_TRANSIENT);

	test_mem_enc_start(DMA_BIT_MASK(64), false);
	test_unmap(ctx, tlb, SZ_4K, DMA_TO_DEVICE);
	rcu_barrier();
	/* the fixed series frees from a work item: give it 5 s */
	for (i = 0; i < 500 && !atomic_read(&test_mem_enc.encrypted); i++)
		usleep_range(10000, 11000);
	test_mem_enc_stop();

	KUNIT_EXPECT_GE_MSG(test, atomic_read(&test_mem_enc.encrypted), 1,
			    "the transient pool was not freed");
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&test_mem_enc.encrypted_atomic),
			    0, "a pool was freed in atomic context");
	test_ctx_destroy(test, ctx);
}

#endif /* CONFIG_SWIOTLB_DYNAMIC */
