/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Test seam for the KUnit suite of the dynamic software IO TLB.
 *
 * The test-only hook (tests/kunit/swiotlb-kunit-hook.patch) includes this
 * header near the top of kernel/dma/swiotlb.c, after its #includes. From
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
 * nothing. Otherwise both pass on to the real functions.
 *
 * atomic_long_sub() goes through the suite as well. Its one caller in
 * swiotlb.c, swiotlb_count_freed() (CONFIG_DEBUG_FS), runs right after
 * swiotlb_release_slots() has given the area lock back: from there on,
 * nothing keeps the pool alive, and the shrinker may retire and free it.
 * A test case can run code at that point, once (the release seam).
 */
#ifndef _SWIOTLB_DYNAMIC_KUNIT_H
#define _SWIOTLB_DYNAMIC_KUNIT_H

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

#endif /* _SWIOTLB_DYNAMIC_KUNIT_H */
