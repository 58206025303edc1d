/* findings.c - the result of a verification: findings, exact totals per code,
 * suppressions (file rules and inline `kwgen-verify: allow` comments). */
#include "verify/verify_int.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bump when findings may change (kwgen/verify.h: kw_verify_version;
 * tests/verify/salt.txt pins the corpus digest this version was released
 * with). */
#define KW_VERIFY_VERSION "kwgen-verify-16"

const char *kw_verify_version(void)
{
	return KW_VERIFY_VERSION;
}

static const char *const code_names[KW_VF_CODE_COUNT] = {
	"race_raw", "race_waw", "lds_barrier", "lds_dma",
	"redundant_wait", "unknown_instruction", "unsupported", "lds_latency",
};

const char *kw_verify_code_name(int code)
{
	return code >= 0 && code < KW_VF_CODE_COUNT ? code_names[code] : NULL;
}

int kw_verify_code_is_race(int code)
{
	return (code >= KW_VF_RACE_RAW && code <= KW_VF_LDS_DMA) || code == KW_VF_LDS_LATENCY;
}

int kw_verify_code_from_name(const char *name)
{
	for (int i = 0; i < KW_VF_CODE_COUNT; i++)
		if (!strcmp(code_names[i], name))
			return i;
	if (!strcmp(name, "race_lds_latency"))
		return KW_VF_LDS_LATENCY; /* its name in kwgen-verify-6 (suppression files) */
	return -1;
}

const char *kw_verify_severity_name(int severity)
{
	switch (severity) {
	case KW_VS_ERROR: return "error";
	case KW_VS_WARNING: return "warning";
	default: return "note";
	}
}

static int severity_of(int code)
{
	switch (code) {
	case KW_VF_REDUNDANT_WAIT:
	case KW_VF_UNSUPPORTED:
	case KW_VF_LDS_LATENCY:
		return KW_VS_WARNING;
	default:
		return KW_VS_ERROR;
	}
}

int vf_result_new(kw_verify_result **out, const kw_verify_opts *o, kw_error *err)
{
	kw_verify_result *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (!r)
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	r->max = o && o->max_findings ? o->max_findings : 100000;
	r->no_redundant = o ? o->no_redundant : 0;
	r->filename = strdup(o && o->filename ? o->filename : "<input>");
	if (!r->filename) {
		free(r);
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	}
	*out = r;
	return 0;
}

void kw_verify_result_free(kw_verify_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nrules; i++) {
		free(r->rules[i].func_glob);
		free(r->rules[i].mnem_glob);
		free(r->rules[i].counter);
		free(r->rules[i].reg);
	}
	free(r->rules);
	free(r->f);
	free(r->filename);
	kw_arena_free(&r->arena);
	free(r);
}

const char *kw_verify_result_isa(const kw_verify_result *r)
{
	return r->isa;
}

size_t kw_verify_result_count(const kw_verify_result *r)
{
	return r->n;
}

const kw_verify_finding *kw_verify_result_at(const kw_verify_result *r, size_t i)
{
	return i < r->n ? &r->f[i] : NULL;
}

uint64_t kw_verify_result_total(const kw_verify_result *r, int code)
{
	return code >= 0 && code < KW_VF_CODE_COUNT ? r->totals[code] : 0;
}

uint64_t kw_verify_result_suppressed(const kw_verify_result *r)
{
	return r->suppressed;
}

uint64_t kw_verify_result_errors(const kw_verify_result *r)
{
	uint64_t n = 0;

	for (int c = 0; c < KW_VF_CODE_COUNT; c++)
		if (severity_of(c) == KW_VS_ERROR)
			n += r->totals[c];
	return n;
}

const kw_verify_stats *kw_verify_result_stats(const kw_verify_result *r)
{
	return &r->stats;
}

int kw_verify_result_assumption(const kw_verify_result *r, uint64_t *line, int64_t *ruled_out)
{
	if (line)
		*line = r->assume_from ? r->assume_line : 0;
	if (ruled_out)
		*ruled_out = r->assume_from ? r->ruled_out : 0;
	return r->assume_from;
}

/* ---- suppression rules ---- */

static char *dup_n(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = 0;
	}
	return p;
}

static int parse_num(const char *s, size_t n, int64_t *out)
{
	char buf[32], *end;
	long long v;

	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	v = strtoll(buf, &end, 0);
	if (*end || v < 0)
		return -1;
	*out = v;
	return 0;
}

