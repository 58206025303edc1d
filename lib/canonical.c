/* canonical.c - the canonical request and its SHA-256 ids (kwgen/request.h). */
#include "request_int.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bump when any generated output changes (tests/golden/salt.txt pins the
 * output digest this salt was released with). */
#define KW_GENERATOR_SALT "kwgen-generators-2"

const char *kw_generator_version(void)
{
	return KW_GENERATOR_SALT;
}

#define KB(x) (1ULL << KK_##x)

static uint64_t keys_read(kw_gen_id g)
{
	const uint64_t acc = KB(MatrixInstM) | KB(MatrixInstN) | KB(MatrixInstBM) | KB(MatrixInstBN) |
			     KB(WavefrontSize) | KB(VectorWidthA) | KB(VectorWidthB) | KB(MIWaveTile) | KB(SourceSwap);

	switch (g) {
	case KW_GEN_TDM_WAIT:
		return 0;
	case KW_GEN_WAIT:
		return KB(BufferLoad) | KB(DirectToLdsA) | KB(DirectToLdsB) | KB(DirectToVgprA) | KB(DirectToVgprB) |
		       KB(DirectToVgprSparseMetadata) | KB(DirectToVgprMXSA) | KB(DirectToVgprMXSB) |
		       KB(NumLoadsCoalescedA) | KB(NumLoadsCoalescedB) | KB(NumLoadsPerpendicularA) |
		       KB(NumLoadsPerpendicularB) | KB(NumLoadsCoalescedMXSA) | KB(NumLoadsCoalescedMXSB) |
		       KB(NumLoadsPerpendicularMXSA) | KB(NumLoadsPerpendicularMXSB) | KB(NumLoadsCoalescedMetadata) |
		       KB(NumLoadsPerpendicularMetadata) | KB(Sparse) | KB(MXBlockA) | KB(MXBlockB);
	case KW_GEN_SYNC_THREADS:
		return KB(NumThreads) | KB(WavefrontSize) | KB(_ScheduleIterAlg) | KB(PrefetchGlobalRead);
	case KW_GEN_ACC_TO_ARCH_MAPPER:
	case KW_GEN_GET_ACC_TO_ARCH_LEN:
		return acc;
	case KW_GEN_HAS_SEQUENTIAL_VALUC:
		return acc | KB(EnableMatrixInstruction);
	case KW_GEN_ACC_VGPR_IMAG_NUM_OFFSET:
		return acc | KB(MIRegPerOut);
	case KW_GEN_MAP_ACC_TO_ARCH_REGS:
		return acc | KB(MIRegPerOut) | KB(DataType) | KB(MIArchVgpr) | KB(CompactLoopStore);
	case KW_GEN_MUL_MIOUT_ALPHA_TO_ARCH:
	case KW_GEN_MOVE_MIOUT_TO_ARCH:
		return acc | KB(MIRegPerOut) | KB(ComputeDataType) | KB(HighPrecisionAccumulate);
	default:
		return 0;
	}
}

/* asmCaps the rendering reads, and the archCaps syncThreads reads. */
static const int printing_asmcaps[] = {
	KW_ASM_SeparateVscnt, KW_ASM_SeparateVMcnt, KW_ASM_SeparateLGKMcnt, KW_ASM_MaxVmcnt,
	KW_ASM_MaxLgkmcnt, KW_ASM_MaxVscnt, KW_ASM_MaxDscnt, KW_ASM_MaxKmcnt, KW_ASM_MaxLoadcnt,
	KW_ASM_MaxStorecnt, KW_ASM_HasNewBarrier, KW_ASM_HasVgprMSB,
};

/*
 * The canonical text is one JSON object whose members jansson writes one by
 * one (JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII, as a dump of the
 * whole object would), joined in jansson's sorted key order.  The members
 * that describe the kernel and its ISA (isa, asmCaps, archCaps, kernel, tPA,
 * tPB, states) are the same for every request on one kernel; each thread
 * remembers the last text of each with the fields it was written from
 * (a fingerprint: exactly the fields its *_to_json reads) and writes it
 * again only when those change.  The generators and the flags are written
 * for every request.
 */
#define CANON_FLAGS (JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII | JSON_ENCODE_ANY)

enum { P_archCaps, P_asmCaps, P_isa, P_kernel, P_states, P_tPA, P_tPB, P_COUNT };

