/*
 * test_key.c - the canonical form and the request key (kwgen/request.h,
 * kw_request_ids): keys no generator reads do not change the key; a key a
 * generator reads does; key order, the ISA spelling, DataType spelling and
 * 1/true spelling do not; config_id is SHA-256 of the canonical text and the
 * key is salted by the generator version; the members remembered per
 * thread follow the request.
 * The base request is examples/gfx942-request.json (a corpus configuration).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kwgen/request.h"

#define EXAMPLE "../../examples/gfx942-request.json"

typedef struct ids {
	char config_id[65];
	char key[65];
	char *canonical;
} ids;

static json_t *load_example(void)
{
	json_error_t jerr;
	json_t *root = json_load_file(EXAMPLE, 0, &jerr);

	if (!root)
		fail_msg("%s: %s", EXAMPLE, jerr.text);
	return root;
}

/* Parse root and compute its ids; fails the test on any error. */
static void ids_of(ids *out, const json_t *root)
{
	kw_request *r = NULL;
	kw_error err = KW_ERROR_INIT;

	if (kw_request_parse(&r, root, NULL, &err) < 0)
		fail_msg("parse: %s (%s)", err.message, err.field);
	if (kw_request_ids(out->config_id, out->key, &out->canonical, r, &err) < 0)
		fail_msg("ids: %s", err.message);
	kw_request_free(r);
}

static void ids_free(ids *a)
{
	free(a->canonical);
	a->canonical = NULL;
}

static int is_hex64(const char *s)
{
	return strlen(s) == 64 && strspn(s, "0123456789abcdef") == 64;
}

