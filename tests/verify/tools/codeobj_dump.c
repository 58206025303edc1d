/*
 * codeobj_dump - print a code object in objdump form with libkwgen-codeobj
 * (tests/verify/objdump_test.py compares it with llvm-objdump -d).
 *   codeobj_dump FILE [ISA]
 * Exit 0 and the text on stdout; 2 and the error on stderr.
 */
#include <stdio.h>
#include <stdlib.h>

#include "kwgen/codeobj.h"

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: codeobj_dump FILE [ISA]\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	size_t cap = 1 << 16, len = 0;
	char *data = malloc(cap);
	size_t n;
	while (data && (n = fread(data + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			char *d = realloc(data, cap * 2);
			if (!d) {
				free(data);
				data = NULL;
				break;
			}
			data = d;
			cap *= 2;
		}
	}
	fclose(f);
	if (!data) {
		fprintf(stderr, "out of memory\n");
		return 2;
	}
	kw_error err = KW_ERROR_INIT;
	char *text;
	size_t tlen, ninst;
	const char *isa;
	int rc = kw_codeobj_disassemble(data, len, argc > 2 ? argv[2] : NULL, argv[1], 0, 0, &text, &tlen, &isa,
	                                &ninst, &err);
	free(data);
	if (rc) {
		fprintf(stderr, "%s: %s\n", argv[1], err.message);
		return 2;
	}
	fwrite(text, 1, tlen, stdout);
	fprintf(stderr, "%s: %s, %zu instructions\n", argv[1], isa, ninst);
	free(text);
	return 0;
}
