/* inst.c - instruction items and their per-ISA text (rendering.md §4, §7-§10). */
#include "kwgen/inst.h"

#include <stdio.h>
#include <string.h>

static const char *const mnemonics[KW_OP_COUNT] = {
	"v_accvgpr_read_b32", "v_accvgpr_write_b32", "v_fma_f32", "v_fma_f64", "v_lshlrev_b64",
	"v_mov_b32", "v_movrelsd_2_b32", "v_mul_f32", "v_mul_f64", "v_mul_lo_u32", "v_pk_mul_f16",
	"s_mov_b32",
};

/* The mnemonics padded to a fixed 24 bytes, so the hot path copies a
 * constant size (a variable-size copy of ~10 bytes costs more than the
 * whole rest of an instruction's text). */
static const char mnemonic_pad[KW_OP_COUNT][24] = {
	"v_accvgpr_read_b32", "v_accvgpr_write_b32", "v_fma_f32", "v_fma_f64", "v_lshlrev_b64",
	"v_mov_b32", "v_movrelsd_2_b32", "v_mul_f32", "v_mul_f64", "v_mul_lo_u32", "v_pk_mul_f16",
	"s_mov_b32",
};

static const char spaces64[64] = "                                                               ";

static const unsigned char mnemonic_len[KW_OP_COUNT] = {
	sizeof("v_accvgpr_read_b32") - 1, sizeof("v_accvgpr_write_b32") - 1, sizeof("v_fma_f32") - 1,
	sizeof("v_fma_f64") - 1, sizeof("v_lshlrev_b64") - 1, sizeof("v_mov_b32") - 1,
	sizeof("v_movrelsd_2_b32") - 1, sizeof("v_mul_f32") - 1, sizeof("v_mul_f64") - 1,
	sizeof("v_mul_lo_u32") - 1, sizeof("v_pk_mul_f16") - 1, sizeof("s_mov_b32") - 1,
};

const char *kw_op_mnemonic(kw_op op)
{
	return (unsigned)op < KW_OP_COUNT ? mnemonics[op] : "?";
}

static kw_item *new_item(kw_arena *a, kw_item_kind kind, const char *comment)
{
	kw_item *it = kw_arena_alloc(a, sizeof(*it));

	if (!it)
		return NULL;
	it->kind = (uint8_t)kind;
	it->op = 0;
	it->nsrc = 0;
	it->new_barrier = 0;
	it->comment = comment ? comment : "";
	it->comment_tail = NULL;
	it->comment_num = 0;
	return it;
}

kw_item *kw_inst(kw_arena *a, kw_op op, kw_reg dst, int nsrc, const kw_operand *src, const char *comment)
{
	kw_item *it = new_item(a, KW_ITEM_INST, comment);

	if (!it)
		return NULL;
	it->op = (uint8_t)op;
	it->nsrc = (uint8_t)nsrc;
	it->u.inst.dst = dst;
	for (int i = 0; i < nsrc && i < 3; i++)
		it->u.inst.src[i] = src[i];
	return it;
}

kw_item *kw_swaitcnt(kw_arena *a, int64_t vlcnt, int64_t vscnt, int64_t dscnt, int64_t kmcnt,
		     const char *comment, int wait_all)
{
	kw_item *it = new_item(a, KW_ITEM_WAITCNT, comment);

	if (!it)
		return NULL;
	it->u.wait.vlcnt = vlcnt;
	it->u.wait.vscnt = vscnt;
	it->u.wait.dscnt = dscnt;
	it->u.wait.kmcnt = kmcnt;
	it->u.wait.wait_all = wait_all;
	return it;
}

kw_item *kw_swait_tensorcnt(kw_arena *a, int64_t tensorcnt, const char *comment)
{
	kw_item *it = new_item(a, KW_ITEM_TENSORCNT, comment);

	if (it)
		it->u.tensorcnt = tensorcnt;
	return it;
}

kw_item *kw_sbarrier(kw_arena *a, const kw_caps *caps, const char *comment)
{
	kw_item *it = new_item(a, KW_ITEM_BARRIER, comment);

	if (!it)
		return NULL;
	it->new_barrier = caps->asm_[KW_ASM_HasNewBarrier] != 0;
	it->u.barrier.tokens = NULL;
	it->u.barrier.ntokens = 0;
	return it;
}

kw_item *kw_text(kw_arena *a, const char *text)
{
	kw_item *it = new_item(a, KW_ITEM_TEXT, "");

	if (it)
		it->u.text = text;
	return it;
}

