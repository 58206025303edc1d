/*
 * kwgen - command-line front end of libkwgen.
 *
 *   kwgen [FILE]            one request (oracle or farm form) -> answer on stdout
 *   kwgen --batch [FILE]    JSON lines in, one compact answer per line out
 *   kwgen --asm [FILE]      the assembly of every result as plain text (kwgen/text.h)
 *   kwgen --canonical [FILE] print the canonical request, config_id and key
 *   kwgen cache CMD ...     look into a kwgend cache file (cli/cache.c)
 *   kwgen logic FILE.yaml   import a Tensile logic file (cli/logic.c)
 *   kwgen --help
 */
#include "kwgen/buf.h"
#include "kwgen/request.h"
#include "kwgen/text.h"
#include "cache_cli.h"
#include "logic.h"

#ifndef KW_VERSION
#define KW_VERSION "0.1.0"
#endif

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fputs("usage: kwgen [--asm] [--batch [--jobs N] [--line-buffered]] [FILE]\n"
	      "       kwgen --canonical [FILE]\n"
	      "       kwgen logic FILE.yaml [--server URL] ...   (kwgen logic --help)\n"
	      "       kwgen cache stats|ls|show KEY|rm KEY|purge [--older-than DAYS] [--db FILE]\n"
	      "                                                  (kwgen cache --help)\n"
	      "       kwgen --help | --version\n"
	      "\n"
	      "Generates AMDGPU assembly exactly as Tensile's KernelWriterModules does.\n"
	      "\n"
	      "Single mode (default): reads ONE JSON request from FILE or stdin and prints\n"
	      "the answer as pretty JSON; exits 1 if the answer is an error.\n"
	      "  oracle form:  {\"isa\": \"gfx942\", \"generator\": \"wait\", \"args\": {...},\n"
	      "                 \"kernel\": {...}, \"tPA\": {...}, \"tPB\": {...}, \"states\": {...}}\n"
	      "                -> {\"asm\", \"type\", \"acc2arch\"/\"arch2acc\" | \"value\", \"isa\", \"diagnostics\"}\n"
	      "  farm form:    {\"isa\": ..., \"kernel\": ..., \"generators\": [{\"name\": ..., \"args\": ...}]}\n"
	      "                (\"generators\" omitted = every generator that applies)\n"
	      "                -> {\"isa\", \"config_id\", \"key\", \"generator_version\", \"results\": [...]}\n"
	      "\n"
	      "  --batch          JSON lines in, one compact answer per line out (oracle form\n"
	      "                   answers; a bad line answers {\"error\": \"...\"}); exit 0\n"
	      "  --jobs N         answer batch lines on N threads (default: online CPUs);\n"
	      "                   the output order is the input order\n"
	      "  --line-buffered  flush after every answer (for interactive pipes; 1 thread)\n"
	      "  --asm            print only the assembly, as text: per result a header line\n"
	      "                   \"// <generator>(<args>)\", its asm, then one\n"
	      "                   \"// warning: <code>: <message>\" line per diagnostic; a\n"
	      "                   \"// source: ...\" line first when the request has a source;\n"
	      "                   errors go to stderr (exit 1); with --batch an error is a\n"
	      "                   \"// error: ...\" line\n"
	      "  --canonical      print {\"canonical\", \"config_id\", \"key\"} for the request\n"
	      "\n"
	      "Generators and their args (default; \"required\" has none):\n"
	      "  tdmWait               tensorcnt (required, -1 = none), comment \"\"\n"
	      "  wait                  skipGlobalRead, skipLocalWrite, skipLocalRead (required,\n"
	      "                        -1 = none), conservativeWaitCnt 0, comment \"\",\n"
	      "                        skipGlobalReadInst -1\n"
	      "  syncThreads           comment \"\", skipForceWaitcnt0 false, memoryToken null\n"
	      "  accToArchMapper, getAccToArchLen, hasSequentialValuC, accVgprImagNumOffset\n"
	      "                        (no args)\n"
	      "  mapAcctoArchRegs      maxAgpr 256, write false, spilledVgprBase null\n"
	      "  mulMIoutAlphaToArch, moveMIoutToArch   startVgprAlphaTmp (required)\n"
	      "\n"
	      "Request keys:\n"
	      "  isa          \"gfx942\" or [9,4,2]: gfx908 gfx90a gfx940 gfx941 gfx942 gfx950\n"
	      "               gfx1100 gfx1101 gfx1102 gfx1200 gfx1201 gfx1250\n"
	      "  wavefront    32 or 64, one the ISA runs (default kernel.WavefrontSize)\n"
	      "  kernel       Tensile solution dict; read: BufferLoad, DirectToLds{A,B},\n"
	      "               DirectToVgpr{A,B,SparseMetadata,MXSA,MXSB}, NumLoads{Coalesced,\n"
	      "               Perpendicular}{A,B,MXSA,MXSB,Metadata}, NumThreads, WavefrontSize,\n"
	      "               _ScheduleIterAlg, PrefetchGlobalRead, EnableMatrixInstruction,\n"
	      "               MatrixInst{M,N,BM,BN}, MIWaveTile, MIRegPerOut, VectorWidth{A,B},\n"
	      "               SourceSwap, MIArchVgpr, CompactLoopStore, ProblemType.{DataType,\n"
	      "               ComputeDataType, HighPrecisionAccumulate, Sparse, MXBlockA,\n"
	      "               MXBlockB}; unknown keys are ignored; booleans true/false or 0/1;\n"
	      "               DataType as enum int, char (S D C Z H B I ...) or name\n"
	      "  tPA, tPB     nrp, nrc, nwcv, nwpv, nwcvpi, localReadInstruction.blockWidth,\n"
	      "               is_sparse, tpsMetadata, MX (wait only)\n"
	      "  states       numReadsPerIter{A,B,Metadata,MXSA,MXSB} (wait only)\n"
	      "  asmCaps, archCaps  overrides of the ISA's capability tables\n"
	      "  vgprIdx, vgprMsb   gfx1250 VGPR-bank state ({\"ValuC\": 240}, -1/-2/0..255)\n"
	      "  outputNoComment, fillDefaults, strict   booleans\n"
	      "  replaceHolder      int (whole result) or list (one per top-level item): the\n"
	      "               offset that fills Tensile's placeholder registers (v[vgprValuC]\n"
	      "               is the holder; with \"replaceHolder\": 8 it prints v[8])\n"
	      "  source       where the request came from: {\"file\", \"SolutionIndex\",\n"
	      "               \"SolutionNameMin\"} (strings and integers) or a string; echoed\n"
	      "               with the answer, not part of the key (kwgen logic sets it)\n"
	      "\n"
	      "Every answer carries \"diagnostics\": [{\"code\", \"message\"}] with codes\n"
	      "count_clamped, count_out_of_range, vgpr_pair_misaligned, agpr_spill,\n"
	      "register_out_of_range, instruction_not_on_isa; with \"strict\": true any of\n"
	      "them makes the answer an error.  Errors are {\"error\": \"...\"} naming the\n"
	      "key and what is allowed.  Duplicate JSON keys are an error.\n", f);
}

