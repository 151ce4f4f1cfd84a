// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cases 1 to 8: maps on the default pool, transient pools, the grow worker,
 * bouncing, DMA masks, alignment, what may grow, and dma_uses_io_tlb. The
 * grow cases use test_map_when_full_atomic() too. Included by
 * swiotlb_dynamic_kunit.c, not built on its own.
 */

/* 1. The default pool serves maps while it has room. */
static void swiotlb_test_default_pool_serves(struct kunit *test)
{
	struct swiotlb_test_ctx *ctx;
	unsigned long nslabs;
	phys_addr_t tlb;
	int i;

	ctx = test_ctx_create(test, 4 * IO_TLB_SEGSIZE, true, NULL);
	nslabs = ctx->mem.nslabs;
	for (i = 0; i < 3 * IO_TLB_SEGSIZE / 8; i++) {
		tlb = test_map(ctx, ctx->orig + i * SZ_2K, SZ_16K, 0,
			       DMA_TO_DEVICE, 0);
		KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
		KUNIT_EXPECT_EQ(test, test_kind_of(ctx, tlb), KIND_DEFAULT);
		test_fill_add(test, ctx, tlb, SZ_16K);
	}
	KUNIT_EXPECT_EQ(test, ctx->mem.nslabs, nslabs);
#ifdef CONFIG_SWIOTLB_DYNAMIC
	KUNIT_EXPECT_TRUE(test, list_empty(&ctx->dev.dma_io_tlb_pools));
	KUNIT_EXPECT_TRUE(test, list_is_singular(&ctx->mem.pools));
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->grow_requests), 0);
#endif
	test_ctx_destroy(test, ctx);
}

#ifdef CONFIG_SWIOTLB_DYNAMIC

/*
 * Fill the default pool of @ctx and map @size bytes more, all with a
 * spinlock held and interrupts off: the map can neither sleep nor wait for
 * the grow worker, so it must come from a transient pool (or fail).
 */
static phys_addr_t test_map_when_full_atomic(struct kunit *test,
					     struct swiotlb_test_ctx *ctx,
					     size_t size)
{
	static DEFINE_SPINLOCK(test_lock);
	unsigned long flags;
	unsigned int bad;
	phys_addr_t tlb;

	spin_lock_irqsave(&test_lock, flags);
	bad = test_fill_default_pool_atomic(ctx);
	tlb = test_map(ctx, ctx->orig, size, 0, DMA_TO_DEVICE, 0);
	spin_unlock_irqrestore(&test_lock, flags);
	test_fill_check(test, ctx, bad);
	return tlb;
}

/*
 * 2. Exhausted in atomic context, the next map comes from a transient
 * pool, which is gone after unmap and a grace period.
 */
static void swiotlb_test_transient_when_full(struct kunit *test)
{
	struct swiotlb_test_ctx *ctx;
	struct io_tlb_pool *pool;
	phys_addr_t tlb;

	ctx = test_ctx_create(test, 2 * IO_TLB_SEGSIZE, true, NULL);
	tlb = test_map_when_full_atomic(test, ctx, SZ_4K);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	KUNIT_EXPECT_EQ(test, test_kind_of(ctx, tlb), KIND_TRANSIENT);
#if defined(CONFIG_DEBUG_FS) && defined(SWIOTLB_KUNIT_TRANSIENT_MAPS)
	/* Patch 0036: one mapping served by a transient pool. */
	KUNIT_EXPECT_EQ(test, atomic_long_read(&ctx->mem.transient_maps), 1L);
#endif
	KUNIT_EXPECT_TRUE(test, test_is_swiotlb_buffer(&ctx->dev, tlb));
	pool = test_pool_of(ctx, tlb);
	KUNIT_EXPECT_FALSE(test, list_empty(&ctx->dev.dma_io_tlb_pools));
	KUNIT_EXPECT_PTR_EQ(test, list_first_entry(&ctx->dev.dma_io_tlb_pools,
						   struct io_tlb_pool, node),
			    pool);

	test_unmap(ctx, tlb, SZ_4K, DMA_TO_DEVICE);
	KUNIT_EXPECT_TRUE(test, list_empty(&ctx->dev.dma_io_tlb_pools));
	KUNIT_EXPECT_FALSE(test, test_is_swiotlb_buffer(&ctx->dev, tlb));
#if defined(CONFIG_DEBUG_FS) && defined(SWIOTLB_KUNIT_TRANSIENT_MAPS)
	/* The slots are gone with the pool; the count of mappings stays. */
	KUNIT_EXPECT_EQ(test, atomic_long_read(&ctx->mem.transient_nslabs), 0L);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&ctx->mem.transient_maps), 1L);
