/*
 * answer.c - the texts of a generated answer (kernels.c's misses): the
 * answer as the client gets it ("cached": false), the stored row
 * ("cached": true), the row's tables column and its asm column.  Every
 * value is written by jansson; texts that are the same on every miss (the
 * member names, the "cached" tails, small integers) are written once, and a
 * long string a worker wrote for an earlier answer is not written again
 * (see put_value).
 */
#include "answer.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "kwgen/buf.h"
#include "reply.h"

/* Every result's asm, concatenated in order (results without asm add
 * nothing).  malloc()ed; NULL when out of memory. */
char *kw_answer_concat_asm(const json_t *results)
{
	size_t i, total = 0, at = 0;
	json_t *res;
	char *text;

	json_array_foreach(results, i, res)
		total += json_string_length(json_object_get(res, "asm"));
	if (!(text = malloc(total + 1)))
		return NULL;
	json_array_foreach(results, i, res) {
		json_t *a = json_object_get(res, "asm");
		size_t n = json_string_length(a);

		if (n)
			memcpy(text + at, json_string_value(a), n);
		at += n;
	}
	text[at] = '\0';
	return text;
}

/*
 * Texts jansson writes the same on every miss, written once (answer_once):
 * the member names of an answer and of its results as `"name"`, and the
 * tails `"cached":false` and `"cached":true`.  A name not in the table is
 * written when it comes (put_name).
 */
static const char *const answer_names[] = {
	"key", "config_id", "generator_version", "isa", "results", "name", "args", "asm", "type",
	"acc2arch", "arch2acc", "value", "diagnostics",
};
#define N_ANSWER_NAMES (sizeof(answer_names) / sizeof(answer_names[0]))
static char *answer_name_text[N_ANSWER_NAMES];
static char *cached_text[2];
static pthread_once_t answer_once_ctl = PTHREAD_ONCE_INIT;

/* The integers 0 .. N_INT_TEXTS - 1 as jansson writes them (the maps'
 * elements), one after another in int_texts; integer i is int_len[i] bytes
 * at int_at[i].  NULL when out of memory (each integer is then dumped). */
#define N_INT_TEXTS 1024
static char *int_texts;
static unsigned short int_at[N_INT_TEXTS];
static unsigned char int_len[N_INT_TEXTS];

/* Each worker's last few long strings (at least STR_MEMO_MIN bytes, at
 * most STR_MEMO_MAX) and their JSON text as jansson wrote it: an answer
 * whose asm is byte for byte one of them takes that text instead of
 * having jansson write it again (per character).  Freed when the thread
 * exits. */
#define STR_MEMO_SLOTS 4
#define STR_MEMO_MIN 256
#define STR_MEMO_MAX (16 << 10)
typedef struct str_memo {
	struct {
		char *src, *json;
		size_t n, jn;
	} slot[STR_MEMO_SLOTS];
	unsigned next;
} str_memo;
static pthread_key_t str_memo_key;
static int have_str_memo_key;

static void str_memo_free(void *arg)
{
	str_memo *m = arg;

	for (int i = 0; i < STR_MEMO_SLOTS; i++) {
		free(m->slot[i].src);
		free(m->slot[i].json);
	}
	free(m);
}

/* jansson's dump callback: append to a kw_buf. */
static int to_buf(const char *text, size_t size, void *data)
{
	return kw_buf_put(data, text, size) == 0 ? 0 : -1;
}

static void int_table_once(void)
{
	kw_buf b = KW_BUF_INIT;

	for (int i = 0; i < N_INT_TEXTS && !b.oom; i++) {
		json_t *n = json_integer(i);
		size_t at = b.len;

		if (!n || json_dump_callback(n, to_buf, &b, JSON_COMPACT | JSON_ENCODE_ANY) != 0)
			b.oom = 1;
		json_decref(n);
		int_at[i] = (unsigned short)at;
		int_len[i] = (unsigned char)(b.len - at);
	}
	if (b.oom || b.len > 0xffff)
		kw_buf_free(&b);
	else
		int_texts = kw_buf_detach(&b);
}

