/*
 * text.c - an answer as plain text (kwgen/text.h): the one renderer behind
 * `kwgen --asm` and kwgend's Accept: text/plain.  It reads the JSON answer
 * only; it knows nothing of generation, HTTP or the cache.
 */
#include "kwgen/text.h"

#include <string.h>

static int dump_cb(const char *s, size_t n, void *data)
{
	return kw_buf_put(data, s, n) ? -1 : 0;
}

/* A JSON value as Python would print it in a call: True/False/None,
 * integers, JSON-quoted strings, lists of those. */
static void put_py(kw_buf *out, const json_t *v)
{
	if (json_is_true(v)) {
		kw_buf_puts(out, "True");
	} else if (json_is_false(v)) {
		kw_buf_puts(out, "False");
	} else if (!v || json_is_null(v)) {
		kw_buf_puts(out, "None");
	} else if (json_is_integer(v)) {
		kw_buf_put_i64(out, (int64_t)json_integer_value(v));
	} else if (json_is_array(v)) {
		size_t i;
		json_t *e;

		kw_buf_putc(out, '[');
		json_array_foreach(v, i, e) {
			if (i)
				kw_buf_puts(out, ", ");
			put_py(out, e);
		}
		kw_buf_putc(out, ']');
	} else if (json_dump_callback(v, dump_cb, out, JSON_ENCODE_ANY | JSON_COMPACT)) {
		/* (written through a callback: jansson's allocator may be an arena) */
		out->oom = 1;
	}
}

/* text inside a comment line: a newline or carriage return becomes a
 * space, so the text never ends the comment early; any other control
 * character (ESC, BEL, DEL, ...) is written as JSON writes it (\u001B), as
 * the header line's arguments are, so a logic file's name cannot drive the
 * reader's terminal. */
static void put_clean(kw_buf *out, const char *text)
{
	static const char hex[] = "0123456789ABCDEF";

	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p == '\n' || *p == '\r') {
			kw_buf_putc(out, ' ');
		} else if (*p < 0x20 || *p == 0x7f) {
			char e[7] = { '\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15], 0 };
			kw_buf_puts(out, e);
		} else {
			kw_buf_putc(out, (char)*p);
		}
	}
}

static void put_source_value(kw_buf *out, const json_t *v)
{
	if (json_is_string(v)) {
		put_clean(out, json_string_value(v));
	} else {
		put_py(out, v);
	}
}

int kw_text_source_line(kw_buf *out, const json_t *source)
{
	static const char *const first[] = { "file", "SolutionIndex", "SolutionNameMin" };
	const char *k;
	json_t *v;
	int n = 0;

	if (!source || json_is_null(source))
		return 0;
	kw_buf_puts(out, "// source: ");
	if (!json_is_object(source)) {
		put_source_value(out, source);
	} else {
		for (size_t i = 0; i < 3; i++) {
			if (!(v = json_object_get(source, first[i])))
				continue;
			if (n++)
				kw_buf_puts(out, ", ");
			if (i) {
				kw_buf_puts(out, first[i]);
				kw_buf_putc(out, ' ');
			}
			put_source_value(out, v);
		}
		json_object_foreach((json_t *)source, k, v) {
			if (!strcmp(k, "file") || !strcmp(k, "SolutionIndex") || !strcmp(k, "SolutionNameMin"))
				continue;
			if (n++)
				kw_buf_puts(out, ", ");
			put_clean(out, k);
			kw_buf_putc(out, ' ');
			put_source_value(out, v);
		}
	}
	kw_buf_putc(out, '\n');
	return out->oom ? KW_ENOMEM : 0;
}

static void put_result(kw_buf *out, const json_t *res)
{
	const char *name = json_string_value(json_object_get(res, "name"));
	const json_t *args = json_object_get(res, "args"), *a = json_object_get(res, "asm"), *v, *d;
	const char *k;
	size_t i, n = 0;

	kw_buf_puts(out, "// ");
	kw_buf_puts(out, name ? name : "?");
	kw_buf_putc(out, '(');
	json_object_foreach((json_t *)args, k, v) {
		if (n++)
			kw_buf_puts(out, ", ");
		kw_buf_puts(out, k);
		kw_buf_putc(out, '=');
		put_py(out, v);
	}
	kw_buf_putc(out, ')');
	if ((v = json_object_get(res, "value"))) {
		kw_buf_puts(out, " = ");
		put_py(out, v);
	}
	kw_buf_putc(out, '\n');
	if ((v = json_object_get(res, "acc2arch"))) {
		kw_buf_puts(out, "// acc2arch: ");
		put_py(out, v);
		kw_buf_putc(out, '\n');
	}
	if ((v = json_object_get(res, "arch2acc"))) {
		kw_buf_puts(out, "// arch2acc: ");
		put_py(out, v);
		kw_buf_putc(out, '\n');
	}
	if (json_is_string(a) && json_string_length(a)) {
		kw_buf_put(out, json_string_value(a), json_string_length(a));
		if (json_string_value(a)[json_string_length(a) - 1] != '\n')
			kw_buf_putc(out, '\n');
	}
	json_array_foreach(json_object_get(res, "diagnostics"), i, d) {
		const char *code = json_string_value(json_object_get(d, "code"));
		const char *msg = json_string_value(json_object_get(d, "message"));

		kw_buf_puts(out, "// warning: ");
		kw_buf_puts(out, code ? code : "?");
		kw_buf_puts(out, ": ");
		put_clean(out, msg ? msg : "");
		kw_buf_putc(out, '\n');
	}
}

int kw_text_render(kw_buf *out, const json_t *answer, kw_error *err)
{
	const json_t *results = json_object_get(answer, "results"), *res;
	size_t i;

	if (!json_is_array(results))
		return kw_error_set(err, KW_EINVAL, "results", "the answer has no \"results\" array");
	if (kw_text_source_line(out, json_object_get(answer, "source")))
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	json_array_foreach(results, i, res)
		put_result(out, res);
	return out->oom ? kw_error_set(err, KW_ENOMEM, NULL, "out of memory") : 0;
}
