// SPDX-License-Identifier: GPL-2.0
/*
 * memhog - the memory pressure of the debug-kernel tests, step 4 (in the guest).
 *
 * usage: memhog LEFT_MIB ORDER PID_FILE
 *
 * Fragments physical memory so that no free block of ORDER (or more) is
 * left, while plenty of memory stays free in smaller blocks.  The swiotlb
 * grow worker needs a block of order 8 (1 MiB, IO_TLB_MIN_SLABS) at the
 * least, and a transient pool for a mapping of 256 KiB one of order 6, so
 * with ORDER 6 every grow fails, and so does every transient pool of a
 * 256 KiB mapping, while those of smaller mappings, fork and everything
 * else that needs order 0 to 3 go on working.
 *
 * 1. Lower the zones' watermarks (vm.min_free_kbytes 256, and
 *    vm.watermark_scale_factor 1): the free memory that is left at the
 *    end of a fill is in the largest blocks (the buddy allocator splits
 *    the smallest block that fits), so a fill that stops at the default
 *    high watermarks (5.6 MiB on a 1 GiB guest) leaves a few MiB of
 *    blocks that the grow worker takes.
 * 2. Fill anonymous memory, 1 MiB at a time, until no free block of ORDER
 *    or more is left, or until MemFree is down to the zones' high
 *    watermarks plus LEFT_MIB (below them the OOM killer would come).
 * 3. Look up the physical frame of each page in /proc/self/pagemap (root
 *    only) and keep one page in every ORDER-aligned block of frames it
 *    holds a page of; give all other pages back (munmap).  No block it
 *    kept a page in can become a free block of ORDER again.
 * 4. Put the watermarks back.
 * The QEMU kernels have compaction, as Debian's do (it gives them
 * CONFIG_CONTIG_ALLOC), and compaction would move the kept pages and
 * make order-8 blocks again (kcompactd does, as soon as the fill is
 * trimmed).  So the fill is locked from the start, the child below locks
 * the pages again, and vm.compact_unevictable_allowed is set to 0 (where
 * it exists), which keeps compaction off locked pages; it stays 0, and
 * the caller sets it back.  alloc_contig_pages() still moves them, but
 * only pools above 4 MiB come from there.  There is no swap.
 * A fill that runs down to a nearly empty MemFree is no use: the
 * KASAN kernel forks with order-3 stacks, and an earlier version of this
 * hog got fio's fork OOM-killed that way.
 *
 * 5. Fork a child that holds the pages, locks them (locks are not
 *    inherited) and sleeps until it is killed, write its PID to
 *    PID_FILE, and exit 0.
 * So the caller runs memhog in the foreground and forks nothing while the
 * fill has memory at its tightest: a fork then needs a kernel stack of
 * order 3 on the KASAN kernel (2 without KASAN), and the OOM killer came
 * for a shell that polled for a ready file with sleep 1.
 * Prints what it did.
 * Exit status: 2 on bad usage, 1 if it could not build the pressure.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#define MIB (1024UL * 1024UL)
#define PM_PRESENT (1ULL << 63)
#define PM_PFN_MASK ((1ULL << 55) - 1)

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

/* Free blocks of order @min or more, over all zones (/proc/buddyinfo). */
static long free_blocks(int min)
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
			if (order >= min)
				n += count;
			p += used;
		}
	}
	fclose(f);
	return n;
}

/* Read a number from a sysctl file into @val (-1 on failure). */
static int sysctl_get(const char *path, long *val)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%ld", val) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

static int sysctl_set(const char *path, long val)
{
	FILE *f = fopen(path, "w");
	int err;

	if (!f)
		return -1;
	err = fprintf(f, "%ld\n", val) < 0;
	err |= fclose(f) != 0;
	return err ? -1 : 0;
}

#define MIN_FREE "/proc/sys/vm/min_free_kbytes"
#define WSF "/proc/sys/vm/watermark_scale_factor"
#define UNEVICTABLE "/proc/sys/vm/compact_unevictable_allowed"

/* Set bit @nr of the growing bitmap; returns its old value, -1 on ENOMEM. */
static int test_and_set(uint8_t **map, size_t *bytes, uint64_t nr)
{
	size_t need = nr / 8 + 1, grow;
	int old;

	if (need > *bytes) {
		grow = need * 2;
		*map = realloc(*map, grow);
		if (!*map)
			return -1;
		memset(*map + *bytes, 0, grow - *bytes);
		*bytes = grow;
	}
	old = !!((*map)[nr / 8] & (1U << (nr % 8)));
	(*map)[nr / 8] |= 1U << (nr % 8);
	return old;
}

