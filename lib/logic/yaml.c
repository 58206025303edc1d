/*
 * lib/logic/yaml.c - read a Tensile library-logic YAML file with libyaml's
 * event parser and build jansson values, streaming the solutions list.
 *
 * A logic file can hold tens of thousands of solutions of ~300 keys each,
 * so the solutions are never held together: each one is built, handed to
 * the caller and freed.  Everything else at the top level is small and is
 * handed over whole.  This file knows YAML and JSON trees only; what a
 * solution means is derive.c's business.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "logic/logic.h"

#define KW_YAML_MAX_DEPTH 64

/*
 * Aliases are resolved by sharing (the alias's value is the anchored json_t
 * with one more reference), so reading costs no more than the file.  But a
 * request written from a solution is a tree: an alias that ends up in it is
 * expanded by whoever copies or prints it, and a few nested anchors
 * ("a1: [*a0, *a0, ...]", "a2: [*a1, ...]") expand exponentially.  So every
 * value carries its expanded size (scalars 1, collections 1 + their
 * children's expanded sizes, an alias the size of its anchor), and the
 * values that aliases add to one top-level item or one solution are bounded
 * by KW_YAML_MAX_ALIAS_VALUES: past it the file is refused, naming the
 * alias's line.
 */
#define KW_YAML_MAX_ALIAS_VALUES 100000
#define KW_SIZE_CAP ((size_t)1 << 40) /* saturation of expanded sizes */

static size_t size_add(size_t a, size_t b)
{
	return a + b > KW_SIZE_CAP || a + b < a ? KW_SIZE_CAP : a + b;
}

/* One open collection. */
typedef struct yframe {
	json_t *c;             /* the array / object being built; NULL for the root and a streamed list */
	int is_map;
	int stream;            /* 1: the solutions list: children go to the callback */
	int root;              /* 1: the top-level collection: children go to the callback */
	char *key;             /* pending mapping key (malloc) or NULL */
	char *anchor;          /* anchor of this collection (malloc) or NULL */
	size_t n;              /* children completed */
	size_t size;           /* expanded size of the children completed */
	unsigned long line;    /* where the collection started */
	unsigned long kline;   /* where the pending key / current child started */
} yframe;

typedef struct yreader {
	const char *name;
	yaml_parser_t parser;
	kw_yaml_cb cb;
	void *ud;
	kw_error *err;
	yframe stack[KW_YAML_MAX_DEPTH];
	int depth;
	json_t *anchors;       /* anchor name -> value */
	json_t *anchor_sizes;  /* anchor name -> expanded size of its value */
	size_t alias_values;   /* values aliases added to the current item */
	int seen_root;
} yreader;

static int yerr(yreader *r, unsigned long line, unsigned long col, const char *what)
{
	if (col)
		return kw_error_set(r->err, KW_ESYNTAX, NULL, "%s:%lu:%lu: %s", r->name, line, col, what);
	return kw_error_set(r->err, KW_ESYNTAX, NULL, "%s:%lu: %s", r->name, line, what);
}

/* PyYAML's plain-scalar resolution (YAML 1.1), restricted to what logic files use. */
static int is_one_of(const char *v, const char *const *set)
{
	for (; *set; set++)
		if (strcmp(v, *set) == 0)
			return 1;
	return 0;
}

static json_t *plain_scalar(const char *v, size_t len)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL", NULL };
	static const char *const trues[] = { "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON", NULL };
	static const char *const falses[] = { "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF", NULL };
	if (is_one_of(v, nulls))
		return json_null();
	if (is_one_of(v, trues))
		return json_true();
	if (is_one_of(v, falses))
		return json_false();
	const char *p = v;
	if (*p == '+' || *p == '-')
		p++;
	if (*p >= '0' && *p <= '9') {
		char *end;
		errno = 0;
		int base = (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) ? 16 : 10;
		long long i = strtoll(v, &end, base);
		if (*end == '\0' && errno == 0)
			return json_integer((json_int_t)i);
		if (strchr(v, '.') || (*end == '\0' && errno == ERANGE)) {
			double d = strtod(v, &end);
			if (*end == '\0' && isfinite(d)) /* 1.0e400: JSON has no infinity; kept as text */
				return json_real(d);
		}
	} else if (*p == '.' && p[1] >= '0' && p[1] <= '9') {
		char *end;
		double d = strtod(v, &end);
		if (*end == '\0' && isfinite(d))
			return json_real(d);
	}
	return json_stringn(v, len);
}

