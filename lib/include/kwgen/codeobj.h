/*
 * kwgen/codeobj.h - AMDGPU code objects (ELF .co / .hsaco / .o) decoded into
 * the `llvm-objdump -d` text form that kw_verify_text reads.
 *
 * Built as its own static library, libkwgen-codeobj.a (lib/codeobj/), linked
 * only by the kwgen CLI and kwgend: it needs LLVM's C API (llvm-c/Object.h
 * to walk sections and symbols, llvm-c/Disassembler.h to decode), which the
 * generator core (libkwgen) never links.  LLVM 22's shared library is
 * loaded on the first call (dlopen), so a process that never decodes a
 * code object never maps it; without it, calls fail with KW_EUNSUPPORTED.
 *
 * The text matches what `llvm-objdump -d` prints for the same file: a
 * "Disassembly of section NAME:" line per .text section, one
 * "ADDR <symbol>:" line per address holding named symbols of the section
 * (not .L locals; the first by name), a "\t\t..." line for a run of 8 or
 * more zero bytes before the next symbol (the padding ld.lld leaves between
 * kernels; not decoded, as llvm-objdump's countSkippableZeroBytes), and one
 * line per instruction,
 *     \t<instruction padded to 59 columns>// ADDR: HEXWORDS[ <sym+0xOFF>]
 * ADDR is the 12-digit hex byte offset in the section (the ELF virtual
 * address for linked code objects), HEXWORDS the instruction's 32-bit
 * little-endian words, and the <sym+0xOFF> comment the target of an SOPP
 * branch (s_branch, s_cbranch_*, s_call_b64: PC + 4 + simm16 * 4, as
 * AMDGPU's MCInstrAnalysis::evaluateBranch computes it).  Bytes that do not
 * decode are printed as `.long 0xXXXXXXXX` lines with a
 * "// ADDR: HEX" comment (which the verifier refuses: code not checked).
 * Sections and symbols come from the ELF tables, read once (linear in
 * sections + symbols).  Symbol names are printed escaped: every byte but
 * [A-Za-z0-9_.] as $XX (hex), so no name can end a line or read as an
 * instruction.  After the instructions, kwgen's own lines name the
 * functions: "\t.type NAME,@function" for each STT_FUNC symbol of a .text
 * section and each kernel, and "\t.amdhsa_kernel NAME" for each symbol
 * with a kernel descriptor NAME.kd; the verifier starts functions exactly
 * there (a local label is never a function start).
 */
#ifndef KWGEN_CODEOBJ_H
#define KWGEN_CODEOBJ_H

#include <stddef.h>

#include "kwgen/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Nonzero when data starts with the ELF magic "\x7fELF" (len >= 4). */
int kw_codeobj_is_elf(const void *data, size_t len);

/* 0 when data is a 64-bit little-endian ELF with e_machine EM_AMDGPU (224);
 * else KW_EINVAL with err saying which (a foreign ELF names its e_machine). */
int kw_codeobj_check_machine(const void *data, size_t len, kw_error *err);

/*
 * ISA of an AMDGPU ELF from its header: e_machine must be EM_AMDGPU (224)
 * and e_flags & EF_AMDGPU_MACH (0xff) one of the machines kwgen knows
 * (LLVM's BinaryFormat/ELF.h values: gfx908 0x30, gfx90a 0x3f, gfx940 0x40,
 * gfx941 0x4b, gfx942 0x4c, gfx950 0x4f, gfx1100 0x41, gfx1101 0x46,
 * gfx1102 0x47, gfx1200 0x48, gfx1201 0x4e, gfx1250 0x49).  Returns the
 * static name ("gfx942") or NULL with err set (KW_EINVAL: not a 64-bit
 * little-endian AMDGPU ELF, or an unsupported machine, named in hex).
 */
const char *kw_codeobj_isa(const void *data, size_t len, kw_error *err);

/*
 * Decode every executable section of the code object in data[0..len) for
 * isa (NULL = from the ELF header, see kw_codeobj_isa) into objdump-form
 * text.  name is printed on the "NAME:\tfile format elf64-amdgpu" line
 * (NULL = "code object"); a given isa overrides e_flags, but e_machine must
 * still be EM_AMDGPU (kw_codeobj_check_machine).  At most max_insts instructions are decoded
 * (0 = no limit); more is KW_ELIMIT.  The text is at most max_text bytes
 * (0 = no limit; long symbol names repeated in every branch comment make it
 * grow): more is KW_ELIMIT with err->field "max_memory".
 *
 * On success returns 0, *text is a NUL-terminated malloc'd string (caller
 * frees), *text_len its length, *isa_out the ISA used (static string), and
 * *n_insts the number of instruction lines.  Errors: KW_EINVAL (not an ELF
 * object LLVM can read, not AMDGPU, no executable section, unknown ISA
 * name), KW_ELIMIT, KW_ENOMEM, KW_EINTERNAL (LLVM has no AMDGPU
 * disassembler for the CPU), KW_EUNSUPPORTED (libLLVM.so.22.1 cannot be
 * loaded).  err says which.
 *
 * Thread-safe: LLVM's target registry is initialised once (pthread_once),
 * each call makes its own disassembler context.
 */
