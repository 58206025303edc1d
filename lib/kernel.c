/* kernel.c - kernel / tPA / tPB / states from JSON (kwgen/kernel.h). */
#include "kwgen/kernel.h"
#include "kwgen/datatype.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *path;
	kw_ktype type;
} keys[KK_COUNT] = {
#define D(n, p, t) { p, t },
	KW_KERNEL_KEYS(D)
#undef D
};

static const char *const tpc_names[KW_TPC_COUNT] = { "nrp", "nrc", "nwcv", "nwpv", "nwcvpi" };
static const char *const st_names[KW_ST_COUNT] = {
	"numReadsPerIterA", "numReadsPerIterB", "numReadsPerIterMetadata",
	"numReadsPerIterMXSA", "numReadsPerIterMXSB",
};

const char *kw_kernel_key_path(kw_kkey k) { return keys[k].path; }
kw_ktype kw_kernel_key_type(kw_kkey k) { return keys[k].type; }
const char *kw_tpc_name(int i) { return tpc_names[i]; }
const char *kw_states_name(int i) { return st_names[i]; }

#define INT32_LIMIT 2147483647LL

/* An integer-valued input: a JSON integer within int32. */
static int parse_int(int64_t *out, const json_t *v, const char *field, kw_error *err)
{
	if (!json_is_integer(v))
		return kw_error_set(err, KW_EINVAL, field, "%s must be an integer, not %s", field,
				    json_is_boolean(v) ? "a boolean" : json_is_real(v) ? "a float" : json_is_string(v) ? "a string" :
				    json_is_null(v) ? "null" : "an object or array");
	*out = json_integer_value(v);
	if (*out > INT32_LIMIT || *out < -INT32_LIMIT - 1)
		return kw_error_set(err, KW_EINVAL, field, "%s = %lld is out of range; allowed -2147483648..2147483647",
				    field, (long long)*out);
	return 0;
}

static int parse_bool(int64_t *out, const json_t *v, const char *field, kw_error *err)
{
	if (json_is_boolean(v)) {
		*out = json_is_true(v);
		return 0;
	}
	if (json_is_integer(v)) {
		*out = json_integer_value(v) != 0;
		return 0;
	}
	return kw_error_set(err, KW_EINVAL, field, "%s must be a boolean (true/false or 0/1)", field);
}

/* Smallest value a kernel size/count key may take: Tensile's sizes are
 * positive, its load counts non-negative. */
static int64_t key_min(int k)
{
	switch (k) {
	case KK_NumThreads: case KK_MatrixInstM: case KK_MatrixInstN: case KK_MatrixInstBM:
	case KK_MatrixInstBN: case KK_MIWaveTile: case KK_MIRegPerOut: case KK_VectorWidthA:
	case KK_VectorWidthB:
		return 1;
	default:
		return 0;
	}
}

static int check_min(int64_t v, int64_t min, const char *field, kw_error *err)
{
	if (v < min)
		return kw_error_set(err, KW_EINVAL, field, "%s = %lld is out of range; allowed %s", field, (long long)v,
				    min == 1 ? "1 or more (a size)" : "0 or more (a count)");
	return 0;
}

static const json_t *lookup(const json_t *kernel, const char *path)
{
	const char *dot = strchr(path, '.');

	if (!dot)
		return json_object_get(kernel, path);
	{
		char head[32];
		size_t n = (size_t)(dot - path);
		const json_t *pt;

		memcpy(head, path, n);
		head[n] = '\0';
		pt = json_object_get(kernel, head);
		return json_is_object(pt) ? json_object_get(pt, dot + 1) : NULL;
	}
}

static void set_default(kw_kernel *k, kw_kkey key, int64_t v)
{
	if (!(k->present & (1ULL << key))) {
		k->present |= 1ULL << key;
		k->v[key] = v;
	}
}