static json_t *typed_scalar(const char *v, size_t len, const char *tag, yaml_scalar_style_t style)
{
	if (tag && strncmp(tag, "tag:yaml.org,2002:", 18) == 0) {
		const char *t = tag + 18;
		if (strcmp(t, "str") == 0)
			return json_stringn(v, len);
		json_t *j = plain_scalar(v, len);
		return j;
	}
	if (style != YAML_PLAIN_SCALAR_STYLE || (tag && strcmp(tag, "!") == 0))
		return json_stringn(v, len);
	return plain_scalar(v, len);
}

static int remember_anchor(yreader *r, const char *anchor, json_t *v, size_t size)
{
	if (!anchor || !v)
		return 0;
	if (json_object_set(r->anchors, anchor, v) < 0 ||
	    json_object_set_new(r->anchor_sizes, anchor, json_integer((json_int_t)size)) < 0)
		return kw_error_set(r->err, KW_ENOMEM, NULL, "out of memory");
	return 0;
}

/* A value is complete: put it in its parent, or hand it to the callback.
 * Takes the reference to v; size is its expanded size. */
static int add_value(yreader *r, json_t *v, unsigned long line, size_t size)
{
	if (r->depth == 0) {         /* a scalar document */
		json_decref(v);
		return yerr(r, line, 0, "not a Tensile logic file: the top level is a scalar, expected a list");
	}
	yframe *f = &r->stack[r->depth - 1];
	int rc = 0;
	if (f->is_map && !f->key) {  /* cannot happen for scalars (handled by the caller) */
		json_decref(v);
		return yerr(r, line, 0, "mapping keys must be scalars");
	}
	if (f->root || f->stream) {
		kw_yaml_item it = { f->root ? f->key : NULL, f->n, f->stream, v, f->stream ? f->kline : line,
				    r->parser.mark.index };
		if (f->root && f->is_map)
			it.index = f->n;
		rc = r->cb(r->ud, &it, r->err);
		json_decref(v);
		r->alias_values = 0; /* the next item starts */
	} else if (f->is_map) {
		if (json_object_set_new(f->c, f->key, v) < 0)
			rc = kw_error_set(r->err, KW_ENOMEM, NULL, "out of memory");
	} else {
		if (json_array_append_new(f->c, v) < 0)
			rc = kw_error_set(r->err, KW_ENOMEM, NULL, "out of memory");
	}
	free(f->key);
	f->key = NULL;
	f->n++;
	f->size = size_add(f->size, size);
	return rc;
}

/* Is the collection starting now the solutions list? */
static int starts_solutions(const yreader *r)
{
	if (r->depth != 1)
		return 0;
	const yframe *f = &r->stack[0];
	if (f->is_map)
		return f->key && strcmp(f->key, "Solutions") == 0;
	return f->n == 5;
}

static int push(yreader *r, int is_map, const char *anchor, unsigned long line)
{
	if (r->depth > 0) {
		yframe *p = &r->stack[r->depth - 1];
		if (p->is_map && !p->key)
			return yerr(r, line, 0, "mapping keys must be scalars (a list or mapping is used as a key)");
	}
	if (r->depth == KW_YAML_MAX_DEPTH)
		return yerr(r, line, 0, "nesting deeper than 64 levels");
	int stream = !is_map && starts_solutions(r);
	if (r->depth > 0 && (r->stack[r->depth - 1].stream))
		r->stack[r->depth - 1].kline = line;
	yframe *f = &r->stack[r->depth];
	memset(f, 0, sizeof *f);
	f->is_map = is_map;
	f->line = line;
	f->root = r->depth == 0;
	f->stream = stream;
	if (!f->root && !f->stream) {
		f->c = is_map ? json_object() : json_array();
		if (!f->c)
			return kw_error_set(r->err, KW_ENOMEM, NULL, "out of memory");
	}
	if (anchor && !(f->anchor = strdup(anchor)))
		return kw_error_set(r->err, KW_ENOMEM, NULL, "out of memory");
	r->depth++;
	return 0;
}

