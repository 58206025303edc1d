/*
 * kwgen/diag.h - diagnostics: what the assembler or the hardware would
 * object to although the seed emits it.  Stable codes:
 *
 *   count_clamped          a wait count was clamped to the ISA's field maximum
 *   count_out_of_range     an emitted wait count the ISA's field cannot hold
 *                          (only with asmCaps overrides, or counts below -1)
 *   vgpr_pair_misaligned   a 64-bit VGPR pair starts on an odd register where
 *                          the ISA needs aligned tuples (gfx90a and later)
 *   agpr_spill             accumulators past maxAgpr were spilled to arch VGPRs
 *   register_out_of_range  a register index past what the ISA can address
 *   instruction_not_on_isa an instruction the ISA does not have
 *
 * A kw_diags collects at most one entry per code (the first message and a
 * count of occurrences).  Caller-owned, no allocation.
 */
#ifndef KWGEN_DIAG_H
#define KWGEN_DIAG_H

#include <stddef.h>

typedef enum kw_diag_code {
	KW_DIAG_COUNT_CLAMPED,
	KW_DIAG_COUNT_OUT_OF_RANGE,
	KW_DIAG_VGPR_PAIR_MISALIGNED,
	KW_DIAG_AGPR_SPILL,
	KW_DIAG_REGISTER_OUT_OF_RANGE,
	KW_DIAG_INSTRUCTION_NOT_ON_ISA,
	KW_DIAG_NCODES
} kw_diag_code;

typedef struct kw_diags {
	unsigned count[KW_DIAG_NCODES];
	char message[KW_DIAG_NCODES][200];
} kw_diags;

/* Stable code name ("count_clamped"). */
const char *kw_diag_code_name(kw_diag_code c);

/* Record one occurrence; the message of the first occurrence is kept. */
void kw_diag_add(kw_diags *d, kw_diag_code c, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

/* Count one more occurrence of a code that already has a message; returns
 * 1 if it did (so the caller need not format another message), 0 if the
 * code has none yet.  d may be NULL (returns 1: nothing to record). */
static inline int kw_diag_again(kw_diags *d, kw_diag_code c)
{
	if (!d)
		return 1;
	if (d->count[c]) {
		d->count[c]++;
		return 1;
	}
	return 0;
}

/* Number of codes with at least one occurrence. */
int kw_diag_any(const kw_diags *d);

#endif
