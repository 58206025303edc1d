/*
 * read.c - every read of the store (kwgen/cache.h): a hit, the counters,
 * the integrity check, and looking into the file (kwgen cache, DELETE
 * /v1/kernels/{key}).
 */
#include "store/store.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int kw_cache_get(char **out, size_t *out_len, kw_cache *c, const char *key, kw_error *err)
{
	kw_cache_conn *k;
	sqlite3_stmt *st;
	char *text = NULL;
	size_t len = 0;
	int rc;

	if ((rc = store_conn_get(&k, c, err)) < 0)
		return rc;
	st = k->st[ST_GET];
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		len = (size_t)sqlite3_column_bytes(st, 0);
		text = malloc(len + 1);
		if (text) {
			memcpy(text, sqlite3_column_text(st, 0), len);
			text[len] = '\0';
		}
		rc = text ? 0 : kw_error_set(err, KW_ENOMEM, NULL, "cache: out of memory");
	} else if (rc == SQLITE_DONE) {
		rc = kw_error_set(err, KW_ENOTFOUND, "key", "no entry for key %s", key);
	} else {
		rc = store_db_error(err, c, k->db, "reading");
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	store_conn_put(c, k);
	if (rc == 0) {
		store_recent_touch(c, key, store_now_ms());
		atomic_fetch_add(&c->hits, 1);
		*out = text;
		if (out_len)
			*out_len = len;
	} else if (rc == KW_ENOTFOUND) {
		atomic_fetch_add(&c->misses, 1);
	}
	return rc;
}

int kw_cache_stats_get(kw_cache_stats *out, kw_cache *c, kw_error *err)
{
	kw_cache_conn *k;
	int rc;

	memset(out, 0, sizeof(*out));
	out->hits = atomic_load(&c->hits);
	out->misses = atomic_load(&c->misses);
	out->inserts = atomic_load(&c->inserts);
	out->evictions = atomic_load(&c->evictions);
	out->checkpoints = atomic_load(&c->checkpoints);
	out->groups = atomic_load(&c->groups);
	out->recency_flushes = atomic_load(&c->recency_flushes);
	out->db_file_bytes = store_file_size(c->path, "");
	out->wal_bytes = store_file_size(c->path, "-wal");
	out->shm_bytes = store_file_size(c->path, "-shm");
	out->read_only = c->read_only != NULL;
	if ((rc = store_conn_get(&k, c, err)) < 0)
		return rc;
	rc = store_totals(k, &out->entries, &out->bytes) < 0 ? store_db_error(err, c, k->db, "reading totals") : 0;
	store_conn_put(c, k);
	return rc;
}

int kw_cache_integrity(char **out, kw_cache *c, kw_error *err)
{
	kw_cache_conn *k;
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = store_conn_get(&k, c, err)) < 0)
		return rc;
	if (sqlite3_prepare_v2(k->db, "PRAGMA integrity_check(1)", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		rc = store_db_error(err, c, k->db, "integrity_check");
	} else {
		const char *t = (const char *)sqlite3_column_text(st, 0);

		*out = strdup(t ? t : "");
		rc = *out ? 0 : kw_error_set(err, KW_ENOMEM, NULL, "cache: out of memory");
	}
	sqlite3_finalize(st);
	store_conn_put(c, k);
	return rc;
}

int kw_cache_get_source(char **out, kw_cache *c, const char *key, kw_error *err)
{
	kw_cache_conn *k;
	sqlite3_stmt *st;
	int rc;

	if ((rc = store_conn_get(&k, c, err)) < 0)
		return rc;
	st = k->st[ST_SOURCE];
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);

		*out = strdup(t ? t : "");
		rc = *out ? 0 : kw_error_set(err, KW_ENOMEM, NULL, "cache: out of memory");
	} else if (rc == SQLITE_DONE) {
		rc = kw_error_set(err, KW_ENOTFOUND, "key", "no entry for key %s", key);
	} else {
		rc = store_db_error(err, c, k->db, "reading");
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	store_conn_put(c, k);
	return rc;
}

int kw_cache_is_verification(kw_cache *c, const char *key, kw_error *err)
{
	kw_cache_conn *k;
	sqlite3_stmt *st;
	int rc;

	if ((rc = store_conn_get(&k, c, err)) < 0)
		return rc;
	st = k->st[ST_KIND];
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		rc = sqlite3_column_int(st, 0) ? 1 : 0;
	else if (rc == SQLITE_DONE)
		rc = kw_error_set(err, KW_ENOTFOUND, "key", "no entry for key %s", key);
	else
		rc = store_db_error(err, c, k->db, "reading");
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	store_conn_put(c, k);
	return rc;
}

/* Column i of st as text, "" for NULL. */
static const char *col(sqlite3_stmt *st, int i)
{
	const char *t = (const char *)sqlite3_column_text(st, i);

	return t ? t : "";
}

/* Run the row query q (bound by bind, may be NULL) and hand each row to
 * cb; full = the query also selects request, asm, tables, response. */
