// SPDX-License-Identifier: GPL-2.0-only
/*
 * The helpers the cases share: the seams that record and inject what
 * swiotlb.c calls (encryption, memremap(), the release, allocations), the
 * calls that 6.1 with the series and Debian's 6.12 spell differently, and
 * the private allocator with a fake device that each case maps on.
 * Included by swiotlb_dynamic_kunit.c, not built on its own.
 */

/**
 * struct test_mem_enc - what the set_memory_{de,en}crypted() seam saw
 * @active:	Record calls (a test case sets it, and clears it again).
 * @fail_decrypt: Make set_memory_decrypted() fail with -EIO.
 * @limit:	Physical limit of the allocation under test.
 * @decrypted:	Calls of set_memory_decrypted().
 * @decrypted_high: Of those, calls for pages that end above @limit.
 * @encrypted:	Calls of set_memory_encrypted().
 * @encrypted_atomic: Of those, calls outside process context.
 * @last_decrypted: Address of the last decrypted range.
 * @last_encrypted: Address of the last range encrypted again.
 * @watch_start: With @watch_end, the one buffer whose encryption counts
 *		(test_mem_enc_watch()); 0: every buffer's.
 * @watch_end:	End of that buffer.
 *
 * See swiotlb_dynamic_kunit.h: swiotlb.c calls the two functions below
 * instead of the real ones, which they call in turn.
 */
static struct test_mem_enc {
	bool active;
	bool fail_decrypt;
	phys_addr_t limit;
	atomic_t decrypted;
	atomic_t decrypted_high;
	atomic_t encrypted;
	atomic_t encrypted_atomic;
	unsigned long last_decrypted;
	unsigned long last_encrypted;
	unsigned long watch_start;
	unsigned long watch_end;
} test_mem_enc;

/*
 * Count, from the next test_mem_enc_start() on, only the encryption of
 * @pool's buffer: another pool, such as one of the system's allocator
 * that its own shrinker frees under the memory pressure of other cases,
 * may be freed at any time.
 */
static __maybe_unused void test_mem_enc_watch(const struct io_tlb_pool *pool)
{
	test_mem_enc.watch_start = (unsigned long)pool->vaddr;
	test_mem_enc.watch_end = test_mem_enc.watch_start +
				 (pool->end - pool->start);
}

static __maybe_unused void test_mem_enc_start(phys_addr_t limit, bool fail_decrypt)
{
	atomic_set(&test_mem_enc.decrypted, 0);
	atomic_set(&test_mem_enc.decrypted_high, 0);
	atomic_set(&test_mem_enc.encrypted, 0);
	atomic_set(&test_mem_enc.encrypted_atomic, 0);
	test_mem_enc.last_decrypted = 0;
	test_mem_enc.last_encrypted = 0;
	test_mem_enc.limit = limit;
	test_mem_enc.fail_decrypt = fail_decrypt;
	/* the fields above before the flag that makes the seam use them */
	smp_store_release(&test_mem_enc.active, true);
}

static void test_mem_enc_stop(void)
{
	WRITE_ONCE(test_mem_enc.active, false);
	test_mem_enc.fail_decrypt = false;
	test_mem_enc.watch_start = 0;
	test_mem_enc.watch_end = 0;
}

static int swiotlb_kunit_set_memory_decrypted(unsigned long addr,
					      int numpages)
{
	/* pairs with smp_store_release() in test_mem_enc_start() */
	if (smp_load_acquire(&test_mem_enc.active)) {
		atomic_inc(&test_mem_enc.decrypted);
		if (__pa(addr) + ((phys_addr_t)numpages << PAGE_SHIFT) - 1 >
		    test_mem_enc.limit)
			atomic_inc(&test_mem_enc.decrypted_high);
		WRITE_ONCE(test_mem_enc.last_decrypted, addr);
		if (test_mem_enc.fail_decrypt)
			return -EIO;
	}
	/* the parentheses call the function, not the macro of the seam */
	return (set_memory_decrypted)(addr, numpages);
}

static int swiotlb_kunit_set_memory_encrypted(unsigned long addr,
					      int numpages)
{
	/* pairs with smp_store_release() in test_mem_enc_start() */
	if (smp_load_acquire(&test_mem_enc.active) &&
	    (!test_mem_enc.watch_end ||
	     (addr >= test_mem_enc.watch_start &&
	      addr < test_mem_enc.watch_end))) {
		atomic_inc(&test_mem_enc.encrypted);
		if (!in_task())
			atomic_inc(&test_mem_enc.encrypted_atomic);
		WRITE_ONCE(test_mem_enc.last_encrypted, addr);
		/*
		 * On a confidential VM this may sleep (it converts the pages
		 * with the hypervisor). Say so, that CONFIG_DEBUG_ATOMIC_SLEEP
		 * flags a caller in atomic context here too.
		 */
		might_sleep();
	}
	return (set_memory_encrypted)(addr, numpages);
}

