# mk/core.mk - sanitizer run and the generation benchmark.
#
#   make asan       unit + golden tests built with AddressSanitizer + UBSan (build-asan/)
#   make bench-gen  generation speed against the Python oracle (needs ../shared/oracle)

SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

asan:
	$(MAKE) BUILD=build-asan OPT="$(SAN_FLAGS)" EXTRA_LDLIBS="-fsanitize=address,undefined" \
		ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 unit golden

$(BUILD)/bench/bench_gen: bench/bench_gen.c $(BUILD)/libkwgen.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(BUILD)/libkwgen.a $(LDLIBS_ALL)

bench-gen: $(BUILD)/kwgen $(BUILD)/bench/bench_gen
	python3 bench/bench_gen.py --build $(BUILD) --oracle $(or $(KWGEN_ORACLE),../shared/oracle)

test: asan

# salt-check: the cache-key salt changes whenever a golden output changes.
.PHONY: salt-check salt-update
salt-check: $(BUILD)/kwgen
	python3 tests/golden/salt_check.py --kwgen $(BUILD)/kwgen

salt-update: $(BUILD)/kwgen
	python3 tests/golden/salt_check.py --kwgen $(BUILD)/kwgen --update

test: salt-check

# clang-build: the whole tree and the unit tests under clang with the same
# -Werror flags (warnings clean under gcc and clang).
.PHONY: clang-build
clang-build:
	$(MAKE) CC=clang BUILD=build-clang all $(patsubst $(BUILD)/%,build-clang/%,$(UNIT_BINS))

test: clang-build
