/* tests/asan/lsan_roots.c - LeakSanitizer's roots for build-asan/'s programs,
 * without the sanitizer runtime's stack depot.
 *
 * Linked into the ASan + UBSan programs and unit tests only, as a member of
 * the copy of the ASan runtime archive they link (build-asan/asan-rt/libasan.a,
 * made by tests/asan/runtime.sh); never into build/, the library or
 * anything installed.
 *
 * At exit LeakSanitizer scans, for pointers into the heap, every writable
 * PT_LOAD segment of every loaded module (its "globals"), leaving out the
 * allocator's own state.  In these programs the biggest part of that is the
 * statically linked runtime's stack depot: 4.75 MB of .bss (the hash table
 * of stack ids, the maps of its own mmap'd stack store), ~1,200 pages a
 * short process never touches, which the scan then faults in one by one
 * (the dearest part of an ASan process's exit on a virtual machine).
 * Those bytes are stack ids and pointers into the runtime's own mappings,
 * never the address of a heap block, so they can keep no block reachable:
 * tests/asan/runtime.sh checks, on the runtime it copies, that the depot's
 * object holds nothing else in its .bss before it moves that .bss into the
 * section kw_asan_noroots (and else links the runtime as shipped).
 *
 * So: __lsan_default_options turns the runtime's own global scan off
 * (use_globals=0) and kw_asan_roots(), an exit handler that runs just
 * before the leak check, registers the same ranges as root regions
 * (__lsan_register_root_region, LeakSanitizer's public interface): every
 * writable PT_LOAD segment of every module loaded at exit, minus the
 * allocator's range (GetAllocatorGlobalRange, as the runtime's own scan
 * leaves it out) and minus kw_asan_noroots.  LeakSanitizer scans root
 * regions with the same code (ScanRangeForPointers, tag "reachable").
 * Leaving a range out can only make more blocks unreachable (a false
 * report, which fails the suite), never hide a leak.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>
#include <stdlib.h>

/* the ends of the stack depot's .bss (runtime.sh renames it); zero when
 * the runtime was linked as shipped */
extern char __start_kw_asan_noroots[] __attribute__((weak));
extern char __stop_kw_asan_noroots[] __attribute__((weak));

/* LeakSanitizer's interface (sanitizer/lsan_interface.h) */
void __lsan_register_root_region(const void *p, size_t size);
const char *__lsan_default_options(void);
/* __lsan::GetAllocatorGlobalRange(uptr *begin, uptr *end): the range the
 * runtime's global scan leaves out (lsan_common_linux.cpp ScanGlobalRange);
 * a hidden symbol of the same static runtime */
void _ZN6__lsan23GetAllocatorGlobalRangeEPmS0_(unsigned long *begin, unsigned long *end);
void kw_asan_roots(void);

/* Called by the runtime at start, before it reads LSAN_OPTIONS (which can
 * still override it). */
const char *__lsan_default_options(void)
{
	return "use_globals=0";
}

/* The ranges left out of every segment, sorted by address. */
struct gaps {
	uintptr_t begin[2], end[2];
	int n;
};

static void register_roots(uintptr_t begin, uintptr_t end, const struct gaps *g)
{
	for (int i = 0; i < g->n && begin < end; i++) {
		if (g->end[i] <= begin || g->begin[i] >= end)
			continue;
		if (g->begin[i] > begin)
			__lsan_register_root_region((const void *)begin, g->begin[i] - begin);
		begin = g->end[i];
	}
	if (begin < end)
		__lsan_register_root_region((const void *)begin, end - begin);
}

/* what lsan_common_linux.cpp ProcessGlobalRegionsCallback scans */
static int module_segments(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W) || ph->p_memsz == 0)
			continue;
		uintptr_t begin = info->dlpi_addr + ph->p_vaddr;
		register_roots(begin, begin + ph->p_memsz, arg);
	}
	return 0;
}

static void add_gap(struct gaps *g, uintptr_t begin, uintptr_t end)
{
	if (begin >= end)
		return;
	int i = g->n++;
	for (; i > 0 && g->begin[i - 1] > begin; i--) {
		g->begin[i] = g->begin[i - 1];
		g->end[i] = g->end[i - 1];
	}
	g->begin[i] = begin;
	g->end[i] = end;
}

/* At exit, after every dlopen: the modules loaded then are the ones the
 * runtime's own scan would have walked. */
void kw_asan_roots(void)
{
	struct gaps g = {.n = 0};
	unsigned long ab = 0, ae = 0;
	_ZN6__lsan23GetAllocatorGlobalRangeEPmS0_(&ab, &ae);
	add_gap(&g, ab, ae);
	add_gap(&g, (uintptr_t)__start_kw_asan_noroots, (uintptr_t)__stop_kw_asan_noroots);
	dl_iterate_phdr(module_segments, &g);
}

/* The runtime registers its leak check with atexit in its initialisation
 * (.preinit_array), before any constructor runs; exit handlers run
 * last-registered first, so this one runs before the check. */
__attribute__((constructor)) static void kw_asan_roots_at_exit(void)
{
	atexit(kw_asan_roots);
}
