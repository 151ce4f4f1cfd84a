// SPDX-License-Identifier: GPL-2.0-only
/*
 * Bugs of v7 on platforms QEMU with swiotlb=force does not play (restricted
 * DMA pool, Hyper-V, Xen dom0, an IOMMU that makes the swiotlb exit) and
 * mainline fixes that 6.1.192 lacks. Included by swiotlb_dynamic_kunit.c,
 * not built on its own.
 */

#ifdef CONFIG_DMA_RESTRICTED_POOL
/*
 * Patch 0015: the first device attached to a restricted DMA pool (a
 * "restricted-dma-pool" reserved-memory node) sets up the pool's
 * allocator. With DYNAMIC=y, v7 links the pool on a list head it never
 * initialised, and oopses. x86 has no device tree to declare such a
 * pool, so this case hands rmem_swiotlb_device_init() a reserved_mem of
 * its own, as of_reserved_mem_device_init() would.
 */
static void swiotlb_test_restricted_pool(struct kunit *test)
{
	struct reserved_mem rmem = { .name = "swiotlb-kunit-restricted" };
	struct device_dma_parameters *parms;
	struct io_tlb_pool *pool;
	struct page *page, *orig;
	struct io_tlb_mem *mem;
	struct device *dev;
	phys_addr_t tlb;
	u64 *mask;

	dev = kunit_kzalloc(test, sizeof(*dev), GFP_KERNEL);
	parms = kunit_kzalloc(test, sizeof(*parms), GFP_KERNEL);
	mask = kunit_kzalloc(test, sizeof(*mask), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, dev && parms && mask);
	page = alloc_pages(GFP_KERNEL, get_order(SZ_1M));
	KUNIT_ASSERT_NOT_NULL(test, page);
	orig = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, orig);
	rmem.base = page_to_phys(page);
	rmem.size = SZ_1M;
	test_dev_init(dev, parms, mask, &io_tlb_default_mem);

	KUNIT_ASSERT_EQ(test, rmem_swiotlb_device_init(&rmem, dev), 0);
	mem = rmem.priv;
	KUNIT_ASSERT_NOT_NULL(test, mem);
	KUNIT_EXPECT_PTR_EQ(test, dev->dma_io_tlb_mem, mem);
	KUNIT_EXPECT_EQ(test, mem->nslabs, (unsigned long)(SZ_1M >> IO_TLB_SHIFT));
	KUNIT_EXPECT_TRUE(test, mem->force_bounce && mem->for_alloc);
#ifdef CONFIG_SWIOTLB_DYNAMIC
	KUNIT_EXPECT_TRUE(test, list_is_singular(&mem->pools));
	KUNIT_EXPECT_FALSE(test, mem->can_grow);
#endif

	tlb = test_tbl_map(dev, page_to_phys(orig), SZ_4K, 0, DMA_TO_DEVICE, 0);
	KUNIT_EXPECT_NE(test, tlb, TEST_MAP_ERROR);
	if (tlb != TEST_MAP_ERROR) {
		KUNIT_EXPECT_GE(test, tlb, rmem.base);
		KUNIT_EXPECT_LE(test, tlb + SZ_4K, rmem.base + rmem.size);
		KUNIT_EXPECT_TRUE(test, test_is_swiotlb_buffer(dev, tlb));
		swiotlb_tbl_unmap_single(dev, tlb, SZ_4K, DMA_TO_DEVICE, 0);
	}
	rmem_swiotlb_device_release(&rmem, dev);
	KUNIT_EXPECT_PTR_EQ(test, dev->dma_io_tlb_mem, &io_tlb_default_mem);

	pool = &mem->defpool;
	KUNIT_EXPECT_EQ(test, test_pool_used(pool), 0UL);
#ifdef CONFIG_DEBUG_FS
	debugfs_remove_recursive(mem->debugfs);
#endif
	kfree(pool->areas);
	kfree(pool->slots);
	kfree(mem);
	__free_page(orig);
	__free_pages(page, get_order(SZ_1M));
}
#endif /* CONFIG_DMA_RESTRICTED_POOL */

