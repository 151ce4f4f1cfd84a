// SPDX-License-Identifier: GPL-2.0-only
/*
 * The index of the dynamic pools (patch 0028), the sorted array that a
 * lookup by address bisects: its bounds, and lookups while it is updated.
 * Included by swiotlb_dynamic_kunit.c, not built on its own.
 */

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
