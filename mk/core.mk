# mk/core.mk - sanitizer run and the generation benchmark.
#
#   make asan       the suites in $(ASAN_SUITES) with kwgen, kwgend, the library
#                   and the unit tests built with AddressSanitizer + UBSan
#                   (LeakSanitizer on) in build-asan/: unit, golden (oracle
#                   and farm form through --batch, a sample in single mode),
#                   e2e and hardening against the sanitized kwgend.  An mk
#                   file adds a suite with `ASAN_SUITES += <target>`; the
#                   suite must run $(BUILD)/kwgen and $(BUILD)/kwgend (BUILD is
#                   build-asan there).  Shorter runs: $(ASAN_VARS).
#   make asan-full  the same with every golden request in single mode and
#                   the full kill -9 loop
#   make bench-gen  kwgen against the Python oracle (needs ../shared/oracle): the
#                   same stages timed on both sides, one thread against one and
#                   all cores against all cores, median [min-max] of BENCH_RUNS
#                   (5) / BENCH_ORACLE_RUNS (3) runs, outputs checked first

# -g1: line tables and function names, what a sanitizer report's stack
# shows (gcc's -g added variable descriptions no report prints: a fifth
# of the ASan build's compile time)
SAN_FLAGS := -O1 -g1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

ASAN_SUITES += unit golden e2e hardening
# quarantine_size_mb=32 (the runtime's default is 256): AddressSanitizer
# keeps a freed block from reuse until 32 MB of later frees have pushed it
# out of its quarantine (first in, first out), and reports a use of it
# while it is there.  Every MB the quarantine holds is memory the
# allocator cannot hand out again, so a process that frees a lot first-
# touches that much more (~12 ms of CPU per MB on the test VM): a --batch
# over the golden requests peaked at 445 MB of RSS with 128,000 page
# faults, with 32 at 109 MB and 32,000; test_cache 82,000 -> 35,000
# faults; asan-golden 383,000 -> 188,000 faults, ~32 -> ~22 s of CPU
# (tests/asan/README.md).  What is still caught: a use after free within
# the next 32 MB of frees, which is more than one request, one batch item,
# or one --batch job's output chunk (32 MiB) of the suites frees, so a
# dangling pointer within a request, across the items of a chunk, or
# between threads serving requests side by side is reported as before.
# What is lost: a use after more than 32 MB of frees (a pointer held
# across hundreds of requests), which 256 MB bounds too, only later.
# LeakSanitizer, the redzones (overflows) and UBSan are unchanged.
ASAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:quarantine_size_mb=32 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# asan-golden: every golden request through --batch (both forms), and in
# single mode 30 spread over the set plus the first of each generator x
# {answer, error} and of each ISA spelling (GOLDEN_SINGLE_COVER, default on):
# every single-mode path under the sanitizers in ~140 processes, not 600.
# The plain golden suite compares 300 + those in single mode.
# asan-serve-latency: 2 s of /healthz and hits while 24-item (9 MiB) batches
# generate: the code paths of serve-latency's 6 s beside 64 MiB batches
# (whose figure it keeps), under the sanitizers; a 175-item batch took 23 s
# under ASan, all of it after the 2 s measured.
ASAN_VARS ?= HARDENING_KILL_CYCLES=5 GOLDEN_SINGLE=30 SERVE_SECONDS=2 SERVE_BATCH_ITEMS=24
ASAN_FULL_VARS ?= GOLDEN_SINGLE=-1 GOLDEN_SINGLE_FARM=1