static json_t *farm_answer(const json_t *req, int *ok)
{
	kw_error err = KW_ERROR_INIT;
	json_t *o = kw_request_answer(req, NULL, &err);

	*ok = o != NULL;
	return o ? o : json_pack("{s:s}", "error", err.message);
}

/* The --asm text of one request into out; errors as kw_request_answer. */
static int asm_text(kw_buf *out, const json_t *req, kw_error *err)
{
	json_t *o = kw_request_answer(req, NULL, err);
	int rc;

	if (!o)
		return err->code ? err->code : KW_ENOMEM;
	rc = kw_text_render(out, o, err);
	json_decref(o);
	return rc;
}

static json_t *answer(const json_t *req, int *ok)
{
	if (json_is_object(req) && json_object_get(req, "generator"))
		return kw_oracle_answer(req, NULL, ok);
	return farm_answer(req, ok);
}

static int run_single(FILE *in, int canonical, int as_text)
{
	json_error_t jerr;
	json_t *req = json_loadf(in, JSON_REJECT_DUPLICATES, &jerr), *out;
	int ok = 0;

	if (as_text) {
		kw_error err = KW_ERROR_INIT;
		kw_buf b = KW_BUF_INIT;
		int rc = req ? asm_text(&b, req, &err) : kw_error_set(&err, KW_ESYNTAX, NULL, "invalid JSON at line %d, column %d: %s",
								      jerr.line, jerr.column, jerr.text);

		json_decref(req);
		if (rc == 0 && b.len && fwrite(b.p, 1, b.len, stdout) != b.len)
			rc = KW_EIO;
		kw_buf_free(&b);
		if (rc == KW_ENOMEM || rc == KW_EIO) {
			fputs(rc == KW_EIO ? "kwgen: write error\n" : "kwgen: out of memory\n", stderr);
			return 2;
		}
		if (rc) {
			fprintf(stderr, "kwgen: %s: %s%s%s%s\n", kw_error_code_name(rc), err.message,
				err.field[0] ? " (field " : "", err.field, err.field[0] ? ")" : "");
			return 1;
		}
		return 0;
	}
	if (!req) {
		out = json_pack("{s:s}", "error", jerr.text);
	} else if (canonical) {
		kw_error err = KW_ERROR_INIT;
		kw_request *r = NULL;
		char cid[65], key[65], *canon = NULL;

		if (kw_request_parse(&r, req, NULL, &err) || kw_request_ids(cid, key, &canon, r, &err)) {
			out = json_pack("{s:s}", "error", err.message);
		} else {
			out = json_pack("{s:s,s:s,s:s}", "canonical", canon, "config_id", cid, "key", key);
			ok = 1;
		}
		free(canon);
		kw_request_free(r);
	} else {
		out = answer(req, &ok);
	}
	json_decref(req);
	if (!out) {
		fputs("kwgen: out of memory\n", stderr);
		return 2;
	}
	json_dumpf(out, stdout, JSON_INDENT(1) | JSON_ENSURE_ASCII);
	fputc('\n', stdout);
	json_decref(out);
	return ok ? 0 : 1;
}

