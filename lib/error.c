/* error.c - kw_error helpers. */
#include "kwgen/error.h"

#include <stdio.h>
#include <string.h>

int kw_error_set(kw_error *err, int code, const char *field, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	err->code = code;
	if (field)
		snprintf(err->field, sizeof(err->field), "%s", field);
	else
		err->field[0] = '\0';
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return code;
}

char *kw_field_join(char out[KW_ERROR_FIELD_MAX], const char *a, const char *sep, const char *b)
{
	size_t n = 0;
	const char *parts[3] = { a, sep, b };

	for (int i = 0; i < 3; i++) {
		size_t m = parts[i] ? strnlen(parts[i], KW_ERROR_FIELD_MAX - 1 - n) : 0;

		memcpy(out + n, parts[i] ? parts[i] : "", m);
		n += m;
	}
	out[n] = '\0';
	return out;
}

void kw_error_clear(kw_error *err)
{
	if (!err)
		return;
	err->code = 0;
	err->field[0] = '\0';
	err->message[0] = '\0';
}

const char *kw_error_code_name(int code)
{
	switch (code) {
	case KW_OK: return "ok";
	case KW_EINVAL: return "invalid";
	case KW_ENOMEM: return "no_memory";
	case KW_EUNSUPPORTED: return "unsupported";
	case KW_ESTRICT: return "strict";
	case KW_ELIMIT: return "limit";
	case KW_ESYNTAX: return "syntax";
	case KW_EIO: return "io";
	case KW_ENOTFOUND: return "not_found";
	default: return "internal";
	}
}
