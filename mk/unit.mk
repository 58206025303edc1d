# mk/unit.mk - the unit tests (tests/unit/test_*.c, cmocka) as ONE program
# per tree, $(BUILD)/tests/unit-tests; each $(BUILD)/tests/test_<name> of
# UNIT_BINS is a symbolic link to it, and the program runs the test its
# name says (tests/unit/unit_main.c), so each test is still a process of
# its own with its own output and exit status (scripts/run-unit runs them
# as before).  Each test file is compiled with its main renamed
# (-Dmain=kw_unit_main_test_<name>, the prototype in tests/unit/unit_main.h).
#
# Why: each test was a program of its own, linking the static library, the
# store and cmocka (and in build-asan/ the sanitizer runtimes): 46 links of
# make test's build (23 tests, build/ and build-asan/), ~7 s of CPU, now 2
# (measured with gold: build/ 2.8 -> 0.15 s, build-asan/ 4.6 -> 0.2 s of
# CPU; running the 23 tests under ASan costs the same CPU either way).
# UNIT_OPT: the tests' own code is compiled without optimization (after
# OPT, so it wins; the sanitizers and -g stay): what they test is the
# library, built with OPT; their 23 files at -O2 took ~10 s of CPU of a
# fresh clone's make test build, twice (build/ and build-asan/), at -O0
# about half of that.  clang-build checks them at -O0 already.
UNIT_OPT ?= -O0
UNIT_PROG  := $(BUILD)/tests/unit-tests
UNIT_OBJS  := $(UNIT_SRCS:%.c=$(BUILD)/obj/%.o)
UNIT_NAMES := $(UNIT_SRCS:tests/unit/%.c=%)
UNIT_LIST  := $(BUILD)/gen/unit/unit_list.h

$(BUILD)/obj/tests/unit/test_%.o: tests/unit/test_%.c tests/unit/unit_main.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(UNIT_OPT) -Dmain=kw_unit_main_test_$* -include tests/unit/unit_main.h -MMD -MP -c $< -o $@

# X(test_<name>) per test file, rewritten only when the list changes
.PHONY: unit-list-force
$(UNIT_LIST): unit-list-force
	@mkdir -p $(dir $@)
	@printf '#define KW_UNIT_LIST %s\n' '$(foreach n,$(UNIT_NAMES),X($(n)))' > $@.tmp; \
		if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

$(BUILD)/obj/tests/unit/unit_main.o: tests/unit/unit_main.c $(UNIT_LIST)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(UNIT_OPT) -I$(dir $(UNIT_LIST)) -MMD -MP -c $< -o $@

$(UNIT_PROG): $(BUILD)/obj/tests/unit/unit_main.o $(UNIT_OBJS) $(BUILD)/libkwgen.a $(BUILD)/libkwgen-store.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(UNIT_OPT) $(TEST_LD) -o $@ $(BUILD)/obj/tests/unit/unit_main.o $(UNIT_OBJS) \
		$(STORE_LDLIBS) $(LDLIBS_ALL) $(KW_CFG_CMOCKA_LIBS)

$(UNIT_BINS): $(UNIT_PROG)
	ln -sf $(notdir $(UNIT_PROG)) $@

-include $(UNIT_OBJS:.o=.d) $(BUILD)/obj/tests/unit/unit_main.d

# build-asan/: the program links the copy of the sanitizer runtime (mk/core.mk)
ifneq ($(filter -L$(ASAN_RT_DIR),$(EXTRA_LDLIBS)),)
$(UNIT_PROG): $(ASAN_RT)
endif

# clang-build (mk/core.mk) checks the dispatcher too (the test files are in
# its first group, with their main as written)
CLANG_SYNTAX_RUNS += "$(CFLAGS_ALL) -I$(dir $(UNIT_LIST)) tests/unit/unit_main.c"
$(BUILD)/clang-syntax.stamp: tests/unit/unit_main.c $(UNIT_LIST)
