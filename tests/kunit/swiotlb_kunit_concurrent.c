// SPDX-License-Identifier: GPL-2.0-only
/*
 * Concurrent maps, unmaps and checks while the allocator grows (the thread
 * helpers serve the shrinker cases too), and a slot search on a full pool
 * that must end. Included by swiotlb_dynamic_kunit.c, not built on its own.
 */

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
		tlb[slot] = test_tbl_map(&ctx->dev, virt_to_phys(buf),
					 size[slot], 0, DMA_BIDIRECTIONAL,
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
		KUNIT_EXPECT_EQ(test, test_pool_used(pool), 0UL);
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
	/*
	 * The transient pool: with room for the alignment (patch 0010),
	 * which 6.12's has not; there the map fails, and is not asked for.
	 */
	if (test_transient_fits(&ctx->dev, 0, ctx->orig + 0x800)) {
		ctx->mem.can_grow = true;
		tlb = test_map(ctx, ctx->orig + 0x800, SZ_4K, 0, DMA_TO_DEVICE,
			       0);
		KUNIT_ASSERT_NE(test, tlb, TEST_MAP_ERROR);
		KUNIT_EXPECT_EQ(test, test_kind_of(ctx, tlb), KIND_TRANSIENT);
		KUNIT_EXPECT_EQ(test, tlb & (SZ_4K - 1), (phys_addr_t)0x800);
		KUNIT_EXPECT_LE_MSG(test, tlb + SZ_4K,
				    test_pool_of(ctx, tlb)->end,
				    "transient buffer ends past its pool");
		test_unmap(ctx, tlb, SZ_4K, DMA_TO_DEVICE);
	} else {
		kunit_info(test, "no room for the alignment in 6.12's transient pool: the transient map is not asked for\n");
	}
#endif
	dma_set_min_align_mask(&ctx->dev, 0);

	/* drop the entries freed above before the common cleanup */
	for (i = 0, kept = 0; i < ctx->nfill; i++)
		if (ctx->fill[i])
			ctx->fill[kept++] = ctx->fill[i];
	ctx->nfill = kept;
	test_ctx_destroy(test, ctx);
}
