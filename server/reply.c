/*
 * reply.c - building kw_reply values (see reply.h): JSON bodies, the error
 * shape and the KW_E* -> HTTP status map.
 */
#include "reply.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void kw_reply_reset(kw_reply *r)
{
	static const kw_reply init = KW_REPLY_INIT;

	free(r->body);
	*r = init;
}

int kw_reply_copy(kw_reply *dst, const kw_reply *src)
{
	char *body = NULL;

	kw_reply_reset(dst);
	if (src->body && !(body = malloc(src->len + 1))) {
		kw_reply_error(dst, 503, "no_memory", NULL, "out of memory");
		dst->retry_after = 1;
		return -1;
	}
	if (body) {
		memcpy(body, src->body, src->len);
		body[src->len] = '\0';
	}
	*dst = *src;
	dst->body = body;
	return 0;
}

void kw_reply_move(kw_reply *dst, kw_reply *src)
{
	static const kw_reply init = KW_REPLY_INIT;

	kw_reply_reset(dst);
	*dst = *src;
	*src = init;
}

void kw_reply_text(kw_reply *r, int status, char *text, size_t len, const char *content_type)
{
	free(r->body);
	r->status = status;
	r->body = text;
	r->len = len;
	r->content_type = content_type;
	r->code[0] = '\0';
}

void kw_reply_json(kw_reply *r, int status, json_t *body)
{
	char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;

	json_decref(body);
	if (!text) {
		static const char oom[] =
			"{\"error\":{\"code\":\"no_memory\",\"message\":\"out of memory\",\"field\":null}}";

		text = strdup(oom);
		status = 500;
	}
	kw_reply_text(r, status, text, text ? strlen(text) : 0, NULL);
}

void kw_reply_error(kw_reply *r, int status, const char *code, const char *field,
		    const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	json_t *err;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	err = json_pack("{s:{s:s,s:s%,s:o}}", "error", "code", code, "message", msg, strlen(msg),
			"field", field && *field ? json_string(field) : json_null());
	if (!err) /* a message or field that is not UTF-8 */
		err = json_pack("{s:{s:s,s:s,s:n}}", "error", "code", code, "message",
				"(message not representable)", "field");
	kw_reply_json(r, status, err);
	snprintf(r->code, sizeof(r->code), "%s", code);
}

int kw_status_of(int code)
{
	switch (code) {
	case KW_ESYNTAX: return 400;
	case KW_EINVAL:
	case KW_EUNSUPPORTED:
	case KW_ESTRICT:
	case KW_ELIMIT: return 422;
	case KW_ENOTFOUND: return 404;
	case KW_EIO:
	case KW_ENOMEM: return 503;
	default: return 500;
	}
}

void kw_reply_kw_error(kw_reply *r, const kw_error *e)
{
	int status = kw_status_of(e->code);

	kw_reply_error(r, status, kw_error_code_name(e->code), e->field, "%s",
		       e->message[0] ? e->message : kw_error_code_name(e->code));
	if (status == 503)
		r->retry_after = 1;
}
