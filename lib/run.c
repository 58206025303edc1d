/* run.c - run a parsed request's generators; results as C structs and as
 * JSON answers (kwgen/request.h). */
#include "request_int.h"
#include "kwgen/datatype.h"
#include "kwgen/module.h"

#include <stdio.h>
#include <string.h>

void kw_workspace_free(kw_workspace *ws)
{
	kw_arena_free(&ws->arena);
	kw_buf_free(&ws->text);
}

static int apply_replace_holder(const kw_request *r, kw_item *res, kw_error *err)
{
	if (r->rh_kind == 1) {
		kw_replace_holder(res, r->rh_int);
	} else if (r->rh_kind == 2) {
		size_t n = res->kind == KW_ITEM_MODULE ? res->u.mod.n : 1;

		if (n != r->n_rh)
			return kw_error_set(err, KW_EINVAL, "replaceHolder", "replaceHolder list has %zu entries, the result has %zu items",
					    r->n_rh, n);
		if (res->kind == KW_ITEM_MODULE)
			for (size_t i = 0; i < n; i++)
				kw_replace_holder(res->u.mod.items[i], r->rh_list[i]);
		else
			kw_replace_holder(res, r->rh_list[0]);
	}
	return 0;
}

static int prefix_error(kw_error *err, const char *gen, int rc)
{
	size_t gl = strlen(gen), ml;

	if (!err)
		return rc;
	if (strncmp(err->message, gen, gl) != 0) {
		ml = strlen(err->message);
		if (ml + gl + 2 >= sizeof(err->message))
			ml = sizeof(err->message) - gl - 3;
		memmove(err->message + gl + 2, err->message, ml);
		memcpy(err->message, gen, gl);
		memcpy(err->message + gl, ": ", 2);
		err->message[gl + 2 + ml] = '\0';
	}
	return rc;
}

static int strict_check(const kw_request *r, const kw_result *res, const char *gen, kw_error *err)
{
	char msg[KW_ERROR_MESSAGE_MAX];
	size_t n = 0;

	if (!r->strict || !kw_diag_any(&res->diags))
		return 0;
	for (int c = 0; c < KW_DIAG_NCODES && n < sizeof(msg); c++)
		if (res->diags.count[c])
			n += (size_t)snprintf(msg + n, sizeof(msg) - n, "%s%s: %s", n ? "; " : "",
					      kw_diag_code_name((kw_diag_code)c), res->diags.message[c]);
	return kw_error_set(err, KW_ESTRICT, "strict", "%s: strict mode and the output has diagnostics: %s", gen, msg);
}

/* Bytes one rendered instruction of the register-move modules can take with
 * int32-bounded inputs: mnemonic (<= 20), four operands (a two-register
 * named operand with two offsets is <= 64), padding to column 50, the
 * longest comment (67) and a possible s_nop + s_set_vgpr_msb prefix (<= 110). */
#define KW_INST_TEXT_MAX 512

/*
 * The output bound, checked before generating: the register-move modules
 * have one item per output register (times 2 for complex, 4 instructions
 * per complex alpha item), so their size is known from the kernel keys.
 * A key that is missing or bad is left for the generator to report.
 */
static int check_output_bound(const kw_request *r, const kw_call *c, const kw_gen_in *in, kw_error *err)
{
	int64_t len, rpo = 1, items, per = 1;
	kw_error ignore = KW_ERROR_INIT;

	if (c->gen != KW_GEN_MAP_ACC_TO_ARCH_REGS && c->gen != KW_GEN_MUL_MIOUT_ALPHA_TO_ARCH &&
	    c->gen != KW_GEN_MOVE_MIOUT_TO_ARCH)
		return 0;
	kw_gen_in unbounded = *in; /* the length itself; --max-acc-len is the generator's check */

	unbounded.max_acc_len = INT64_MAX;
	if (kw_gen_get_acc_to_arch_len(&len, &unbounded, &ignore) || len <= 0)
		return 0;
	if (c->gen == KW_GEN_MAP_ACC_TO_ARCH_REGS) {
		rpo = kw_kernel_get(&r->k, KK_MIRegPerOut, 1);
		if (kw_dt_is_complex((int)kw_kernel_get(&r->k, KK_DataType, 0)))
			per = 2;
	} else if (kw_dt_is_complex((int)kw_kernel_get(&r->k, KK_ComputeDataType, 0))) {
		per = 4;
	}
	if (rpo < 1)
		rpo = 1;
	if (__builtin_mul_overflow(len, rpo, &items) || __builtin_mul_overflow(items, per, &items) ||
	    items > (int64_t)(r->lim.max_output_bytes / KW_INST_TEXT_MAX))
		return kw_error_set(err, KW_ELIMIT, "kernel.MIWaveTile",
				    "%s: %lld accumulator registers x MIRegPerOut %lld would render up to %lld instructions of up to %d bytes; "
				    "the output bound (%zu bytes) allows %zu", kw_gen_name(c->gen), (long long)len, (long long)rpo,
				    (long long)(len > INT64_MAX / rpo / per ? INT64_MAX : len * rpo * per), KW_INST_TEXT_MAX,
				    r->lim.max_output_bytes,
				    r->lim.max_output_bytes / KW_INST_TEXT_MAX);
	return 0;
}

