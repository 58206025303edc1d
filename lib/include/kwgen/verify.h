/*
 * kwgen/verify.h - wait-count hazard checker for whole AMDGPU kernels.
 *
 * Reads AMDGPU assembly text in LLVM syntax, as `clang -S` / Tensile-rocisa
 * print it (labels, `//`, `;` and block comments, directives, `.set`
 * symbols, `.macro` definitions (expanded), `.amdgcn_target`) or as
 * `llvm-objdump -d` prints it (`ADDR <sym>:` then instructions with
 * `// ADDR: HEX [<sym+0xOFF>]` comments; branch targets from the comment or
 * the SOPP encoding; s_getpc/s_add/s_setpc long branches followed; the
 * syntax is detected per line), builds basic blocks and runs a forward
 * data-flow of the
 * hardware's wait counters over them (join = worst case, fixed point over
 * loops).  It reports registers read or overwritten while a memory operation
 * that writes them may still be in flight, LDS operations in flight at a
 * workgroup barrier, LDS-DMA data read with the wrong counter, waits that
 * wait for nothing, and instructions the model does not know.
 *
 * The counter rules follow LLVM's SIInsertWaitcnts.cpp (event kinds per
 * counter, counterOutOfOrder, hasPendingFlat, the VmemType rule, function
 * entry and call conventions) and AMDGPUUsage.rst (the memory model's waits);
 * lib/verify/model.c cites the place of each rule.
 *
 * Pure C over text: no LLVM.  A code object is verified by decoding it into
 * the objdump form first (the `// ADDR: HEX` comments give every finding its
 * byte offset).
 *
 * Thread safety: every call works on its own result; the tables are static
 * and read-only.  A result is immutable once returned.
 */
#ifndef KWGEN_VERIFY_H
#define KWGEN_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "kwgen/buf.h"
#include "kwgen/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Finding codes.  The first four are the race class (CONTRACT.md: codes
 * starting race_, lds_barrier, lds_dma); lds_latency is a possible race the
 * schedule means (a warning). */
typedef enum kw_verify_code {
	KW_VF_RACE_RAW = 0,        /* register read while a load that writes it may be in flight */
	KW_VF_RACE_WAW,            /* register written while a load that writes it may be in flight */
	KW_VF_LDS_BARRIER,         /* LDS write in flight at a workgroup barrier */
	KW_VF_LDS_DMA,             /* LDS read while an LDS-DMA load may still write LDS */
	KW_VF_REDUNDANT_WAIT,      /* a wait that waits for nothing on every path */
	KW_VF_UNKNOWN_INSTRUCTION, /* a mnemonic the model does not know */
	KW_VF_UNSUPPORTED,         /* something the analysis cannot follow (indirect jump, call) */
	KW_VF_LDS_LATENCY,         /* an LDS read left in flight by the lgkmcnt/dscnt waits
				      since it and used KW_VF_LDS_LATENCY_MIN or more instructions
				      and KW_VF_LDS_LATENCY_MATRIX_MIN or more matrix ops (MFMA,
				      WMMA) later on every path: the schedule relies on LDS
				      latency (hand-written Tensile style); a warning */
	KW_VF_CODE_COUNT
} kw_verify_code;

/* Instructions, and matrix-core instructions, on every path between an LDS
 * read and a use of its result from which a use that the waits since the
 * read do not cover is lds_latency (a deliberate schedule: Tensile issues
 * its local reads early and hides their latency behind MFMAs) rather than
 * race_raw; a use with no wait at all on the LDS counter since the read,
 * or with fewer matrix ops in between (a count one too high in compiler
 * output), stays race_raw. */
#define KW_VF_LDS_LATENCY_MIN 32
#define KW_VF_LDS_LATENCY_MATRIX_MIN 4

typedef enum kw_verify_severity {
	KW_VS_ERROR = 0,   /* race class, unknown_instruction */
	KW_VS_WARNING = 1, /* redundant_wait, unsupported, lds_latency */
	KW_VS_NOTE = 2
} kw_verify_severity;

/*
 * The verifier's version, a static string "kwgen-verify-N".  Bump N (in
 * lib/verify/findings.c) whenever the findings, totals or answer shape for
 * some input may change: kwgend keys cached verifications by it (POST
 * /v1/verify), so an unchanged version serves stale findings.  `make
 * verify-salt-check` fails when the committed corpus's findings change while
 * the version does not (tests/verify/salt.txt; `make verify-salt-update`
 * records a new pair).  Never NULL; not owned by the caller.
 */
