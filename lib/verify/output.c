/* output.c - a verification result as the CONTRACT.md JSON object (jansson)
 * or as compiler-style lines. */
#include "verify/verify_int.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *count_or_null(int v)
{
	return v < 0 ? json_null() : json_integer(v);
}

static int add(json_t *o, const char *k, json_t *v)
{
	return v ? json_object_set_new(o, k, v) : -1;
}

static const char *from_name(int from)
{
	switch (from) {
	case KW_VERIFY_FROM_OPTION: return "option";
	case KW_VERIFY_FROM_SUPPRESSIONS: return "suppressions";
	case KW_VERIFY_FROM_INLINE: return "inline";
	default: return NULL;
	}
}

/* {"atomic_counters": {"assumed", "from", "line", "ruled_out"}}: which
 * assumptions applied, where from and what they ruled out. */
static json_t *assumptions_json(const kw_verify_result *r)
{
	uint64_t line = 0;
	int64_t out = 0;
	int from = kw_verify_result_assumption(r, &line, &out);
	const char *fn = from_name(from);

	return json_pack("{s:{s:b,s:o,s:o,s:o}}", "atomic_counters", "assumed", from != KW_VERIFY_FROM_NONE, "from",
			 fn ? json_string(fn) : json_null(), "line", line ? json_integer((json_int_t)line) : json_null(),
			 "ruled_out", out >= 0 ? json_integer((json_int_t)out) : json_null());
}

int kw_verify_result_json(kw_buf *out, const kw_verify_result *r, kw_error *err)
{
	json_t *root = json_object(), *fs = json_array(), *tot = json_object(), *st = json_object();
	char *s;
	int bad = !root || !fs || !tot || !st;

	for (size_t i = 0; !bad && i < r->n; i++) {
		const kw_verify_finding *f = &r->f[i];
		json_t *o = json_object();

		bad |= !o;
		if (bad)
			break;
		bad |= add(o, "code", json_string(kw_verify_code_name(f->code)));
		bad |= add(o, "line", json_integer(f->line));
		if (f->offset >= 0)
			bad |= add(o, "offset", json_integer(f->offset));
		bad |= add(o, "register", *f->reg ? json_string(f->reg) : json_null());
		bad |= add(o, "producer_line", f->producer_line >= 0 ? json_integer(f->producer_line)
								      : json_null());
		if (f->producer_offset >= 0)
			bad |= add(o, "producer_offset", json_integer(f->producer_offset));
		bad |= add(o, "counter", *f->counter ? json_string(f->counter) : json_null());
		bad |= add(o, "needed", count_or_null(f->needed));
		bad |= add(o, "have", count_or_null(f->have));
		bad |= add(o, "severity", json_string(kw_verify_severity_name(f->severity)));
		bad |= add(o, "function", json_string(f->function));
		bad |= add(o, "mnemonic", json_string(f->mnemonic));
		bad |= add(o, "message", json_string(f->message));
		if (f->n_also_lines) {
			json_t *al = json_array();
			bad |= !al;
			for (size_t j = 0; !bad && j < f->n_also_lines; j++)
				bad |= json_array_append_new(al, json_integer(f->also_lines[j]));
			bad |= add(o, "also_lines", al);
		}
		if (f->n_uses) {
			/* every use with its own count: what a tool applies */
			json_t *us = json_array();
			bad |= !us;
			for (size_t j = 0; !bad && j < f->n_uses; j++) {
				const kw_verify_use *u = &f->uses[j];
				json_t *uo = json_object();
				bad |= !uo;
				if (bad)
					break;
				bad |= add(uo, "line", json_integer(u->line));
				if (u->offset >= 0)
					bad |= add(uo, "offset", json_integer(u->offset));
				bad |= add(uo, "needed", count_or_null(u->needed));
				bad |= add(uo, "have", count_or_null(u->have));
				bad |= add(uo, "fix", json_string(u->have >= 0 ? "in_last_wait" : "new_wait"));
				bad |= json_array_append_new(us, uo);
			}
			bad |= add(o, "uses", us);
		}
		bad |= json_array_append_new(fs, o);
	}
	for (int c = 0; !bad && c < KW_VF_CODE_COUNT; c++)
		bad |= add(tot, kw_verify_code_name(c), json_integer((json_int_t)r->totals[c]));
	if (!bad) {
		uint64_t all = 0;
		for (int c = 0; c < KW_VF_CODE_COUNT; c++)
			all += r->totals[c];
		bad |= add(st, "instructions", json_integer((json_int_t)r->stats.instructions));
		bad |= add(st, "waits", json_integer((json_int_t)r->stats.waits));
		bad |= add(st, "blocks", json_integer((json_int_t)r->stats.blocks));
		bad |= add(st, "functions", json_integer((json_int_t)r->stats.functions));
		bad |= add(st, "work", json_integer((json_int_t)r->stats.work));
		bad |= add(st, "bytes", json_integer((json_int_t)r->stats.bytes));
		bad |= add(st, "seconds", json_real(r->stats.seconds));
		bad |= add(root, "isa", json_string(r->isa));
		bad |= json_object_set(root, "findings", fs);
		bad |= json_object_set(root, "totals", tot);
		bad |= add(root, "suppressed", json_integer((json_int_t)r->suppressed));
		bad |= add(root, "truncated", json_boolean(all > r->n));
		bad |= add(root, "assumptions", assumptions_json(r));
		bad |= json_object_set(root, "stats", st);
	}
	s = bad ? NULL : json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(root);
	json_decref(fs);
	json_decref(tot);
	json_decref(st);
	if (!s)
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	bad = kw_buf_puts(out, s) || kw_buf_putc(out, '\n');
	free(s);
	return bad ? kw_error_set(err, KW_ENOMEM, NULL, "out of memory") : 0;
}

