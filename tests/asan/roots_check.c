/* tests/asan/roots_check.c - one process of tests/asan/roots_check.sh: what
 * LeakSanitizer and AddressSanitizer report in a program linked as
 * build-asan/'s programs are (the runtime copy with tests/asan/lsan_roots.c).
 *
 *   roots_check LIB reachable  blocks whose only pointer is in the program's
 *                              .bss (a small object, the last word of a 1 MiB
 *                              array), its .data, a module dlopen'd (LIB) and
 *                              libc's data (stdout's buffer): no report, exit 0
 *   roots_check LIB leak       the same and a block whose pointer is dropped:
 *                              a LeakSanitizer report of 4242 bytes
 *   roots_check LIB overflow   a write one byte past a heap block: an
 *                              AddressSanitizer heap-buffer-overflow report
 *   roots_check LIB layout     prints "noroots N" (bytes of the runtime's
 *                              stack depot in kw_asan_noroots, 0 when the
 *                              runtime is linked as shipped), "trimmed N"
 *                              (bytes dl_iterate_phdr leaves out of the
 *                              program's writable segment) and "asan 1|0"
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SANITIZE_ADDRESS__
#define KW_ASAN 1
#else
#define KW_ASAN 0
#endif

extern char __start_kw_asan_noroots[] __attribute__((weak));
extern char __stop_kw_asan_noroots[] __attribute__((weak));

static void *bss_slot;
static void *data_slot = &data_slot;
static char big_bss[1 << 20];

/* the bytes of the main program's writable segment that dl_iterate_phdr
 * does not report: its end in the ELF headers minus its end as reported */
static int trimmed_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	size_t *trimmed = arg;
	uintptr_t self = (uintptr_t)&bss_slot;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t begin = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W) && begin <= self && self < begin + ph->p_memsz) {
			uintptr_t end = (uintptr_t)__stop_kw_asan_noroots;
			*trimmed = end > begin + ph->p_memsz ? end - (begin + ph->p_memsz) : 0;
			return 1;
		}
	}
	return 0;
}

/* the block's address, copied out of reach of the compiler's view */
static void keep_in(void *where, size_t size)
{
	void *p = malloc(size);
	if (!p)
		exit(3);
	memcpy(where, &p, sizeof p);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: roots_check LIB reachable|leak|overflow|layout\n");
		return 2;
	}
	const char *mode = argv[2];
	if (!strcmp(mode, "layout")) {
		size_t trimmed = 0;
		dl_iterate_phdr(trimmed_cb, &trimmed);
		printf("noroots %zu\ntrimmed %zu\nasan %d\n",
		       (size_t)(__stop_kw_asan_noroots - __start_kw_asan_noroots), trimmed, KW_ASAN);
		return 0;
	}
	void *lib = dlopen(argv[1], RTLD_NOW);
	void **lib_slot = lib ? dlsym(lib, "kw_roots_lib_slot") : NULL;
	if (!lib_slot) {
		fprintf(stderr, "roots_check: %s: %s\n", argv[1], dlerror());
		return 2;
	}
	keep_in(&bss_slot, 11);
	keep_in(&data_slot, 12);
	keep_in(big_bss + sizeof big_bss - sizeof(void *), 13);
	keep_in(lib_slot, 14);
	printf("roots_check %s\n", mode); /* stdout's buffer: held by libc's data */
	fflush(stdout);
	if (!strcmp(mode, "leak")) {
		void *volatile lost = malloc(4242);
		lost = NULL;
		(void)lost;
	} else if (!strcmp(mode, "overflow")) {
		size_t n = strlen(mode); /* not a constant: UBSan's object-size check stays out */
		volatile char *block = malloc(n);
		if (!block)
			return 3;
		block[n] = 1;
		free((void *)block);
	} else if (strcmp(mode, "reachable")) {
		fprintf(stderr, "roots_check: unknown mode %s\n", mode);
		return 2;
	}
	return 0;
}
