/* tests/asan/prefault.c - linked into build-asan's programs and unit tests
 * only (mk/core.mk, SAN_LDFLAGS): never into build/, the library or anything
 * installed.
 *
 * At exit LeakSanitizer scans every writable segment of every loaded module
 * for pointers into the heap (its roots): for an ASan program most of that
 * is the statically linked sanitizer runtime's .bss, megabytes of it never
 * touched, and its scan read-faults those pages in one at a time (~1,400
 * page faults per process).  This file registers, before the runtime's leak
 * check, an exit handler that faults the same ranges in with one
 * madvise(MADV_POPULATE_READ) per segment (Linux 5.14+; an older kernel
 * answers EINVAL and the scan faults them in as before).  LeakSanitizer then
 * scans exactly what it scanned before: the pages hold the same bytes
 * (zeros stay zeros), only the page-table work is batched.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

void kw_asan_prefault(void);

static int populate_segments(struct dl_phdr_info *info, size_t size, void *page)
{
	(void)size;
	uintptr_t mask = ~((uintptr_t)*(long *)page - 1);
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W) || ph->p_memsz == 0)
			continue;
		uintptr_t begin = (info->dlpi_addr + ph->p_vaddr) & mask;
		uintptr_t end = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz + ~mask) & mask;
		/* errors ignored: the scan faults in whatever this did not */
		(void)madvise((void *)begin, end - begin, MADV_POPULATE_READ);
	}
	return 0;
}

/* The exit handler: LeakSanitizer's check is an atexit handler the runtime
 * registers in its initialisation, before any constructor runs; handlers
 * run last-registered first, so this one runs just before the check. */
void kw_asan_prefault(void)
{
	long page = sysconf(_SC_PAGESIZE);
	if (page > 0)
		dl_iterate_phdr(populate_segments, &page);
}

__attribute__((constructor)) static void kw_asan_prefault_register(void)
{
	atexit(kw_asan_prefault);
}
