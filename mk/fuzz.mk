# mk/fuzz.mk - libFuzzer harnesses (tests/fuzz/), built with clang,
# AddressSanitizer and UBSan into $(FUZZ_BUILD) (build/ is not touched).
#
#   fuzz_request  request JSON -> parse -> generate -> answer (libkwgen)
#   fuzz_key      canonical form and key of a request
#   fuzz_verify   kwgen verify's reader and model
#   fuzz_http     kwgend's handlers without sockets: path + body -> route ->
#                 parse -> answer, batch splitting, SQLite cache and memo
#   fuzz_batch    `kwgen --batch` (cli/kwgen.c's run_batch) on JSON lines
#   fuzz_yaml     the logic YAML reader and request derivation (lib/logic/:
#                 `kwgen logic`, kwgend's application/yaml), one solution's text
#   fuzz_cache    the SQLite cache's key and row paths
#
#   make fuzz        every harness: the regression inputs, then every seed of
#                    the seed corpus once and FUZZ_RUNS executions of
#                    mutations after them per harness (a few seconds each on
#                    an idle machine; make test runs this; FUZZ_SECONDS,
#                    default 300, only bounds a hang), from a copy
#                    of the seed corpus ($(FUZZ_BUILD)/seeds-<harness>/,
#                    made at build time from the repository's real inputs
#                    by tests/fuzz/make_seeds_paths.py; else tests/fuzz/seeds/,
#                    written by tests/fuzz/make_seeds.py), with libFuzzer's -seed fixed
#                    (FUZZ_SEED, default 1) so the run does the same on every
#                    machine and CI is not decided by chance.  This is the
#                    short run for CI: every seed and regression input checked,
#                    a quarter of the mutations it once made; the long search
#                    for new findings is make fuzz-long.
#   make fuzz-long   FUZZ_SECONDS=600 of fuzzing per harness (no FUZZ_RUNS)
#                    and a new random seed each run (FUZZ_SEED=0), with
#                    harnesses built at -O1 in $(FUZZ_BUILD)-O1 (make fuzz
#                    builds them at -O0: FUZZ_OPT)
#   make fuzz-bins   build the harnesses only
#
# Findings (crash, leak, timeout, UBSan report) are written to
# $(FUZZ_BUILD)/findings/; minimise one with
#   $(FUZZ_BUILD)/fuzz_request -minimize_crash=1 -runs=10000 FILE
# and commit it to tests/fuzz/regressions/ once fixed.
# Packages: scripts/deps/fuzz.txt.

FUZZ_CC      ?= clang
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?= 300
# executions of mutations per harness in make fuzz, after its seeds: a
# count, not a time, so that the run does the same on every machine (with
# FUZZ_SEED fixed)
FUZZ_RUNS    ?= fuzz_request=1000,fuzz_key=1200,fuzz_verify=200,fuzz_http=800,fuzz_batch=250,fuzz_yaml=200,fuzz_cache=400
FUZZ_RSS_MB  ?= 2048
FUZZ_TIMEOUT ?= 10
# libFuzzer's -seed: fixed in make fuzz (same mutations on every run), 0 = a new one
FUZZ_SEED    ?= 1
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all
# -gline-tables-only: a report's stack names every function, file and line
# (what -g gave it); no variable descriptions, a quarter less compile time.
# -O0 for make fuzz (make test): the short run executes a fixed number of
# inputs, so what counts is the compile: the harnesses' tree built in
# ~40 % of -O1's CPU (measured: 55 -> 33 s of CPU for fuzz-bins and the
# seeds), the suite itself ~3 s of CPU slower (15 -> 18 s); the
# sanitizers check at -O0 all they check at -O1.  make fuzz-long, where
# executions per second count, builds an -O1 tree of its own
# ($(FUZZ_BUILD)-O1).
FUZZ_OPT     ?= -O0
FUZZ_CFLAGS  := $(CSTD) $(WARN) $(FUZZ_OPT) -gline-tables-only -fno-omit-frame-pointer $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
		-Ilib/include -Ilib -Icli -Iserver \
		$(KW_CFG_FUZZ_CFLAGS)
FUZZ_LDLIBS  := $(KW_CFG_PKG_LIBS) -lpthread -lm
FUZZ_SQL_LIBS := $(KW_CFG_STORE_LIBS)
# The request path needs no cache (lib/store, SQLite): LIB_SRCS holds none of it.
FUZZ_LIB_SRCS := $(LIB_SRCS)
FUZZ_LIB_OBJS := $(FUZZ_LIB_SRCS:%.c=$(FUZZ_BUILD)/obj/%.o)
FUZZ_HARNESSES := fuzz_request fuzz_key fuzz_verify fuzz_http fuzz_batch fuzz_yaml fuzz_cache
FUZZ_BINS    := $(FUZZ_HARNESSES:%=$(FUZZ_BUILD)/%)
# What a harness links besides libkwgen-fuzz.a
FUZZ_CACHE_OBJ := $(STORE_SRCS:%.c=$(FUZZ_BUILD)/obj/%.o)
FUZZ_SRV_OBJS := $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,server/kernels.c server/kernels_get.c server/answer.c server/reply.c server/flight.c \
		server/admit.c server/memo.c server/metrics.c server/log.c server/work.c server/testhook.c)