const char *kw_verify_version(void);

/* "race_raw", "lds_barrier", ...; NULL for an out-of-range code. */
const char *kw_verify_code_name(int code);
/* 1 for the race class (race_raw, race_waw, lds_barrier, lds_dma,
 * lds_latency). */
int kw_verify_code_is_race(int code);
/* Code for a name ("race_raw"); -1 if unknown. */
int kw_verify_code_from_name(const char *name);
/* "error" / "warning" / "note". */
const char *kw_verify_severity_name(int severity);

typedef struct kw_verify_opts {
	/* Processor name ("gfx942", "gfx90a", "gfx1201"...; gfx940/941 are read
	 * as gfx942).  NULL: taken from the text's `.amdgcn_target`; a text
	 * without one (objdump form) then fails with KW_EINVAL. */
	const char *isa;
	/* Bounds; 0 = the default.  max_instructions (default 64M) and
	 * max_work (default 256 x instructions + 1M: block transfers counted in
	 * instructions, over all fixed-point passes) end with KW_ELIMIT and a
	 * message naming the bound; they never hang. */
	size_t max_instructions;
	uint64_t max_work;
	/* Findings kept with full detail (default 100000).  Totals per code
	 * (kw_verify_result_total) are exact whatever this is. */
	size_t max_findings;
	/* Suppressions, the text of a suppression file (NUL-terminated, may be
	 * NULL).  One rule a line, `#` comments; a rule is a code name (or `*`)
	 * followed by optional key=value filters that must all match:
	 * function=GLOB (fnmatch), line=N, offset=N (decimal or 0x hex),
	 * counter=NAME, register=TEXT, mnemonic=GLOB (of the instruction at the
	 * finding).  Example: `race_raw function=Cijk_* counter=lgkmcnt`.
	 * A suppressed finding is counted in kw_verify_result_suppressed, not
	 * listed.  A malformed rule is KW_EINVAL naming its line.
	 * Inline: a comment `kwgen-verify: allow CODE[,CODE...]` (or `allow *`)
	 * on an instruction's line suppresses those codes reported at it.  A
	 * malformed one (an unknown code, no code, no colon, another word
	 * after `kwgen-verify:`) is KW_EINVAL, err->field "allow", naming its
	 * line and the codes.  Rules are read from the author's text only:
	 * not from a streamed text (kw_verify_stream: a code object's decoded
	 * text, whose comments hold ELF symbol names) nor from lines a false
	 * `.if` skips.  The line `assume atomic-counters` in this text asks
	 * for assume_atomic_counters. */
	const char *suppressions;
	/* 1: do not report redundant_wait. */
	int no_redundant;
	/* Name shown in text output ("file:line: ..."); NULL = "<input>". */
	const char *filename;
	/* Bytes the reading of one text may hold (macro expansions and the
	 * instruction, operand and wait arrays, counted as they grow and while
	 * a macro line expands); past it KW_ELIMIT naming the bound.  0 = the
	 * default, 16 x the text's length + 96 MiB. */
	size_t max_memory;
	/* The text is decoded from data words (kw_verify_text_words' lines,
	 * sorted by offset): every finding's line, producer_line and the
	 * "line N" its message names become the source line of the word at
	 * that byte offset, and a finding at an instruction whose first word
	 * is on a line with an inline allow of its code is suppressed
	 * (objdump form; kw_verify_stream only: NULL = the text's own lines).
	 * Read during the verification only. */
	const struct kw_verify_word_line *source_lines;
	size_t n_source_lines;
	/* 1: assume the counter protocol of Tensile's GSU / StreamK
	 * synchronizer: the memory word a 32-bit s_atomic_inc / s_atomic_dec
	 * (or s_buffer_atomic_inc / _dec) with glc updates holds a value in
	 * [0, data] whenever it runs (the host zeroes it and only these
	 * atomics, all with the same data, update it), so the value it returns
	 * lies in [0, data] (data: the SGPR's value before the atomic; ISA:
	 * dec stores (old == 0 || old > data) ? data : old - 1, inc stores
	 * old >= data ? 0 : old + 1, both return old).  Paths needing another
	 * value are not taken.  0 (default): the returned value is unknown
	 * (memory may hold anything), and a finding whose path tests it says
	 * so.  kwgen verify --assume-atomic-counters; POST /v1/verify
	 * "assume_atomic_counters".  The same assumption is asked for by a
	 * suppression-file line `assume atomic-counters` or a comment
	 * `kwgen-verify: assume atomic-counters` anywhere in the text (kept
	 * with the kernel); the result says which applied
	 * (kw_verify_result_assumption). */
	int assume_atomic_counters;
	/* The line of a `kwgen-verify: assume atomic-counters` comment in the
	 * source of a text decoded from data words (kw_verify_words'
	 * assume_line; kw_verify_stream only): the assumption applies, from
	 * that comment.  0 = none. */
	uint64_t assume_line;
} kw_verify_opts;