int kw_request_generate(kw_result *res, kw_workspace *ws, const kw_request *r, size_t i, kw_error *err)
{
	const kw_call *c = &r->calls[i];
	const char *gen = kw_gen_name(c->gen);
	kw_gen_in in;
	kw_item *item = NULL;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	kw_arena_reset(&ws->arena);
	kw_buf_reset(&ws->text);
	in.arena = &ws->arena;
	in.isa = r->isa;
	in.caps = &r->caps;
	in.k = &r->k;
	in.tPA = &r->tPA;
	in.tPB = &r->tPB;
	in.states = &r->states;
	in.diags = &res->diags;
	in.max_acc_len = r->lim.max_acc_len;

	if ((rc = check_output_bound(r, c, &in, err)))
		return rc;
	switch (c->gen) {
	case KW_GEN_TDM_WAIT:
		rc = kw_gen_tdm_wait(&item, &in, c->tensorcnt, c->comment, err);
		break;
	case KW_GEN_WAIT:
		rc = kw_gen_wait(&item, &in, &c->wait, err);
		break;
	case KW_GEN_SYNC_THREADS: {
		kw_sync_args a = KW_SYNC_ARGS_INIT;
		a.comment = c->comment;
		a.skipForceWaitcnt0 = c->skipForceWaitcnt0;
		a.memoryToken = c->has_memoryToken ? c->memoryToken : NULL;
		a.n_memoryToken = c->n_memoryToken;
		rc = kw_gen_sync_threads(&item, &in, &a, err);
		break;
	}
	case KW_GEN_ACC_TO_ARCH_MAPPER:
		rc = kw_gen_acc_to_arch_mapper(&res->map, &in, err);
		res->has_map = 1;
		break;
	case KW_GEN_GET_ACC_TO_ARCH_LEN:
		rc = kw_gen_get_acc_to_arch_len(&res->value, &in, err);
		res->value_kind = 1;
		break;
	case KW_GEN_HAS_SEQUENTIAL_VALUC: {
		int v = 0;
		rc = kw_gen_has_sequential_valuc(&v, &in, err);
		res->value = v;
		res->value_kind = 2;
		break;
	}
	case KW_GEN_ACC_VGPR_IMAG_NUM_OFFSET:
		rc = kw_gen_acc_vgpr_imag_num_offset(&res->value, &in, err);
		res->value_kind = 1;
		break;
	case KW_GEN_MAP_ACC_TO_ARCH_REGS:
		rc = kw_gen_map_acc_to_arch_regs(&item, &in, &c->map, err);
		break;
	case KW_GEN_MUL_MIOUT_ALPHA_TO_ARCH:
		rc = kw_gen_mul_miout_alpha_to_arch(&item, &in, c->startVgprAlphaTmp, err);
		break;
	case KW_GEN_MOVE_MIOUT_TO_ARCH:
		rc = kw_gen_move_miout_to_arch(&item, &in, c->startVgprAlphaTmp, err);
		break;
	default:
		rc = kw_error_set(err, KW_EINTERNAL, NULL, "unknown generator");
	}
	if (rc)
		return prefix_error(err, gen, rc);
	if (item) {
		kw_render_ctx ctx;

		if ((rc = apply_replace_holder(r, item, err)))
			return prefix_error(err, gen, rc);
		ctx.isa = r->isa;
		ctx.caps = &r->caps;
		ctx.output_no_comment = r->output_no_comment;
		ctx.vgpr_msb = r->vgpr_msb;
		ctx.vgpr_idx = r->vgpr_idx;
		ctx.n_vgpr_idx = r->n_vgpr_idx;
		ctx.diags = &res->diags;
		if ((rc = kw_render(&ws->text, item, &ctx, err)))
			return prefix_error(err, gen, rc);
		if (ws->text.oom)
			return kw_error_set(err, KW_ENOMEM, NULL, "%s: out of memory rendering", gen);
		if (ws->text.len > r->lim.max_output_bytes)
			return kw_error_set(err, KW_ELIMIT, NULL, "%s: the output is %zu bytes; the limit is %zu", gen,
					    ws->text.len, r->lim.max_output_bytes);
		if (!ws->text.p && kw_buf_grow(&ws->text, 0))
			return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
		res->text = ws->text.p;
		res->text_len = ws->text.len;
		res->type = item->kind == KW_ITEM_MODULE ? "Module" : "SWaitCnt";
	}
	return strict_check(r, res, gen, err);
}

