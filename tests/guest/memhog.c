// SPDX-License-Identifier: GPL-2.0-only
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
 * 2. Fork the holder, while memory is plentiful: a fork needs a kernel
 *    stack of order 3 on the KASAN kernel (2 without KASAN), and the OOM
 *    killer once came for a shell that forked at the tightest point.  So
 *    the caller runs memhog in the foreground and forks nothing until it
 *    returns.  The parent waits for the holder's word, writes its PID to
 *    PID_FILE and exits 0; it holds nothing whose freeing would make a
 *    free block again.
 * 3. The holder fills anonymous memory, 1 MiB at a time, until no free
 *    block of ORDER or more is left, or until MemFree is down to the
 *    zones' high watermarks plus LEFT_MIB (below them the OOM killer
 *    would come).
 * 4. It looks up the physical frame of each page in /proc/self/pagemap
 *    (root only), keeps one page in every ORDER-aligned block of frames it
 *    holds a page of, and gives all other pages back (munmap).  No block
 *    it kept a page in can become a free block of ORDER again.
 * 5. Memory that others freed meanwhile (the page tables of the ranges
 *    given back, the kernel's own) can make free blocks of ORDER again:
 *    while there is one, steps 3 and 4 run again, up to ROUNDS in all.
 * 6. It puts the watermarks back, tells the parent, and sleeps until it
 *    is killed.
 * The QEMU kernels have compaction, as Debian's do (it gives them
 * CONFIG_CONTIG_ALLOC), and compaction would move the kept pages and
 * make order-8 blocks again (kcompactd does, as soon as the fill is
 * trimmed).  So the holder locks its memory from the start
 * (mlockall(MCL_FUTURE)), and vm.compact_unevictable_allowed is set to 0
 * (where it exists), which keeps compaction off locked pages; it stays
 * 0, and the caller sets it back.  alloc_contig_pages() still moves them,
 * but only pools above 4 MiB come from there.  There is no swap.
 * A fill that runs down to a nearly empty MemFree is no use: the KASAN
 * kernel forks with order-3 stacks, and an earlier version of this hog
 * got fio's fork OOM-killed that way.
 * Prints what each round did.
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

/* What the holder keeps between rounds. */
struct hog {
	long page, npages, left_kib;
	int order;
	char **chunks;
	unsigned long held, cap, trimmed, kept, freed;
	uint8_t *blocks;		/* one bit per ORDER-aligned block kept */
	size_t map_bytes;
	uint64_t *pm;
};

/*
 * Fill anonymous memory (locked: mlockall(MCL_FUTURE)) 1 MiB at a time
 * until no free block of ORDER or more is left, or MemFree is down to the
 * high watermarks plus LEFT_MIB.  Returns 0, or -1 on failure.
 */
