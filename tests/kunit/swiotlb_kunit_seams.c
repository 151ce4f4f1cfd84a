// SPDX-License-Identifier: GPL-2.0-only
/*
 * The seams that record and inject what swiotlb.c calls: encryption,
 * memremap(), the release of slots, allocations.  Included by
 * swiotlb_dynamic_kunit.c, not built on its own.
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
