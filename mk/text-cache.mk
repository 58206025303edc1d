# mk/text-cache.mk - plain-text answers, request sources and the cache commands.
#
#   make text-cache-test   tests/e2e/text_cache_test.py: kwgen --asm, kwgen logic
#                          sources, kwgend's Accept: text/plain and DELETE, and
#                          kwgen cache stats|ls|show|rm|purge on a running
#                          daemon's file, as a user runs them

.PHONY: text-cache-test

text-cache-test: $(BUILD)/kwgen $(BUILD)/kwgend
	python3 tests/e2e/text_cache_test.py --kwgen $(BUILD)/kwgen --kwgend $(BUILD)/kwgend

# make test runs it once, against the sanitized kwgen and kwgend
# (asan-text-cache-test: the same assertions plus the sanitizers'; no check
# has a bound ASan voids)
ASAN_SUITES += text-cache-test
