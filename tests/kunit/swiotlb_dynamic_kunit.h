/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Test seam for the KUnit suite of the dynamic software IO TLB.
 *
 * The test-only hook (tests/kunit/swiotlb-kunit-hook.patch, or on 6.12
 * swiotlb-kunit-hook-6.12.patch) includes this header near the top of
 * kernel/dma/swiotlb.c, after its #includes. From
 * here on, swiotlb.c's calls of set_memory_decrypted() and
 * set_memory_encrypted() go through two functions of the suite
 * (swiotlb_dynamic_kunit.c), which pass them on to the real ones. While a
 * test case records, they note which pages are decrypted and encrypted
 * again and in which context, and they can make decryption fail. x86
 * without memory encryption has nothing else to observe: there both calls
 * do nothing.
 *
 * memremap() and memunmap() go through the suite too. While a test case
 * plays a Hyper-V isolation VM (it sets swiotlb_unencrypted_base), the
 * seam notes which range swiotlb.c maps above the "shared GPA boundary"
 * and hands back the linear address of the same pages, as no such
 * boundary exists here; the matching memunmap() is noted and does
 * nothing. Otherwise both pass on to the real functions. Mainline (Debian's
 * 6.12) has no swiotlb_unencrypted_base, and its swiotlb.c calls neither.
 *
 * atomic_long_sub() goes through the suite as well. Its one caller in
 * swiotlb.c, swiotlb_count_freed() (CONFIG_DEBUG_FS), runs right after
 * swiotlb_release_slots() has given the area lock back: from there on,
 * nothing keeps the pool alive, and the shrinker may retire and free it.
 * A test case can run code at that point, once (the release seam).
 *
 * The allocations of a pool go through the suite too (the allocation
 * seam): alloc_contig_pages() and free_contig_range(), which it counts,
 * kvcalloc(), and kmalloc(). While a test case injects, and only in its
 * own task, the seam can make a contiguous range, a slot array, or any
 * allocation that may not sleep fail, and it can make swiotlb.c see
 * other totals of RAM and highmem (totalram_pages(), totalhigh_pages()).
 * Otherwise all pass on to the real functions. Since 6.10 (memory
 * allocation profiling) kmalloc(), kvcalloc() and alloc_contig_pages()
 * are macros, which "(kmalloc)(...)" would not call: the seam passes on
 * to them through the swiotlb_kunit_real_*() below, which take them before
 * the seam's defines replace them.
 *
 * Every list_for_each_entry_rcu() of swiotlb.c counts its steps through
 * the one list that a test case watches (the walk seam): the pools that
 * a slot search passes, or that a lookup by address walks, one count per
 * entry. The count is off behind a static key unless a case turns it on,
 * so that the measurements of the suite see the code that swiotlb.c has.
 */
#ifndef _SWIOTLB_DYNAMIC_KUNIT_H
#define _SWIOTLB_DYNAMIC_KUNIT_H

#include <linux/gfp.h>
#include <linux/jump_label.h>
#include <linux/rculist.h>
#include <linux/slab.h>

/* the kernel's own, whether a function (6.1) or a macro (6.12) */
static __always_inline void *swiotlb_kunit_real_kmalloc(size_t size,
							 gfp_t flags)
{
	return kmalloc(size, flags);
}

static __always_inline void *swiotlb_kunit_real_kvcalloc(size_t n,
							  size_t size,
							  gfp_t flags)
{
	return kvcalloc(n, size, flags);
}

#ifdef CONFIG_CONTIG_ALLOC
static __always_inline struct page *
swiotlb_kunit_real_alloc_contig_pages(unsigned long nr_pages, gfp_t gfp,
				      int nid, nodemask_t *nodemask)
{
	return alloc_contig_pages(nr_pages, gfp, nid, nodemask);
}
#endif

static int swiotlb_kunit_set_memory_decrypted(unsigned long addr,
					      int numpages);
static int swiotlb_kunit_set_memory_encrypted(unsigned long addr,
					      int numpages);

static void *swiotlb_kunit_memremap(resource_size_t offset, size_t size,
				    unsigned long flags);
static void swiotlb_kunit_memunmap(void *addr);

#define memremap(offset, size, flags) \
	swiotlb_kunit_memremap(offset, size, flags)
#define memunmap(addr) \
	swiotlb_kunit_memunmap(addr)
static void swiotlb_kunit_atomic_long_sub(long i, atomic_long_t *v);

#define atomic_long_sub(i, v) \
	swiotlb_kunit_atomic_long_sub(i, v)
#define set_memory_decrypted(addr, numpages) \
	swiotlb_kunit_set_memory_decrypted(addr, numpages)
#define set_memory_encrypted(addr, numpages) \
	swiotlb_kunit_set_memory_encrypted(addr, numpages)


#ifdef CONFIG_CONTIG_ALLOC
static struct page *swiotlb_kunit_alloc_contig_pages(unsigned long nr_pages,
						     gfp_t gfp, int nid,
						     nodemask_t *nodemask);
static void swiotlb_kunit_free_contig_range(unsigned long pfn,
					    unsigned long nr_pages);

#undef alloc_contig_pages
#define alloc_contig_pages(nr_pages, gfp, nid, nodemask) \
	swiotlb_kunit_alloc_contig_pages(nr_pages, gfp, nid, nodemask)
#define free_contig_range(pfn, nr_pages) \
	swiotlb_kunit_free_contig_range(pfn, nr_pages)
#endif
static void *swiotlb_kunit_kvcalloc(size_t n, size_t size, gfp_t flags);
static void *swiotlb_kunit_kmalloc(size_t size, gfp_t flags);
static unsigned long swiotlb_kunit_totalram_pages(void);
static unsigned long swiotlb_kunit_totalhigh_pages(void);

#undef kvcalloc
#define kvcalloc(n, size, flags) \
	swiotlb_kunit_kvcalloc(n, size, flags)
#undef kmalloc
#define kmalloc(size, flags) \
	swiotlb_kunit_kmalloc(size, flags)
#define totalram_pages() \
	swiotlb_kunit_totalram_pages()
#define totalhigh_pages() \
	swiotlb_kunit_totalhigh_pages()

/* unused where swiotlb.c walks no list (CONFIG_SWIOTLB_DYNAMIC=n) */
static __maybe_unused DEFINE_STATIC_KEY_FALSE(swiotlb_kunit_walk_on);
static const struct list_head *swiotlb_kunit_walk_list __maybe_unused;
static unsigned long swiotlb_kunit_walk_steps __maybe_unused;

static inline bool swiotlb_kunit_walk_step(const struct list_head *head)
{
	if (head == READ_ONCE(swiotlb_kunit_walk_list))
		swiotlb_kunit_walk_steps++;
	return true;
}

/* rculist.h's definition, with the step counted where the key is on */
#undef list_for_each_entry_rcu
#define list_for_each_entry_rcu(pos, head, member, cond...)		\
	for (__list_check_rcu(dummy, ## cond, 0),			\
	     pos = list_entry_rcu((head)->next, typeof(*pos), member);	\
		&pos->member != (head) &&				\
		(!static_branch_unlikely(&swiotlb_kunit_walk_on) ||	\
		 swiotlb_kunit_walk_step(head));			\
		pos = list_entry_rcu(pos->member.next, typeof(*pos), member))

#endif /* _SWIOTLB_DYNAMIC_KUNIT_H */
