// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the dynamic software IO TLB.
 *
 * This file is not built on its own: the test-only hook
 * (tests/kunit/swiotlb-kunit-hook.patch) includes it at the end of
 * kernel/dma/swiotlb.c, so that the tests can see the static pool
 * structures and helpers. It is never part of the shipped series.
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
#include <linux/random.h>
#include <linux/sizes.h>

/* Written by scripts/kunit/kunit-run.sh: what the series in the tree offers. */
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
} test_mem_enc;

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
	if (smp_load_acquire(&test_mem_enc.active)) {
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
	WRITE_ONCE(swiotlb_unencrypted_base, TEST_SHARED_GPA_BOUNDARY);
}

static void test_gpa_stop(void)
{
	WRITE_ONCE(swiotlb_unencrypted_base, 0);
	WRITE_ONCE(test_gpa.active, false);
}

static void *swiotlb_kunit_memremap(resource_size_t offset, size_t size,
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
		return (alloc_contig_pages)(nr_pages, gfp, nid, nodemask);
	test_alloc.contig++;
	if (test_alloc.fail_contig)
		return NULL;
	page = (alloc_contig_pages)(nr_pages, gfp, nid, nodemask);
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
	return (kvcalloc)(n, size, flags);
}

static __maybe_unused void *swiotlb_kunit_kmalloc(size_t size, gfp_t flags)
{
	if (test_alloc_mine() && test_alloc.fail_nowait &&
	    !gfpflags_allow_blocking(flags)) {
		test_alloc.nowait_failed++;
		return NULL;
	}
	return (kmalloc)(size, flags);
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

	swiotlb_init_io_tlb_pool(pool, page_to_phys(ctx->tlb_page), nslabs,
				 true, 1);
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
	return swiotlb_tbl_map_single(&ctx->dev, orig, size, size, align_mask,
				      dir, attrs);
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
	KUNIT_ASSERT_EQ(test, mem_pool_used(&ctx->mem.defpool),
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
			KUNIT_EXPECT_EQ(test, mem_pool_used(pool), 0UL);
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
	KUNIT_EXPECT_EQ(test, mem_pool_used(&ctx->mem.defpool), 0UL);
	__free_pages(ctx->tlb_page,
		     get_order(ctx->mem.defpool.nslabs << IO_TLB_SHIFT));
	__free_pages(ctx->orig_page, TEST_ORIG_ORDER);
}

static void test_fill_random(void *buf, size_t len)
{
	get_random_bytes(buf, len);
}

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
	KUNIT_EXPECT_TRUE(test, is_swiotlb_buffer(&ctx->dev, tlb));
	pool = test_pool_of(ctx, tlb);
	KUNIT_EXPECT_FALSE(test, list_empty(&ctx->dev.dma_io_tlb_pools));
	KUNIT_EXPECT_PTR_EQ(test, list_first_entry(&ctx->dev.dma_io_tlb_pools,
						   struct io_tlb_pool, node),
			    pool);

	test_unmap(ctx, tlb, SZ_4K, DMA_TO_DEVICE);
	KUNIT_EXPECT_TRUE(test, list_empty(&ctx->dev.dma_io_tlb_pools));
	KUNIT_EXPECT_FALSE(test, is_swiotlb_buffer(&ctx->dev, tlb));
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
	tlb = test_map(ctx, orig, size, align, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE_MSG(test, tlb, TEST_MAP_ERROR,
			    "%s size %zu offset %#x", kind_name[kind], size,
			    offset);
	KUNIT_EXPECT_EQ(test, test_kind_of(ctx, tlb), kind);
	/*
	 * 6.1.192's slot search (stable backport of "swiotlb: Fix
	 * double-allocation of slots due to broken alignment handling")
	 * ignores the min_align_mask bits that alloc_align_mask covers: then
	 * only the offset within a slot is kept. Later mainline pads the
	 * buffer to keep them; that is outside this series.
	 */
	mask = align ? IO_TLB_SIZE - 1 : SZ_4K - 1;
	KUNIT_EXPECT_EQ_MSG(test, tlb & mask, orig & mask,
			    "min_align_mask, %s size %zu offset %#x align %#x",
			    kind_name[kind], size, offset, align);
	if (align)
		KUNIT_EXPECT_EQ_MSG(test,
				    (tlb - (orig & (IO_TLB_SIZE - 1))) & align,
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
	KUNIT_EXPECT_FALSE(test, is_swiotlb_buffer(&ctx->dev, pool->start));
	KUNIT_EXPECT_FALSE(test, is_swiotlb_buffer(&ctx->dev,
						   pool->end - 1));
	KUNIT_EXPECT_FALSE(test, is_swiotlb_buffer(&ctx->dev, ctx->orig));

	tlb = test_map(ctx, ctx->orig, SZ_4K, 0, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	test_fill_add(test, ctx, tlb, SZ_4K);
	KUNIT_EXPECT_TRUE(test, ctx->dev.dma_uses_io_tlb);
	KUNIT_EXPECT_TRUE(test, is_swiotlb_buffer(&ctx->dev, tlb));
	KUNIT_EXPECT_FALSE(test, is_swiotlb_buffer(&ctx->dev, ctx->orig));
	test_ctx_destroy(test, ctx);
#else
	kunit_skip(test, "needs CONFIG_SWIOTLB_DYNAMIC");
#endif
}

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
	swiotlb_pool_sync_for_cpu(&ctx->dev, pool, tlb, SZ_4K,
				  DMA_BIDIRECTIONAL);
	KUNIT_EXPECT_EQ(test, orig[0], 0xa5);
	KUNIT_EXPECT_EQ(test, orig[SZ_4K - 1], 0xa5);

	memset(orig, 0x5a, SZ_4K);
	swiotlb_pool_sync_for_device(&ctx->dev, pool, tlb, SZ_4K,
				     DMA_BIDIRECTIONAL);
	KUNIT_EXPECT_EQ(test, bounce[0], 0x5a);
	KUNIT_EXPECT_EQ(test, bounce[SZ_4K - 1], 0x5a);

	memset(bounce, 0x3c, SZ_4K);
	swiotlb_pool_unmap_single(&ctx->dev, pool, tlb, SZ_4K,
				  DMA_BIDIRECTIONAL, 0);
	KUNIT_EXPECT_EQ(test, orig[0], 0x3c);
	KUNIT_EXPECT_EQ(test, orig[SZ_4K - 1], 0x3c);
	if (kind == KIND_DEFAULT)
		KUNIT_EXPECT_EQ(test, mem_pool_used(pool), 0UL);
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
	KUNIT_EXPECT_FALSE(test, is_swiotlb_buffer(nodev,
						   ctx->mem.defpool.start));

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
	KUNIT_EXPECT_EQ_MSG(test, miss, (unsigned long)npools,
			    "a search without the hint passes every pool");
#ifdef SWIOTLB_KUNIT_SEARCH_HINT
	KUNIT_EXPECT_EQ_MSG(test, hit, 0UL,
			    "a search that the hint serves walks no list");
#else
	KUNIT_EXPECT_EQ(test, hit, (unsigned long)npools);
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
 * most 16), and that a pool larger than the largest buddy block came
 * from alloc_contig_pages() where the kernel has it, bounces, and is
 * freed.
 */
#define TEST_BURST_BYTES	SZ_256M

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
	KUNIT_EXPECT_LE(test, npools, 16U);
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
		tlb = swiotlb_tbl_map_single(&t->ctx->dev, t->orig, SZ_4K,
					     SZ_4K, 0, DMA_TO_DEVICE,
					     DMA_ATTR_NO_WARN);
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

#if defined(SWIOTLB_KUNIT_POOL_INDEX) && defined(CONFIG_SWIOTLB_DYNAMIC)
/*
 * 8e. The index of the dynamic pools (patch 0028) is a sorted array that
 * lookups bisect. These cases work on an allocator of their own with
 * pools that are only address ranges: nothing is mapped.
 */
static struct io_tlb_pool *test_index_find(struct io_tlb_mem *mem,
					   phys_addr_t paddr)
{
	struct io_tlb_pool *pool;

	rcu_read_lock();
	pool = swiotlb_index_find(mem, paddr);
	rcu_read_unlock();
	return pool;
}

static unsigned int test_index_count(struct io_tlb_mem *mem)
{
	struct io_tlb_pool_index *index;
	unsigned int n;

	rcu_read_lock();
	index = rcu_dereference(mem->index);
	n = index ? index->npools : 0;
	rcu_read_unlock();
	return n;
}

static int test_index_update(struct io_tlb_mem *mem, struct io_tlb_pool *add,
			     struct io_tlb_pool *del)
{
	int rc;

	spin_lock(&mem->lock);
	rc = test_swiotlb_index_update(mem, add, del, GFP_ATOMIC);
	spin_unlock(&mem->lock);
	return rc;
}

static struct io_tlb_mem *test_index_mem(struct kunit *test)
{
	struct io_tlb_mem *mem = kunit_kzalloc(test, sizeof(*mem), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, mem);
	spin_lock_init(&mem->lock);
	INIT_LIST_HEAD(&mem->pools);
	return mem;
}

/*
 * Four adjacent pools added out of order and a fifth after a gap: each is
 * found by its first and its last byte, and nothing just outside them;
 * with the second one removed, its range finds nothing and its
 * neighbours are still found; with all removed, the index is gone.
 */
static void swiotlb_test_index_bounds(struct kunit *test)
{
	static const unsigned int order[] = { 2, 0, 4, 3, 1 };
	struct io_tlb_mem *mem = test_index_mem(test);
	const phys_addr_t base = SZ_1G;
	struct io_tlb_pool *pools;
	unsigned int i;

	pools = kunit_kcalloc(test, 5, sizeof(*pools), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pools);
	for (i = 0; i < 5; i++) {
		pools[i].start = base + i * SZ_64K + (i == 4 ? SZ_64K : 0);
		pools[i].end = pools[i].start + SZ_64K;
	}
	for (i = 0; i < ARRAY_SIZE(order); i++)
		KUNIT_ASSERT_EQ(test, test_index_update(mem, &pools[order[i]],
							NULL), 0);
	KUNIT_EXPECT_EQ(test, test_index_count(mem), 5U);

	for (i = 0; i < 5; i++) {
		KUNIT_EXPECT_PTR_EQ(test, test_index_find(mem, pools[i].start),
				    &pools[i]);
		KUNIT_EXPECT_PTR_EQ(test, test_index_find(mem, pools[i].end - 1),
				    &pools[i]);
	}
	KUNIT_EXPECT_NULL(test, test_index_find(mem, base - 1));
	KUNIT_EXPECT_NULL(test, test_index_find(mem, pools[3].end));
	KUNIT_EXPECT_NULL(test, test_index_find(mem, pools[4].start - 1));
	KUNIT_EXPECT_NULL(test, test_index_find(mem, pools[4].end));

	KUNIT_ASSERT_EQ(test, test_index_update(mem, NULL, &pools[1]), 0);
	KUNIT_EXPECT_NULL(test, test_index_find(mem, pools[1].start));
	KUNIT_EXPECT_NULL(test, test_index_find(mem, pools[1].end - 1));
	KUNIT_EXPECT_PTR_EQ(test, test_index_find(mem, pools[0].end - 1),
			    &pools[0]);
	KUNIT_EXPECT_PTR_EQ(test, test_index_find(mem, pools[2].start),
			    &pools[2]);

	for (i = 0; i < 5; i++)
		if (i != 1)
			KUNIT_EXPECT_EQ(test, test_index_update(mem, NULL,
								&pools[i]), 0);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(mem->index));
	KUNIT_EXPECT_NULL(test, test_index_find(mem, pools[0].start));
	rcu_barrier();
}

struct test_index_reader {
	struct io_tlb_mem *mem;
	struct io_tlb_pool *want;
	unsigned long lookups;
	atomic_t *errors;
};

static int test_index_reader_fn(void *data)
{
	struct test_index_reader *r = data;

	while (!kthread_should_stop()) {
		if (test_index_find(r->mem, r->want->start + SZ_4K) != r->want)
			atomic_inc(r->errors);
		r->lookups++;
		cond_resched();
	}
	return 0;
}

/*
 * Readers look up a pool that stays while the main thread adds and
 * removes 32 others, 100 times over: every update replaces the index and
 * frees the old one after a grace period. The readers must always find
 * their pool (and KASAN, in the debug kernel, sees any use after free).
 */
static void swiotlb_test_index_rcu(struct kunit *test)
{
	unsigned int i, round, nthreads = 2 * num_online_cpus();
	struct io_tlb_mem *mem = test_index_mem(test);
	struct test_index_reader *readers;
	struct task_struct **tasks;
	atomic_t errors = ATOMIC_INIT(0);
	struct io_tlb_pool *pools;
	unsigned long lookups = 0;
	int rc = 0;

	pools = kunit_kcalloc(test, 33, sizeof(*pools), GFP_KERNEL);
	readers = kunit_kcalloc(test, nthreads, sizeof(*readers), GFP_KERNEL);
	tasks = kunit_kcalloc(test, nthreads, sizeof(*tasks), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, pools && readers && tasks);
	for (i = 0; i < 33; i++) {
		pools[i].start = SZ_1G + (phys_addr_t)i * SZ_1M;
		pools[i].end = pools[i].start + SZ_64K;
	}
	/* the pool the readers look up sits in the middle */
	KUNIT_ASSERT_EQ(test, test_index_update(mem, &pools[16], NULL), 0);
	for (i = 0; i < nthreads; i++) {
		readers[i] = (struct test_index_reader){
			.mem = mem, .want = &pools[16], .errors = &errors,
		};
		tasks[i] = kthread_run(test_index_reader_fn, &readers[i],
				       "swiotlb-index/%u", i);
		if (IS_ERR(tasks[i]))
			break;
	}
	if (i < nthreads) {
		/* stop the readers that run before the test's memory goes */
		while (i--)
			kthread_stop(tasks[i]);
		test_index_update(mem, NULL, &pools[16]);
		KUNIT_FAIL(test, "cannot start the reader threads");
		return;
	}
	for (round = 0; round < 100; round++) {
		for (i = 0; i < 33; i++)
			if (i != 16)
				rc |= test_index_update(mem, &pools[i], NULL);
		for (i = 0; i < 33; i++)
			if (i != 16)
				rc |= test_index_update(mem, NULL, &pools[i]);
	}
	for (i = 0; i < nthreads; i++) {
		kthread_stop(tasks[i]);
		lookups += readers[i].lookups;
	}
	KUNIT_EXPECT_EQ(test, rc, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&errors), 0);
	KUNIT_EXPECT_GT(test, lookups, 0UL);
	KUNIT_EXPECT_EQ(test, test_index_count(mem), 1U);
	kunit_info(test, "%lu lookups by %u threads during %u index updates\n",
		   lookups, nthreads, 100 * 64);
	KUNIT_EXPECT_EQ(test, test_index_update(mem, NULL, &pools[16]), 0);
	rcu_barrier();
}
#endif /* SWIOTLB_KUNIT_POOL_INDEX && CONFIG_SWIOTLB_DYNAMIC */

