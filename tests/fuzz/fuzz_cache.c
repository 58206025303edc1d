/*
 * fuzz_cache.c - libFuzzer harness: the SQLite cache's key and row paths
 * (lib/store) on a real file, bounded to 64 KiB so rows are evicted.
 *
 * The input is split at NUL bytes into up to eight fields: key, config_id,
 * isa, request, asm, tables, response, source (missing fields are "").
 * The key is used as given (any bytes up to the first NUL, hex or not) for
 * kw_cache_get / kw_cache_show / kw_cache_get_source / kw_cache_delete;
 * the row is then stored under it with kw_cache_put and read back by every
 * path, listed, grouped, deleted and looked up again.
 *
 * Properties (abort() on violation): a stored row reads back byte for byte
 * (response by get, every text by show, source by get_source) and is listed;
 * after the delete the key is not found; stats stay consistent (entries >=
 * 0, bytes <= the bound unless one row is larger than it); no call returns
 * anything but 0, KW_ENOTFOUND or (put of an oversized row) KW_EIO; an
 * integrity check of the file says "ok" every 256 inputs.
 *
 * Build and run: make fuzz (mk/fuzz.mk).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kwgen/cache.h"
#include "kwgen/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static kw_cache *C;
static char db_path[64];

static void cleanup(void)
{
	char p[80];

	kw_cache_close(C);
	unlink(db_path);
	snprintf(p, sizeof(p), "%s-wal", db_path);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", db_path);
	unlink(p);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	kw_cache_options opt = KW_CACHE_OPTIONS_INIT;
	kw_error e = KW_ERROR_INIT;
	int fd;

	(void)argc;
	(void)argv;
	snprintf(db_path, sizeof(db_path), "/tmp/kwgen-fuzz-cache-XXXXXX");
	if ((fd = mkstemp(db_path)) < 0)
		abort();
	close(fd);
	unlink(db_path);
	opt.max_bytes = 64 << 10;
	opt.checkpoint_ms = 0;
	if (kw_cache_open(&C, db_path, &opt, &e) < 0)
		abort();
	atexit(cleanup);
	return 0;
}

typedef struct seen {
	const char *key;
	const char *want[4]; /* request, asm, tables, response */
	const char *source;
	int found;
} seen;

static int on_show(void *ud, const kw_cache_row *row)
{
	seen *s = ud;
	const char *got[4] = { row->request, row->asm_text, row->tables, row->response };

	if (strcmp(row->key, s->key) != 0)
		abort();
	for (int i = 0; i < 4; i++)
		if (!got[i] || strcmp(got[i], s->want[i]) != 0)
			abort();
	if (strcmp(row->source ? row->source : "", s->source) != 0)
		abort();
	s->found++;
	return 0;
}

static int on_list(void *ud, const kw_cache_row *row)
{
	seen *s = ud;

	if (row->request || row->response)
		abort(); /* kw_cache_list hands over no texts */
	if (strcmp(row->key, s->key) == 0)
		s->found++;
	return 0;
}

static int on_group(void *ud, const char *isa, int64_t entries, int64_t bytes, int64_t oldest, int64_t newest)
{
	(void)ud;
	if (!isa || entries <= 0 || bytes < 0 || oldest > newest)
		abort();
	return 0;
}

static void expect(int rc, int a, int b)
{
	if (rc != a && rc != b)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned long runs;
	kw_error e = KW_ERROR_INIT;
	char *buf, *f[8], *out = NULL, *integrity = NULL;
	size_t nf = 0, len = 0;
	kw_cache_stats st;
	seen s;
	int rc;

	if (!(buf = malloc(size + 1)))
		abort();
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (char *p = buf; nf < 8; nf++) {
		f[nf] = p;
		p += strlen(p);
		if (p >= buf + size) {
			nf++;
			break;
		}
		p++;
	}
	for (size_t i = nf; i < 8; i++)
		f[i] = buf + size; /* "" */

	/* the key paths, before the row exists */
	expect(kw_cache_get(&out, &len, C, f[0], &e), 0, KW_ENOTFOUND);
	free(out);
	out = NULL;
	expect(kw_cache_get_source(&out, C, f[0], &e), 0, KW_ENOTFOUND);
	free(out);
	out = NULL;
	expect(kw_cache_delete(C, f[0], &e), 0, KW_ENOTFOUND);

	/* the row path */
	kw_cache_entry ent = { f[0], f[1], "kwgen-generators-fuzz", f[2], f[3], f[4], f[5], f[6], f[7] };
	rc = kw_cache_put(C, &ent, &e);
	expect(rc, 0, 0);
	memset(&s, 0, sizeof(s));
	s.key = f[0];
	s.want[0] = f[3];
	s.want[1] = f[4];
	s.want[2] = f[5];
	s.want[3] = f[6];
	s.source = f[7];
	if (kw_cache_get(&out, &len, C, f[0], &e) != 0 || len != strlen(f[6]) || strcmp(out, f[6]) != 0)
		abort();
	free(out);
	out = NULL;
	if (kw_cache_get_source(&out, C, f[0], &e) != 0 || strcmp(out, f[7]) != 0)
		abort();
	free(out);
	out = NULL;
	if (kw_cache_show(C, f[0], on_show, &s, &e) != 0 || s.found != 1)
		abort();
	s.found = 0;
	if (kw_cache_list(C, 0, on_list, &s, &e) != 0 || s.found != 1)
		abort();
	if (kw_cache_groups(C, on_group, NULL, &e) != 0)
		abort();
	if (kw_cache_stats_get(&st, C, &e) != 0 || st.entries < 1 || st.bytes < 0)
		abort();
	if (st.entries > 1 && st.bytes > (64 << 10))
		abort(); /* over the bound with more than the newest row */
	if (kw_cache_delete(C, f[0], &e) != 0)
		abort();
	if (kw_cache_get(&out, &len, C, f[0], &e) != KW_ENOTFOUND)
		abort();
	free(out);
	out = NULL;
	if (++runs % 256 == 0) {
		int64_t n = 0;

		if (kw_cache_integrity(&integrity, C, &e) != 0 || strcmp(integrity, "ok") != 0)
			abort();
		free(integrity);
		if (kw_cache_purge(&n, C, INT64_MAX, &e) != 0)
			abort();
	}
	free(buf);
	return 0;
}
