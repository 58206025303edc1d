/*
 * kwgen - command-line front end of libkwgen.
 *
 *   kwgen [FILE]            one request (oracle or farm form) -> answer on stdout
 *   kwgen --batch [FILE]    JSON lines in, one compact answer per line out
 *   kwgen --asm [FILE]      the assembly of every result as plain text (kwgen/text.h)
 *   kwgen --canonical [FILE] print the canonical request, config_id and key
 *   kwgen cache CMD ...     look into a kwgend cache file (cli/cache.c)
 *   kwgen logic FILE.yaml   import a Tensile logic file (cli/logic.c)
 *   kwgen verify FILE...    check the waits of whole kernels (cli/verify.c)
 *   kwgen --help
 */
#include "kwgen/buf.h"
#include "kwgen/codeobj.h"
#include "kwgen/request.h"
#include "kwgen/text.h"
#include "cache_cli.h"
#include "logic.h"
#include "verify_cli.h"

#ifndef KW_VERSION
#define KW_VERSION "0.1.0"
#endif

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char synopsis[] =
	"usage: kwgen [--asm] [--batch [--jobs N] [--line-buffered]] [FILE]\n"
	"       kwgen --canonical [FILE]\n"
	"       kwgen logic FILE.yaml [--server URL] ...   (kwgen logic --help)\n"
	"       kwgen verify [--isa gfxNNN] [--json] [--suppress FILE] FILE...\n"
	"                    (kwgen verify --help)\n"
	"       kwgen cache stats|ls|show KEY|rm KEY|purge [--older-than DAYS] [--db FILE]\n"
	"                                                  (kwgen cache --help)\n"
	"       kwgen --help | --version\n";

static void usage(FILE *f)
{
	fputs(synopsis, f);
	fputs("\n"
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
	      "  --batch          JSON lines in, one compact answer per line out: answer N is\n"
	      "                   line N's (a blank line, a line that is not JSON and a line\n"
	      "                   past --max-line-bytes each answer an error); exit 0\n"
	      "  --max-line-bytes N  longest batch line, and longest request in single mode\n"
	      "                   (default 1048576, as kwgend's --max-body-bytes)\n"
	      "  --jobs N         answer batch lines on N threads (default: online CPUs);\n"
	      "                   the output order is the input order\n"
	      "  --line-buffered  flush after every answer (for interactive pipes; 1 thread)\n"
	      "  --asm            print only the assembly, as text: per result a header line\n"
	      "                   \"// <generator>(<args>)\", its asm, then one\n"
	      "                   \"// warning: <code>: <message>\" line per diagnostic; a\n"
	      "                   \"// source: ...\" line first when the request has a source;\n"
	      "                   errors go to stderr (exit 1); with --batch an error is a\n"
	      "                   \"// error: <code>: <message>\" line\n"
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
	      "               is the holder; with \"replaceHolder\": 8 it prints\n"
	      "               v[vgprValuC+8])\n"
	      "  source       where the request came from: {\"file\", \"SolutionIndex\",\n"
	      "               \"SolutionNameMin\"} (strings and integers) or a string; echoed\n"
	      "               with the answer, not part of the key (kwgen logic sets it)\n"
	      "\n"
	      "Every answer carries \"diagnostics\": [{\"code\", \"message\"}] with codes\n"
	      "count_clamped, count_out_of_range, vgpr_pair_misaligned, agpr_spill,\n"
	      "register_out_of_range, instruction_not_on_isa; with \"strict\": true any of\n"
	      "them makes the answer an error.  Errors are {\"error\": {\"code\", \"message\",\n"
	      "\"field\"}} as kwgend gives them, in every form, naming the key and what is\n"
	      "allowed; a successful oracle-form answer is the reference oracle's\n"
	      "(\"isa\": [9,4,2]).  Duplicate JSON keys are an error.\n", f);
}

/* stdout could not be written (a full disk, a closed descriptor): say so
 * with the reason and exit 2, whatever was answered. */
static int write_error(void)
{
	fprintf(stderr, "kwgen: write error on standard output: %s\n", strerror(errno ? errno : EIO));
	return 2;
}