#define KW_VERIFY_OPTS_INIT { NULL, 0, 0, 0, NULL, 0, NULL, 0, NULL, 0, 0, 0 }

/* Where an assumption came from (kw_verify_result_assumption). */
typedef enum kw_verify_from {
	KW_VERIFY_FROM_NONE = 0,     /* not assumed */
	KW_VERIFY_FROM_OPTION,       /* kw_verify_opts (kwgen verify --assume-atomic-counters,
				      * the route's "assume_atomic_counters") */
	KW_VERIFY_FROM_SUPPRESSIONS, /* a suppression-file line `assume atomic-counters` */
	KW_VERIFY_FROM_INLINE        /* a `kwgen-verify: assume atomic-counters` comment */
} kw_verify_from;

/* One use a merged finding stands for (kw_verify_finding.uses): where it
 * is and the count that makes it safe, on its own paths. */
typedef struct kw_verify_use {
	int64_t line;    /* 1-based line of the instruction that reads (or overwrites) */
	int64_t offset;  /* its byte address (objdump form, code objects); -1 otherwise */
	int needed;      /* the count that makes this use safe: in the last wait since the
			  * producer before it (have >= 0), or in a wait put right before it
			  * (have < 0); -1 = none.  A wait that comes before several uses
			  * needs the smallest of theirs. */
	int have;        /* the count waited for since the producer on its worst path; -1 =
			  * no wait on that counter since it */
} kw_verify_use;

/* A finding; its strings are owned by the result (valid until
 * kw_verify_result_free) and are printable ASCII.
 *
 * One finding per root cause: the uses (race_raw, race_waw, lds_latency)
 * of one producer on one counter that are not suppressed are one finding,
 * reported at the use on the earliest line, whose needed is the smallest
 * any of them needs (so it makes every one safe in any wait), whose
 * also_lines name the others and whose uses give every use (this one
 * first) with its own count: the fix in the message names the same
 * counts at the same lines. */
typedef struct kw_verify_finding {
	int code;              /* kw_verify_code */
	int severity;          /* kw_verify_severity */
	int64_t line;          /* 1-based line in the input text */
	int64_t offset;        /* byte address from the objdump `// ADDR:` comment; -1 otherwise */
	int64_t producer_line; /* line of the memory instruction not yet complete; -1 = none */
	int64_t producer_offset; /* its address (objdump form); -1 otherwise */
	int needed;            /* count that would make the use safe in the last wait since the
	                        * producer (or before the use when none): the smallest any path
	                        * to the use (and any use in also_lines) needs; -1 = none */
	int have;              /* count waited for on the worst path; -1 = no wait on that counter */
	const char *counter;   /* "lgkmcnt", "loadcnt", ...; "" = none */
	const char *reg;       /* register as written ("v[34:35]"); "" = none */
	const char *function;  /* enclosing function/symbol name; "" = none */
	const char *mnemonic;  /* mnemonic of the instruction at `line`; "" = none */
	const char *message;   /* one sentence saying what is wrong and what to change */
	const int64_t *also_lines; /* the other uses of the same producer and counter
	                            * (lines, ascending) this finding stands for */
	size_t n_also_lines;   /* 0 = none (also_lines NULL) */
	const kw_verify_use *uses; /* with also_lines: every use this finding stands for, by
				    * line (one entry a line, its smallest count), each with
				    * its own needed and have; NULL otherwise */
	size_t n_uses;         /* 0 = none */
} kw_verify_finding;

