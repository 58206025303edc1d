/*
 * codeobj.c - AMDGPU ELF code objects -> llvm-objdump -d text (kwgen/codeobj.h).
 *
 * Sections and symbols come from LLVM's object library (llvm-c/Object.h),
 * instructions from its AMDGPU disassembler (llvm-c/Disassembler.h,
 * LLVMCreateDisasmCPU("amdgcn-amd-amdhsa", cpu)).  Only e_machine and
 * e_flags are read from the ELF header directly: the C API does not expose
 * them (llvm/BinaryFormat/ELF.h: EM_AMDGPU = 224, EF_AMDGPU_MACH = 0xff).
 *
 * LLVM is loaded on first use (dlopen of KW_LLVM_SONAME, libLLVM.so.22.1 from
 * `llvm-config-22 --libdir`), not linked: mapping and relocating the 100 MB
 * library costs every kwgen process about 17 ms at start, twice what
 * verifying a whole kernel takes, while only code objects need it.  The
 * llvm-c headers give the functions' types; each is looked up once.
 */
#include "kwgen/codeobj.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <elf.h>

#include <llvm-c/Core.h>
#include <llvm-c/Disassembler.h>
#include <llvm-c/Object.h>
#include <llvm-c/Target.h>

#include "kwgen/buf.h"

#define EM_AMDGPU 224
#define EF_AMDGPU_MACH 0xffu
#define OBJDUMP_INST_COLUMNS 59 /* llvm-objdump pads the instruction text to 59 columns */

static const struct {
	unsigned mach;
	const char *isa, *cpu; /* cpu: LLVM 22's -mcpu for decoding (gfx940/941 decode as gfx942) */
} machines[] = {
	{0x30, "gfx908", "gfx908"},   {0x3f, "gfx90a", "gfx90a"},   {0x40, "gfx940", "gfx942"},
	{0x4b, "gfx941", "gfx942"},   {0x4c, "gfx942", "gfx942"},   {0x4f, "gfx950", "gfx950"},
	{0x41, "gfx1100", "gfx1100"}, {0x46, "gfx1101", "gfx1101"}, {0x47, "gfx1102", "gfx1102"},
	{0x48, "gfx1200", "gfx1200"}, {0x4e, "gfx1201", "gfx1201"}, {0x49, "gfx1250", "gfx1250"},
};
#define N_MACHINES (sizeof machines / sizeof machines[0])

