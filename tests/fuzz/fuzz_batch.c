/*
 * fuzz_batch.c - libFuzzer harness: `kwgen --batch` itself.  cli/kwgen.c is
 * compiled into the harness (its main() renamed) and its run_batch() reads
 * the input as JSON lines from memory, with the CLI's own line reader,
 * thread chunks, allocation discipline and answer writer; the answers are
 * captured from stdout.
 *
 * The first input byte picks the mode: bit 0 --asm, bit 1 two jobs instead
 * of one, bit 2 --max-line-bytes 64 instead of 1 MiB.  The rest is the
 * batch input.
 *
 * Properties (abort() on violation): run_batch returns 0; without --asm
 * there is exactly one answer line per input line (blank, CRLF, NUL and
 * over-long lines included) and each answer is a JSON object (duplicate
 * keys rejected).  The subcommands (logic, verify, cache) are not part of
 * the harness and abort if reached.
 *
 * Build and run: make fuzz (mk/fuzz.mk).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int kwgen_cli_main(int argc, char **argv);

#define main kwgen_cli_main
#include "../../cli/kwgen.c"
#undef main

/* main() never runs here, so neither does the code-object child it can
 * start (lib/codeobj/child.c is not linked into the harness). */
int kw_codeobj_child_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	abort();
}

int kw_cli_logic(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	abort();
}

int kw_cli_verify(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	abort();
}

int kw_cli_cache(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char empty[1];
	int as_text, jobs;
	size_t max_line, in_lines = 0, out_lines = 0, olen = 0;
	char *obuf = NULL, *p, *end;
	FILE *in, *out, *saved;

	if (size < 1)
		return 0;
	as_text = data[0] & 1;
	jobs = (data[0] & 2) ? 2 : 1;
	max_line = (data[0] & 4) ? 64 : (size_t)1 << 20;
	data++;
	size--;
	for (size_t i = 0; i < size; i++)
		in_lines += data[i] == '\n';
	if (size && data[size - 1] != '\n')
		in_lines++;

	in = size ? fmemopen((void *)data, size, "r") : fmemopen(empty, 1, "r");
	if (!in)
		abort();
	if (!size)
		fgetc(in); /* an empty input: nothing left to read */
	if (!(out = open_memstream(&obuf, &olen)))
		abort();
	saved = stdout;
	stdout = out;
	if (run_batch(in, jobs, 0, max_line, as_text) != 0)
		abort();
	fflush(stdout);
	stdout = saved;
	fclose(out);
	fclose(in);

	if (!as_text) {
		for (p = obuf, end = obuf + olen; p < end;) {
			char *nl = memchr(p, '\n', (size_t)(end - p));
			json_t *a;

			if (!nl)
				abort(); /* every answer ends with a newline */
			a = json_loadb(p, (size_t)(nl - p), JSON_REJECT_DUPLICATES, NULL);
			if (!json_is_object(a))
				abort();
			json_decref(a);
			out_lines++;
			p = nl + 1;
		}
		if (out_lines != in_lines)
			abort();
	}
	free(obuf);
	return 0;
}
