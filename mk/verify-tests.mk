# mk/verify-tests.mk - libkwgen-codeobj (AMDGPU code objects decoded with
# LLVM's C API; linked only by kwgen and kwgend, never into libkwgen) and
# the tests and benchmark of `kwgen verify` (tests/verify/).
#
#   make verify-test          every committed LLVM kernel verifies clean, every
#                             case reports its expected findings (corpus_test.py)
#   make verify-forms         .s, llvm-objdump text and code object of each
#                             kernel, case and VERIFY_FORMS_MUTANTS mutants give
#                             the same findings at the same instructions
#   make verify-mutants       mutation test: every wait relaxed, dropped or
#                             deleted, labelled by tests/verify/refsim.py;
#                             detection >= 98 %, no false alarm (per-ISA table)
#   make verify-mutants-short the same on 1 harmful mutant per file and every
#                             benign one
#   make verify-mutants-objdump[-short]  the same mutants in llvm-objdump form
#                             (assembled, disassembled; a deleted wait becomes
#                             s_nop 0 at the same address, as in shipped kernels)
#   make verify-isas          the corpus sources compiled with clang-22 for gfx908,
#                             gfx950, gfx1101, gfx1102, gfx1200 (and
#                             tests/verify/src-extra for all ten ISAs): no race,
#                             and the short mutation test over them
#   make verify-tensile       the labelled hand-written Tensile kernels of
#                             ../shared/verify-corpus/tensile, read in place:
#                             real races kept, infeasible ones pruned, LDS-latency
#                             reliance a warning, redundant_wait right
#                             (tests/verify/tensile_test.py; SKIPPED without ../shared)
#   make verify-inputs        every input form read whole or refused: nothing
#                             checked is exit 2, ELF symbol names cannot inject
#                             instructions, linked multi-kernel code objects,
#                             .long-word assembly (tests/verify/inputs_test.py)
#   make verify-route         POST /v1/verify and GET /v1/verify/{key} on kwgend
#                             (tests/e2e/verify_route_test.py)
#   make bench-verify-memory  kwgend's peak RSS per hostile POST /v1/verify body and
#                             its RSS after 10 s idle (bench/bench_verify_memory.py)
#   make bench-verify         MB/s of `kwgen verify` against llvm-mc assembling
#                             the same files (ratio, goal >= 1), and on code
#                             objects against llvm-objdump -d (per file, large,
#                             linked, 2M s_nop with peak RSS)
# Packages: llvm-22 (llvm-mc, llvm-objdump), llvm-22-dev (llvm-config, llvm-c),
# lld-22 (linked code objects), clang-22 (verify-isas).