typedef struct kw_verify_stats {
	uint64_t instructions; /* instructions read (directives and labels excluded) */
	uint64_t waits;        /* s_waitcnt* / s_wait_* instructions */
	uint64_t blocks;       /* basic blocks */
	uint64_t functions;    /* functions (symbols with code) */
	uint64_t work;         /* instructions transferred over all fixed-point passes */
	uint64_t bytes;        /* input size */
	double seconds;        /* wall time of kw_verify_text */
} kw_verify_stats;

typedef struct kw_verify_result kw_verify_result;

/*
 * Verify one assembly text (len bytes, need not be NUL-terminated; either
 * syntax).  On success *out is a new result (free with
 * kw_verify_result_free) and 0 is returned, whether or not there are
 * findings.  Errors: KW_EINVAL (no ISA given or found, unknown ISA, text
 * that is not assembly, a bad suppression rule), KW_ELIMIT (a bound in o
 * exceeded), KW_ENOMEM; *out is then NULL.  o may be NULL (defaults).
 */
int kw_verify_text(kw_verify_result **out, const char *text, size_t len,
		   const kw_verify_opts *o, kw_error *err);

void kw_verify_result_free(kw_verify_result *r);

/*
 * A text verified as it arrives (a code object's decoded text, read from
 * the decoder process's pipe: kwgen/codeobj.h), with the findings of
 * kw_verify_text on the whole text.  Whole lines are read as soon as they
 * are in; the text is held in chunks of 1 MiB (or twice the longest line),
 * never in one growing buffer, and they count against o->max_memory with
 * what reading holds (default 96 MiB here: give the bound).
 *
 *   kw_verify_stream_new: o->isa is required (the text is not searched
 *     for .amdgcn_target); o's strings are used during the call only
 *     (suppressions parsed, filename and isa copied).  KW_EINVAL (no or
 *     unknown ISA, bad suppression rule), KW_ENOMEM.
 *   kw_verify_stream_space: *p = where at least want (>= 1) bytes may be
 *     written, *avail how many may; then kw_verify_stream_commit(n) with the
 *     n <= *avail bytes written there (read(2) straight into the stream:
 *     no copy).  kw_verify_stream_feed copies len bytes in.
 *   kw_verify_stream_finish: reads the last line, builds and analyses;
 *     *out as kw_verify_text's (stats.bytes = the bytes given).
 * Errors as kw_verify_text (KW_ELIMIT with err->field "max_memory" when the
 * chunks and what reading holds pass o->max_memory; KW_EINVAL for a NUL
 * byte or a .macro, which decoded text never has).  After an error every
 * call returns it again; free the stream with kw_verify_stream_free (also
 * after finish).  One thread at a time per stream.
 */
typedef struct kw_verify_stream kw_verify_stream;

int kw_verify_stream_new(kw_verify_stream **out, const kw_verify_opts *o, kw_error *err);
int kw_verify_stream_space(kw_verify_stream *s, size_t want, char **p, size_t *avail, kw_error *err);
int kw_verify_stream_commit(kw_verify_stream *s, size_t n, kw_error *err);
int kw_verify_stream_feed(kw_verify_stream *s, const char *data, size_t len, kw_error *err);
int kw_verify_stream_finish(kw_verify_stream *s, kw_verify_result **out, kw_error *err);
void kw_verify_stream_free(kw_verify_stream *s);

/*
 * Assembly text whose instructions are data words (`.long`, `.short`,
 * `.byte`... in a code section; Tensile ships kernels so) cannot be read
 * as instructions: kw_verify_text refuses it (KW_EINVAL, err->field
 * "data_words").  kw_verify_text_words gives its code bytes instead, to be
 * decoded by LLVM's disassembler (kw_codeobj_from_words, kwgen/codeobj.h):
 * bytes[0..len) are the code sections' words in order (little-endian;
 * `.p2align` pads with s_nop 0), syms[0..nsyms) its labels with their byte
 * offsets, func set for `.type NAME,@function`, kernel for
 * `.amdhsa_kernel NAME`; isa the processor (given, or the text's
 * .amdgcn_target); lines[0..nlines) the source line of the words from
 * each offset on (a macro's words: the line that calls it; alignment
 * padding: the .p2align line).  All owned by w (kw_verify_words_free).  Errors:
 * KW_EINVAL (no ISA, a word that does not evaluate, no data words, or
 * instructions mixed with data words: their offsets are unknown; field
 * "objdump" for llvm-objdump text, whose words are bytes that did not
 * decode), KW_ELIMIT,
 * KW_ENOMEM.  Bytes are bounded by 8 x len.
 */
