/*
 * words.c - assembly whose instructions are data words (`.long` ...; how
 * Tensile ships kernels) decoded with LLVM's disassembler (kwgen/codeobj.h).
 *
 * kw_verify_text_words gives the code bytes and the labels; they are put in
 * a minimal relocatable ELF (one .text section at offset 0, a symbol per
 * label: STT_FUNC for functions, a NAME.kd symbol for each kernel, as the
 * assembler would have made them) and decoded like any code object, in a
 * child process.  So the text gives the findings of the code object
 * assembled from it, at the same byte offsets.
 */
#include "kwgen/codeobj.h"

#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kwgen/buf.h"
#include "kwgen/verify.h"

static const struct {
	const char *isa;
	unsigned mach;
} machs[] = {
	{"gfx908", 0x30}, {"gfx90a", 0x3f}, {"gfx940", 0x40}, {"gfx941", 0x4b}, {"gfx942", 0x4c}, {"gfx950", 0x4f},
	{"gfx1100", 0x41}, {"gfx1101", 0x46}, {"gfx1102", 0x47}, {"gfx1200", 0x48}, {"gfx1201", 0x4e}, {"gfx1250", 0x49},
};

static void pad_to(kw_buf *b, size_t align)
{
	while (b->len % align)
		kw_buf_putc(b, 0);
}

static void put_sym(kw_buf *st, uint32_t name, unsigned char info, uint16_t shndx, uint64_t value)
{
	Elf64_Sym y;
	memset(&y, 0, sizeof y);
	y.st_name = name;
	y.st_info = info;
	y.st_shndx = shndx;
	y.st_value = value;
	kw_buf_put(st, (const char *)&y, sizeof y);
}

int kw_codeobj_from_words(const kw_verify_words *w, char **elf, size_t *elf_len, kw_error *err)
{
	unsigned mach = 0;
	kw_buf out = KW_BUF_INIT, symtab = KW_BUF_INIT, strtab = KW_BUF_INIT;
	static const char shstr[] = "\0.text\0.symtab\0.strtab\0.shstrtab";
	size_t nlocal = 0;

	*elf = NULL;
	*elf_len = 0;
	for (size_t i = 0; i < sizeof machs / sizeof machs[0]; i++)
		if (!strcmp(machs[i].isa, w->isa))
			mach = machs[i].mach;
	if (!mach)
		return kw_error_set(err, KW_EINVAL, "isa", "unknown ISA '%s'", w->isa);
	/* symbols: locals (labels) first, then functions and kernel descriptors */
	kw_buf_putc(&strtab, 0);
	put_sym(&symtab, 0, 0, 0, 0);
	for (int global = 0; global < 2; global++) {
		for (size_t i = 0; i < w->nsyms; i++) {
			const kw_verify_word_sym *s = &w->syms[i];
			int g = s->func || s->kernel;
			if (g != global)
				continue;
			put_sym(&symtab, (uint32_t)strtab.len,
			        g ? ELF64_ST_INFO(STB_GLOBAL, STT_FUNC) : ELF64_ST_INFO(STB_LOCAL, STT_NOTYPE), 1,
			        s->offset);
			kw_buf_puts(&strtab, s->name);
			kw_buf_putc(&strtab, 0);
			nlocal += !g;
			if (s->kernel) {
				put_sym(&symtab, (uint32_t)strtab.len, ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT), SHN_ABS, 0);
				kw_buf_puts(&strtab, s->name);
				kw_buf_puts(&strtab, ".kd");
				kw_buf_putc(&strtab, 0);
			}
		}
	}
	Elf64_Ehdr eh;
	memset(&eh, 0, sizeof eh);
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_ident[EI_OSABI] = 64; /* ELFOSABI_AMDGPU_HSA */
	eh.e_ident[EI_ABIVERSION] = 3;
	eh.e_type = ET_REL;
	eh.e_machine = 224; /* EM_AMDGPU */
	eh.e_version = EV_CURRENT;
	eh.e_flags = mach;
	eh.e_ehsize = sizeof eh;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = 5;
	eh.e_shstrndx = 4;
	kw_buf_put(&out, (const char *)&eh, sizeof eh);
	pad_to(&out, 256);
	size_t text_off = out.len;
	kw_buf_put(&out, (const char *)w->bytes, w->len);
	pad_to(&out, 8);
	size_t sym_off = out.len;
	kw_buf_put(&out, symtab.p ? symtab.p : "", symtab.len);
	size_t str_off = out.len;
	kw_buf_put(&out, strtab.p ? strtab.p : "", strtab.len);
	size_t shstr_off = out.len;
	kw_buf_put(&out, shstr, sizeof shstr);
	pad_to(&out, 8);
	size_t sh_off = out.len;
	Elf64_Shdr sh[5];
	memset(sh, 0, sizeof sh);
	sh[1] = (Elf64_Shdr){ 1, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, text_off, w->len, 0, 0, 256, 0 };
	sh[2] = (Elf64_Shdr){ 7, SHT_SYMTAB, 0, 0, sym_off, symtab.len, 3, (uint32_t)(1 + nlocal), 8, sizeof(Elf64_Sym) };
	sh[3] = (Elf64_Shdr){ 15, SHT_STRTAB, 0, 0, str_off, strtab.len, 0, 0, 1, 0 };
	sh[4] = (Elf64_Shdr){ 23, SHT_STRTAB, 0, 0, shstr_off, sizeof shstr, 0, 0, 1, 0 };
	kw_buf_put(&out, (const char *)sh, sizeof sh);
	if (!out.oom && out.len >= sizeof eh)
		((Elf64_Ehdr *)(void *)out.p)->e_shoff = sh_off;
	int oom = out.oom || symtab.oom || strtab.oom;
	kw_buf_free(&symtab);
	kw_buf_free(&strtab);
	if (oom) {
		kw_buf_free(&out);
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory building the code object of the data words");
	}
	*elf_len = out.len;
	*elf = kw_buf_detach(&out);
	return 0;
}

int kw_codeobj_verify_words_child(const char *text, size_t len, const char *isa, const char *name,
                                  size_t max_insts, const kw_codeobj_child_opts *opts,
                                  const kw_verify_opts *vo, kw_verify_result **out,
                                  char isa_out[KW_CODEOBJ_ISA_MAX], int *undecodable, int *decoder,
                                  kw_error *err)
{
	kw_verify_opts def = KW_VERIFY_OPTS_INIT, o = vo ? *vo : def;
	kw_verify_words w;
	char *elf = NULL;
	size_t elf_len = 0;
	int rc;

	*out = NULL;
	*undecodable = 0;
	*decoder = 0;
	isa_out[0] = 0;
	rc = kw_verify_text_words(&w, text, len, isa, err);
	if (rc)
		return rc;
	rc = kw_codeobj_from_words(&w, &elf, &elf_len, err);
	/* findings name the lines of the words in text */
	o.source_lines = w.lines;
	o.n_source_lines = w.nlines;
	/* a `kwgen-verify: assume atomic-counters` comment in the words' text */
	o.assume_line = w.assume_line;
	if (!rc)
		rc = kw_codeobj_verify_child(elf, elf_len, w.isa, name, max_insts, opts, &o, out, isa_out, undecodable,
		                             decoder, err);
	free(elf);
	kw_verify_words_free(&w);
	return rc;
}