# LLVM_CONFIG (default llvm-config-22) and what it answers: mk/config.mk
LLVM_CFLAGS  := $(KW_CFG_LLVM_CFLAGS)
# libLLVM is loaded at run time, on the first code object (dlopen of its
# soname; see lib/codeobj/codeobj.c): kwgen and kwgend do not pay for
# mapping it at every start.
LLVM_SONAME  := $(KW_CFG_LLVM_SONAME)
LLVM_LIBS    := -ldl
CODEOBJ_SRCS := $(sort $(wildcard lib/codeobj/*.c))
CODEOBJ_OBJS := $(CODEOBJ_SRCS:%.c=$(BUILD)/obj/%.o)
VERIFY_FORMS_MUTANTS ?= 40
VERIFY_JOBS  ?= 2
# What llvm-mc-22, llvm-objdump-22, ld.lld-22 and clang-22 make of the
# committed sources, keyed by tool version, arguments and input
# (tests/verify/batch.py): made once, read by every suite and every later
# run; `make clean` removes it, VERIFY_TOOL_CACHE= turns it off.
VERIFY_TOOL_CACHE ?= $(BUILD)/verify-cache
VERIFY_CACHE_ARG = $(if $(VERIFY_TOOL_CACHE),--tool-cache $(VERIFY_TOOL_CACHE))

# glibc's malloc on transparent huge pages (GLIBC_TUNABLES
# glibc.malloc.hugetlb=1, madvise mode) for the suites whose processes grow
# large heaps: the verifier's analysis of a Tensile kernel touches ~250 MB
# a page at a time (65,000 page faults, more than half its CPU on a
# virtual machine), and the Python of the golden and module checks holds
# the whole golden set.  Outputs do not change; verify-tensile 23 -> 14 s of
# CPU.  Not for suites with RSS checks (verify-inputs, verify-route: huge
# pages change what RSS counts).  HUGEPAGE_MALLOC_ENV= turns it off.
HUGEPAGE_MALLOC_ENV ?= GLIBC_TUNABLES=glibc.malloc.hugetlb=1
# The same for the suites whose kwgen processes verify many large kernels
# one after another: glibc also keeps what a kernel's analysis freed
# (blocks up to 32 MiB from the heap, not a fresh mmap each; the heap not
# trimmed) for the next kernel, which then touches no new page: a Tensile
# kernel's ~250 MB are faulted in once per process, not once per kernel
# (verify-tensile's kwgen: 40,000 -> 3,000 page faults, 4.4 -> 2.5 s of
# CPU a pass).  Outputs do not change.  VERIFY_MALLOC_ENV= turns it off.
VERIFY_MALLOC_ENV ?= GLIBC_TUNABLES=glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824

# llvm-mc-22, llvm-objdump-22, ld.lld-22 and clang-22 run from one loaded process per thread
# (tests/verify/tools/zygote.c, an LD_PRELOAD library; batch.py): a third
# of their CPU is loading libLLVM.  Built without the sanitizers (it goes
# into LLVM's tools, not ours).  VERIFY_ZYGOTE= runs one process per file.
VERIFY_ZYGOTE ?= $(BUILD)/tests/zygote.so
VERIFY_ZYGOTE_ENV = $(if $(VERIFY_ZYGOTE),KWGEN_TOOL_ZYGOTE=$(VERIFY_ZYGOTE))

$(BUILD)/tests/zygote.so: tests/verify/tools/zygote.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -O2 -fPIC -shared -o $@ $< -ldl
TEST_BUILD += $(BUILD)/tests/zygote.so

# make test fills it first (TEST_BUILD) with what two suites read (the
# committed kernels assembled and disassembled), so that suites running side
# by side do not both make it.
$(BUILD)/verify-cache.stamp: $(wildcard tests/verify/llvm/*/*.s.gz) tests/verify/tool_cache.py tests/verify/batch.py \
		tests/verify/mutants.py tests/verify/refsim.py $(VERIFY_ZYGOTE)
	$(VERIFY_ZYGOTE_ENV) python3 tests/verify/tool_cache.py --tool-cache $(VERIFY_TOOL_CACHE) --jobs $(VERIFY_JOBS) --stamp $@
ifneq ($(VERIFY_TOOL_CACHE),)
TEST_BUILD += $(BUILD)/verify-cache.stamp
endif

$(CODEOBJ_OBJS): EXTRA_CFLAGS += $(LLVM_CFLAGS) $(if $(LLVM_SONAME),-DKW_LLVM_SONAME='"$(LLVM_SONAME)"')

$(BUILD)/libkwgen-codeobj.a: $(CODEOBJ_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/tests/codeobj_dump: tests/verify/tools/codeobj_dump.c $(BUILD)/libkwgen-codeobj.a $(BUILD)/libkwgen.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(BUILD)/libkwgen-codeobj.a $(BUILD)/libkwgen.a $(LDLIBS_ALL) $(LLVM_LIBS)

# kwgen verify and POST /v1/verify read code objects: the CLI and the
# daemon link the decoder, which loads LLVM (libkwgen itself never does).  libkwgen.a again after it: the decoder
# uses kw_buf and kw_error.
$(BUILD)/kwgen $(BUILD)/kwgend: $(BUILD)/libkwgen-codeobj.a
CLI_LDLIBS += $(BUILD)/libkwgen-codeobj.a $(BUILD)/libkwgen.a $(LLVM_LIBS)
SRV_LDLIBS += $(BUILD)/libkwgen-codeobj.a $(BUILD)/libkwgen.a $(LLVM_LIBS)

.PHONY: verify-inputs verify-test verify-forms verify-mutants verify-mutants-short verify-mutants-objdump \
	verify-mutants-objdump-short bench-verify verify-route verify-isas verify-tensile

verify-test: $(BUILD)/kwgen
	$(HUGEPAGE_MALLOC_ENV) python3 tests/verify/corpus_test.py --kwgen $(BUILD)/kwgen --jobs $(VERIFY_JOBS)

verify-inputs: $(BUILD)/kwgen $(VERIFY_ZYGOTE)
	$(VERIFY_ZYGOTE_ENV) python3 tests/verify/inputs_test.py --kwgen $(BUILD)/kwgen

verify-forms: $(BUILD)/kwgen $(BUILD)/tests/codeobj_dump $(VERIFY_ZYGOTE)
	$(HUGEPAGE_MALLOC_ENV) $(VERIFY_ZYGOTE_ENV) python3 tests/verify/objdump_test.py --kwgen $(BUILD)/kwgen --codeobj-dump $(BUILD)/tests/codeobj_dump \
		--mutants $(VERIFY_FORMS_MUTANTS) --jobs $(VERIFY_JOBS) $(VERIFY_CACHE_ARG)

verify-mutants: $(BUILD)/kwgen
	$(HUGEPAGE_MALLOC_ENV) python3 tests/verify/mutants.py --kwgen $(BUILD)/kwgen --jobs $(VERIFY_JOBS) --report $(BUILD)/verify-mutants.jsonl \
		$(VERIFY_CACHE_ARG)

verify-mutants-short: $(BUILD)/kwgen
	$(HUGEPAGE_MALLOC_ENV) python3 tests/verify/mutants.py --kwgen $(BUILD)/kwgen --jobs $(VERIFY_JOBS) --short 1 $(VERIFY_CACHE_ARG)

verify-mutants-objdump: $(BUILD)/kwgen $(VERIFY_ZYGOTE)
	$(HUGEPAGE_MALLOC_ENV) $(VERIFY_ZYGOTE_ENV) python3 tests/verify/mutants.py --kwgen $(BUILD)/kwgen --jobs $(VERIFY_JOBS) --form objdump \
		--report $(BUILD)/verify-mutants-objdump.jsonl $(VERIFY_CACHE_ARG)

verify-mutants-objdump-short: $(BUILD)/kwgen $(VERIFY_ZYGOTE)
	$(HUGEPAGE_MALLOC_ENV) $(VERIFY_ZYGOTE_ENV) python3 tests/verify/mutants.py --kwgen $(BUILD)/kwgen --jobs $(VERIFY_JOBS) --form objdump --short 1 \
		$(VERIFY_CACHE_ARG)

-include $(CODEOBJ_OBJS:.o=.d)

bench-verify: $(BUILD)/kwgen
	python3 bench/bench_verify.py --kwgen $(BUILD)/kwgen --json $(BUILD)/bench-verify.json

.PHONY: bench-verify-memory
bench-verify-memory: $(BUILD)/kwgend
	python3 bench/bench_verify_memory.py --kwgend $(BUILD)/kwgend --json $(BUILD)/bench-verify-memory.json

verify-isas: $(BUILD)/kwgen $(VERIFY_ZYGOTE)
	$(HUGEPAGE_MALLOC_ENV) $(VERIFY_ZYGOTE_ENV) python3 tests/verify/compile_test.py --kwgen $(BUILD)/kwgen --jobs $(VERIFY_JOBS) $(VERIFY_CACHE_ARG)

verify-tensile: $(BUILD)/kwgen
	$(VERIFY_MALLOC_ENV) python3 tests/verify/tensile_test.py --kwgen $(BUILD)/kwgen --jobs $(VERIFY_JOBS)

verify-route: $(BUILD)/kwgend $(BUILD)/kwgen
	python3 tests/e2e/verify_route_test.py --kwgend $(BUILD)/kwgend --kwgen $(BUILD)/kwgen

# verify-salt-check: kw_verify_version() (kwgend's cache salt for POST
# /v1/verify) changes whenever the committed corpus's findings change
# (tests/verify/salt.txt; verify-salt-update records a new pair).
.PHONY: verify-salt-check verify-salt-update
verify-salt-check: $(BUILD)/kwgen
	python3 tests/verify/salt_check.py --kwgen $(BUILD)/kwgen

verify-salt-update: $(BUILD)/kwgen
	python3 tests/verify/salt_check.py --kwgen $(BUILD)/kwgen --update

SUITES += verify-salt-check
TEST_BUILD += $(BUILD)/tests/codeobj_dump

# make test: the corpus, the three input forms, the short mutation run and
# the route; under ASan (build-asan/) the corpus and the route again.
SUITES += verify-test verify-inputs verify-forms verify-mutants-short verify-mutants-objdump-short verify-isas verify-route \
	verify-tensile
ASAN_SUITES += verify-test verify-route

# make verify-roclibs: every gfx908/gfx90a code object of Debian's
# librocsparse0 and librocrand1 (compiler output by another LLVM) read whole
# and free of race findings (tests/verify/roclibs_test.py; SKIPPED without
# the packages; not in make test: 1.3 GB of code objects, minutes)
.PHONY: verify-roclibs
verify-roclibs: $(BUILD)/kwgen
	python3 tests/verify/roclibs_test.py --kwgen $(BUILD)/kwgen
