# mk/text-cache.mk - plain-text answers, request sources and the cache commands.
#
#   make text-cache-test   tests/e2e/text_cache_test.py: kwgen --asm, kwgen logic
#                          sources, kwgend's Accept: text/plain and DELETE, and
#                          kwgen cache stats|ls|show|rm|purge on a running
#                          daemon's file, as a user runs them

.PHONY: text-cache-test

text-cache-test: $(BUILD)/kwgen $(BUILD)/kwgend
	python3 tests/e2e/text_cache_test.py --kwgen $(BUILD)/kwgen --kwgend $(BUILD)/kwgend

SUITES += text-cache-test

# also against the sanitized kwgen and kwgend (make asan)
ASAN_SUITES += text-cache-test