/*
 * Platform fixes. Each case plays a platform whose code paths QEMU with
 * swiotlb=force never runs.
 */
#ifdef CONFIG_SWIOTLB_DYNAMIC
/*
 * Hyper-V isolation VM (swiotlb_unencrypted_base set): a pool that the
 * grow worker adds is reached through a mapping above the shared GPA
 * boundary, as the default pool is, and that mapping goes when the pool
 * is freed. v7 leaves the pool's vaddr NULL.
 */
static void swiotlb_test_unencrypted_grow(struct kunit *test)
{
	struct swiotlb_test_ctx *ctx;
	struct io_tlb_pool *pool;
	void *orig;
	phys_addr_t tlb;
	int i;

	test_skip_without_unencrypted_base(test);
	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, true, swiotlb_dyn_alloc);
	test_fill_default_pool(test, ctx);
	test_gpa_start();
	/* what a full swiotlb does; a map here would also try a transient pool */
	schedule_work(&ctx->mem.dyn_alloc);
	flush_work(&ctx->mem.dyn_alloc);
	pool = test_newest_pool(&ctx->mem);
	KUNIT_ASSERT_PTR_NE_MSG(test, pool, &ctx->mem.defpool,
				"the grow worker added no pool");
	KUNIT_ASSERT_NOT_NULL_MSG(test, pool->vaddr,
				  "a grown pool has no CPU address");
	KUNIT_EXPECT_EQ(test, atomic_read(&test_gpa.maps), 1);
	KUNIT_EXPECT_EQ(test, test_gpa.last_offset,
			pool->start + TEST_SHARED_GPA_BOUNDARY);
	KUNIT_EXPECT_PTR_EQ(test, pool->vaddr, test_gpa.last_vaddr);

	/* A bounce into the new pool lands in its pages. */
	orig = page_address(ctx->orig_page);
	test_fill_random(orig, SZ_4K);
	tlb = test_map(ctx, ctx->orig, SZ_4K, 0, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	test_fill_add(test, ctx, tlb, SZ_4K);
	KUNIT_EXPECT_PTR_EQ(test, test_pool_of(ctx, tlb), pool);
	KUNIT_EXPECT_EQ(test, memcmp(phys_to_virt(tlb), orig, SZ_4K), 0);

	/* Freeing the pool (in a work item) removes the mapping. */
	test_ctx_destroy(test, ctx);
	for (i = 0; i < 500 && !atomic_read(&test_gpa.unmaps); i++)
		usleep_range(10000, 11000);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&test_gpa.unmaps), 1,
			    "memunmap() of the grown pool's mapping");
	test_gpa_stop();
}

/*
 * Hyper-V isolation VM: a full swiotlb in atomic context cannot remap a
 * transient pool, so the mapping fails, as without dynamic SWIOTLB, and
 * the grow worker is asked for a pool. v7 makes a transient pool with a
 * NULL vaddr. The case calls swiotlb_find_slots(), which does not bounce,
 * so that v7 fails here instead of writing near address 0.
 */
static void swiotlb_test_unencrypted_transient(struct kunit *test)
{
	static DEFINE_SPINLOCK(test_lock);
	struct swiotlb_test_ctx *ctx;
	struct io_tlb_pool *pool = NULL;
	unsigned long flags;
	unsigned int bad;
	int index;

	test_skip_without_unencrypted_base(test);
	ctx = test_ctx_create(test, 2 * IO_TLB_SEGSIZE, true, NULL);
	test_gpa_start();
	spin_lock_irqsave(&test_lock, flags);
	bad = test_fill_default_pool_atomic(ctx);
	index = swiotlb_find_slots(&ctx->dev, ctx->orig, SZ_4K, 0, &pool);
	spin_unlock_irqrestore(&test_lock, flags);
	test_fill_check(test, ctx, bad);
	KUNIT_ASSERT_LT_MSG(test, index, 0,
			    "a transient pool (vaddr %p) was made in atomic context",
			    pool ? pool->vaddr : NULL);
	KUNIT_EXPECT_TRUE(test, list_empty(&ctx->dev.dma_io_tlb_pools));
	KUNIT_EXPECT_EQ(test, atomic_read(&test_gpa.maps), 0);
	flush_work(&ctx->mem.dyn_alloc);
	KUNIT_EXPECT_GE(test, atomic_read(&ctx->grow_requests), 1);
	test_gpa_stop();
	test_ctx_destroy(test, ctx);
}
#endif /* CONFIG_SWIOTLB_DYNAMIC */

