/* sfacts_describe.c - the SGPR facts of a path in words, for a finding's
 * message ("s11 != 0 (s_cbranch_scc1 at line 40 taken)"), and the counter
 * atomic whose returned value the path tests (sfacts.c). */
#include "verify/sfacts_int.h"

#include <stdio.h>
#include <string.h>

/* A fact that holds for every value (full intervals, no set, no excluded
 * value, no relation): it says nothing, and is left out of messages. */
static int trivial(const vf_sfact *f)
{
	return f->ulo == 0 && f->uhi == UMAX && f->slo == INT32_MIN && f->shi == INT32_MAX && !f->nset &&
	       !f->nexcl && f->rel == VF_REL_NONE;
}

static size_t describe_fact(const vf_sfact *f, int r, char *buf, size_t n)
{
	size_t q = 0;

	if (f->ulo == 0 && f->uhi == UMAX && f->slo == INT32_MIN && f->shi == INT32_MAX && !f->nset && !f->nexcl) {
		/* the interval says nothing: the relation does */
		if (f->rel == VF_REL_ADD)
			q += (size_t)snprintf(buf + q, n - q, "s%d == s%d %c %u", r, f->base,
					      f->c > 0x7fffffffu ? '-' : '+', f->c > 0x7fffffffu ? 0u - f->c : f->c);
		else if (f->rel == VF_REL_SHR)
			q += (size_t)snprintf(buf + q, n - q, "s%d == s%d >> %u", r, f->base, f->c);
		else if (f->rel == VF_REL_LE)
			q += (size_t)snprintf(buf + q, n - q, "s%d <= s%d %c %u", r, f->base,
					      f->c > 0x7fffffffu ? '-' : '+', f->c > 0x7fffffffu ? 0u - f->c : f->c);
	} else if (f->ulo == f->uhi)
		q += (size_t)snprintf(buf + q, n - q, "s%d == %u", r, f->ulo);
	else if (f->nexcl && f->ulo == 0 && f->uhi == UMAX) {
		for (uint8_t i = 0; i < f->nexcl && q < n; i++)
			q += (size_t)snprintf(buf + q, n - q, "%ss%d != %u", i ? ", " : "", r, f->excl[i]);
	} else if (f->nset && f->nset <= 4) {
		q += (size_t)snprintf(buf + q, n - q, "s%d in {", r);
		for (uint8_t i = 0; i < f->nset && q < n; i++)
			q += (size_t)snprintf(buf + q, n - q, "%s%u", i ? ", " : "", f->set[i]);
		if (q < n)
			q += (size_t)snprintf(buf + q, n - q, "}");
	} else if (f->ulo == 1 && f->uhi == UMAX)
		q += (size_t)snprintf(buf + q, n - q, "s%d != 0", r);
	else if (f->slo > INT32_MIN && f->shi == INT32_MAX)
		q += (size_t)snprintf(buf + q, n - q, "s%d >= %d", r, f->slo);
	else if (f->slo == INT32_MIN && f->shi < INT32_MAX)
		q += (size_t)snprintf(buf + q, n - q, "s%d <= %d", r, f->shi);
	else if (f->ulo == 0 && f->uhi == UMAX && (f->slo > INT32_MIN || f->shi < INT32_MAX))
		/* narrowed as signed only: its signed interval */
		q += (size_t)snprintf(buf + q, n - q, "s%d in [%d, %d] (signed)", r, f->slo, f->shi);
	else if (f->ulo == 0 && f->uhi == UMAX)
		/* a set too large to list, or excluded values among others */
		q += (size_t)snprintf(buf + q, n - q, "s%d %s", r, f->nset ? "in a set of values" : "!= some values");
	else
		q += (size_t)snprintf(buf + q, n - q, "s%d in [%u, %u]", r, f->ulo, f->uhi);
	return q < n ? q : n - 1;
}

