/*
 * codeobj_dump - print a code object in objdump form with libkwgen-codeobj
 * (tests/verify/objdump_test.py compares it with llvm-objdump -d).
 *   codeobj_dump FILE [ISA]
 *       exit 0 and the text on stdout; 2 and the error on stderr.
 *   codeobj_dump --each FILE...
 *       one process (LLVM loaded once) for many files: per file, in order,
 *       "KWDUMP <status> <bytes> <FILE>\n" then <bytes> bytes: the text
 *       (status 0) or the error message (status 2); exit 0 when every file
 *       decoded, else 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kwgen/codeobj.h"

/* The file's bytes (malloc'd, *len set), or NULL with a message in why. */
static char *slurp(const char *path, size_t *len, char *why, size_t whylen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(why, whylen, "cannot open %s", path);
		return NULL;
	}
	size_t cap = 1 << 16, n;
	char *data = malloc(cap);
	*len = 0;
	while (data && (n = fread(data + *len, 1, cap - *len, f)) > 0) {
		*len += n;
		if (*len == cap) {
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
	if (!data)
		snprintf(why, whylen, "out of memory");
	return data;
}

/* Decode path: 0 with the text, or 2 with the message in why. */
static int dump(const char *path, const char *isa_given, char **text, size_t *tlen, const char **isa,
		size_t *ninst, char *why, size_t whylen)
{
	size_t len;
	char *data = slurp(path, &len, why, whylen);
	if (!data)
		return 2;
	kw_error err = KW_ERROR_INIT;
	int rc = kw_codeobj_disassemble(data, len, isa_given, path, 0, 0, text, tlen, isa, ninst, &err);
	free(data);
	if (rc) {
		snprintf(why, whylen, "%s: %s", path, err.message);
		return 2;
	}
	return 0;
}

static int each(int argc, char **argv)
{
	int worst = 0;
	for (int i = 2; i < argc; i++) {
		char why[1024], *text = NULL;
		size_t tlen = 0, ninst;
		const char *isa;
		int rc = dump(argv[i], NULL, &text, &tlen, &isa, &ninst, why, sizeof(why));
		if (rc) {
			printf("KWDUMP 2 %zu %s\n%s", strlen(why), argv[i], why);
			worst = 2;
		} else {
			printf("KWDUMP 0 %zu %s\n", tlen, argv[i]);
			fwrite(text, 1, tlen, stdout);
			free(text);
		}
	}
	return fflush(stdout) || ferror(stdout) ? 2 : worst;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--each"))
		return each(argc, argv);
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: codeobj_dump FILE [ISA] | codeobj_dump --each FILE...\n");
		return 2;
	}
	char why[1024], *text;
	size_t tlen, ninst;
	const char *isa;
	if (dump(argv[1], argc > 2 ? argv[2] : NULL, &text, &tlen, &isa, &ninst, why, sizeof(why))) {
		fprintf(stderr, "%s\n", why);
		return 2;
	}
	fwrite(text, 1, tlen, stdout);
	fprintf(stderr, "%s: %s, %zu instructions\n", argv[1], isa, ninst);
	free(text);
	return 0;
}