/*
 * Xen PV dom0: the default SWIOTLB cannot grow (a remap callback), and
 * its physical limit may be the top of memory (SWIOTLB_ANY). Then
 * default_swiotlb_limit(), which swiotlb-xen compares with a device's DMA
 * mask, must be the end of the default pool, as in 6.1. v7 returns the
 * physical limit, so 32-bit devices fail dma_set_mask() in dom0.
 */
static void swiotlb_test_limit_not_growable(struct kunit *test)
{
	struct io_tlb_mem *mem = &io_tlb_default_mem;
	phys_addr_t end = mem->defpool.end - 1;
#ifdef CONFIG_SWIOTLB_DYNAMIC
	bool can_grow = mem->can_grow;
	u64 phys_limit = mem->phys_limit;

	mem->phys_limit = virt_to_phys(high_memory - 1);
	mem->can_grow = false;
	KUNIT_EXPECT_EQ_MSG(test, default_swiotlb_limit(), end,
			    "limit of a default SWIOTLB that cannot grow");
	mem->can_grow = true;
	KUNIT_EXPECT_EQ_MSG(test, default_swiotlb_limit(), mem->phys_limit,
			    "limit of a default SWIOTLB that can grow");
	mem->can_grow = can_grow;
	mem->phys_limit = phys_limit;
#else
	KUNIT_EXPECT_EQ(test, default_swiotlb_limit(), end);
#endif
	/* In this VM the default pool is below 4 GiB, as in dom0. */
	KUNIT_EXPECT_LE(test, end, (phys_addr_t)DMA_BIT_MASK(32));
}

/*
 * Mainline fixes that 6.1.192 lacks, in code the series keeps or makes
 * busier (patches/PORTING.md lists each, taken or not, and why). The
 * first four cases fail without their fix; the last two show that this
 * tree is not affected by the bug they look for.
 */

/*
 * A partial sync for the CPU that starts in the first bytes of the second
 * or a later slot of a mapping, on a device with a min_align_mask (NVMe),
 * copies the bytes it was asked for. Each slot records the original
 * address of its byte at the alignment offset, so such a start lies
 * before it. 6.1 took that for an access before the mapping, warned and
 * copied nothing (mainline e8068f2d756d).
 */
static void swiotlb_test_partial_sync(struct kunit *test)
{
	const unsigned int offset = 0x300;
	const size_t size = SZ_8K - offset;
	struct swiotlb_test_ctx *ctx;
	unsigned int slot, j;
	u8 *orig, *bounce;
	size_t start;
	phys_addr_t tlb;

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, false, NULL);
	dma_set_min_align_mask(&ctx->dev, SZ_4K - 1);
	orig = phys_to_virt(ctx->orig + offset);
	memset(orig, 0, size);
	tlb = test_map(ctx, ctx->orig + offset, size, 0, DMA_FROM_DEVICE, 0);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	KUNIT_EXPECT_EQ(test, tlb & (SZ_4K - 1), (phys_addr_t)offset);

	/* what the device wrote */
	bounce = test_tlb_vaddr(ctx, tlb);
	for (j = 0; j < size; j++)
		bounce[j] = (u8)(j * 7 + 1);

	for (slot = 1; slot < 4; slot++) {
		/* the buffer's bytes at the start of this slot, and after */
		start = slot * IO_TLB_SIZE - offset;
		swiotlb_sync_single_for_cpu(&ctx->dev, tlb + start, 64,
					    DMA_FROM_DEVICE);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(orig + start, bounce + start,
						 64), 0,
				    "slot %u: the synced bytes were not copied",
				    slot);
		KUNIT_EXPECT_EQ_MSG(test, orig[start + 64], 0,
				    "slot %u: a byte past the sync was copied",
				    slot);
	}
	test_unmap(ctx, tlb, size, DMA_FROM_DEVICE);
	KUNIT_EXPECT_EQ(test, memcmp(orig, bounce, size), 0);
	dma_set_min_align_mask(&ctx->dev, 0);
	test_ctx_destroy(test, ctx);
}

