/*
 * test_cache_look.c - looking into the cache file (kwgen/cache.h, "looking
 * into the file"): the stored source, list (most recent first, limit),
 * show, per-ISA groups, delete (and a second delete: not found), purge by
 * age in batches (more rows than one batch), the totals kept exact through
 * all of it, and a file made before the source column gaining it on open.
 * Run from tests/unit (make unit); files go to a fresh temp directory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kwgen/cache.h"

static char dir[64];
static char path[128];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/kwgen-test-look-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/c.db", dir);
	return 0;
}

static int teardown(void **state)
{
	char cmd[200];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void key_of(char out[65], int n)
{
	snprintf(out, 65, "%064x", n);
}

static void put(kw_cache *c, int n, const char *isa, const char *source)
{
	char key[65];
	kw_cache_entry e;
	kw_error err = KW_ERROR_INIT;

	key_of(key, n);
	memset(&e, 0, sizeof(e));
	e.key = key;
	e.config_id = key;
	e.generator_version = "v1";
	e.isa = isa;
	e.request = "{}";
	e.asm_text = "s_nop 0\n";
	e.tables = "[]";
	e.response = "{\"key\":\"k\",\"results\":[]}";
	e.source = source;
	assert_int_equal(kw_cache_put(c, &e, &err), 0);
}

static kw_cache *open_cache(void)
{
	kw_cache_options o = KW_CACHE_OPTIONS_INIT;
	kw_cache *c = NULL;
	kw_error err = KW_ERROR_INIT;

	o.checkpoint_ms = 0;
	assert_int_equal(kw_cache_open(&c, path, &o, &err), 0);
	return c;
}

/* Set last_access of key n to ms (ages rows without waiting). */
static void age(int n, int64_t ms)
{
	sqlite3 *db;
	char key[65], sql[256];

	key_of(key, n);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_busy_timeout(db, 5000);
	snprintf(sql, sizeof(sql), "UPDATE entries SET last_access = %lld WHERE key = '%s'", (long long)ms, key);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

typedef struct seen {
	int n;
	char keys[8][65];
	char sources[8][64];
	int full;
	int stop_after;
} seen;

static int collect(void *ud, const kw_cache_row *r)
{
	seen *s = ud;

	if (s->n < 8) {
		snprintf(s->keys[s->n], 65, "%s", r->key);
		snprintf(s->sources[s->n], 64, "%s", r->source);
	}
	s->full = r->response != NULL && r->request != NULL && r->asm_text != NULL && r->tables != NULL;
	s->n++;
	return s->stop_after && s->n >= s->stop_after;
}

static void test_source_list_show(void **state)
{
	kw_cache *c = open_cache();
	kw_error err = KW_ERROR_INIT;
	seen s;
	char key[65], *src = NULL;

	(void)state;
	put(c, 1, "gfx942", "{\"file\":\"a.yaml\",\"SolutionIndex\":1}");
	put(c, 2, "gfx90a", NULL);
	put(c, 3, "gfx942", "");
	age(1, 3000);
	age(2, 1000);
	age(3, 2000);
	key_of(key, 1);
	assert_int_equal(kw_cache_get_source(&src, c, key, &err), 0);
	assert_string_equal(src, "{\"file\":\"a.yaml\",\"SolutionIndex\":1}");
	free(src);
	key_of(key, 2);
	assert_int_equal(kw_cache_get_source(&src, c, key, &err), 0);
	assert_string_equal(src, "");
	free(src);
	key_of(key, 9);
	assert_int_equal(kw_cache_get_source(&src, c, key, &err), KW_ENOTFOUND);

	/* most recently used first; limit; stop early */
	memset(&s, 0, sizeof(s));
	assert_int_equal(kw_cache_list(c, 0, collect, &s, &err), 0);
	assert_int_equal(s.n, 3);
	key_of(key, 1);
	assert_string_equal(s.keys[0], key);
	key_of(key, 2);
	assert_string_equal(s.keys[2], key);
	assert_false(s.full);
	memset(&s, 0, sizeof(s));
	assert_int_equal(kw_cache_list(c, 2, collect, &s, &err), 0);
	assert_int_equal(s.n, 2);
	memset(&s, 0, sizeof(s));
	s.stop_after = 1;
	assert_int_equal(kw_cache_list(c, 0, collect, &s, &err), 0);
	assert_int_equal(s.n, 1);

	memset(&s, 0, sizeof(s));
	key_of(key, 1);
	assert_int_equal(kw_cache_show(c, key, collect, &s, &err), 0);
	assert_int_equal(s.n, 1);
	assert_true(s.full);
	assert_string_equal(s.sources[0], "{\"file\":\"a.yaml\",\"SolutionIndex\":1}");
	key_of(key, 9);
	memset(&s, 0, sizeof(s));
	assert_int_equal(kw_cache_show(c, key, collect, &s, &err), KW_ENOTFOUND);
	assert_int_equal(s.n, 0);
	assert_string_equal(err.field, "key");
	kw_cache_close(c);
}

typedef struct groups {
	int n;
	char isa[4][16];
	int64_t entries[4], oldest[4], newest[4];
} groups;

static int group(void *ud, const char *isa, int64_t entries, int64_t bytes, int64_t oldest, int64_t newest)
{
	groups *g = ud;

	assert_true(bytes > 0);
	snprintf(g->isa[g->n], 16, "%s", isa);
	g->entries[g->n] = entries;
	g->oldest[g->n] = oldest;
	g->newest[g->n] = newest;
	g->n++;
	return 0;
}

static void test_groups_delete(void **state)
{
	kw_cache *c = open_cache();
	kw_error err = KW_ERROR_INIT;
	kw_cache_stats st;
	groups g;
	char key[65];

	(void)state;
	put(c, 1, "gfx942", NULL);
	put(c, 2, "gfx90a", NULL);
	put(c, 3, "gfx942", NULL);
	age(1, 1000);
	age(3, 5000);
	memset(&g, 0, sizeof(g));
	assert_int_equal(kw_cache_groups(c, group, &g, &err), 0);
	assert_int_equal(g.n, 2);
	assert_string_equal(g.isa[0], "gfx90a");
	assert_string_equal(g.isa[1], "gfx942");
	assert_int_equal(g.entries[1], 2);
	assert_int_equal(g.oldest[1], 1000);
	assert_int_equal(g.newest[1], 5000);

	/* prefixes: one key, none, several, not a prefix */
	{
		char full[65];

		key_of(key, 3);
		assert_int_equal(kw_cache_resolve(full, c, key, &err), 0);
		assert_string_equal(full, key);
		assert_int_equal(kw_cache_resolve(full, c, "0000", &err), KW_EINVAL); /* keys 1, 2, 3 */
		assert_non_null(strstr(err.message, "more than one key"));
		assert_int_equal(kw_cache_resolve(full, c, "ffff", &err), KW_ENOTFOUND);
		assert_int_equal(kw_cache_resolve(full, c, "000", &err), KW_EINVAL);
		assert_int_equal(kw_cache_resolve(full, c, "00zz", &err), KW_EINVAL);
		key[63] = '\0'; /* 63 digits: still keys 1, 2 and 3 */
		assert_int_equal(kw_cache_resolve(full, c, key, &err), KW_EINVAL);
		key_of(key, 3);
	}
	key_of(key, 3);
	assert_int_equal(kw_cache_delete(c, key, &err), 0);
	assert_int_equal(kw_cache_delete(c, key, &err), KW_ENOTFOUND);
	assert_int_equal(kw_cache_stats_get(&st, c, &err), 0);
	assert_int_equal(st.entries, 2);
	kw_cache_close(c);
}

static void test_purge(void **state)
{
	kw_cache *c = open_cache();
	kw_error err = KW_ERROR_INIT;
	kw_cache_stats st;
	int64_t n = -1;
	sqlite3 *db;

	(void)state;
	for (int i = 0; i < 600; i++)
		put(c, i, "gfx942", NULL);
	/* rows 0..549 are old: more than two purge batches */
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_busy_timeout(db, 5000);
	assert_int_equal(sqlite3_exec(db, "UPDATE entries SET last_access = 1000 WHERE rowid <= 550", NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(kw_cache_purge(&n, c, 2000, &err), 0);
	assert_int_equal(n, 550);
	assert_int_equal(kw_cache_stats_get(&st, c, &err), 0);
	assert_int_equal(st.entries, 50);
	assert_int_equal(kw_cache_purge(&n, c, 2000, &err), 0);
	assert_int_equal(n, 0);
	assert_int_equal(kw_cache_purge(&n, c, INT64_MAX, &err), 0);
	assert_int_equal(n, 50);
	assert_int_equal(kw_cache_stats_get(&st, c, &err), 0);
	assert_int_equal(st.entries, 0);
	assert_int_equal(st.bytes, 0);
	kw_cache_close(c);
}

/* A file written before the source column: opening adds it, old rows
 * read "" and new rows keep theirs. */
static void test_old_file_gains_source(void **state)
{
	sqlite3 *db;
	kw_cache *c;
	kw_error err = KW_ERROR_INIT;
	char key[65], *src = NULL;

	(void)state;
	key_of(key, 7);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
				      "CREATE TABLE entries (key TEXT PRIMARY KEY NOT NULL, config_id TEXT NOT NULL,"
				      " generator_version TEXT NOT NULL, isa TEXT NOT NULL, request TEXT NOT NULL,"
				      " asm TEXT NOT NULL, tables TEXT NOT NULL, response TEXT NOT NULL,"
				      " bytes INTEGER NOT NULL, created INTEGER NOT NULL, last_access INTEGER NOT NULL);"
				      "INSERT INTO entries VALUES ('0000000000000000000000000000000000000000000000000000000000000007',"
				      " 'c', 'v1', 'gfx942', '{}', '', '[]', '{}', 4, 1, 1);",
				      NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	c = open_cache();
	assert_int_equal(kw_cache_get_source(&src, c, key, &err), 0);
	assert_string_equal(src, "");
	free(src);
	put(c, 8, "gfx942", "\"x.yaml#1\"");
	key_of(key, 8);
	assert_int_equal(kw_cache_get_source(&src, c, key, &err), 0);
	assert_string_equal(src, "\"x.yaml#1\"");
	free(src);
	kw_cache_close(c);
	/* and a second open leaves it alone */
	c = open_cache();
	kw_cache_close(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_source_list_show, setup, teardown),
		cmocka_unit_test_setup_teardown(test_groups_delete, setup, teardown),
		cmocka_unit_test_setup_teardown(test_purge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_old_file_gains_source, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