int kw_codeobj_is_elf(const void *data, size_t len)
{
	return data && len >= 4 && memcmp(data, "\x7f" "ELF", 4) == 0;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int kw_codeobj_check_machine(const void *data, size_t len, kw_error *err)
{
	const unsigned char *p = data;
	/* ELF64 header: EI_CLASS at 4 (2 = 64-bit), EI_DATA at 5 (1 = LE),
	 * e_machine at 18 (16 bits), e_flags at 48 (32 bits). */
	if (!kw_codeobj_is_elf(data, len) || len < 64 || p[4] != 2 || p[5] != 1)
		return kw_error_set(err, KW_EINVAL, NULL,
		                    "not a 64-bit little-endian ELF file (an AMDGPU code object is)");
	unsigned machine = (unsigned)p[18] | (unsigned)p[19] << 8;
	if (machine != EM_AMDGPU)
		return kw_error_set(err, KW_EINVAL, NULL,
		                    "ELF e_machine is %u, not EM_AMDGPU (224): not an AMDGPU code object", machine);
	return 0;
}

const char *kw_codeobj_isa(const void *data, size_t len, kw_error *err)
{
	const unsigned char *p = data;
	if (kw_codeobj_check_machine(data, len, err))
		return NULL;
	unsigned mach = le32(p + 48) & EF_AMDGPU_MACH;
	for (size_t i = 0; i < N_MACHINES; i++)
		if (machines[i].mach == mach)
			return machines[i].isa;
	kw_error_set(err, KW_EINVAL, NULL,
	             "ELF e_flags names AMDGPU machine 0x%02x, which kwgen does not model; supported: gfx908 "
	             "gfx90a gfx940 gfx941 gfx942 gfx950 gfx1100 gfx1101 gfx1102 gfx1200 gfx1201 gfx1250 "
	             "(give --isa to decode anyway)",
	             mach);
	return NULL;
}

#ifndef KW_LLVM_SONAME
#define KW_LLVM_SONAME "libLLVM.so.22.1"
#endif

/* Every LLVM C API function this file calls. */
#define LLVM_FUNCS(X) \
	X(LLVMInitializeAMDGPUTargetInfo) X(LLVMInitializeAMDGPUTargetMC) X(LLVMInitializeAMDGPUDisassembler) \
	X(LLVMCreateMemoryBufferWithMemoryRange) X(LLVMDisposeMemoryBuffer) X(LLVMDisposeMessage) \
	X(LLVMCreateBinary) X(LLVMBinaryGetType) X(LLVMDisposeBinary) \
	X(LLVMCreateDisasmCPU) X(LLVMDisasmInstruction) X(LLVMDisasmDispose)

static struct {
#define X(f) __typeof__(&f) f;
	LLVM_FUNCS(X)
#undef X
} L;

static pthread_once_t llvm_once = PTHREAD_ONCE_INIT;
static char llvm_error[256]; /* empty once LLVM is loaded and initialised */

static void llvm_init(void)
{
	void *h = dlopen(KW_LLVM_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		const char *e = dlerror();
		snprintf(llvm_error, sizeof(llvm_error), "cannot load LLVM 22 (%s): %s", KW_LLVM_SONAME, e ? e : "?");
		return;
	}
#define X(f)                                                                                                \
	{                                                                                                   \
		void *sym_ = dlsym(h, #f);                                                                  \
		memcpy(&L.f, &sym_, sizeof(sym_));                                                          \
	}                                                                                                   \
	if (!L.f) {                                                                                         \
		snprintf(llvm_error, sizeof(llvm_error), "%s has no %s", KW_LLVM_SONAME, #f);                   \
		return;                                                                                     \
	}
	LLVM_FUNCS(X)
#undef X
	L.LLVMInitializeAMDGPUTargetInfo();
	L.LLVMInitializeAMDGPUTargetMC();
	L.LLVMInitializeAMDGPUDisassembler();
}

int kw_codeobj_load_llvm(kw_error *err)
{
	pthread_once(&llvm_once, llvm_init);
	if (llvm_error[0])
		return kw_error_set(err, KW_EUNSUPPORTED, NULL,
		                    "%s; code objects are decoded with LLVM's disassembler (Debian package libllvm22)",
		                    llvm_error);
	return 0;
}

typedef struct sym {
	uint64_t addr;
	char *name;      /* escaped (sym_escape) */
	uint32_t shndx;  /* section index */
	uint8_t func;    /* STT_FUNC */
	uint8_t kernel;  /* has a kernel descriptor NAME.kd */
} sym;

static int sym_cmp(const void *a, const void *b)
{
	const sym *x = a, *y = b;
	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A symbol name as printed: bytes other than [A-Za-z0-9_.] become $XX (hex;
 * `$` itself is $24), so a name never ends a line, closes a <...> or reads
 * as an operand: the text holds one symbol line per symbol whatever its
 * bytes (an ELF name may hold a newline).  NULL when out of memory. */
static char *sym_escape(const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		int plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
		            c == '.';
		k += plain ? 1 : 3;
	}
	char *o = malloc(k + 1), *q = o;
	if (!o)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
		    c == '.') {
			*q++ = (char)c;
		} else {
			*q++ = '$';
			*q++ = hex[c >> 4];
			*q++ = hex[c & 15];
		}
	}
	*q = 0;
	return o;
}

/* The function symbol at or before addr (NULL if none). */
static const sym *sym_before(const sym *s, size_t n, uint64_t addr)
{
	const sym *best = NULL;
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s[mid].addr <= addr) {
			best = &s[mid];
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	return best;
}

static int is_sopp_branch(const char *t, size_t n)
{
	if (n >= 9 && memcmp(t, "s_branch ", 9) == 0)
		return 1;
	if (n >= 10 && memcmp(t, "s_cbranch_", 10) == 0)
		return !(n >= 16 && (memcmp(t, "s_cbranch_g_fork", 16) == 0 || memcmp(t, "s_cbranch_join", 14) == 0));
	if (n >= 11 && memcmp(t, "s_call_b64 ", 11) == 0)
		return 1;
	return 0;
}

/* simm16 of an SOPP branch: the last operand, printed as a decimal 0..65535
 * or a signed value; returns 0 when the text has no number there. */
static int branch_simm16(const char *t, size_t n, int *out)
{
	size_t e = n;
	while (e > 0 && (t[e - 1] == ' ' || t[e - 1] == '\t'))
		e--;
	size_t b = e;
	while (b > 0 && ((t[b - 1] >= '0' && t[b - 1] <= '9') || t[b - 1] == '-' || t[b - 1] == 'x' ||
	                 (t[b - 1] >= 'a' && t[b - 1] <= 'f') || (t[b - 1] >= 'A' && t[b - 1] <= 'F')))
		b--;
	if (b == e || (b > 0 && t[b - 1] != ' ' && t[b - 1] != ','))
		return 0;
	char num[24];
	if (e - b >= sizeof num)
		return 0;
	memcpy(num, t + b, e - b);
	num[e - b] = 0;
	char *end;
	long v = strtol(num, &end, 0);
	if (*end || v < -32768 || v > 65535)
		return 0;
	*out = (int)(int16_t)(uint16_t)(v & 0xffff);
	return 1;
}

/* objdump prints symbol addresses in lower case, comment addresses in upper case */
/* v as width hex digits (upper or lower case), without printf: it runs
 * twice per instruction */
static void put_hex(kw_buf *b, uint64_t v, int width, int upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[16];
	for (int i = width - 1; i >= 0; i--, v >>= 4)
		tmp[i] = digits[v & 15];
	kw_buf_put(b, tmp, (size_t)width);
}

static void put_addr(kw_buf *b, uint64_t addr, int width)
{
	/* symbol lines in lower case, comments in upper case; 12 digits hold
	 * every address of a code object (< 2^48), printf's %012X would widen */
	int upper = width != 16;
	if (width == 12 && addr >> 48)
		width = 16;
	put_hex(b, addr, width, upper);
}

static void put_sym_ref(kw_buf *b, const sym *s, uint64_t addr)
{
	char tmp[40];
	kw_buf_puts(b, " <");
	kw_buf_puts(b, s->name);
	if (addr != s->addr) {
		snprintf(tmp, sizeof tmp, "+0x%" PRIx64, addr - s->addr);
		kw_buf_puts(b, tmp);
	}
	kw_buf_putc(b, '>');
}

/* One decoded instruction line. */
static void put_inst(kw_buf *b, const char *txt, uint64_t addr, const unsigned char *bytes, size_t n,
                     const sym *syms, size_t nsyms, int compact)
{
	while (*txt == ' ' || *txt == '\t')
		txt++;
	size_t tl = strlen(txt);
	while (tl > 0 && (txt[tl - 1] == ' ' || txt[tl - 1] == '\t'))
		tl--;
	kw_buf_putc(b, '\t');
	kw_buf_put(b, txt, tl);
	if (compact)
		kw_buf_putc(b, ' '); /* the reader needs no columns: a third of the bytes of a short line */
	else if (tl < OBJDUMP_INST_COLUMNS)
		kw_buf_spaces(b, OBJDUMP_INST_COLUMNS - tl);
	kw_buf_puts(b, "// ");
	put_addr(b, addr, 12);
	kw_buf_putc(b, ':');
	for (size_t i = 0; i + 4 <= n; i += 4) {
		kw_buf_putc(b, ' ');
		put_hex(b, le32(bytes + i), 8, 1);
	}
	int simm;
	if (is_sopp_branch(txt, tl) && branch_simm16(txt, tl, &simm)) {
		int64_t target = (int64_t)addr + 4 + (int64_t)simm * 4;
		const sym *s = target >= 0 ? sym_before(syms, nsyms, (uint64_t)target) : NULL;
		if (s)
			put_sym_ref(b, s, (uint64_t)target);
	}
	kw_buf_putc(b, '\n');
}

static const char *cpu_for(const char *isa)
{
	for (size_t i = 0; i < N_MACHINES; i++)
		if (strcmp(machines[i].isa, isa) == 0)
			return machines[i].cpu;
	return NULL;
}

static const char *isa_static(const char *isa)
{
	for (size_t i = 0; i < N_MACHINES; i++)
		if (strcmp(machines[i].isa, isa) == 0)
			return machines[i].isa;
	return NULL;
}

static int is_code_section(const char *name)
{
	return name && (strcmp(name, ".text") == 0 || strncmp(name, ".text.", 6) == 0);
}

/* ---- sections and symbols, read from the ELF tables (<elf.h> types) ----
 * LLVM's C API gives neither a symbol's type (STT_FUNC) nor its section
 * index, and asking each section whether it holds each symbol is quadratic
 * (24,000 sections x 24,000 symbols: 53 s); the tables are read once here,
 * after LLVMCreateBinary has accepted the file, with every offset checked. */

typedef struct elf_tab {
	const unsigned char *d;
	size_t len;
	Elf64_Shdr *sh; /* copies (the file's may be unaligned) */
	size_t nsh;
	size_t shstr;   /* the section-name string table */
	uint8_t *code;  /* per section: a .text section whose bytes are in the file */
} elf_tab;

static void elf_tab_free(elf_tab *e)
{
	free(e->sh);
	free(e->code);
}

/* The NUL-terminated string at off in string section i, or NULL. */
static const char *elf_str(const elf_tab *e, size_t i, uint64_t off)
{
	if (i == 0 || i >= e->nsh)
		return NULL;
	const Elf64_Shdr *s = &e->sh[i];
	if (s->sh_type == SHT_NOBITS || s->sh_offset > e->len || s->sh_size > e->len - s->sh_offset ||
	    off >= s->sh_size)
		return NULL;
	const char *p = (const char *)e->d + s->sh_offset + off;
	return memchr(p, 0, (size_t)(s->sh_size - off)) ? p : NULL;
}

static int elf_tab_read(elf_tab *e, const unsigned char *d, size_t len, kw_error *err)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh0;

	memset(e, 0, sizeof *e);
	e->d = d;
	e->len = len;
	memcpy(&eh, d, sizeof eh); /* len >= 64: kw_codeobj_check_machine */
	if (!eh.e_shoff)
		return 0;
	if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > len || len - eh.e_shoff < sizeof sh0)
		return kw_error_set(err, KW_EINVAL, NULL, "the ELF section header table is not in the file");
	memcpy(&sh0, d + eh.e_shoff, sizeof sh0);
	size_t n = eh.e_shnum ? eh.e_shnum : (size_t)sh0.sh_size; /* more than 0xff00: in sh0 */
	if (n > (len - eh.e_shoff) / sizeof(Elf64_Shdr))
		return kw_error_set(err, KW_EINVAL, NULL, "the ELF section header table runs past the end of the file");
	size_t shstr = eh.e_shstrndx == SHN_XINDEX ? sh0.sh_link : eh.e_shstrndx;
	e->sh = malloc((n ? n : 1) * sizeof *e->sh);
	e->code = calloc(n ? n : 1, 1);
	if (!e->sh || !e->code)
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory for the ELF section headers");
	memcpy(e->sh, d + eh.e_shoff, n * sizeof *e->sh);
	e->nsh = n;
	e->shstr = shstr;
	for (size_t i = 1; i < n; i++) {
		const Elf64_Shdr *s = &e->sh[i];
		if (!is_code_section(elf_str(e, shstr, s->sh_name)) || s->sh_type == SHT_NOBITS)
			continue;
		if (s->sh_offset > len || s->sh_size > len - s->sh_offset)
			return kw_error_set(err, KW_EINVAL, NULL, "ELF section %zu's bytes run past the end of the file", i);
		e->code[i] = 1;
	}
	return 0;
}