/*
 * Every area of the system's default pool holds at least one segment,
 * and the areas together hold the pool. When the boot-time allocation
 * fails and the pool is halved until it fits, the number of areas must
 * be cut to fit the smaller pool too. 6.1 cut it but built the pool with
 * the uncut number, so a pool of fewer slots than areas times a segment
 * had areas too small for the largest mapping (mainline a6a241764f69).
 * A normal boot has nothing to cut, and the case says it skipped: `make
 * test-regressions` boots it with a swiotlb= size and area count that
 * 2 GiB cannot hold.
 */
static void swiotlb_test_default_pool_areas(struct kunit *test)
{
	struct io_tlb_pool *pool = &io_tlb_default_mem.defpool;

	KUNIT_ASSERT_NE(test, pool->nslabs, 0UL);
	if ((unsigned long)default_nareas * IO_TLB_SEGSIZE <= pool->nslabs)
		kunit_skip(test, "%lu areas fit the default pool of %lu slots: nothing to cut (boot with swiotlb=1048576,8192 in 2 GiB, as test-regressions does)",
			   default_nareas, pool->nslabs);
	kunit_info(test, "default pool: %lu slots, %u areas of %u\n",
		   pool->nslabs, pool->nareas, pool->area_nslabs);
	KUNIT_EXPECT_GE(test, pool->area_nslabs, (unsigned int)IO_TLB_SEGSIZE);
	KUNIT_EXPECT_EQ(test, (unsigned long)pool->nareas * pool->area_nslabs,
			pool->nslabs);
}

#ifdef CONFIG_DMA_RESTRICTED_POOL
/*
 * swiotlb_alloc() (dma_alloc_coherent() from a restricted DMA pool)
 * aligns a buffer to the smallest page order that holds it, as the DMA
 * API promises (Documentation/core-api/dma-api-howto.rst). 6.1 aligned
 * it to a page only (mainline cbf53074a528). The pool here is a private
 * allocator of the test, which swiotlb_alloc() serves as it would serve
 * a restricted pool; no two buffers may share a slot.
 */
static void swiotlb_test_alloc_order_aligned(struct kunit *test)
{
	static const size_t sizes[] = { SZ_4K, SZ_16K, SZ_8K, SZ_64K, SZ_4K,
					SZ_32K };
	struct page *pages[ARRAY_SIZE(sizes)];
	struct swiotlb_test_ctx *ctx;
	phys_addr_t start, other;
	unsigned int i, j;

	ctx = test_ctx_create(test, 2 * IO_TLB_SEGSIZE, false, NULL);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		pages[i] = swiotlb_alloc(&ctx->dev, sizes[i]);
		KUNIT_ASSERT_NOT_NULL_MSG(test, pages[i], "size %zu", sizes[i]);
		start = page_to_phys(pages[i]);
		KUNIT_EXPECT_GE(test, start, ctx->mem.defpool.start);
		KUNIT_EXPECT_LE(test, start + sizes[i], ctx->mem.defpool.end);
		KUNIT_EXPECT_EQ_MSG(test,
			(start - ctx->mem.defpool.start) & (sizes[i] - 1),
			(phys_addr_t)0, "size %zu at %pa", sizes[i], &start);
		for (j = 0; j < i; j++) {
			other = page_to_phys(pages[j]);
			KUNIT_EXPECT_TRUE_MSG(test,
				start + sizes[i] <= other ||
				other + sizes[j] <= start,
				"buffers %u and %u overlap", i, j);
		}
	}
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		KUNIT_EXPECT_TRUE(test, swiotlb_free(&ctx->dev, pages[i],
						     sizes[i]));
	test_ctx_destroy(test, ctx);
}

