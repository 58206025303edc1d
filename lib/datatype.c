/* datatype.c - Tensile DataType names, chars and parsing (rendering.md §13). */
#include "kwgen/datatype.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *name, *chr;
} props[KW_DT_COUNT] = {
	{ "Float", "S" }, { "Double", "D" }, { "ComplexFloat", "C" }, { "ComplexDouble", "Z" },
	{ "Half", "H" }, { "Int8x4", "4xi8" }, { "Int32", "I" }, { "BFloat16", "B" },
	{ "Int8", "I8" }, { "Int64", "I64" }, { "XFloat32", "X" },
	{ "Float8_fnuz", "F8N" }, { "BFloat8_fnuz", "B8N" }, { "Float8BFloat8_fnuz", "F8B8N" },
	{ "BFloat8Float8_fnuz", "B8F8N" }, { "Float8", "F8" }, { "BFloat8", "B8" },
	{ "Float8BFloat8", "F8B8" }, { "BFloat8Float8", "B8F8" },
	{ "Float6", "F6" }, { "BFloat6", "B6" }, { "Float4", "F4" }, { "E8M0", "E8M0" },
	{ "E5M3", "E5M3" },
	{ "Float8Float6", "F8F6" }, { "Float8BFloat6", "F8B6" }, { "Float8Float4", "F8F4" },
	{ "BFloat8Float6", "B8F6" }, { "BFloat8BFloat6", "B8B6" }, { "BFloat8Float4", "B8F4" },
	{ "Float6Float8", "F6F8" }, { "Float6BFloat8", "F6B8" }, { "Float6BFloat6", "F6B6" },
	{ "Float6Float4", "F6F4" }, { "BFloat6Float8", "B6F8" }, { "BFloat6BFloat8", "B6B8" },
	{ "BFloat6Float6", "B6F6" }, { "BFloat6Float4", "B6F4" }, { "Float4Float8", "F4F8" },
	{ "Float4BFloat8", "F4B8" }, { "Float4Float6", "F4F6" }, { "Float4BFloat6", "F4B6" },
};

const char *kw_datatype_name(int dt)
{
	return dt >= 0 && dt < KW_DT_COUNT ? props[dt].name : NULL;
}

const char *kw_datatype_char(int dt)
{
	return dt >= 0 && dt < KW_DT_COUNT ? props[dt].chr : NULL;
}

int kw_datatype_parse(int *out, const json_t *v, const char *field, kw_error *err)
{
	if (json_is_integer(v)) {
		json_int_t i = json_integer_value(v);
		if (i < 0 || i >= KW_DT_COUNT)
			return kw_error_set(err, KW_EINVAL, field,
					    "%s: DataType enum value %lld is out of range; allowed 0..%d (0 Float, 1 Double, 2 ComplexFloat, 3 ComplexDouble, 4 Half, ...)",
					    field, (long long)i, KW_DT_COUNT - 1);
		*out = (int)i;
		return 0;
	}
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		for (int i = 0; i < KW_DT_COUNT; i++)
			if (!strcasecmp(s, props[i].name) || !strcasecmp(s, props[i].chr)) {
				*out = i;
				return 0;
			}
		if (!strcasecmp(s, "single")) {
			*out = KW_DT_Float;
			return 0;
		}
		if (!strcasecmp(s, "complexSingle")) {
			*out = KW_DT_ComplexFloat;
			return 0;
		}
		return kw_error_set(err, KW_EINVAL, field,
				    "%s: unknown DataType \"%.60s\"; give an enum int (0..%d), a type char (S, D, C, Z, H, B, I, I8, 4xi8, ...) or a name (Float, Double, ComplexFloat, ComplexDouble, Half, BFloat16, Int32, ...)",
				    field, s, KW_DT_COUNT - 1);
	}
	return kw_error_set(err, KW_EINVAL, field,
			    "%s: a DataType must be an enum int, a type char or a name, not %s", field,
			    json_is_boolean(v) ? "a boolean" : json_is_real(v) ? "a float" : json_is_null(v) ? "null" : "an object or array");
}
