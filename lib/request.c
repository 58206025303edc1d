/* request.c - request JSON -> kw_request: parse and validate (kwgen/request.h). */
#include "request_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const gen_names[KW_GEN_COUNT] = {
	"tdmWait", "wait", "syncThreads", "accToArchMapper", "getAccToArchLen",
	"hasSequentialValuC", "accVgprImagNumOffset", "mapAcctoArchRegs",
	"mulMIoutAlphaToArch", "moveMIoutToArch",
};

const char *kw_gen_name(kw_gen_id g)
{
	return (unsigned)g < KW_GEN_COUNT ? gen_names[g] : "?";
}

static int gen_lookup(const char *name)
{
	for (int i = 0; i < KW_GEN_COUNT; i++)
		if (!strcmp(gen_names[i], name))
			return i;
	return -1;
}

#define FAIL(code, field, ...) return kw_error_set(err, code, field, __VA_ARGS__)

static int depth_ok(const json_t *v, int depth, int max)
{
	size_t i;
	const char *k;
	json_t *c;

	if (depth > max)
		return 0;
	if (json_is_object(v)) {
		json_object_foreach((json_t *)v, k, c)
			if (!depth_ok(c, depth + 1, max))
				return 0;
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, c)
			if (!depth_ok(c, depth + 1, max))
				return 0;
	}
	return 1;
}

/* get_int with a smallest allowed value (-1 = "skip" for the wait counts,
 * 0 for register numbers and counts). */
static int get_int_min(int64_t *out, const json_t *o, const char *key, int required, int64_t def, int64_t min,
		       const char *field, kw_error *err)
{
	const json_t *v = json_object_get(o, key);
	char f[KW_ERROR_FIELD_MAX];

	kw_field_join(f, field, ".", key);
	if (!v) {
		if (required)
			FAIL(KW_EINVAL, f, "missing required argument %s (an integer)", f);
		*out = def;
		return 0;
	}
	if (!json_is_integer(v))
		FAIL(KW_EINVAL, f, "%s must be an integer, not %s", f,
		     json_is_real(v) ? "a float" : json_is_boolean(v) ? "a boolean" : json_is_null(v) ? "null" : "a string, object or array");
	*out = json_integer_value(v);
	if (*out > 2147483647LL || *out < min)
		FAIL(KW_EINVAL, f, "%s = %lld is out of range; allowed %lld..2147483647%s", f, (long long)*out,
		     (long long)min, min == -1 ? " (-1 = none)" : "");
	return 0;
}

static int get_bool(int *out, const json_t *o, const char *key, int def, const char *field, kw_error *err)
{
	const json_t *v = json_object_get(o, key);
	char f[KW_ERROR_FIELD_MAX];

	if (!v || json_is_null(v)) {
		*out = def;
		return 0;
	}
	kw_field_join(f, field, *field ? "." : "", key);
	if (json_is_boolean(v))
		*out = json_is_true(v);
	else if (json_is_integer(v))
		*out = json_integer_value(v) != 0;
	else
		FAIL(KW_EINVAL, f, "%s must be a boolean (true/false or 0/1)", f);
	return 0;
}

static int get_str(char **out, const json_t *o, const char *key, const char *field, const kw_limits *lim,
		   kw_error *err)
{
	const json_t *v = json_object_get(o, key);
	char f[KW_ERROR_FIELD_MAX];

	kw_field_join(f, field, ".", key);
	if (!v)
		v = NULL;
	else if (!json_is_string(v))
		FAIL(KW_EINVAL, f, "%s must be a string", f);
	else if (json_string_length(v) > lim->max_string_bytes)
		FAIL(KW_ELIMIT, f, "%s is %zu bytes; the limit is %zu", f, json_string_length(v), lim->max_string_bytes);
	else if (strlen(json_string_value(v)) != json_string_length(v))
		FAIL(KW_EINVAL, f, "%s must not contain NUL characters", f);
	*out = strdup(v ? json_string_value(v) : "");
	if (!*out)
		FAIL(KW_ENOMEM, NULL, "out of memory");
	return 0;
}