/* 9. Concurrent maps, unmaps and checks while the allocator grows. */
#ifdef CONFIG_SWIOTLB_DYNAMIC
struct test_thread {
	struct swiotlb_test_ctx *ctx;
	struct completion done;
	atomic_t *errors;
	atomic_t *maps;
	/*
	 * Optional: with @stop, run until *@stop is set instead of
	 * TEST_THREAD_ITERATIONS times; while *@calm is set, hold no mapping
	 * between iterations, and pause after each.
	 */
	const bool *stop;
	const bool *calm;
	unsigned int seed;
	/* maps that failed: a growing allocator must never fail one */
	unsigned int fails;
};

#define TEST_THREAD_ITERATIONS	300
#define TEST_THREAD_INFLIGHT	8

/* The "device" writes the bounce buffer; unmap must copy it back. */
static void test_thread_unmap(struct test_thread *t, phys_addr_t tlb,
			      size_t size, u8 *buf, u8 *check)
{
	get_random_bytes(check, size);
	memcpy(test_tlb_vaddr(t->ctx, tlb), check, size);
	swiotlb_tbl_unmap_single(&t->ctx->dev, tlb, size, DMA_BIDIRECTIONAL, 0);
	if (memcmp(buf, check, size))
		atomic_inc(t->errors);
}