/*
 * Batch mode.  Lines are read in rounds of up to jobs x CHUNK lines; each
 * of `jobs` threads answers one chunk of the round into its own output
 * buffer, and the buffers are written in input order, so the output is the
 * same as a one-by-one run.  Memory stays bounded by the round.
 *
 * Every JSON value a thread makes for a line is allocated from that
 * thread's arena, reset after the line is answered: jansson's many small
 * mallocs and frees are most of the cost of a line otherwise.  The
 * allocator is installed before the first JSON value exists; a thread
 * without an arena (the main thread outside a chunk) uses malloc.
 */
#define CHUNK 256

static _Thread_local kw_arena *tl_arena;

static void *arena_malloc(size_t n)
{
	return tl_arena ? kw_arena_alloc(tl_arena, n) : malloc(n);
}

static void arena_free(void *p)
{
	if (!tl_arena)
		free(p); /* arena memory is released in bulk by kw_arena_reset */
}

static int dump_to_buf(const char *s, size_t n, void *data)
{
	return kw_buf_put(data, s, n) ? -1 : 0;
}

typedef struct chunk {
	char **lines;   /* owned by the reader, reused across rounds */
	size_t *lens;   /* bytes read into lines[i] */
	size_t *caps;   /* getline's allocation size of lines[i] */
	size_t n;
	kw_buf out;
	kw_arena arena;
	int oom;
	int as_text;    /* --asm: the text of each answer */
} chunk;

static void answer_line(chunk *c, char *p, size_t n)
{
	json_error_t jerr;
	json_t *req, *out;
	int ok;

	while (n > 0 && (p[n - 1] == '\n' || p[n - 1] == '\r' || p[n - 1] == ' ' || p[n - 1] == '\t'))
		p[--n] = '\0';
	while (n > 0 && (*p == ' ' || *p == '\t'))
		p++, n--;
	if (n == 0)
		return;
	req = json_loadb(p, n, JSON_REJECT_DUPLICATES, &jerr);
	if (c->as_text) {
		kw_error err = KW_ERROR_INIT;

		if (!req)
			kw_error_set(&err, KW_ESYNTAX, NULL, "bad JSON: %s (line %d, column %d)", jerr.text, jerr.line,
				     jerr.column);
		if (!req || asm_text(&c->out, req, &err)) {
			if (err.code == KW_ENOMEM)
				c->oom = 1;
			kw_buf_puts(&c->out, "// error: ");
			kw_buf_puts(&c->out, kw_error_code_name(err.code));
			kw_buf_puts(&c->out, ": ");
			for (const char *m = err.message; *m; m++)
				kw_buf_putc(&c->out, *m == '\n' ? ' ' : *m);
			kw_buf_putc(&c->out, '\n');
		}
		json_decref(req);
		if (c->out.oom)
			c->oom = 1;
		return;
	}
	if (!req) {
		char msg[300];
		snprintf(msg, sizeof(msg), "bad JSON: %s (line %d, column %d)", jerr.text, jerr.line, jerr.column);
		out = json_pack("{s:s}", "error", msg);
	} else {
		out = answer(req, &ok);
		json_decref(req);
	}
	if (!out || json_dump_callback(out, dump_to_buf, &c->out, JSON_COMPACT | JSON_ENSURE_ASCII) ||
	    kw_buf_putc(&c->out, '\n'))
		c->oom = 1;
	json_decref(out);
}

static void *run_chunk(void *arg)
{
	chunk *c = arg;

	tl_arena = &c->arena;
	for (size_t i = 0; i < c->n && !c->oom; i++) {
		answer_line(c, c->lines[i], c->lens[i]);
		kw_arena_reset(&c->arena);
	}
	tl_arena = NULL;
	return NULL;
}

