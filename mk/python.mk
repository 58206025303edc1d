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

python-test: lib $(BUILD)/kwgen
	$(HUGEPAGE_MALLOC_ENV) $(PYTHON) tests/python/test_kwgen.py --lib $(BUILD)/libkwgen.so --kwgen $(BUILD)/kwgen

bench-python: lib $(BUILD)/kwgen
	$(PYTHON) bench/bench_python.py --lib $(BUILD)/libkwgen.so --kwgen $(BUILD)/kwgen --n $(BENCH_PYTHON_N)

SUITES += python-test
