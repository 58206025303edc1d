/*
 * cli/verify.c - `kwgen verify`: check the waits of whole AMDGPU kernels
 * (kwgen/verify.h) and print findings as compiler-style lines or JSON.
 */
#include "verify_cli.h"

#include "kwgen/buf.h"
#include "kwgen/codeobj.h"
#include "kwgen/verify.h"

#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void verify_usage(FILE *f)
{
	fputs("usage: kwgen verify [--isa gfxNNN] [--json | --json-lines] [--suppress FILE]\n"
	      "                    [--no-redundant] [--assume-atomic-counters] [--Werror]\n"
	      "                    [--max-bytes N]\n"
	      "                    [--max-instructions N] [--max-work N] [--max-findings N]\n"
	      "                    [--max-memory N] [--] FILE...\n"
	      "\n"
	      "Checks the waits of AMDGPU assembly (clang -S / Tensile output or\n"
	      "llvm-objdump -d output, or an AMDGPU code object (ELF .co/.hsaco/.o,\n"
	      "decoded with LLVM's disassembler, the ISA from e_flags; assembly whose\n"
	      "instructions are .long/.short/.byte words is decoded the same way);\n"
	      "`-` reads stdin): registers read or overwritten\n"
	      "while a load that writes them may be in flight (race_raw, race_waw), LDS\n"
	      "writes in flight at a barrier (lds_barrier), LDS-DMA data read with the\n"
	      "wrong counter (lds_dma), waits that wait for nothing (redundant_wait),\n"
	      "instructions the model does not know (unknown_instruction) and control\n"
	      "flow it cannot follow (unsupported).\n"
	      "\n"
	      "  --isa gfxNNN        processor (default: the file's .amdgcn_target)\n"
	      "  --json              one JSON object per file: {isa, findings, totals,\n"
	      "                      suppressed, truncated, stats}\n"
	      "  --json-lines        one line per FILE, in order: the --json object as\n"
	      "                      compact JSON after \"file\" (the name given, `-` is\n"
	      "                      <stdin>) and \"exit\" (this file's own status, 0/1/2);\n"
	      "                      a file that cannot be read or decoded is\n"
	      "                      {\"file\", \"exit\": 2, \"error\": MESSAGE}\n"
	      "  --suppress FILE     suppression rules, one a line: CODE|* [function=GLOB]\n"
	      "                      [mnemonic=GLOB] [counter=NAME] [register=TEXT]\n"
	      "                      [line=N] [offset=N]; inline, a comment\n"
	      "                      `kwgen-verify: allow CODE[,CODE...]` on the line,\n"
	      "                      codes separated by commas, then optionally a\n"
	      "                      note starting `--` or `(`\n"
	      "                      (.long words: of the instruction's first word);\n"
	      "                      an unknown code or a malformed comment: exit 2\n"
	      "                      naming its line and the codes\n"
	      "  --no-redundant      do not report redundant_wait\n"
	      "  --assume-atomic-counters  the value a 32-bit s_atomic_dec/s_atomic_inc\n"
	      "                      (or s_buffer_) with glc returns lies in [0, data]:\n"
	      "                      the counter follows Tensile's GSU/StreamK\n"
	      "                      synchronizer protocol (the host zeroes it and only\n"
	      "                      these atomics, with the same data, update it);\n"
	      "                      paths needing another value are not taken; kept\n"
	      "                      with the kernel: a comment `kwgen-verify: assume\n"
	      "                      atomic-counters` in the file, or the line\n"
	      "                      `assume atomic-counters` in the --suppress FILE.\n"
	      "                      The totals line (and --json's \"assumptions\") says\n"
	      "                      it applied, from where, and how many findings it\n"
	      "                      ruled out\n"
	      "  --version           print the verifier's version and exit\n"
	      "  --Werror            warnings (redundant_wait, unsupported, lds_latency)\n"
	      "                      also exit 1\n"
	      "  --max-bytes N       largest input file (default 134217728, 128 MiB,\n"
	      "                      kwgend's default for POST /v1/verify); more: exit 2\n"
	      "  --max-instructions N  most instructions one file may hold (default\n"
	      "                      16777216, kwgend's default for POST /v1/verify)\n"
	      "  --max-work N        data-flow steps (default 256 per instruction plus 1M)\n"
	      "  --max-findings N    findings listed (default 100000; totals stay exact)\n"
	      "  --max-memory N      bytes one file's verification may hold (decoded\n"
	      "                      text, macro expansions, instructions; default 16 x\n"
	      "                      the file + 96 MiB); more: exit 2 naming the bound\n"
	      "\n"
	      "Exit: 0 no error finding, 1 an error finding (race class but lds_latency, or\n"
	      "unknown_instruction; with --Werror also a warning), 2 unreadable input or\n"
	      "usage error; with several files, the worst of theirs.  redundant_wait,\n"
	      "unsupported and lds_latency are warnings: printed, exit 0.\n",
	      f);
}

