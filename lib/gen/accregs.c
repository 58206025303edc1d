/* accregs.c - ports mapAcctoArchRegs, mulMIoutAlphaToArch and
 * moveMIoutToArch (seed_KernelWriterModules.py). */
#include "kwgen/gen.h"
#include "kwgen/datatype.h"
#include "kwgen/module.h"
#include "checked.h"

#include <stdio.h>
#include <string.h>

#define NEED(var, key) do { if (kw_kernel_need(&(var), in->k, (key), who, err)) return err ? err->code : KW_EINVAL; } while (0)
#define OOM() kw_error_set(err, KW_ENOMEM, NULL, "out of memory")

static kw_item *inst2(kw_arena *a, kw_op op, kw_reg dst, kw_reg src, const char *comment)
{
	kw_operand o = kw_opr(src);

	return kw_inst(a, op, dst, 1, &o, comment);
}

/* inst2 with the seed's "<prefix><destIdx><tail>" comment. */
static kw_item *inst2n(kw_arena *a, kw_op op, kw_reg dst, kw_reg src, const char *prefix, int64_t idx,
		       const char *tail)
{
	return kw_inst_comment_num(inst2(a, op, dst, src, ""), prefix, idx, tail);
}

static kw_reg valuc(int64_t off, int num)
{
	return kw_reg_named(KW_RT_V, "ValuC", 1, off, num);
}

static kw_reg holder(int noff, int64_t off, int num)
{
	return kw_reg_holder(KW_RT_V, "ValuC", noff, off, num);
}

int kw_gen_map_acc_to_arch_regs(kw_item **out, const kw_gen_in *in, const kw_map_args *a, kw_error *err)
{
	const char *who = "mapAcctoArchRegs";
	kw_acc_map m;
	int64_t dt, R, cm, nitems, imoff, archv = 0, cls = 0, spills = 0, first_spill = -1;
	int have_archv = 0;
	kw_item *mod;

	if (kw_gen_acc_to_arch_mapper(&m, in, err))
		return err ? err->code : KW_EINVAL;
	NEED(dt, KK_DataType);
	cm = kw_dt_is_complex((int)dt) ? 2 : 1;
	NEED(R, KK_MIRegPerOut);
	if (kw_mul(&nitems, R, cm) || kw_mul(&nitems, nitems, m.len) || kw_mul(&imoff, m.len, R))
		return KW_OVERFLOW(err, who);
	if (nitems < 0)
		nitems = 0;
	if (nitems > in->max_acc_len * 8)
		return kw_error_set(err, KW_ELIMIT, "kernel.MIRegPerOut", "%s: %lld output registers (accumulators x MIRegPerOut x complex); the limit is %lld",
				    who, (long long)nitems, (long long)(in->max_acc_len * 8));
	mod = kw_module(in->arena, a->write ? "AccVgprWrite" : "AccVgprRead");
	if (!mod || kw_module_set_size(in->arena, mod, (size_t)nitems))
		return OOM();
	for (int64_t i = 0; i < m.len; i++)
		for (int64_t c = 0; c < cm; c++)
			for (int64_t r = 0; r < R; r++) {
				int64_t dest = (m.acc2arch[i] * cm + c) * R + r;
				int64_t src = (i * R + r) + c * imoff;
				kw_item *it;

				if (!have_archv) {
					NEED(archv, KK_MIArchVgpr);
					cls = kw_kernel_get(in->k, KK_CompactLoopStore, 0);
					have_archv = 1;
				}
				if (!archv) {
					if (src >= a->maxAgpr) {
						int64_t so = src - a->maxAgpr;
						kw_reg sp = a->has_spilledVgprBase ? kw_reg_index(KW_RT_V, a->spilledVgprBase + so, 1)
										   : valuc(so, 1);
						if (!spills++)
							first_spill = src;
						if (a->write)
							it = inst2n(in->arena, KW_OP_V_MOV_B32, sp, holder(0, 0, 1),
								    "copy vreg[", dest, "] to MI out reg");
						else
							it = inst2n(in->arena, KW_OP_V_MOV_B32, holder(0, 0, 1), sp,
								    "copy MI out reg to vreg[", dest, "]");
					} else if (a->write) {
						it = inst2n(in->arena, KW_OP_V_ACCVGPR_WRITE_B32, kw_reg_index(KW_RT_ACC, src, 1),
							    holder(0, 0, 1), "copy vreg[", dest, "] to acc");
					} else {
						it = inst2n(in->arena, KW_OP_V_ACCVGPR_READ_B32, holder(0, 0, 1),
							    kw_reg_index(KW_RT_ACC, src, 1), "copy acc to vreg[", dest, "]");
					}
				} else if (a->write) {
					it = inst2n(in->arena, KW_OP_V_MOV_B32, valuc(src, 1), holder(0, 0, 1),
						    "copy vreg[", dest, "] to MI out reg");
				} else {
					it = inst2n(in->arena, cls ? KW_OP_V_MOVRELSD_2_B32 : KW_OP_V_MOV_B32, holder(0, 0, 1),
						    valuc(src, 1), "copy MI out reg to vreg[", dest, "]");
				}
				if (!it)
					return OOM();
				kw_module_set(mod, (size_t)dest, it);
			}
	if (spills)
		kw_diag_add(in->diags, KW_DIAG_AGPR_SPILL,
			    "%lld accumulator registers (from acc index %lld) are past maxAgpr %lld and live in arch VGPRs (%s)",
			    (long long)spills, (long long)first_spill, (long long)a->maxAgpr,
			    a->has_spilledVgprBase ? "from spilledVgprBase" : "at ValuC+0..");
	*out = mod;
	return 0;
}