static int parse_args(kw_call *c, const json_t *args, const char *field, const kw_limits *lim, kw_error *err)
{
	const json_t *empty = NULL;
	int rc = 0;

	if (!args || json_is_null(args))
		args = empty = json_object();
	if (!args)
		FAIL(KW_ENOMEM, NULL, "out of memory");
	if (!json_is_object(args)) {
		rc = kw_error_set(err, KW_EINVAL, field, "%s must be an object of generator arguments", field);
		goto out;
	}
	switch (c->gen) {
	case KW_GEN_TDM_WAIT:
		if ((rc = get_int_min(&c->tensorcnt, args, "tensorcnt", 1, 0, -1, field, err)) ||
		    (rc = get_str(&c->comment, args, "comment", field, lim, err)))
			goto out;
		break;
	case KW_GEN_WAIT:
		if ((rc = get_int_min(&c->wait.skipGlobalRead, args, "skipGlobalRead", 1, 0, -1, field, err)) ||
		    (rc = get_int_min(&c->wait.skipLocalWrite, args, "skipLocalWrite", 1, 0, -1, field, err)) ||
		    (rc = get_int_min(&c->wait.skipLocalRead, args, "skipLocalRead", 1, 0, -1, field, err)) ||
		    (rc = get_int_min(&c->wait.conservativeWaitCnt, args, "conservativeWaitCnt", 0, 0, 0, field, err)) ||
		    (rc = get_int_min(&c->wait.skipGlobalReadInst, args, "skipGlobalReadInst", 0, -1, -1, field, err)) ||
		    (rc = get_str(&c->comment, args, "comment", field, lim, err)))
			goto out;
		c->wait.comment = c->comment;
		break;
	case KW_GEN_SYNC_THREADS: {
		const json_t *mt = json_object_get(args, "memoryToken");
		if ((rc = get_str(&c->comment, args, "comment", field, lim, err)) ||
		    (rc = get_bool(&c->skipForceWaitcnt0, args, "skipForceWaitcnt0", 0, field, err)))
			goto out;
		if (mt && !json_is_null(mt)) {
			size_t i;
			json_t *t;
			char f[KW_ERROR_FIELD_MAX];

			snprintf(f, sizeof(f), "%s.memoryToken", field);
			if (!json_is_array(mt)) {
				rc = kw_error_set(err, KW_EINVAL, f, "%s must be a list of integers or null (MemTokenData takes a list)", f);
				goto out;
			}
			if (json_array_size(mt) > lim->max_array_items) {
				rc = kw_error_set(err, KW_ELIMIT, f, "%s has %zu items; the limit is %zu", f, json_array_size(mt), lim->max_array_items);
				goto out;
			}
			c->has_memoryToken = 1;
			c->n_memoryToken = json_array_size(mt);
			c->memoryToken = calloc(c->n_memoryToken ? c->n_memoryToken : 1, sizeof(int64_t));
			if (!c->memoryToken) {
				rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
				goto out;
			}
			json_array_foreach(mt, i, t) {
				if (!json_is_integer(t)) {
					rc = kw_error_set(err, KW_EINVAL, f, "%s must be a list of integers", f);
					goto out;
				}
				c->memoryToken[i] = json_integer_value(t);
			}
		}
		break;
	}
	case KW_GEN_MAP_ACC_TO_ARCH_REGS: {
		const json_t *sb = json_object_get(args, "spilledVgprBase");
		if ((rc = get_int_min(&c->map.maxAgpr, args, "maxAgpr", 0, 256, 0, field, err)) ||
		    (rc = get_bool(&c->map.write, args, "write", 0, field, err)))
			goto out;
		if (sb && !json_is_null(sb)) {
			if ((rc = get_int_min(&c->map.spilledVgprBase, args, "spilledVgprBase", 1, 0, 0, field, err)))
				goto out;
			c->map.has_spilledVgprBase = 1;
		}
		break;
	}
	case KW_GEN_MUL_MIOUT_ALPHA_TO_ARCH:
	case KW_GEN_MOVE_MIOUT_TO_ARCH:
		if ((rc = get_int_min(&c->startVgprAlphaTmp, args, "startVgprAlphaTmp", 1, -1, -1, field, err)))
			goto out;
		break;
	default:
		break;
	}
out:
	json_decref((json_t *)empty);
	return rc;
}