FUZZ_YAML_OBJS := $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(sort $(wildcard lib/logic/*.c)))

.PHONY: fuzz fuzz-long fuzz-bins fuzz-clean
.SECONDARY: $(FUZZ_HARNESSES:%=$(FUZZ_BUILD)/obj/tests/fuzz/%.o)

$(FUZZ_BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

$(FUZZ_BUILD)/libkwgen-fuzz.a: $(FUZZ_LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/obj/tests/fuzz/fuzz_%.o $(FUZZ_BUILD)/libkwgen-fuzz.a
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer $(TEST_LD) -o $@ $< $(FUZZ_BUILD)/libkwgen-fuzz.a $(FUZZ_LDLIBS)

$(FUZZ_BUILD)/fuzz_http: $(FUZZ_BUILD)/obj/tests/fuzz/fuzz_http.o $(FUZZ_SRV_OBJS) $(FUZZ_CACHE_OBJ) \
		$(FUZZ_BUILD)/libkwgen-fuzz.a
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer $(TEST_LD) -o $@ $(filter %.o,$^) $(FUZZ_BUILD)/libkwgen-fuzz.a \
		$(FUZZ_SQL_LIBS) $(FUZZ_LDLIBS)

$(FUZZ_BUILD)/fuzz_cache: $(FUZZ_BUILD)/obj/tests/fuzz/fuzz_cache.o $(FUZZ_CACHE_OBJ) $(FUZZ_BUILD)/libkwgen-fuzz.a
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer $(TEST_LD) -o $@ $(filter %.o,$^) $(FUZZ_BUILD)/libkwgen-fuzz.a \
		$(FUZZ_SQL_LIBS) $(FUZZ_LDLIBS)

$(FUZZ_BUILD)/fuzz_yaml: $(FUZZ_BUILD)/obj/tests/fuzz/fuzz_yaml.o $(FUZZ_YAML_OBJS) $(FUZZ_BUILD)/libkwgen-fuzz.a
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer $(TEST_LD) -o $@ $(filter %.o,$^) $(FUZZ_BUILD)/libkwgen-fuzz.a \
		$(KW_CFG_YAML_LIBS) $(FUZZ_LDLIBS)

# fuzz_batch.c includes cli/kwgen.c (its main() renamed)
$(FUZZ_BUILD)/obj/tests/fuzz/fuzz_batch.o: cli/kwgen.c

fuzz-bins: $(FUZZ_BINS)

# seed corpora of the path harnesses, from the repository's real inputs
# (seeds-fuzz_verify: the verifier's cases and LLVM kernels, decompressed)
$(FUZZ_BUILD)/seeds.stamp: tests/fuzz/make_seeds_paths.py $(wildcard tests/fuzz/seeds/*.json) \
		$(wildcard tests/logic/fixtures/*.yaml) $(wildcard tests/bad-inputs/*.json) tests/golden/requests.jsonl.gz \
		tests/verify/cases/cases.jsonl $(wildcard tests/verify/cases/*.gz) $(wildcard tests/verify/llvm/*/*.s.gz) \
		tests/fuzz/fuzz_verify.c
	@mkdir -p $(FUZZ_BUILD)
	python3 tests/fuzz/make_seeds_paths.py --out $(FUZZ_BUILD)
	touch $@

fuzz: fuzz-bins $(FUZZ_BUILD)/seeds.stamp
	sh tests/fuzz/run.sh --build $(FUZZ_BUILD) --seconds $(FUZZ_SECONDS) --rss-mb $(FUZZ_RSS_MB) \
		--timeout $(FUZZ_TIMEOUT) --seed $(FUZZ_SEED) --seeds-root $(FUZZ_BUILD) \
		$(if $(FUZZ_RUNS),--runs $(FUZZ_RUNS)) $(FUZZ_HARNESSES)

fuzz-long:
	$(MAKE) fuzz FUZZ_SECONDS=600 FUZZ_SEED=0 FUZZ_RUNS= FUZZ_OPT=-O1 FUZZ_BUILD=$(FUZZ_BUILD)-O1

fuzz-clean:
	rm -rf $(FUZZ_BUILD) $(FUZZ_BUILD)-O1

clean: fuzz-clean

SUITES += fuzz
# built once, beside the suites that do not need them (mk/test.mk,
# TEST_LATER_BUILD): the fuzz suite runs them, clang-build takes their
# objects' warnings (mk/core.mk)
TEST_LATER_BUILD += fuzz-bins $(FUZZ_BUILD)/seeds.stamp
TEST_LATER_SUITES += fuzz clang-build
clang-syntax: $(CLANG_FUZZ_OBJS)

-include $(FUZZ_LIB_OBJS:.o=.d) $(FUZZ_HARNESSES:%=$(FUZZ_BUILD)/obj/tests/fuzz/%.d) \
	$(FUZZ_SRV_OBJS:.o=.d) $(FUZZ_YAML_OBJS:.o=.d) $(FUZZ_CACHE_OBJ:.o=.d)
