/* verify.c - kw_verify_text: read, build the CFG, run the counter data-flow,
 * report (kwgen/verify.h). */
#include "verify/verify_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int kw_verify_text(kw_verify_result **out, const char *text, size_t len,
		   const kw_verify_opts *o, kw_error *err)
{
	kw_verify_opts def = KW_VERIFY_OPTS_INIT;
	kw_verify_result *r;
	vf_prog p;
	double t0 = now_s();
	int rc;

	*out = NULL;
	if (!o)
		o = &def;
	if (!text && len)
		return kw_error_set(err, KW_EINVAL, NULL, "no text");
	rc = vf_result_new(&r, o, err);
	if (rc)
		return rc;
	if (o->suppressions && (rc = vf_rules_parse(r, o->suppressions, err))) {
		kw_verify_result_free(r);
		return rc;
	}
	memset(&p, 0, sizeof(p));
	p.max_instructions = o->max_instructions ? o->max_instructions : (size_t)64 << 20;
	p.max_memory = o->max_memory ? o->max_memory : vf_default_memory(len);
	p.assume_atomic_counters = o->assume_atomic_counters || r->assume_from == KW_VERIFY_FROM_SUPPRESSIONS;
	rc = vf_read(&p, text ? text : "", len, o->isa, err);
	if (!rc)
		rc = vf_analyze_assumed(&p, r, o, err);
	if (rc) {
		vf_prog_free(&p);
		kw_verify_result_free(r);
		return rc;
	}
	snprintf(r->isa, sizeof(r->isa), "%s", p.isa->name);
	vf_prog_free(&p);
	vf_findings_sort(r);
	r->stats.bytes = len;
	r->stats.seconds = now_s() - t0;
	*out = r;
	return 0;
}

int vf_analyze_assumed(vf_prog *p, kw_verify_result *r, const kw_verify_opts *o, kw_error *err)
{
	kw_verify_result *r2 = NULL;
	kw_error e2 = KW_ERROR_INIT;
	int rc = vf_analyze(p, r, o, err);

	if (rc || !p->assume_atomic_counters)
		return rc;
	r->assume_from = o && o->assume_atomic_counters ? KW_VERIFY_FROM_OPTION
		       : r->assume_from == KW_VERIFY_FROM_SUPPRESSIONS ? KW_VERIFY_FROM_SUPPRESSIONS
								: KW_VERIFY_FROM_INLINE;
	if (r->assume_from == KW_VERIFY_FROM_INLINE)
		r->assume_line = p->assume_line;
	else if (r->assume_from == KW_VERIFY_FROM_OPTION)
		r->assume_line = 0;
	r->ruled_out = 0;
	if (!r->atomics)
		return 0; /* no value it bounds: nothing ruled out */
	/* what it ruled out: the same analysis (rules, source lines and all)
	 * with the returned values unknown, findings counted per code */
	rc = vf_result_new(&r2, o, err);
	if (rc)
		return rc;
	r2->rules = r->rules;
	r2->nrules = r->nrules;
	r2->src = r->src;
	r2->nsrc = r->nsrc;
	r2->src_prog = r->src_prog;
	p->assume_atomic_counters = 0;
	rc = vf_analyze(p, r2, o, &e2);
	p->assume_atomic_counters = 1;
	if (!rc) {
		for (int c = 0; c < KW_VF_CODE_COUNT; c++)
			if (r2->totals[c] > r->totals[c])
				r->ruled_out += (int64_t)(r2->totals[c] - r->totals[c]);
	} else if (rc == KW_ENOMEM) {
		*err = e2;
	} else {
		r->ruled_out = -1; /* a bound the wider analysis passed: not counted */
		rc = 0;
	}
	r2->rules = NULL;
	r2->nrules = 0;
	kw_verify_result_free(r2);
	return rc;
}
