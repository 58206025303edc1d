/*
 * lib/logic/solution.c - one Tensile solution's YAML text -> one kwgen
 * request (kwgend's POST /v1/kernels with Content-Type: application/yaml),
 * and the generator lists `kwgen logic --generators` and ?generators= take.
 *
 * The text goes through the logic-file reader (yaml.c), so a pasted
 * solution is typed, bounded and derived exactly as `kwgen logic` treats
 * the same solution inside its file.
 */
#define _GNU_SOURCE /* fmemopen */
#include <stdio.h>
#include <string.h>

#include "logic/logic.h"

typedef struct one {
	const char *name;
	json_t *map;      /* the solution: the top-level mapping, rebuilt */
	json_t *item;     /* the list's only element */
	size_t items;     /* top-level list elements */
	size_t solutions; /* solutions of a logic file's solutions list */
} one;

static int on_item(void *ud, const kw_yaml_item *it, kw_error *err)
{
	one *o = ud;

	if (it->solution) {
		o->solutions++;
		return 0;
	}
	if (it->key) { /* the top level is a mapping: one of the solution's keys */
		if (json_object_set(o->map, it->key, (json_t *)it->value) < 0)
			return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
		return 0;
	}
	if (++o->items == 1)
		o->item = json_incref((json_t *)it->value);
	return 0;
}

/* "source": {"SolutionIndex", "SolutionNameMin" (else "KernelNameMin")},
 * those the solution has; none when it has neither.  0, or -1 out of memory. */
static int add_source(json_t *req, const json_t *sol)
{
	const json_t *idx = json_object_get(sol, "SolutionIndex");
	const json_t *nm = json_object_get(sol, "SolutionNameMin");
	json_t *src = json_object();

	if (!src)
		return -1;
	if (!json_is_string(nm) || !json_string_length(nm))
		nm = json_object_get(sol, "KernelNameMin");
	if (json_is_integer(idx) && json_integer_value(idx) >= 0 && json_integer_value(idx) <= 2147483647 &&
	    json_object_set(src, "SolutionIndex", (json_t *)idx) < 0)
		goto oom;
	if (json_is_string(nm) && json_string_length(nm) && json_string_length(nm) <= 1024 &&
	    json_object_set(src, nm == json_object_get(sol, "KernelNameMin") ? "KernelNameMin" : "SolutionNameMin",
			    (json_t *)nm) < 0)
		goto oom;
	if (!json_object_size(src)) {
		json_decref(src);
		return 0;
	}
	return json_object_set_new(req, "source", src);
oom:
	json_decref(src);
	return -1;
}

int kw_logic_solution(json_t **out, const char *yaml, size_t len, const char *name, const kw_logic_ctx *ctx,
		      kw_error *err)
{
	one o = { name ? name : "<input>", NULL, NULL, 0, 0 };
	const json_t *sol;
	FILE *f;
	int rc;

	if (!yaml || len == 0)
		return kw_error_set(err, KW_ESYNTAX, NULL, "%s: empty: expected one Tensile solution (a YAML mapping)",
				    o.name);
	if (!(o.map = json_object()))
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	if (!(f = fmemopen((void *)yaml, len, "r"))) {
		json_decref(o.map);
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory (fmemopen)");
	}
	rc = kw_yaml_logic_read(f, o.name, on_item, &o, err);
	fclose(f);
	if (rc < 0)
		goto done;
	if (o.solutions) {
		rc = kw_error_set(err, KW_ESYNTAX, NULL,
				  "%s: a logic file with %zu solution%s: post one solution (its mapping), or import the "
				  "file with `kwgen logic --server`", o.name, o.solutions, o.solutions == 1 ? "" : "s");
		goto done;
	}
	if (o.items > 1) {
		rc = kw_error_set(err, KW_ESYNTAX, NULL, "%s: a list of %zu items: post one solution (a mapping)",
				  o.name, o.items);
		goto done;
	}
	sol = o.items ? o.item : o.map;
	/* the first solution of a file copied with its list's dash ("- - Key: ...") */
	for (int depth = 0; depth < 2 && json_is_array(sol) && json_array_size(sol) == 1; depth++)
		sol = json_array_get(sol, 0);
	if (!json_is_object(sol) || json_object_size(sol) == 0) {
		rc = kw_error_set(err, KW_ESYNTAX, NULL,
				  "%s: expected one Tensile solution (a mapping of solution keys such as MatrixInstM, "
				  "MIWaveTile, NumThreads)", o.name);
		goto done;
	}
	if ((rc = kw_logic_request(out, sol, ctx, err)) == 0 && add_source(*out, sol) < 0) {
		json_decref(*out);
		*out = NULL;
		rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	}
done:
	json_decref(o.map);
	json_decref(o.item);
	return rc;
}

int kw_logic_generators(json_t **out, const char *list, kw_error *err)
{
	json_t *a;

	if (!list || !*list)
		return kw_error_set(err, KW_ESYNTAX, "generators", "an empty generator list");
	if (list[0] == '[') {
		json_error_t je;

		a = json_loads(list, JSON_REJECT_DUPLICATES, &je);
		if (!json_is_array(a) || !json_array_size(a)) {
			json_decref(a);
			return kw_error_set(err, KW_ESYNTAX, "generators",
					    "the generator list must be names separated by commas or a non-empty JSON "
					    "array of {\"name\", \"args\"}%s%s", a ? "" : ": ", a ? "" : je.text);
		}
		*out = a;
		return 0;
	}
	if (!(a = json_array()))
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	for (const char *p = list; *p;) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (n > 0 && json_array_append_new(a, json_pack("{s:s%}", "name", p, n)) < 0) {
			json_decref(a);
			return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
		}
		p += n + (e ? 1 : 0);
	}
	if (!json_array_size(a)) {
		json_decref(a);
		return kw_error_set(err, KW_ESYNTAX, "generators", "an empty generator list");
	}
	*out = a;
	return 0;
}
