# mk/cli.mk - every kwgen mode and flag, the kwgend flags no other suite
# covers, and the flag table of tests/README.md.
#
#   make cli-test      tests/cli/cli_test.py (kwgen, kwgen logic, kwgen cache,
#                      kwgend --hot-cache-bytes/--drain-seconds/--log-level/...)
#   make cli-memory    only its checks whose bound runs shorter under ASan:
#                      the peak memory of kwgen --batch (~32 MiB held per job)
#                      and of kwgen logic (a digest per request), and kwgen
#                      verify reading 128 MiB (its default --max-bytes)
#   make flags-check   every flag `--help` names has a row in tests/README.md's
#                      flag table whose test file exercises it
# make test runs every check once against the ASan build (asan-cli-test:
# the same assertions plus the sanitizers') and the memory bounds against
# the plain build (cli-memory); tests/README.md says why.

.PHONY: cli-test cli-memory flags-check
cli-test: $(BUILD)/kwgen $(BUILD)/kwgend
	python3 tests/cli/cli_test.py --kwgen $(BUILD)/kwgen --kwgend $(BUILD)/kwgend

cli-memory: $(BUILD)/kwgen $(BUILD)/kwgend
	python3 tests/cli/cli_test.py --kwgen $(BUILD)/kwgen --kwgend $(BUILD)/kwgend --memory-only

flags-check: $(BUILD)/kwgen $(BUILD)/kwgend
	python3 tests/cli/flags_check.py --kwgen $(BUILD)/kwgen --kwgend $(BUILD)/kwgend

SUITES += cli-memory flags-check
ASAN_SUITES += cli-test