/* The next call slot with the seed's defaults (r->calls has room). */
static kw_call *new_call(kw_request *r, kw_gen_id g)
{
	kw_call *c = &r->calls[r->ncalls++];

	memset(c, 0, sizeof(*c));
	c->gen = g;
	c->wait = (kw_wait_args)KW_WAIT_ARGS_INIT;
	c->map = (kw_map_args)KW_MAP_ARGS_INIT;
	c->startVgprAlphaTmp = -1;
	return c;
}

static int add_call(kw_request *r, kw_gen_id g, const json_t *args, const char *field, kw_error *err)
{
	return parse_args(new_call(r, g), args, field, &r->lim, err);
}

/* Generators that apply when "generators" is omitted: what Tensile itself
 * calls for this kernel (call-sites.md). */
static int default_calls(kw_request *r, kw_error *err)
{
	static const int64_t pats[6][4] = {
		{ 0, -1, -1, -1 }, { -1, 0, -1, -1 }, { 1, 0, -1, -1 },
		{ -1, 0, 0, -1 }, { -1, -1, 0, -1 }, { 0, -1, -1, 0 },
	};
	int has_tp = r->tPA.given && r->tPB.given && r->states.present;
	int mi = (int)kw_kernel_get(&r->k, KK_EnableMatrixInstruction, 0);
	int archv = (int)kw_kernel_get(&r->k, KK_MIArchVgpr, 0);
	size_t n = 1 + (has_tp ? 6 : 0) + (mi ? 7 : 0);

	r->calls = calloc(n, sizeof(*r->calls));
	if (!r->calls)
		FAIL(KW_ENOMEM, NULL, "out of memory");
	if (add_call(r, KW_GEN_SYNC_THREADS, NULL, "args", err))
		return err ? err->code : KW_EINVAL;
	for (int i = 0; has_tp && i < 6; i++) {
		kw_call *c = new_call(r, KW_GEN_WAIT);

		c->wait.skipGlobalRead = pats[i][0];
		c->wait.skipLocalWrite = pats[i][1];
		c->wait.skipLocalRead = pats[i][2];
		c->wait.skipGlobalReadInst = pats[i][3];
		c->comment = strdup("wait");
		if (!c->comment)
			FAIL(KW_ENOMEM, NULL, "out of memory");
		c->wait.comment = c->comment;
	}
	if (mi) {
		static const kw_gen_id g[] = { KW_GEN_ACC_TO_ARCH_MAPPER, KW_GEN_GET_ACC_TO_ARCH_LEN,
					       KW_GEN_HAS_SEQUENTIAL_VALUC, KW_GEN_ACC_VGPR_IMAG_NUM_OFFSET };
		for (size_t i = 0; i < 4; i++)
			if (add_call(r, g[i], NULL, "args", err))
				return err ? err->code : KW_EINVAL;
		if (archv || r->isa->has_agpr)
			if (add_call(r, KW_GEN_MAP_ACC_TO_ARCH_REGS, NULL, "args", err))
				return err ? err->code : KW_EINVAL;
		if (archv) {
			json_t *a = json_pack("{s:i}", "startVgprAlphaTmp", -1);
			int rc = !a || add_call(r, KW_GEN_MUL_MIOUT_ALPHA_TO_ARCH, a, "args", err) ||
				 add_call(r, KW_GEN_MOVE_MIOUT_TO_ARCH, a, "args", err);
			json_decref(a);
			if (rc)
				return err && err->code ? err->code : KW_ENOMEM;
		}
	}
	return 0;
}

