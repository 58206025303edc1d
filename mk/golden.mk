# Golden tests: kwgen against the oracle's answers, and llvm-mc over kwgen's output.
#   make golden      compare `kwgen --batch` with tests/golden/answers.jsonl.gz, in
#                    the oracle form and the farm form, and GOLDEN_SINGLE (default
#                    300, -1 = all) requests in single mode, one process each,
#                    and (GOLDEN_SINGLE_COVER=1, the default) the first request of
#                    each generator x {answer, error} and of each ISA spelling;
#                    single mode in both forms (GOLDEN_SINGLE_FARM, below)
#   make golden-sample  every GOLDEN_EVERY-th (default 20) request, oracle and
#                    farm form, 10 in single mode (make check's golden tier)
#   make check-asm   assemble kwgen's output with llvm-mc 22, check the diagnostics
#   make golden-data regenerate tests/golden/*.jsonl.gz (needs ../shared: oracle + corpus)
GOLDEN_PYTHON ?= python3
LLVM_MC ?= /usr/lib/llvm-22/bin/llvm-mc
SHARED  ?= ../shared

.PHONY: golden golden-sample check-asm golden-data

GOLDEN_SINGLE ?= 300
GOLDEN_SINGLE_COVER ?= 1

# GOLDEN_SINGLE_FARM=1: single mode in the farm form too (default; not under
# ASan, BUILD=build-asan: kwgen answers a request with the same code in
# single mode and --batch, so the farm form's ~70 single-mode ASan processes
# reach no code that the ASan --batch farm form and the oracle form's single
# mode do not; the release run keeps them, checking their answers)
GOLDEN_SINGLE_FARM ?= $(if $(filter build-asan,$(BUILD)),,1)

# GOLDEN_SALT=1 (default; not under ASan): also the salt check of
# salt-check (tests/golden/salt_check.py) on the oracle-form answers golden
# compares, instead of a second kwgen --batch over the golden requests
GOLDEN_SALT ?= $(if $(filter build-asan,$(BUILD)),,1)

# GOLDEN_ZYGOTE: single mode's processes are children forked at main by
# one kwgen loaded with this library (tests/verify/tools/zygote.c,
# tests/lib/zygote.py), not an exec each: each is still its own process
# (stdin, pretty stdout, exit status, stderr checked), without the dynamic
# loader's relocations and page faults that every other kwgen run of the
# suites (the two --batch runs here) goes through; ~70 % of a single-mode
# run's CPU was loading.  Not under ASan (its own tree).  GOLDEN_ZYGOTE=
# runs one exec per request.
GOLDEN_ZYGOTE ?= $(if $(filter build-asan,$(BUILD)),,$(BUILD)/tests/zygote.so)

golden: $(BUILD)/kwgen $(GOLDEN_ZYGOTE)
	$(HUGEPAGE_MALLOC_ENV) $(if $(GOLDEN_ZYGOTE),KWGEN_TOOL_ZYGOTE=$(abspath $(GOLDEN_ZYGOTE))) $(GOLDEN_PYTHON) tests/golden/compare.py --kwgen $(BUILD)/kwgen --farm --single $(GOLDEN_SINGLE) \
		$(if $(GOLDEN_SINGLE_COVER),--single-cover) $(if $(GOLDEN_SINGLE_FARM),,--single-oracle-only) \
		$(if $(GOLDEN_SALT),--salt)

GOLDEN_EVERY ?= 20

golden-sample: $(BUILD)/kwgen
	$(HUGEPAGE_MALLOC_ENV) $(GOLDEN_PYTHON) tests/golden/compare.py --kwgen $(BUILD)/kwgen --farm --single 10 --every $(GOLDEN_EVERY)

# check-asm's llvm-mc runs (one per ISA and 400 snippets) are children of
# an llvm-mc loaded once per thread (the verify suites' zygote,
# mk/verify-tests.mk): loading libLLVM is ~0.1 s of CPU of each run.
# CHECK_ASM_ZYGOTE= runs one llvm-mc process per run.
CHECK_ASM_ZYGOTE ?= $(BUILD)/tests/zygote.so

check-asm: $(BUILD)/kwgen $(CHECK_ASM_ZYGOTE)
	$(HUGEPAGE_MALLOC_ENV) $(if $(CHECK_ASM_ZYGOTE),KWGEN_TOOL_ZYGOTE=$(abspath $(CHECK_ASM_ZYGOTE))) \
		LLVM_MC=$(LLVM_MC) $(GOLDEN_PYTHON) tests/golden/check_asm.py --kwgen $(BUILD)/kwgen

golden-data:
	$(GOLDEN_PYTHON) tests/golden/make_handwritten.py --shared $(SHARED)
	$(GOLDEN_PYTHON) tests/golden/make_golden.py --shared $(SHARED)

SUITES += golden check-asm
