/*
 * kwgen/datatype.h - Tensile's DataType (Tensile.Common.DataType,
 * rendering.md §13): enum values 0..41, their names and type chars.
 */
#ifndef KWGEN_DATATYPE_H
#define KWGEN_DATATYPE_H

#include <jansson.h>

#include "kwgen/error.h"

typedef enum kw_datatype {
	KW_DT_Float = 0, KW_DT_Double = 1, KW_DT_ComplexFloat = 2, KW_DT_ComplexDouble = 3,
	KW_DT_Half = 4, KW_DT_Int8x4 = 5, KW_DT_Int32 = 6, KW_DT_BFloat16 = 7, KW_DT_Int8 = 8,
	KW_DT_Int64 = 9, KW_DT_XFloat32 = 10,
	KW_DT_COUNT = 42
} kw_datatype;

/* Enum name ("ComplexDouble") and type char ("Z") of a value; NULL if out of range. */
const char *kw_datatype_name(int dt);
const char *kw_datatype_char(int dt);

/*
 * Parse a DataType given as its enum int (0..41), a type char ("S", "Z",
 * "4xi8", "F8N"), an enum name ("Float", "complexdouble"; case-insensitive)
 * or the legacy names "single"/"complexSingle".  field names the request
 * key for the error.  Returns 0 and *out, or KW_EINVAL saying what is allowed.
 */
int kw_datatype_parse(int *out, const json_t *v, const char *field, kw_error *err);

/* Predicates the seed uses. */
static inline int kw_dt_is_complex(int dt) { return dt == KW_DT_ComplexFloat || dt == KW_DT_ComplexDouble; }

#endif
