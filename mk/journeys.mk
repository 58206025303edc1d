# mk/journeys.mk - journey tests (tests/journeys/): what a user does, done as
# the user does it.  tests/journeys/README.md lists the journeys.
#
#   make journeys        every journey: the shell blocks of README.md and of
#                        the man pages' EXAMPLES run as written; every request
#                        form and every logic file (fixtures, ../shared/logic
#                        when present) through `kwgen --batch` built with
#                        ASan + UBSan and compared with kwgend; `kwgen logic
#                        --server` with tokens and TLS; hostile YAML and batch
#                        lines with their peak memory; make install DESTDIR=
#   make journeys JOURNEYS_ARGS="--only docs --only hostile"
#   make journeys-docs   only the documentation blocks (fast)
# The ASan binaries are built in $(JOURNEYS_ASAN_BUILD) (build-asan/, shared
# with `make asan`: the same make line, ASAN_MAKE in mk/core.mk).

JOURNEYS_ASAN_BUILD ?= build-asan
JOURNEYS_ARGS ?=

.PHONY: journeys journeys-docs journeys-asan-bins

journeys-asan-bins:
	+@$(ASAN_MAKE) BUILD=$(JOURNEYS_ASAN_BUILD) $(JOURNEYS_ASAN_BUILD)/kwgen

journeys: all journeys-asan-bins
	python3 tests/journeys/run.py --build $(BUILD) --asan-build $(JOURNEYS_ASAN_BUILD) $(JOURNEYS_ARGS)

journeys-docs: all
	python3 tests/journeys/docs.py --build $(BUILD)

SUITES += journeys