/* "; assuming Tensile's atomic-counter protocol (WHERE): N findings ruled
 * out" on the totals line when the assumption applied. */
static void assumption_text(kw_buf *out, const kw_verify_result *r)
{
	uint64_t line = 0;
	int64_t n = 0;
	int from = kw_verify_result_assumption(r, &line, &n);

	if (from == KW_VERIFY_FROM_NONE)
		return;
	kw_buf_puts(out, "; assuming Tensile's atomic-counter protocol (");
	if (from == KW_VERIFY_FROM_OPTION) {
		kw_buf_puts(out, "--assume-atomic-counters");
	} else {
		kw_buf_puts(out, from == KW_VERIFY_FROM_INLINE ? "kwgen-verify: assume atomic-counters at line "
							      : "`assume atomic-counters` at suppression line ");
		kw_buf_put_i64(out, (int64_t)line);
	}
	kw_buf_puts(out, "): ");
	if (n < 0) {
		kw_buf_puts(out, "findings ruled out not counted (the analysis without it passed a bound)");
		return;
	}
	kw_buf_put_i64(out, n);
	kw_buf_puts(out, n == 1 ? " finding ruled out" : " findings ruled out");
}

int kw_verify_result_text(kw_buf *out, const kw_verify_result *r, kw_error *err)
{
	uint64_t all = 0;

	for (size_t i = 0; i < r->n; i++) {
		const kw_verify_finding *f = &r->f[i];
		char pos[64];

		snprintf(pos, sizeof(pos), "%lld", (long long)f->line);
		kw_buf_puts(out, r->filename);
		kw_buf_putc(out, ':');
		kw_buf_puts(out, pos);
		kw_buf_puts(out, ": ");
		kw_buf_puts(out, kw_verify_severity_name(f->severity));
		kw_buf_puts(out, ": ");
		kw_buf_puts(out, f->message);
		kw_buf_puts(out, " [");
		kw_buf_puts(out, kw_verify_code_name(f->code));
		kw_buf_putc(out, ']');
		if (f->offset >= 0) {
			snprintf(pos, sizeof(pos), " (offset 0x%llx)", (unsigned long long)f->offset);
			kw_buf_puts(out, pos);
		}
		kw_buf_putc(out, '\n');
	}
	for (int c = 0; c < KW_VF_CODE_COUNT; c++)
		all += r->totals[c];
	if (all > r->n) {
		kw_buf_puts(out, r->filename);
		kw_buf_puts(out, ": note: ");
		kw_buf_put_i64(out, (int64_t)(all - r->n));
		kw_buf_puts(out, " more findings not listed; totals:");
		for (int c = 0; c < KW_VF_CODE_COUNT; c++) {
			if (!r->totals[c])
				continue;
			kw_buf_putc(out, ' ');
			kw_buf_puts(out, kw_verify_code_name(c));
			kw_buf_putc(out, '=');
			kw_buf_put_i64(out, (int64_t)r->totals[c]);
		}
		kw_buf_putc(out, '\n');
	}
	{
		/* FILE: totals: 1 error, 2 warnings (race_raw=1 redundant_wait=2); 0
		 * hidden by suppressions; 120 instructions in 2 functions checked
		 * (printed for a clean file too: it says what was checked) */
		uint64_t errors = kw_verify_result_errors(r);
		const kw_verify_stats *st = kw_verify_result_stats(r);
		kw_buf_puts(out, r->filename);
		kw_buf_puts(out, ": totals: ");
		kw_buf_put_i64(out, (int64_t)errors);
		kw_buf_puts(out, errors == 1 ? " error, " : " errors, ");
		kw_buf_put_i64(out, (int64_t)(all - errors));
		kw_buf_puts(out, all - errors == 1 ? " warning" : " warnings");
		for (int c = 0, first = 1; c < KW_VF_CODE_COUNT; c++) {
			if (!r->totals[c])
				continue;
			kw_buf_puts(out, first ? " (" : " ");
			first = 0;
			kw_buf_puts(out, kw_verify_code_name(c));
			kw_buf_putc(out, '=');
			kw_buf_put_i64(out, (int64_t)r->totals[c]);
		}
		kw_buf_puts(out, all ? "); " : "; ");
		kw_buf_put_i64(out, (int64_t)r->suppressed);
		kw_buf_puts(out, " hidden by suppressions; ");
		kw_buf_put_i64(out, (int64_t)st->instructions);
		kw_buf_puts(out, st->instructions == 1 ? " instruction in " : " instructions in ");
		kw_buf_put_i64(out, (int64_t)st->functions);
		kw_buf_puts(out, st->functions == 1 ? " function checked" : " functions checked");
		assumption_text(out, r);
		kw_buf_putc(out, '\n');
	}
	return out->oom ? kw_error_set(err, KW_ENOMEM, NULL, "out of memory") : 0;
}