int vf_rules_parse(kw_verify_result *r, const char *text, kw_error *err)
{
	const char *p = text;
	int lineno = 0;

	while (p && *p) {
		const char *eol = strchr(p, '\n'), *q, *end;
		vf_rule rule = { -1, NULL, NULL, NULL, NULL, -1, -1 };
		vf_rule *grown;
		int first = 1;

		lineno++;
		end = eol ? eol : p + strlen(p);
		for (q = p; q < end && *q != '#'; q++)
			;
		end = q;
		q = p;
		for (;;) {
			const char *t, *eq;
			size_t tn;

			while (q < end && isspace((unsigned char)*q))
				q++;
			if (q >= end)
				break;
			t = q;
			while (q < end && !isspace((unsigned char)*q))
				q++;
			tn = (size_t)(q - t);
			if (first) {
				first = 0;
				if (tn == 6 && !memcmp(t, "assume", 6)) {
					/* `assume atomic-counters`: the assumption of
					 * kw_verify_opts.assume_atomic_counters, kept
					 * with the rules */
					while (q < end && isspace((unsigned char)*q))
						q++;
					t = q;
					while (q < end && !isspace((unsigned char)*q))
						q++;
					if ((size_t)(q - t) != 15 || memcmp(t, "atomic-counters", 15))
						goto bad;
					while (q < end && isspace((unsigned char)*q))
						q++;
					if (q < end)
						goto bad;
					if (!r->assume_from) {
						r->assume_from = KW_VERIFY_FROM_SUPPRESSIONS;
						r->assume_line = (uint64_t)lineno;
					}
					first = 2; /* no rule */
					break;
				}
				if (tn == 1 && *t == '*') {
					rule.code = -1;
				} else {
					char name[32];
					if (tn >= sizeof(name))
						goto bad;
					memcpy(name, t, tn);
					name[tn] = 0;
					rule.code = kw_verify_code_from_name(name);
					if (rule.code < 0)
						goto bad;
				}
				continue;
			}
			eq = memchr(t, '=', tn);
			if (!eq || eq == t + tn - 1)
				goto bad;
#define KEY(k) ((size_t)(eq - t) == sizeof(k) - 1 && !memcmp(t, k, sizeof(k) - 1))
			if (KEY("function")) {
				free(rule.func_glob);
				rule.func_glob = dup_n(eq + 1, (size_t)(t + tn - eq - 1));
			} else if (KEY("mnemonic")) {
				free(rule.mnem_glob);
				rule.mnem_glob = dup_n(eq + 1, (size_t)(t + tn - eq - 1));
			} else if (KEY("counter")) {
				free(rule.counter);
				rule.counter = dup_n(eq + 1, (size_t)(t + tn - eq - 1));
			} else if (KEY("register")) {
				free(rule.reg);
				rule.reg = dup_n(eq + 1, (size_t)(t + tn - eq - 1));
			} else if (KEY("line")) {
				if (parse_num(eq + 1, (size_t)(t + tn - eq - 1), &rule.line))
					goto bad;
			} else if (KEY("offset")) {
				if (parse_num(eq + 1, (size_t)(t + tn - eq - 1), &rule.offset))
					goto bad;
			} else {
				goto bad;
			}
#undef KEY
		}
		if (first == 0) {
			grown = realloc(r->rules, (r->nrules + 1) * sizeof(*grown));
			if (!grown) {
				free(rule.func_glob);
				free(rule.mnem_glob);
				free(rule.counter);
				free(rule.reg);
				return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
			}
			r->rules = grown;
			r->rules[r->nrules++] = rule;
		}
		p = eol ? eol + 1 : NULL;
		continue;
bad:
		free(rule.func_glob);
		free(rule.mnem_glob);
		free(rule.counter);
		free(rule.reg);
		return kw_error_set(err, KW_EINVAL, "suppressions",
				    "suppression line %d: expected `CODE|* [key=value...]` with CODE one of "
				    "race_raw, race_waw, lds_barrier, lds_dma, redundant_wait, "
				    "unknown_instruction, unsupported, lds_latency and keys function=GLOB, "
				    "mnemonic=GLOB, counter=NAME, register=TEXT, line=N, offset=N (or the line "
				    "`assume atomic-counters`)",
				    lineno);
	}
	return 0;
}

