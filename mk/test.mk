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

.PHONY: test check list-suites


# `test: <target>` lines would make the suite a prerequisite of `test` (run
# by make before the table, stopping at the first failure): refuse them.
ifneq ($(filter test,$(MAKECMDGOALS)),)
OLD_STYLE_SUITES := $(shell grep -ln '^test[[:space:]]*:[[:space:]]*[^[:space:]]' mk/*.mk 2>/dev/null)
ifneq ($(OLD_STYLE_SUITES),)
$(error $(OLD_STYLE_SUITES): register a suite with `SUITES += <target>`, not `test: <target>` (see tests/README.md))
endif
endif

# Up to TEST_JOBS suites run side by side (see TEST_CORES below); each
# suite's output is kept in $(BUILD)/test-logs/<suite>.log and printed whole
# when it ends.  TEST_JOBS=1: one after another, output streamed.
# ALONE_SUITES run with no other suite beside them (their latency bounds
# would measure the other suites); an mk file adds one with
# `ALONE_SUITES += <suite>`.
# The suites start longest first: by their wall time in the last run
# ($(BUILD)/test-times.json), else by tests/suite-times.json (a committed
# estimate; refresh it from a full run's test-times.json when suites change
# much).
# TEST_BUILD is built once (make -j$(TEST_JOBS)) before the suites start, so
# that suites running side by side never build the same file at once; an mk
# file whose suites need a file no other target builds adds it with
# `TEST_BUILD += <file or target>`.
# `asan` in $(SUITES) stands for one suite per $(ASAN_SUITES) entry, named
# asan-<suite> (mk/core.mk), so they too run side by side.
# TEST_CORES bounds the suites side by side by the cores they keep busy
# (cpu / wall of each suite in tests/suite-times.json, measured on a quiet
# machine; scripts/run-suites --cores): a suite
# that mostly waits on daemons and timeouts runs beside the ones that
# compute, so up to TEST_JOBS (default TEST_CORES + 4) suites run at once
# but never more computing ones than cores.  + 4, not + 2: waiting suites
# fit beside two computing ones within the cores bound (asan-cli-test,
# asan-hardening, asan-serve-test, storage-test, ui-test, journeys keep
# 0.2-0.5 of a core busy each); replaying the suites' wall and cpu
# (tests/suite-times.json) through this scheduler on 2 cores: 299 -> 288 s
# with + 3 for the suites of a full run that still had plain e2e,
# serve-test, cli-test and hardening; with today's, whose computing suites
# take less CPU, five waiting ones at once left the cores a third idle
# (100-130 s into the run): 217 s with + 3, 210 s with + 4 (+ 5 adds
# nothing more).
TEST_CORES ?= $(shell nproc 2>/dev/null || echo 2)
TEST_JOBS ?= $(shell echo $$(($(TEST_CORES) + 4)))
ALONE_SUITES ?=
TEST_BUILD += all $(UNIT_BINS) asan-bins
# TEST_LATER_BUILD is built after TEST_BUILD, once the ALONE_SUITES have
# run, while the suites that do not need it run (scripts/run-suites
# --later-build; make -j1, counted as one busy core, so the longest suites
# start beside it as they would beside a computing suite); the suites in
# TEST_LATER_SUITES wait until it has ended.  For a build only a few short
# suites need (the fuzz harnesses: fuzz and clang-build), instead of
# holding every suite back.  Nothing in it may be a file that TEST_BUILD or
# a suite outside TEST_LATER_SUITES builds.
TEST_LATER_BUILD ?=
TEST_LATER_SUITES ?=
TEST_SUITES = $(foreach s,$(SUITES),$(if $(filter asan,$(s)),$(ASAN_SUITES:%=asan-%),$(s)))
# The suites run with the directory of the python3 that `python3` starts
# first on PATH: the same interpreter, without a version manager's shim
# (pyenv's costs half a second of CPU per start, and every suite starts
# python3 at least once).
PY_BIN_DIR = $$(python3 -c 'import os, sys; print(os.path.dirname(sys.executable))')
# The suites' Python keeps its compiled bytecode in $(BUILD)/pycache (make
# clean removes it), never in the source tree: an environment with
# PYTHONDONTWRITEBYTECODE=1 (ours) compiles every module from source at every
# start, and a suite run starts ~100 interpreters that import the same
# harness modules (tests/e2e/run.py, tests/lib/*.py, tests/verify/batch.py,
# ...).  scripts/run-suites links the installed bytecode of the standard
# library (and of jsonschema) into it first, once per tree (~0.4 s of CPU):
# else the suites that start together on a fresh tree would each compile
# the standard library anew (~0.6 s of CPU each).  Every importer of
# tests/e2e/run.py then starts ~80 M instructions (~25 ms) sooner.
# PY_CACHE_ENV= turns it off.
PY_CACHE_ENV = PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX="$(abspath $(BUILD))/pycache"
RUN_SUITES = $(PY_CACHE_ENV) PATH="$(PY_BIN_DIR):$$PATH" python3 scripts/run-suites --make "$(MAKE)" -j $(TEST_JOBS) --cores $(TEST_CORES) \
	--alone "$(ALONE_SUITES)" \
	--times $(BUILD)/test-times.json --estimates tests/suite-times.json --log-dir $(BUILD)/test-logs

# make test-build: everything make test builds (TEST_BUILD and
# TEST_LATER_BUILD); make test-build-first: TEST_BUILD only.
.PHONY: test-build test-build-first
test-build:
	@$(MAKE) --no-print-directory -j$(TEST_CORES) $(TEST_BUILD) $(TEST_LATER_BUILD)

test-build-first:
	@$(MAKE) --no-print-directory -j$(TEST_CORES) $(TEST_BUILD)

test:
	@mkdir -p $(BUILD)
	@$(RUN_SUITES) --label test --build "$(MAKE) --no-print-directory test-build-first" \
		--build-log $(BUILD)/test-build.log \
		$(if $(strip $(TEST_LATER_BUILD)),--later-build later \
			"$(MAKE) --no-print-directory -j1 $(TEST_LATER_BUILD)" "$(TEST_LATER_SUITES)") \
		$(TEST_SUITES)

# make check: the quick tier for the edit-test loop (about a minute on an
# idle 2-core machine): the unit tests, a golden sample, the e2e checks with
# a few corpus requests, and the unit tests under ASan + UBSan.  make test
# runs everything (CI runs make test).
CHECK_SUITES ?= unit golden-sample e2e-smoke asan-unit

check:
	@mkdir -p $(BUILD)
	@$(MAKE) --no-print-directory -j$(TEST_CORES) all $(UNIT_BINS) asan-bins >$(BUILD)/check-build.log 2>&1 || \
		{ tail -n 30 $(BUILD)/check-build.log; echo "check: the build failed (log: $(BUILD)/check-build.log)"; exit 1; }
	@$(RUN_SUITES) --label check $(CHECK_SUITES)

list-suites:
	@echo $(TEST_SUITES)