#endif
	rcu_barrier();

	/* Exhaustion asked for a new pool, and the no-op worker ran. */
	flush_work(&ctx->mem.dyn_alloc);
	KUNIT_EXPECT_GE(test, atomic_read(&ctx->grow_requests), 1);
	test_ctx_destroy(test, ctx);
}

/* 3. Exhaustion schedules the worker, which adds a pool to mem->pools. */
static void swiotlb_test_grow_worker(struct kunit *test)
{
	struct swiotlb_test_ctx *ctx;
	struct io_tlb_pool *pool;
	unsigned long nslabs;
	phys_addr_t tlb;
	int npools = 0;

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, true, swiotlb_dyn_alloc);
	test_fill_default_pool(test, ctx);
	nslabs = ctx->mem.nslabs;

	tlb = test_map(ctx, ctx->orig, SZ_4K, 0, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	test_fill_add(test, ctx, tlb, SZ_4K);
	flush_work(&ctx->mem.dyn_alloc);

	list_for_each_entry(pool, &ctx->mem.pools, node)
		npools++;
	KUNIT_ASSERT_EQ(test, npools, 2);
	pool = test_newest_pool(&ctx->mem);
	KUNIT_EXPECT_PTR_NE(test, pool, &ctx->mem.defpool);
	KUNIT_EXPECT_FALSE(test, pool->transient);
	KUNIT_EXPECT_EQ(test, ctx->mem.nslabs, nslabs + pool->nslabs);
	KUNIT_EXPECT_GE(test, pool->nslabs, (unsigned long)IO_TLB_MIN_SLABS);

	tlb = test_map(ctx, ctx->orig, SZ_4K, 0, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	KUNIT_EXPECT_EQ(test, test_kind_of(ctx, tlb), KIND_DYNAMIC);
	KUNIT_EXPECT_PTR_EQ(test, test_pool_of(ctx, tlb), pool);
	test_fill_add(test, ctx, tlb, SZ_4K);
	test_ctx_destroy(test, ctx);
}

#endif /* CONFIG_SWIOTLB_DYNAMIC */

/*
 * Make a context whose next maps come from a pool of @kind, or return
 * NULL if that kind needs CONFIG_SWIOTLB_DYNAMIC.
 */
static struct swiotlb_test_ctx *test_ctx_of_kind(struct kunit *test,
						 enum test_pool_kind kind)
{
#ifdef CONFIG_SWIOTLB_DYNAMIC
	struct swiotlb_test_ctx *ctx;
	phys_addr_t tlb;
#endif

	switch (kind) {
	case KIND_DEFAULT:
		return test_ctx_create(test, 4 * IO_TLB_SEGSIZE, false, NULL);
#ifdef CONFIG_SWIOTLB_DYNAMIC
	case KIND_DYNAMIC:
		/* the worker adds a pool; new pools are searched first */
		ctx = test_ctx_create(test, IO_TLB_SEGSIZE, true,
				      swiotlb_dyn_alloc);
		test_fill_default_pool(test, ctx);
		tlb = test_map(ctx, ctx->orig, SZ_4K, 0, DMA_TO_DEVICE, 0);
		KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
		test_fill_add(test, ctx, tlb, SZ_4K);
		flush_work(&ctx->mem.dyn_alloc);
		KUNIT_ASSERT_FALSE(test, list_is_singular(&ctx->mem.pools));
		return ctx;
	case KIND_TRANSIENT:
		/* growth is requested but never happens */
		ctx = test_ctx_create(test, IO_TLB_SEGSIZE, true, NULL);
		test_fill_default_pool(test, ctx);
		return ctx;
#endif
	default:
		return NULL;
	}
}

/* 4. Bouncing copies the right bytes on every kind of pool. */
static void swiotlb_test_bounce(struct kunit *test)
{
	enum test_pool_kind kind;
	const size_t size = 3 * SZ_4K + 123;
	u8 *orig, *expect, *dev_data;

	expect = kunit_kzalloc(test, size, GFP_KERNEL);
	dev_data = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, expect);
	KUNIT_ASSERT_NOT_NULL(test, dev_data);

	for (kind = KIND_DEFAULT; kind <= KIND_TRANSIENT; kind++) {
		struct swiotlb_test_ctx *ctx = test_ctx_of_kind(test, kind);
		size_t off, len;
		phys_addr_t tlb;
		u8 *tlb_va;

		if (!ctx) {
			kunit_info(test, "%s pool needs CONFIG_SWIOTLB_DYNAMIC",
				   kind_name[kind]);
			continue;
		}
		orig = phys_to_virt(ctx->orig) + 0x100;

		/* DMA_TO_DEVICE copies on map. */
		test_fill_random(orig, size);
		tlb = test_map(ctx, virt_to_phys(orig), size, 0,
			       DMA_TO_DEVICE, 0);
		KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
		KUNIT_EXPECT_EQ_MSG(test, test_kind_of(ctx, tlb), kind,
				    "%s", kind_name[kind]);
		tlb_va = test_tlb_vaddr(ctx, tlb);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(tlb_va, orig, size), 0,
				    "map DMA_TO_DEVICE, %s", kind_name[kind]);

		/* sync_single_for_device copies a partial range at an offset. */
		off = 2000;
		len = 5000;
		memcpy(expect, tlb_va, size);
		test_fill_random(orig + off, len);
		memcpy(expect + off, orig + off, len);
		swiotlb_sync_single_for_device(&ctx->dev, tlb + off, len,
					       DMA_TO_DEVICE);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(tlb_va, expect, size), 0,
				    "partial sync for device, %s",
				    kind_name[kind]);
		test_unmap(ctx, tlb, size, DMA_TO_DEVICE);

		/* DMA_FROM_DEVICE copies back on unmap. */
		test_fill_random(orig, size);
		tlb = test_map(ctx, virt_to_phys(orig), size, 0,
			       DMA_FROM_DEVICE, 0);
		KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
		KUNIT_EXPECT_EQ(test, test_kind_of(ctx, tlb), kind);
		tlb_va = test_tlb_vaddr(ctx, tlb);

		/* sync_single_for_cpu copies a partial range at an offset. */
		off = 3000;
		len = 2100;
		memcpy(expect, orig, size);
		test_fill_random(dev_data, size);
		memcpy(tlb_va, dev_data, size);
		memcpy(expect + off, dev_data + off, len);
		swiotlb_sync_single_for_cpu(&ctx->dev, tlb + off, len,
					    DMA_FROM_DEVICE);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(orig, expect, size), 0,
				    "partial sync for cpu, %s", kind_name[kind]);

		test_unmap(ctx, tlb, size, DMA_FROM_DEVICE);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(orig, dev_data, size), 0,
				    "unmap DMA_FROM_DEVICE, %s", kind_name[kind]);
		test_ctx_destroy(test, ctx);
	}
}