static void test_shape_and_hashes(void **state)
{
	json_t *root = load_example(), *canon;
	ids a = { 0 }, b = { 0 };
	unsigned char d[32];
	unsigned int n = 0;
	char hex[65];

	(void)state;
	ids_of(&a, root);
	assert_true(is_hex64(a.key));
	assert_true(is_hex64(a.config_id));
	assert_string_not_equal(a.key, a.config_id); /* the key is salted */
	/* config_id = SHA-256(canonical) */
	assert_int_equal(EVP_Digest(a.canonical, strlen(a.canonical), d, &n, EVP_sha256(), NULL), 1);
	for (unsigned i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	assert_string_equal(hex, a.config_id);
	/* the canonical text is compact JSON with sorted keys */
	canon = json_loads(a.canonical, 0, NULL);
	assert_non_null(canon);
	char *again = json_dumps(canon, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(again, a.canonical);
	free(again);
	json_decref(canon);
	/* deterministic */
	ids_of(&b, root);
	assert_string_equal(a.key, b.key);
	assert_string_equal(a.canonical, b.canonical);
	ids_free(&a);
	ids_free(&b);
	json_decref(root);
}

static void test_unread_keys_ignored(void **state)
{
	json_t *root = load_example(), *other = json_deep_copy(root), *k;
	ids a = { 0 }, b = { 0 };

	(void)state;
	k = json_object_get(other, "kernel");
	json_object_set_new(k, "SolutionNameMin", json_string("Cijk_Ailk_Bjlk_BBS_BH_MT64x64"));
	json_object_set_new(k, "SolutionIndex", json_integer(4711));
	json_object_set_new(k, "LdsBlockSizePerPadA", json_integer(128));
	json_object_set_new(k, "CustomKernelName", json_string(""));
	json_object_set_new(k, "Kernel", json_true());
	json_object_set_new(k, "_UnusedNested", json_pack("{s:[i,i]}", "x", 1, 2));
	ids_of(&a, root);
	ids_of(&b, other);
	assert_string_equal(a.key, b.key);
	assert_string_equal(a.config_id, b.config_id);
	assert_null(strstr(b.canonical, "SolutionNameMin"));
	ids_free(&a);
	ids_free(&b);
	json_decref(root);
	json_decref(other);
}

static void test_read_key_changes_key(void **state)
{
	json_t *root = load_example(), *other = json_deep_copy(root);
	ids a = { 0 }, b = { 0 };

	(void)state;
	json_object_set_new(json_object_get(other, "kernel"), "MIWaveTile", json_pack("[i,i]", 2, 4));
	ids_of(&a, root);
	ids_of(&b, other);
	assert_string_not_equal(a.key, b.key);
	assert_string_not_equal(a.config_id, b.config_id);
	ids_free(&b);
	/* a generator argument is read too */
	json_decref(other);
	other = json_deep_copy(root);
	json_object_set_new(other, "generators",
			    json_pack("[{s:s,s:{s:i,s:i,s:i}}]", "name", "wait", "args", "skipLocalRead", 3,
				      "skipGlobalRead", -1, "skipLocalWrite", -1));
	ids_of(&b, other);
	json_t *other2 = json_deep_copy(other);
	json_object_set_new(json_object_get(json_array_get(json_object_get(other2, "generators"), 0),
					    "args"), "skipLocalRead", json_integer(4));
	ids c = { 0 };
	ids_of(&c, other2);
	assert_string_not_equal(b.key, c.key);
	ids_free(&a);
	ids_free(&b);
	ids_free(&c);
	json_decref(root);
	json_decref(other);
	json_decref(other2);
}

static void test_only_the_chosen_generators_count(void **state)
{
	json_t *root = load_example(), *a_req, *b_req;
	ids a = { 0 }, b = { 0 };

	(void)state;
	/* syncThreads reads NumThreads, WavefrontSize, ... but not MIWaveTile */
	json_object_set_new(root, "generators", json_pack("[{s:s}]", "name", "syncThreads"));
	a_req = json_deep_copy(root);
	b_req = json_deep_copy(root);
	json_object_set_new(json_object_get(b_req, "kernel"), "MIWaveTile", json_pack("[i,i]", 1, 1));
	ids_of(&a, a_req);
	ids_of(&b, b_req);
	assert_string_equal(a.key, b.key);
	ids_free(&a);
	ids_free(&b);
	json_decref(root);
	json_decref(a_req);
	json_decref(b_req);
}

static void test_spellings_normalised(void **state)
{
	json_t *root = load_example(), *other, *k;
	ids a = { 0 }, b = { 0 };
	const char *name;
	json_t *v;
	void *tmp;

	(void)state;
	ids_of(&a, root);

	/* keys in reverse order, the ISA as a triple */
	other = json_object();
	k = json_object();
	json_object_foreach_safe(json_object_get(root, "kernel"), tmp, name, v)
		json_object_set(k, name, v);
	json_object_set_new(other, "states", json_deep_copy(json_object_get(root, "states")));
	json_object_set_new(other, "tPB", json_deep_copy(json_object_get(root, "tPB")));
	json_object_set_new(other, "tPA", json_deep_copy(json_object_get(root, "tPA")));
	json_object_set_new(other, "kernel", k);
	json_object_set_new(other, "wavefront", json_integer(64));
	json_object_set_new(other, "isa", json_pack("[i,i,i]", 9, 4, 2));
	ids_of(&b, other);
	assert_string_equal(a.key, b.key);
	ids_free(&b);

	/* booleans as 1/0, DataType as its type char */
	json_object_set_new(k, "DirectToLdsA", json_integer(0));
	json_object_set_new(k, "BufferLoad", json_integer(1));
	json_object_set_new(json_object_get(k, "ProblemType"), "DataType", json_string("B"));
	ids_of(&b, other);
	assert_string_equal(a.key, b.key);
	ids_free(&a);
	ids_free(&b);
	json_decref(root);
	json_decref(other);
}

/*
 * The kernel's members of the canonical text (isa, caps, kernel, tPA, tPB,
 * states) and each generator call's text are remembered per thread and written again only when the fields
 * they come from change: requests that differ in one such field, computed
 * one after another and again in the reverse order, each keep their own
 * text, and each equals the text a thread that saw no request before
 * writes.
 */
#define N_VARIANTS 16

static json_t *variant(int i)
{
	json_t *root = load_example(), *k = json_object_get(root, "kernel");
	json_t *tpa = json_object_get(root, "tPA");

	switch (i) {
	case 1: json_object_set_new(k, "MIWaveTile", json_pack("[i,i]", 2, 4)); break;
	case 2: json_object_set_new(json_object_get(tpa, "localReadInstruction"), "blockWidth", json_real(0.5)); break;
	case 3: json_object_set_new(json_object_get(root, "states"), "numReadsPerIterA", json_integer(2)); break;
	case 4: json_object_set_new(root, "asmCaps", json_pack("{s:i}", "MaxVmcnt", 7)); break;
	case 5: json_object_set_new(root, "archCaps", json_pack("{s:b}", "Waitcnt0Disabled", 0)); break;
	case 6: json_object_set_new(tpa, "nwcv", json_integer(4)); break;
	case 7: json_object_set_new(root, "isa", json_string("gfx90a")); break;
	default: break;
	}
	if (i >= 8) {
		/* the generators member, one call's argument at a time */
		static const char *const gens[] = {
			"[{\"name\":\"wait\",\"args\":{\"skipGlobalRead\":0,\"skipLocalWrite\":0,\"skipLocalRead\":1,\"comment\":\"a\"}}]",
			"[{\"name\":\"wait\",\"args\":{\"skipGlobalRead\":0,\"skipLocalWrite\":0,\"skipLocalRead\":1,\"comment\":\"b\"}}]",
			"[{\"name\":\"wait\",\"args\":{\"skipGlobalRead\":0,\"skipLocalWrite\":0,\"skipLocalRead\":2,\"comment\":\"b\"}}]",
			"[{\"name\":\"syncThreads\",\"args\":{\"memoryToken\":[1,2]}}]",
			"[{\"name\":\"syncThreads\",\"args\":{\"memoryToken\":[1,3]}}]",
			"[{\"name\":\"syncThreads\",\"args\":{}},{\"name\":\"mapAcctoArchRegs\",\"args\":{\"write\":true}}]",
			"[{\"name\":\"mapAcctoArchRegs\",\"args\":{\"spilledVgprBase\":8}}]",
			"[{\"name\":\"mapAcctoArchRegs\",\"args\":{\"spilledVgprBase\":9}}]",
		};
		json_object_set_new(root, "generators", json_loads(gens[i - 8], 0, NULL));
	}
	return root;
}

static void *canonical_on_fresh_thread(void *arg)
{
	ids *a = arg;
	json_t *root = variant((int)(a->config_id[0] - '0'));

	ids_of(a, root);
	json_decref(root);
	return NULL;
}

static void test_remembered_members_follow_the_request(void **state)
{
	ids first[N_VARIANTS] = { { { 0 }, { 0 }, NULL } }, again;
	json_t *roots[N_VARIANTS];

	(void)state;
	for (int i = 0; i < N_VARIANTS; i++) {
		roots[i] = variant(i);
		ids_of(&first[i], roots[i]);
	}
	for (int i = 0; i < N_VARIANTS; i++)
		for (int j = 0; j < i; j++)
			assert_string_not_equal(first[i].canonical, first[j].canonical);
	for (int i = N_VARIANTS - 1; i >= 0; i--) {
		ids_of(&again, roots[i]);
		assert_string_equal(again.canonical, first[i].canonical);
		ids_free(&again);
		ids_of(&again, roots[0]); /* back to the base between variants */
		assert_string_equal(again.canonical, first[0].canonical);
		ids_free(&again);
	}
	for (int i = 0; i < N_VARIANTS; i++) {
		pthread_t t;
		ids fresh = { { 0 }, { 0 }, NULL };

		fresh.config_id[0] = (char)('0' + i);
		assert_int_equal(pthread_create(&t, NULL, canonical_on_fresh_thread, &fresh), 0);
		assert_int_equal(pthread_join(t, NULL), 0);
		assert_string_equal(fresh.canonical, first[i].canonical);
		assert_string_equal(fresh.key, first[i].key);
		ids_free(&fresh);
	}
	/* the changed fields are in the text */
	assert_non_null(strstr(first[1].canonical, "\"MIWaveTile\":[2,4]"));
	assert_non_null(strstr(first[2].canonical, "\"blockWidth\":0.5"));
	assert_non_null(strstr(first[3].canonical, "\"numReadsPerIterA\":2"));
	assert_non_null(strstr(first[4].canonical, "\"MaxVmcnt\":7"));
	assert_non_null(strstr(first[5].canonical, "\"Waitcnt0Disabled\":0"));
	assert_non_null(strstr(first[6].canonical, "\"nwcv\":4"));
	assert_non_null(strstr(first[7].canonical, "\"isa\":[9,0,10]"));
	assert_non_null(strstr(first[9].canonical, "\"comment\":\"b\""));
	assert_non_null(strstr(first[12].canonical, "\"memoryToken\":[1,3]"));
	assert_non_null(strstr(first[15].canonical, "\"spilledVgprBase\":9"));
	for (int i = 0; i < N_VARIANTS; i++) {
		ids_free(&first[i]);
		json_decref(roots[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shape_and_hashes),
		cmocka_unit_test(test_unread_keys_ignored),
		cmocka_unit_test(test_read_key_changes_key),
		cmocka_unit_test(test_only_the_chosen_generators_count),
		cmocka_unit_test(test_spellings_normalised),
		cmocka_unit_test(test_remembered_members_follow_the_request),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