int main(int argc, char **argv)
{
	long left_kib, page = sysconf(_SC_PAGESIZE), npages = MIB / page;
	unsigned long held = 0, cap = 0, n, kept = 0, freed = 0;
	char **chunks = NULL, *chunk;
	uint64_t *pm = calloc(MIB / 4096, sizeof(*pm));
	uint8_t *blocks = NULL;
	size_t map_bytes = 0;
	long i, run, min_free, wsf;
	int order, fd, was, locked[2];
	char lock_ok = 0;
	FILE *pidf;
	pid_t child;

	if (argc != 4 || atol(argv[1]) <= 0 || atoi(argv[2]) <= 0 ||
	    atoi(argv[2]) > 10) {
		fprintf(stderr, "usage: %s LEFT_MIB ORDER PID_FILE (ORDER 1 to 10)\n",
			argv[0]);
		return 2;
	}
	left_kib = atol(argv[1]) * 1024;
	order = atoi(argv[2]);
	if (!pm || page > 4096)
		return 1;
	if (sysctl_get(MIN_FREE, &min_free) || sysctl_get(WSF, &wsf) ||
	    sysctl_set(MIN_FREE, 256) || sysctl_set(WSF, 1)) {
		perror("memhog: cannot lower the watermarks");
		return 1;
	}
	if (!access(UNEVICTABLE, F_OK) && sysctl_set(UNEVICTABLE, 0)) {
		perror("memhog: cannot keep compaction off locked pages");
		return 1;
	}
	/* locked from the start: kcompactd works while the fill is trimmed */
	if (mlockall(MCL_CURRENT | MCL_FUTURE)) {
		perror("memhog: mlockall");
		return 1;
	}

	for (;;) {
		long floor_kib = high_watermarks_kib() + left_kib;

		if (meminfo_kib("MemFree") <= floor_kib || !free_blocks(order))
			break;
		chunk = mmap(NULL, MIB, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (chunk == MAP_FAILED) {
			perror("memhog: mmap");
			return 1;
		}
		memset(chunk, 0x5a, MIB);
		if (held == cap) {
			cap = cap ? 2 * cap : 256;
			chunks = realloc(chunks, cap * sizeof(*chunks));
			if (!chunks)
				return 1;
		}
		chunks[held++] = chunk;
	}
	printf("memhog: filled %lu MiB, MemFree %ld MiB, free blocks of order %d or more: %ld\n",
	       held, meminfo_kib("MemFree") / 1024, order, free_blocks(order));

	fd = open("/proc/self/pagemap", O_RDONLY);
	if (fd < 0) {
		perror("memhog: /proc/self/pagemap");
		return 1;
	}
	for (n = 0; n < held; n++) {
		off_t off = (off_t)((uintptr_t)chunks[n] / page) * sizeof(*pm);

		if (pread(fd, pm, npages * sizeof(*pm), off) !=
		    (ssize_t)(npages * sizeof(*pm))) {
			perror("memhog: pagemap read");
			return 1;
		}
		/*
		 * Keep the first page met in each block; munmap the runs
		 * of pages between kept ones.
		 */
		for (i = 0, run = 0; i <= npages; i++) {
			if (i < npages) {
				if (!(pm[i] & PM_PRESENT) || !(pm[i] & PM_PFN_MASK)) {
					fprintf(stderr, "memhog: pagemap shows no frame (not root?)\n");
					return 1;
				}
				was = test_and_set(&blocks, &map_bytes,
						   (pm[i] & PM_PFN_MASK) >> order);
				if (was < 0)
					return 1;
				if (was)
					continue;
				kept++;
			}
			if (i > run) {
				if (munmap(chunks[n] + run * page, (i - run) * page)) {
					perror("memhog: munmap");
					return 1;
				}
				freed += i - run;
			}
			run = i + 1;
		}
	}
	close(fd);
	if (sysctl_set(MIN_FREE, min_free) || sysctl_set(WSF, wsf)) {
		perror("memhog: cannot restore the watermarks");
		return 1;
	}

	printf("memhog: keeps %lu KiB (one page per order-%d block), gave back %lu MiB, MemFree %ld MiB, free blocks of order %d or more: %ld, of order 3 or more: %ld\n",
	       kept * page / 1024, order, freed * page / MIB,
	       meminfo_kib("MemFree") / 1024, order, free_blocks(order),
	       free_blocks(3));
	fflush(stdout);

	/* The child shares the kept pages; they stay when the parent exits. */
	if (pipe(locked) < 0) {
		perror("memhog: pipe");
		return 1;
	}
	child = fork();
	if (child < 0) {
		perror("memhog: fork");
		return 1;
	}
	if (!child) {
		char ok = !mlockall(MCL_CURRENT);

		if (write(locked[1], &ok, 1) != 1 || !ok)
			_exit(1);
		close(locked[0]);
		close(locked[1]);
		fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		setsid();
		for (;;)
			pause();
	}
	close(locked[1]);
	if (read(locked[0], &lock_ok, 1) != 1 || !lock_ok) {
		fprintf(stderr, "memhog: the child could not lock the pages\n");
		kill(child, SIGKILL);
		return 1;
	}
	close(locked[0]);
	pidf = fopen(argv[3], "w");
	if (!pidf || fprintf(pidf, "%d\n", (int)child) < 0 || fclose(pidf)) {
		perror("memhog: pid file");
		kill(child, SIGKILL);
		return 1;
	}
	return 0;
}