/*
 * A pool whose start is not page-aligned (a reserved-memory region that
 * is not) cannot give out pages: rounding a slot's address down to its
 * page would hand out memory before the slot, outside the pool or in
 * another buffer. swiotlb_alloc() must fail instead (mainline
 * 823353b7cf0e).
 */
static void swiotlb_test_alloc_unaligned_pool(struct kunit *test)
{
	struct swiotlb_test_ctx *ctx;
	struct io_tlb_pool *pool;
	struct page *page;
	phys_addr_t start;

	ctx = test_ctx_create(test, 2 * IO_TLB_SEGSIZE, false, NULL);
	pool = &ctx->mem.defpool;
	/* the same memory, one slot in: IO_TLB_SEGSIZE slots */
	test_init_pool(pool, page_to_phys(ctx->tlb_page) + IO_TLB_SIZE,
		       IO_TLB_SEGSIZE, true, 1);
	ctx->mem.nslabs = pool->nslabs;

	page = swiotlb_alloc(&ctx->dev, SZ_4K);
	if (page) {
		start = page_to_phys(page);
		KUNIT_EXPECT_GE_MSG(test, start, pool->start,
				    "got a page that starts before the pool");
		swiotlb_free(&ctx->dev, page, SZ_4K);
	}
	KUNIT_EXPECT_EQ(test, test_pool_used(pool), 0UL);
	/* back to the pool test_ctx_destroy() frees */
	test_init_pool(pool, page_to_phys(ctx->tlb_page), 2 * IO_TLB_SEGSIZE,
		       true, 1);
	ctx->mem.nslabs = pool->nslabs;
	test_ctx_destroy(test, ctx);
}
#endif /* CONFIG_DMA_RESTRICTED_POOL */

/**
 * struct test_live_map - a bounce buffer of swiotlb_test_no_double_alloc
 * @tlb:	Its address.
 * @size:	Its mapping size.
 * @min_align:	The device's min_align_mask when it was mapped.
 * @first:	Address of its first slot.
 * @end:	End of its last slot.
 */
struct test_live_map {
	phys_addr_t tlb;
	size_t size;
	unsigned int min_align;
	phys_addr_t first;
	phys_addr_t end;
};

#define TEST_LIVE_MAPS	24

/*
 * Random mappings and unmappings with every mix of min_align_mask and
 * alloc_align_mask: no two live bounce buffers may share a slot (the
 * double allocation that mainline 04867a7a3332, CVE-2024-35814, mends;
 * 6.1 never took the commits that caused it), a buffer of a page or more
 * on a device without alignment needs is page-aligned (mainline
 * 14cebf689a78), and when all is unmapped every slot is free again.
 * 6.1.192 has the stable backport of 51b30ecb73b4, the alignment checks
 * with both masks; this case shows that the series kept it. The seed is
 * fixed: a failure repeats.
 */
