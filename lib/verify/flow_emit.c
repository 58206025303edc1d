/* flow_emit.c - the data-flow's findings (flow_int.h): register and
 * instruction text, a finding's fields from the instruction it is at, the
 * register uses held during the reporting pass and merged into one finding
 * per producer and counter, and the whole-program reports (branch targets
 * outside the text, one `unsupported` per cause, redundant waits). */
#include "verify/flow_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- findings ---- */

const char *vf_fl_cname(work *w, int c)
{
	return c >= 0 && w->isa->cname[c] ? w->isa->cname[c] : "";
}

void vf_fl_reg_text(char *out, size_t n, uint16_t slot, uint8_t cnt)
{
	const char *pfx;
	int base;

	if (slot >= VF_SLOT_TTMP) {
		pfx = "ttmp", base = VF_SLOT_TTMP;
	} else if (slot >= VF_SLOT_S) {
		pfx = "s", base = VF_SLOT_S;
	} else if (slot >= VF_SLOT_A) {
		pfx = "a", base = VF_SLOT_A;
	} else {
		pfx = "v", base = VF_SLOT_V;
	}
	if (cnt <= 1)
		snprintf(out, n, "%s%d", pfx, slot - base);
	else
		snprintf(out, n, "%s[%d:%d]", pfx, slot - base, slot - base + cnt - 1);
}

void vf_fl_mnem(const vf_prog *p, uint32_t i, char *out, size_t n)
{
	const vf_inst *in = &p->insts[i];
	size_t len = in->mnem_len < n - 1 ? in->mnem_len : n - 1;

	memcpy(out, in->tp, len);
	out[len] = 0;
}

void vf_fl_inst_text(const vf_prog *p, uint32_t i, char *out, size_t n)
{
	const vf_inst *in = &p->insts[i];
	size_t len = in->text_len < n - 1 ? in->text_len : n - 1;

	memcpy(out, in->tp, len);
	out[len] = 0;
}

/* The finding of code at instruction at (prod the producer or -1, cnt the
 * counter or -1) as vf_finding_add takes it: no counts, no message. */
static void finding_in(work *w, vf_finding_in *fi, int code, uint32_t at, const char *reg, int64_t prod, int cnt)
{
	const vf_prog *p = w->p;
	const vf_inst *in = &p->insts[at];
	const vf_func *f = p->nfuncs ? &p->funcs[in->func] : NULL;

	memset(fi, 0, sizeof(*fi));
	fi->code = code;
	fi->line = in->line;
	fi->offset = p->addr ? p->addr[at] : -1;
	fi->producer_line = prod >= 0 ? (int64_t)p->insts[prod].line : -1;
	fi->producer_offset = prod >= 0 && p->addr ? p->addr[prod] : -1;
	fi->needed = fi->have = -1;
	fi->counter = cnt >= 0 ? vf_fl_cname(w, cnt) : NULL;
	fi->reg = reg;
	fi->function = f ? f->name : NULL;
	fi->function_len = f ? f->name_len : 0;
	fi->mnemonic = in->tp;
	fi->mnemonic_len = in->mnem_len;
	fi->allow = in->allow;
}

static void emit_full(work *w, int code, uint32_t at, const char *reg, int64_t prod, int cnt,
		      int needed, int have, const char *msg, const int64_t *also, size_t nalso,
		      const kw_verify_use *uses, size_t nuses)
{
	vf_finding_in fi;
	uint32_t *slot_of = NULL;
	size_t n0;

	if (!w->report || w->rc)
		return;
	if (w->seen) {
		/* the same block is analysed once per calling context and path
		 * partition: one finding, with the smallest count any needs */
		uint64_t key = (uint64_t)code | ((uint64_t)at << 4) | ((uint64_t)(prod + 1) << 34);
		uint32_t *v = vf_fl_hget(w->seen, key, 0, 0);
		if (v) {
			if (*v && !(*v & USE_TAG) && vf_finding_tighten(w->r, *v - 1, needed, have, msg))
				w->rc = KW_ENOMEM;
			return;
		}
		v = vf_fl_hget(w->seen, key, 1, 0);
		if (!v) {
			w->rc = KW_ENOMEM;
			return;
		}
		slot_of = v;
	}
	finding_in(w, &fi, code, at, reg, prod, cnt);
	fi.needed = needed;
	fi.have = have;
	fi.message = msg;
	fi.also = also;
	fi.nalso = nalso;
	fi.uses = uses;
	fi.nuses = nuses;
	n0 = w->r->n;
	if (vf_finding_add(w->r, &fi))
		w->rc = KW_ENOMEM;
	else if (slot_of && w->r->n > n0)
		*slot_of = (uint32_t)w->r->n; /* its index + 1 */
}

