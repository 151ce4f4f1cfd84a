// SPDX-License-Identifier: GPL-2.0-only
/*
 * The helpers the cases share: the calls that 6.1 with the series and
 * Debian's 6.12 spell differently, and the private allocator with a fake
 * device that each case maps on.  Included by swiotlb_dynamic_kunit.c
 * after swiotlb_kunit_seams.c, not built on its own.
 */

/*
 * What 6.1 with the series and Debian's 6.12 (SWIOTLB_KUNIT_MAINLINE, see
 * tests/kunit/features.txt) spell differently, so that the cases call
 * one name with the same meaning on both.
 */
#ifdef SWIOTLB_KUNIT_MAINLINE
#define TEST_ON_MAINLINE	true
#else
#define TEST_ON_MAINLINE	false
#endif

/*
 * swiotlb.kunit_unskip=1 on the command line runs on 6.12 the cases that
 * test_skip_on_mainline() would skip: scripts/kunit/test-regressions.sh
 * boots each of them alone so, to see whether 6.12 has the bug that the
 * fix of ours is for (some leave the system's swiotlb broken).
 */
static bool kunit_unskip;
module_param(kunit_unskip, bool, 0444);

/*
 * Skip a case of a fix of ours that 6.12 lacks, on 6.12 only and unless
 * kunit_unskip is set; @why names the patch and what 6.12 does instead.
 * On every cut of the series the case runs, and fails where the cut
 * lacks the fix; on 6.12 with our fixes for it (SWIOTLB_KUNIT_MAINLINE_FIXES,
 * patches/6.12/) it runs too.
 */
static void __maybe_unused test_skip_on_mainline(struct kunit *test,
						 const char *why)
{
#ifndef SWIOTLB_KUNIT_MAINLINE_FIXES
	if (TEST_ON_MAINLINE && !kunit_unskip)
		kunit_skip(test, "6.12 lacks %s", why);
#endif
}

/* Slots in use in @pool: 6.12 has mem_pool_used() only without debugfs. */
static unsigned long test_pool_used(struct io_tlb_pool *pool)
{
#if defined(SWIOTLB_KUNIT_USED_HIWATER) && defined(CONFIG_DEBUG_FS)
	unsigned long used = 0;
	unsigned int i;

	for (i = 0; i < pool->nareas; i++)
		used += READ_ONCE(pool->areas[i].used);
	return used;
#else
	return mem_pool_used(pool);
#endif
}

/* Whether @paddr is in a bounce buffer of @dev (6.12: no such helper). */
static bool __maybe_unused test_is_swiotlb_buffer(struct device *dev,
						  phys_addr_t paddr)
{
#ifdef SWIOTLB_KUNIT_POOL_LAST
	return swiotlb_find_pool(dev, paddr);
#else
	return is_swiotlb_buffer(dev, paddr);
#endif
}

/*
 * swiotlb_tbl_map_single() of @size bytes; 6.1 takes the size twice
 * (mapping and allocation), 6.12 once.
 */
static phys_addr_t test_tbl_map(struct device *dev, phys_addr_t orig,
				size_t size, unsigned int align_mask,
				enum dma_data_direction dir,
				unsigned long attrs)
{
#ifdef SWIOTLB_KUNIT_MAP_PADDED
	return swiotlb_tbl_map_single(dev, orig, size, align_mask, dir, attrs);
#else
	return swiotlb_tbl_map_single(dev, orig, size, size, align_mask, dir,
				      attrs);
#endif
}

/*
 * The offset of the bounce buffer of @orig in its allocation, as this
 * swiotlb.c computes it: the bits of @dev's min_align_mask within a slot
 * (6.1), or all of them that @align_mask covers too, kept with padding
 * slots (6.12).
 */
static unsigned int __maybe_unused test_align_offset(struct device *dev,
						     unsigned int align_mask,
						     phys_addr_t orig)
{
#ifdef SWIOTLB_KUNIT_MAP_PADDED
	return swiotlb_align_offset(dev, align_mask, orig);
#else
	return swiotlb_align_offset(dev, orig);
#endif
}

