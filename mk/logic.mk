# mk/logic.mk - `kwgen logic` (logic-file import: libyaml, libcurl) and its tests.
# The YAML reader and the derivation are lib/logic/ (libkwgen-logic.a, built
# by the Makefile), shared with kwgend's POST /v1/kernels for
# Content-Type: application/yaml; cli/logic*.c is the command.
#
#   make logic-test     import the fixtures under tests/logic/fixtures and compare
#                       every request with its corpus line; malformed input.
#                       KWGEN_CORPUS=DIR also re-derives every line of a corpus.

# libcurl is loaded when --server first needs it (cli/logic_curl.c), not
# linked: its dependencies cost every kwgen command ~10 ms at start.
CURL_SONAME  := $(KW_CFG_CURL_SONAME)
CLI_LDLIBS   += $(KW_CFG_YAML_LIBS) -ldl
EXTRA_CFLAGS += $(KW_CFG_LOGIC_CFLAGS)
$(BUILD)/obj/cli/logic_curl.o: EXTRA_CFLAGS += $(if $(CURL_SONAME),-DKW_CURL_SONAME='"$(CURL_SONAME)"')

LOGIC_SRCS := $(sort $(wildcard cli/logic*.c))
LOGIC_OBJS := $(LOGIC_SRCS:%.c=$(BUILD)/obj/%.o)
KWGEN_CORPUS ?=

# The tests run `kwgen logic` when the full CLI exists, else the same code
# through a one-line driver (tests/logic/driver.c).
ifneq ($(wildcard cli/kwgen.c),)
LOGIC_CMD := $(BUILD)/kwgen logic
LOGIC_BIN := $(BUILD)/kwgen
else
LOGIC_CMD := $(BUILD)/tests/kwgen-logic
LOGIC_BIN := $(BUILD)/tests/kwgen-logic
endif

$(BUILD)/tests/kwgen-logic: tests/logic/driver.c $(LOGIC_OBJS) $(LOGIC_A) $(BUILD)/libkwgen.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Icli -o $@ $^ $(LDLIBS_ALL) $(CLI_LDLIBS)

.PHONY: logic-test
logic-test: $(LOGIC_BIN)
	python3 tests/logic/logic_test.py --kwgen "$(LOGIC_CMD)" $(if $(KWGEN_CORPUS),--corpus $(KWGEN_CORPUS))

SUITES += logic-test
TEST_BUILD += $(LOGIC_BIN)

# `make asan` runs the logic tests too (LeakSanitizer on every kwgen logic run).
ASAN_SUITES += logic-test
