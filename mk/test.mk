# mk/test.mk - `make test`: every suite, one after another, then one table.
#
# A suite is one make target.  An mk/*.mk file registers its suites with
#     SUITES += my-suite
# and `make test` runs `make <suite>` for each through scripts/run-suites:
# all suites run even when one fails; the table gives each suite's passed,
# failed and skipped counts and seconds; the last line is
# `N passed, N failed, N skipped`; the exit status is non-zero if any suite
# failed.  With CI=true a skip is a failure (SKIP_OK="suite ..." exempts
# suites).  tests/README.md describes the count line a suite prints.
#
#   make test                      every suite in $(SUITES)
#   make test SUITES="unit golden" only these
#   make list-suites               print $(SUITES)

.PHONY: test list-suites


# `test: <target>` lines would make the suite a prerequisite of `test` (run
# by make before the table, stopping at the first failure): refuse them.
ifneq ($(filter test,$(MAKECMDGOALS)),)
OLD_STYLE_SUITES := $(shell grep -ln '^test[[:space:]]*:[[:space:]]*[^[:space:]]' mk/*.mk 2>/dev/null)
ifneq ($(OLD_STYLE_SUITES),)
$(error $(OLD_STYLE_SUITES): register a suite with `SUITES += <target>`, not `test: <target>` (see tests/README.md))
endif
endif

test:
	@python3 scripts/run-suites --make "$(MAKE)" --label test $(SUITES)

list-suites:
	@echo $(SUITES)