#define FP_MAX (3 + 2 * KK_COUNT)
#define PIECE_TEXT_MAX 1536

/* One member's last text on this thread and the fingerprint it came from. */
typedef struct piece_memo {
	int64_t fp[FP_MAX];
	size_t nfp, len;
	int valid;
	char text[PIECE_TEXT_MAX];
} piece_memo;

static _Thread_local piece_memo piece_memos[P_COUNT];

typedef struct fingerprint {
	int64_t v[FP_MAX];
	size_t n;
} fingerprint;

static void fp_put(fingerprint *f, int64_t v)
{
	if (f->n < FP_MAX)
		f->v[f->n] = v;
	f->n++; /* past FP_MAX: not remembered (piece_text) */
}

/* The fields kw_tp_to_json's counts_json reads. */
static void fp_counts(fingerprint *f, const kw_tp_counts *c)
{
	fp_put(f, c->is_null);
	fp_put(f, c->present);
	for (int i = 0; i < KW_TPC_COUNT; i++)
		if (c->present & (1u << i))
			fp_put(f, c->v[i]);
}

/* The fields kw_tp_to_json reads. */
static void fp_tp(fingerprint *f, const kw_tp *tp)
{
	int64_t bits;

	fp_put(f, tp->given);
	if (!tp->given)
		return;
	fp_counts(f, &tp->c);
	fp_put(f, tp->has_block_width);
	memcpy(&bits, &tp->block_width, sizeof(bits));
	fp_put(f, tp->has_block_width ? bits : 0);
	fp_put(f, tp->has_is_sparse);
	fp_put(f, tp->has_is_sparse ? tp->is_sparse : 0);
	fp_put(f, tp->has_tpsMetadata);
	if (tp->has_tpsMetadata)
		fp_counts(f, &tp->tpsMetadata);
	fp_put(f, tp->has_MX);
	if (tp->has_MX)
		fp_counts(f, &tp->MX);
}

/* The fields kw_kernel_to_json(k, mask) reads. */
static void fp_kernel(fingerprint *f, const kw_kernel *k, uint64_t mask)
{
	uint64_t m = mask & k->present;

	fp_put(f, (int64_t)m);
	for (int i = 0; i < KK_COUNT; i++)
		if (m & (1ULL << i))
			fp_put(f, k->v[i]);
	if (m & KB(MIWaveTile)) {
		fp_put(f, k->MIWaveTile[0]);
		fp_put(f, k->MIWaveTile[1]);
	}
}

static int dump_to_buf(const char *s, size_t n, void *data)
{
	return kw_buf_put(data, s, n) ? -1 : 0;
}

/* v (a new reference, consumed) written by jansson into b; -1 when v is
 * NULL or out of memory. */
static int put_value(kw_buf *b, json_t *v)
{
	int bad = !v || json_dump_callback(v, dump_to_buf, b, CANON_FLAGS) != 0;

	json_decref(v);
	return bad || b->oom ? -1 : 0;
}

static json_t *piece_json(int p, const kw_request *r, const kw_kernel *k, uint64_t mask)
{
	json_t *o;

	switch (p) {
	case P_archCaps:
		return json_pack("{s:I}", "Waitcnt0Disabled", (json_int_t)r->caps.arch[KW_ARCH_Waitcnt0Disabled]);
	case P_asmCaps:
		o = json_object();
		for (size_t i = 0; o && i < sizeof(printing_asmcaps) / sizeof(printing_asmcaps[0]); i++)
			if (json_object_set_new(o, kw_asmcap_name(printing_asmcaps[i]),
						json_integer(r->caps.asm_[printing_asmcaps[i]]))) {
				json_decref(o);
				return NULL;
			}
		return o;
	case P_isa:
		return json_pack("[iii]", r->isa->isa.major, r->isa->isa.minor, r->isa->isa.step);
	case P_kernel:
		return kw_kernel_to_json(k, mask);
	case P_states:
		return kw_states_to_json(&r->states);
	case P_tPA:
		return kw_tp_to_json(&r->tPA);
	default:
		return kw_tp_to_json(&r->tPB);
	}
}

/* Member p's value text appended to b: this thread's last text when its
 * fingerprint is the same, else written by jansson (and remembered). */