static int rule_matches(const vf_rule *ru, const vf_finding_in *in)
{
	char name[256];

	if (ru->code >= 0 && ru->code != in->code)
		return 0;
	if (ru->line >= 0 && ru->line != in->line)
		return 0;
	if (ru->offset >= 0 && ru->offset != in->offset)
		return 0;
	if (ru->counter && (!in->counter || strcmp(ru->counter, in->counter)))
		return 0;
	if (ru->reg && (!in->reg || strcmp(ru->reg, in->reg)))
		return 0;
	if (ru->func_glob) {
		size_t n = in->function_len < sizeof(name) - 1 ? in->function_len : sizeof(name) - 1;
		memcpy(name, in->function ? in->function : "", in->function ? n : 0);
		name[in->function ? n : 0] = 0;
		if (fnmatch(ru->func_glob, name, 0))
			return 0;
	}
	if (ru->mnem_glob) {
		size_t n = in->mnemonic_len < sizeof(name) - 1 ? in->mnemonic_len : sizeof(name) - 1;
		memcpy(name, in->mnemonic ? in->mnemonic : "", in->mnemonic ? n : 0);
		name[in->mnemonic ? n : 0] = 0;
		if (fnmatch(ru->mnem_glob, name, 0))
			return 0;
	}
	return 1;
}

static const char *arena_dup(kw_arena *a, const char *s, size_t n)
{
	char *p;

	if (!s)
		return "";
	p = kw_arena_alloc(a, n + 1);
	if (!p)
		return NULL;
	/* findings quote the input: keep them printable ASCII (valid UTF-8 in
	 * the JSON output whatever bytes the text had) */
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		p[i] = (char)(c < 0x20 || c >= 0x7f ? '?' : c);
	}
	p[n] = 0;
	return p;
}

/* The source-line entry (r->src) of the word at byte offset off, or NULL. */
static const kw_verify_word_line *src_at(const kw_verify_result *r, int64_t off)
{
	size_t lo = 0, hi = r->nsrc;

	if (off < 0 || !r->nsrc || (uint64_t)off < r->src[0].offset)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->src[mid].offset <= (uint64_t)off)
			lo = mid;
		else
			hi = mid;
	}
	return &r->src[lo];
}

/* The source line of the word at byte offset off (r->src), or -1. */
static int64_t src_line_at(const kw_verify_result *r, int64_t off)
{
	const kw_verify_word_line *s = src_at(r, off);

	return s ? (int64_t)s->line : -1;
}

/* The source line of the instruction on decoded line n, or -1. */
static int64_t src_line_of(const kw_verify_result *r, uint64_t n)
{
	const vf_prog *p = r->src_prog;
	size_t lo = 0, hi = p && p->addr ? p->ninst : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->insts[mid].line < n)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < (p && p->addr ? p->ninst : 0) && p->insts[lo].line == n ? src_line_at(r, p->addr[lo]) : -1;
}

/* msg with every "line N" (and each N of "lines N, M, ...") naming a
 * decoded line naming its source line instead, into out (n bytes). */
static void src_message(const kw_verify_result *r, const char *msg, char *out, size_t n)
{
	size_t k = 0;

	for (const char *s = msg; *s && k + 1 < n;) {
		size_t pl = !strncmp(s, "line ", 5) ? 5 : !strncmp(s, "lines ", 6) ? 6 : 0;
		if (pl && isdigit((unsigned char)s[pl]) && (s == msg || !isalnum((unsigned char)s[-1]))) {
			int w = snprintf(out + k, n - k, "%.*s", (int)pl, s);
			if (w < 0 || (size_t)w >= n - k)
				break;
			k += (size_t)w;
			s += pl;
			for (;;) {
				char *end;
				unsigned long long v = strtoull(s, &end, 10);
				int64_t l = src_line_of(r, v);
				w = snprintf(out + k, n - k, "%llu", l >= 0 ? (unsigned long long)l : v);
				if (w < 0 || (size_t)w >= n - k)
					break;
				k += (size_t)w;
				s = end;
				if (pl == 6 && s[0] == ',' && s[1] == ' ' && isdigit((unsigned char)s[2]) &&
				    k + 2 < n) {
					out[k++] = ',';
					out[k++] = ' ';
					s += 2;
					continue;
				}
				break;
			}
			continue;
		}
		out[k++] = *s++;
	}
	out[k] = '\0';
}

/* in as reported: decoded from data words, its lines and allow are the
 * source's (into *mapped, its message into msg) */
static const vf_finding_in *map_in(const kw_verify_result *r, const vf_finding_in *in, vf_finding_in *mapped,
				   char *msg, size_t n)
{
	if (r->src && in->offset >= 0) {
		/* decoded from data words: the source's lines, and the inline
		 * allow on the line of the instruction's first word */
		const kw_verify_word_line *at = src_at(r, in->offset);
		int64_t pl = src_line_at(r, in->producer_offset);
		*mapped = *in;
		if (at) {
			mapped->line = (int64_t)at->line;
			mapped->allow |= (uint8_t)at->allow;
		}
		if (pl >= 0)
			mapped->producer_line = pl;
		if (in->message && msg) {
			src_message(r, in->message, msg, n);
			mapped->message = msg;
		}
		return mapped;
	}
	return in;
}

