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
 */
#ifndef _SWIOTLB_DYNAMIC_KUNIT_H
#define _SWIOTLB_DYNAMIC_KUNIT_H

static int swiotlb_kunit_set_memory_decrypted(unsigned long addr,
					      int numpages);
static int swiotlb_kunit_set_memory_encrypted(unsigned long addr,
					      int numpages);

#define set_memory_decrypted(addr, numpages) \
	swiotlb_kunit_set_memory_decrypted(addr, numpages)
#define set_memory_encrypted(addr, numpages) \
	swiotlb_kunit_set_memory_encrypted(addr, numpages)

#endif /* _SWIOTLB_DYNAMIC_KUNIT_H */