/* YAML's merge key, as PyYAML (Tensile's reader) resolves it: the keys of
 * "<<: *m" (a mapping, or a list of them, earlier ones first) that the
 * mapping does not set itself are added, and "<<" goes. */
static int merge_keys(yreader *r, json_t *map, unsigned long line)
{
	json_t *m = json_object_get(map, "<<");
	if (!m)
		return 0;
	json_incref(m);
	json_object_del(map, "<<");
	size_t n = json_is_array(m) ? json_array_size(m) : 1;
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		json_t *src = json_is_array(m) ? json_array_get(m, i) : m;
		const char *k;
		json_t *v;
		if (!json_is_object(src)) {
			rc = yerr(r, line, 0, "the merge key << takes a mapping or a list of mappings");
			break;
		}
		json_object_foreach(src, k, v)
			if (!json_object_get(map, k) && json_object_set(map, k, v) < 0) {
				rc = kw_error_set(r->err, KW_ENOMEM, NULL, "out of memory");
				break;
			}
	}
	json_decref(m);
	return rc;
}

static int pop(yreader *r)
{
	yframe *f = &r->stack[--r->depth];
	json_t *c = f->c;
	char *anchor = f->anchor;
	int root = f->root, stream = f->stream, is_map = f->is_map;
	unsigned long line = f->line;
	size_t size = size_add(f->size, 1);
	free(f->key);
	f->c = NULL;
	f->key = NULL;
	f->anchor = NULL;
	int rc = 0;
	if (root) {
		free(anchor);
		return 0;
	}
	if (stream) {
		free(anchor);
		return add_value(r, json_array(), line, 1); /* the list itself: empty placeholder */
	}
	if (is_map)
		rc = merge_keys(r, c, line);
	if (rc == 0)
		rc = remember_anchor(r, anchor, c, size);
	free(anchor);
	if (rc < 0) {
		json_decref(c);
		return rc;
	}
	return add_value(r, c, line, size);
}

static void free_stack(yreader *r)
{
	while (r->depth > 0) {
		yframe *f = &r->stack[--r->depth];
		json_decref(f->c);
		free(f->key);
		free(f->anchor);
	}
}

static int on_scalar(yreader *r, const yaml_event_t *ev)
{
	const char *v = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	unsigned long line = ev->start_mark.line + 1;
	if (r->depth > 0) {
		yframe *f = &r->stack[r->depth - 1];
		if (f->is_map && !f->key) {
			if (memchr(v, '\0', len))
				return yerr(r, line, ev->start_mark.column + 1, "NUL byte in a mapping key");
			if (!(f->key = strdup(v)))
				return kw_error_set(r->err, KW_ENOMEM, NULL, "out of memory");
			f->kline = line;
			return 0;
		}
		if (f->stream)
			f->kline = line;
	}
	json_t *j = typed_scalar(v, len, (const char *)ev->data.scalar.tag, ev->data.scalar.style);
	if (!j)
		return yerr(r, line, ev->start_mark.column + 1, "scalar is not valid UTF-8");
	int rc = remember_anchor(r, (const char *)ev->data.scalar.anchor, j, 1);
	if (rc < 0) {
		json_decref(j);
		return rc;
	}
	return add_value(r, j, line, 1);
}