static int put_piece(kw_buf *b, int p, const kw_request *r, const kw_kernel *k, uint64_t mask)
{
	piece_memo *m = &piece_memos[p];
	fingerprint f = { .n = 0 };
	size_t at = b->len;

	switch (p) {
	case P_archCaps:
		fp_put(&f, r->caps.arch[KW_ARCH_Waitcnt0Disabled]);
		break;
	case P_asmCaps:
		for (size_t i = 0; i < sizeof(printing_asmcaps) / sizeof(printing_asmcaps[0]); i++)
			fp_put(&f, r->caps.asm_[printing_asmcaps[i]]);
		break;
	case P_isa:
		fp_put(&f, r->isa->isa.major);
		fp_put(&f, r->isa->isa.minor);
		fp_put(&f, r->isa->isa.step);
		break;
	case P_kernel:
		fp_kernel(&f, k, mask);
		break;
	case P_states:
		fp_put(&f, r->states.present);
		for (int i = 0; i < KW_ST_COUNT; i++)
			if (r->states.present & (1u << i))
				fp_put(&f, r->states.v[i]);
		break;
	default:
		fp_tp(&f, p == P_tPA ? &r->tPA : &r->tPB);
		break;
	}
	if (m->valid && f.n <= FP_MAX && m->nfp == f.n && memcmp(m->fp, f.v, f.n * sizeof(f.v[0])) == 0)
		return kw_buf_put(b, m->text, m->len) ? -1 : 0;
	if (put_value(b, piece_json(p, r, k, mask)) < 0)
		return -1;
	m->valid = 0;
	if (f.n <= FP_MAX && b->len - at <= sizeof(m->text)) {
		memcpy(m->fp, f.v, f.n * sizeof(f.v[0]));
		m->nfp = f.n;
		memcpy(m->text, b->p + at, b->len - at);
		m->len = b->len - at;
		m->valid = 1;
	}
	return 0;
}

/*
 * The generators member: each call's {"args", "name"} text, remembered per
 * thread and generator with the fields kw_call_args_json (request.c) reads
 * for it; a comment longer than CALL_COMMENT_MAX or more than
 * CALL_TOKENS_MAX memory tokens are not remembered.
 */
#define CALL_COMMENT_MAX 128
#define CALL_TOKENS_MAX 16
#define CALL_TEXT_MAX 512

typedef struct call_memo {
	int valid;
	int64_t fp[8 + CALL_TOKENS_MAX];
	size_t nfp, len;
	char comment[CALL_COMMENT_MAX + 1];
	char text[CALL_TEXT_MAX];
} call_memo;

static _Thread_local call_memo call_memos[KW_GEN_COUNT];

/* c's fields that kw_call_args_json reads into f and *comment; 0, or -1
 * when they are too many to remember. */
static int fp_call(fingerprint *f, const char **comment, const kw_call *c)
{
	*comment = "";
	switch (c->gen) {
	case KW_GEN_TDM_WAIT:
		fp_put(f, c->tensorcnt);
		*comment = c->comment;
		break;
	case KW_GEN_WAIT:
		fp_put(f, c->wait.skipGlobalRead);
		fp_put(f, c->wait.skipLocalWrite);
		fp_put(f, c->wait.skipLocalRead);
		fp_put(f, c->wait.conservativeWaitCnt);
		fp_put(f, c->wait.skipGlobalReadInst);
		*comment = c->comment;
		break;
	case KW_GEN_SYNC_THREADS:
		fp_put(f, c->skipForceWaitcnt0);
		fp_put(f, c->has_memoryToken);
		if (c->has_memoryToken) {
			if (c->n_memoryToken > CALL_TOKENS_MAX)
				return -1;
			fp_put(f, (int64_t)c->n_memoryToken);
			for (size_t i = 0; i < c->n_memoryToken; i++)
				fp_put(f, c->memoryToken[i]);
		}
		*comment = c->comment;
		break;
	case KW_GEN_MAP_ACC_TO_ARCH_REGS:
		fp_put(f, c->map.maxAgpr);
		fp_put(f, c->map.write);
		fp_put(f, c->map.has_spilledVgprBase);
		fp_put(f, c->map.has_spilledVgprBase ? c->map.spilledVgprBase : 0);
		break;
	case KW_GEN_MUL_MIOUT_ALPHA_TO_ARCH:
	case KW_GEN_MOVE_MIOUT_TO_ARCH:
		fp_put(f, c->startVgprAlphaTmp);
		break;
	default:
		break;
	}
	if (!*comment)
		*comment = "";
	return f->n <= FP_MAX && strlen(*comment) <= CALL_COMMENT_MAX ? 0 : -1;
}