void kw_line_finish(kw_buf *b, size_t start, const char *comment, int no_comment)
{
	if (comment && *comment && !no_comment) {
		size_t len = b->len - start;
		if (len < 50)
			kw_buf_spaces(b, 50 - len);
		kw_buf_put(b, " // ", 4);
		kw_buf_puts(b, comment);
	}
	kw_buf_putc(b, '\n');
}

/* ---- diagnostics helpers ------------------------------------------------ */

static int is_gfx9(const kw_isa_info *i)
{
	return i->family == KW_FAM_GFX9 || i->family == KW_FAM_GFX90A;
}

static int has_split_waits(const kw_isa_info *i)
{
	return i->family == KW_FAM_GFX12 || i->family == KW_FAM_GFX1250;
}

static void not_on_isa(kw_render_ctx *ctx, const char *what)
{
	kw_diag_add(ctx->diags, KW_DIAG_INSTRUCTION_NOT_ON_ISA, "%s does not exist on %s", what, ctx->isa->name);
}

static int64_t name_base(const kw_render_ctx *ctx, const kw_reg *r)
{
	if (r->form != KW_REG_NAMED && r->form != KW_REG_HOLDER_NAME)
		return 0;
	for (size_t i = 0; i < ctx->n_vgpr_idx; i++)
		if (!strcmp(ctx->vgpr_idx[i].name, r->name))
			return ctx->vgpr_idx[i].idx;
	return 0;
}

static int64_t tdiv256(int64_t v)
{
	return v / 256; /* C division truncates toward zero, as rocisa's */
}

static int64_t reg_msb(const kw_render_ctx *ctx, const kw_reg *r)
{
	if (!ctx->caps->asm_[KW_ASM_HasVgprMSB] || r->type != KW_RT_V)
		return 0;
	return tdiv256(kw_reg_total(r, name_base(ctx, r)));
}

/* " (vgprValuC+24 with vgprValuC = 1000 from vgprIdx)": which symbolic
 * operand a diagnostic is about; only formatted when one is raised. */
static const char *where_text(char *buf, size_t n, const kw_reg *r, int64_t total, int64_t base)
{
	if (r->form != KW_REG_NAMED && r->form != KW_REG_HOLDER_NAME)
		return "";
	snprintf(buf, n, " (vgpr%s%+lld with vgpr%s = %lld%s)", r->name, (long long)(total - base), r->name,
		 (long long)base, base ? " from vgprIdx" : ", its value unknown here");
	return buf;
}

static void check_reg(kw_render_ctx *ctx, const kw_reg *r, int wide)
{
	int64_t base, total;
	char where[96];

	if (!ctx->diags || r->type == KW_RT_S)
		return;
	base = name_base(ctx, r);
	total = kw_reg_total(r, base);
	if (r->type == KW_RT_V) {
		if (total < 0 || total + r->num - 1 >= ctx->isa->max_vgpr) {
			if (!kw_diag_again(ctx->diags, KW_DIAG_REGISTER_OUT_OF_RANGE))
				kw_diag_add(ctx->diags, KW_DIAG_REGISTER_OUT_OF_RANGE,
					    "v%lld%s is past the %d VGPRs %s can address%s", (long long)total,
					    where_text(where, sizeof(where), r, total, base), ctx->isa->max_vgpr,
					    ctx->isa->name,
					    ctx->caps->asm_[KW_ASM_HasVgprMSB] && total >= 0
						    ? "; its bank does not fit the 2-bit fields of s_set_vgpr_msb (llvm-mc does not check this)"
						    : "");
		} else if (wide && r->num == 2 && (total & 1) &&
			   (ctx->isa->family == KW_FAM_GFX90A || ctx->isa->family == KW_FAM_GFX1250) &&
			   !kw_diag_again(ctx->diags, KW_DIAG_VGPR_PAIR_MISALIGNED)) {
			kw_diag_add(ctx->diags, KW_DIAG_VGPR_PAIR_MISALIGNED,
				    "64-bit VGPR pair starts on odd register v%lld%s; %s needs even-aligned tuples",
				    (long long)total, where_text(where, sizeof(where), r, total, base), ctx->isa->name);
		}
	} else if (r->type == KW_RT_ACC) {
		if (total < 0 || total + r->num - 1 > 255)
			kw_diag_add(ctx->diags, KW_DIAG_REGISTER_OUT_OF_RANGE,
				    "acc%lld is past the 256 AGPRs", (long long)total);
	}
}