typedef struct kw_verify_word_sym {
	char *name;
	size_t offset;
	int func, kernel;
} kw_verify_word_sym;

/* The words from offset on (up to the next entry's) come from line, whose
 * inline `kwgen-verify: allow` comment (or that of the macro call it
 * expands) names the codes in allow: bit (1 << kw_verify_code) each, 0xff
 * for `allow *`; they are suppressed at an instruction whose first word is
 * there, as on a text line. */
typedef struct kw_verify_word_line {
	uint64_t offset;
	uint64_t line;
	uint32_t allow;
} kw_verify_word_line;

typedef struct kw_verify_words {
	unsigned char *bytes;
	size_t len;
	kw_verify_word_sym *syms;
	size_t nsyms;
	char isa[32];
	kw_verify_word_line *lines; /* ascending offsets: the source line of each run of words */
	size_t nlines;
	uint64_t assume_line;       /* line of a `kwgen-verify: assume atomic-counters`
				     * comment (kw_verify_opts.assume_line), 0 = none */
} kw_verify_words;

int kw_verify_text_words(kw_verify_words *w, const char *text, size_t len, const char *isa,
			 kw_error *err);
void kw_verify_words_free(kw_verify_words *w);

/* Processor name the text was verified for ("gfx942"). */
const char *kw_verify_result_isa(const kw_verify_result *r);
/* Findings kept (at most max_findings, in line order) and the i-th. */
size_t kw_verify_result_count(const kw_verify_result *r);
const kw_verify_finding *kw_verify_result_at(const kw_verify_result *r, size_t i);
/* Exact number of unsuppressed findings of a code, kept or not. */
uint64_t kw_verify_result_total(const kw_verify_result *r, int code);
/* Exact number of findings removed by suppressions (file or inline). */
uint64_t kw_verify_result_suppressed(const kw_verify_result *r);
/* Unsuppressed findings of error severity (race class, unknown_instruction). */
uint64_t kw_verify_result_errors(const kw_verify_result *r);
const kw_verify_stats *kw_verify_result_stats(const kw_verify_result *r);
/*
 * Whether the atomic-counter assumption applied (kw_verify_opts.
 * assume_atomic_counters and its suppression-file and inline forms): its
 * kw_verify_from (KW_VERIFY_FROM_NONE: it did not); *line (may be NULL)
 * the suppression-file line or text line that asked for it (0 for the
 * option); *ruled_out (may be NULL) the findings it ruled out: how many
 * more, summed per code, the same verification reports without it (the
 * analysis is run again without it when the text has a 32-bit counter
 * atomic with glc; 0 when it has none), -1 when not counted (that
 * analysis passed max_work or another bound).
 */
int kw_verify_result_assumption(const kw_verify_result *r, uint64_t *line, int64_t *ruled_out);

/*
 * The CONTRACT.md JSON object, appended to out:
 *   {"isa", "findings": [{code, line, offset?, register, producer_line,
 *    counter, needed, have, severity, function, message, also_lines?,
 *    uses?: [{line, offset?, needed, have, fix: "in_last_wait" |
 *    "new_wait"}...]}...],
 *    "totals": {code: n...}, "suppressed": n, "truncated": bool,
 *    "assumptions": {"atomic_counters": {"assumed": bool, "from":
 *    "option"|"suppressions"|"inline"|null, "line": n|null, "ruled_out":
 *    n|null}},
 *    "stats": {instructions, waits, blocks, functions, work, bytes, seconds}}
 * `needed`/`have` -1 print as null; offset/producer_offset only when >= 0.
 * Built with jansson.  Errors: KW_ENOMEM.
 */
int kw_verify_result_json(kw_buf *out, const kw_verify_result *r, kw_error *err);

/*
 * Compiler-style lines appended to out, one per finding kept:
 *   FILE:LINE: error: MESSAGE [race_raw]
 * (FILE = o->filename given to kw_verify_text; ` (offset 0xOFF)` appended
 * when the byte offset is known), then, if findings were not all kept, a
 * line with the exact totals, then the totals line (`FILE: totals: ...`),
 * which under the atomic-counter assumption ends `; assuming Tensile's
 * atomic-counter protocol (WHERE): N findings ruled out`.  Errors: KW_ENOMEM.
 */
int kw_verify_result_text(kw_buf *out, const kw_verify_result *r, kw_error *err);

#ifdef __cplusplus
}
#endif
#endif
