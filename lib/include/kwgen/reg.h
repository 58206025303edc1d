/*
 * kwgen/reg.h - register operands as rocisa's RegisterContainer /
 * HolderContainer model them (rendering.md §5).
 *
 *   kw_vgpr_index(40, 1)          v40          kw_vgpr_index(40, 2)   v[40:41]
 *   kw_reg_named('v', "ValuC", 3) v[vgprValuC+3]
 *   kw_reg_holder('v', "ValuC", 1 offset) - vgpr(Holder(name="ValuC+1"))
 *
 * Names are static strings (never copied); offsets are int64.  A kw_reg is
 * a plain value.
 */
#ifndef KWGEN_REG_H
#define KWGEN_REG_H

#include <stdint.h>

#include "kwgen/buf.h"

typedef enum kw_regform {
	KW_REG_INDEX,        /* v40, acc7 */
	KW_REG_NAMED,        /* v[vgprValuC+3] */
	KW_REG_HOLDER_NAME,  /* vgpr(Holder(name="ValuC+1")) - replaceHolder fills the base */
	KW_REG_HOLDER_INDEX  /* vgpr(Holder(idx=k)) */
} kw_regform;

typedef enum kw_regtype { KW_RT_V, KW_RT_S, KW_RT_ACC } kw_regtype;

/* Offsets: "ValuC+3" has one; a holder "ValuC+1" re-based by replaceHolder
 * has two ([dst, 1]). */
#define KW_REG_MAXOFF 2

typedef struct kw_reg {
	uint8_t type;     /* kw_regtype */
	uint8_t form;     /* kw_regform */
	uint8_t num;      /* registers: 1 or 2 */
	uint8_t minus;    /* getMinus(): prints a leading '-' */
	uint8_t noff;     /* offsets in off[] */
	uint8_t nhold;    /* holder's own offsets in hold_off (0 or 1) */
	uint8_t namelen;  /* strlen(name) */
	const char *name;           /* "ValuC" (named and holder-name forms), static */
	int64_t idx;                /* index form; holder index after replaceHolder */
	int64_t hold_idx;           /* holder index form: original index */
	int64_t off[KW_REG_MAXOFF]; /* named: printed offsets */
	int64_t hold_off;           /* holder name form: the offset of the holder text */
} kw_reg;

/* Upper bound of the text of one operand (named, 2 offsets, MSB suffix, range). */
#define KW_REG_TEXT_MAX 256

static inline kw_reg kw_reg_index(kw_regtype t, int64_t idx, int num)
{
	kw_reg r = { .type = (uint8_t)t, .form = KW_REG_INDEX, .num = (uint8_t)num, .idx = idx };
	return r;
}

/* name + one offset (vgpr("ValuC+%u")); noff 0 for a bare name.  name is a
 * static string (kept by pointer). */
static inline kw_reg kw_reg_named(kw_regtype t, const char *name, int noff, int64_t off, int num)
{
	kw_reg r = { .type = (uint8_t)t, .form = KW_REG_NAMED, .num = (uint8_t)num,
		     .noff = (uint8_t)(noff ? 1 : 0), .namelen = (uint8_t)__builtin_strlen(name),
		     .name = name, .idx = -1, .off = { off, 0 } };
	return r;
}

/* vgpr(Holder(name=name[+off])) */
static inline kw_reg kw_reg_holder(kw_regtype t, const char *name, int noff, int64_t off, int num)
{
	kw_reg r = kw_reg_named(t, name, noff, off, num);

	r.form = KW_REG_HOLDER_NAME;
	r.idx = 0;
	r.nhold = r.noff;
	r.hold_off = off;
	return r;
}

/* getMinus(): a plain (non-holder) copy with the minus flag. */
static inline kw_reg kw_reg_minus(kw_reg r)
{
	if (r.form == KW_REG_HOLDER_NAME)
		r.form = KW_REG_NAMED;
	else if (r.form == KW_REG_HOLDER_INDEX)
		r.form = KW_REG_INDEX;
	r.minus = 1;
	return r;
}
/* replaceHolder on one operand: no-op unless a holder. */
void kw_reg_replace_holder(kw_reg *r, int64_t dst);

/* Total index used for bank selection and range checks: idx, or the sum of
 * offsets plus vgpr_base (the rocisa VGPR-name map entry for the name, 0 if
 * none). */
int64_t kw_reg_total(const kw_reg *r, int64_t name_base);

/* Text of the operand; msb = VGPR bank (0 = no suffix), rendering.md §5.1/§10. */
int kw_reg_render(kw_buf *b, const kw_reg *r, int64_t msb);

/* The same text written at p, which has room for KW_REG_TEXT_MAX bytes;
 * returns the end.  No NUL is written. */
char *kw_reg_write(char *p, const kw_reg *r, int64_t msb);

#endif
