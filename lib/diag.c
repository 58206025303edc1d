/* diag.c - diagnostics collection (kwgen/diag.h). */
#include "kwgen/diag.h"

#include <stdarg.h>
#include <stdio.h>

static const char *const names[KW_DIAG_NCODES] = {
	"count_clamped", "count_out_of_range", "vgpr_pair_misaligned", "agpr_spill",
	"register_out_of_range", "instruction_not_on_isa",
};

const char *kw_diag_code_name(kw_diag_code c)
{
	return (unsigned)c < KW_DIAG_NCODES ? names[c] : "unknown";
}

void kw_diag_add(kw_diags *d, kw_diag_code c, const char *fmt, ...)
{
	va_list ap;

	if (!d || (unsigned)c >= KW_DIAG_NCODES)
		return;
	if (d->count[c]++ == 0) {
		va_start(ap, fmt);
		vsnprintf(d->message[c], sizeof(d->message[c]), fmt, ap);
		va_end(ap);
	}
}

int kw_diag_any(const kw_diags *d)
{
	int n = 0;

	for (int i = 0; i < KW_DIAG_NCODES; i++)
		n += d->count[i] > 0;
	return n;
}