/* ---- common instructions ------------------------------------------------ */

static int op_is_wide(kw_op op)
{
	return op == KW_OP_V_FMA_F64 || op == KW_OP_V_LSHLREV_B64 || op == KW_OP_V_MUL_F64;
}

static void render_inst(kw_buf *b, const kw_item *it, kw_render_ctx *ctx)
{
	const kw_reg *dst = &it->u.inst.dst;
	int64_t m[3] = { 0, 0, 0 }, md = 0;
	int has_vgpr = 0, wide = op_is_wide((kw_op)it->op);
	size_t start;

	if ((it->op == KW_OP_V_ACCVGPR_READ_B32 || it->op == KW_OP_V_ACCVGPR_WRITE_B32) && !ctx->isa->has_agpr)
		not_on_isa(ctx, kw_op_mnemonic((kw_op)it->op));
	if (it->op == KW_OP_V_MOVRELSD_2_B32 && is_gfx9(ctx->isa))
		not_on_isa(ctx, "v_movrelsd_2_b32");

	check_reg(ctx, dst, wide);
	for (int i = 0; i < it->nsrc; i++)
		if (it->u.inst.src[i].is_reg)
			check_reg(ctx, &it->u.inst.src[i].reg, wide);

	if (ctx->caps->asm_[KW_ASM_HasVgprMSB]) {
		for (int i = 0; i < it->nsrc && i < 3; i++)
			if (it->u.inst.src[i].is_reg && it->u.inst.src[i].reg.type == KW_RT_V) {
				m[i] = reg_msb(ctx, &it->u.inst.src[i].reg);
				has_vgpr = 1;
			}
		if (dst->type == KW_RT_V) {
			md = reg_msb(ctx, dst);
			has_vgpr = 1;
		}
		if (!has_vgpr) {
			if (ctx->vgpr_msb == -1)
				ctx->vgpr_msb = -2;
		} else {
			int64_t nv = m[0] + m[1] * 4 + m[2] * 16 + md * 64; /* Python << on ints; m may be negative */
			if (nv != ctx->vgpr_msb) {
				if (ctx->isa->family != KW_FAM_GFX1250)
					not_on_isa(ctx, "s_set_vgpr_msb");
				if (ctx->vgpr_msb == -1)
					kw_buf_puts(b, "s_nop 0\n");
				start = b->len;
				kw_buf_puts(b, "s_set_vgpr_msb ");
				kw_buf_put_i64(b, nv);
				{
					char c[128];
					char *p = c;
					size_t n;
					memcpy(p, "src0: ", 6), p += 6;
					p += kw_i64_to_str(p, m[0]);
					memcpy(p, ", src1: ", 8), p += 8;
					p += kw_i64_to_str(p, m[1]);
					memcpy(p, ", src2: ", 8), p += 8;
					p += kw_i64_to_str(p, m[2]);
					memcpy(p, ", dst: ", 7), p += 7;
					n = kw_i64_to_str(p, md);
					p[n] = '\0';
					kw_line_finish(b, start, c, 0);
				}
				ctx->vgpr_msb = nv;
			}
		}
	}

	{
		size_t clen = (it->comment && (*it->comment || it->comment_tail) && !ctx->output_no_comment)
				      ? strlen(it->comment) : 0;
		size_t tlen = it->comment_tail && !ctx->output_no_comment ? strlen(it->comment_tail) : 0;
		size_t mlen = mnemonic_len[it->op];
		char *p0, *p;

		if (kw_buf_grow(b, mlen + 4 * (KW_REG_TEXT_MAX + 2) + 64 + clen + 24 + tlen))
			return;
		p0 = p = b->p + b->len;
		memcpy(p, mnemonic_pad[it->op], sizeof(mnemonic_pad[0]));
		p += mlen;
		*p++ = ' ';
		p = kw_reg_write(p, dst, md);
		for (int i = 0; i < it->nsrc; i++) {
			const kw_operand *o = &it->u.inst.src[i];
			*p++ = ',';
			*p++ = ' ';
			if (o->is_reg)
				p = kw_reg_write(p, &o->reg, reg_msb(ctx, &o->reg));
			else
				p += kw_i64_to_str(p, o->imm);
		}
		if (clen || tlen) { /* line(): pad the text to 50 columns, then " // comment" */
			size_t tl = (size_t)(p - p0);
			if (tl < 50) {
				memcpy(p, spaces64, 50); /* room was reserved; only 50 - tl count */
				p += 50 - tl;
			}
			memcpy(p, " // ", 4);
			memcpy(p + 4, it->comment, clen);
			p += 4 + clen;
			if (it->comment_tail) {
				p += kw_i64_to_str(p, it->comment_num);
				memcpy(p, it->comment_tail, tlen);
				p += tlen;
			}
		}
		*p++ = '\n';
		*p = '\0';
		b->len = (size_t)(p - b->p);
	}
}

