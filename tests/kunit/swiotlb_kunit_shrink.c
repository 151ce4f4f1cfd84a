// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shrinker that frees idle dynamic pools: which pools it frees and which
 * it keeps, alone, under load and over time, and an unmap racing with the
 * free of its pool. Included by swiotlb_dynamic_kunit.c, not built on its
 * own.
 */

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
 * After test_mem_enc_watch(), only that pool counts.  Then stop
 * recording.
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

	test_mem_enc_watch(pool);
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

	test_mem_enc_watch(pool);
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

	test_mem_enc_watch(pool);
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
	test_mem_enc_watch(pool);
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
	test_mem_enc_watch(pool[0]);
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