void vf_fl_emit(work *w, int code, uint32_t at, const char *reg, int64_t prod, int cnt,
		int needed, int have, const char *msg)
{
	emit_full(w, code, at, reg, prod, cnt, needed, have, msg, NULL, 0, NULL, 0);
}

/* "line 7" / "lines 7, 11" / past LINES_LISTED lines, the first ones and
 * "and N more" (JSON's also_lines has them all): never cut mid-list */
#define LINES_LISTED 16
static void lines_text(char *out, size_t n, const uint32_t *l, size_t nl)
{
	size_t k = (size_t)snprintf(out, n, "line%s ", nl > 1 ? "s" : "");

	for (size_t i = 0; i < nl && i < LINES_LISTED && k < n; i++)
		k += (size_t)snprintf(out + k, n - k, "%s%u", i ? ", " : "", l[i]);
	if (nl > LINES_LISTED && k < n)
		snprintf(out + k, n - k, " and %zu more", nl - LINES_LISTED);
}

/* The fix of one use at line l: the count need in the last wait before
 * it (in_wait), or a wait for it. */
static void fix_text(work *w, char *out, size_t n, int c, int need, uint32_t l, int in_wait)
{
	if (in_wait)
		snprintf(out, n, "; fix: use %s(%d) in the last wait before line %u", vf_fl_cname(w, c), need, l);
	else
		snprintf(out, n, "; fix: wait for %s(%d) before line %u", vf_fl_cname(w, c), need, l);
}

/* The fix of a merged finding's uses u[0..nu) (by line, one a line):
 * each its own count, in the last wait before it (have >= 0) or in a wait
 * put before it; uses asking the same count the same way listed together,
 * at most FIX_GROUPS groups ("and N more uses": JSON's uses has every
 * one).  done and l: nu scratch entries each. */
#define FIX_GROUPS 8
static void uses_fix_text(work *w, char *out, size_t n, int c, const kw_verify_use *u, size_t nu, uint8_t *done,
			  uint32_t *l)
{
	size_t k = (size_t)snprintf(out, n, "; fix: "), groups = 0, left = nu;

	memset(done, 0, nu);
	for (int kind = 1; kind >= 0; kind--) {
		for (size_t i = 0; i < nu && k < n; i++) {
			char lines[512];
			size_t nl = 0;
			int need = u[i].needed < 0 ? 0 : u[i].needed;
			if (done[i] || (u[i].have >= 0) != kind)
				continue;
			if (groups == FIX_GROUPS) {
				snprintf(out + k, n - k, " and %zu more use%s (each in JSON's uses)", left,
					 left == 1 ? "" : "s");
				return;
			}
			for (size_t j = i; j < nu; j++)
				if (!done[j] && (u[j].have >= 0) == kind && (u[j].needed < 0 ? 0 : u[j].needed) == need) {
					done[j] = 1;
					l[nl++] = (uint32_t)u[j].line;
				}
			left -= nl;
			lines_text(lines, sizeof(lines), l, nl);
			if (kind)
				k += (size_t)snprintf(out + k, n - k, "%suse %s(%d) in the last wait before %s",
						      groups ? " and " : "", vf_fl_cname(w, c), need, lines);
			else
				k += (size_t)snprintf(out + k, n - k, "%swait for %s(%d) before %s", groups ? " and " : "",
						      vf_fl_cname(w, c), need, lines);
			groups++;
		}
	}
}

static int cmp_use_line(const void *a, const void *b)
{
	const kw_verify_use *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->needed < y->needed ? -1 : x->needed > y->needed;
}

/* u's head: as check() made it, or (its text not held) the same without
 * the ops counted and the class's note */
static const char *use_head(work *w, const struct use *u, char *out, size_t n)
{
	char m[64], pm[64], hv[48];

	if (u->head)
		return u->head;
	vf_fl_mnem(w->p, u->at, m, sizeof(m));
	vf_fl_mnem(w->p, (uint32_t)u->prod, pm, sizeof(pm));
	if (u->have >= 0)
		snprintf(hv, sizeof(hv), "has %s(%d)", vf_fl_cname(w, u->cnt), u->have);
	else
		snprintf(hv, sizeof(hv), "has no wait on %s since it", vf_fl_cname(w, u->cnt));
	snprintf(out, n, "%s %s by %s while %s (line %u) may %s: needs %s(%d), %s", u->reg,
		 u->write ? "overwritten" : "read", m, pm, w->p->insts[u->prod].line,
		 u->write ? "still write it" : "be in flight", vf_fl_cname(w, u->cnt), u->needed, hv);
	return out;
}