/* " (s_cbranch_scc1 at line 40 taken)": the branch a fact came from */
static size_t describe_branch(uint32_t why, const vf_prog *p, char *buf, size_t n, int alone)
{
	uint32_t at = (why & ~VF_WHY_TAKEN) - 1;
	const vf_inst *in;
	size_t q;

	if (!p || !why || at >= p->ninst)
		return 0;
	in = &p->insts[at];
	/* after its facts: " (s_cbranch_scc1 at line 40 taken)"; alone (its
	 * facts say nothing): "s_cbranch_scc1 at line 40 is taken" */
	q = (size_t)snprintf(buf, n, "%s%.*s at line %u", alone ? "" : " (",
			     (int)(in->mnem_len < 40 ? in->mnem_len : 40), in->tp, in->line);
	if (p->addr && p->addr[at] >= 0 && q < n)
		q += (size_t)snprintf(buf + q, n - q, alone ? " (0x%llx)" : ", 0x%llx", (unsigned long long)p->addr[at]);
	if (q < n)
		q += (size_t)snprintf(buf + q, n - q, "%s%s", alone ? (why & VF_WHY_TAKEN ? " is taken" : " is not taken")
						       : (why & VF_WHY_TAKEN ? " taken" : " not taken"),
				      alone ? "" : ")");
	return q < n ? q : n - 1;
}

size_t vf_facts_describe(const vf_facts *F, const vf_prog *p, char *buf, size_t n)
{
	size_t q = 0;
	uint8_t done[VF_NSGPR];

	if (!n)
		return 0;
	buf[0] = 0;
	memset(done, 0, sizeof(done));
	/* grouped by the branch that decided them, in register order; a fact
	 * that holds for every value is left out, its branch kept */
	for (int r = 0; r < VF_NSGPR && q + 48 < n; r++) {
		uint32_t why;
		int first = 1;
		size_t q0 = q;
		if (!F->has[r] || !F->f[r].tested || done[r])
			continue;
		why = F->f[r].why;
		if (q)
			q += (size_t)snprintf(buf + q, n - q, ", ");
		for (int s = r; s < VF_NSGPR && q + 48 < n; s++) {
			if (!F->has[s] || !F->f[s].tested || done[s] || F->f[s].why != why)
				continue;
			done[s] = 1;
			if (trivial(&F->f[s]))
				continue;
			if (!first)
				q += (size_t)snprintf(buf + q, n - q, ", ");
			first = 0;
			q += describe_fact(&F->f[s], s, buf + q, n - q);
		}
		if (q + 1 < n)
			q += describe_branch(why, p, buf + q, n - q, first);
		if (first && q == q0 + (q0 ? 2 : 0)) {
			/* nothing said and no branch to name */
			q = q0;
			buf[q] = 0;
		}
	}
	/* a tested value a counter atomic returned: what it hangs on, once */
	for (int r = 0; r < VF_NSGPR && p && q + 1 < n; r++) {
		uint32_t at;
		const vf_inst *in;
		char note[320];
		int k;
		if (!F->has[r] || !F->f[r].tested || !F->f[r].atom || F->f[r].atom > p->ninst)
			continue;
		at = F->f[r].atom - 1;
		in = &p->insts[at];
		if (p->assume_atomic_counters)
			k = snprintf(note, sizeof(note), "; s%d is the value %.*s at line %u returned, assumed in [0, its data]",
				     r, (int)(in->mnem_len < 40 ? in->mnem_len : 40), in->tp, in->line);
		else
			k = snprintf(note, sizeof(note),
				     "; s%d is the value %.*s at line %u returned: --assume-atomic-counters bounds it by "
				     "the atomic's data when the counter follows Tensile's synchronizer protocol",
				     r, (int)(in->mnem_len < 40 ? in->mnem_len : 40), in->tp, in->line);
		if (k > 0 && q + (size_t)k < n)
			q += (size_t)snprintf(buf + q, n - q, "%s", note);
		break;
	}
	if (q >= n)
		q = n - 1;
	return q;
}
