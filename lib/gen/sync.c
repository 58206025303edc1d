/* sync.c - ports syncThreads (seed_KernelWriterModules.py). */
#include "kwgen/gen.h"
#include "kwgen/module.h"

#include <stdio.h>
#include <string.h>

#define NEED(var, key) do { if (kw_kernel_need(&(var), in->k, (key), who, err)) return err ? err->code : KW_EINVAL; } while (0)
#define OOM() kw_error_set(err, KW_ENOMEM, NULL, "out of memory")

int kw_gen_sync_threads(kw_item **out, const kw_gen_in *in, const kw_sync_args *a, kw_error *err)
{
	const char *who = "syncThreads";
	kw_item *mod = kw_module(in->arena, "syncThreads");
	int64_t nthreads, wave;

	if (!mod)
		return OOM();
	NEED(nthreads, KK_NumThreads);
	NEED(wave, KK_WavefrontSize);
	if (nthreads > wave) {
		kw_item *bar;

		if (in->caps->asm_[KW_ASM_SeparateVscnt]) {
			if (kw_module_add(in->arena, mod, kw_swaitcnt(in->arena, -1, -1, 0, -1, "extra navi wait", 0)))
				return OOM();
		} else {
			int64_t sia, pgr;
			int skip;

			NEED(sia, KK__ScheduleIterAlg);
			skip = sia == 2;
			if (!skip) {
				NEED(pgr, KK_PrefetchGlobalRead);
				skip = pgr >= 2 || a->skipForceWaitcnt0;
			}
			if (skip) {
				if (kw_module_add_comment(in->arena, mod, "Skip force waitcnt0"))
					return OOM();
			} else if (in->caps->arch[KW_ARCH_Waitcnt0Disabled]) {
				if (kw_module_add(in->arena, mod, kw_swaitcnt(in->arena, 0, 0, 0, -1, "force waitcnt0", 0)))
					return OOM();
			}
		}
		bar = kw_sbarrier(in->arena, in->caps, a->comment);
		if (!bar)
			return OOM();
		bar->u.barrier.tokens = a->memoryToken; /* scheduling token: kept, never printed */
		bar->u.barrier.ntokens = a->n_memoryToken;
		if (kw_module_add(in->arena, mod, bar))
			return OOM();
	} else {
		char head[64];
		size_t hn = (in->k->given_bool & (1ULL << KK_NumThreads))
			    ? (size_t)snprintf(head, sizeof(head), "Skip barrier: NumThreads=%s", nthreads ? "True" : "False")
			    : (size_t)snprintf(head, sizeof(head), "Skip barrier: NumThreads=%lld", (long long)nthreads);
		size_t cn = strlen(a->comment);
		char *c = kw_arena_alloc(in->arena, hn + cn + 1);

		if (!c)
			return OOM();
		memcpy(c, head, hn);
		memcpy(c + hn, a->comment, cn + 1);
		if (kw_module_add_comment(in->arena, mod, c))
			return OOM();
	}
	*out = mod;
	return 0;
}
