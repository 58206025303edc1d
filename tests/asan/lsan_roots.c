/* tests/asan/lsan_roots.c - LeakSanitizer's roots in build-asan/'s programs,
 * without the sanitizer runtime's stack depot.
 *
 * Linked into the ASan + UBSan programs and unit tests only, as a member of
 * the copy of the ASan runtime archive they link (build-asan/asan-rt/libasan.a,
 * made by tests/asan/runtime.sh); never into build/, the library or
 * anything installed.  Not instrumented: it runs inside the runtime's leak
 * check (in its tracer thread, which has no TLS of its own: no allocation,
 * no lock, no dlsym there).
 *
 * At exit LeakSanitizer scans, for pointers into the heap, every writable
 * PT_LOAD segment of every module dl_iterate_phdr() reports (its "globals"),
 * leaving out the allocator's own state.  In these programs the biggest part
 * of that is the statically linked runtime's stack depot: 4.75 MB of .bss
 * (the hash table of stack ids, the maps of its own mmap'd stack store),
 * ~1,200 pages a short process never touches, which the scan then faults in
 * one by one (the dearest part of an ASan process's exit on a virtual
 * machine: ~15 ms of CPU of a kwgen --version's ~60).  Those bytes are stack
 * ids and pointers into the runtime's own mappings, never the address of a
 * heap block, so they keep no block reachable: tests/asan/runtime.sh checks
 * that the depot's object holds nothing else in its .bss before it moves
 * that .bss into the section kw_asan_noroots, which the linker places at
 * the end of the program's writable segment (after .bss).
 *
 * This file defines dl_iterate_phdr for the program (the runtime's calls, and
 * the program's, bind to it; libc's own calls and the shared libraries' do
 * not): it calls libc's and hands the callback every module as libc reports
 * it, except that the main program's writable segment, when it ends with
 * kw_asan_noroots, is reported as ending where kw_asan_noroots begins.  So
 * LeakSanitizer scans every other byte it scanned before, with its own code
 * (ScanGlobalRange, the allocator still left out), and nothing else in the
 * runtime changes.  Leaving a range out can only make more blocks unreachable
 * (a false report, which fails the suite), never hide a leak.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <string.h>

/* the ends of the stack depot's .bss (runtime.sh renames it); zero when
 * the runtime was linked as shipped */
extern char __start_kw_asan_noroots[] __attribute__((weak));
extern char __stop_kw_asan_noroots[] __attribute__((weak));

typedef int (*kw_phdr_cb)(struct dl_phdr_info *info, size_t size, void *data);
typedef int (*kw_phdr_iter)(kw_phdr_cb cb, void *data);

/* libc's dl_iterate_phdr, looked up before the first leak check can run
 * (the constructor below; the runtime's first calls, at its start, look it
 * up themselves) */
static kw_phdr_iter libc_iterate;

struct forward {
	kw_phdr_cb cb;
	void *data;
};

#define KW_MAX_PHDRS 64

/* The main program's program headers as reported: its own, with the
 * writable segment ending where kw_asan_noroots begins (made once, by the
 * constructor: nothing of it is on a stack while the leak check scans the
 * stacks, which a copy in the caller's frame would be, its unused slots
 * keeping whatever dead pointers the stack held there before). */
static const ElfW(Phdr) *main_phdr;
static ElfW(Phdr) main_phdr_trimmed[KW_MAX_PHDRS];

static int trim_main_program(struct dl_phdr_info *info, size_t size, void *arg)
{
	const struct forward *f = arg;
	if (info->dlpi_phdr != main_phdr || main_phdr == NULL || size > sizeof(struct dl_phdr_info))
		return f->cb(info, size, f->data);
	struct dl_phdr_info trimmed;
	memcpy(&trimmed, info, size);
	trimmed.dlpi_phdr = main_phdr_trimmed;
	return f->cb(&trimmed, size, f->data);
}

int dl_iterate_phdr(kw_phdr_cb cb, void *data)
{
	kw_phdr_iter libc = libc_iterate;
	if (!libc)
		libc = (kw_phdr_iter)dlsym(RTLD_NEXT, "dl_iterate_phdr");
	struct forward f = {cb, data};
	return libc(trim_main_program, &f);
}

/* the module whose writable segment ends with kw_asan_noroots */
static int find_main_program(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	uintptr_t nb = (uintptr_t)__start_kw_asan_noroots;
	uintptr_t ne = (uintptr_t)__stop_kw_asan_noroots;
	if (info->dlpi_phnum > KW_MAX_PHDRS)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t begin = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W) || begin + ph->p_memsz != ne || begin >= nb)
			continue;
		memcpy(main_phdr_trimmed, info->dlpi_phdr, info->dlpi_phnum * sizeof main_phdr_trimmed[0]);
		main_phdr_trimmed[i].p_memsz = nb - begin;
		if (main_phdr_trimmed[i].p_filesz > main_phdr_trimmed[i].p_memsz)
			main_phdr_trimmed[i].p_filesz = main_phdr_trimmed[i].p_memsz;
		main_phdr = info->dlpi_phdr;
		return 1;
	}
	return 0;
}

__attribute__((constructor)) static void kw_trim_main_program(void)
{
	libc_iterate = (kw_phdr_iter)dlsym(RTLD_NEXT, "dl_iterate_phdr");
	if (libc_iterate && (uintptr_t)__stop_kw_asan_noroots > (uintptr_t)__start_kw_asan_noroots)
		libc_iterate(find_main_program, NULL);
}
