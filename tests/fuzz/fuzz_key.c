/*
 * fuzz_key.c - libFuzzer harness: request JSON -> kw_request_parse ->
 * canonical form and cache ids (config_id, key).
 *
 * Properties checked (abort() on violation, which libFuzzer reports):
 *   - the canonical text is compact JSON that jansson parses back to an
 *     object, and kw_request_ids hands back the same text;
 *   - config_id and key are 64 lower-case hex digits and differ;
 *   - parsing the same bytes a second time gives the same canonical text,
 *     config_id and key (the key is a pure function of the request);
 *   - when the canonical request is itself accepted as a request, its
 *     canonical form is the same text and its key the same key
 *     (canonicalisation is idempotent).  It may be rejected: the canonical
 *     form keeps only what the generators read, so e.g. a top-level
 *     "wavefront" that differs from kernel.WavefrontSize is dropped.
 *
 * Build and run: make fuzz (mk/fuzz.mk).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kwgen/error.h"
#include "kwgen/request.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct ids {
	char config_id[65];
	char key[65];
	char *canonical;
} ids;

static int is_hex64(const char *s)
{
	for (int i = 0; i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return s[64] == '\0';
}

/* Parse text as a request and compute its ids; 0 on success, 1 if the
 * request is rejected.  Aborts on a broken property. */
static int request_ids(ids *out, const char *text, size_t len, const kw_limits *lim)
{
	kw_error err = KW_ERROR_INIT;
	kw_request *r = NULL;
	json_t *root, *back;
	char *canon = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL); /* as kwgen and kwgend parse */
	if (!root)
		return 1;
	rc = kw_request_parse(&r, root, lim, &err);
	json_decref(root);
	if (rc) {
		if (r || err.code != rc || !err.message[0])
			abort();
		return 1;
	}
	if (kw_request_canonical(&canon, r, &err))
		abort();
	if (kw_request_ids(out->config_id, out->key, &out->canonical, r, &err))
		abort();
	kw_request_free(r);

	if (strcmp(canon, out->canonical) != 0)
		abort();
	free(canon);
	if (!is_hex64(out->config_id) || !is_hex64(out->key) || !strcmp(out->config_id, out->key))
		abort();
	back = json_loads(out->canonical, JSON_REJECT_DUPLICATES, NULL);
	if (!json_is_object(back))
		abort();
	json_decref(back);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const kw_limits lim = KW_LIMITS_INIT;
	ids a, b, c;

	if (request_ids(&a, (const char *)data, size, &lim))
		return 0;
	if (request_ids(&b, (const char *)data, size, &lim))
		abort();
	if (strcmp(a.canonical, b.canonical) || strcmp(a.config_id, b.config_id) || strcmp(a.key, b.key))
		abort();
	if (request_ids(&c, a.canonical, strlen(a.canonical), &lim) == 0 &&
	    (strcmp(a.canonical, c.canonical) || strcmp(a.key, c.key)))
		abort();
	free(a.canonical);
	free(b.canonical);
	free(c.canonical);
	return 0;
}