static int rows(kw_cache *c, const char *q, const char *key, int64_t n, int full, kw_cache_row_cb cb, void *ud,
		int *found, kw_error *err)
{
	kw_cache_conn *k;
	sqlite3_stmt *st = NULL;
	int rc;

	*found = 0;
	if ((rc = store_conn_get(&k, c, err)) < 0)
		return rc;
	if (sqlite3_prepare_v2(k->db, q, -1, &st, NULL) != SQLITE_OK) {
		rc = store_db_error(err, c, k->db, "preparing a query");
		goto out;
	}
	if (key)
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	else
		sqlite3_bind_int64(st, 1, n);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		kw_cache_row r;

		memset(&r, 0, sizeof(r));
		r.key = col(st, 0);
		r.config_id = col(st, 1);
		r.generator_version = col(st, 2);
		r.isa = col(st, 3);
		r.bytes = sqlite3_column_int64(st, 4);
		r.created = sqlite3_column_int64(st, 5);
		r.last_access = sqlite3_column_int64(st, 6);
		r.source = col(st, 7);
		r.verification = sqlite3_column_int(st, 8);
		if (full) {
			r.request = col(st, 9);
			r.asm_text = col(st, 10);
			r.tables = col(st, 11);
			r.response = col(st, 12);
		}
		(*found)++;
		if (cb(ud, &r) != 0)
			break;
	}
	rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : store_db_error(err, c, k->db, "reading");
out:
	sqlite3_finalize(st);
	store_conn_put(c, k);
	return rc;
}

#define KW_ROW_COLS "key, config_id, generator_version, isa, bytes, created, last_access, source, " KW_KIND_SQL

int kw_cache_list(kw_cache *c, int64_t limit, kw_cache_row_cb cb, void *ud, kw_error *err)
{
	int found;

	return rows(c, "SELECT " KW_ROW_COLS " FROM entries ORDER BY last_access DESC LIMIT ?1", NULL,
		    limit > 0 ? limit : -1, 0, cb, ud, &found, err);
}

int kw_cache_show(kw_cache *c, const char *key, kw_cache_row_cb cb, void *ud, kw_error *err)
{
	int found, rc;

	rc = rows(c, "SELECT " KW_ROW_COLS ", request, asm, tables, response FROM entries WHERE key = ?1", key, 0, 1,
		  cb, ud, &found, err);
	if (rc == 0 && !found)
		rc = kw_error_set(err, KW_ENOTFOUND, "key", "no entry for key %s", key);
	return rc;
}

int kw_cache_groups(kw_cache *c, kw_cache_group_cb cb, void *ud, kw_error *err)
{
	kw_cache_conn *k;
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = store_conn_get(&k, c, err)) < 0)
		return rc;
	if (sqlite3_prepare_v2(k->db,
			       "SELECT isa, count(*), total(bytes), min(last_access), max(last_access)"
			       " FROM entries GROUP BY isa ORDER BY isa", -1, &st, NULL) != SQLITE_OK) {
		rc = store_db_error(err, c, k->db, "preparing a query");
		goto out;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (cb(ud, col(st, 0), sqlite3_column_int64(st, 1), (int64_t)sqlite3_column_double(st, 2),
		       sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4)) != 0)
			break;
	rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : store_db_error(err, c, k->db, "reading");
out:
	sqlite3_finalize(st);
	store_conn_put(c, k);
	return rc;
}

int kw_cache_resolve(char out[65], kw_cache *c, const char *prefix, kw_error *err)
{
	kw_cache_conn *k;
	sqlite3_stmt *st = NULL;
	char hi[66];
	size_t n = strlen(prefix);
	int rc, found = 0;

	if (n < 4 || n > 64 || strspn(prefix, "0123456789abcdef") != n)
		return kw_error_set(err, KW_EINVAL, "key", "\"%s\" is not a key or a key prefix (4..64 lower-case hex digits)",
				    prefix);
	/* keys from prefix up to (not including) prefix + "g": a range on the
	 * primary key's index */
	snprintf(hi, sizeof(hi), "%sg", prefix);
	if ((rc = store_conn_get(&k, c, err)) < 0)
		return rc;
	if (sqlite3_prepare_v2(k->db, "SELECT key FROM entries WHERE key >= ?1 AND key < ?2 ORDER BY key LIMIT 2", -1,
			       &st, NULL) != SQLITE_OK) {
		rc = store_db_error(err, c, k->db, "preparing a query");
		goto out;
	}
	sqlite3_bind_text(st, 1, prefix, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, hi, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (found++ == 0)
			snprintf(out, 65, "%s", col(st, 0));
	if (rc != SQLITE_DONE)
		rc = store_db_error(err, c, k->db, "reading");
	else if (found == 0)
		rc = kw_error_set(err, KW_ENOTFOUND, "key", "no entry for key %s", prefix);
	else if (found > 1)
		rc = kw_error_set(err, KW_EINVAL, "key", "%s is the start of more than one key; give more digits", prefix);
	else
		rc = 0;
out:
	sqlite3_finalize(st);
	store_conn_put(c, k);
	return rc;
}