typedef enum { ALPHA_MUL, ALPHA_MOVE } alpha_kind;

static const char mul_c[] = "Multiply MI out reg with alpha";
static const char move_c[] = "Rearrange MI out reg";

/* Texts of the four complex-float alpha instructions (the double ones have none). */
static const char *const cmul_comments[2][4] = {
	{ "tmp1 = a.real * b.real", "tmp2 = a.imag * b.real",
	  "c.real = a.real * b.real - a.imag * b.imag = tmp1 - a.imag * b.imag",
	  "c.imag = a.real * b.imag + a.imag * b.real = a.real * b.imag + tmp2" },
	{ "", "", "", "" },
};

/*
 * The complex alpha item of mulMIoutAlphaToArch, n registers per real
 * value (1 complex float, 2 complex double): tmp1 = a.re*b.re, tmp2 =
 * a.im*b.re, c.re = tmp1 - a.im*b.im, c.im = a.re*b.im + tmp2, with
 * temporaries at v[tmp] and v[tmp+n], alpha in s[Alpha+0] / s[Alpha+n].
 */
static kw_item *complex_mul(kw_arena *A, int n, int64_t src, int64_t imoff, int64_t tmp)
{
	const char *const *cm = cmul_comments[n - 1];
	kw_op mul = n == 1 ? KW_OP_V_MUL_F32 : KW_OP_V_MUL_F64, fma = n == 1 ? KW_OP_V_FMA_F32 : KW_OP_V_FMA_F64;
	kw_operand re = kw_opr(valuc(src, n)), im = kw_opr(valuc(src + imoff, n));
	kw_operand a0 = kw_opr(kw_reg_named(KW_RT_S, "Alpha", 1, 0, n)), an = kw_opr(kw_reg_named(KW_RT_S, "Alpha", 1, n, n));
	kw_operand t1 = kw_opr(kw_reg_index(KW_RT_V, tmp, n)), t2 = kw_opr(kw_reg_index(KW_RT_V, tmp + n, n));
	kw_operand o1[2] = { a0, re }, o2[2] = { an, re };
	kw_operand o3[3] = { an, kw_opr(kw_reg_minus(im.reg)), t1 }, o4[3] = { a0, im, t2 };
	kw_item *c = kw_module(A, "");

	if (!c || kw_module_add(A, c, kw_inst(A, mul, t1.reg, 2, o1, cm[0])) ||
	    kw_module_add(A, c, kw_inst(A, mul, t2.reg, 2, o2, cm[1])) ||
	    kw_module_add(A, c, kw_inst(A, fma, holder(0, 0, n), 3, o3, cm[2])) ||
	    kw_module_add(A, c, kw_inst(A, fma, holder(1, n, n), 3, o4, cm[3])))
		return NULL;
	return c;
}

/* The complex item of moveMIoutToArch: real and imaginary parts to
 * ValuC and ValuC+n (v_mov_b32 for float, v_lshlrev_b64 by 0 for double). */
static kw_item *complex_move(kw_arena *A, int n, int64_t src, int64_t imoff)
{
	kw_item *c = kw_module(A, "");
	kw_operand o[2];

	if (!c)
		return NULL;
	if (n == 1) {
		if (kw_module_add(A, c, inst2(A, KW_OP_V_MOV_B32, holder(0, 0, 1), valuc(src, 1), move_c)) ||
		    kw_module_add(A, c, inst2(A, KW_OP_V_MOV_B32, holder(1, 1, 1), valuc(src + imoff, 1), move_c)))
			return NULL;
		return c;
	}
	o[0] = kw_imm(0);
	o[1] = kw_opr(valuc(src, 2));
	if (kw_module_add(A, c, kw_inst(A, KW_OP_V_LSHLREV_B64, holder(0, 0, 2), 2, o, move_c)))
		return NULL;
	o[1] = kw_opr(valuc(src + imoff, 2));
	if (kw_module_add(A, c, kw_inst(A, KW_OP_V_LSHLREV_B64, holder(1, 2, 2), 2, o, move_c)))
		return NULL;
	return c;
}