static int parse_generators(kw_request *r, const json_t *root, kw_error *err)
{
	const json_t *one = json_object_get(root, "generator");
	const json_t *list = json_object_get(root, "generators");

	if (one && list)
		FAIL(KW_EINVAL, "generators", "give either \"generator\" (one call, with \"args\") or \"generators\" (a list), not both");
	if (one) {
		int g;
		if (!json_is_string(one))
			FAIL(KW_EINVAL, "generator", "generator must be a string naming one of: tdmWait, wait, syncThreads, accToArchMapper, getAccToArchLen, hasSequentialValuC, accVgprImagNumOffset, mapAcctoArchRegs, mulMIoutAlphaToArch, moveMIoutToArch");
		g = gen_lookup(json_string_value(one));
		if (g < 0)
			FAIL(KW_EINVAL, "generator", "unknown generator \"%.60s\"; allowed: tdmWait, wait, syncThreads, accToArchMapper, getAccToArchLen, hasSequentialValuC, accVgprImagNumOffset, mapAcctoArchRegs, mulMIoutAlphaToArch, moveMIoutToArch",
			     json_string_value(one));
		r->oracle_form = 1;
		r->calls = calloc(1, sizeof(*r->calls));
		if (!r->calls)
			FAIL(KW_ENOMEM, NULL, "out of memory");
		return add_call(r, (kw_gen_id)g, json_object_get(root, "args"), "args", err);
	}
	if (!list || json_is_null(list))
		return default_calls(r, err);
	if (!json_is_array(list))
		FAIL(KW_EINVAL, "generators", "generators must be a list of {\"name\": ..., \"args\": {...}}");
	if (json_array_size(list) == 0)
		FAIL(KW_EINVAL, "generators", "generators is empty; omit it to run every generator that applies");
	if (json_array_size(list) > r->lim.max_generators)
		FAIL(KW_ELIMIT, "generators", "generators has %zu entries; the limit is %zu", json_array_size(list), r->lim.max_generators);
	r->calls = calloc(json_array_size(list), sizeof(*r->calls));
	if (!r->calls)
		FAIL(KW_ENOMEM, NULL, "out of memory");
	for (size_t i = 0; i < json_array_size(list); i++) {
		const json_t *e = json_array_get(list, i), *nm;
		char f[KW_ERROR_FIELD_MAX];
		int g;

		snprintf(f, sizeof(f), "generators[%zu]", i);
		if (json_is_string(e)) {
			nm = e;
			e = NULL;
		} else if (json_is_object(e)) {
			nm = json_object_get(e, "name");
		} else {
			FAIL(KW_EINVAL, f, "%s must be {\"name\": ..., \"args\": {...}} or a generator name", f);
		}
		g = json_is_string(nm) ? gen_lookup(json_string_value(nm)) : -1;
		if (g < 0)
			FAIL(KW_EINVAL, f, "%s: unknown or missing generator name; allowed: tdmWait, wait, syncThreads, accToArchMapper, getAccToArchLen, hasSequentialValuC, accVgprImagNumOffset, mapAcctoArchRegs, mulMIoutAlphaToArch, moveMIoutToArch", f);
		snprintf(f, sizeof(f), "generators[%zu].args", i);
		if (add_call(r, (kw_gen_id)g, e ? json_object_get(e, "args") : NULL, f, err))
			return err ? err->code : KW_EINVAL;
	}
	return 0;
}

static int parse_replace_holder(kw_request *r, const json_t *v, kw_error *err)
{
	if (!v || json_is_null(v))
		return 0;
	if (json_is_integer(v)) {
		r->rh_kind = 1;
		r->rh_int = json_integer_value(v);
		if (r->rh_int > 2147483647LL || r->rh_int < -2147483648LL)
			FAIL(KW_EINVAL, "replaceHolder", "replaceHolder = %lld is out of range; allowed -2147483648..2147483647", (long long)r->rh_int);
		return 0;
	}
	if (json_is_array(v)) {
		size_t i;
		json_t *e;

		if (json_array_size(v) > r->lim.max_array_items)
			FAIL(KW_ELIMIT, "replaceHolder", "replaceHolder has %zu entries; the limit is %zu", json_array_size(v), r->lim.max_array_items);
		r->rh_kind = 2;
		r->n_rh = json_array_size(v);
		r->rh_list = calloc(r->n_rh ? r->n_rh : 1, sizeof(int64_t));
		if (!r->rh_list)
			FAIL(KW_ENOMEM, NULL, "out of memory");
		json_array_foreach(v, i, e) {
			if (!json_is_integer(e) || json_integer_value(e) > 2147483647LL || json_integer_value(e) < -2147483648LL)
				FAIL(KW_EINVAL, "replaceHolder", "replaceHolder[%zu] must be an integer (int32)", i);
			r->rh_list[i] = json_integer_value(e);
		}
		return 0;
	}
	FAIL(KW_EINVAL, "replaceHolder", "replaceHolder must be an integer (applied to the whole result) or a list of integers (one per top-level item)");
}