/* The defaults of kwgend's --max-verify-bytes and --max-verify-instructions:
 * what the CLI takes, the route takes. */
#define DEFAULT_MAX_BYTES ((size_t)128 << 20)
#define DEFAULT_MAX_INSTRUCTIONS ((size_t)16 << 20)

/* The whole file, at most max bytes: more is NULL with errno EFBIG (an
 * endless input such as /dev/zero must not take all memory). */
static char *slurp(const char *path, size_t *len, size_t max)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	kw_buf b = KW_BUF_INIT;
	char chunk[65536];
	size_t n;

	if (!f)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (n > max - b.len) {
			if (f != stdin)
				fclose(f);
			kw_buf_free(&b);
			errno = EFBIG;
			return NULL;
		}
		if (kw_buf_put(&b, chunk, n))
			break;
	}
	if (ferror(f) || b.oom) {
		if (f != stdin)
			fclose(f);
		kw_buf_free(&b);
		errno = errno ? errno : EIO;
		return NULL;
	}
	if (f != stdin)
		fclose(f);
	*len = b.len;
	if (!b.p)
		return calloc(1, 1);
	return kw_buf_detach(&b);
}

/* Nonzero, with a message, when what was written to stdout may not have
 * arrived: the flush fails, or an earlier buffered write did (after which
 * fflush may succeed: ferror). */
static int stdout_error(void)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	fprintf(stderr, "kwgen verify: write error on standard output: %s\n", strerror(errno ? errno : EIO));
	return 1;
}

/* The memory bound of one file's verification: --max-memory, or 16 x its
 * bytes + 96 MiB (the verifier's default, vf_default_memory). */
/* the decoder process forked, not spawned: kwgen verify has one thread */
static const kw_codeobj_child_opts fork_child = { NULL, 0, 0, 0, 1 };

static size_t memory_budget(size_t given, size_t len)
{
	if (given)
		return given;
	return len > (SIZE_MAX - ((size_t)96 << 20)) / 16 ? SIZE_MAX : 16 * len + ((size_t)96 << 20);
}

/* Filename as a JSON string: bytes that are not ASCII become '?' when the
 * name is not valid UTF-8 (jansson refuses such a string). */
static json_t *file_string(const char *file)
{
	json_t *s = json_string(file);
	size_t n = strlen(file);
	char *copy;

	if (s || !(copy = malloc(n + 1)))
		return s;
	memcpy(copy, file, n + 1);
	for (char *c = copy; *c; c++)
		if ((unsigned char)*c >= 0x80)
			*c = '?';
	s = json_string(copy);
	free(copy);
	return s;
}

/* One --json-lines line: {"file", "exit"} then the members of the --json
 * object in result (NULL: none) or "error" (when error is not NULL).
 * Nonzero when it cannot be built (no memory) or written. */
static int json_line(const char *file, int status, const kw_buf *result, const char *error)
{
	json_t *line = json_object(), *body = NULL;
	char *text = NULL;
	int bad = !line;

	bad = bad || json_object_set_new(line, "file", file_string(file));
	bad = bad || json_object_set_new(line, "exit", json_integer(status));
	if (!bad && error)
		bad = json_object_set_new(line, "error", file_string(error));
	if (!bad && result) {
		body = json_loadb(result->p ? result->p : "", result->len, 0, NULL);
		bad = !body || json_object_update(line, body);
	}
	if (!bad)
		text = json_dumps(line, JSON_COMPACT);
	bad = bad || !text || fputs(text, stdout) == EOF || fputc('\n', stdout) == EOF;
	free(text);
	json_decref(body);
	json_decref(line);
	return bad;
}

/* A file that cannot be verified: "kwgen verify: FILE: MSG" on stderr and,
 * with --json-lines, its line with exit 2 and MSG. */
static void file_failed(int lines, const char *file, const char *msg)
{
	fprintf(stderr, "kwgen verify: %s: %s\n", file, msg);
	if (lines && json_line(file, 2, NULL, msg))
		fprintf(stderr, "kwgen verify: %s: cannot write its --json-lines line\n", file);
}

static int parse_size(const char *s, unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno || *end || !*s || *s == '-';
}