/*
 * 5. A device with a 32-bit DMA mask gets buffers below 4 GiB from every
 * kind of pool, and default_swiotlb_limit() does not move as the system's
 * swiotlb grows.
 */
static void swiotlb_test_dma32(struct kunit *test)
{
	phys_addr_t limit = default_swiotlb_limit();
	enum test_pool_kind kind;

	if (PFN_PHYS(max_pfn) <= SZ_4G)
		kunit_info(test, "only %llu MiB of RAM: the 32-bit limit is not exercised",
			   (unsigned long long)PFN_PHYS(max_pfn) >> 20);

	for (kind = KIND_DEFAULT; kind <= KIND_TRANSIENT; kind++) {
		struct swiotlb_test_ctx *ctx = test_ctx_of_kind(test, kind);
		phys_addr_t tlb;
		int i;

		if (!ctx)
			continue;
		ctx->dma_mask = DMA_BIT_MASK(32);
		for (i = 0; i < 4; i++) {
			tlb = test_map(ctx, ctx->orig, SZ_64K, 0,
				       DMA_TO_DEVICE, 0);
			KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
			KUNIT_EXPECT_EQ(test, test_kind_of(ctx, tlb), kind);
			KUNIT_EXPECT_LE_MSG(test, (u64)tlb + SZ_64K - 1,
					    DMA_BIT_MASK(32), "%s",
					    kind_name[kind]);
			test_fill_add(test, ctx, tlb, SZ_64K);
		}
		test_ctx_destroy(test, ctx);
	}

#ifdef CONFIG_SWIOTLB_DYNAMIC
	/* Grow the system's swiotlb once; its limit must stay put. */
	if (io_tlb_default_mem.can_grow) {
		unsigned long nslabs = io_tlb_default_mem.nslabs;

		schedule_work(&io_tlb_default_mem.dyn_alloc);
		flush_work(&io_tlb_default_mem.dyn_alloc);
		KUNIT_EXPECT_GT(test, io_tlb_default_mem.nslabs, nslabs);
	}
#endif
	KUNIT_EXPECT_EQ(test, default_swiotlb_limit(), limit);
}