/* One call's {"args":...,"name":...} appended to b. */
static int put_call(kw_buf *b, const kw_call *c)
{
	call_memo *m = c->gen >= 0 && c->gen < KW_GEN_COUNT ? &call_memos[c->gen] : NULL;
	fingerprint f = { .n = 0 };
	const char *comment;
	size_t at = b->len;
	int keep = m && fp_call(&f, &comment, c) == 0 && f.n <= sizeof(m->fp) / sizeof(m->fp[0]);

	if (keep && m->valid && m->nfp == f.n && memcmp(m->fp, f.v, f.n * sizeof(f.v[0])) == 0 &&
	    strcmp(m->comment, comment) == 0)
		return kw_buf_put(b, m->text, m->len) ? -1 : 0;
	if (put_value(b, json_pack("{s:s,s:o}", "name", kw_gen_name(c->gen), "args", kw_call_args_json(c))) < 0)
		return -1;
	if (!m)
		return 0;
	m->valid = 0;
	if (keep && b->len - at <= sizeof(m->text)) {
		memcpy(m->fp, f.v, f.n * sizeof(f.v[0]));
		m->nfp = f.n;
		strcpy(m->comment, comment);
		memcpy(m->text, b->p + at, b->len - at);
		m->len = b->len - at;
		m->valid = 1;
	}
	return 0;
}

static int put_generators(kw_buf *b, const kw_request *r)
{
	if (kw_buf_putc(b, '['))
		return -1;
	for (size_t i = 0; i < r->ncalls; i++)
		if ((i > 0 && kw_buf_putc(b, ',')) || put_call(b, &r->calls[i]) < 0)
			return -1;
	return kw_buf_putc(b, ']') ? -1 : 0;
}


/* The members of the canonical object, in jansson's sorted key order
 * (JSON_SORT_KEYS compares the keys' bytes). */
enum {
	M_archCaps, M_asmCaps, M_generators, M_isa, M_kernel, M_outputNoComment, M_replaceHolder,
	M_states, M_strict, M_tPA, M_tPB, M_vgprIdx, M_vgprMsb, M_COUNT
};
static const char *const member_names[M_COUNT] = {
	"archCaps", "asmCaps", "generators", "isa", "kernel", "outputNoComment", "replaceHolder",
	"states", "strict", "tPA", "tPB", "vgprIdx", "vgprMsb",
};

/* Member m's name as jansson writes a key, then ':' (its text written
 * once per thread). */
static _Thread_local struct {
	unsigned char len;
	char text[24];
} member_keys[M_COUNT];

static int put_key(kw_buf *b, int m, int first)
{
	if (!first && kw_buf_putc(b, ','))
		return -1;
	if (!member_keys[m].len) {
		size_t at = b->len;

		if (put_value(b, json_string(member_names[m])) < 0)
			return -1;
		if (b->len - at <= sizeof(member_keys[m].text)) {
			memcpy(member_keys[m].text, b->p + at, b->len - at);
			member_keys[m].len = (unsigned char)(b->len - at);
		}
	} else if (kw_buf_put(b, member_keys[m].text, member_keys[m].len)) {
		return -1;
	}
	return kw_buf_putc(b, ':') ? -1 : 0;
}

/* Member m's value (one that is not remembered) as a new json_t. */
static json_t *member_json(int m, const kw_request *r)
{
	json_t *a;

	switch (m) {
	case M_outputNoComment:
		return json_boolean(r->output_no_comment);
	case M_strict:
		return json_boolean(r->strict);
	case M_replaceHolder:
		if (r->rh_kind == 1)
			return json_integer(r->rh_int);
		a = json_array();
		for (size_t i = 0; a && i < r->n_rh; i++)
			if (json_array_append_new(a, json_integer(r->rh_list[i]))) {
				json_decref(a);
				return NULL;
			}
		return a;
	case M_vgprIdx:
		a = json_object();
		for (size_t i = 0; a && i < r->n_vgpr_idx; i++)
			if (json_object_set_new(a, r->vgpr_idx[i].name, json_integer(r->vgpr_idx[i].idx))) {
				json_decref(a);
				return NULL;
			}
		return a;
	default: /* M_vgprMsb */
		return json_integer(r->vgpr_msb);
	}
}