/* ---- waits -------------------------------------------------------------- */

static void no_vgpr_inst(kw_render_ctx *ctx)
{
	if (ctx->caps->asm_[KW_ASM_HasVgprMSB] && ctx->vgpr_msb == -1)
		ctx->vgpr_msb = -2;
}

static int64_t clamp(kw_render_ctx *ctx, const char *counter, int64_t v, int cap, const char *capname)
{
	int64_t max = ctx->caps->asm_[cap];

	if (v > max) {
		kw_diag_add(ctx->diags, KW_DIAG_COUNT_CLAMPED, "%s %lld requested, %lld emitted (asmCaps %s of %s)",
			    counter, (long long)v, (long long)max, capname, ctx->isa->name);
		return max;
	}
	return v;
}

static void check_field(kw_render_ctx *ctx, const char *counter, int64_t v, int64_t lo, int64_t hi)
{
	if (v < lo || v > hi)
		kw_diag_add(ctx->diags, KW_DIAG_COUNT_OUT_OF_RANGE, "%s %lld does not fit the field on %s (allowed %lld..%lld)",
			    counter, (long long)v, ctx->isa->name, (long long)lo, (long long)hi);
}

/* The legacy s_waitcnt lgkmcnt(..), vmcnt(..) form. */
static void piece_waitcnt(kw_buf *b, kw_render_ctx *ctx, int64_t lgkm, int64_t vm, const char *comment)
{
	size_t start = b->len;
	int64_t lgkm_hw = ctx->isa->family == KW_FAM_GFX9 || ctx->isa->family == KW_FAM_GFX90A ? 15 : 63;

	if (ctx->isa->family == KW_FAM_GFX1250)
		not_on_isa(ctx, "s_waitcnt");
	kw_buf_puts(b, "s_waitcnt ");
	if (lgkm == 0 && vm == 0) {
		kw_buf_putc(b, '0');
	} else {
		if (lgkm != -1) {
			int64_t e = clamp(ctx, "lgkmcnt", lgkm, KW_ASM_MaxLgkmcnt, "MaxLgkmcnt");
			check_field(ctx, "lgkmcnt", e, 0, lgkm_hw);
			kw_buf_puts(b, "lgkmcnt(");
			kw_buf_put_i64(b, e);
			kw_buf_putc(b, ')');
		}
		if (vm != -1) {
			int64_t e = clamp(ctx, "vmcnt", vm, KW_ASM_MaxVmcnt, "MaxVmcnt");
			check_field(ctx, "vmcnt", e, 0, 63);
			if (lgkm != -1)
				kw_buf_put(b, ", ", 2);
			kw_buf_puts(b, "vmcnt(");
			kw_buf_put_i64(b, e);
			kw_buf_putc(b, ')');
		}
	}
	kw_line_finish(b, start, comment, ctx->output_no_comment);
}

/* s_wait_dscnt / kmcnt / loadcnt / storecnt N (gfx12 split counters). */
static void piece_split(kw_buf *b, kw_render_ctx *ctx, const char *mn, int64_t v, int cap,
			const char *capname, const char *comment)
{
	size_t start;
	int64_t e;

	no_vgpr_inst(ctx);
	start = b->len;
	e = clamp(ctx, mn, v, cap, capname);
	check_field(ctx, mn, e, -32768, 65535);
	kw_buf_puts(b, mn);
	kw_buf_putc(b, ' ');
	kw_buf_put_i64(b, e);
	kw_line_finish(b, start, comment, ctx->output_no_comment);
}

static int64_t sum2(int64_t a, int64_t b)
{
	if (a == -1 && b == -1)
		return -1;
	return (a != -1 ? a : 0) + (b != -1 ? b : 0);
}