/* Nonzero when what was written to stdout may not have arrived (an earlier
 * buffered write failed, or the last flush does). */
static int stdout_failed(void)
{
	return fflush(stdout) != 0 || ferror(stdout);
}

/* The error answer every path gives, the daemon's shape:
 * {"error": {"code": "invalid", "message": "...", "field": "kernel.X" | null}}. */
static json_t *error_answer(const kw_error *e)
{
	return kw_error_answer(e);
}

/* lineno: the batch input line, or 0 for a whole-file request. */
static json_t *syntax_answer(const json_error_t *jerr, size_t lineno)
{
	kw_error e = KW_ERROR_INIT;

	if (lineno)
		kw_error_set(&e, KW_ESYNTAX, NULL, "line %zu: not JSON: %s (column %d)", lineno, jerr->text, jerr->column);
	else
		kw_error_set(&e, KW_ESYNTAX, NULL, "not JSON: %s (line %d, column %d)", jerr->text, jerr->line, jerr->column);
	return error_answer(&e);
}

static json_t *farm_answer(const json_t *req, int *ok)
{
	kw_error err = KW_ERROR_INIT;
	json_t *o = kw_request_answer(req, NULL, &err);

	*ok = o != NULL;
	return o ? o : error_answer(&err);
}

/* The --asm text of one request appended to out; errors as
 * kw_request_answer. */
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

/* "// error: <code>: <message>\n" (a batch line that has no answer). */
static void asm_error(kw_buf *out, const kw_error *e)
{
	kw_buf_puts(out, "// error: ");
	kw_buf_puts(out, kw_error_code_name(e->code));
	kw_buf_puts(out, ": ");
	for (const char *m = e->message; *m; m++)
		kw_buf_putc(out, *m == '\n' ? ' ' : *m);
	kw_buf_putc(out, '\n');
}

/* The oracle form ("generator" + "args") answers exactly as the reference
 * oracle does (its errors in the one error shape); every other request is
 * the farm form and answers as kwgend does. */
static json_t *answer(const json_t *req, int *ok)
{
	if (json_is_object(req) && json_object_get(req, "generator"))
		return kw_oracle_answer(req, NULL, ok);
	return farm_answer(req, ok);
}

/* kwgen --asm FILE: the text on stdout; an error on stderr, exit 1.
 * req NULL: *in_err says why there is none. */
static int run_single_text(json_t *req, const kw_error *in_err)
{
	kw_error err = KW_ERROR_INIT;
	kw_buf b = KW_BUF_INIT;
	int rc = req ? asm_text(&b, req, &err) : (err = *in_err, err.code);

	json_decref(req);
	errno = 0;
	if (rc == 0 && b.len && fwrite(b.p, 1, b.len, stdout) != b.len)
		rc = KW_EIO;
	kw_buf_free(&b);
	if (rc == KW_ENOMEM) {
		fputs("kwgen: out of memory\n", stderr);
		return 2;
	}
	if (rc == KW_EIO || (rc == 0 && stdout_failed()))
		return write_error();
	if (rc) {
		fprintf(stderr, "kwgen: %s: %s%s%s%s\n", kw_error_code_name(rc), err.message,
			err.field[0] ? " (field " : "", err.field, err.field[0] ? ")" : "");
		return 1;
	}
	return 0;
}

/* The single-mode input: at most max bytes are read (a request is small;
 * an endless or huge input must not take all memory). */
typedef struct single_in {
	FILE *f;
	size_t max, got;
	int too_big;
	int read_errno;   /* nonzero: reading failed with this errno */
	size_t nul_at;    /* nonzero: the 1-based offset of a NUL byte */
} single_in;

static size_t read_single(void *buf, size_t n, void *data)
{
	single_in *s = data;
	size_t want = n, got;

	if (want > s->max + 1 - s->got)
		want = s->max + 1 - s->got;
	errno = 0;
	got = fread(buf, 1, want, s->f);
	if (got == 0 && ferror(s->f)) {
		s->read_errno = errno ? errno : EIO;
		return (size_t)-1;
	}
	const char *nul = memchr(buf, '\0', got);
	if (nul) { /* jansson would call it the end of the text */
		s->nul_at = s->got + (size_t)(nul - (const char *)buf) + 1;
		return (size_t)-1;
	}
	s->got += got;
	if (s->got > s->max) {
		s->too_big = 1;
		return (size_t)-1;
	}
	return got;
}

