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
	X(LLVMObjectFileCopySectionIterator) X(LLVMObjectFileIsSectionIteratorAtEnd) X(LLVMMoveToNextSection) \
	X(LLVMDisposeSectionIterator) X(LLVMGetSectionName) X(LLVMGetSectionAddress) X(LLVMGetSectionSize) \
	X(LLVMGetSectionContents) X(LLVMGetSectionContainsSymbol) \
	X(LLVMObjectFileCopySymbolIterator) X(LLVMObjectFileIsSymbolIteratorAtEnd) X(LLVMMoveToNextSymbol) \
	X(LLVMDisposeSymbolIterator) X(LLVMGetSymbolName) X(LLVMGetSymbolAddress) \
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

typedef struct sym {
	uint64_t addr;
	char *name;
} sym;

static int sym_cmp(const void *a, const void *b)
{
	const sym *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
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
static void put_addr(kw_buf *b, uint64_t addr, int width)
{
	char tmp[32];
	if (width == 16)
		snprintf(tmp, sizeof tmp, "%016" PRIx64, addr);
	else
		snprintf(tmp, sizeof tmp, "%0*" PRIX64, width, addr);
	kw_buf_puts(b, tmp);
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
                     const sym *syms, size_t nsyms)
{
	while (*txt == ' ' || *txt == '\t')
		txt++;
	size_t tl = strlen(txt);
	while (tl > 0 && (txt[tl - 1] == ' ' || txt[tl - 1] == '\t'))
		tl--;
	kw_buf_putc(b, '\t');
	kw_buf_put(b, txt, tl);
	if (tl < OBJDUMP_INST_COLUMNS)
		kw_buf_spaces(b, OBJDUMP_INST_COLUMNS - tl);
	kw_buf_puts(b, "// ");
	put_addr(b, addr, 12);
	kw_buf_putc(b, ':');
	for (size_t i = 0; i + 4 <= n; i += 4) {
		char w[12];
		snprintf(w, sizeof w, " %08" PRIX32, le32(bytes + i));
		kw_buf_puts(b, w);
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

int kw_codeobj_disassemble(const void *data, size_t len, const char *isa, const char *name, size_t max_insts,
                           char **text, size_t *text_len, const char **isa_out, size_t *n_insts, kw_error *err)
{
	*text = NULL;
	*text_len = 0;
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
	pthread_once(&llvm_once, llvm_init);
	if (llvm_error[0])
		return kw_error_set(err, KW_EUNSUPPORTED, NULL,
		                    "%s; code objects are decoded with LLVM's disassembler (Debian package libllvm22)",
		                    llvm_error);

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
	size_t insts = 0;
	kw_buf_puts(&out, "\n");
	kw_buf_puts(&out, name ? name : "code object");
	kw_buf_puts(&out, ":\tfile format elf64-amdgpu\n");

	LLVMSectionIteratorRef sec = L.LLVMObjectFileCopySectionIterator(bin);
	/* LLVM's C API returns a NULL iterator (not one at its end) for an
	 * object without sections or without a symbol table. */
	for (; sec && !L.LLVMObjectFileIsSectionIteratorAtEnd(bin, sec) && rc == 0; L.LLVMMoveToNextSection(sec)) {
		const char *sname = L.LLVMGetSectionName(sec);
		if (!is_code_section(sname))
			continue;
		uint64_t base = L.LLVMGetSectionAddress(sec), size = L.LLVMGetSectionSize(sec);
		const unsigned char *bytes = (const unsigned char *)L.LLVMGetSectionContents(sec);
		if (!bytes && size)
			continue; /* SHT_NOBITS */
		sections++;
		/* the section's named symbols, by address */
		sym *syms = NULL;
		size_t nsyms = 0, cap = 0;
		LLVMSymbolIteratorRef si = L.LLVMObjectFileCopySymbolIterator(bin);
		for (; si && !L.LLVMObjectFileIsSymbolIteratorAtEnd(bin, si); L.LLVMMoveToNextSymbol(si)) {
			const char *nm = L.LLVMGetSymbolName(si);
			if (!nm || !*nm || !L.LLVMGetSectionContainsSymbol(sec, si))
				continue;
			if (nm[0] == '.' && nm[1] == 'L')
				continue; /* assembler-local labels: objdump does not print them either */
			uint64_t a = L.LLVMGetSymbolAddress(si);
			if (a < base || a >= base + size)
				continue;
			if (nsyms == cap) {
				cap = cap ? cap * 2 : 16;
				sym *ns = realloc(syms, cap * sizeof *syms);
				if (!ns) {
					rc = KW_ENOMEM;
					break;
				}
				syms = ns;
			}
			syms[nsyms].addr = a;
			syms[nsyms].name = strdup(nm);
			if (!syms[nsyms].name) {
				rc = KW_ENOMEM;
				break;
			}
			nsyms++;
		}
		if (si)
			L.LLVMDisposeSymbolIterator(si);
		if (rc == 0 && nsyms)
			qsort(syms, nsyms, sizeof *syms, sym_cmp);
		if (rc == 0) {
			kw_buf_puts(&out, "\nDisassembly of section ");
			kw_buf_puts(&out, sname);
			kw_buf_puts(&out, ":\n");
		}
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
				put_inst(&out, lit, addr, bytes + off, w, syms, nsyms);
				off += w;
			} else {
				put_inst(&out, txt, addr, bytes + off, n, syms, nsyms);
				off += n;
			}
			insts++;
		}
		for (size_t i = 0; i < nsyms; i++)
			free(syms[i].name);
		free(syms);
	}
	if (sec)
		L.LLVMDisposeSectionIterator(sec);
	L.LLVMDisasmDispose(dc);
	L.LLVMDisposeBinary(bin);
	L.LLVMDisposeMemoryBuffer(mb);
	if (rc == KW_ENOMEM)
		kw_error_set(err, KW_ENOMEM, NULL, "out of memory while decoding the code object");
	if (rc == 0 && sections == 0)
		rc = kw_error_set(err, KW_EINVAL, NULL, "the ELF file has no .text section to decode");
	if (rc == 0 && out.oom)
		rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory for the disassembly text");
	if (rc) {
		kw_buf_free(&out);
		return rc;
	}
	if (n_insts)
		*n_insts = insts;
	*text_len = out.len;
	*text = kw_buf_detach(&out);
	return 0;
}