static void render_wait(kw_buf *b, const kw_item *it, kw_render_ctx *ctx)
{
	const kw_caps *c = ctx->caps;
	int64_t vl = it->u.wait.vlcnt, vs = it->u.wait.vscnt, ds = it->u.wait.dscnt, km = it->u.wait.kmcnt;
	const char *comment = it->comment;
	int n = 0;

	if (it->u.wait.wait_all) {
		vl = vs = ds = km = 0;
		comment = "(Wait all)";
	}
/* each piece after the first is preceded by "\n" (pieces joined with "\n") */
#define SEP() do { if (n++) kw_buf_putc(b, '\n'); } while (0)
#define SPLIT(mn, v, cap, capname) do { SEP(); piece_split(b, ctx, mn, v, cap, capname, comment); } while (0)
	if (c->asm_[KW_ASM_SeparateVscnt]) {
		int64_t lgkm = sum2(ds, km);
		if (vl != -1 || lgkm != -1) {
			SEP();
			piece_waitcnt(b, ctx, lgkm, vl, comment);
		}
		if (vs != -1) {
			if (ctx->isa->family != KW_FAM_GFX11)
				not_on_isa(ctx, "s_waitcnt_vscnt");
			SEP();
			{
				size_t s0 = b->len;
				int64_t e = clamp(ctx, "vscnt", vs, KW_ASM_MaxVscnt, "MaxVscnt");
				check_field(ctx, "vscnt", e, -32768, 65535);
				kw_buf_puts(b, "s_waitcnt_vscnt null ");
				kw_buf_put_i64(b, e);
				kw_line_finish(b, s0, comment, ctx->output_no_comment);
			}
		}
	} else if (c->asm_[KW_ASM_SeparateVMcnt] && c->asm_[KW_ASM_SeparateLGKMcnt]) {
		if ((ds != -1 || km != -1 || vl != -1 || vs != -1) && !has_split_waits(ctx->isa))
			not_on_isa(ctx, "s_wait_dscnt/kmcnt/loadcnt/storecnt");
		if (ds != -1)
			SPLIT("s_wait_dscnt", ds, KW_ASM_MaxDscnt, "MaxDscnt");
		if (km != -1)
			SPLIT("s_wait_kmcnt", km, KW_ASM_MaxKmcnt, "MaxKmcnt");
		if (vl != -1)
			SPLIT("s_wait_loadcnt", vl, KW_ASM_MaxLoadcnt, "MaxLoadcnt");
		if (vs != -1)
			SPLIT("s_wait_storecnt", vs, KW_ASM_MaxStorecnt, "MaxStorecnt");
	} else {
		int64_t lgkm = sum2(ds, km), vm = sum2(vs, vl);
		if (vm != -1 || lgkm != -1) {
			SEP();
			piece_waitcnt(b, ctx, lgkm, vm, comment);
		}
	}
#undef SPLIT
#undef SEP
}

static void render_barrier(kw_buf *b, const kw_item *it, kw_render_ctx *ctx)
{
	size_t start = b->len;

	if (it->new_barrier) {
		if (!has_split_waits(ctx->isa))
			not_on_isa(ctx, "s_barrier_signal/s_barrier_wait");
		kw_buf_puts(b, "s_barrier_signal -1\ns_barrier_wait -1");
	} else {
		if (has_split_waits(ctx->isa))
			not_on_isa(ctx, "s_barrier");
		kw_buf_puts(b, "s_barrier");
	}
	kw_line_finish(b, start, it->comment, ctx->output_no_comment);
}

int kw_item_render(kw_buf *b, const kw_item *it, kw_render_ctx *ctx)
{
	switch ((kw_item_kind)it->kind) {
	case KW_ITEM_INST:
		render_inst(b, it, ctx);
		break;
	case KW_ITEM_WAITCNT:
		render_wait(b, it, ctx);
		break;
	case KW_ITEM_TENSORCNT: {
		size_t start;
		if (ctx->isa->family != KW_FAM_GFX1250)
			not_on_isa(ctx, "s_wait_tensorcnt");
		check_field(ctx, "tensorcnt", it->u.tensorcnt, -32768, 65535);
		no_vgpr_inst(ctx);
		start = b->len;
		kw_buf_puts(b, "s_wait_tensorcnt ");
		kw_buf_put_i64(b, it->u.tensorcnt);
		kw_line_finish(b, start, it->comment, ctx->output_no_comment);
		break;
	}
	case KW_ITEM_BARRIER:
		render_barrier(b, it, ctx);
		break;
	case KW_ITEM_TEXT:
		if (!ctx->output_no_comment)
			kw_buf_puts(b, it->u.text);
		break;
	case KW_ITEM_MODULE:
		break;
	}
	return b->oom ? -2 : 0;
}