static int on_alias(yreader *r, const yaml_event_t *ev)
{
	unsigned long line = ev->start_mark.line + 1;
	const char *a = (const char *)ev->data.alias.anchor;
	json_t *v = json_object_get(r->anchors, a);
	if (!v) {
		char msg[200];
		snprintf(msg, sizeof msg, "alias *%.100s names no anchor (or an anchor on the streamed solutions list)", a);
		return yerr(r, line, ev->start_mark.column + 1, msg);
	}
	if (r->depth > 0) {
		yframe *f = &r->stack[r->depth - 1];
		if (f->is_map && !f->key) {
			if (!json_is_string(v))
				return yerr(r, line, 0, "mapping keys must be scalars (an alias to a collection is used as a key)");
			if (!(f->key = strdup(json_string_value(v))))
				return kw_error_set(r->err, KW_ENOMEM, NULL, "out of memory");
			return 0;
		}
		if (f->stream)
			f->kline = line;
	}
	size_t size = (size_t)json_integer_value(json_object_get(r->anchor_sizes, a));
	r->alias_values = size_add(r->alias_values, size);
	if (r->alias_values > KW_YAML_MAX_ALIAS_VALUES) {
		char msg[300];
		snprintf(msg, sizeof msg,
			 "alias *%.100s expands to %s%zu values, and aliases may add at most %d values to one item or "
			 "solution (nested anchors that expand exponentially are refused)",
			 a, size >= KW_SIZE_CAP ? "more than " : "", size, KW_YAML_MAX_ALIAS_VALUES);
		return yerr(r, line, ev->start_mark.column + 1, msg);
	}
	return add_value(r, json_incref(v), line, size);
}

static int read_handler(void *data, unsigned char *buffer, size_t size, size_t *size_read)
{
	FILE *f = data;
	*size_read = fread(buffer, 1, size, f);
	return !ferror(f);
}

int kw_yaml_logic_read(FILE *f, const char *name, kw_yaml_cb cb, void *ud, kw_error *err)
{
	yreader r;
	memset(&r, 0, sizeof r);
	r.name = name ? name : "<input>";
	r.cb = cb;
	r.ud = ud;
	r.err = err;
	if (!(r.anchors = json_object()) || !(r.anchor_sizes = json_object())) {
		json_decref(r.anchors);
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	}
	if (!yaml_parser_initialize(&r.parser)) {
		json_decref(r.anchors);
		json_decref(r.anchor_sizes);
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory (libyaml)");
	}
	yaml_parser_set_input(&r.parser, read_handler, f);
	int rc = 0, done = 0, docs = 0;
	while (!done && rc == 0) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&r.parser, &ev)) {
			if (ferror(f)) {
				rc = kw_error_set(err, KW_EIO, NULL, "%s: read error: %s", r.name, strerror(errno));
				break;
			}
			char msg[400];
			if (r.parser.context)
				snprintf(msg, sizeof msg, "malformed YAML: %s (%s at line %lu)",
					 r.parser.problem ? r.parser.problem : "syntax error", r.parser.context,
					 (unsigned long)r.parser.context_mark.line + 1);
			else
				snprintf(msg, sizeof msg, "malformed YAML: %s",
					 r.parser.problem ? r.parser.problem : "syntax error");
			rc = yerr(&r, (unsigned long)r.parser.problem_mark.line + 1,
				  (unsigned long)r.parser.problem_mark.column + 1, msg);
			break;
		}
		unsigned long line = ev.start_mark.line + 1;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1)
				rc = yerr(&r, line, 0, "more than one YAML document; a logic file holds one");
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT: {
			int is_map = ev.type == YAML_MAPPING_START_EVENT;
			const char *anchor = (const char *)(is_map ? ev.data.mapping_start.anchor
								     : ev.data.sequence_start.anchor);
			r.seen_root = 1;
			rc = push(&r, is_map, anchor, line);
			break;
		}
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			rc = pop(&r);
			break;
		case YAML_SCALAR_EVENT:
			r.seen_root = 1;
			rc = on_scalar(&r, &ev);
			break;
		case YAML_ALIAS_EVENT:
			rc = on_alias(&r, &ev);
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	if (rc == 0 && !r.seen_root)
		rc = yerr(&r, 1, 0, "empty file: expected a Tensile logic list");
	free_stack(&r);
	yaml_parser_delete(&r.parser);
	json_decref(r.anchors);
	json_decref(r.anchor_sizes);
	return rc;
}
