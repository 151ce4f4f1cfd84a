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
#define set_memory_decrypted(addr, numpages) \
	swiotlb_kunit_set_memory_decrypted(addr, numpages)
#define set_memory_encrypted(addr, numpages) \
	swiotlb_kunit_set_memory_encrypted(addr, numpages)

#endif /* _SWIOTLB_DYNAMIC_KUNIT_H */