static json_t *diags_json(const kw_diags *d)
{
	json_t *a = json_array();

	for (int c = 0; a && c < KW_DIAG_NCODES; c++) {
		char msg[320];
		if (!d->count[c])
			continue;
		if (d->count[c] > 1)
			snprintf(msg, sizeof(msg), "%s (%u occurrences)", d->message[c], d->count[c]);
		else
			snprintf(msg, sizeof(msg), "%s", d->message[c]);
		json_array_append_new(a, json_pack("{s:s,s:s}", "code", kw_diag_code_name((kw_diag_code)c), "message", msg));
	}
	return a;
}

static json_t *int_array(const int64_t *v, int64_t n)
{
	json_t *a = json_array();

	for (int64_t i = 0; a && i < n; i++)
		if (json_array_append_new(a, json_integer(v[i]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/* text as a JSON string.  Generated text is ASCII but for what comments
 * copy from the request: ASCII is UTF-8 as it stands, so jansson's check
 * (a decode per character: 75,000 instructions of a 6 KB kwgend miss) is left to
 * text that has other bytes. */
static json_t *text_string(const char *text, size_t len)
{
	unsigned char any = 0;

	for (size_t i = 0; i < len; i++)
		any |= (unsigned char)text[i];
	return any < 0x80 ? json_stringn_nocheck(text, len) : json_stringn(text, len);
}

/* Fill o with the result fields in the oracle's order. */
static int result_fields(json_t *o, const kw_result *res)
{
	int bad = 0;

	if (res->type) {
		bad |= json_object_set_new(o, "asm", text_string(res->text, res->text_len));
		bad |= json_object_set_new(o, "type", json_string(res->type));
	} else {
		bad |= json_object_set_new(o, "asm", json_null());
	}
	if (res->has_map) {
		bad |= json_object_set_new(o, "acc2arch", int_array(res->map.acc2arch, res->map.len));
		bad |= json_object_set_new(o, "arch2acc", int_array(res->map.arch2acc, res->map.len));
	}
	if (res->value_kind == 1)
		bad |= json_object_set_new(o, "value", json_integer(res->value));
	else if (res->value_kind == 2)
		bad |= json_object_set_new(o, "value", json_boolean(res->value));
	return bad;
}

int kw_request_run(json_t **out, const kw_request *r, kw_error *err)
{
	kw_workspace ws = KW_WORKSPACE_INIT;
	json_t *arr = json_array();
	size_t total = 0;
	int rc = 0;

	*out = NULL;
	if (!arr)
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	for (size_t i = 0; i < r->ncalls; i++) {
		kw_result res;
		json_t *o;

		if ((rc = kw_request_generate(&res, &ws, r, i, err)))
			break;
		/* one request's results together: 64 generators of 16 MiB each
		 * would otherwise make a 1 GiB answer; stop at the generator
		 * that passes the bound, before the next one runs */
		total += res.text_len + (res.has_map ? (size_t)res.map.len * 24 : 0);
		if (r->lim.max_results_bytes && total > r->lim.max_results_bytes) {
			rc = kw_error_set(err, KW_ELIMIT, "generators",
					  "generators[%zu] (%s) brings this request's results past %zu bytes, the limit for "
					  "one answer; ask for fewer or smaller results per request", i,
					  kw_gen_name(r->calls[i].gen), r->lim.max_results_bytes);
			break;
		}
		o = json_object();
		if (!o || json_object_set_new(o, "name", json_string(kw_gen_name(r->calls[i].gen))) ||
		    json_object_set_new(o, "args", kw_call_args_json(&r->calls[i])) || result_fields(o, &res) ||
		    json_object_set_new(o, "diagnostics", diags_json(&res.diags)) || json_array_append_new(arr, o)) {
			rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
			break;
		}
	}
	kw_workspace_free(&ws);
	if (rc) {
		json_decref(arr);
		return rc;
	}
	*out = arr;
	return 0;
}

json_t *kw_error_answer(const kw_error *e)
{
	json_t *o = json_pack("{s:{s:s,s:s,s:o}}", "error", "code", kw_error_code_name(e->code), "message", e->message,
			      "field", e->field[0] ? json_string(e->field) : json_null());

	if (!o) /* a message or field that is not UTF-8 (it quotes the input) */
		o = json_pack("{s:{s:s,s:s,s:n}}", "error", "code", kw_error_code_name(e->code), "message",
			      "(the message quotes input that is not UTF-8)", "field");
	return o;
}

json_t *kw_oracle_answer(const json_t *req, const kw_limits *lim, int *ok)
{
	kw_error err = KW_ERROR_INIT;
	kw_request *r = NULL;
	kw_workspace ws = KW_WORKSPACE_INIT;
	kw_result res;
	json_t *o = NULL;

	*ok = 0;
	if (kw_request_parse(&r, req, lim, &err))
		return kw_error_answer(&err);
	if (!r->oracle_form || r->ncalls != 1) {
		kw_request_free(r);
		kw_error_set(&err, KW_EINVAL, "generator",
			     "the oracle form needs \"generator\" (one name) and \"args\"");
		return kw_error_answer(&err);
	}
	if (kw_request_generate(&res, &ws, r, 0, &err)) {
		o = kw_error_answer(&err);
	} else {
		o = json_object();
		if (o && (result_fields(o, &res) ||
			  json_object_set_new(o, "isa", json_pack("[iii]", r->isa->isa.major, r->isa->isa.minor, r->isa->isa.step)) ||
			  json_object_set_new(o, "diagnostics", diags_json(&res.diags)))) {
			json_decref(o);
			o = NULL;
		}
		*ok = o != NULL;
	}
	kw_workspace_free(&ws);
	kw_request_free(r);
	return o;
}

json_t *kw_request_answer(const json_t *req, const kw_limits *lim, kw_error *err)
{
	kw_request *r = NULL;
	json_t *results = NULL, *o = NULL;
	char cid[65], key[65];

	if (kw_request_parse(&r, req, lim, err) || kw_request_ids(cid, key, NULL, r, err) ||
	    kw_request_run(&results, r, err))
		goto done;
	o = json_pack("{s:s,s:s,s:s,s:s,s:o}", "isa", kw_request_isa_name(r), "config_id", cid, "key", key,
		      "generator_version", kw_generator_version(), "results", results);
	if (o && r->source && json_object_set(o, "source", r->source)) {
		json_decref(o);
		o = NULL;
	}
	if (!o)
		kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
done:
	kw_request_free(r);
	return o;
}

json_t *kw_generators_json(void)
{
	return json_pack(
		"["
		"{s:s,s:[{s:s,s:s,s:b},{s:s,s:s,s:s}],s:[]}"
		"{s:s,s:[{s:s,s:s,s:b},{s:s,s:s,s:b},{s:s,s:s,s:b},{s:s,s:s,s:i},{s:s,s:s,s:s},{s:s,s:s,s:i}],s:[s,s,s,s]}"
		"{s:s,s:[{s:s,s:s,s:s},{s:s,s:s,s:b},{s:s,s:s,s:n}],s:[s,s,s]}"
		"{s:s,s:[],s:[s]}{s:s,s:[],s:[s]}{s:s,s:[],s:[s]}{s:s,s:[],s:[s]}"
		"{s:s,s:[{s:s,s:s,s:i},{s:s,s:s,s:b},{s:s,s:s,s:n}],s:[s]}"
		"{s:s,s:[{s:s,s:s,s:b}],s:[s]}{s:s,s:[{s:s,s:s,s:b}],s:[s]}"
		"]",
		"name", "tdmWait", "args", "name", "tensorcnt", "type", "integer", "required", 1,
		"name", "comment", "type", "string", "default", "", "needs",
		"name", "wait", "args", "name", "skipGlobalRead", "type", "integer", "required", 1,
		"name", "skipLocalWrite", "type", "integer", "required", 1,
		"name", "skipLocalRead", "type", "integer", "required", 1,
		"name", "conservativeWaitCnt", "type", "integer", "default", 0,
		"name", "comment", "type", "string", "default", "",
		"name", "skipGlobalReadInst", "type", "integer", "default", -1,
		"needs", "kernel", "tPA", "tPB", "states",
		"name", "syncThreads", "args", "name", "comment", "type", "string", "default", "",
		"name", "skipForceWaitcnt0", "type", "boolean", "default", 0,
		"name", "memoryToken", "type", "array of integers or null", "default",
		"needs", "kernel", "asmCaps", "archCaps",
		"name", "accToArchMapper", "args", "needs", "kernel",
		"name", "getAccToArchLen", "args", "needs", "kernel",
		"name", "hasSequentialValuC", "args", "needs", "kernel",
		"name", "accVgprImagNumOffset", "args", "needs", "kernel",
		"name", "mapAcctoArchRegs", "args", "name", "maxAgpr", "type", "integer", "default", 256,
		"name", "write", "type", "boolean", "default", 0,
		"name", "spilledVgprBase", "type", "integer or null", "default", "needs", "kernel",
		"name", "mulMIoutAlphaToArch", "args", "name", "startVgprAlphaTmp", "type", "integer", "required", 1, "needs", "kernel",
		"name", "moveMIoutToArch", "args", "name", "startVgprAlphaTmp", "type", "integer", "required", 1, "needs", "kernel");
}