/*
 * Whether a transient pool for a map of @orig with @align_mask on @dev
 * has room for the alignment. Patch 0010 adds the slots that @dev's
 * min_align_mask may make the search skip. 6.12's transient pool has the
 * mapping's slots only (with its padding), from a page-aligned start:
 * where @orig has bits of the min_align_mask above a slot that
 * @align_mask does not cover, no slot of it matches, and the map fails.
 */
static bool __maybe_unused test_transient_fits(struct device *dev,
					       unsigned int align_mask,
					       phys_addr_t orig)
{
	if (!TEST_ON_MAINLINE)
		return true;
	return !(orig & dma_get_min_align_mask(dev) &
		 ~(phys_addr_t)(align_mask | (IO_TLB_SIZE - 1)));
}

/* swiotlb_init_io_tlb_pool() on memory of the linear map at @start */
static void test_init_pool(struct io_tlb_pool *pool, phys_addr_t start,
			   unsigned long nslabs, bool late_alloc,
			   unsigned int nareas)
{
#ifdef SWIOTLB_KUNIT_POOL_VADDR
	swiotlb_init_io_tlb_pool(pool, start, phys_to_virt(start), nslabs,
				 late_alloc, nareas);
#else
	swiotlb_init_io_tlb_pool(pool, start, nslabs, late_alloc, nareas);
#endif
}

#ifdef CONFIG_SWIOTLB_DYNAMIC
/* swiotlb_alloc_tlb(): 6.12 returns the CPU address through a pointer */
static struct page *test_alloc_tlb(struct device *dev, size_t bytes,
				   u64 phys_limit, gfp_t gfp)
{
#ifdef SWIOTLB_KUNIT_POOL_VADDR
	void *vaddr;

	return swiotlb_alloc_tlb(dev, bytes, phys_limit, gfp, &vaddr);
#else
	return swiotlb_alloc_tlb(dev, bytes, phys_limit, gfp);
#endif
}

/* The search of one area of one pool: mainline's name for it */
static int test_area_find_slots(struct device *dev, struct io_tlb_pool *pool,
				int area_index, phys_addr_t orig_addr,
				size_t alloc_size,
				unsigned int alloc_align_mask)
{
#ifdef SWIOTLB_KUNIT_MAINLINE
	return swiotlb_search_pool_area(dev, pool, area_index, orig_addr,
					alloc_size, alloc_align_mask);
#else
	return swiotlb_area_find_slots(dev, pool, area_index, orig_addr,
				       alloc_size, alloc_align_mask);
#endif
}
#endif /* CONFIG_SWIOTLB_DYNAMIC */

#ifdef SWIOTLB_KUNIT_POOL_OPS
/* Patch 0020's functions that take the pool, or 6.12's (pool last) */
static void test_pool_unmap(struct device *dev, struct io_tlb_pool *pool,
			    phys_addr_t tlb, size_t size,
			    enum dma_data_direction dir, unsigned long attrs)
{
#ifdef SWIOTLB_KUNIT_POOL_LAST
	__swiotlb_tbl_unmap_single(dev, tlb, size, dir, attrs, pool);
#else
	swiotlb_pool_unmap_single(dev, pool, tlb, size, dir, attrs);
#endif
}

static void test_pool_sync_for_device(struct device *dev,
				      struct io_tlb_pool *pool,
				      phys_addr_t tlb, size_t size,
				      enum dma_data_direction dir)
{
#ifdef SWIOTLB_KUNIT_POOL_LAST
	__swiotlb_sync_single_for_device(dev, tlb, size, dir, pool);
#else
	swiotlb_pool_sync_for_device(dev, pool, tlb, size, dir);
#endif
}

static void test_pool_sync_for_cpu(struct device *dev,
				   struct io_tlb_pool *pool, phys_addr_t tlb,
				   size_t size, enum dma_data_direction dir)
{
#ifdef SWIOTLB_KUNIT_POOL_LAST
	__swiotlb_sync_single_for_cpu(dev, tlb, size, dir, pool);
#else
	swiotlb_pool_sync_for_cpu(dev, pool, tlb, size, dir);
#endif
}
#endif /* SWIOTLB_KUNIT_POOL_OPS */