int kw_kernel_parse(kw_kernel *k, const json_t *kernel, int fill_defaults, kw_error *err)
{
	char field[KW_ERROR_FIELD_MAX];
	const json_t *pt;

	memset(k, 0, sizeof(*k));
	if (!kernel || json_is_null(kernel))
		kernel = NULL;
	else if (!json_is_object(kernel))
		return kw_error_set(err, KW_EINVAL, "kernel", "kernel must be an object (a Tensile solution dict)");
	pt = kernel ? json_object_get(kernel, "ProblemType") : NULL;
	if (pt && !json_is_object(pt))
		return kw_error_set(err, KW_EINVAL, "kernel.ProblemType", "kernel.ProblemType must be an object");

	for (int i = 0; kernel && i < KK_COUNT; i++) {
		const json_t *v = lookup(kernel, keys[i].path);
		int rc = 0;

		if (!v)
			continue;
		kw_field_join(field, "kernel", ".", keys[i].path);
		if (json_is_null(v) && keys[i].type == KW_KT_DTYPE)
			continue; /* None: absent for every reader */
		switch (keys[i].type) {
		case KW_KT_BOOL:
			rc = parse_bool(&k->v[i], v, field, err);
			break;
		case KW_KT_INT:
			if (json_is_boolean(v)) { /* Tensile stores some as bools; Python reads True as 1 */
				k->v[i] = json_is_true(v);
				k->given_bool |= 1ULL << i;
			} else {
				rc = parse_int(&k->v[i], v, field, err);
			}
			if (!rc && i != KK_WavefrontSize)
				rc = check_min(k->v[i], key_min(i), field, err);
			break;
		case KW_KT_DTYPE: {
			int dt;
			rc = kw_datatype_parse(&dt, v, field, err);
			k->v[i] = dt;
			break;
		}
		case KW_KT_PAIR:
			if (!json_is_array(v) || json_array_size(v) != 2)
				return kw_error_set(err, KW_EINVAL, field, "%s must be an array of two integers [tile0, tile1]", field);
			rc = parse_int(&k->MIWaveTile[0], json_array_get(v, 0), field, err);
			if (!rc)
				rc = parse_int(&k->MIWaveTile[1], json_array_get(v, 1), field, err);
			if (!rc)
				rc = check_min(k->MIWaveTile[0] < k->MIWaveTile[1] ? k->MIWaveTile[0] : k->MIWaveTile[1], 1, field, err);
			break;
		}
		if (rc)
			return rc;
		k->present |= 1ULL << i;
	}
	/* every other ProblemType DataType key must still be a DataType (Tensile converts them all) */
	if (pt) {
		const char *name;
		json_t *v;

		json_object_foreach((json_t *)pt, name, v) {
			size_t n = strlen(name);
			int dt;

			if (json_is_null(v) || !(strncmp(name, "DataType", 8) == 0 ||
						 (n >= 8 && !strcmp(name + n - 8, "DataType"))))
				continue;
			snprintf(field, sizeof(field), "kernel.ProblemType.%.80s", name);
			if (kw_datatype_parse(&dt, v, field, err))
				return err ? err->code : KW_EINVAL;
		}
	}
	if (fill_defaults) {
		set_default(k, KK_BufferLoad, 1);
		set_default(k, KK_DirectToLdsA, 0);
		set_default(k, KK_DirectToLdsB, 0);
		set_default(k, KK_DirectToVgprA, 0);
		set_default(k, KK_DirectToVgprB, 0);
		set_default(k, KK_DirectToVgprMXSA, 0);
		set_default(k, KK_DirectToVgprMXSB, 0);
		set_default(k, KK_DirectToVgprSparseMetadata, 0);
		set_default(k, KK_NumLoadsPerpendicularA, 1);
		set_default(k, KK_NumLoadsCoalescedA, 1);
		set_default(k, KK_NumLoadsPerpendicularB, 1);
		set_default(k, KK_NumLoadsCoalescedB, 1);
		set_default(k, KK_NumLoadsPerpendicularMXSA, 0);
		set_default(k, KK_NumLoadsCoalescedMXSA, 0);
		set_default(k, KK_NumLoadsPerpendicularMXSB, 0);
		set_default(k, KK_NumLoadsCoalescedMXSB, 0);
		set_default(k, KK_NumLoadsPerpendicularMetadata, 0);
		set_default(k, KK_NumLoadsCoalescedMetadata, 0);
		set_default(k, KK__ScheduleIterAlg, 3);
		set_default(k, KK_PrefetchGlobalRead, 1);
		set_default(k, KK_EnableMatrixInstruction, 1);
		set_default(k, KK_MatrixInstBM, 1);
		set_default(k, KK_MatrixInstBN, 1);
		set_default(k, KK_SourceSwap, 0);
		set_default(k, KK_MIRegPerOut, 1);
		set_default(k, KK_MIArchVgpr, 0);
		if (pt) {
			set_default(k, KK_MXBlockA, 0);
			set_default(k, KK_MXBlockB, 0);
			set_default(k, KK_Sparse, 0);
			set_default(k, KK_HighPrecisionAccumulate, 0);
		}
	}
	return 0;
}