/*
 * A Hyper-V isolation VM, played: while @active, swiotlb_unencrypted_base
 * is TEST_SHARED_GPA_BOUNDARY, far above any RAM here. Swiotlb.c must then
 * reach a decrypted buffer through memremap() at its address plus the
 * boundary; the memremap() seam returns the linear address of the same
 * pages instead (see swiotlb_dynamic_kunit.h).
 */
#define TEST_SHARED_GPA_BOUNDARY	(1ULL << 46)

/*
 * Mainline removed swiotlb_unencrypted_base before the dynamic SWIOTLB was
 * merged: there is nothing to play on 6.12, whose cases of it skip.
 */
static void test_set_unencrypted_base(phys_addr_t base)
{
#ifndef SWIOTLB_KUNIT_MAINLINE
	WRITE_ONCE(swiotlb_unencrypted_base, base);
#endif
}

/*
 * Skip a case of swiotlb_unencrypted_base on 6.12, for good: it tests a
 * mechanism that 6.12 does not have, not a bug that 6.12 might have, so
 * swiotlb.kunit_unskip=1 does not run it (see test_skip_on_mainline()).
 */
static void __maybe_unused test_skip_without_unencrypted_base(struct kunit *test)
{
#ifdef SWIOTLB_KUNIT_MAINLINE
	kunit_skip(test, "6.12 has no swiotlb_unencrypted_base (mainline removed it before the dynamic SWIOTLB), which 0023 fixes");
#endif
}

/**
 * struct test_gpa_remap - what the memremap() and memunmap() seam saw
 * @active:	Play the isolation VM (a test case sets it, and clears it).
 * @maps:	Calls of memremap() above the boundary.
 * @unmaps:	Calls of memunmap() for what the last memremap() returned.
 * @last_offset: Physical address asked for in the last memremap().
 * @last_vaddr:	What the last memremap() returned.
 */
static struct test_gpa_remap {
	bool active;
	atomic_t maps;
	atomic_t unmaps;
	resource_size_t last_offset;
	void *last_vaddr;
} test_gpa;

static __maybe_unused void test_gpa_start(void)
{
	atomic_set(&test_gpa.maps, 0);
	atomic_set(&test_gpa.unmaps, 0);
	test_gpa.last_offset = 0;
	test_gpa.last_vaddr = NULL;
	/* the fields above before the flag that makes the seam use them */
	smp_store_release(&test_gpa.active, true);
	test_set_unencrypted_base(TEST_SHARED_GPA_BOUNDARY);
}

static void test_gpa_stop(void)
{
	test_set_unencrypted_base(0);
	WRITE_ONCE(test_gpa.active, false);
}

/* Unused where swiotlb.c remaps nothing (mainline). */
static void * __maybe_unused swiotlb_kunit_memremap(resource_size_t offset,
						    size_t size,
						    unsigned long flags)
{
	void *vaddr;

	/* pairs with smp_store_release() in test_gpa_start() */
	if (!smp_load_acquire(&test_gpa.active) ||
	    offset < TEST_SHARED_GPA_BOUNDARY)
		return (memremap)(offset, size, flags);

	/* The real memremap() may sleep: say so, as it would. */
	might_sleep();
	vaddr = phys_to_virt(offset - TEST_SHARED_GPA_BOUNDARY);
	WRITE_ONCE(test_gpa.last_offset, offset);
	WRITE_ONCE(test_gpa.last_vaddr, vaddr);
	atomic_inc(&test_gpa.maps);
	return vaddr;
}

/* Unused until swiotlb.c unmaps the pools it remapped. */
static void __maybe_unused swiotlb_kunit_memunmap(void *addr)
{
	/*
	 * Pass on, unnoted, what the seam did not hand out: a pool made
	 * before the case set the boundary (a transient pool of its fill,
	 * freed in a work item later) has its linear address, which the
	 * real memunmap() leaves alone, as it would here.
	 * Pairs with smp_store_release() in test_gpa_start().
	 */
	if (!smp_load_acquire(&test_gpa.active) ||
	    addr != READ_ONCE(test_gpa.last_vaddr)) {
		(memunmap)(addr);
		return;
	}
	might_sleep();
	atomic_inc(&test_gpa.unmaps);
}

/**
 * struct test_release_seam - what runs after an unmap gave its area lock back
 * @mem:	Allocator whose next release runs @fn; %NULL: none.
 * @fn:		Called once, in the unmapping task, after the area lock of
 *		the released slots is given back, before the release returns.
 * @arg:	Passed to @fn.
 * @ran:	How many times @fn ran.
 */
static struct test_release_seam {
	struct io_tlb_mem *mem;
	void (*fn)(void *arg);
	void *arg;
	atomic_t ran;
} test_release;

static __maybe_unused void test_release_start(struct io_tlb_mem *mem, void (*fn)(void *arg),
			       void *arg)
{
	test_release.fn = fn;
	test_release.arg = arg;
	atomic_set(&test_release.ran, 0);
	/* @fn and @arg before the allocator that makes the seam use them */
	smp_store_release(&test_release.mem, mem);
}

static void test_release_stop(void)
{
	WRITE_ONCE(test_release.mem, NULL);
}