int kw_cli_verify(int argc, char **argv)
{
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	int json = 0, lines = 0, werror = 0, worst = 0, nfiles = 0;
	char *supp = NULL;
	size_t max_bytes = DEFAULT_MAX_BYTES;
	int dashdash = argc; /* the index of `--`, or argc */

	o.max_instructions = DEFAULT_MAX_INSTRUCTIONS;
	/* --max-bytes first: it bounds --suppress FILE too */
	for (int i = 1; i + 1 < argc && strcmp(argv[i], "--"); i++) {
		unsigned long long v;

		if (!strcmp(argv[i], "--max-bytes")) {
			if (parse_size(argv[i + 1], &v) || !v || v > SIZE_MAX - 1) {
				fprintf(stderr, "kwgen verify: --max-bytes takes a positive integer, got %s\n",
					argv[i + 1]);
				return 2;
			}
			max_bytes = (size_t)v;
		}
		if (!strcmp(argv[i], "--isa") || !strcmp(argv[i], "--suppress") || !strncmp(argv[i], "--max-", 6))
			i++;
	}

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		unsigned long long v;

		if (i > dashdash) {
			nfiles++; /* after `--` every argument is a file, even "-x" */
		} else if (!strcmp(a, "--")) {
			dashdash = i;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			verify_usage(stdout);
			free(supp);
			return stdout_error() ? 2 : 0;
		} else if (!strcmp(a, "--version")) {
			/* the verifier's version (kwgend's cache salt for POST /v1/verify) */
			printf("%s\n", kw_verify_version());
			free(supp);
			return stdout_error() ? 2 : 0;
		} else if (!strcmp(a, "--json")) {
			json = 1;
		} else if (!strcmp(a, "--json-lines")) {
			lines = 1;
		} else if (!strcmp(a, "--Werror")) {
			werror = 1;
		} else if (!strcmp(a, "--no-redundant")) {
			o.no_redundant = 1;
		} else if (!strcmp(a, "--assume-atomic-counters")) {
			o.assume_atomic_counters = 1;
		} else if (!strcmp(a, "--isa") && i + 1 < argc) {
			o.isa = argv[++i];
		} else if (!strcmp(a, "--suppress") && i + 1 < argc) {
			size_t n;
			free(supp);
			supp = slurp(argv[++i], &n, max_bytes);
			if (!supp) {
				if (errno == EFBIG)
					fprintf(stderr, "kwgen verify: %s: the file is over %zu bytes, the limit "
						"(--max-bytes N raises it)\n", argv[i], max_bytes);
				else
					fprintf(stderr, "kwgen verify: cannot read %s: %s\n", argv[i],
						strerror(errno));
				return 2;
			}
			o.suppressions = supp;
		} else if (!strcmp(a, "--max-bytes") && i + 1 < argc) {
			i++; /* read above */
		} else if ((!strcmp(a, "--max-instructions") || !strcmp(a, "--max-work") ||
			    !strcmp(a, "--max-findings") || !strcmp(a, "--max-memory")) && i + 1 < argc) {
			if (parse_size(argv[i + 1], &v) || !v) {
				fprintf(stderr, "kwgen verify: %s takes a positive integer, got %s\n", a,
					argv[i + 1]);
				free(supp);
				return 2;
			}
			i++;
			if (!strcmp(a, "--max-instructions"))
				o.max_instructions = (size_t)v;
			else if (!strcmp(a, "--max-work"))
				o.max_work = v;
			else if (!strcmp(a, "--max-memory"))
				o.max_memory = (size_t)v;
			else
				o.max_findings = (size_t)v;
		} else if (i + 1 == argc && (!strcmp(a, "--isa") || !strcmp(a, "--suppress") ||
					     !strcmp(a, "--max-bytes") || !strcmp(a, "--max-instructions") ||
					     !strcmp(a, "--max-work") || !strcmp(a, "--max-findings") ||
					     !strcmp(a, "--max-memory"))) {
			fprintf(stderr, "kwgen verify: %s needs a value\n", a);
			free(supp);
			return 2;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "kwgen verify: unknown option %s\n", a);
			verify_usage(stderr);
			free(supp);
			return 2;
		} else {
			nfiles++;
		}
	}
	if (json && lines) {
		fputs("kwgen verify: --json and --json-lines: give one of them\n", stderr);
		free(supp);
		return 2;
	}
	if (!nfiles) {
		fputs("kwgen verify: give at least one FILE (`-` for stdin)\n", stderr);
		verify_usage(stderr);
		free(supp);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		kw_verify_result *r = NULL;
		kw_error err = KW_ERROR_INIT;
		kw_buf out = KW_BUF_INIT;
		char *text;
		size_t len = 0;
		int rc;

		if (i < dashdash) {
			if (!strcmp(a, "--isa") || !strcmp(a, "--suppress") || !strcmp(a, "--max-instructions") ||
			    !strcmp(a, "--max-work") || !strcmp(a, "--max-findings") || !strcmp(a, "--max-bytes") ||
			    !strcmp(a, "--max-memory")) {
				i++;
				continue;
			}
			if (a[0] == '-' && a[1])
				continue;
		} else if (i == dashdash) {
			continue;
		}
		o.filename = strcmp(a, "-") ? a : "<stdin>";
		text = slurp(a, &len, max_bytes);
		if (!text) {
			char msg[160];

			if (errno == EFBIG) {
				snprintf(msg, sizeof(msg), "the input is over %zu bytes, the limit "
					 "(--max-bytes N raises it)", max_bytes);
				file_failed(lines, o.filename, msg);
			} else {
				snprintf(msg, sizeof(msg), "cannot read it: %s", strerror(errno));
				fprintf(stderr, "kwgen verify: cannot read %s: %s\n", a, strerror(errno));
				if (lines && json_line(o.filename, 2, NULL, msg))
					fprintf(stderr, "kwgen verify: %s: cannot write its --json-lines line\n",
						o.filename);
			}
			worst = 2;
			continue;
		}
		if (kw_codeobj_is_elf(text, len)) {
			/* A code object: decode it (LLVM's disassembler, ISA from
			 * e_flags unless --isa) into objdump text, whose
			 * `// ADDR:` comments give every finding its offset,
			 * verified as it comes.  In a child process: LLVM's
			 * disassembler crashes on some bytes; that is exit 2
			 * with a message, not a crash of kwgen. */
			char isa[KW_CODEOBJ_ISA_MAX];
			int undecodable = 0, decoder = 0;
			size_t given_mem = o.max_memory;

			o.max_memory = memory_budget(o.max_memory, len);
			rc = kw_codeobj_verify_child(text, len, o.isa, o.filename, o.max_instructions, &fork_child, &o, &r, isa,
						     &undecodable, &decoder, &err);
			o.max_memory = given_mem;
		} else {
			rc = kw_verify_text(&r, text, len, &o, &err);
			if (rc == KW_EINVAL && !strcmp(err.field, "data_words")) {
				/* instructions as .long words (Tensile's
				 * shipped kernels): decoded with LLVM's
				 * disassembler, in a child process, and
				 * verified as they come; findings name the
				 * lines of the words */
				char isa[KW_CODEOBJ_ISA_MAX];
				int undecodable = 0, decoder = 0;
				kw_error werr = KW_ERROR_INIT;
				size_t given_mem = o.max_memory;

				o.max_memory = memory_budget(o.max_memory, len);
				rc = kw_codeobj_verify_words_child(text, len, o.isa, o.filename, o.max_instructions, &fork_child, &o,
								   &r, isa, &undecodable, &decoder, &werr);
				o.max_memory = given_mem;
				if (rc == 0) {
					kw_error_clear(&err);
				} else if (strcmp(werr.field, "objdump")) {
					err = werr; /* why the words cannot be decoded */
				}
			}
		}
		free(text);
		if (rc) {
			file_failed(lines, o.filename, err.message);
			worst = 2;
			continue;
		}
		{
			uint64_t warn = kw_verify_result_total(r, KW_VF_REDUNDANT_WAIT) +
					kw_verify_result_total(r, KW_VF_UNSUPPORTED) +
					kw_verify_result_total(r, KW_VF_LDS_LATENCY);
			int status = kw_verify_result_errors(r) || (werror && warn) ? 1 : 0;

			rc = json || lines ? kw_verify_result_json(&out, r, &err) : kw_verify_result_text(&out, r, &err);
			if (rc) {
				file_failed(lines, o.filename, err.message);
				status = 2;
			} else if (lines) {
				if (json_line(o.filename, status, &out, NULL)) {
					fprintf(stderr, "kwgen verify: %s: cannot write its --json-lines line\n",
						o.filename);
					status = 2;
				}
			} else {
				fwrite(out.p ? out.p : "", 1, out.len, stdout);
			}
			kw_buf_free(&out);
			if (status > worst)
				worst = status;
		}
		kw_verify_result_free(r);
	}
	free(supp);
	if (stdout_error())
		return 2;
	return worst;
}