enum test_pool_kind {
	KIND_NONE,
	KIND_DEFAULT,
	KIND_DYNAMIC,
	KIND_TRANSIENT,
};

static const char * const kind_name[] = {
	[KIND_NONE] = "none",
	[KIND_DEFAULT] = "default",
	[KIND_DYNAMIC] = "dynamic",
	[KIND_TRANSIENT] = "transient",
};

/**
 * struct swiotlb_test_ctx - a private allocator and a fake device using it
 * @mem:	Private software IO TLB allocator.
 * @dev:	Fake device whose dma_io_tlb_mem is @mem.
 * @parms:	DMA parameters of @dev (min_align_mask, segment boundary).
 * @dma_mask:	DMA mask of @dev.
 * @tlb_page:	Bounce buffer memory of the default pool of @mem.
 * @orig_page:	Original buffer, one segment (256 KiB) large.
 * @orig:	Physical address of @orig_page.
 * @grow_requests: How many times the no-op grow worker ran.
 * @fill:	Mappings made to fill pools, unmapped at the end.
 * @fill_size:	Mapping size of each entry in @fill.
 * @nfill:	Number of entries in @fill.
 */
struct swiotlb_test_ctx {
	struct io_tlb_mem mem;
	struct device dev;
	struct device_dma_parameters parms;
	u64 dma_mask;
	struct page *tlb_page;
	struct page *orig_page;
	phys_addr_t orig;
	atomic_t grow_requests;
	phys_addr_t fill[TEST_MAX_FILL];
	size_t fill_size[TEST_MAX_FILL];
	unsigned int nfill;
};

#ifdef CONFIG_SWIOTLB_DYNAMIC
static void test_count_grow(struct work_struct *work)
{
	struct swiotlb_test_ctx *ctx =
		container_of(work, struct swiotlb_test_ctx, mem.dyn_alloc);

	atomic_inc(&ctx->grow_requests);
}
#endif

static void test_dev_init(struct device *dev,
			  struct device_dma_parameters *parms, u64 *mask,
			  struct io_tlb_mem *mem)
{
	dev->init_name = "swiotlb-kunit";
	swiotlb_dev_init(dev);
	dev->dma_io_tlb_mem = mem;
	dev->dma_parms = parms;
	*mask = DMA_BIT_MASK(64);
	dev->dma_mask = mask;
	dev->coherent_dma_mask = *mask;
}

/*
 * Set up a private allocator with a default pool of @nslabs slots in one
 * area, below 4 GiB like the system's default pool. @worker is the grow
 * work function (NULL: count requests only, never grow).
 */