static int test_thread_fn(void *data)
{
	struct test_thread *t = data;
	struct swiotlb_test_ctx *ctx = t->ctx;
	phys_addr_t tlb[TEST_THREAD_INFLIGHT] = { 0 };
	size_t size[TEST_THREAD_INFLIGHT] = { 0 };
	struct page *page;
	unsigned int i, slot;
	u8 *orig, *check;

	page = alloc_pages(GFP_KERNEL, get_order(SZ_64K * TEST_THREAD_INFLIGHT));
	check = kmalloc(SZ_64K, GFP_KERNEL);
	if (!page || !check) {
		atomic_inc(t->errors);
		goto out;
	}
	orig = page_address(page);

	for (i = 0; t->stop ? !READ_ONCE(*t->stop) :
			     i < TEST_THREAD_ITERATIONS; i++) {
		u8 *buf;
		u8 *va;

		slot = i % TEST_THREAD_INFLIGHT;
		buf = orig + slot * SZ_64K;
		if (tlb[slot]) {
			test_thread_unmap(t, tlb[slot], size[slot], buf, check);
			tlb[slot] = 0;
		}
		size[slot] = 512 + get_random_u32() % (SZ_64K - 512);
		get_random_bytes(buf, size[slot]);
		tlb[slot] = swiotlb_tbl_map_single(&ctx->dev, virt_to_phys(buf),
						   size[slot], size[slot], 0,
						   DMA_BIDIRECTIONAL,
						   DMA_ATTR_NO_WARN);
		if (tlb[slot] == TEST_MAP_ERROR) {
			tlb[slot] = 0;
			t->fails++;
			cond_resched();
			continue;
		}
		atomic_inc(t->maps);
		va = test_tlb_vaddr(ctx, tlb[slot]);
		if (memcmp(va, buf, size[slot]))
			atomic_inc(t->errors);
		if (t->calm && READ_ONCE(*t->calm)) {
			test_thread_unmap(t, tlb[slot], size[slot], buf, check);
			tlb[slot] = 0;
			/* leave the pools idle now and then for the shrinker */
			usleep_range(200, 1000);
		}
		cond_resched();
	}
	for (slot = 0; slot < TEST_THREAD_INFLIGHT; slot++)
		if (tlb[slot])
			swiotlb_tbl_unmap_single(&ctx->dev, tlb[slot],
						 size[slot], DMA_BIDIRECTIONAL,
						 DMA_ATTR_SKIP_CPU_SYNC);
out:
	kfree(check);
	if (page)
		__free_pages(page, get_order(SZ_64K * TEST_THREAD_INFLIGHT));
	complete(&t->done);
	return 0;
}

/* The failed maps of @nthreads finished threads. */
static unsigned int test_threads_fails(struct test_thread *threads,
				       unsigned int nthreads)
{
	unsigned int n, fails = 0;

	for (n = 0; n < nthreads; n++)
		fails += threads[n].fails;
	return fails;
}

/*
 * Start @nthreads threads of test_thread_fn() on @ctx, spread over the
 * online CPUs, counting into @errors and @maps.  Each completes its done
 * when it has finished; the array is freed with the test.
 */
static struct test_thread *test_threads_start(struct kunit *test,
					      struct swiotlb_test_ctx *ctx,
					      unsigned int nthreads,
					      atomic_t *errors, atomic_t *maps,
					      const bool *stop, const bool *calm)
{
	struct test_thread *threads;
	unsigned int n, cpu;

	threads = kunit_kzalloc(test, array_size(sizeof(*threads), nthreads),
				GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, threads);

	for (n = 0; n < nthreads; n++) {
		struct task_struct *task;

		cpu = cpumask_nth(n % num_online_cpus(), cpu_online_mask);
		threads[n].ctx = ctx;
		threads[n].errors = errors;
		threads[n].maps = maps;
		threads[n].stop = stop;
		threads[n].calm = calm;
		init_completion(&threads[n].done);
		task = kthread_create(test_thread_fn, &threads[n],
				      "swiotlb-kunit/%u", n);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, task);
		kthread_bind(task, cpu);
		wake_up_process(task);
	}
	return threads;
}
#endif /* CONFIG_SWIOTLB_DYNAMIC */