static int parse_vgpr_idx(kw_request *r, const json_t *v, kw_error *err)
{
	const char *k;
	json_t *e;

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_object(v))
		FAIL(KW_EINVAL, "vgprIdx", "vgprIdx must be an object of VGPR name -> index, e.g. {\"ValuC\": 240}");
	if (json_object_size(v) > 256)
		FAIL(KW_ELIMIT, "vgprIdx", "vgprIdx has %zu names; the limit is 256", json_object_size(v));
	r->vgpr_idx = calloc(json_object_size(v) + 1, sizeof(*r->vgpr_idx));
	if (!r->vgpr_idx)
		FAIL(KW_ENOMEM, NULL, "out of memory");
	json_object_foreach((json_t *)v, k, e) {
		char *nm;
		if (!json_is_integer(e) || json_integer_value(e) > 2147483647LL || json_integer_value(e) < -2147483648LL)
			FAIL(KW_EINVAL, "vgprIdx", "vgprIdx.%.60s must be an integer (int32)", k);
		nm = strdup(k);
		if (!nm)
			FAIL(KW_ENOMEM, NULL, "out of memory");
		r->vgpr_idx[r->n_vgpr_idx].name = nm;
		r->vgpr_idx[r->n_vgpr_idx].idx = json_integer_value(e);
		r->n_vgpr_idx++;
	}
	return 0;
}

/*
 * "source": where the request came from (kwgen logic sets it), returned
 * with the answer and never part of the key.  Either a string (the golden
 * corpus's "FILE#index") or an object of at most KW_SOURCE_MAX_KEYS members
 * whose values are strings (at most max_string_bytes, no NUL) or int32
 * integers; "file" and "SolutionNameMin" must be strings and
 * "SolutionIndex" an integer >= 0 when present.  Keys are at most 64 bytes.
 */
#define KW_SOURCE_MAX_KEYS 16

static int source_string_ok(const json_t *v, const char *f, const kw_limits *lim, kw_error *err)
{
	if (json_string_length(v) > lim->max_string_bytes)
		FAIL(KW_ELIMIT, f, "%s is %zu bytes; the limit is %zu", f, json_string_length(v), lim->max_string_bytes);
	if (strlen(json_string_value(v)) != json_string_length(v))
		FAIL(KW_EINVAL, f, "%s must not contain NUL characters", f);
	return 0;
}

static int parse_source(kw_request *r, const json_t *v, kw_error *err)
{
	const char *k;
	json_t *m;
	char f[KW_ERROR_FIELD_MAX];
	int rc;

	if (!v || json_is_null(v))
		return 0;
	if (json_is_string(v)) {
		if ((rc = source_string_ok(v, "source", &r->lim, err)))
			return rc;
	} else if (json_is_object(v)) {
		if (json_object_size(v) > KW_SOURCE_MAX_KEYS)
			FAIL(KW_ELIMIT, "source", "source has %zu members; the limit is %d", json_object_size(v), KW_SOURCE_MAX_KEYS);
		json_object_foreach((json_t *)v, k, m) {
			size_t kl = strlen(k);

			if (kl == 0 || kl > 64)
				FAIL(KW_EINVAL, "source", "source keys must be 1..64 bytes (\"file\", \"SolutionIndex\", \"SolutionNameMin\", ...)");
			kw_field_join(f, "source", ".", k);
			if (!strcmp(k, "SolutionIndex") && (!json_is_integer(m) || json_integer_value(m) < 0))
				FAIL(KW_EINVAL, f, "%s must be an integer >= 0 (the solution's index in its file)", f);
			if ((!strcmp(k, "file") || !strcmp(k, "SolutionNameMin")) && !json_is_string(m))
				FAIL(KW_EINVAL, f, "%s must be a string", f);
			if (json_is_string(m)) {
				if ((rc = source_string_ok(m, f, &r->lim, err)))
					return rc;
			} else if (json_is_integer(m)) {
				if (json_integer_value(m) > 2147483647LL || json_integer_value(m) < -2147483648LL)
					FAIL(KW_EINVAL, f, "%s = %lld is out of range; allowed -2147483648..2147483647", f,
					     (long long)json_integer_value(m));
			} else {
				FAIL(KW_EINVAL, f, "%s must be a string or an integer", f);
			}
		}
	} else {
		FAIL(KW_EINVAL, "source", "source must be an object {\"file\", \"SolutionIndex\", \"SolutionNameMin\"} "
		     "(strings and integers) or a string");
	}
	if (!(r->source = json_deep_copy(v)))
		FAIL(KW_ENOMEM, NULL, "out of memory");
	return 0;
}