static void answer_once(void)
{
	for (size_t i = 0; i < N_ANSWER_NAMES; i++) {
		json_t *k = json_string(answer_names[i]);

		answer_name_text[i] = k ? json_dumps(k, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
		json_decref(k);
	}
	for (int flag = 0; flag < 2; flag++) {
		json_t *tail = json_pack("{s:b}", "cached", flag);

		cached_text[flag] = tail ? json_dumps(tail, JSON_COMPACT | JSON_EMBED) : NULL;
		json_decref(tail);
	}
	int_table_once();
	have_str_memo_key = pthread_key_create(&str_memo_key, str_memo_free) == 0;
}

/* "{" members "," "cached":flag "}" - malloc()ed, or NULL. */
static char *with_cached(const char *members, int flag)
{
	const char *cached;
	size_t a = strlen(members), b;
	char *text;

	pthread_once(&answer_once_ctl, answer_once);
	if (!(cached = cached_text[flag != 0]))
		return NULL;
	b = strlen(cached);
	if ((text = malloc(a + b + 4))) {
		text[0] = '{';
		memcpy(text + 1, members, a);
		text[1 + a] = ',';
		memcpy(text + 2 + a, cached, b);
		text[2 + a + b] = '}';
		text[3 + a + b] = '\0';
	}
	return text;
}

/* v's compact JSON text appended to b (jansson writes it). */
static void put_json(kw_buf *b, const json_t *v)
{
	if (json_dump_callback(v, to_buf, b, JSON_COMPACT | JSON_ENCODE_ANY) != 0)
		b->oom = 1;
}

/* A long string v: its text from this thread's memo when an earlier
 * answer had the same bytes, else written by jansson and remembered. */
static void put_long_string(kw_buf *b, const json_t *v)
{
	const char *s = json_string_value(v);
	size_t n = json_string_length(v), at = b->len;
	str_memo *m = have_str_memo_key ? pthread_getspecific(str_memo_key) : NULL;

	if (m) {
		for (int i = 0; i < STR_MEMO_SLOTS; i++)
			if (m->slot[i].src && m->slot[i].n == n && memcmp(m->slot[i].src, s, n) == 0) {
				kw_buf_put(b, m->slot[i].json, m->slot[i].jn);
				return;
			}
	} else if (have_str_memo_key && (m = calloc(1, sizeof(*m))) && pthread_setspecific(str_memo_key, m) != 0) {
		free(m);
		m = NULL;
	}
	put_json(b, v);
	if (m && !b->oom) {
		unsigned i = m->next++ % STR_MEMO_SLOTS;
		char *src = malloc(n), *json = malloc(b->len - at);

		free(m->slot[i].src);
		free(m->slot[i].json);
		m->slot[i].src = m->slot[i].json = NULL;
		if (src && json) {
			memcpy(src, s, n);
			memcpy(json, b->p + at, b->len - at);
			m->slot[i].src = src;
			m->slot[i].json = json;
			m->slot[i].n = n;
			m->slot[i].jn = b->len - at;
		} else {
			free(src);
			free(json);
		}
	}
}

/* A result member's value v appended to b as json_dumps(JSON_COMPACT)
 * writes it: an array element by element, an integer of int_texts from
 * there, a long string through this thread's memo, anything else by
 * jansson. */
static void put_value(kw_buf *b, const json_t *v)
{
	size_t i;
	json_t *e;

	if (json_is_array(v)) {
		kw_buf_putc(b, '[');
		json_array_foreach(v, i, e) {
			json_int_t n;

			if (i > 0)
				kw_buf_putc(b, ',');
			if (int_texts && json_is_integer(e) && (n = json_integer_value(e)) >= 0 && n < N_INT_TEXTS)
				kw_buf_put(b, int_texts + int_at[n], int_len[n]);
			else
				put_value(b, e);
		}
		kw_buf_putc(b, ']');
	} else if (json_is_string(v) && json_string_length(v) >= STR_MEMO_MIN &&
		   json_string_length(v) <= STR_MEMO_MAX) {
		put_long_string(b, v);
	} else {
		put_json(b, v);
	}
}

/* A member name as a JSON string appended to b, then ':'. */
static void put_name(kw_buf *b, const char *name)
{
	json_t *k;

	pthread_once(&answer_once_ctl, answer_once);
	for (size_t i = 0; i < N_ANSWER_NAMES; i++) {
		if (answer_name_text[i] && strcmp(name, answer_names[i]) == 0) {
			kw_buf_puts(b, answer_name_text[i]);
			kw_buf_putc(b, ':');
			return;
		}
	}
	if (!(k = json_string(name)))
		b->oom = 1;
	else
		put_json(b, k);
	json_decref(k);
	kw_buf_putc(b, ':');
}

/* The members of the tables column, in this order (schema/cache.sql). */
static const char *const table_members[] = { "name", "acc2arch", "arch2acc", "value" };

/* One result object r into body (as json_dumps writes it: its members in
 * order) and its row of the tables column into tables: {"name",
 * "acc2arch"?, "arch2acc"?, "value"?}, each value copied from the text
 * just written to body, so it is dumped once. */
static void put_result(kw_buf *body, kw_buf *tables, const json_t *r)
{
	size_t at[4][2] = { { 0, 0 } };
	int have[4] = { 0 }, first = 1;
	const char *name;
	json_t *v;

	if (!json_is_object(r)) {
		put_json(body, r);
		kw_buf_puts(tables, "{}");
		return;
	}
	kw_buf_putc(body, '{');
	json_object_foreach((json_t *)r, name, v) {
		if (!first)
			kw_buf_putc(body, ',');
		first = 0;
		put_name(body, name);
		int t = 0;

		while (t < 4 && strcmp(name, table_members[t]) != 0)
			t++;
		if (t < 4) {
			have[t] = 1;
			at[t][0] = body->len;
		}
		put_value(body, v);
		if (t < 4)
			at[t][1] = body->len;
	}
	kw_buf_putc(body, '}');
	kw_buf_putc(tables, '{');
	first = 1;
	for (int t = 0; t < 4; t++) {
		if (!have[t] || body->oom)
			continue;
		if (!first)
			kw_buf_putc(tables, ',');
		first = 0;
		put_name(tables, table_members[t]);
		kw_buf_put(tables, body->p + at[t][0], at[t][1] - at[t][0]);
	}
	kw_buf_putc(tables, '}');
}

/*
 * The texts a miss needs, each value written by jansson once: the answer
 * ("cached": false), the stored row ("cached": true) and the tables column.
 * resp is written member by member as json_dumps(JSON_COMPACT) would (the
 * same bytes); the table values of each result are copied from it rather
 * than dumped a second time.  Returns 0, or -1 when out of memory.
 */
int kw_answer_texts(char **client, char **stored, char **tables, const json_t *resp)
{
	kw_buf body = KW_BUF_INIT, tab = KW_BUF_INIT;
	const char *name;
	json_t *v;
	int first = 1;

	*client = *stored = *tables = NULL;
	json_object_foreach((json_t *)resp, name, v) {
		if (!first)
			kw_buf_putc(&body, ',');
		first = 0;
		put_name(&body, name);
		if (strcmp(name, "results") != 0 || !json_is_array(v)) {
			put_json(&body, v);
			continue;
		}
		kw_buf_putc(&body, '[');
		kw_buf_putc(&tab, '[');
		for (size_t i = 0; i < json_array_size(v); i++) {
			if (i > 0) {
				kw_buf_putc(&body, ',');
				kw_buf_putc(&tab, ',');
			}
			put_result(&body, &tab, json_array_get(v, i));
		}
		kw_buf_putc(&body, ']');
		kw_buf_putc(&tab, ']');
	}
	kw_buf_putc(&body, '\0');
	if (!body.oom && !tab.oom && tab.len) {
		*client = with_cached(body.p, 0);
		*stored = with_cached(body.p, 1);
		*tables = kw_buf_detach(&tab);
	}
	kw_buf_free(&body);
	kw_buf_free(&tab);
	return *client && *stored && *tables ? 0 : -1;
}

/* Make a 200 reply's JSON object body end in ,"source":src} (src is
 * compact JSON; NULL or "" leaves the body alone).  Out of memory turns
 * the reply into a 503. */
void kw_answer_splice_source(kw_reply *out, const char *src)
{
	static const char member[] = ",\"source\":";
	size_t n = src ? strlen(src) : 0, m = sizeof(member) - 1;
	char *text;

	if (!n || out->status != 200 || out->len < 2 || out->body[out->len - 1] != '}')
		return;
	if (!(text = malloc(out->len + m + n + 1))) {
		kw_reply_error(out, 503, "no_memory", NULL, "out of memory");
		out->retry_after = 1;
		return;
	}
	memcpy(text, out->body, out->len - 1);
	memcpy(text + out->len - 1, member, m);
	memcpy(text + out->len - 1 + m, src, n);
	text[out->len - 1 + m + n] = '}';
	text[out->len + m + n] = '\0';
	free(out->body);
	out->body = text;
	out->len += m + n;
}