static void swiotlb_test_concurrent(struct kunit *test)
{
#ifdef CONFIG_SWIOTLB_DYNAMIC
	struct swiotlb_test_ctx *ctx;
	struct test_thread *threads;
	atomic_t errors = ATOMIC_INIT(0);
	atomic_t maps = ATOMIC_INIT(0);
	struct io_tlb_pool *pool;
	unsigned int n, nthreads = 2 * num_online_cpus();
	int npools = 0;

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, true, swiotlb_dyn_alloc);
	threads = test_threads_start(test, ctx, nthreads, &errors, &maps,
				     NULL, NULL);
	for (n = 0; n < nthreads; n++)
		wait_for_completion(&threads[n].done);

	KUNIT_EXPECT_EQ(test, atomic_read(&errors), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&maps), 0);
	KUNIT_EXPECT_EQ_MSG(test, test_threads_fails(threads, nthreads), 0U,
			    "maps failed although the allocator can grow");
	flush_work(&ctx->mem.dyn_alloc);
	rcu_barrier();
	list_for_each_entry(pool, &ctx->mem.pools, node) {
		unsigned long i;

		npools++;
		KUNIT_EXPECT_EQ(test, mem_pool_used(pool), 0UL);
		for (i = 0; i < pool->nslabs; i++) {
			if (pool->slots[i].list !=
			    IO_TLB_SEGSIZE - io_tlb_offset(i) ||
			    pool->slots[i].orig_addr != INVALID_PHYS_ADDR) {
				KUNIT_FAIL(test, "slot %lu of a pool is not free",
					   i);
				break;
			}
		}
	}
	KUNIT_EXPECT_GT_MSG(test, npools, 1, "the allocator did not grow");
	kunit_info(test, "%d maps by %u threads, %d pools\n",
		   atomic_read(&maps), nthreads, npools);
	test_ctx_destroy(test, ctx);
#else
	kunit_skip(test, "needs CONFIG_SWIOTLB_DYNAMIC");
#endif
}

/*
 * The slot search ends in bounded time on a full pool, even for a device
 * with a 4 KiB min_align_mask and a buffer at offset 0x800, where only odd
 * slots can match and 6.1.192's search could cycle forever. On the
 * dynamic kernel, the same map is then served from a transient pool.
 */
static void swiotlb_test_misaligned_full_pool(struct kunit *test)
{
	struct swiotlb_test_ctx *ctx;
	struct io_tlb_area *area;
	unsigned long flags;
	phys_addr_t tlb;
	unsigned int i, kept;
	ktime_t start;
	s64 ms;

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, false, NULL);
	area = &ctx->mem.defpool.areas[0];

	/* One-slot maps fill every slot; then free isolated even slots. */
	for (i = 0; i < IO_TLB_SEGSIZE; i++) {
		tlb = test_map(ctx, ctx->orig, IO_TLB_SIZE, 0, DMA_TO_DEVICE,
			       0);
		KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
		test_fill_add(test, ctx, tlb, IO_TLB_SIZE);
	}
	for (i = 2; i < IO_TLB_SEGSIZE; i += 4) {
		KUNIT_ASSERT_EQ(test, ctx->fill[i],
				ctx->mem.defpool.start + i * IO_TLB_SIZE);
		test_unmap(ctx, ctx->fill[i], IO_TLB_SIZE, DMA_TO_DEVICE);
	}
	for (i = 2; i < IO_TLB_SEGSIZE; i += 4)
		ctx->fill[i] = 0;
	spin_lock_irqsave(&area->lock, flags);
	area->index = 4;
	spin_unlock_irqrestore(&area->lock, flags);

	dma_set_min_align_mask(&ctx->dev, SZ_4K - 1);
	start = ktime_get();
	tlb = test_map(ctx, ctx->orig + 0x800, SZ_4K, 0, DMA_TO_DEVICE,
		       DMA_ATTR_NO_WARN);
	ms = ktime_ms_delta(ktime_get(), start);
	KUNIT_EXPECT_EQ(test, tlb, TEST_MAP_ERROR);
	KUNIT_EXPECT_LT(test, ms, 1000LL);

#ifdef CONFIG_SWIOTLB_DYNAMIC
	ctx->mem.can_grow = true;
	tlb = test_map(ctx, ctx->orig + 0x800, SZ_4K, 0, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	KUNIT_EXPECT_EQ(test, test_kind_of(ctx, tlb), KIND_TRANSIENT);
	KUNIT_EXPECT_EQ(test, tlb & (SZ_4K - 1), (phys_addr_t)0x800);
	KUNIT_EXPECT_LE_MSG(test, tlb + SZ_4K, test_pool_of(ctx, tlb)->end,
			    "transient buffer ends past its pool");
	test_unmap(ctx, tlb, SZ_4K, DMA_TO_DEVICE);
#endif
	dma_set_min_align_mask(&ctx->dev, 0);

	/* drop the entries freed above before the common cleanup */
	for (i = 0, kept = 0; i < ctx->nfill; i++)
		if (ctx->fill[i])
			ctx->fill[kept++] = ctx->fill[i];
	ctx->nfill = kept;
	test_ctx_destroy(test, ctx);
}

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
	next = swiotlb_area_find_slots(&ctx->dev, pool, 0, ctx->orig,
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
	big = swiotlb_area_find_slots(&ctx->dev, pool, pool->nareas - 1,
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
	page = swiotlb_alloc_tlb(NULL, bytes, limit, GFP_KERNEL);
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
	page = swiotlb_alloc_tlb(NULL, PAGE_SIZE, limit, GFP_KERNEL);
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
	page = swiotlb_alloc_tlb(NULL, PAGE_SIZE, DMA_BIT_MASK(64),
				 GFP_KERNEL);
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

#ifdef CONFIG_SWIOTLB_SHRINK
/*
 * The shrinker of "swiotlb: free idle dynamic memory pools" (the shrinker).
 * The cases call its helpers on a private allocator, with an explicit
 * "idle since" time, instead of the registered shrinker, which works on
 * the system's allocator.
 */

/*
 * Wait (up to 5 s) until @n pools have been freed since
 * test_mem_enc_start(): freeing a pool encrypts its buffer again, once.
 * Then stop recording.
 */
static void test_wait_freed(struct kunit *test, int n)
{
	int i;

	rcu_barrier();
	for (i = 0; i < 500 && atomic_read(&test_mem_enc.encrypted) < n; i++)
		usleep_range(10000, 11000);
	test_mem_enc_stop();
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&test_mem_enc.encrypted), n,
			    "pools freed");
	KUNIT_EXPECT_EQ_MSG(test,
			    atomic_read(&test_mem_enc.encrypted_atomic), 0,
			    "a pool was freed in atomic context");
}

/*
 * Grow @ctx by one dynamic pool, unmap everything, and wait until the
 * transient pool that served meanwhile is gone. Return the new pool.
 */
static struct io_tlb_pool *test_grow_then_idle(struct kunit *test,
					       struct swiotlb_test_ctx *ctx)
{
	struct io_tlb_pool *pool;
	int transient = 0;
	unsigned int i;
	phys_addr_t tlb;