static int check_wavefront(const kw_isa_info *isa, int64_t w, const char *field, kw_error *err)
{
	if (w != 32 && w != 64)
		FAIL(KW_EINVAL, field, "%s %lld is not allowed: use 32 or 64", field, (long long)w);
	if ((w == 32 && !isa->wave32) || (w == 64 && !isa->wave64))
		FAIL(KW_EINVAL, field, "%s %lld does not run on %s; allowed: %s", field, (long long)w, isa->name,
		     isa->wave32 && isa->wave64 ? "32 or 64" : isa->wave32 ? "32" : "64");
	return 0;
}

static int parse_body(kw_request *r, const json_t *root, kw_error *err)
{
	const json_t *v;
	int rc;

	if ((rc = kw_isa_parse(&r->isa, json_object_get(root, "isa"), err)))
		return rc;
	kw_caps_for(&r->caps, r->isa);
	if ((rc = kw_caps_override(&r->caps, 0, json_object_get(root, "asmCaps"), "asmCaps", err)) ||
	    (rc = kw_caps_override(&r->caps, 1, json_object_get(root, "archCaps"), "archCaps", err)))
		return rc;
	{
		int fill;
		if ((rc = get_bool(&fill, root, "fillDefaults", 0, "", err)) ||
		    (rc = kw_kernel_parse(&r->k, json_object_get(root, "kernel"), fill, err)))
			return rc;
	}
	if ((rc = kw_tp_parse(&r->tPA, json_object_get(root, "tPA"), "tPA", err)) ||
	    (rc = kw_tp_parse(&r->tPB, json_object_get(root, "tPB"), "tPB", err)) ||
	    (rc = kw_states_parse(&r->states, json_object_get(root, "states"), err)))
		return rc;

	/* wavefront: the request's, else kernel.WavefrontSize, else the ISA's
	 * default.  kernel.WavefrontSize is what the generators read, so it is
	 * checked too, and the two must agree. */
	v = json_object_get(root, "wavefront");
	if (v && !json_is_null(v)) {
		if (!json_is_integer(v))
			FAIL(KW_EINVAL, "wavefront", "wavefront must be an integer, 32 or 64");
		r->wavefront = json_integer_value(v);
		if ((rc = check_wavefront(r->isa, r->wavefront, "wavefront", err)))
			return rc;
	} else {
		r->wavefront = r->isa->default_wavefront;
		v = NULL;
	}
	if (r->k.present & (1ULL << KK_WavefrontSize)) {
		if ((rc = check_wavefront(r->isa, r->k.v[KK_WavefrontSize], "kernel.WavefrontSize", err)))
			return rc;
		if (v && r->k.v[KK_WavefrontSize] != r->wavefront)
			FAIL(KW_EINVAL, "wavefront", "wavefront %lld disagrees with kernel.WavefrontSize %lld; give one, or the same value",
			     (long long)r->wavefront, (long long)r->k.v[KK_WavefrontSize]);
		r->wavefront = r->k.v[KK_WavefrontSize];
	}

	if ((rc = get_bool(&r->output_no_comment, root, "outputNoComment", 0, "", err)) ||
	    (rc = get_bool(&r->strict, root, "strict", 0, "", err)))
		return rc;
	v = json_object_get(root, "vgprMsb");
	if (v && !json_is_null(v)) {
		if (!json_is_integer(v) || json_integer_value(v) < -2 || json_integer_value(v) > 255)
			FAIL(KW_EINVAL, "vgprMsb", "vgprMsb must be an integer: -1 (after a label), -2, or a bank code 0..255");
		r->vgpr_msb = json_integer_value(v);
	}
	if ((rc = parse_vgpr_idx(r, json_object_get(root, "vgprIdx"), err)) ||
	    (rc = parse_replace_holder(r, json_object_get(root, "replaceHolder"), err)) ||
	    (rc = parse_source(r, json_object_get(root, "source"), err)))
		return rc;
	return parse_generators(r, root, err);
}