static void swiotlb_test_no_double_alloc(struct kunit *test)
{
	static const unsigned int offsets[] = { 0, 0x200, 0x800, 0xe00 };
	static const size_t sizes[] = { 512, SZ_2K, SZ_4K, 4608, SZ_8K,
					SZ_16K };
	struct test_live_map live[TEST_LIVE_MAPS], *m;
	unsigned int i, j, n = 0, align, mapped = 0;
	struct swiotlb_test_ctx *ctx;
	struct io_tlb_pool *pool;
	struct rnd_state rnd;
	phys_addr_t orig;
	size_t size;

	prandom_seed_state(&rnd, 20240308);
	ctx = test_ctx_create(test, 2 * IO_TLB_SEGSIZE, false, NULL);
	pool = &ctx->mem.defpool;
	for (i = 0; i < 2000; i++) {
		if (n == TEST_LIVE_MAPS ||
		    (n && prandom_u32_state(&rnd) % 3 == 0)) {
			j = prandom_u32_state(&rnd) % n;
			dma_set_min_align_mask(&ctx->dev, live[j].min_align);
			test_unmap(ctx, live[j].tlb, live[j].size,
				   DMA_TO_DEVICE);
			live[j] = live[--n];
			continue;
		}
		m = &live[n];
		m->min_align = prandom_u32_state(&rnd) % 2 ? SZ_4K - 1 : 0;
		align = prandom_u32_state(&rnd) % 2 ? SZ_4K - 1 : 0;
		orig = ctx->orig + offsets[prandom_u32_state(&rnd) %
					   ARRAY_SIZE(offsets)];
		size = sizes[prandom_u32_state(&rnd) % ARRAY_SIZE(sizes)];
		dma_set_min_align_mask(&ctx->dev, m->min_align);
		m->tlb = test_map(ctx, orig, size, align, DMA_TO_DEVICE,
				  DMA_ATTR_NO_WARN);
		if (m->tlb == TEST_MAP_ERROR)
			continue;
		mapped++;
		m->size = size;
		m->first = m->tlb & ~(phys_addr_t)(IO_TLB_SIZE - 1);
		m->end = m->first + (nr_slots(m->tlb - m->first + size) <<
				     IO_TLB_SHIFT);
		KUNIT_ASSERT_GE(test, m->first, pool->start);
		KUNIT_ASSERT_LE(test, m->end, pool->end);
		if (!m->min_align && size >= PAGE_SIZE)
			KUNIT_EXPECT_EQ_MSG(test, m->tlb & ~PAGE_MASK,
					    (phys_addr_t)0,
					    "size %zu align %#x not page-aligned",
					    size, align);
		for (j = 0; j < n; j++)
			KUNIT_ASSERT_TRUE_MSG(test, m->end <= live[j].first ||
					      live[j].end <= m->first,
					      "map %u (size %zu) shares a slot with a live buffer",
					      i, size);
		n++;
	}
	while (n--) {
		dma_set_min_align_mask(&ctx->dev, live[n].min_align);
		test_unmap(ctx, live[n].tlb, live[n].size, DMA_TO_DEVICE);
	}
	dma_set_min_align_mask(&ctx->dev, 0);
	kunit_info(test, "%u mappings\n", mapped);
	KUNIT_EXPECT_GT(test, mapped, 500U);
	KUNIT_EXPECT_EQ(test, test_pool_used(pool), 0UL);
	for (i = 0; i < pool->nslabs; i++)
		KUNIT_ASSERT_EQ_MSG(test, pool->slots[i].list,
				    IO_TLB_SEGSIZE - io_tlb_offset(i),
				    "slot %u is not free again", i);
	test_ctx_destroy(test, ctx);
}

/*
 * A machine whose IOMMU makes the SWIOTLB unnecessary (x86 with the AMD
 * GART, in 6.1 the one IOMMU driver that clears x86_swiotlb_enable):
 * pci_iommu_init() calls swiotlb_exit(). This case does the same to the
 * system's default SWIOTLB, as such a machine would (not forced), and
 * then runs what may come later: a mapping, the pool walks, and with the
 * shrinker its count and scan and the debugfs pool count. v7 clears the pool but leaves it
 * on the allocator's list and in its total, and the walks oops.
 *
 * swiotlb_exit() is __init, so the suite is an init-section suite
 * (built-in KUnit suites run before the init sections are freed). It
 * frees the system's default pool, so it is the last case.
 */
#ifdef CONFIG_SWIOTLB_DYNAMIC
/*
 * Count the entries of @head up to @node, which is not dereferenced: v7
 * leaves a cleared pool on the list, whose node leads nowhere. Return
 * whether @node was met.
 */
static bool test_list_reaches(struct list_head *head, struct list_head *node,
			      unsigned int *n)
{
	struct list_head *pos;

	for (*n = 0, pos = head->next; pos != head; pos = pos->next, (*n)++) {
		if (pos == node)
			return true;
	}
	return false;
}
#endif

