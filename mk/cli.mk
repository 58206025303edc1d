# mk/cli.mk - every kwgen mode and flag, the kwgend flags no other suite
# covers, and the flag table of tests/README.md.
#
#   make cli-test      tests/cli/cli_test.py (kwgen, kwgen logic, kwgen cache,
#                      kwgend --hot-cache-bytes/--drain-seconds/--log-level/...)
#   make flags-check   every flag `--help` names has a row in tests/README.md's
#                      flag table whose test file exercises it

.PHONY: cli-test flags-check
cli-test: $(BUILD)/kwgen $(BUILD)/kwgend
	python3 tests/cli/cli_test.py --kwgen $(BUILD)/kwgen --kwgend $(BUILD)/kwgend

flags-check: $(BUILD)/kwgen $(BUILD)/kwgend
	python3 tests/cli/flags_check.py --kwgen $(BUILD)/kwgen --kwgend $(BUILD)/kwgend

SUITES += cli-test flags-check
ASAN_SUITES += cli-test
