# mk/selftest.mk - the test suites tested: every check is fed a deliberately
# broken kwgen or kwgend (tests/selftest/selftest.py) and must fail.
#
#   make selftest [SELFTEST_ONLY=runner,bench,flags,golden,e2e,hardening,package,scaleout]

SELFTEST_ONLY ?=

.PHONY: selftest
selftest: $(BUILD)/kwgen $(BUILD)/kwgend $(BUILD)/bench/bench_gen
	python3 tests/selftest/selftest.py --kwgen $(BUILD)/kwgen --kwgend $(BUILD)/kwgend $(VERIFY_CACHE_ARG) \
		$(if $(SELFTEST_ONLY),--only $(SELFTEST_ONLY))

SUITES += selftest
TEST_BUILD += $(BUILD)/bench/bench_gen