static struct swiotlb_test_ctx *test_ctx_create(struct kunit *test,
		unsigned long nslabs, bool can_grow, work_func_t worker)
{
	struct swiotlb_test_ctx *ctx;
	struct io_tlb_pool *pool;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	pool = &ctx->mem.defpool;
	pool->areas = kunit_kzalloc(test, sizeof(*pool->areas), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pool->areas);
	pool->slots = kunit_kzalloc(test, array_size(sizeof(*pool->slots),
						     nslabs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pool->slots);
	ctx->tlb_page = alloc_pages(GFP_KERNEL | __GFP_DMA32,
				    get_order(nslabs << IO_TLB_SHIFT));
	KUNIT_ASSERT_NOT_NULL(test, ctx->tlb_page);
	ctx->orig_page = alloc_pages(GFP_KERNEL, TEST_ORIG_ORDER);
	KUNIT_ASSERT_NOT_NULL(test, ctx->orig_page);
	ctx->orig = page_to_phys(ctx->orig_page);

	test_init_pool(pool, page_to_phys(ctx->tlb_page), nslabs, true, 1);
	ctx->mem.force_bounce = true;
#ifdef CONFIG_SWIOTLB_DYNAMIC
	spin_lock_init(&ctx->mem.lock);
	INIT_LIST_HEAD(&ctx->mem.pools);
	INIT_WORK(&ctx->mem.dyn_alloc, worker ? worker : test_count_grow);
	ctx->mem.can_grow = can_grow;
	ctx->mem.phys_limit = default_swiotlb_limit();
#endif
	add_mem_pool(&ctx->mem, pool);
	test_dev_init(&ctx->dev, &ctx->parms, &ctx->dma_mask, &ctx->mem);
	return ctx;
}

static phys_addr_t test_map(struct swiotlb_test_ctx *ctx, phys_addr_t orig,
			    size_t size, unsigned int align_mask,
			    enum dma_data_direction dir, unsigned long attrs)
{
	return test_tbl_map(&ctx->dev, orig, size, align_mask, dir, attrs);
}

static void test_unmap(struct swiotlb_test_ctx *ctx, phys_addr_t tlb,
		       size_t size, enum dma_data_direction dir)
{
	swiotlb_tbl_unmap_single(&ctx->dev, tlb, size, dir, 0);
}

static struct io_tlb_pool *test_pool_of(struct swiotlb_test_ctx *ctx,
					phys_addr_t tlb)
{
#ifdef CONFIG_SWIOTLB_DYNAMIC
	return swiotlb_find_pool(&ctx->dev, tlb);
#else
	struct io_tlb_pool *pool = &ctx->mem.defpool;

	return tlb >= pool->start && tlb < pool->end ? pool : NULL;
#endif
}

#ifdef CONFIG_SWIOTLB_DYNAMIC
/*
 * The pool that was added last: at the tail of @mem->pools with patch
 * 0032 (the slot search tries the oldest pools first), at the head before.
 */
static struct io_tlb_pool *test_newest_pool(struct io_tlb_mem *mem)
{
#ifdef SWIOTLB_KUNIT_OLDEST_FIRST
	return list_last_entry(&mem->pools, struct io_tlb_pool, node);
#else
	return list_first_entry(&mem->pools, struct io_tlb_pool, node);
#endif
}
#endif

static enum test_pool_kind test_kind_of(struct swiotlb_test_ctx *ctx,
					phys_addr_t tlb)
{
	struct io_tlb_pool *pool = test_pool_of(ctx, tlb);

	if (!pool)
		return KIND_NONE;
	if (pool == &ctx->mem.defpool)
		return KIND_DEFAULT;
#ifdef CONFIG_SWIOTLB_DYNAMIC
	if (pool->transient)
		return KIND_TRANSIENT;
#endif
	return KIND_DYNAMIC;
}

/* The area of @pool that holds the bounce buffer at @tlb. */
static unsigned int __maybe_unused test_area_of(struct io_tlb_pool *pool,
						 phys_addr_t tlb)
{
	return ((tlb - pool->start) >> IO_TLB_SHIFT) / pool->area_nslabs;
}

static void *test_tlb_vaddr(struct swiotlb_test_ctx *ctx, phys_addr_t tlb)
{
	struct io_tlb_pool *pool = test_pool_of(ctx, tlb);

	return pool->vaddr + (tlb - pool->start);
}

static void test_fill_add(struct kunit *test, struct swiotlb_test_ctx *ctx,
			  phys_addr_t tlb, size_t size)
{
	KUNIT_ASSERT_LT(test, ctx->nfill, (unsigned int)TEST_MAX_FILL);
	ctx->fill[ctx->nfill] = tlb;
	ctx->fill_size[ctx->nfill] = size;
	ctx->nfill++;
}

/*
 * Use up the default pool of @ctx with whole-segment mappings. This may
 * run in atomic context, so it only counts what went wrong; the caller
 * checks with test_fill_check() afterwards.
 */
static unsigned int test_fill_default_pool_atomic(struct swiotlb_test_ctx *ctx)
{
	unsigned long i, nsegs = ctx->mem.defpool.nslabs / IO_TLB_SEGSIZE;
	unsigned int bad = 0;
	phys_addr_t tlb;

	for (i = 0; i < nsegs && ctx->nfill < TEST_MAX_FILL; i++) {
		tlb = test_map(ctx, ctx->orig, TEST_SEG_BYTES, 0,
			       DMA_TO_DEVICE, DMA_ATTR_NO_WARN);
		if (tlb == TEST_MAP_ERROR) {
			bad++;
			continue;
		}
		if (test_kind_of(ctx, tlb) != KIND_DEFAULT)
			bad++;
		ctx->fill[ctx->nfill] = tlb;
		ctx->fill_size[ctx->nfill] = TEST_SEG_BYTES;
		ctx->nfill++;
	}
	return bad + (nsegs - i);
}

static void test_fill_check(struct kunit *test, struct swiotlb_test_ctx *ctx,
			    unsigned int bad)
{
	KUNIT_ASSERT_EQ_MSG(test, bad, 0U,
			    "filling the default pool failed or left it");
	KUNIT_ASSERT_EQ(test, test_pool_used(&ctx->mem.defpool),
			ctx->mem.defpool.nslabs);
}

static void test_fill_default_pool(struct kunit *test,
				   struct swiotlb_test_ctx *ctx)
{
	test_fill_check(test, ctx, test_fill_default_pool_atomic(ctx));
}

/*
 * Unmap everything, wait for transient pools to go, free grown pools and
 * (with patch 0035) wait until they are freed.
 */
static void test_ctx_destroy(struct kunit *test, struct swiotlb_test_ctx *ctx)
{
	unsigned int i;

	for (i = 0; i < ctx->nfill; i++)
		test_unmap(ctx, ctx->fill[i], ctx->fill_size[i],
			   DMA_TO_DEVICE);
	ctx->nfill = 0;
#ifdef CONFIG_SWIOTLB_DYNAMIC
	{
		struct io_tlb_pool *pool, *tmp;
		unsigned long flags;
		int rc = 0;

		cancel_work_sync(&ctx->mem.dyn_alloc);
		rcu_barrier();
		KUNIT_EXPECT_TRUE_MSG(test, list_empty(&ctx->dev.dma_io_tlb_pools),
				      "transient pools left after unmap");
		list_for_each_entry_safe(pool, tmp, &ctx->mem.pools, node) {
			KUNIT_EXPECT_EQ(test, test_pool_used(pool), 0UL);
			if (pool == &ctx->mem.defpool)
				continue;
			spin_lock_irqsave(&ctx->mem.lock, flags);
#ifdef SWIOTLB_KUNIT_POOL_INDEX
			rc = test_swiotlb_index_update(&ctx->mem, NULL, pool,
						       GFP_ATOMIC);
#endif
			list_del_rcu(&pool->node);
			ctx->mem.nslabs -= pool->nslabs;
			spin_unlock_irqrestore(&ctx->mem.lock, flags);
			KUNIT_EXPECT_EQ(test, rc, 0);
			synchronize_rcu();
			swiotlb_dyn_free(&pool->rcu);
		}
#ifdef SWIOTLB_KUNIT_FREE_WQ
		/*
		 * swiotlb_dyn_free() only queues the free of a pool. Wait
		 * for it: a free that lands in the next case counts among
		 * the pools that case waits for (test_wait_freed() before
		 * test_mem_enc_watch()), and holds pages that it may want.
		 */
		flush_workqueue(swiotlb_free_wq);
#endif
#ifdef SWIOTLB_KUNIT_POOL_INDEX
		KUNIT_EXPECT_NULL_MSG(test, rcu_access_pointer(ctx->mem.index),
				      "the index outlived the dynamic pools");
#endif
	}
#endif
	KUNIT_EXPECT_EQ(test, test_pool_used(&ctx->mem.defpool), 0UL);
	__free_pages(ctx->tlb_page,
		     get_order(ctx->mem.defpool.nslabs << IO_TLB_SHIFT));
	__free_pages(ctx->orig_page, TEST_ORIG_ORDER);
}

static void test_fill_random(void *buf, size_t len)
{
	get_random_bytes(buf, len);
}