int kw_codeobj_disassemble(const void *data, size_t len, const char *isa, const char *name,
                           size_t max_insts, size_t max_text, char **text, size_t *text_len,
                           const char **isa_out, size_t *n_insts, kw_error *err);

/*
 * The same decoding, the text handed on as it is made: sink->put(ctx, p, n)
 * gets its bytes in order, in pieces of about 64 KiB (the whole text is
 * never held), and returns 0 or a KW_E* code that stops the decoding (that
 * code is returned; err is set unless the sink set it).  compact: no
 * padding of the instruction to 59 columns (one space before the `//`
 * comment; same lines otherwise, which kw_verify_text reads alike: about a
 * third of the bytes of a 4-byte instruction's line); 0 gives llvm-objdump's
 * exact text.  max_text bounds the bytes handed on.  *isa_out is set before
 * the first piece.  Other arguments, results and errors as
 * kw_codeobj_disassemble.
 */
typedef struct kw_codeobj_sink {
	int (*put)(void *ctx, const char *p, size_t n);
	void *ctx;
} kw_codeobj_sink;

int kw_codeobj_disassemble_to(const void *data, size_t len, const char *isa, const char *name,
                              size_t max_insts, size_t max_text, int compact, const kw_codeobj_sink *sink,
                              const char **isa_out, size_t *n_insts, kw_error *err);

/*
 * The same decoding in a child process, so that a crash or a runaway in
 * LLVM's disassembler (LLVM 22 crashes on some .text bytes) cannot take the
 * caller down: kwgen verify and kwgend call this, never
 * kw_codeobj_disassemble itself.  The child is opts->exe (NULL = the
 * caller's own executable, /proc/self/exe), run with KW_CODEOBJ_CHILD_ARG;
 * every program that calls this must start with
 *     if (argc > 1 && !strcmp(argv[1], KW_CODEOBJ_CHILD_ARG))
 *             return kw_codeobj_child_main(argc, argv);
 * Bounds: opts->seconds of CPU (0 = KW_CODEOBJ_CHILD_SECONDS; the wall
 * clock allows twice that plus 1 s), opts->max_memory bytes of address
 * space (0 = kw_codeobj_child_memory(len, max_insts); not applied in
 * sanitizer builds), no core file.  posix_spawn, not fork: safe in a
 * multithreaded process.  Blocks the calling thread until the child is done.
 *
 * Arguments and results as kw_codeobj_disassemble, except the ISA used is
 * copied to isa_out.  When the child crashes, is killed at a bound or gives
 * no complete answer, returns KW_EINVAL with *undecodable = 1 and err
 * saying which ("LLVM's AMDGPU disassembler crashed on it (SIGSEGV ...)");
 * the child's own errors come back with their code and message
 * (*undecodable = 0).  KW_EIO: the child could not be started.
 */
#define KW_CODEOBJ_CHILD_ARG "--internal-decode-code-object"
#define KW_CODEOBJ_CHILD_SECONDS 60u
#define KW_CODEOBJ_ISA_MAX 32

typedef struct kw_codeobj_child_opts {
	const char *exe;   /* the program to run (NULL = /proc/self/exe) */
	unsigned seconds;  /* CPU-time bound of the child (0 = the default) */
	size_t max_memory; /* address-space bound of the child, bytes (0 = computed) */
	size_t max_text;   /* bytes of decoded text (0 = no bound but max_memory) */
	int fork;          /* 1: fork() without exec (exe unused): the child does not load the
			      executable and its libraries again (~30 ms of a small object's
			      time), nor libLLVM: the caller loads it once (kw_codeobj_load_llvm)
			      before its first child, every child inherits it (~70 ms of CPU per
			      object otherwise).  Only for a single-threaded caller (kwgen
			      verify): a forked child of a multithreaded one may block on a lock
			      another thread held (posix_spawn is used otherwise). */
} kw_codeobj_child_opts;

