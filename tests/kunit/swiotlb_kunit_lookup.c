// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cases 8b and 8c: the pool of a bounce buffer looked up once and passed
 * on (patch 0020), and the area-major search across pools (patch 0019).
 * Included by swiotlb_dynamic_kunit.c, not built on its own.
 */

/*
 * 8b. The pool of a bounce buffer is looked up once and passed on: the
 * lookup finds the pool of a bounce buffer and nothing for other
 * addresses or for a device without a swiotlb, and the sync and unmap
 * functions that take the pool copy the data and free the slots (and a
 * transient pool) without another lookup.
 */
#ifdef SWIOTLB_KUNIT_POOL_OPS
static void test_pool_ops_one(struct kunit *test, struct swiotlb_test_ctx *ctx,
			      enum test_pool_kind kind)
{
	u8 *orig = page_address(ctx->orig_page), *bounce;
	struct io_tlb_pool *pool;
	phys_addr_t tlb;

	tlb = test_map(ctx, ctx->orig, SZ_4K, 0, DMA_BIDIRECTIONAL, 0);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	pool = swiotlb_find_pool(&ctx->dev, tlb);
	KUNIT_ASSERT_NOT_NULL(test, pool);
	KUNIT_EXPECT_EQ_MSG(test, test_kind_of(ctx, tlb), kind,
			    "pool %s", kind_name[test_kind_of(ctx, tlb)]);
	KUNIT_EXPECT_PTR_EQ(test, swiotlb_find_pool(&ctx->dev, tlb + SZ_4K - 1),
			    pool);
	KUNIT_EXPECT_NULL(test, swiotlb_find_pool(&ctx->dev, ctx->orig));
	bounce = pool->vaddr + (tlb - pool->start);

	memset(bounce, 0xa5, SZ_4K);
	test_pool_sync_for_cpu(&ctx->dev, pool, tlb, SZ_4K, DMA_BIDIRECTIONAL);
	KUNIT_EXPECT_EQ(test, orig[0], 0xa5);
	KUNIT_EXPECT_EQ(test, orig[SZ_4K - 1], 0xa5);

	memset(orig, 0x5a, SZ_4K);
	test_pool_sync_for_device(&ctx->dev, pool, tlb, SZ_4K,
				  DMA_BIDIRECTIONAL);
	KUNIT_EXPECT_EQ(test, bounce[0], 0x5a);
	KUNIT_EXPECT_EQ(test, bounce[SZ_4K - 1], 0x5a);

	memset(bounce, 0x3c, SZ_4K);
	test_pool_unmap(&ctx->dev, pool, tlb, SZ_4K, DMA_BIDIRECTIONAL, 0);
	KUNIT_EXPECT_EQ(test, orig[0], 0x3c);
	KUNIT_EXPECT_EQ(test, orig[SZ_4K - 1], 0x3c);
	if (kind == KIND_DEFAULT)
		KUNIT_EXPECT_EQ(test, test_pool_used(pool), 0UL);
#ifdef CONFIG_SWIOTLB_DYNAMIC
	if (kind == KIND_TRANSIENT)
		KUNIT_EXPECT_TRUE_MSG(test,
				      list_empty(&ctx->dev.dma_io_tlb_pools),
				      "transient pool not deleted at unmap");
#endif
}

static void swiotlb_test_pool_lookup(struct kunit *test)
{
	struct device_dma_parameters parms = {};
	struct swiotlb_test_ctx *ctx;
	struct device *nodev;
	u64 mask;

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, true, NULL);
	nodev = kunit_kzalloc(test, sizeof(*nodev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, nodev);
	test_dev_init(nodev, &parms, &mask, NULL);
	KUNIT_EXPECT_NULL(test, swiotlb_find_pool(nodev,
						  ctx->mem.defpool.start));
	KUNIT_EXPECT_FALSE(test,
			   test_is_swiotlb_buffer(nodev, ctx->mem.defpool.start));

	test_pool_ops_one(test, ctx, KIND_DEFAULT);
#ifdef CONFIG_SWIOTLB_DYNAMIC
	/* The default pool full and no worker: the next map is transient. */
	test_fill_default_pool(test, ctx);
	test_pool_ops_one(test, ctx, KIND_TRANSIENT);
#endif
	test_ctx_destroy(test, ctx);
}
#endif /* SWIOTLB_KUNIT_POOL_OPS */

#if defined(CONFIG_SWIOTLB_DYNAMIC) && defined(SWIOTLB_KUNIT_AREA_MAJOR)
/*
 * 8c. The slot search is area-major: this CPU's area in every pool comes
 * before the next area of any pool. Two pools of two areas, and the
 * default pool full (it comes first or last, as the series orders the
 * list); with this CPU's area of the first pool searched full, the next
 * map must come from this CPU's area of the second one, not from the
 * other area of the first one (where a pool-by-pool search would go).
 */
static void swiotlb_test_area_major(struct kunit *test)
{
	struct io_tlb_pool *pool, *pools[2];
	struct swiotlb_test_ctx *ctx;
	unsigned int i, n = 0, cpu;
	phys_addr_t tlb[2];

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, false, NULL);
	test_fill_default_pool(test, ctx);
	for (i = 0; i < 2; i++) {
		pool = swiotlb_alloc_pool(NULL, 2 * IO_TLB_SEGSIZE,
					  2 * IO_TLB_SEGSIZE, 2,
					  ctx->mem.phys_limit, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, pool);
		add_mem_pool(&ctx->mem, pool);
	}
	/* the dynamic pools in the order the search tries them */
	list_for_each_entry(pool, &ctx->mem.pools, node) {
		if (pool == &ctx->mem.defpool)
			continue;
		KUNIT_ASSERT_LT(test, n, 2U);
		pools[n++] = pool;
	}
	KUNIT_ASSERT_EQ(test, n, 2U);
	KUNIT_ASSERT_EQ(test, pools[0]->nareas, 2U);
	KUNIT_ASSERT_EQ(test, pools[1]->nareas, 2U);
	KUNIT_ASSERT_EQ(test, pools[0]->area_nslabs,
			(unsigned int)IO_TLB_SEGSIZE);

	/* Stay on one CPU, so that "this CPU's area" does not change. */
	preempt_disable();
	cpu = raw_smp_processor_id() & 1;
	tlb[0] = test_map(ctx, ctx->orig, TEST_SEG_BYTES, 0, DMA_TO_DEVICE,
			  DMA_ATTR_NO_WARN);
	tlb[1] = test_map(ctx, ctx->orig, SZ_4K, 0, DMA_TO_DEVICE,
			  DMA_ATTR_NO_WARN);
	preempt_enable();

	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_NE(test, tlb[i], TEST_MAP_ERROR);
		test_fill_add(test, ctx, tlb[i], i ? SZ_4K : TEST_SEG_BYTES);
	}
	KUNIT_EXPECT_PTR_EQ(test, test_pool_of(ctx, tlb[0]), pools[0]);
	KUNIT_EXPECT_EQ(test, test_area_of(pools[0], tlb[0]), cpu);
	KUNIT_EXPECT_PTR_EQ_MSG(test, test_pool_of(ctx, tlb[1]), pools[1],
				"the second map went to pool %s",
				test_pool_of(ctx, tlb[1]) == pools[0] ?
				"0 (pool-major search)" : "neither");
	if (test_pool_of(ctx, tlb[1]) == pools[1])
		KUNIT_EXPECT_EQ(test, test_area_of(pools[1], tlb[1]), cpu);
	test_ctx_destroy(test, ctx);
}
#endif