/*
 * 6. min_align_mask and alloc_align_mask are honoured, and the buffer lies
 * entirely inside its pool, in every kind of pool. Returns false if @kind
 * needs CONFIG_SWIOTLB_DYNAMIC.
 */
static bool test_align_one(struct kunit *test, enum test_pool_kind kind,
			   unsigned int align, unsigned int offset, size_t size)
{
	struct swiotlb_test_ctx *ctx;
	struct io_tlb_pool *pool;
	phys_addr_t orig, tlb, mask;

	ctx = test_ctx_of_kind(test, kind);
	if (!ctx)
		return false;
	dma_set_min_align_mask(&ctx->dev, SZ_4K - 1);
	size = min(size, swiotlb_max_mapping_size(&ctx->dev));
	orig = ctx->orig + offset;
	if (kind == KIND_TRANSIENT &&
	    !test_transient_fits(&ctx->dev, align, orig)) {
		/* what patch 0010 promises and 6.12 does not */
		kunit_info(test, "%s size %zu offset %#x align %#x: no room for the alignment in 6.12's transient pool, not asked\n",
			   kind_name[kind], size, offset, align);
		goto out;
	}
	tlb = test_map(ctx, orig, size, align, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE_MSG(test, tlb, TEST_MAP_ERROR,
			    "%s size %zu offset %#x", kind_name[kind], size,
			    offset);
	KUNIT_EXPECT_EQ(test, test_kind_of(ctx, tlb), kind);
	/*
	 * 6.1.192's slot search (stable backport of "swiotlb: Fix
	 * double-allocation of slots due to broken alignment handling")
	 * ignores the min_align_mask bits that alloc_align_mask covers: then
	 * only the offset within a slot is kept. Later mainline (6.12) pads
	 * the buffer to keep them; that is outside this series, so only the
	 * bits that both keep are asked for. The allocation starts aligned,
	 * before the buffer by the offset that each computes
	 * (test_align_offset()).
	 */
	mask = align ? IO_TLB_SIZE - 1 : SZ_4K - 1;
	KUNIT_EXPECT_EQ_MSG(test, tlb & mask, orig & mask,
			    "min_align_mask, %s size %zu offset %#x align %#x",
			    kind_name[kind], size, offset, align);
	if (align)
		KUNIT_EXPECT_EQ_MSG(test,
				    (tlb - test_align_offset(&ctx->dev, align,
							     orig)) & align,
				    (phys_addr_t)0,
				    "alloc_align_mask, %s size %zu offset %#x",
				    kind_name[kind], size, offset);
	pool = test_pool_of(ctx, tlb);
	KUNIT_ASSERT_NOT_NULL(test, pool);
	KUNIT_EXPECT_GE(test, tlb, pool->start);
	KUNIT_EXPECT_LE_MSG(test, tlb + size, pool->end,
			    "buffer ends past its pool, %s size %zu offset %#x",
			    kind_name[kind], size, offset);
	test_unmap(ctx, tlb, size, DMA_TO_DEVICE);
out:
	dma_set_min_align_mask(&ctx->dev, 0);
	test_ctx_destroy(test, ctx);
	return true;
}

static void swiotlb_test_alignment(struct kunit *test)
{
	static const unsigned int offsets[] = { 0, 0x200, 0x800, 0xe00 };
	static const size_t sizes[] = { 512, SZ_2K, SZ_4K, 4608, SZ_64K,
					SZ_256K };
	static const unsigned int aligns[] = { 0, SZ_4K - 1 };
	enum test_pool_kind kind;
	unsigned int a, o, i;

	for (kind = KIND_DEFAULT; kind <= KIND_TRANSIENT; kind++) {
		for (a = 0; a < ARRAY_SIZE(aligns); a++) {
			for (o = 0; o < ARRAY_SIZE(offsets); o++) {
				for (i = 0; i < ARRAY_SIZE(sizes); i++) {
					if (!test_align_one(test, kind,
							    aligns[a],
							    offsets[o],
							    sizes[i]))
						goto next_kind;
				}
			}
		}
next_kind:
		;
	}
}

/* 7a. Asking for the default pool's base address disables growth. */
static void swiotlb_test_can_grow_base(struct kunit *test)
{
#ifdef CONFIG_SWIOTLB_DYNAMIC
	bool saved = io_tlb_default_mem.can_grow;

	KUNIT_EXPECT_TRUE(test, saved);
	KUNIT_EXPECT_EQ(test, default_swiotlb_base(),
			io_tlb_default_mem.defpool.start);
	KUNIT_EXPECT_FALSE(test, io_tlb_default_mem.can_grow);
	io_tlb_default_mem.can_grow = saved;
#else
	kunit_skip(test, "needs CONFIG_SWIOTLB_DYNAMIC");
#endif
}

#ifdef CONFIG_SWIOTLB_DYNAMIC
static int test_remap_calls;

static int test_remap(void *tlb, unsigned long nslabs)
{
	test_remap_calls++;
	return 0;
}
#endif

/*
 * 7b. swiotlb_init_late() with a remap function leaves the swiotlb unable
 * to grow; without one it can grow. The system's allocator is saved,
 * cleared for the call and restored afterwards: the test VM has no device
 * that could map a buffer meanwhile.
 */
static void swiotlb_test_can_grow_remap(struct kunit *test)
{
#ifdef CONFIG_SWIOTLB_DYNAMIC
	int (*remaps[])(void *tlb, unsigned long nslabs) = { NULL, test_remap };
	struct io_tlb_mem *saved;
	unsigned int i;

	saved = kunit_kmalloc(test, sizeof(*saved), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, saved);
	*saved = io_tlb_default_mem;

	for (i = 0; i < ARRAY_SIZE(remaps); i++) {
		struct io_tlb_pool *pool = &io_tlb_default_mem.defpool;
		bool can_grow;
		int rc;

		memset(&io_tlb_default_mem, 0, sizeof(io_tlb_default_mem));
		spin_lock_init(&io_tlb_default_mem.lock);
		INIT_LIST_HEAD(&io_tlb_default_mem.pools);
		INIT_WORK(&io_tlb_default_mem.dyn_alloc, swiotlb_dyn_alloc);
		test_remap_calls = 0;
		rc = swiotlb_init_late(SZ_2M, GFP_KERNEL, remaps[i]);
		can_grow = io_tlb_default_mem.can_grow;
		if (!rc) {
			free_pages((unsigned long)pool->areas,
				   get_order(array_size(sizeof(*pool->areas),
							pool->nareas)));
			free_pages((unsigned long)pool->slots,
				   get_order(array_size(sizeof(*pool->slots),
							pool->nslabs)));
			free_pages((unsigned long)phys_to_virt(pool->start),
				   get_order(pool->nslabs << IO_TLB_SHIFT));
		}
		io_tlb_default_mem = *saved;

		KUNIT_ASSERT_EQ(test, rc, 0);
		KUNIT_EXPECT_EQ(test, test_remap_calls, remaps[i] ? 1 : 0);
		KUNIT_EXPECT_EQ_MSG(test, can_grow, !remaps[i],
				    "remap function %s", remaps[i] ? "set" : "unset");
	}
#else
	kunit_skip(test, "needs CONFIG_SWIOTLB_DYNAMIC");
#endif
}

/*
 * 7c. An allocator set up like a restricted DMA pool never grows: a full
 * pool makes maps fail, with no transient pool and no new pool. With
 * CONFIG_SWIOTLB_DYNAMIC=n this is what every full pool does (case 10).
 */
static void swiotlb_test_full_pool_fails(struct kunit *test)
{
	struct swiotlb_test_ctx *ctx;
	unsigned long nslabs;
	phys_addr_t tlb;

	ctx = test_ctx_create(test, 2 * IO_TLB_SEGSIZE, false, NULL);
	test_fill_default_pool(test, ctx);
	nslabs = ctx->mem.nslabs;

	tlb = test_map(ctx, ctx->orig, SZ_4K, 0, DMA_TO_DEVICE,
		       DMA_ATTR_NO_WARN);
	KUNIT_EXPECT_EQ(test, tlb, TEST_MAP_ERROR);
	KUNIT_EXPECT_EQ(test, ctx->mem.nslabs, nslabs);
#ifdef CONFIG_SWIOTLB_DYNAMIC
	flush_work(&ctx->mem.dyn_alloc);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->grow_requests), 0);
	KUNIT_EXPECT_TRUE(test, list_empty(&ctx->dev.dma_io_tlb_pools));
	KUNIT_EXPECT_TRUE(test, list_is_singular(&ctx->mem.pools));