static int alpha_common(kw_item **out, const kw_gen_in *in, int64_t tmp, alpha_kind kind, kw_error *err)
{
	const char *who = kind == ALPHA_MUL ? "mulMIoutAlphaToArch" : "moveMIoutToArch";
	kw_arena *A = in->arena;
	kw_acc_map m;
	int64_t R = 0, cdt = 0, hpa = 0, imoff = -1;
	kw_item *mod;

	if (kw_gen_acc_to_arch_mapper(&m, in, err))
		return err ? err->code : KW_EINVAL;
	mod = kw_module(A, "MulAlpha");
	if (!mod || kw_module_set_size(A, mod, (size_t)m.len))
		return OOM();
	if (m.len > 0) {
		NEED(R, KK_MIRegPerOut);
		NEED(cdt, KK_ComputeDataType);
		if (cdt == KW_DT_Half)
			NEED(hpa, KK_HighPrecisionAccumulate);
		if (kw_dt_is_complex((int)cdt) && kw_mul(&imoff, m.len, R))
			return KW_OVERFLOW(err, who);
	}
	for (int64_t i = 0; i < m.len; i++) {
		int64_t dest = m.acc2arch[i], src = i * R;
		kw_item *it = NULL;
		kw_operand o[3];

		if (cdt == KW_DT_Double) {
			if (kind == ALPHA_MUL) {
				o[0] = kw_opr(kw_reg_named(KW_RT_S, "Alpha", 0, 0, 2));
				o[1] = kw_opr(valuc(src, 2));
				it = kw_inst(A, KW_OP_V_MUL_F64, holder(0, 0, 2), 2, o, mul_c);
			} else {
				o[0] = kw_imm(0);
				o[1] = kw_opr(valuc(src, 2));
				it = kw_inst(A, KW_OP_V_LSHLREV_B64, holder(0, 0, 2), 2, o, move_c);
			}
		} else if (cdt == KW_DT_Float || cdt == KW_DT_Half || cdt == KW_DT_Int32) {
			if (kind == ALPHA_MOVE) {
				it = inst2(A, KW_OP_V_MOV_B32, holder(0, 0, 1), valuc(src, 1), move_c);
			} else {
				kw_op op = cdt == KW_DT_Int32 ? KW_OP_V_MUL_LO_U32 :
					   (cdt == KW_DT_Half && !hpa) ? KW_OP_V_PK_MUL_F16 : KW_OP_V_MUL_F32;
				o[0] = kw_opr(kw_reg_named(KW_RT_S, "Alpha", 0, 0, 1));
				o[1] = kw_opr(valuc(src, 1));
				it = kw_inst(A, op, holder(0, 0, 1), 2, o, mul_c);
			}
		} else if (cdt == KW_DT_ComplexFloat || cdt == KW_DT_ComplexDouble) {
			int n = cdt == KW_DT_ComplexFloat ? 1 : 2;
			it = kind == ALPHA_MUL ? complex_mul(A, n, src, imoff, tmp) : complex_move(A, n, src, imoff);
		} else {
			/* no branch in the seed: the slot stays None and printing the
			 * module would dereference it */
			return kw_error_set(err, KW_EUNSUPPORTED, "kernel.ProblemType.ComputeDataType",
					    "%s: ComputeDataType %s has no branch in the seed (it handles Float, Double, ComplexFloat, "
					    "ComplexDouble, Int32, and Half with or without HighPrecisionAccumulate), so item %lld "
					    "would be empty", who, kw_datatype_name((int)cdt), (long long)dest);
		}
		if (!it)
			return OOM();
		kw_module_set(mod, (size_t)dest, it);
	}
	*out = mod;
	return 0;
}

int kw_gen_mul_miout_alpha_to_arch(kw_item **out, const kw_gen_in *in, int64_t startVgprAlphaTmp, kw_error *err)
{
	return alpha_common(out, in, startVgprAlphaTmp, ALPHA_MUL, err);
}

int kw_gen_move_miout_to_arch(kw_item **out, const kw_gen_in *in, int64_t startVgprAlphaTmp, kw_error *err)
{
	return alpha_common(out, in, startVgprAlphaTmp, ALPHA_MOVE, err);
}