static int run_batch(FILE *in, int jobs, int line_buffered, int as_text)
{
	chunk *cs;
	pthread_t *tids;
	size_t caps_total;
	int rc = 0, eof = 0;

	if (line_buffered)
		jobs = 1;
	cs = calloc((size_t)jobs, sizeof(*cs));
	tids = calloc((size_t)jobs, sizeof(*tids));
	if (!cs || !tids) {
		free(cs);
		free(tids);
		fputs("kwgen: out of memory\n", stderr);
		return 2;
	}
	caps_total = line_buffered ? 1 : CHUNK;
	for (int j = 0; j < jobs; j++) {
		cs[j].as_text = as_text;
		cs[j].lines = calloc(caps_total, sizeof(char *));
		cs[j].lens = calloc(caps_total, sizeof(size_t));
		cs[j].caps = calloc(caps_total, sizeof(size_t));
		if (!cs[j].lines || !cs[j].lens || !cs[j].caps)
			rc = 2;
	}
	json_set_alloc_funcs(arena_malloc, arena_free);
	while (!rc && !eof) {
		int used = 0;

		for (int j = 0; j < jobs && !eof; j++, used++) {
			chunk *c = &cs[j];
			c->n = 0;
			while (c->n < caps_total) {
				/* line buffers are kept across rounds and handed back to getline */
				ssize_t n = getline(&c->lines[c->n], &c->caps[c->n], in);

				if (n < 0) {
					eof = 1;
					break;
				}
				c->lens[c->n++] = (size_t)n;
			}
		}
		for (int j = 1; j < used; j++)
			if (pthread_create(&tids[j], NULL, run_chunk, &cs[j])) {
				run_chunk(&cs[j]);
				tids[j] = 0;
			}
		if (used)
			run_chunk(&cs[0]);
		for (int j = 1; j < used; j++)
			if (tids[j])
				pthread_join(tids[j], NULL);
		for (int j = 0; j < used && !rc; j++) {
			chunk *c = &cs[j];
			if (c->oom) {
				fputs("kwgen: out of memory\n", stderr);
				rc = 2;
			} else if (c->out.len && fwrite(c->out.p, 1, c->out.len, stdout) != c->out.len) {
				rc = 2;
			}
			kw_buf_reset(&c->out);
		}
		if (line_buffered && fflush(stdout))
			rc = 2;
	}
	json_set_alloc_funcs(malloc, free);
	for (int j = 0; j < jobs; j++) {
		for (size_t i = 0; i < caps_total && cs[j].lines; i++)
			free(cs[j].lines[i]);
		free(cs[j].lines);
		free(cs[j].lens);
		free(cs[j].caps);
		kw_buf_free(&cs[j].out);
		kw_arena_free(&cs[j].arena);
	}
	free(cs);
	free(tids);
	if (!rc && ferror(in)) {
		fprintf(stderr, "kwgen: read error: %s\n", strerror(errno));
		return 2;
	}
	return rc ? rc : fflush(stdout) ? 2 : 0;
}

int main(int argc, char **argv)
{
	int batch = 0, canonical = 0, line_buffered = 0, as_text = 0, rc;
	long jobs = sysconf(_SC_NPROCESSORS_ONLN);
	const char *path = NULL;
	FILE *in = stdin;

	if (argc > 1 && !strcmp(argv[1], "logic"))
		return kw_cli_logic(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "cache"))
		return kw_cli_cache(argc - 1, argv + 1);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--version")) {
			printf("kwgen %s (generators %s)\n", KW_VERSION, kw_generator_version());
			return 0;
		} else if (!strcmp(argv[i], "--batch")) {
			batch = 1;
		} else if (!strcmp(argv[i], "--canonical")) {
			canonical = 1;
		} else if (!strcmp(argv[i], "--asm")) {
			as_text = 1;
		} else if (!strcmp(argv[i], "--jobs") && i + 1 < argc) {
			char *end;
			jobs = strtol(argv[++i], &end, 10);
			if (*end || jobs < 1 || jobs > 64) {
				fputs("kwgen: --jobs takes 1..64\n", stderr);
				return 2;
			}
		} else if (!strcmp(argv[i], "--line-buffered")) {
			line_buffered = 1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "kwgen: unknown option %s\n", argv[i]);
			usage(stderr);
			return 2;
		} else if (!path) {
			path = argv[i];
		} else {
			fputs("kwgen: give at most one FILE\n", stderr);
			return 2;
		}
	}
	if (path && strcmp(path, "-")) {
		in = fopen(path, "r");
		if (!in) {
			fprintf(stderr, "kwgen: cannot open %s: %s\n", path, strerror(errno));
			return 2;
		}
	}
	if (jobs < 1)
		jobs = 1;
	if (jobs > 64)
		jobs = 64;
	if (as_text && canonical) {
		fputs("kwgen: --asm and --canonical do not go together\n", stderr);
		if (in != stdin)
			fclose(in);
		return 2;
	}
	rc = batch ? run_batch(in, (int)jobs, line_buffered, as_text) : run_single(in, canonical, as_text);
	if (in != stdin)
		fclose(in);
	return rc;
}