#endif

	/* Once a slot is free again, maps work as before. */
	ctx->nfill--;
	test_unmap(ctx, ctx->fill[ctx->nfill], ctx->fill_size[ctx->nfill],
		   DMA_TO_DEVICE);
	tlb = test_map(ctx, ctx->orig, SZ_4K, 0, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	KUNIT_EXPECT_EQ(test, test_kind_of(ctx, tlb), KIND_DEFAULT);
	test_fill_add(test, ctx, tlb, SZ_4K);
	test_ctx_destroy(test, ctx);
}

/* 8. dma_uses_io_tlb is false until the device maps its first buffer. */
static void swiotlb_test_uses_io_tlb(struct kunit *test)
{
#ifdef CONFIG_SWIOTLB_DYNAMIC
	struct swiotlb_test_ctx *ctx;
	struct io_tlb_pool *pool;
	phys_addr_t tlb;

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, false, NULL);
	pool = &ctx->mem.defpool;
	KUNIT_EXPECT_FALSE(test, ctx->dev.dma_uses_io_tlb);
	KUNIT_EXPECT_FALSE(test, test_is_swiotlb_buffer(&ctx->dev,
							pool->start));
	KUNIT_EXPECT_FALSE(test, test_is_swiotlb_buffer(&ctx->dev,
							pool->end - 1));
	KUNIT_EXPECT_FALSE(test, test_is_swiotlb_buffer(&ctx->dev, ctx->orig));

	tlb = test_map(ctx, ctx->orig, SZ_4K, 0, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	test_fill_add(test, ctx, tlb, SZ_4K);
	KUNIT_EXPECT_TRUE(test, ctx->dev.dma_uses_io_tlb);
	KUNIT_EXPECT_TRUE(test, test_is_swiotlb_buffer(&ctx->dev, tlb));
	KUNIT_EXPECT_FALSE(test, test_is_swiotlb_buffer(&ctx->dev, ctx->orig));
	test_ctx_destroy(test, ctx);
#else
	kunit_skip(test, "needs CONFIG_SWIOTLB_DYNAMIC");
#endif
}
