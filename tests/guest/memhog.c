// SPDX-License-Identifier: GPL-2.0
/*
 * memhog - the memory pressure of issue 8, step 4 (in the guest).
 *
 * usage: memhog LEFT_MIB FRAG_MIB READY_FILE
 *
 * Fills anonymous memory, 1 MiB at a time, until no free block of 1 MiB
 * or more (order 8) is left, or until MemFree is down to the zones' high
 * watermarks plus LEFT_MIB (below them the OOM killer would come).  Then
 * it gives FRAG_MIB back as single pages: every other page of the first
 * 2 * FRAG_MIB it took.  The kernel then has free memory for order-0
 * allocations (fio, the transient pools of small mappings) but few or no
 * free blocks of 1 MiB, which the swiotlb grow worker needs.  (The test
 * kernel has no compaction and no swap, so the pages stay put.)
 * Prints what it did and creates READY_FILE when it holds its memory,
 * then sleeps until it is killed.
 * Exit status: 2 on bad usage, 1 if it could not build the pressure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#define MIB (1024UL * 1024UL)

static long meminfo_kib(const char *key)
{
	char line[256];
	size_t len = strlen(key);
	long val = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, len) && line[len] == ':') {
			val = strtol(line + len + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return val;
}

/* Sum of the "high" watermarks of all zones, in KiB (/proc/zoneinfo). */
static long high_watermarks_kib(void)
{
	char line[256], word[64];
	long pages, sum = 0;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " %63s %ld", word, &pages) == 2 &&
		    !strcmp(word, "high"))
			sum += pages;
	}
	fclose(f);
	return sum * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Free blocks of order 8 (1 MiB) or more, over all zones (/proc/buddyinfo). */
static long big_free_blocks(void)
{
	char line[512], *p;
	long n = 0, count;
	int order, used;
	FILE *f = fopen("/proc/buddyinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, "zone");
		if (!p || sscanf(p, "zone %*s%n", &used) != 0)
			continue;
		p += used;
		for (order = 0; sscanf(p, "%ld%n", &count, &used) == 1; order++) {
			if (order >= 8)
				n += count;
			p += used;
		}
	}
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	long left_kib, frag_mib, page = sysconf(_SC_PAGESIZE);
	unsigned long held = 0, freed = 0, n, i;
	char **chunks = NULL, *chunk;
	FILE *ready;

	if (argc != 4 || atol(argv[1]) <= 0 || atol(argv[2]) <= 0) {
		fprintf(stderr, "usage: %s LEFT_MIB FRAG_MIB READY_FILE\n", argv[0]);
		return 2;
	}
	left_kib = atol(argv[1]) * 1024;
	frag_mib = atol(argv[2]);
	chunks = calloc(2 * frag_mib, sizeof(*chunks));
	if (!chunks)
		return 1;

	for (;;) {
		long floor_kib = high_watermarks_kib() + left_kib;

		if (meminfo_kib("MemFree") <= floor_kib || !big_free_blocks())
			break;
		chunk = mmap(NULL, MIB, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (chunk == MAP_FAILED) {
			perror("memhog: mmap");
			return 1;
		}
		memset(chunk, 0x5a, MIB);
		if (held < 2UL * frag_mib)
			chunks[held] = chunk;
		held++;
	}
	if (held < 2UL * frag_mib) {
		fprintf(stderr, "memhog: held only %lu MiB, cannot give back %ld MiB as single pages\n",
			held, frag_mib);
		return 1;
	}

	/* Every other page of the first 2 * FRAG_MIB chunks. */
	for (n = 0; n < 2UL * frag_mib; n++) {
		for (i = 0; i < MIB; i += 2 * page) {
			/* munmap, not madvise: tinyconfig has no ADVISE_SYSCALLS */
			if (munmap(chunks[n] + i, page)) {
				perror("memhog: munmap");
				return 1;
			}
			freed += page;
		}
	}

	printf("memhog: holding %lu MiB, gave back %lu MiB as single pages, MemFree %ld MiB, free blocks of 1 MiB or more: %ld\n",
	       held - freed / MIB, freed / MIB, meminfo_kib("MemFree") / 1024,
	       big_free_blocks());
	fflush(stdout);
	ready = fopen(argv[3], "w");
	if (!ready) {
		perror("memhog: ready file");
		return 1;
	}
	fclose(ready);
	for (;;)
		pause();
}
