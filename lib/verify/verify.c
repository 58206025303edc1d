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
	p.assume_atomic_counters = o->assume_atomic_counters;
	rc = vf_read(&p, text ? text : "", len, o->isa, err);
	if (!rc)
		rc = vf_analyze(&p, r, o, err);
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