static void __maybe_unused swiotlb_kunit_atomic_long_sub(long i,
							 atomic_long_t *v)
{
#if defined(CONFIG_DEBUG_FS) && defined(SWIOTLB_KUNIT_COUNT_FREED)
	/* pairs with smp_store_release() in test_release_start() */
	struct io_tlb_mem *mem = smp_load_acquire(&test_release.mem);
#endif

	(atomic_long_sub)(i, v);
#if defined(CONFIG_DEBUG_FS) && defined(SWIOTLB_KUNIT_COUNT_FREED)
	/* swiotlb_count_freed(): once, for the allocator of the case */
	if (mem && v == &mem->total_used &&
	    cmpxchg(&test_release.mem, mem, NULL) == mem) {
		test_release.fn(test_release.arg);
		atomic_inc(&test_release.ran);
	}
#endif
}

/**
 * struct test_alloc - what the allocation seam saw, and what it injects
 * @task:	The task of the case that injects; %NULL: pass everything on.
 * @fail_contig: Make alloc_contig_pages() fail.
 * @fail_kvcalloc: Make this many calls of kvcalloc() fail.
 * @fail_nowait: Make kmalloc() fail where it may not sleep.
 * @totalram:	Pages that totalram_pages() reports, if not 0.
 * @totalhigh:	Pages that totalhigh_pages() reports, if @totalram is set.
 * @contig:	Calls of alloc_contig_pages().
 * @contig_freed: Calls of free_contig_range().
 * @kvcalloc:	Calls of kvcalloc().
 * @nowait_failed: Allocations that @fail_nowait made fail.
 * @first_contig_pfn: First page of the first range alloc_contig_pages()
 *		gave, or 0.
 * @last_freed_pfn: First page of the last range given back.
 *
 * See swiotlb_dynamic_kunit.h. The counts are of the injecting task only.
 */
static struct test_alloc {
	struct task_struct *task;
	bool fail_contig;
	unsigned int fail_kvcalloc;
	bool fail_nowait;
	unsigned long totalram;
	unsigned long totalhigh;
	unsigned int contig;
	unsigned int contig_freed;
	unsigned int kvcalloc;
	unsigned int nowait_failed;
	unsigned long first_contig_pfn;
	unsigned long last_freed_pfn;
} test_alloc;

/* Start injecting in the current task; set the fail_* fields after. */
static __maybe_unused void test_alloc_start(void)
{
	memset(&test_alloc, 0, sizeof(test_alloc));
	WRITE_ONCE(test_alloc.task, current);
}

static __maybe_unused void test_alloc_stop(void)
{
	WRITE_ONCE(test_alloc.task, NULL);
}

static bool test_alloc_mine(void)
{
	return READ_ONCE(test_alloc.task) == current;
}

#ifdef CONFIG_CONTIG_ALLOC
static __maybe_unused struct page *swiotlb_kunit_alloc_contig_pages(unsigned long nr_pages,
						     gfp_t gfp, int nid,
						     nodemask_t *nodemask)
{
	struct page *page;

	if (!test_alloc_mine())
		return swiotlb_kunit_real_alloc_contig_pages(nr_pages, gfp,
							     nid, nodemask);
	test_alloc.contig++;
	if (test_alloc.fail_contig)
		return NULL;
	page = swiotlb_kunit_real_alloc_contig_pages(nr_pages, gfp, nid,
						     nodemask);
	if (page && !test_alloc.first_contig_pfn)
		test_alloc.first_contig_pfn = page_to_pfn(page);
	return page;
}

static __maybe_unused void swiotlb_kunit_free_contig_range(unsigned long pfn,
					    unsigned long nr_pages)
{
	if (test_alloc_mine()) {
		test_alloc.contig_freed++;
		test_alloc.last_freed_pfn = pfn;
	}
	(free_contig_range)(pfn, nr_pages);
}
#endif

static __maybe_unused void *swiotlb_kunit_kvcalloc(size_t n, size_t size,
						    gfp_t flags)
{
	if (test_alloc_mine()) {
		test_alloc.kvcalloc++;
		if (test_alloc.fail_kvcalloc) {
			test_alloc.fail_kvcalloc--;
			return NULL;
		}
	}
	return swiotlb_kunit_real_kvcalloc(n, size, flags);
}

static __maybe_unused void *swiotlb_kunit_kmalloc(size_t size, gfp_t flags)
{
	if (test_alloc_mine() && test_alloc.fail_nowait &&
	    !gfpflags_allow_blocking(flags)) {
		test_alloc.nowait_failed++;
		return NULL;
	}
	return swiotlb_kunit_real_kmalloc(size, flags);
}

static unsigned long __maybe_unused swiotlb_kunit_totalram_pages(void)
{
	if (test_alloc_mine() && test_alloc.totalram)
		return test_alloc.totalram;
	return (totalram_pages)();
}

static unsigned long __maybe_unused swiotlb_kunit_totalhigh_pages(void)
{
	if (test_alloc_mine() && test_alloc.totalram)
		return test_alloc.totalhigh;
	return (totalhigh_pages)();
}

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

/* Unmap everything, wait for transient pools to go, free grown pools. */
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