static void use_message(work *w, const struct use *u, char *out, size_t n)
{
	char fix[160], head[512];
	uint32_t l = w->p->insts[u->at].line;

	fix_text(w, fix, sizeof(fix), u->cnt, u->needed, l, u->have >= 0);
	snprintf(out, n, "%s%s%s", use_head(w, u, head, sizeof(head)), fix, u->tail ? u->tail : "");
}

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

/* A use of prod's register [reg] at `at` (check): held during the
 * reporting pass (the same use met again on another path or in another
 * calling context keeps the smallest count), else reported at once. */
void vf_fl_emit_use(work *w, const struct use *u)
{
	char msg[2048];

	if (!w->report || w->rc)
		return;
	if (w->seen) {
		uint64_t key = (uint64_t)u->code | ((uint64_t)u->at << 4) | ((uint64_t)(u->prod + 1) << 34);
		uint32_t *v = vf_fl_hget(w->seen, key, 0, 0);
		if (v && (*v & USE_TAG)) {
			struct use *h = &w->uses[*v & ~USE_TAG];
			if (u->needed >= 0 && (h->needed < 0 || u->needed < h->needed)) {
				char *hd = NULL, *tl = NULL;
				if (h->head && (!(hd = dup_str(u->head)) || !(tl = dup_str(u->tail)))) {
					free(hd);
					w->rc = KW_ENOMEM;
					return;
				}
				free(h->head);
				free(h->tail);
				*h = *u;
				h->head = hd;
				h->tail = tl;
			}
			return;
		}
		if (!v && w->defer) {
			struct use *h;
			if (w->nuses == w->capuses) {
				size_t nc = w->capuses ? w->capuses * 2 : 64;
				struct use *g = realloc(w->uses, nc * sizeof(*g));
				if (!g) {
					w->rc = KW_ENOMEM;
					return;
				}
				w->uses = g;
				w->capuses = nc;
			}
			if (!vf_fl_hget(w->seen, key, 1, (uint32_t)w->nuses | USE_TAG)) {
				w->rc = KW_ENOMEM;
				return;
			}
			h = &w->uses[w->nuses++];
			*h = *u;
			h->head = h->tail = NULL;
			/* every use is held, so that totals do not depend on
			 * max_findings; the text of at most as many as are kept
			 * (and some), so that memory does not grow past that */
			if (w->ntext < w->r->max + 1024) {
				w->ntext++;
				h->head = dup_str(u->head);
				h->tail = dup_str(u->tail);
				if (!h->head || !h->tail)
					w->rc = KW_ENOMEM;
			}
			return;
		}
	}
	use_message(w, u, msg, sizeof(msg));
	vf_fl_emit(w, u->code, u->at, u->reg, u->prod, u->cnt, u->needed, u->have, msg);
}