int kw_request_parse(kw_request **out, const json_t *root, const kw_limits *lim, kw_error *err)
{
	static const kw_limits def = KW_LIMITS_INIT;
	kw_request *r;
	int rc;

	*out = NULL;
	if (!json_is_object(root))
		FAIL(KW_ESYNTAX, NULL, "the request must be a JSON object");
	if (!lim)
		lim = &def;
	if (!depth_ok(root, 1, lim->max_depth))
		FAIL(KW_ELIMIT, NULL, "the request nests deeper than %d levels", lim->max_depth);
	r = calloc(1, sizeof(*r));
	if (!r)
		FAIL(KW_ENOMEM, NULL, "out of memory");
	r->lim = *lim;
	rc = parse_body(r, root, err);
	if (rc) {
		kw_request_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

void kw_request_free(kw_request *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->ncalls; i++) {
		free(r->calls[i].comment);
		free(r->calls[i].memoryToken);
	}
	free(r->calls);
	for (size_t i = 0; i < r->n_vgpr_idx; i++)
		free((char *)r->vgpr_idx[i].name);
	free(r->vgpr_idx);
	free(r->rh_list);
	json_decref(r->source);
	free(r);
}

size_t kw_request_ngen(const kw_request *r) { return r->ncalls; }
const char *kw_request_gen_name(const kw_request *r, size_t i) { return i < r->ncalls ? kw_gen_name(r->calls[i].gen) : NULL; }
const char *kw_request_isa_name(const kw_request *r) { return r->isa->name; }
int kw_request_strict(const kw_request *r) { return r->strict; }
const json_t *kw_request_source(const kw_request *r) { return r->source; }

json_t *kw_call_args_json(const kw_call *c)
{
	switch (c->gen) {
	case KW_GEN_TDM_WAIT:
		return json_pack("{s:I,s:s}", "tensorcnt", (json_int_t)c->tensorcnt, "comment", c->comment);
	case KW_GEN_WAIT:
		return json_pack("{s:I,s:I,s:I,s:I,s:s,s:I}", "skipGlobalRead", (json_int_t)c->wait.skipGlobalRead,
				 "skipLocalWrite", (json_int_t)c->wait.skipLocalWrite, "skipLocalRead", (json_int_t)c->wait.skipLocalRead,
				 "conservativeWaitCnt", (json_int_t)c->wait.conservativeWaitCnt, "comment", c->comment,
				 "skipGlobalReadInst", (json_int_t)c->wait.skipGlobalReadInst);
	case KW_GEN_SYNC_THREADS: {
		json_t *mt = json_null();
		if (c->has_memoryToken) {
			mt = json_array();
			for (size_t i = 0; mt && i < c->n_memoryToken; i++)
				json_array_append_new(mt, json_integer(c->memoryToken[i]));
		}
		return json_pack("{s:s,s:b,s:o}", "comment", c->comment, "skipForceWaitcnt0", c->skipForceWaitcnt0,
				 "memoryToken", mt);
	}
	case KW_GEN_MAP_ACC_TO_ARCH_REGS:
		return json_pack("{s:I,s:b,s:o}", "maxAgpr", (json_int_t)c->map.maxAgpr, "write", c->map.write,
				 "spilledVgprBase", c->map.has_spilledVgprBase ? json_integer(c->map.spilledVgprBase) : json_null());
	case KW_GEN_MUL_MIOUT_ALPHA_TO_ARCH:
	case KW_GEN_MOVE_MIOUT_TO_ARCH:
		return json_pack("{s:I}", "startVgprAlphaTmp", (json_int_t)c->startVgprAlphaTmp);
	default:
		return json_object();
	}
}