static int hidden(const kw_verify_result *r, const vf_finding_in *in)
{
	if (in->allow == 0xff || (in->allow & (1u << in->code)))
		return 1;
	for (size_t i = 0; i < r->nrules; i++)
		if (rule_matches(&r->rules[i], in))
			return 1;
	return 0;
}

int vf_finding_hidden(const kw_verify_result *r, const vf_finding_in *in)
{
	vf_finding_in mapped;

	return hidden(r, map_in(r, in, &mapped, NULL, 0));
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

int vf_finding_add(kw_verify_result *r, const vf_finding_in *in)
{
	kw_verify_finding *f;
	vf_finding_in mapped;
	char msg[2048];
	int64_t *also = NULL;

	in = map_in(r, in, &mapped, msg, sizeof msg);
	if (in->code == KW_VF_REDUNDANT_WAIT && r->no_redundant)
		return 0;
	if (hidden(r, in)) {
		r->suppressed++;
		return 0;
	}
	r->totals[in->code]++;
	if (r->n >= r->max)
		return 0;
	if (r->n == r->cap) {
		size_t nc = r->cap ? r->cap * 2 : 64;
		kw_verify_finding *g = realloc(r->f, nc * sizeof(*g));
		if (!g)
			return KW_ENOMEM;
		r->f = g;
		r->cap = nc;
	}
	f = &r->f[r->n];
	f->code = in->code;
	f->severity = severity_of(in->code);
	f->line = in->line;
	f->offset = in->offset;
	f->producer_line = in->producer_line;
	f->producer_offset = in->producer_offset;
	f->needed = in->needed;
	f->have = in->have;
	f->counter = arena_dup(&r->arena, in->counter, in->counter ? strlen(in->counter) : 0);
	f->reg = arena_dup(&r->arena, in->reg, in->reg ? strlen(in->reg) : 0);
	f->function = arena_dup(&r->arena, in->function, in->function_len);
	f->mnemonic = arena_dup(&r->arena, in->mnemonic, in->mnemonic_len);
	f->message = arena_dup(&r->arena, in->message, in->message ? strlen(in->message) : 0);
	if (!f->counter || !f->reg || !f->function || !f->mnemonic || !f->message)
		return KW_ENOMEM;
	if (in->nalso) {
		also = kw_arena_alloc(&r->arena, in->nalso * sizeof(*also));
		if (!also)
			return KW_ENOMEM;
		for (size_t i = 0; i < in->nalso; i++) {
			int64_t l = r->src ? src_line_of(r, (uint64_t)in->also[i]) : -1;
			also[i] = l >= 0 ? l : in->also[i];
		}
		qsort(also, in->nalso, sizeof(*also), cmp_i64);
	}
	f->also_lines = also;
	f->n_also_lines = in->nalso;
	f->uses = NULL;
	f->n_uses = 0;
	if (in->nuses) {
		kw_verify_use *u = kw_arena_alloc(&r->arena, in->nuses * sizeof(*u));
		if (!u)
			return KW_ENOMEM;
		for (size_t i = 0; i < in->nuses; i++) {
			int64_t l = r->src ? src_line_of(r, (uint64_t)in->uses[i].line) : -1;
			u[i] = in->uses[i];
			if (l >= 0)
				u[i].line = l;
		}
		f->uses = u;
		f->n_uses = in->nuses;
	}
	r->n++;
	return 0;
}

int vf_finding_tighten(kw_verify_result *r, size_t i, int needed, int have, const char *message)
{
	kw_verify_finding *f;
	const char *m;

	if (i >= r->n)
		return 0;
	f = &r->f[i];
	if (needed < 0 || (f->needed >= 0 && f->needed <= needed))
		return 0;
	m = arena_dup(&r->arena, message, message ? strlen(message) : 0);
	if (!m)
		return KW_ENOMEM;
	f->needed = needed;
	f->have = have;
	f->message = m;
	return 0;
}

static int cmp_finding(const void *a, const void *b)
{
	const kw_verify_finding *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->code != y->code)
		return x->code < y->code ? -1 : 1;
	return strcmp(x->reg, y->reg);
}

void vf_findings_sort(kw_verify_result *r)
{
	if (r->n > 1)
		qsort(r->f, r->n, sizeof(*r->f), cmp_finding);
}