static int parse_counts(kw_tp_counts *c, const json_t *o, const char *field, kw_error *err)
{
	char f[KW_ERROR_FIELD_MAX];

	memset(c, 0, sizeof(*c));
	if (json_is_null(o)) {
		c->is_null = 1;
		return 0;
	}
	if (!json_is_object(o))
		return kw_error_set(err, KW_EINVAL, field, "%s must be an object with nrp, nrc, nwcv, nwpv, nwcvpi", field);
	for (int i = 0; i < KW_TPC_COUNT; i++) {
		const json_t *v = json_object_get(o, tpc_names[i]);
		if (!v)
			continue;
		kw_field_join(f, field, ".", tpc_names[i]);
		if (parse_int(&c->v[i], v, f, err) || check_min(c->v[i], i == KW_TPC_nwcvpi ? 1 : 0, f, err))
			return err ? err->code : KW_EINVAL;
		c->present |= 1u << i;
	}
	return 0;
}

int kw_tp_parse(kw_tp *tp, const json_t *o, const char *field, kw_error *err)
{
	char f[KW_ERROR_FIELD_MAX];
	const json_t *v;

	memset(tp, 0, sizeof(*tp));
	if (!o || json_is_null(o))
		return 0;
	if (!json_is_object(o))
		return kw_error_set(err, KW_EINVAL, field, "%s must be an object (Tensile's tensor parameters)", field);
	tp->given = 1;
	if (parse_counts(&tp->c, o, field, err))
		return err ? err->code : KW_EINVAL;
	v = json_object_get(o, "localReadInstruction");
	if (v) {
		const json_t *bw;
		snprintf(f, sizeof(f), "%s.localReadInstruction.blockWidth", field);
		if (!json_is_object(v))
			return kw_error_set(err, KW_EINVAL, f, "%s.localReadInstruction must be an object {\"blockWidth\": n}", field);
		bw = json_object_get(v, "blockWidth");
		if (bw) {
			if (!json_is_number(bw))
				return kw_error_set(err, KW_EINVAL, f, "%s must be a number (registers per read)", f);
			tp->block_width = json_number_value(bw);
			tp->has_block_width = 1;
		}
	}
	v = json_object_get(o, "is_sparse");
	if (v) {
		snprintf(f, sizeof(f), "%s.is_sparse", field);
		if (parse_bool(&tp->is_sparse, v, f, err))
			return err ? err->code : KW_EINVAL;
		tp->has_is_sparse = 1;
	}
	v = json_object_get(o, "tpsMetadata");
	if (v) {
		snprintf(f, sizeof(f), "%s.tpsMetadata", field);
		if (parse_counts(&tp->tpsMetadata, v, f, err))
			return err ? err->code : KW_EINVAL;
		tp->has_tpsMetadata = 1;
	}
	v = json_object_get(o, "MX");
	if (v) {
		snprintf(f, sizeof(f), "%s.MX", field);
		if (parse_counts(&tp->MX, v, f, err))
			return err ? err->code : KW_EINVAL;
		tp->has_MX = 1;
	}
	return 0;
}