	test_fill_default_pool(test, ctx);
	tlb = test_map(ctx, ctx->orig, SZ_4K, 0, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	test_fill_add(test, ctx, tlb, SZ_4K);
	flush_work(&ctx->mem.dyn_alloc);
	pool = test_newest_pool(&ctx->mem);
	KUNIT_ASSERT_PTR_NE(test, pool, &ctx->mem.defpool);

	test_mem_enc_start(DMA_BIT_MASK(64), false);
	for (i = 0; i < ctx->nfill; i++) {
		if (test_kind_of(ctx, ctx->fill[i]) == KIND_TRANSIENT)
			transient++;
		test_unmap(ctx, ctx->fill[i], ctx->fill_size[i],
			   DMA_TO_DEVICE);
	}
	ctx->nfill = 0;
	test_wait_freed(test, transient);
	return pool;
}

/*
 * Grown, then unmapped: the scan frees the dynamic pool, after a grace
 * period and in process context, and the allocator is back to its
 * default pool, which still serves.
 */
static void swiotlb_test_shrink_frees_idle(struct kunit *test)
{
	struct swiotlb_test_ctx *ctx;
	struct io_tlb_pool *pool;
	unsigned long nslabs, grown;
	phys_addr_t tlb;

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, true, swiotlb_dyn_alloc);
	nslabs = ctx->mem.nslabs;
	pool = test_grow_then_idle(test, ctx);
	grown = pool->nslabs;
	KUNIT_EXPECT_EQ(test, ctx->mem.nslabs, nslabs + grown);
	KUNIT_EXPECT_EQ(test, ctx->mem.pools_grown, 1UL);
	KUNIT_EXPECT_EQ(test, swiotlb_shrink_count(&ctx->mem, jiffies), grown);

	test_mem_enc_start(DMA_BIT_MASK(64), false);
	KUNIT_EXPECT_EQ(test, swiotlb_shrink(&ctx->mem, ULONG_MAX, jiffies),
			grown);
	test_wait_freed(test, 1);
	KUNIT_EXPECT_EQ(test, ctx->mem.nslabs, nslabs);
	KUNIT_EXPECT_EQ(test, ctx->mem.pools_freed, 1UL);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&ctx->mem.pools));
	KUNIT_EXPECT_EQ(test, swiotlb_shrink_count(&ctx->mem, jiffies), 0UL);

	tlb = test_map(ctx, ctx->orig, SZ_4K, 0, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	KUNIT_EXPECT_EQ(test, test_kind_of(ctx, tlb), KIND_DEFAULT);
	test_fill_add(test, ctx, tlb, SZ_4K);
	test_ctx_destroy(test, ctx);
}

/* A pool with one slot in use is never freed; once unmapped, it is. */
static void swiotlb_test_shrink_keeps_used(struct kunit *test)
{
	struct swiotlb_test_ctx *ctx;
	struct io_tlb_pool *pool;
	unsigned long nslabs;
	phys_addr_t tlb, seg;

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, true, swiotlb_dyn_alloc);
	pool = test_grow_then_idle(test, ctx);
	nslabs = ctx->mem.nslabs;

	/*
	 * A map into the grown pool: a whole segment, held meanwhile, takes
	 * the room of the pool that the search tries first (the newest one,
	 * or with patch 0031 the default pool, where it last found room);
	 * the next map then finds room in the grown pool either way.
	 */
	seg = test_map(ctx, ctx->orig, TEST_SEG_BYTES, 0, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE(test, seg, TEST_MAP_ERROR);
	tlb = test_map(ctx, ctx->orig, SZ_4K, 0, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	test_unmap(ctx, seg, TEST_SEG_BYTES, DMA_TO_DEVICE);
	KUNIT_ASSERT_PTR_EQ(test, test_pool_of(ctx, tlb), pool);

	KUNIT_EXPECT_EQ(test, swiotlb_shrink_count(&ctx->mem, jiffies), 0UL);
	KUNIT_EXPECT_EQ(test, swiotlb_shrink(&ctx->mem, ULONG_MAX, jiffies),
			0UL);
	KUNIT_EXPECT_EQ(test, ctx->mem.nslabs, nslabs);
	KUNIT_EXPECT_PTR_EQ(test, test_pool_of(ctx, tlb), pool);
	/* still in service: the next map may use it too */
	KUNIT_EXPECT_FALSE(test, pool->areas[0].retired);

	test_mem_enc_start(DMA_BIT_MASK(64), false);
	test_unmap(ctx, tlb, SZ_4K, DMA_TO_DEVICE);
	KUNIT_EXPECT_EQ(test, swiotlb_shrink(&ctx->mem, ULONG_MAX, jiffies),
			pool->nslabs);
	test_wait_freed(test, 1);
	KUNIT_EXPECT_EQ(test, ctx->mem.nslabs, ctx->mem.defpool.nslabs);
	test_ctx_destroy(test, ctx);
}

/* A pool used within the hysteresis window is kept. */
static void swiotlb_test_shrink_hysteresis(struct kunit *test)
{
	struct swiotlb_test_ctx *ctx;
	struct io_tlb_pool *pool;
	unsigned long nslabs, window = msecs_to_jiffies(5000);

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, true, swiotlb_dyn_alloc);
	pool = test_grow_then_idle(test, ctx);
	nslabs = ctx->mem.nslabs;

	/* used (its slots given back) just now, so not idle for 5 s */
	KUNIT_EXPECT_EQ(test, swiotlb_shrink_count(&ctx->mem, jiffies - window),
			0UL);
	KUNIT_EXPECT_EQ(test, swiotlb_shrink(&ctx->mem, ULONG_MAX,
					     jiffies - window), 0UL);
	KUNIT_EXPECT_EQ(test, ctx->mem.nslabs, nslabs);
	KUNIT_EXPECT_FALSE(test, pool->areas[0].retired);

	/* the window as the shrinker computes it from the tunable */
	KUNIT_EXPECT_TRUE(test, time_before(swiotlb_shrink_since(),
					    pool->areas[0].last_used) ||
			  swiotlb_shrink_delay_ms == 0);

	test_mem_enc_start(DMA_BIT_MASK(64), false);
	KUNIT_EXPECT_EQ(test, swiotlb_shrink(&ctx->mem, ULONG_MAX, jiffies),
			pool->nslabs);
	test_wait_freed(test, 1);
	test_ctx_destroy(test, ctx);
}

#define TEST_SHRINK_ROUNDS	3

/* Say which pools a calm left, and why the shrinker kept them. */
static void test_shrink_report(struct kunit *test, struct io_tlb_mem *mem)
{
	struct io_tlb_pool *pool;
	unsigned int i;

	rcu_read_lock();
	list_for_each_entry_rcu(pool, &mem->pools, node) {
		if (pool == &mem->defpool)
			continue;
		for (i = 0; i < pool->nareas; i++)
			kunit_info(test, "left: pool of %lu slots, area %u: used %lu, retired %d, last used %ld jiffies ago\n",
				   pool->nslabs, i,
				   READ_ONCE(pool->areas[i].used),
				   READ_ONCE(pool->areas[i].retired),
				   (long)(jiffies -
					  READ_ONCE(pool->areas[i].last_used)));
	}
	rcu_read_unlock();
}

