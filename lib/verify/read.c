/* read.c - AMDGPU assembly text (clang -S / Tensile, llvm-objdump -d) into
 * an instruction stream (first version: ISA and instruction count). */
#include "verify/verify_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const vf_isa *isa_from_text(const char *t, size_t len)
{
	const char *key = ".amdgcn_target";
	size_t kl = strlen(key);

	for (size_t i = 0; i + kl < len; i++) {
		if (t[i] == '.' && !memcmp(t + i, key, kl)) {
			const char *p = t + i + kl, *end = t + len, *g;
			for (g = p; g + 3 < end && *g != '\n'; g++) {
				if (g[0] == 'g' && g[1] == 'f' && g[2] == 'x') {
					const char *e = g + 3;
					while (e < end && isalnum((unsigned char)*e))
						e++;
					return vf_isa_by_name(g, (size_t)(e - g));
				}
			}
			return NULL;
		}
	}
	return NULL;
}

int vf_read(vf_prog *p, const char *text, size_t len, const char *isa_name, kw_error *err)
{
	p->text = text;
	p->len = len;
	if (isa_name) {
		p->isa = vf_isa_by_name(isa_name, strlen(isa_name));
		if (!p->isa)
			return kw_error_set(err, KW_EINVAL, "isa",
					    "unknown ISA '%s'; supported: gfx908, gfx90a, gfx940, gfx941, "
					    "gfx942, gfx950, gfx1100, gfx1101, gfx1102, gfx1200, gfx1201, gfx1250",
					    isa_name);
	} else {
		p->isa = isa_from_text(text, len);
		if (!p->isa)
			return kw_error_set(err, KW_EINVAL, "isa",
					    "no ISA: the text has no .amdgcn_target naming a supported "
					    "processor; give one (--isa gfx942)");
	}
	return 0;
}

void vf_prog_free(vf_prog *p)
{
	free(p->insts);
	free(p->ops);
	free(p->waits);
	free(p->addr);
	free(p->funcs);
	memset(p, 0, sizeof(*p));
}