int kw_states_parse(kw_states *st, const json_t *o, kw_error *err)
{
	char f[KW_ERROR_FIELD_MAX];

	memset(st, 0, sizeof(*st));
	if (!o || json_is_null(o))
		return 0;
	if (!json_is_object(o))
		return kw_error_set(err, KW_EINVAL, "states", "states must be an object (the writer's numReadsPerIter* counts)");
	for (int i = 0; i < KW_ST_COUNT; i++) {
		const json_t *v = json_object_get(o, st_names[i]);
		if (!v)
			continue;
		kw_field_join(f, "states", ".", st_names[i]);
		if (parse_int(&st->v[i], v, f, err) || check_min(st->v[i], 0, f, err))
			return err ? err->code : KW_EINVAL;
		st->present |= 1u << i;
	}
	return 0;
}

static const char *type_word(kw_ktype t)
{
	switch (t) {
	case KW_KT_BOOL: return "a boolean";
	case KW_KT_INT: return "an integer";
	case KW_KT_PAIR: return "an array of two integers";
	default: return "a DataType";
	}
}

int kw_kernel_need(int64_t *out, const kw_kernel *k, kw_kkey key, const char *who, kw_error *err)
{
	if (!(k->present & (1ULL << key))) {
		char f[KW_ERROR_FIELD_MAX];
		snprintf(f, sizeof(f), "kernel.%s", keys[key].path);
		return kw_error_set(err, KW_EINVAL, f, "missing kernel key %s: %s reads it (%s)", keys[key].path, who,
				    type_word(keys[key].type));
	}
	*out = k->v[key];
	return 0;
}

int64_t kw_kernel_get(const kw_kernel *k, kw_kkey key, int64_t def)
{
	return (k->present & (1ULL << key)) ? k->v[key] : def;
}

json_t *kw_kernel_to_json(const kw_kernel *k, uint64_t mask)
{
	json_t *o = json_object(), *pt = NULL;

	for (int i = 0; o && i < KK_COUNT; i++) {
		json_t *v;
		const char *path = keys[i].path, *dot;

		if (!(mask & k->present & (1ULL << i)))
			continue;
		switch (keys[i].type) {
		case KW_KT_BOOL: v = json_boolean(k->v[i]); break;
		case KW_KT_PAIR: v = json_pack("[II]", (json_int_t)k->MIWaveTile[0], (json_int_t)k->MIWaveTile[1]); break;
		default: v = json_integer(k->v[i]); break;
		}
		dot = strchr(path, '.');
		if (dot) {
			if (!pt)
				pt = json_object();
			json_object_set_new(pt, dot + 1, v);
		} else {
			json_object_set_new(o, path, v);
		}
	}
	if (o && pt)
		json_object_set_new(o, "ProblemType", pt);
	return o;
}

static json_t *counts_json(const kw_tp_counts *c)
{
	json_t *o;

	if (c->is_null)
		return json_null();
	o = json_object();
	for (int i = 0; i < KW_TPC_COUNT; i++)
		if (c->present & (1u << i))
			json_object_set_new(o, tpc_names[i], json_integer(c->v[i]));
	return o;
}

json_t *kw_tp_to_json(const kw_tp *tp)
{
	json_t *o;

	if (!tp->given)
		return json_null();
	o = counts_json(&tp->c);
	if (tp->has_block_width)
		json_object_set_new(o, "localReadInstruction", json_pack("{s:f}", "blockWidth", tp->block_width));
	if (tp->has_is_sparse)
		json_object_set_new(o, "is_sparse", json_boolean(tp->is_sparse));
	if (tp->has_tpsMetadata)
		json_object_set_new(o, "tpsMetadata", counts_json(&tp->tpsMetadata));
	if (tp->has_MX)
		json_object_set_new(o, "MX", counts_json(&tp->MX));
	return o;
}

json_t *kw_states_to_json(const kw_states *st)
{
	json_t *o = json_object();

	for (int i = 0; o && i < KW_ST_COUNT; i++)
		if (st->present & (1u << i))
			json_object_set_new(o, st_names[i], json_integer(st->v[i]));
	return o;
}