/*
 * Scan for idle pools until @cond holds or @deadline passes, as the
 * shrinker would, but with no hysteresis. Return the number of scans.
 */
#define test_shrink_until(mem, cond, deadline)				\
({									\
	unsigned long __scans = 0;					\
	while (!(cond) && time_before(jiffies, (deadline))) {		\
		swiotlb_shrink((mem), ULONG_MAX, jiffies);		\
		__scans++;						\
		usleep_range(50, 200);					\
	}								\
	__scans;							\
})

/*
 * Threads map, bounce, check and unmap while the main thread frees every
 * idle pool it can, over and over (KASAN sees any use after free). The
 * load comes in rounds: a burst, in which each thread holds up to
 * TEST_THREAD_INFLIGHT mappings and the swiotlb grows, then a calm, in
 * which each thread still maps and unmaps but holds nothing in between
 * and pauses, until every grown pool has fallen idle and been freed while
 * mappers searched it.
 * At least TEST_SHRINK_ROUNDS rounds, and as many more as it takes the
 * threads to map TEST_THREAD_ITERATIONS times each. A fixed number of
 * iterations would leave it to chance whether a pool is ever idle at a
 * scan before the threads stop.
 */
static void swiotlb_test_shrink_concurrent(struct kunit *test)
{
	unsigned long deadline = jiffies + 60 * HZ;
	unsigned long scans = 0;
	struct swiotlb_test_ctx *ctx;
	struct test_thread *threads;
	atomic_t errors = ATOMIC_INIT(0);
	atomic_t maps = ATOMIC_INIT(0);
	unsigned int n, rounds = 0, nthreads = 2 * num_online_cpus();
	bool stop = false, calm = false;

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, true, swiotlb_dyn_alloc);
	threads = test_threads_start(test, ctx, nthreads, &errors, &maps,
				     &stop, &calm);
	while (time_before(jiffies, deadline) &&
	       (rounds < TEST_SHRINK_ROUNDS ||
		atomic_read(&maps) < nthreads * TEST_THREAD_ITERATIONS)) {
		/*
		 * A burst lasts until a grown pool is there, not until one
		 * more pool grows: the threads may have grown pools before
		 * the first round, which can then hold the whole burst
		 * (with pools that double, 1 + 2 MiB hold the 2 MiB that
		 * the threads have in flight at most).
		 */
		WRITE_ONCE(calm, false);
		scans += test_shrink_until(&ctx->mem,
					   READ_ONCE(ctx->mem.nslabs) !=
					   ctx->mem.defpool.nslabs, deadline);
		if (READ_ONCE(ctx->mem.nslabs) == ctx->mem.defpool.nslabs)
			break;
		WRITE_ONCE(calm, true);
		scans += test_shrink_until(&ctx->mem,
					   READ_ONCE(ctx->mem.nslabs) ==
					   ctx->mem.defpool.nslabs, deadline);
		if (READ_ONCE(ctx->mem.nslabs) != ctx->mem.defpool.nslabs) {
			test_shrink_report(test, &ctx->mem);
			break;
		}
		rounds++;
	}
	WRITE_ONCE(stop, true);
	for (n = 0; n < nthreads; n++)
		wait_for_completion(&threads[n].done);

	KUNIT_EXPECT_EQ(test, atomic_read(&errors), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&maps), 0);
	KUNIT_EXPECT_EQ_MSG(test, test_threads_fails(threads, nthreads), 0U,
			    "maps failed while the shrinker freed pools");
	KUNIT_EXPECT_GE_MSG(test, rounds, (unsigned int)TEST_SHRINK_ROUNDS,
			    "in 60 s, the swiotlb did not grow in a burst or a calm did not free every grown pool");
	flush_work(&ctx->mem.dyn_alloc);
	rcu_barrier();
	swiotlb_shrink(&ctx->mem, ULONG_MAX, jiffies);
	KUNIT_EXPECT_EQ(test, ctx->mem.nslabs, ctx->mem.defpool.nslabs);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&ctx->mem.pools));
	kunit_info(test, "%d maps by %u threads, %u rounds, %lu scans, %lu pools grown, %lu freed\n",
		   atomic_read(&maps), nthreads, rounds, scans,
		   ctx->mem.pools_grown, ctx->mem.pools_freed);
	rcu_barrier();
	test_ctx_destroy(test, ctx);
}

/*
 * A trickle after a spike. The spike holds whole segments until the
 * swiotlb has grown TEST_TRICKLE_POOLS pools, then gives everything back.
 * Then one 4 KiB map and unmap every TEST_TRICKLE_PERIOD_MS goes on while
 * the shrinker scans with a window of TEST_TRICKLE_WINDOW_MS (the 5 s
 * hysteresis, scaled down). Within TEST_TRICKLE_SECS the swiotlb must be
 * back to the default pool and at most the first pool it grew: a trickle
 * must not keep the pools of the spike busy. It does when the slot search
 * tries the newest pool first, or keeps to the pool where it last found
 * room.
 */
#define TEST_TRICKLE_POOLS	3
#define TEST_TRICKLE_PERIOD_MS	20
#define TEST_TRICKLE_WINDOW_MS	200
#define TEST_TRICKLE_SECS	3

static void swiotlb_test_shrink_trickle(struct kunit *test)
{
	const unsigned long window = msecs_to_jiffies(TEST_TRICKLE_WINDOW_MS);
	unsigned long boot, first = 0, peak, deadline;
	struct swiotlb_test_ctx *ctx;
	unsigned int i, trickles = 0;
	phys_addr_t tlb;

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, true, swiotlb_dyn_alloc);
	boot = ctx->mem.nslabs;

	/* the spike */
	while (ctx->mem.pools_grown < TEST_TRICKLE_POOLS) {
		tlb = test_map(ctx, ctx->orig, TEST_SEG_BYTES, 0,
			       DMA_TO_DEVICE, 0);
		KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
		test_fill_add(test, ctx, tlb, TEST_SEG_BYTES);
		flush_work(&ctx->mem.dyn_alloc);
		if (!first && ctx->mem.nslabs > boot)
			first = ctx->mem.nslabs - boot;
	}
	peak = ctx->mem.nslabs;
	for (i = 0; i < ctx->nfill; i++)
		test_unmap(ctx, ctx->fill[i], ctx->fill_size[i],
			   DMA_TO_DEVICE);
	ctx->nfill = 0;
	KUNIT_ASSERT_GE(test, peak, 4 * boot);

	/* the trickle, while reclaim asks the shrinker again and again */
	deadline = jiffies + TEST_TRICKLE_SECS * HZ;
	while (ctx->mem.nslabs > boot + first &&
	       time_before(jiffies, deadline)) {
		tlb = test_map(ctx, ctx->orig, SZ_4K, 0, DMA_TO_DEVICE, 0);
		KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
		test_unmap(ctx, tlb, SZ_4K, DMA_TO_DEVICE);
		trickles++;
		swiotlb_shrink(&ctx->mem, ULONG_MAX, jiffies - window);
		msleep(TEST_TRICKLE_PERIOD_MS);
	}
	kunit_info(test, "slots: boot %lu, first pool %lu, peak %lu, after %u trickle maps %lu\n",
		   boot, first, peak, trickles, ctx->mem.nslabs);
	if (ctx->mem.nslabs > boot + first)
		test_shrink_report(test, &ctx->mem);
	KUNIT_EXPECT_LE_MSG(test, ctx->mem.nslabs, boot + first,
			    "the trickle kept pools of the spike for %d s",
			    TEST_TRICKLE_SECS);
	rcu_barrier();
	test_ctx_destroy(test, ctx);
}