static int canonical_text(kw_buf *b, const kw_request *r)
{
	uint64_t mask = 0;
	int uses_tp = 0, first = 1;
	kw_kernel k = r->k;

	for (size_t i = 0; i < r->ncalls; i++) {
		mask |= keys_read(r->calls[i].gen);
		if (r->calls[i].gen == KW_GEN_MAP_ACC_TO_ARCH_REGS && !(k.present & KB(CompactLoopStore))) {
			k.present |= KB(CompactLoopStore); /* kernel.get("CompactLoopStore", False) */
			k.v[KK_CompactLoopStore] = 0;
		}
		uses_tp |= r->calls[i].gen == KW_GEN_WAIT;
	}
	if (kw_buf_putc(b, '{'))
		return -1;
	for (int m = 0; m < M_COUNT; m++) {
		int p = -1;

		switch (m) {
		case M_archCaps: p = P_archCaps; break;
		case M_asmCaps: p = P_asmCaps; break;
		case M_isa: p = P_isa; break;
		case M_kernel: p = P_kernel; break;
		case M_states: p = uses_tp ? P_states : -2; break;
		case M_tPA: p = uses_tp ? P_tPA : -2; break;
		case M_tPB: p = uses_tp ? P_tPB : -2; break;
		case M_replaceHolder: p = r->rh_kind == 1 || r->rh_kind == 2 ? -1 : -2; break;
		case M_vgprIdx: case M_vgprMsb: p = r->caps.asm_[KW_ASM_HasVgprMSB] ? -1 : -2; break;
		case M_generators: p = -3; break;
		default: break;
		}
		if (p == -2)
			continue; /* not a member of this request's canonical form */
		if (put_key(b, m, first) < 0 ||
		    (p >= 0 ? put_piece(b, p, r, &k, mask) :
		     p == -3 ? put_generators(b, r) : put_value(b, member_json(m, r))) < 0)
			return -1;
		first = 0;
	}
	return kw_buf_putc(b, '}') || b->oom ? -1 : 0;
}

int kw_request_canonical(char **out, const kw_request *r, kw_error *err)
{
	kw_buf b = KW_BUF_INIT;

	*out = NULL;
	/* Into a malloc()ed buffer, not json_dumps: the caller free()s the
	 * text, and jansson's allocator may be an arena (kwgen --batch). */
	if (canonical_text(&b, r) < 0) {
		kw_buf_free(&b);
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	}
	*out = kw_buf_detach(&b);
	return 0;
}

static int sha256_hex(char hex[65], const char *a, size_t an, const char *b, size_t bn)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ok;

	if (!ctx)
		return -1;
	ok = EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1 &&
	     (an == 0 || EVP_DigestUpdate(ctx, a, an) == 1) &&
	     EVP_DigestUpdate(ctx, b, bn) == 1 && EVP_DigestFinal_ex(ctx, md, &mdlen) == 1;
	EVP_MD_CTX_free(ctx);
	if (!ok || mdlen != 32)
		return -1;
	for (unsigned i = 0; i < 32; i++) {
		hex[2 * i] = "0123456789abcdef"[md[i] >> 4];
		hex[2 * i + 1] = "0123456789abcdef"[md[i] & 15];
	}
	hex[64] = '\0';
	return 0;
}

int kw_request_ids(char config_id[65], char key[65], char **canonical_out, const kw_request *r, kw_error *err)
{
	char *canon = NULL;
	const char *salt = kw_generator_version();
	int rc;

	if ((rc = kw_request_canonical(&canon, r, err)))
		return rc;
	if (sha256_hex(config_id, NULL, 0, canon, strlen(canon)) ||
	    sha256_hex(key, salt, strlen(salt) + 1 /* with its NUL as separator */, canon, strlen(canon))) {
		free(canon);
		return kw_error_set(err, KW_EINTERNAL, NULL, "SHA-256 failed");
	}
	if (canonical_out)
		*canonical_out = canon;
	else
		free(canon);
	return 0;
}
