# mk/python.mk - the Python module (python/kwgen: ctypes over libkwgen.so).
#
#   make python-test    tests/python/test_kwgen.py: the whole golden set through
#                       kwgen.generate() and through the seed-shaped helpers,
#                       kwgen.asm() against `kwgen --asm`, errors, threads
#   make bench-python   calls per second of kwgen.generate() against the C CLI
#                       (kwgen --batch --jobs 1) on the same golden requests
#                       (BENCH_PYTHON_N requests, default all); not in `make test`

BENCH_PYTHON_N ?= 0

.PHONY: python-test bench-python

# GOLDEN_ZYGOTE (mk/golden.mk): the `kwgen --asm` runs that the module's
# text is compared with are children forked at main by one loaded kwgen
python-test: lib $(BUILD)/kwgen $(GOLDEN_ZYGOTE)
	$(HUGEPAGE_MALLOC_ENV) $(if $(GOLDEN_ZYGOTE),KWGEN_TOOL_ZYGOTE=$(abspath $(GOLDEN_ZYGOTE))) $(PYTHON) tests/python/test_kwgen.py --lib $(BUILD)/libkwgen.so --kwgen $(BUILD)/kwgen

bench-python: lib $(BUILD)/kwgen
	$(PYTHON) bench/bench_python.py --lib $(BUILD)/libkwgen.so --kwgen $(BUILD)/kwgen --n $(BENCH_PYTHON_N)

SUITES += python-test