static int run_single(FILE *in, int canonical, int as_text, size_t max)
{
	json_error_t jerr;
	single_in src = { in, max, 0, 0, 0, 0 };
	json_t *req = json_load_callback(read_single, &src, JSON_REJECT_DUPLICATES, &jerr), *out;
	kw_error in_err = KW_ERROR_INIT;
	int ok = 0;

	if (src.read_errno) {
		json_decref(req);
		fprintf(stderr, "kwgen: read error: %s\n", strerror(src.read_errno));
		return 2;
	}
	if (req && (src.too_big || src.nul_at)) {
		/* jansson reads the callback's "stop" as the end of input: a
		 * whole request followed by more than the limit allows is
		 * still over it (kwgend answers such a body 413). */
		json_decref(req);
		req = NULL;
	}
	if (!req && src.nul_at)
		kw_error_set(&in_err, KW_ESYNTAX, NULL,
			     "not JSON: a NUL byte at byte %zu (JSON text holds none)", src.nul_at);
	else if (!req && src.too_big)
		kw_error_set(&in_err, KW_ELIMIT, NULL,
			     "the request is over %zu bytes; that is the limit (--max-line-bytes N raises it)", max);
	else if (!req)
		kw_error_set(&in_err, KW_ESYNTAX, NULL, "not JSON: %s (line %d, column %d)", jerr.text, jerr.line,
			     jerr.column);
	if (as_text)
		return run_single_text(req, &in_err);
	if (!req) {
		out = error_answer(&in_err);
	} else if (canonical) {
		kw_error err = KW_ERROR_INIT;
		kw_request *r = NULL;
		char cid[65], key[65], *canon = NULL;

		if (kw_request_parse(&r, req, NULL, &err) || kw_request_ids(cid, key, &canon, r, &err)) {
			out = error_answer(&err);
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
	errno = 0;
	if (json_dumpf(out, stdout, JSON_INDENT(1) | JSON_ENSURE_ASCII) || fputc('\n', stdout) == EOF ||
	    stdout_failed()) {
		json_decref(out);
		return write_error();
	}
	json_decref(out);
	return ok ? 0 : 1;
}

/*
 * Batch mode.  Lines are read in rounds; each of `jobs` threads answers one
 * chunk of the round (up to CHUNK lines or CHUNK_BYTES bytes) into its own
 * output buffer, and the buffers are written in input order, so the output
 * is the same as a one-by-one run whatever the number of jobs.
 *
 * Every input line gets exactly one answer line, so answer N is the answer
 * to line N: a blank or whitespace-only line, a line that is not JSON (NUL
 * bytes, invalid UTF-8) and a line longer than --max-line-bytes each answer
 * {"error": {...}}.  A line's bytes past the limit are skipped without being
 * stored, so memory is bounded by jobs x (CHUNK_BYTES + max line bytes)
 * for the input and jobs x (CHUNK_OUT_BYTES + one answer) for the output.
 *
 * Allocation: everything here, in libkwgen and in jansson uses malloc/free
 * (jansson's allocator is never replaced), so any value may be freed by any
 * code on any thread.
 */
#define CHUNK 256
#define CHUNK_BYTES ((size_t)4 << 20)
#define LINE_KEEP ((size_t)64 << 10) /* line buffers larger than this are freed after use */
/* A chunk's answers held before they are written: a few short lines can
 * ask for hundreds of MB of assembly, so past this a chunk stops and its
 * remaining lines are answered and written one at a time, in order. */
#define CHUNK_OUT_BYTES ((size_t)32 << 20)

typedef struct line {
	char *p;        /* malloc()ed, NUL-terminated; reused across rounds */
	size_t len;     /* bytes stored (at most max_line) */
	size_t cap;
	size_t full;    /* bytes of the line in the input, newline excluded */
} line;

typedef struct chunk {
	line *lines;
	size_t n;
	size_t max_line;
	size_t done;    /* lines answered into out by run_chunk */
	kw_buf out;
	int oom;
	int as_text;    /* --asm: the text of each answer */
} chunk;

static int dump_to_buf(const char *s, size_t n, void *data)
{
	return kw_buf_put(data, s, n) ? -1 : 0;
}

/* Read one line (without its "\n") into l, storing at most max bytes.
 * Returns 1 for a line, 0 at end of input, -1 when out of memory. */
static int read_line(FILE *in, line *l, size_t max)
{
	int c = EOF;

	l->len = l->full = 0;
	flockfile(in);
	while ((c = getc_unlocked(in)) != EOF && c != '\n') {
		l->full++;
		if (l->len >= max)
			continue;
		if (l->len + 1 >= l->cap) {
			size_t cap = l->cap ? 2 * l->cap : 256;
			char *p;

			if (cap > max + 1)
				cap = max + 1;
			if (!(p = realloc(l->p, cap))) {
				funlockfile(in);
				return -1;
			}
			l->p = p;
			l->cap = cap;
		}
		l->p[l->len++] = (char)c;
	}
	funlockfile(in);
	if (c == EOF && l->full == 0)
		return 0;
	if (!l->p && !(l->p = malloc(l->cap = 1)))
		return -1;
	l->p[l->len] = '\0';
	return 1;
}

static int is_json_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void answer_line(chunk *c, line *l, size_t lineno)
{
	json_error_t jerr;
	json_t *req, *out;
	kw_error e = KW_ERROR_INIT;
	char *p = l->p;
	size_t n = l->len;
	int ok;

	while (n > 0 && is_json_space(p[n - 1]))
		n--;
	while (n > 0 && is_json_space(*p))
		p++, n--;
	if (l->full > c->max_line) {
		kw_error_set(&e, KW_ELIMIT, NULL, "line %zu is %zu bytes; the limit is %zu (--max-line-bytes)", lineno, l->full,
			     c->max_line);
		out = c->as_text ? NULL : error_answer(&e);
	} else if (n == 0) {
		kw_error_set(&e, KW_ESYNTAX, NULL, "line %zu is blank: each line must hold one JSON request", lineno);
		out = c->as_text ? NULL : error_answer(&e);
	} else if (memchr(l->p, '\0', l->len)) {
		kw_error_set(&e, KW_ESYNTAX, NULL, "line %zu: not JSON: a NUL byte at column %zu (JSON text holds none)",
			     lineno, (size_t)((char *)memchr(l->p, '\0', l->len) - l->p) + 1);
		out = c->as_text ? NULL : error_answer(&e);
	} else if (!(req = json_loadb(p, n, JSON_REJECT_DUPLICATES, &jerr))) {
		if (c->as_text) {
			kw_error_set(&e, KW_ESYNTAX, NULL, "line %zu: not JSON: %s (column %d)", lineno, jerr.text, jerr.column);
			asm_error(&c->out, &e);
			c->oom |= c->out.oom;
			return;
		}
		out = syntax_answer(&jerr, lineno);
	} else if (c->as_text) {
		if (asm_text(&c->out, req, &e))
			asm_error(&c->out, &e);
		json_decref(req);
		c->oom |= c->out.oom;
		return;
	} else {
		out = answer(req, &ok);
		json_decref(req);
	}
	if (c->as_text && !out) {
		asm_error(&c->out, &e);
		c->oom |= c->out.oom;
		return;
	}
	if (!out || json_dump_callback(out, dump_to_buf, &c->out, JSON_COMPACT | JSON_ENSURE_ASCII) ||
	    kw_buf_putc(&c->out, '\n'))
		c->oom = 1;
	json_decref(out);
}

typedef struct job {
	chunk *c;
	size_t first;   /* input line number of c->lines[0], 1-based */
} job;

/* Answer line i of c (its number lineno) into c->out. */
static void answer_one(chunk *c, size_t i, size_t lineno)
{
	answer_line(c, &c->lines[i], lineno);
	if (c->lines[i].cap > LINE_KEEP) {
		free(c->lines[i].p);
		c->lines[i].p = NULL;
		c->lines[i].cap = 0;
	}
}

/* Answer the chunk's lines until its output passes CHUNK_OUT_BYTES; the
 * rest (from c->done) are answered one by one as the output is written. */
static void *run_chunk(void *arg)
{
	job *jb = arg;
	chunk *c = jb->c;

	for (c->done = 0; c->done < c->n && !c->oom && c->out.len < CHUNK_OUT_BYTES; c->done++)
		answer_one(c, c->done, jb->first + c->done);
	return NULL;
}

static int run_batch(FILE *in, int jobs, int line_buffered, size_t max_line, int as_text)
{
	chunk *cs;
	job *jbs;
	pthread_t *tids;
	size_t per_chunk, lineno = 1;
	int rc = 0, eof = 0, read_errno = 0;

	if (line_buffered)
		jobs = 1;
	cs = calloc((size_t)jobs, sizeof(*cs));
	jbs = calloc((size_t)jobs, sizeof(*jbs));
	tids = calloc((size_t)jobs, sizeof(*tids));
	if (!cs || !jbs || !tids) {
		free(cs);
		free(jbs);
		free(tids);
		fputs("kwgen: out of memory\n", stderr);
		return 2;
	}
	per_chunk = line_buffered ? 1 : CHUNK;
	for (int j = 0; j < jobs; j++) {
		cs[j].max_line = max_line;
		cs[j].as_text = as_text;
		if (!(cs[j].lines = calloc(per_chunk, sizeof(line))))
			rc = 2;
	}
	while (!rc && !eof) {
		int used = 0;

		for (int j = 0; j < jobs && !eof && !rc; j++, used++) {
			chunk *c = &cs[j];
			size_t bytes = 0;

			c->n = 0;
			jbs[j].c = c;
			jbs[j].first = lineno;
			while (c->n < per_chunk && bytes < CHUNK_BYTES) {
				int got = read_line(in, &c->lines[c->n], max_line);

				if (got < 0) {
					fputs("kwgen: out of memory\n", stderr);
					rc = 2;
					break;
				}
				if (got == 0) {
					eof = 1;
					read_errno = ferror(in) ? (errno ? errno : EIO) : 0;
					break;
				}
				bytes += c->lines[c->n].len;
				c->n++;
				lineno++;
			}
		}
		if (rc)
			break;
		for (int j = 1; j < used; j++)
			if (pthread_create(&tids[j], NULL, run_chunk, &jbs[j])) {
				run_chunk(&jbs[j]);
				tids[j] = 0;
			}
		if (used)
			run_chunk(&jbs[0]);
		for (int j = 1; j < used; j++)
			if (tids[j])
				pthread_join(tids[j], NULL);
		for (int j = 0; j < used && !rc; j++) {
			chunk *c = &cs[j];
			for (;;) {
				if (c->oom) {
					fputs("kwgen: out of memory\n", stderr);
					rc = 2;
				} else if ((errno = 0, c->out.len) &&
					   fwrite(c->out.p, 1, c->out.len, stdout) != c->out.len) {
					rc = write_error();
				}
				kw_buf_reset(&c->out);
				if (rc || c->done >= c->n)
					break;
				answer_one(c, c->done, jbs[j].first + c->done); /* the rest, in order */
				c->done++;
			}
		}
		if (!rc && line_buffered && stdout_failed())
			rc = write_error();
	}
	for (int j = 0; j < jobs; j++) {
		for (size_t i = 0; i < per_chunk && cs[j].lines; i++)
			free(cs[j].lines[i].p);
		free(cs[j].lines);
		kw_buf_free(&cs[j].out);
	}
	free(cs);
	free(jbs);
	free(tids);
	if (!rc && ferror(in)) {
		fprintf(stderr, "kwgen: read error: %s\n", strerror(read_errno ? read_errno : EIO));
		return 2;
	}
	return rc ? rc : stdout_failed() ? write_error() : 0;
}

int main(int argc, char **argv)
{
	int batch = 0, canonical = 0, line_buffered = 0, as_text = 0, rc;
	size_t max_line = (size_t)1 << 20;
	long jobs = sysconf(_SC_NPROCESSORS_ONLN);
	const char *path = NULL;
	FILE *in = stdin;

	if (argc > 1 && !strcmp(argv[1], KW_CODEOBJ_CHILD_ARG)) /* kwgen verify's decoder process */
		return kw_codeobj_child_main(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "logic"))
		return kw_cli_logic(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "verify"))
		return kw_cli_verify(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "cache"))
		return kw_cli_cache(argc - 1, argv + 1);
	for (int i = 1, opts = 1; i < argc; i++) {
		const char *val = NULL; /* the N of --jobs=N, --max-line-bytes=N (kwgend's form) */
		if (opts && !strncmp(argv[i], "--jobs=", 7))
			val = argv[i] + 7;
		else if (opts && !strncmp(argv[i], "--max-line-bytes=", 17))
			val = argv[i] + 17;
		if (val) {
			char *end;
			long long v = strtoll(val, &end, 10);
			int is_jobs = argv[i][2] == 'j';
			if (!*val || *end || v < 1 || v > (is_jobs ? 64 : (1LL << 30))) {
				fputs(is_jobs ? "kwgen: --jobs takes 1..64\n" : "kwgen: --max-line-bytes takes 1..1073741824\n",
				      stderr);
				return 2;
			}
			if (is_jobs)
				jobs = (long)v;
			else
				max_line = (size_t)v;
			continue;
		}
		if (opts && (!strcmp(argv[i], "--jobs") || !strcmp(argv[i], "--max-line-bytes")) && i + 1 == argc) {
			fprintf(stderr, "kwgen: %s needs a value\n", argv[i]);
			return 2;
		} else if (!opts || (argv[i][0] != '-' || !argv[i][1])) {
			if (path) {
				fputs("kwgen: give at most one FILE\n", stderr);
				return 2;
			}
			path = argv[i];
		} else if (!strcmp(argv[i], "--")) {
			opts = 0; /* the rest are file names, even "-x" */
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			errno = 0;
			usage(stdout);
			return stdout_failed() ? write_error() : 0;
		} else if (!strcmp(argv[i], "--version")) {
			errno = 0;
			printf("kwgen %s (generators %s)\n", KW_VERSION, kw_generator_version());
			return stdout_failed() ? write_error() : 0;
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
		} else if (!strcmp(argv[i], "--max-line-bytes") && i + 1 < argc) {
			char *end;
			long long v = strtoll(argv[++i], &end, 10);
			if (*end || v < 1 || v > (1LL << 30)) {
				fputs("kwgen: --max-line-bytes takes 1..1073741824\n", stderr);
				return 2;
			}
			max_line = (size_t)v;
		} else if (!strcmp(argv[i], "--line-buffered")) {
			line_buffered = 1;
		} else {
			fprintf(stderr, "kwgen: unknown option %s (kwgen --help lists them; -- ends the options)\n",
				argv[i]);
			fputs(synopsis, stderr);
			return 2;
		}
	}
	if (as_text && canonical) {
		fputs("kwgen: --asm and --canonical do not go together\n", stderr);
		return 2;
	}
	if (batch && canonical) {
		fputs("kwgen: --canonical takes one request, not --batch\n", stderr);
		return 2;
	}
	if (path && strcmp(path, "-")) {
		struct stat sb;

		in = fopen(path, "r");
		if (!in) {
			fprintf(stderr, "kwgen: cannot open %s: %s\n", path, strerror(errno));
			return 2;
		}
		if (fstat(fileno(in), &sb) == 0 && S_ISDIR(sb.st_mode)) {
			fprintf(stderr, "kwgen: %s is a directory: give a file of JSON (a request, or JSON lines with --batch)\n",
				path);
			fclose(in);
			return 2;
		}
	}
	if (jobs < 1)
		jobs = 1;
	if (jobs > 64)
		jobs = 64;
	rc = batch ? run_batch(in, (int)jobs, line_buffered, max_line, as_text) : run_single(in, canonical, as_text, max_line);
	if (in != stdin)
		fclose(in);
	return rc;
}