void vf_fl_free_uses(work *w)
{
	for (size_t i = 0; i < w->nuses; i++) {
		free(w->uses[i].head);
		free(w->uses[i].tail);
	}
	free(w->uses);
	w->uses = NULL;
	w->nuses = w->capuses = 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* ascending, without repeats: the new count */
static size_t sort_unique(uint32_t *l, size_t n)
{
	size_t k = 0;

	qsort(l, n, sizeof(*l), cmp_u32);
	for (size_t i = 0; i < n; i++)
		if (!k || l[k - 1] != l[i])
			l[k++] = l[i];
	return k;
}

/* The path of use u ("on the paths where ..."; "" when none is held). */
static void use_path(const struct use *u, char *out, size_t n)
{
	size_t k = u->tail ? u->plen : 0;
	const char *s = u->tail;

	if (k >= 2 && s[0] == ';' && s[1] == ' ')
		s += 2, k -= 2;
	snprintf(out, n, "%.*s", (int)k, k ? s : "");
}

/* The other uses of group g (lines l[0..nl), ascending): "line 11 on the
 * paths where s12 == 0 (...), and at line 14 ..." for the first three
 * whose path is known, the rest as "lines 20, 31"; without any path just
 * "lines 11, 14". */
#define ALSO_PATHS 3
static void also_text(work *w, char *out, size_t n, size_t g, const uint32_t *grp, const uint8_t *hid,
		      const uint32_t *l, size_t nl)
{
	char path[ALSO_PATHS][800];
	size_t k = 0, np = nl < ALSO_PATHS ? nl : ALSO_PATHS, any = 0;

	for (size_t a = 0; a < np; a++) {
		path[a][0] = 0;
		for (size_t j = g; j < w->nuses && !path[a][0]; j++)
			if (!hid[j] && grp[j] == g && w->p->insts[w->uses[j].at].line == l[a])
				use_path(&w->uses[j], path[a], sizeof(path[a]));
		any |= path[a][0] != 0;
	}
	if (!any) {
		lines_text(out, n, l, nl);
		return;
	}
	out[0] = 0;
	for (size_t a = 0; a < np && k < n; a++)
		k += (size_t)snprintf(out + k, n - k, "%sline %u%s%s", a ? ", and at " : "", l[a],
				      path[a][0] ? " " : "", path[a]);
	if (nl > np && k < n) {
		k += (size_t)snprintf(out + k, n - k, ", and at ");
		if (k < n)
			lines_text(out + k, n - k, l + np, nl - np);
	}
}

/* The held uses become findings, in the order they were found: the uses
 * of one producer and counter (and code) that no suppression hides are one
 * finding (one root cause: the producer and the wait its paths skip),
 * reported at the use on the earliest line (the first a reader meets),
 * with the smallest count any of them needs (its fix, in the last wait
 * before each use, makes every one safe) and the other uses' lines. */
void vf_fl_merge_uses(work *w)
{
	size_t n = w->nuses;
	uint32_t *grp = NULL, *size = NULL, *lead = NULL, *la = NULL, *also = NULL;
	int *need = NULL;
	uint8_t *hid = NULL, *done = NULL;
	int64_t *alsol = NULL;
	kw_verify_use *us = NULL;
	struct hset gs;
	const vf_prog *p = w->p;
	struct hset *seen = w->seen;

	memset(&gs, 0, sizeof(gs));
	w->defer = 0;
	if (!n || w->rc)
		return;
	w->seen = NULL; /* each held use is reported once, as it stands */
	grp = malloc(n * sizeof(*grp));
	size = calloc(n, sizeof(*size));
	lead = malloc(n * sizeof(*lead));
	need = malloc(n * sizeof(*need));
	hid = malloc(n);
	la = malloc(n * sizeof(*la));
	done = malloc(n);
	us = malloc(n * sizeof(*us));
	also = malloc(n * sizeof(*also));
	alsol = malloc(n * sizeof(*alsol));
	if (!grp || !size || !lead || !need || !hid || !la || !done || !us || !also || !alsol) {
		w->rc = KW_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n && !w->rc; i++) {
		const struct use *u = &w->uses[i];
		vf_finding_in fi;
		uint32_t *v;
		finding_in(w, &fi, u->code, u->at, u->reg, u->prod, u->cnt);
		hid[i] = (uint8_t)vf_finding_hidden(w->r, &fi);
		grp[i] = (uint32_t)i;
		if (hid[i])
			continue;
		v = vf_fl_hget(&gs, (uint64_t)u->code | ((uint64_t)(u->cnt & 15) << 4) | ((uint64_t)u->prod << 8),
			       1, (uint32_t)i);
		if (!v) {
			w->rc = KW_ENOMEM;
			break;
		}
		grp[i] = *v;
		if (*v == i) {
			lead[i] = (uint32_t)i;
			need[i] = u->needed;
		} else {
			const struct use *l = &w->uses[lead[*v]];
			if (p->insts[u->at].line < p->insts[l->at].line ||
			    (p->insts[u->at].line == p->insts[l->at].line && u->at < l->at))
				lead[*v] = (uint32_t)i;
			if (u->needed >= 0 && (need[*v] < 0 || u->needed < need[*v]))
				need[*v] = u->needed;
		}
		size[*v]++;
	}
	for (size_t i = 0; i < n && !w->rc; i++) {
		const struct use *u = &w->uses[i];
		char msg[2048];
		if (hid[i] || size[grp[i]] <= 1) {
			/* hidden (vf_finding_add counts it suppressed), or alone */
			use_message(w, u, msg, sizeof(msg));
			vf_fl_emit(w, u->code, u->at, u->reg, u->prod, u->cnt, u->needed, u->have, msg);
			continue;
		}
		if (grp[i] != i)
			continue; /* in its group's finding */
		{
			const struct use *l = &w->uses[lead[i]];
			uint32_t ll = p->insts[l->at].line;
			size_t nu = 0, nal = 0, k = 0;
			char fix[1200], al[1400];
			for (size_t j = i; j < n; j++) {
				const struct use *uj = &w->uses[j];
				uint32_t lj;
				if (hid[j] || grp[j] != i)
					continue;
				lj = p->insts[uj->at].line;
				us[nu++] = (kw_verify_use){ lj, p->addr ? p->addr[uj->at] : -1, uj->needed, uj->have };
				if (lj != ll)
					also[nal++] = lj;
			}
			/* one use a line, its smallest count */
			qsort(us, nu, sizeof(*us), cmp_use_line);
			for (size_t j = 0; j < nu; j++)
				if (!k || us[k - 1].line != us[j].line)
					us[k++] = us[j];
			nu = k;
			nal = sort_unique(also, nal);
			uses_fix_text(w, fix, sizeof(fix), l->cnt, us, nu, done, la);
			also_text(w, al, sizeof(al), i, grp, hid, also, nal);
			char head[512];
			/* a message past 2 KiB is cut there (the texts are bounded) */
			if (snprintf(msg, sizeof(msg), "%s%s%s; also %s at %s", use_head(w, l, head, sizeof(head)),
				     fix, l->tail ? l->tail : "", l->write ? "overwritten" : "read",
				     al) >= (int)sizeof(msg))
				/* cut: say so (also_lines in JSON has every line) */
				memcpy(msg + sizeof(msg) - 5, " ...", 5);
			for (size_t j = 0; j < nal; j++)
				alsol[j] = also[j];
			emit_full(w, l->code, l->at, l->reg, l->prod, l->cnt, need[i], l->have, msg, alsol, nal, us,
				  nu);
		}
	}
out:
	w->seen = seen;
	vf_fl_hfree(&gs);
	free(grp);
	free(size);
	free(lead);
	free(need);
	free(hid);
	free(la);
	free(done);
	free(us);
	free(also);
	free(alsol);
}

void vf_fl_report_cfg(work *w, const vf_cfg *g)
{
	const vf_prog *p = w->p;

	for (size_t b = 0; b < g->n; b++) {
		const vf_inst *last = &p->insts[g->b[b].end - 1];
		uint32_t at = g->b[b].end - 1;
		char msg[256], text[96];

		if ((last->kind == VF_I_BRANCH || last->kind == VF_I_CBRANCH) && last->aux >= p->ninst) {
			vf_fl_inst_text(p, at, text, sizeof(text));
			snprintf(msg, sizeof(msg),
				 "branch target of `%s` is not in the text: that path is not followed", text);
			vf_fl_emit(w, KW_VF_UNSUPPORTED, at, NULL, -1, -1, -1, -1, msg);
		}
	}
}

/* One `unsupported` per distinct cause (kind, register, function), at its
 * first site, with the number of sites. */
void vf_fl_report_causes(work *w)
{
	for (size_t i = 0; i < w->ncauses && !w->rc; i++) {
		const struct cause *c = &w->causes[i];
		char msg[512], text[96], more[64];
		const char *what;

		vf_fl_inst_text(w->p, c->first, text, sizeof(text));
		switch (c->kind) {
		case 1:
			what = "call whose target is unknown: the callee is not analysed; assumed to follow "
			       "the AMDGPU calling convention and wait for all its memory operations before "
			       "it returns";
			break;
		case 2:
			what = "indirect jump whose target is unknown: not followed";
			break;
		case 3:
			what = "return from a subroutine to an address that is not known: not followed";
			break;
		case 4:
			what = "jump or call to an address that is not the start of an instruction block: not "
			       "followed";
			break;
		default:
			what = "calls nested deeper than the analysis follows (16, or 65536 calling "
			       "contexts): the callee is assumed to follow the AMDGPU calling convention";
			break;
		}
		more[0] = 0;
		if (c->count > 1)
			snprintf(more, sizeof(more), " (and %u more sites with the same cause)", c->count - 1);
		snprintf(msg, sizeof(msg), "`%s`: %s%s", text, what, more);
		w->seen = NULL; /* causes are distinct by construction */
		vf_fl_emit(w, KW_VF_UNSUPPORTED, c->first, NULL, -1, -1, -1, -1, msg);
	}
}

void vf_fl_report_redundant(work *w)
{
	for (size_t at = 0; at < w->p->ninst && !w->rc; at++) {
		char msg[256], text[128];
		if (w->wseen[at] != 1)
			continue;
		vf_fl_inst_text(w->p, (uint32_t)at, text, sizeof(text));
		snprintf(msg, sizeof(msg),
			 "%s waits for nothing on every path to it (nothing it counts is in flight): "
			 "remove it", text);
		vf_fl_emit(w, KW_VF_REDUNDANT_WAIT, (uint32_t)at, NULL, -1, -1, -1, -1, msg);
	}
}
