# mk/fuzz.mk - libFuzzer harnesses (tests/fuzz/), built with clang,
# AddressSanitizer and UBSan into $(FUZZ_BUILD) (build/ is not touched).
#
#   make fuzz        every harness: the regression inputs, then FUZZ_SECONDS
#                    (default 60) of fuzzing from a copy of the seed corpus
#   make fuzz-long   the same with FUZZ_SECONDS=600 per harness
#   make fuzz-bins   build the harnesses only
#
# Findings (crash, leak, timeout, UBSan report) are written to
# $(FUZZ_BUILD)/findings/; minimise one with
#   $(FUZZ_BUILD)/fuzz_request -minimize_crash=1 -runs=10000 FILE
# and commit it to tests/fuzz/regressions/ once fixed.
# Packages: scripts/deps/fuzz.txt.

FUZZ_CC      ?= clang
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_RSS_MB  ?= 2048
FUZZ_TIMEOUT ?= 10
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS  := $(CSTD) $(WARN) -O1 -g -fno-omit-frame-pointer $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
		-Ilib/include -Ilib $(shell pkg-config --cflags jansson libcrypto 2>/dev/null)
FUZZ_LDLIBS  := $(shell pkg-config --libs jansson libcrypto 2>/dev/null) -lpthread -lm
# The request path needs no cache (lib/cache.c, SQLite).
FUZZ_LIB_SRCS := $(filter-out lib/cache.c,$(LIB_SRCS))
FUZZ_LIB_OBJS := $(FUZZ_LIB_SRCS:%.c=$(FUZZ_BUILD)/obj/%.o)
FUZZ_HARNESSES := fuzz_request fuzz_key fuzz_verify
FUZZ_BINS    := $(FUZZ_HARNESSES:%=$(FUZZ_BUILD)/%)

.PHONY: fuzz fuzz-long fuzz-bins fuzz-clean
.SECONDARY: $(FUZZ_HARNESSES:%=$(FUZZ_BUILD)/obj/tests/fuzz/%.o)

$(FUZZ_BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

$(FUZZ_BUILD)/libkwgen-fuzz.a: $(FUZZ_LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/obj/tests/fuzz/fuzz_%.o $(FUZZ_BUILD)/libkwgen-fuzz.a
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $< $(FUZZ_BUILD)/libkwgen-fuzz.a $(FUZZ_LDLIBS)

fuzz-bins: $(FUZZ_BINS)

fuzz: fuzz-bins
	sh tests/fuzz/run.sh --build $(FUZZ_BUILD) --seconds $(FUZZ_SECONDS) --rss-mb $(FUZZ_RSS_MB) \
		--timeout $(FUZZ_TIMEOUT) $(FUZZ_HARNESSES)

fuzz-long:
	$(MAKE) fuzz FUZZ_SECONDS=600

fuzz-clean:
	rm -rf $(FUZZ_BUILD)

clean: fuzz-clean

SUITES += fuzz

-include $(FUZZ_LIB_OBJS:.o=.d) $(FUZZ_HARNESSES:%=$(FUZZ_BUILD)/obj/tests/fuzz/%.d)