struct test_scan {
	struct io_tlb_mem *mem;
	struct completion done;
	unsigned long freed;
};

static int test_scan_fn(void *data)
{
	struct test_scan *scan = data;

	scan->freed = swiotlb_shrink(scan->mem, ULONG_MAX, jiffies);
	complete(&scan->done);
	return 0;
}

/*
 * A busy pool is not retired, not even for a moment. A pool of two
 * areas: area 1 full, area 0 free and idle; the default pool full. The
 * test holds the lock of area 1 while a kthread on another CPU scans, and
 * maps meanwhile. A scan that retires areas before it looks at the pool
 * retires area 0 and then waits for the lock of area 1; the map then
 * finds area 0 retired, takes a transient pool and asks the swiotlb to
 * grow. A scan that looks first passes the pool, and the map lands in
 * area 0.
 */
static void swiotlb_test_shrink_busy_not_retired(struct kunit *test)
{
	struct swiotlb_test_ctx *ctx;
	struct task_struct *task;
	struct io_tlb_pool *pool;
	struct test_scan scan;
	phys_addr_t seg[2], tlb;
	unsigned int i, busy, other;
	unsigned long flags;
	bool retired, scanned;

	other = cpumask_next(0, cpu_online_mask);
	if (!cpu_online(0) || other >= nr_cpu_ids)
		kunit_skip(test, "the scan needs a CPU of its own");

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, true, NULL);
	test_fill_default_pool(test, ctx);
	pool = swiotlb_alloc_pool(NULL, 2 * IO_TLB_SEGSIZE, 2 * IO_TLB_SEGSIZE,
				  2, ctx->mem.phys_limit, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pool);
	add_mem_pool(&ctx->mem, pool);
	KUNIT_ASSERT_EQ(test, pool->nareas, 2U);
	for (i = 0; i < 2; i++) {
		seg[i] = test_map(ctx, ctx->orig, TEST_SEG_BYTES, 0,
				  DMA_TO_DEVICE, 0);
		KUNIT_ASSERT_NE(test, seg[i], TEST_MAP_ERROR);
		KUNIT_ASSERT_PTR_EQ(test, test_pool_of(ctx, seg[i]), pool);
	}
	busy = test_area_of(pool, seg[0]) == 1 ? 0 : 1;
	KUNIT_ASSERT_EQ(test, test_area_of(pool, seg[busy]), 1U);
	KUNIT_ASSERT_EQ(test, test_area_of(pool, seg[!busy]), 0U);
	test_unmap(ctx, seg[!busy], TEST_SEG_BYTES, DMA_TO_DEVICE);
	test_fill_add(test, ctx, seg[busy], TEST_SEG_BYTES);

	scan.mem = &ctx->mem;
	init_completion(&scan.done);
	task = kthread_create(test_scan_fn, &scan, "swiotlb-kunit-scan");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	kthread_bind(task, other);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(0)), 0);

	/*
	 * A subclass of its own: the map below takes area 0's lock, of the
	 * same class, while this one is held, which swiotlb.c itself never
	 * does, and lockdep would report it as recursive locking.
	 */
	spin_lock_irqsave_nested(&pool->areas[1].lock, flags,
				 SINGLE_DEPTH_NESTING);
	wake_up_process(task);
	/*
	 * Up to 2 s for the scan to retire area 0, or to finish. A scan
	 * that has done neither has not been tested: a map now would land in
	 * area 0 whatever the scan does later.
	 */
	for (i = 0; i < 20000 && !READ_ONCE(pool->areas[0].retired) &&
	     !completion_done(&scan.done); i++)
		udelay(100);
	retired = READ_ONCE(pool->areas[0].retired);
	scanned = retired || completion_done(&scan.done);
	tlb = test_map(ctx, ctx->orig, SZ_4K, 0, DMA_TO_DEVICE,
		       DMA_ATTR_NO_WARN);
	spin_unlock_irqrestore(&pool->areas[1].lock, flags);

	wait_for_completion(&scan.done);
	set_cpus_allowed_ptr(current, cpu_possible_mask);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	test_fill_add(test, ctx, tlb, SZ_4K);
	KUNIT_EXPECT_TRUE_MSG(test, scanned,
			      "the scan neither retired area 0 nor finished in 2 s: nothing was tested");
	KUNIT_EXPECT_FALSE_MSG(test, retired,
			       "the scan retired an area of a busy pool");
	KUNIT_EXPECT_EQ_MSG(test, test_kind_of(ctx, tlb), KIND_DYNAMIC,
			    "the map went to a %s pool",
			    kind_name[test_kind_of(ctx, tlb)]);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->grow_requests), 0);
	KUNIT_EXPECT_EQ(test, scan.freed, 0UL);
	test_ctx_destroy(test, ctx);
}

/*
 * A pool idle for longer than LONG_MAX jiffies (24.8 days at HZ=1000 with
 * a 32-bit long) is idle: its areas' last_used, LONG_MAX + 2 jiffies
 * back, is where time_after() turns around on 64-bit too. The scan must
 * free the pool.
 */
static void swiotlb_test_shrink_long_idle(struct kunit *test)
{
	struct swiotlb_test_ctx *ctx;
	struct io_tlb_pool *pool;
	unsigned long flags;
	unsigned int i;

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, true, swiotlb_dyn_alloc);
	pool = test_grow_then_idle(test, ctx);
	for (i = 0; i < pool->nareas; i++) {
		spin_lock_irqsave(&pool->areas[i].lock, flags);
		WRITE_ONCE(pool->areas[i].last_used,
			   jiffies - (unsigned long)LONG_MAX - 2);
		spin_unlock_irqrestore(&pool->areas[i].lock, flags);
	}
	KUNIT_EXPECT_EQ(test, swiotlb_shrink_count(&ctx->mem, jiffies),
			pool->nslabs);
	test_mem_enc_start(DMA_BIT_MASK(64), false);
	KUNIT_EXPECT_EQ_MSG(test, swiotlb_shrink(&ctx->mem, ULONG_MAX, jiffies),
			    pool->nslabs,
			    "a pool idle for LONG_MAX + 2 jiffies looked busy");
	test_wait_freed(test, 1);
	test_ctx_destroy(test, ctx);
}

#endif /* CONFIG_SWIOTLB_SHRINK */

#if defined(CONFIG_SWIOTLB_SHRINK) && defined(SWIOTLB_KUNIT_OLDEST_FIRST) && \
	defined(CONFIG_DEBUG_FS)