static void syms_free(sym *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i].name);
	free(s);
}

/* The named symbols of the code sections (not .L locals), sorted by
 * section, address and name; a symbol with a kernel descriptor NAME.kd is
 * a kernel.  0, or KW_ENOMEM. */
static int elf_syms(const elf_tab *e, sym **out, size_t *nout)
{
	sym *s = NULL;
	char **kd = NULL;
	size_t n = 0, cap = 0, nkd = 0, ckd = 0;

	*out = NULL;
	*nout = 0;
	for (size_t t = 1; t < e->nsh; t++) {
		const Elf64_Shdr *st = &e->sh[t];
		if (st->sh_type != SHT_SYMTAB || st->sh_offset > e->len || st->sh_size > e->len - st->sh_offset)
			continue;
		size_t cnt = (size_t)(st->sh_size / sizeof(Elf64_Sym));
		for (size_t k = 1; k < cnt; k++) {
			Elf64_Sym y;
			memcpy(&y, e->d + st->sh_offset + k * sizeof y, sizeof y);
			const char *nm = elf_str(e, st->sh_link, y.st_name);
			if (!nm || !*nm || (nm[0] == '.' && nm[1] == 'L'))
				continue; /* assembler-local labels: objdump does not print them either */
			size_t nl = strlen(nm);
			if (nl > 3 && !strcmp(nm + nl - 3, ".kd")) {
				if (nkd == ckd) {
					ckd = ckd ? ckd * 2 : 16;
					char **g = realloc(kd, ckd * sizeof *kd);
					if (!g)
						goto oom;
					kd = g;
				}
				if (!(kd[nkd] = sym_escape(nm, nl - 3)))
					goto oom;
				nkd++;
				continue;
			}
			if (y.st_shndx == SHN_UNDEF || y.st_shndx >= SHN_LORESERVE || y.st_shndx >= e->nsh ||
			    !e->code[y.st_shndx])
				continue;
			const Elf64_Shdr *sec = &e->sh[y.st_shndx];
			if (y.st_value < sec->sh_addr || y.st_value - sec->sh_addr >= sec->sh_size)
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 16;
				sym *g = realloc(s, cap * sizeof *s);
				if (!g)
					goto oom;
				s = g;
			}
			s[n].addr = y.st_value;
			s[n].shndx = y.st_shndx;
			s[n].func = ELF64_ST_TYPE(y.st_info) == STT_FUNC;
			s[n].kernel = 0;
			if (!(s[n].name = sym_escape(nm, nl)))
				goto oom;
			n++;
		}
	}
	if (n)
		qsort(s, n, sizeof *s, sym_cmp);
	if (nkd) {
		qsort(kd, nkd, sizeof *kd, str_cmp);
		for (size_t i = 0; i < n; i++)
			s[i].kernel = bsearch(&s[i].name, kd, nkd, sizeof *kd, str_cmp) != NULL;
	}
	for (size_t i = 0; i < nkd; i++)
		free(kd[i]);
	free(kd);
	*out = s;
	*nout = n;
	return 0;