# One ASan build (build-asan/) serves every asan-<suite>: asan-bins builds
# it; make test builds it once before the suites start (TEST_BUILD).
# The programs link the sanitizer runtimes statically (-static-libasan
# -static-libubsan; a shared library links none, as before): with the shared
# runtimes every process's LeakSanitizer pass at exit scanned their 12 MB of
# .bss and its start relocated them, ~40 ms of CPU per process (a kwgen
# --version 110 -> 75 ms), and the suites start thousands of processes.
# -no-pie: a position-independent program's start relocates every pointer
# in its data (52,000 relocations here: the sanitizers' global and check
# descriptions), copying each page of .data it writes; linked at a fixed
# address none are left, and a kwgen --version under ASan takes ~350 page
# faults and ~10 ms of CPU less (1,250 -> 900 faults before LeakSanitizer's
# pass).  The objects stay -fPIC (the library's .so is linked from them).
# -L$(ASAN_RT_DIR): the runtime archive those programs link with
# -static-libasan is a copy of the toolchain's in which the runtime's stack
# depot (4.75 MB of .bss: stack ids and the maps of the runtime's own
# mappings, no heap address) sits at the end of the program's writable
# segment, and tests/asan/lsan_roots.c, the programs' dl_iterate_phdr,
# reports that segment without it: LeakSanitizer's exit scan of the globals
# read-faulted the depot's ~1,150 untouched pages one by one, ~15-19 ms of
# CPU of a short ASan process's ~50-60 (a kwgen --version 49 -> 32 ms, a
# single request 63 -> 43 ms), and make test starts ~1,000 of them.  Every
# other writable byte of every module is still scanned, by the runtime's own
# code, and nothing else changes (asan-lsan-roots checks the reports).
# tests/asan/runtime.sh makes the copy, and falls back to the runtime as
# shipped when its checks fail; tests/asan/README.md says how it was
# measured.  The driver links no static libasan into a shared library, so
# the library never gets it.
# SAN_COLD_OPT: build-asan/ compiles the code the ASan suites run little of
# (the verifier, the code-object reader, the logic reader, the store's glue
# over SQLite, the CLI and the daemon: 80 % of the tree's compile CPU) at
# -Og, the rest (lib/*.c, lib/gen, lib/isa: request -> kernel text, what
# every generating suite runs) at -O1.  gcc at -Og keeps at least the memory
# accesses -O1 keeps, and ASan and UBSan check what is kept: the same
# checks, in ~28 % less compile CPU (12 files: 16.3 -> 11.7 s of CPU,
# alternated twice; instructions of cc1 and as under callgrind:
# lib/verify/flow.c 3.35 -> 2.22 G, server/http.c 1.40 -> 1.15 G; these
# files took 27.5 s of a fresh clone's make test build: ~7.5 s less).  Measured
# at run time: `kwgen verify` on the 160 corpus kernels and `kwgen
# --version` the same CPU; the generators were left at -O1 because a
# 19,784-request `kwgen --batch` took ~15 % more CPU at -Og.
# --param=asan-instrumentation-with-call-threshold=0: in those files each
# checked access calls the runtime's __asan_load<N>/__asan_store<N> (the
# same shadow check, the same report) instead of an inline check: another
# ~25 % less compile CPU (flow.c, sfacts.c, http.c, logic.c alternated three
# times: 3.4 -> 2.6 s); `kwgen verify` on the corpus kernels ~3 % more
# CPU (0.91 -> 0.94 s), a 2,000-request `kwgen --batch` the same.
SAN_COLD_OPT ?= -Og --param=asan-instrumentation-with-call-threshold=0
SAN_COLD_SRCS := $(wildcard lib/verify/*.c lib/codeobj/*.c lib/logic/*.c lib/store/*.c cli/*.c server/*.c)
ifeq ($(OPT),$(SAN_FLAGS))
$(SAN_COLD_SRCS:%.c=$(BUILD)/obj/%.o): EXTRA_CFLAGS += $(SAN_COLD_OPT)
endif
ASAN_RT_DIR := build-asan/asan-rt
ASAN_RT := $(ASAN_RT_DIR)/libasan.a
SAN_LDFLAGS := -fsanitize=address,undefined -static-libasan -static-libubsan -no-pie -L$(ASAN_RT_DIR) $(TEST_LD)
ASAN_MAKE = $(MAKE) --no-print-directory BUILD=build-asan OPT="$(SAN_FLAGS)" \
	EXTRA_LDLIBS="$(SAN_LDFLAGS)"

.PHONY: asan asan-full asan-bins
# (in the ASan make: the programs and unit tests link the archive; the
# recipes name their inputs, so it is not passed twice; the unit-test
# program: mk/unit.mk)
ifneq ($(filter -L$(ASAN_RT_DIR),$(EXTRA_LDLIBS)),)
$(BUILD)/kwgen $(BUILD)/kwgend $(BUILD)/tests/asan/roots_check: $(ASAN_RT)
endif
# not instrumented: it runs beside the runtime, at exit
$(ASAN_RT): tests/asan/runtime.sh tests/asan/lsan_roots.c
	@mkdir -p $(dir $@)
	sh tests/asan/runtime.sh "$(CC)" $@ tests/asan/lsan_roots.c $(CSTD) $(WARN) -O2 -fPIC

# (the programs and the unit tests: no asan-<suite> loads the shared library)
asan-bins:
	+@$(ASAN_MAKE) build-asan/kwgen $(if $(SRV_SRCS),build-asan/kwgend) $(UNIT_BINS:$(BUILD)/%=build-asan/%) \
		$(LSAN_ROOTS_BINS:$(BUILD)/%=build-asan/%)

# asan-<suite>: make <suite> against the sanitized binaries
asan-%:
	@$(ASAN_ENV) $(ASAN_MAKE) $(ASAN_VARS) $*

# lsan-roots (make test runs it as asan-lsan-roots): LeakSanitizer still
# finds a dropped block and no block a global holds, AddressSanitizer a heap
# overflow, in a program linked as build-asan/'s are (tests/asan/roots_check.sh);
# the plain build's run prints SKIPPED.
LSAN_ROOTS_BINS = $(BUILD)/tests/asan/roots_check $(BUILD)/tests/asan/roots_lib.so
$(BUILD)/tests/asan/roots_check: tests/asan/roots_check.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(TEST_LD) -o $@ $< $(EXTRA_LDLIBS) -ldl
$(BUILD)/tests/asan/roots_lib.so: tests/asan/roots_lib.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -O2 -fPIC -shared -o $@ $<
.PHONY: lsan-roots
lsan-roots: $(LSAN_ROOTS_BINS)
	@sh tests/asan/roots_check.sh $(LSAN_ROOTS_BINS)
ASAN_SUITES += lsan-roots

asan: asan-bins
	@$(RUN_SUITES) --label asan $(ASAN_SUITES:%=asan-%)

asan-full:
	$(MAKE) asan ASAN_VARS="$(ASAN_FULL_VARS)"

$(BUILD)/bench/bench_gen: bench/bench_gen.c $(BUILD)/libkwgen.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(BUILD)/libkwgen.a $(LDLIBS_ALL)

BENCH_RUNS ?= 5
BENCH_ORACLE_RUNS ?= 3

bench-gen: $(BUILD)/kwgen $(BUILD)/bench/bench_gen
	python3 bench/bench_gen.py --build $(BUILD) --oracle $(or $(KWGEN_ORACLE),../shared/oracle) \
		--runs $(BENCH_RUNS) --oracle-runs $(BENCH_ORACLE_RUNS) --json $(BUILD)/bench-gen.json

SUITES += asan

# salt-check: the cache-key salt changes whenever a golden output changes.
.PHONY: salt-check salt-update
salt-check: $(BUILD)/kwgen
	python3 tests/golden/salt_check.py --kwgen $(BUILD)/kwgen

salt-update: $(BUILD)/kwgen
	python3 tests/golden/salt_check.py --kwgen $(BUILD)/kwgen --update

# make test does not run salt-check: the golden suite checks the salt on the
# answers it compares (compare.py --salt).

# clang-build: every C file of the tree (library, store, logic, codeobj, CLI,
# daemon, unit tests) under clang with the same -Werror flags (warnings
# clean under gcc and clang).  Front end only (-fsyntax-only), many files per
# clang process: clang's -Wall -Wextra warnings all come from its front end
# (Sema and its CFG analyses: -Wuninitialized, -Wsometimes-uninitialized
# too), so code generation and linking added none, only CPU; and clang's
# start (0.16 s of CPU: it maps libclang-cpp and libLLVM) once per file was
# most of what was left: one front end now checks every file of a group.  -O0 as before (what __OPTIMIZE__ selects in the
# system headers).  tests/README.md says how this was checked.
# The files the fuzz harnesses compile (mk/fuzz.mk: the library, the store,
# lib/logic, the daemon's request path) are compiled there by clang with
# the same $(WARN) (-Werror): clang-build takes those objects (make test
# builds them before the suites, TEST_BUILD) instead of reading the files
# a second time, and checks the rest.
CLANG_BUILD_OPT ?= -O0
.PHONY: clang-build clang-syntax
clang-build:
	$(MAKE) CC=clang BUILD=build-clang OPT="$(CLANG_BUILD_OPT)" clang-syntax

# Files compiled with flags of their own (mk/logic.mk, mk/ui.mk,
# mk/verify-tests.mk) get them here too, each group in one clang run.
CLANG_OWN_FLAGS_SRCS := cli/logic_curl.c server/ui.c $(CODEOBJ_SRCS)
CLANG_FUZZ_OBJS = $(FUZZ_LIB_OBJS) $(FUZZ_CACHE_OBJ) $(FUZZ_SRV_OBJS) $(FUZZ_YAML_OBJS)
CLANG_FUZZ_SRCS = $(patsubst $(FUZZ_BUILD)/obj/%.o,%.c,$(CLANG_FUZZ_OBJS))
CLANG_SYNTAX_SRCS = $(filter-out $(CLANG_OWN_FLAGS_SRCS) $(CLANG_FUZZ_SRCS),$(LIB_SRCS) $(STORE_SRCS) \
	$(LOGIC_LIB_SRCS) $(CLI_SRCS) $(SRV_SRCS) $(UNIT_SRCS))
CLANG_SYNTAX_HDRS = $(wildcard lib/include/kwgen/*.h lib/*.h lib/*/*.h cli/*.h server/*.h tests/unit/*.h)
# (and $(CLANG_FUZZ_OBJS), named in mk/fuzz.mk, which defines them after this file)
clang-syntax: $(BUILD)/clang-syntax.stamp
# Every group runs even when an earlier one fails, so one run names every warning.
CLANG_SYNTAX_RUNS = \
	"$(CFLAGS_ALL) $(CLANG_SYNTAX_SRCS)" \
	"$(CFLAGS_ALL) $(if $(CURL_SONAME),-DKW_CURL_SONAME='\"$(CURL_SONAME)\"') cli/logic_curl.c" \
	"$(CFLAGS_ALL) -I$(BUILD)/gen server/ui.c" \
	$(if $(CODEOBJ_SRCS),"$(CFLAGS_ALL) $(LLVM_CFLAGS) $(if $(LLVM_SONAME),-DKW_LLVM_SONAME='\"$(LLVM_SONAME)\"') $(CODEOBJ_SRCS)")
# scripts/clang-syntax runs each group's files through one clang front end
# (the driver given many files starts a front-end process per file, and
# loading clang was ~0.16 s of the ~0.2 s of CPU each file cost).
$(BUILD)/clang-syntax.stamp: $(CLANG_SYNTAX_SRCS) $(CLANG_OWN_FLAGS_SRCS) $(CLANG_SYNTAX_HDRS) \
		$(BUILD)/gen/ui_assets.h scripts/clang-syntax
	python3 scripts/clang-syntax $(CC) $(CLANG_SYNTAX_RUNS)
	@touch $@

SUITES += clang-build