/**
 * struct test_unmap_race - the scan that the release seam runs
 * @mem:	Allocator to scan.
 * @pool:	The pool whose slots the unmap gives back.
 * @nslabs:	Its size, read while it was alive.
 * @freed:	What the scan freed.
 */
struct test_unmap_race {
	struct io_tlb_mem *mem;
	struct io_tlb_pool *pool;
	unsigned long nslabs;
	unsigned long freed;
};

/*
 * In the unmap, right after the area lock is given back: a scan with an
 * idle time of 0 (io_tlb_shrink_delay_ms=0) retires the pool and frees
 * it, as a shrinker on another CPU may do whenever the unmapping task is
 * preempted or interrupted there. Before the free, what a reuse of the
 * memory could leave: a @seq that no pool has. On a KASAN kernel, wait
 * for the free itself, so that any later read of the pool is reported.
 */
static void test_unmap_race_scan(void *arg)
{
	struct test_unmap_race *race = arg;

	/* held across the scan: the grace period of its free waits for us */
	rcu_read_lock();
	race->freed = swiotlb_shrink(race->mem, ULONG_MAX, jiffies);
	if (race->freed)
		WRITE_ONCE(race->pool->seq, ULONG_MAX);
	rcu_read_unlock();
	if (IS_ENABLED(CONFIG_KASAN) && race->freed) {
		rcu_barrier();
		flush_workqueue(swiotlb_free_wq);
	}
}
#endif

/*
 * An unmap must not read its pool once it has given the area lock back:
 * from then on the shrinker may retire the pool and free it. A default
 * pool that is full and two dynamic pools of one segment each: a whole
 * segment fills the older one, a page goes to the newer one, where the
 * search then found room, so that it is the hint. Unmapping the segment
 * gives back slots of a pool older than the hint, so the hint must be
 * dropped. The release seam frees that pool before the unmap returns.
 * An unmap that reads the pool's @seq after the unlock reads freed memory
 * (KASAN reports it) or the poison, and keeps the hint.
 */
static void swiotlb_test_shrink_unmap_race(struct kunit *test)
{
#if defined(CONFIG_SWIOTLB_SHRINK) && defined(SWIOTLB_KUNIT_OLDEST_FIRST) && \
	defined(CONFIG_DEBUG_FS)
	struct test_unmap_race race = { };
	struct swiotlb_test_ctx *ctx;
	struct io_tlb_pool *pool[2], *hint;
	phys_addr_t seg, tlb;
	unsigned int i;

	ctx = test_ctx_create(test, IO_TLB_SEGSIZE, true, NULL);
	test_fill_default_pool(test, ctx);
	for (i = 0; i < ARRAY_SIZE(pool); i++) {
		pool[i] = swiotlb_alloc_pool(NULL, IO_TLB_SEGSIZE,
					     IO_TLB_SEGSIZE, 1,
					     ctx->mem.phys_limit, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, pool[i]);
		add_mem_pool(&ctx->mem, pool[i]);
	}
	seg = test_map(ctx, ctx->orig, TEST_SEG_BYTES, 0, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE(test, seg, TEST_MAP_ERROR);
	KUNIT_ASSERT_PTR_EQ(test, test_pool_of(ctx, seg), pool[0]);
	tlb = test_map(ctx, ctx->orig, SZ_4K, 0, DMA_TO_DEVICE, 0);
	KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
	test_fill_add(test, ctx, tlb, SZ_4K);
	KUNIT_ASSERT_PTR_EQ(test, test_pool_of(ctx, tlb), pool[1]);
	KUNIT_ASSERT_PTR_EQ(test, READ_ONCE(ctx->mem.hint), pool[1]);

	race.mem = &ctx->mem;
	race.pool = pool[0];
	race.nslabs = pool[0]->nslabs;
	test_mem_enc_start(DMA_BIT_MASK(64), false);
	test_release_start(&ctx->mem, test_unmap_race_scan, &race);
	test_unmap(ctx, seg, TEST_SEG_BYTES, DMA_TO_DEVICE);
	test_release_stop();
	KUNIT_ASSERT_EQ_MSG(test, atomic_read(&test_release.ran), 1,
			    "the release seam did not run (swiotlb_count_freed() moved?)");
	KUNIT_EXPECT_EQ_MSG(test, race.freed, race.nslabs,
			    "the scan did not free the pool of the unmap");
	hint = READ_ONCE(ctx->mem.hint);
	KUNIT_EXPECT_PTR_EQ_MSG(test, hint, NULL,
				"the unmap read its pool after the shrinker had freed it, and kept the hint");
	test_wait_freed(test, 1);
	test_ctx_destroy(test, ctx);
#else
	kunit_skip(test, "needs the shrinker, the oldest-first search (0032) and debugfs");
#endif
}

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

	tlb = swiotlb_tbl_map_single(dev, page_to_phys(orig), SZ_4K, SZ_4K, 0,
				     DMA_TO_DEVICE, 0);
	KUNIT_EXPECT_NE(test, tlb, TEST_MAP_ERROR);
	if (tlb != TEST_MAP_ERROR) {
		KUNIT_EXPECT_GE(test, tlb, rmem.base);
		KUNIT_EXPECT_LE(test, tlb + SZ_4K, rmem.base + rmem.size);
		KUNIT_EXPECT_TRUE(test, is_swiotlb_buffer(dev, tlb));
		swiotlb_tbl_unmap_single(dev, tlb, SZ_4K, DMA_TO_DEVICE, 0);
	}
	rmem_swiotlb_device_release(&rmem, dev);
	KUNIT_EXPECT_PTR_EQ(test, dev->dma_io_tlb_mem, &io_tlb_default_mem);

	pool = &mem->defpool;
	KUNIT_EXPECT_EQ(test, mem_pool_used(pool), 0UL);
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
	swiotlb_init_io_tlb_pool(pool, page_to_phys(ctx->tlb_page) +
				 IO_TLB_SIZE, IO_TLB_SEGSIZE, true, 1);
	ctx->mem.nslabs = pool->nslabs;

	page = swiotlb_alloc(&ctx->dev, SZ_4K);
	if (page) {
		start = page_to_phys(page);
		KUNIT_EXPECT_GE_MSG(test, start, pool->start,
				    "got a page that starts before the pool");
		swiotlb_free(&ctx->dev, page, SZ_4K);
	}
	KUNIT_EXPECT_EQ(test, mem_pool_used(pool), 0UL);
	/* back to the pool test_ctx_destroy() frees */
	swiotlb_init_io_tlb_pool(pool, page_to_phys(ctx->tlb_page),
				 2 * IO_TLB_SEGSIZE, true, 1);
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
	KUNIT_EXPECT_EQ(test, mem_pool_used(pool), 0UL);
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
	tlb = swiotlb_tbl_map_single(&dev, page_to_phys(orig), SZ_4K, SZ_4K, 0,
				     DMA_TO_DEVICE, DMA_ATTR_NO_WARN);
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