static int fill(struct hog *h)
{
	char *chunk;

	for (;;) {
		long floor_kib = high_watermarks_kib() + h->left_kib;

		if (meminfo_kib("MemFree") <= floor_kib || !free_blocks(h->order))
			return 0;
		chunk = mmap(NULL, MIB, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (chunk == MAP_FAILED) {
			perror("memhog: mmap");
			return -1;
		}
		memset(chunk, 0x5a, MIB);
		if (h->held == h->cap) {
			h->cap = h->cap ? 2 * h->cap : 256;
			h->chunks = realloc(h->chunks, h->cap * sizeof(*h->chunks));
			if (!h->chunks)
				return -1;
		}
		h->chunks[h->held++] = chunk;
	}
}

/*
 * Keep the first page met in each ORDER-aligned block of frames (over
 * every round) in the chunks filled since the last trim; munmap the runs
 * of pages between kept ones.  Returns 0, or -1 on failure.
 */
static int trim(struct hog *h)
{
	long i, run;
	int fd, was;

	fd = open("/proc/self/pagemap", O_RDONLY);
	if (fd < 0) {
		perror("memhog: /proc/self/pagemap");
		return -1;
	}
	for (; h->trimmed < h->held; h->trimmed++) {
		char *chunk = h->chunks[h->trimmed];
		off_t off = (off_t)((uintptr_t)chunk / h->page) * sizeof(*h->pm);

		if (pread(fd, h->pm, h->npages * sizeof(*h->pm), off) !=
		    (ssize_t)(h->npages * sizeof(*h->pm))) {
			perror("memhog: pagemap read");
			close(fd);
			return -1;
		}
		for (i = 0, run = 0; i <= h->npages; i++) {
			if (i < h->npages) {
				uint64_t e = h->pm[i];

				if (!(e & PM_PRESENT) || !(e & PM_PFN_MASK)) {
					fprintf(stderr, "memhog: pagemap shows no frame (not root?)\n");
					close(fd);
					return -1;
				}
				was = test_and_set(&h->blocks, &h->map_bytes,
						   (e & PM_PFN_MASK) >> h->order);
				if (was < 0) {
					close(fd);
					return -1;
				}
				if (was)
					continue;
				h->kept++;
			}
			if (i > run) {
				if (munmap(chunk + run * h->page, (i - run) * h->page)) {
					perror("memhog: munmap");
					close(fd);
					return -1;
				}
				h->freed += i - run;
			}
			run = i + 1;
		}
	}
	close(fd);
	return 0;
}

#define ROUNDS 4

/*
 * The holder: fill and trim, again while a free block of ORDER is left
 * (memory that others freed meanwhile: the page tables of the trimmed
 * ranges, the kernel's own), at most ROUNDS times.  Says on @ready
 * whether the pressure is built, then sleeps until it is killed.
 */
static void holder(struct hog *h, int ready, long min_free, long wsf)
{
	char ok = 0;
	int round, fd;

	if (mlockall(MCL_CURRENT | MCL_FUTURE)) {
		perror("memhog: mlockall");
		goto out;
	}
	for (round = 1; round <= ROUNDS; round++) {
		if (fill(h))
			goto out;
		printf("memhog: round %d: filled %lu MiB in all, MemFree %ld MiB, free blocks of order %d or more: %ld\n",
		       round, h->held, meminfo_kib("MemFree") / 1024, h->order,
		       free_blocks(h->order));
		if (trim(h))
			goto out;
		printf("memhog: round %d: keeps %lu KiB (one page per order-%d block), gave back %lu MiB, MemFree %ld MiB, free blocks of order %d or more: %ld, of order 3 or more: %ld\n",
		       round, h->kept * h->page / 1024, h->order,
		       h->freed * h->page / MIB, meminfo_kib("MemFree") / 1024,
		       h->order, free_blocks(h->order), free_blocks(3));
		fflush(stdout);
		if (!free_blocks(h->order))
			break;
	}
	ok = 1;
out:
	if (sysctl_set(MIN_FREE, min_free) || sysctl_set(WSF, wsf)) {
		perror("memhog: cannot restore the watermarks");
		ok = 0;
	}
	fflush(stdout);
	if (write(ready, &ok, 1) != 1 || !ok)
		_exit(1);
	close(ready);
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

int main(int argc, char **argv)
{
	struct hog h = { .page = sysconf(_SC_PAGESIZE) };
	long min_free, wsf;
	int ready[2];
	char ok = 0;
	FILE *pidf;
	pid_t child;

	if (argc != 4 || atol(argv[1]) <= 0 || atoi(argv[2]) <= 0 ||
	    atoi(argv[2]) > 10) {
		fprintf(stderr, "usage: %s LEFT_MIB ORDER PID_FILE (ORDER 1 to 10)\n",
			argv[0]);
		return 2;
	}
	h.left_kib = atol(argv[1]) * 1024;
	h.order = atoi(argv[2]);
	h.npages = MIB / h.page;
	h.pm = calloc(MIB / 4096, sizeof(*h.pm));
	if (!h.pm || h.page > 4096)
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
	fflush(stdout);
	/* forked while memory is plentiful; the holder fills it */
	if (pipe(ready) < 0) {
		perror("memhog: pipe");
		return 1;
	}
	child = fork();
	if (child < 0) {
		perror("memhog: fork");
		return 1;
	}
	if (!child) {
		close(ready[0]);
		holder(&h, ready[1], min_free, wsf);
	}
	close(ready[1]);
	if (read(ready[0], &ok, 1) != 1 || !ok) {
		fprintf(stderr, "memhog: the holder could not build the pressure\n");
		kill(child, SIGKILL);
		return 1;
	}
	close(ready[0]);
	pidf = fopen(argv[3], "w");
	if (!pidf || fprintf(pidf, "%d\n", (int)child) < 0 || fclose(pidf)) {
		perror("memhog: pid file");
		kill(child, SIGKILL);
		return 1;
	}
	return 0;
}