/*
 * A code object decoded in a child process (LLVM's disassembler crashes on
 * some bytes: that is an error here, not a crash of the caller) and verified as its text comes (kw_verify_stream, kwgen/verify.h): the
 * child hands each 64 KiB of compact text (kw_codeobj_disassemble_to) to
 * the pipe as it decodes, the caller reads it straight into the stream's
 * chunks and reads its lines while the child decodes the next ones, so
 * the two processes work at once and no whole text is built, copied or
 * held by the child.  The findings are those of kw_verify_text on
 * kw_codeobj_disassemble's text (the same lines, so the same line
 * numbers); stats.bytes counts the compact text.
 *
 * vo: the verification's options (vo->isa ignored: the ISA used, given
 * or from e_flags, is copied to isa_out; vo->max_memory bounds the text
 * held and what reading holds together).  opts->max_text bounds the text
 * the child hands on; 0 = vo->max_memory / 2 (past it KW_ELIMIT, field
 * "max_memory") or, when lower, 2 x len + 1 KiB per instruction that fits
 * + 256 MiB, what the child's address space would have held of a whole
 * text (past it KW_ENOMEM, "memory bound", *decoder = 1).  *out as kw_verify_text's.
 * Errors: *undecodable = 1: a crash, a bound of the child, no complete
 * answer; *decoder = 1 when err is the
 * decoder's own answer (its code: KW_EINVAL, KW_ELIMIT instructions,
 * KW_ENOMEM its text bound); otherwise kw_verify_stream's errors
 * (KW_ELIMIT "max_memory", ...) or KW_EIO (not started, or stopped by
 * kw_codeobj_child_stop_all).
 */
struct kw_verify_opts;
struct kw_verify_result;
int kw_codeobj_verify_child(const void *data, size_t len, const char *isa, const char *name, size_t max_insts,
                            const kw_codeobj_child_opts *opts, const struct kw_verify_opts *vo,
                            struct kw_verify_result **out, char isa_out[KW_CODEOBJ_ISA_MAX], int *undecodable,
                            int *decoder, kw_error *err);

/* Kill the child of every kw_codeobj_verify_child (and _words_child) waiting now, within
 * 100 ms, and refuse every later call: they return KW_EIO ("stopping",
 * *undecodable = 0).  For a daemon's shutdown (kwgend at the end of
 * --drain-seconds).  Any thread may call it (an atomic store).  Cannot
 * be undone. */
void kw_codeobj_child_stop_all(void);

/*
 * Assembly text whose instructions are data words (`.long`/`.short`/
 * `.byte` in a code section, as Tensile ships kernels; kw_verify_text
 * refuses it with err->field "data_words"), decoded: its words and labels
 * (kw_verify_text_words) become a relocatable ELF (kw_codeobj_from_words:
 * one .text section, a local symbol per label, STT_FUNC per function, a
 * NAME.kd symbol per kernel, e_flags from the ISA) decoded in a child
 * process as kw_codeobj_verify_child does.  isa NULL = the text's
 * .amdgcn_target.  The findings of the decoded text are those of the code
 * object llvm-mc assembles from the same text, at the same byte offsets
 * (kw_codeobj_verify_words_child gives them the lines of the words).
 * Errors as kw_verify_text_words.
 */
struct kw_verify_words;
int kw_codeobj_from_words(const struct kw_verify_words *w, char **elf, size_t *elf_len, kw_error *err);
/*
 * The same text verified as its code object's decoded text streams in
 * (kw_codeobj_verify_child), every finding naming the line of text that
 * holds its word (and the "line N" of its message: the producer's, the
 * call site's): kw_verify_opts.source_lines from kw_verify_text_words.
 * Arguments, results and errors as kw_codeobj_verify_child and
 * kw_verify_text_words (field "objdump" for llvm-objdump text).
 */
struct kw_verify_opts;
int kw_codeobj_verify_words_child(const char *text, size_t len, const char *isa, const char *name,
                                  size_t max_insts, const kw_codeobj_child_opts *opts,
                                  const struct kw_verify_opts *vo, struct kw_verify_result **out,
                                  char isa_out[KW_CODEOBJ_ISA_MAX], int *undecodable, int *decoder,
                                  kw_error *err);

/* Load libLLVM (dlopen of KW_LLVM_SONAME) and initialise its AMDGPU target
 * info, MC layer and disassembler, once per process (later calls return at
 * once).  Runs no disassembly: the crash the child process guards against
 * is in decoding, not here.  kw_codeobj_disassemble* call it; a caller that
 * forks decoder children calls it before the first fork.  0, or
 * KW_EUNSUPPORTED with err saying what is missing (the Debian package). */
int kw_codeobj_load_llvm(kw_error *err);

/* The default address-space bound of the child for a len-byte object and
 * max_insts instructions (0 = no limit): 1 GiB (libLLVM and its tables)
 * + 2 x len + 1 KiB per instruction that can fit.  0 if that overflows. */
size_t kw_codeobj_child_memory(size_t len, size_t max_insts);

/* The child's side (argv as kw_codeobj_verify_child passes it: the
 * object on stdin, the framed answer on stdout).  Exits (_exit) once it has
 * answered; returns 2 only when argv is not what the parent passes. */
int kw_codeobj_child_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