static void __init swiotlb_test_exit_forgets_pool(struct kunit *test)
{
	struct io_tlb_mem *mem = &io_tlb_default_mem;
	unsigned long nslabs = mem->nslabs - mem->defpool.nslabs;
	struct device_dma_parameters parms = {};
	struct device dev = {};
	struct page *orig;
	phys_addr_t tlb;
	u64 mask;
#ifdef CONFIG_SWIOTLB_SHRINK
	struct shrink_control sc = {
		.gfp_mask = GFP_KERNEL,
		.nr_to_scan = ULONG_MAX,
	};
	unsigned long freed = mem->pools_freed;
	unsigned int delay = swiotlb_shrink_delay_ms;
#endif
#ifdef CONFIG_SWIOTLB_DYNAMIC
	unsigned int npools;
#endif

	/* before swiotlb_exit(): 6.12's would break the system's swiotlb */
	test_skip_on_mainline(test, "0022: swiotlb_exit() leaves the cleared default pool on the allocator's list, in its total, and growable");
	swiotlb_force_bounce = false;
	mem->force_bounce = false;
	swiotlb_exit();
	KUNIT_ASSERT_EQ_MSG(test, mem->defpool.nslabs, 0UL,
			    "swiotlb_exit() did not tear the pool down");
	KUNIT_EXPECT_EQ_MSG(test, mem->nslabs, nslabs,
			    "the allocator still counts the pool");
#ifdef CONFIG_SWIOTLB_DYNAMIC
	KUNIT_EXPECT_FALSE(test, mem->can_grow);
	/* Earlier cases grew the system's swiotlb: those pools stay. */
	KUNIT_ASSERT_FALSE_MSG(test, test_list_reaches(&mem->pools,
						       &mem->defpool.node,
						       &npools),
			       "the cleared pool is still on the list");
#endif
	KUNIT_EXPECT_EQ(test, mem_used(mem), 0UL);

	test_dev_init(&dev, &parms, &mask, mem);
	KUNIT_EXPECT_EQ(test, is_swiotlb_active(&dev), nslabs != 0);
	/*
	 * A mapping fails where nothing is left (this case booted alone);
	 * in a run of the whole suite the pools that earlier cases grew
	 * serve it.
	 */
	orig = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, orig);
	tlb = test_tbl_map(&dev, page_to_phys(orig), SZ_4K, 0, DMA_TO_DEVICE,
			   DMA_ATTR_NO_WARN);
	if (!mem->nslabs) {
		KUNIT_EXPECT_EQ(test, tlb, TEST_MAP_ERROR);
	} else {
		KUNIT_EXPECT_NE_MSG(test, tlb, TEST_MAP_ERROR,
				    "the %lu slots of the grown pools serve no mapping",
				    mem->nslabs);
#ifdef CONFIG_SWIOTLB_DYNAMIC
		if (tlb != TEST_MAP_ERROR) {
			KUNIT_EXPECT_PTR_NE(test, swiotlb_find_pool(&dev, tlb),
					    &mem->defpool);
			swiotlb_tbl_unmap_single(&dev, tlb, SZ_4K,
						 DMA_TO_DEVICE, 0);
		}
#endif
	}
	__free_page(orig);
#ifdef CONFIG_SWIOTLB_SHRINK
	/* The grown pools are not idle for an hour: nothing to free. */
	swiotlb_shrink_delay_ms = 3600 * MSEC_PER_SEC;
	KUNIT_EXPECT_EQ(test, swiotlb_shrinker_count(&swiotlb_shrinker, &sc),
			SHRINK_EMPTY);
	KUNIT_EXPECT_EQ(test, swiotlb_shrinker_scan(&swiotlb_shrinker, &sc),
			SHRINK_STOP);
	swiotlb_shrink_delay_ms = delay;
	KUNIT_EXPECT_EQ(test, mem->pools_freed, freed);
#ifdef CONFIG_DEBUG_FS
	{
		u64 listed = ~0ULL;

		io_tlb_pools_get(mem, &listed);
		KUNIT_EXPECT_EQ(test, listed, (u64)npools);
	}
#endif
#endif
}