oom:
	for (size_t i = 0; i < nkd; i++)
		free(kd[i]);
	free(kd);
	syms_free(s, n);
	return KW_ENOMEM;
}

/* The text is handed to the sink in pieces of about this many bytes. */
#define SINK_PIECE ((size_t)64 << 10)

/* Hand out's bytes to the sink (counted in *sent) and empty it; 0, or the
 * sink's error (out.oom: KW_ENOMEM). */
static int flush(kw_buf *out, const kw_codeobj_sink *sink, size_t *sent)
{
	if (out->oom)
		return KW_ENOMEM;
	if (!out->len)
		return 0;
	int rc = sink->put(sink->ctx, out->p, out->len);
	*sent += out->len;
	kw_buf_reset(out);
	return rc;
}

int kw_codeobj_disassemble_to(const void *data, size_t len, const char *isa, const char *name, size_t max_insts,
                              size_t max_text, int compact, const kw_codeobj_sink *sink, const char **isa_out,
                              size_t *n_insts, kw_error *err)
{
	if (n_insts)
		*n_insts = 0;
	const char *use_isa;
	if (isa) {
		use_isa = isa_static(isa);
		if (!use_isa)
			return kw_error_set(err, KW_EINVAL, "isa",
			                    "unknown ISA '%s'; supported: gfx908 gfx90a gfx940 gfx941 gfx942 gfx950 "
			                    "gfx1100 gfx1101 gfx1102 gfx1200 gfx1201 gfx1250",
			                    isa);
		if (kw_codeobj_check_machine(data, len, err)) /* --isa overrides e_flags, not e_machine */
			return err ? err->code : KW_EINVAL;
	} else {
		use_isa = kw_codeobj_isa(data, len, err);
		if (!use_isa)
			return err ? err->code : KW_EINVAL;
	}
	if (isa_out)
		*isa_out = use_isa;
	if (kw_codeobj_load_llvm(err))
		return KW_EUNSUPPORTED;

	LLVMMemoryBufferRef mb = L.LLVMCreateMemoryBufferWithMemoryRange(data, len, "code object", 0);
	if (!mb)
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory for the code object buffer");
	char *emsg = NULL;
	LLVMBinaryRef bin = L.LLVMCreateBinary(mb, NULL, &emsg);
	if (!bin) {
		kw_error_set(err, KW_EINVAL, NULL, "not an object file LLVM can read: %s", emsg ? emsg : "?");
		L.LLVMDisposeMessage(emsg);
		L.LLVMDisposeMemoryBuffer(mb);
		return KW_EINVAL;
	}
	LLVMBinaryType bt = L.LLVMBinaryGetType(bin);
	if (bt != LLVMBinaryTypeELF64L) {
		L.LLVMDisposeBinary(bin);
		L.LLVMDisposeMemoryBuffer(mb);
		return kw_error_set(err, KW_EINVAL, NULL, "not a 64-bit little-endian ELF object");
	}
	LLVMDisasmContextRef dc = L.LLVMCreateDisasmCPU("amdgcn-amd-amdhsa", cpu_for(use_isa), NULL, 0, NULL, NULL);
	if (!dc) {
		L.LLVMDisposeBinary(bin);
		L.LLVMDisposeMemoryBuffer(mb);
		return kw_error_set(err, KW_EINTERNAL, NULL, "LLVM has no AMDGPU disassembler for %s", use_isa);
	}

	kw_buf out = KW_BUF_INIT;
	int rc = 0, sections = 0;
	size_t insts = 0, sent = 0;
	kw_buf_puts(&out, "\n");
	kw_buf_puts(&out, name ? name : "code object");
	kw_buf_puts(&out, ":\tfile format elf64-amdgpu\n");

	elf_tab et;
	sym *all = NULL;
	size_t nall = 0, first = 0;
	rc = elf_tab_read(&et, data, len, err);
	if (rc == 0)
		rc = elf_syms(&et, &all, &nall);
	for (size_t si = 1; rc == 0 && si < et.nsh; si++) {
		/* this section's symbols: all[first, first + nsyms) */
		while (first < nall && all[first].shndx < si)
			first++;
		size_t nsyms = 0;
		while (first + nsyms < nall && all[first + nsyms].shndx == si)
			nsyms++;
		if (!et.code[si])
			continue;
		const Elf64_Shdr *sh = &et.sh[si];
		const char *sname = elf_str(&et, et.shstr, sh->sh_name);
		uint64_t base = sh->sh_addr, size = sh->sh_size;
		const unsigned char *bytes = et.d + sh->sh_offset;
		const sym *syms = all + first;
		sections++;
		kw_buf_puts(&out, "\nDisassembly of section ");
		kw_buf_puts(&out, sname);
		kw_buf_puts(&out, ":\n");
		size_t next = 0;
		uint64_t off = 0;
		while (rc == 0 && off < size) {
			uint64_t addr = base + off;
			int header = 0;
			while (next < nsyms && syms[next].addr <= addr) {
				if (!header) {
					kw_buf_putc(&out, '\n');
					put_addr(&out, syms[next].addr, 16);
					kw_buf_puts(&out, " <");
					kw_buf_puts(&out, syms[next].name);
					kw_buf_puts(&out, ">:\n");
					header = 1; /* objdump prints one label per address */
				}
				next++;
			}
			/* a run of 8 or more zero bytes that reaches the next
			 * symbol or the section's end (the padding ld.lld leaves
			 * between kernels) is one "..." line and is not decoded,
			 * as llvm-objdump does (its countSkippableZeroBytes); zero
			 * words with code after them in the same function are
			 * decoded (they are instructions a branch may reach:
			 * v_cndmask_b32 on gfx9), never shown as "..." */
			uint64_t lim = next < nsyms && syms[next].addr - base < size ? syms[next].addr - base : size;
			uint64_t z = off;
			while (z < lim && !bytes[z])
				z++;
			if (z - off >= 8 && z == lim) {
				kw_buf_puts(&out, "\t\t...\n");
				off += (z - off) & ~(uint64_t)3;
				continue;
			}
			if (out.len >= SINK_PIECE && (rc = flush(&out, sink, &sent)) != 0)
				break;
			if (max_text && sent + out.len > max_text) {
				rc = kw_error_set(err, KW_ELIMIT, "max_memory",
				                  "the decoded text of the code object is over %zu bytes, the memory bound "
				                  "of one verification (16 x the input + 96 MiB unless set: kwgen verify "
				                  "--max-memory, kwgend --max-verify-memory)",
				                  max_text);
				break;
			}
			if (max_insts && insts >= max_insts) {
				rc = kw_error_set(err, KW_ELIMIT, NULL,
				                  "the code object has more than %zu instructions (the limit)", max_insts);
				break;
			}
			char txt[512];
			uint64_t left = size - off;
			size_t n = L.LLVMDisasmInstruction(dc, (uint8_t *)(uintptr_t)(bytes + off), left, addr, txt,
			                                 sizeof txt);
			if (n == 0 || n > left) {
				size_t w = left >= 4 ? 4 : (size_t)left;
				uint32_t v = 0;
				for (size_t i = 0; i < w; i++)
					v |= (uint32_t)bytes[off + i] << (8 * i);
				char lit[32];
				snprintf(lit, sizeof lit, ".long 0x%08" PRIX32, v);
				put_inst(&out, lit, addr, bytes + off, w, syms, nsyms, compact);
				off += w;
			} else {
				put_inst(&out, txt, addr, bytes + off, n, syms, nsyms, compact);
				off += n;
			}
			insts++;
		}
	}
	/* after the instructions: which symbols are functions (STT_FUNC) and
	 * which kernels (a NAME.kd descriptor), as assembler directives, so
	 * that functions start exactly there and nowhere else */
	for (size_t i = 0; rc == 0 && i < nall; i++) {
		if (all[i].func || all[i].kernel) {
			kw_buf_puts(&out, "\t.type ");
			kw_buf_puts(&out, all[i].name);
			kw_buf_puts(&out, ",@function\n");
		}
		if (all[i].kernel) {
			kw_buf_puts(&out, "\t.amdhsa_kernel ");
			kw_buf_puts(&out, all[i].name);
			kw_buf_putc(&out, '\n');
		}
	}
	if (rc == 0)
		rc = flush(&out, sink, &sent);
	syms_free(all, nall);
	elf_tab_free(&et);
	L.LLVMDisasmDispose(dc);
	L.LLVMDisposeBinary(bin);
	L.LLVMDisposeMemoryBuffer(mb);
	kw_buf_free(&out);
	if (rc == KW_ENOMEM && !(err && err->code))
		kw_error_set(err, KW_ENOMEM, NULL, "out of memory while decoding the code object");
	if (rc == 0 && sections == 0)
		rc = kw_error_set(err, KW_EINVAL, NULL, "the ELF file has no .text section to decode");
	if (rc && err && !err->code)
		kw_error_set(err, rc, NULL, "the decoded text could not be handed on (%s)", kw_error_code_name(rc));
	if (rc)
		return rc;
	if (n_insts)
		*n_insts = insts;
	return 0;
}

static int buf_put(void *ctx, const char *p, size_t n)
{
	kw_buf *b = ctx;
	return kw_buf_put(b, p, n) || b->oom ? KW_ENOMEM : 0;
}

int kw_codeobj_disassemble(const void *data, size_t len, const char *isa, const char *name, size_t max_insts,
                           size_t max_text, char **text, size_t *text_len, const char **isa_out, size_t *n_insts,
                           kw_error *err)
{
	kw_buf b = KW_BUF_INIT;
	kw_codeobj_sink sink = { buf_put, &b };

	*text = NULL;
	*text_len = 0;
	int rc = kw_codeobj_disassemble_to(data, len, isa, name, max_insts, max_text, 0, &sink, isa_out, n_insts,
	                                   err);
	if (rc == 0 && b.oom)
		rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory for the disassembly text");
	if (rc) {
		kw_buf_free(&b);
		return rc;
	}
	*text_len = b.len;
	*text = kw_buf_detach(&b);
	return 0;
}
