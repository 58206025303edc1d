# mk/core.mk - sanitizer run and the generation benchmark.
#
#   make asan       the suites in $(ASAN_SUITES) with everything built with
#                   AddressSanitizer + UBSan (LeakSanitizer on) in build-asan/;
#                   an mk file adds a suite with `ASAN_SUITES += <target>`
#                   (the suite must use $(BUILD)/kwgen, $(BUILD)/kwgend)
#   make bench-gen  generation speed against the Python oracle (needs ../shared/oracle)

SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

ASAN_SUITES += unit golden
ASAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

.PHONY: asan
asan:
	@$(ASAN_ENV) python3 scripts/run-suites --make "$(MAKE)" --label asan --var BUILD=build-asan \
		--var OPT="$(SAN_FLAGS)" --var EXTRA_LDLIBS="-fsanitize=address,undefined" $(ASAN_SUITES)

$(BUILD)/bench/bench_gen: bench/bench_gen.c $(BUILD)/libkwgen.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(BUILD)/libkwgen.a $(LDLIBS_ALL)

bench-gen: $(BUILD)/kwgen $(BUILD)/bench/bench_gen
	python3 bench/bench_gen.py --build $(BUILD) --oracle $(or $(KWGEN_ORACLE),../shared/oracle)

SUITES += asan

# salt-check: the cache-key salt changes whenever a golden output changes.
.PHONY: salt-check salt-update
salt-check: $(BUILD)/kwgen
	python3 tests/golden/salt_check.py --kwgen $(BUILD)/kwgen

salt-update: $(BUILD)/kwgen
	python3 tests/golden/salt_check.py --kwgen $(BUILD)/kwgen --update

SUITES += salt-check

# clang-build: the whole tree and the unit tests under clang with the same
# -Werror flags (warnings clean under gcc and clang).
.PHONY: clang-build
clang-build:
	$(MAKE) CC=clang BUILD=build-clang all $(patsubst $(BUILD)/%,build-clang/%,$(UNIT_BINS))

SUITES += clang-build
