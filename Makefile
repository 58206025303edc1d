# kwgen - top-level Makefile.  `make help` lists the targets.
# Extra targets live in mk/*.mk (one file per area), included at the end.

CC       ?= cc
PREFIX   ?= /usr/local
DESTDIR  ?=
BUILD    ?= build
# What each binary links: libkwgen (the core: generators, requests, text,
# verifier) needs LIB_PKGS only; the store (lib/store, libkwgen-store.a:
# the SQLite cache) adds STORE_PKGS and is linked by kwgen and kwgend, never
# into libkwgen; kwgend adds libmicrohttpd and libyaml (SRV_LDLIBS); kwgen
# adds libyaml and libcurl (CLI_LDLIBS).  libyaml is reached through
# libkwgen-logic.a (lib/logic/: logic-file YAML -> requests), which both
# programs link and libkwgen does not.
LIB_PKGS := jansson libcrypto
STORE_PKGS := sqlite3
SRV_PKGS := libmicrohttpd yaml-0.1
PKGS     := $(LIB_PKGS) $(STORE_PKGS) $(SRV_PKGS)
# pkg-config's answers (and llvm-config's, ...): asked once per make tree
include mk/config.mk
PKG_CFLAGS := $(KW_CFG_PKG_CFLAGS)
PKG_LIBS   := $(KW_CFG_PKG_LIBS)
STORE_LIBS := $(KW_CFG_STORE_LIBS)
SRV_LDLIBS := $(KW_CFG_SRV_LDLIBS)

# The shared library: libkwgen.so.$(KWGEN_VERSION), SONAME libkwgen.so.$(KW_SO_MAJOR),
# with the libkwgen.so.$(KW_SO_MAJOR) and libkwgen.so symlinks next to it.
KWGEN_VERSION ?= 0.1.0
KW_SO_MAJOR   := $(firstword $(subst ., ,$(KWGEN_VERSION)))
KW_SO_REAL    := libkwgen.so.$(KWGEN_VERSION)
KW_SONAME     := libkwgen.so.$(KW_SO_MAJOR)

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CSTD     := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
OPT      ?= -O2 -g
CFLAGS_ALL = $(CSTD) $(WARN) $(OPT) -fPIC -Ilib/include -Ilib $(PKG_CFLAGS) $(EXTRA_CFLAGS)
# What a program linking libkwgen.a needs (kwgend adds $(SRV_LDLIBS)).
LDLIBS_ALL = $(PKG_LIBS) -lpthread -lm $(EXTRA_LDLIBS)

# The linker of the test programs (the unit tests, the ASan tree, the fuzz
# harnesses: ~60 links for make test): gold when installed (binutils), which
# links an ASan program in about half the CPU of ld.bfd (0.53 -> 0.28 s for
# kwgen); TEST_LD= links with the default.  The released programs link as
# they always did.
ifeq ($(origin TEST_LD),undefined)
TEST_LD := $(if $(KW_CFG_GOLD),-fuse-ld=gold)
endif

LIB_SRCS := $(sort $(wildcard lib/*.c lib/isa/*.c lib/gen/*.c lib/verify/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
STORE_SRCS := $(sort $(wildcard lib/store/*.c))
STORE_OBJS := $(STORE_SRCS:%.c=$(BUILD)/obj/%.o)
# What a program using the store links after its objects.
STORE_LDLIBS = $(BUILD)/libkwgen-store.a $(BUILD)/libkwgen.a $(STORE_LIBS)
LOGIC_LIB_SRCS := $(sort $(wildcard lib/logic/*.c))
LOGIC_LIB_OBJS := $(LOGIC_LIB_SRCS:%.c=$(BUILD)/obj/%.o)
LOGIC_A  := $(BUILD)/libkwgen-logic.a
CLI_SRCS := $(sort $(wildcard cli/*.c))
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/obj/%.o)
SRV_SRCS := $(sort $(wildcard server/*.c))
SRV_OBJS := $(SRV_SRCS:%.c=$(BUILD)/obj/%.o)
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all lib test unit golden check-asm asan e2e bench-gen bench-http install uninstall clean help deps

all: lib $(BUILD)/kwgen $(if $(SRV_SRCS),$(BUILD)/kwgend)

lib: $(BUILD)/libkwgen.a $(BUILD)/libkwgen.so $(BUILD)/$(KW_SONAME) $(BUILD)/libkwgen-store.a

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(BUILD)/libkwgen.a: $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/libkwgen-store.a: $(STORE_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LOGIC_A): $(LOGIC_LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# (-no-pie, which the ASan tree's programs link with, is for programs only)
$(BUILD)/$(KW_SO_REAL): $(LIB_OBJS)
	$(CC) -shared -Wl,-soname,$(KW_SONAME) -Wl,--as-needed -o $@ $^ $(filter-out -no-pie,$(LDLIBS_ALL))

$(BUILD)/$(KW_SONAME) $(BUILD)/libkwgen.so: $(BUILD)/$(KW_SO_REAL)
	ln -sf $(KW_SO_REAL) $@

$(BUILD)/kwgen: $(CLI_OBJS) $(LOGIC_A) $(BUILD)/libkwgen.a $(BUILD)/libkwgen-store.a
	$(CC) -o $@ $(CLI_OBJS) $(LOGIC_A) $(STORE_LDLIBS) $(LDLIBS_ALL) $(CLI_LDLIBS)

$(BUILD)/kwgend: $(SRV_OBJS) $(LOGIC_A) $(BUILD)/libkwgen.a $(BUILD)/libkwgen-store.a
	$(CC) -o $@ $(SRV_OBJS) $(LOGIC_A) $(STORE_LDLIBS) $(LDLIBS_ALL) $(SRV_LDLIBS)

unit: $(UNIT_BINS)
	@sh scripts/run-unit $(UNIT_BINS)

# deps: install the Debian packages the build and the tests need.
deps:
	sh scripts/install-deps.sh

help:
	@echo "build:   all lib deps install uninstall clean"
	@echo "test:    check (quick: unit golden-sample e2e-smoke asan-unit)"
	@echo "         test (everything below but the long runs) unit golden check-asm asan salt-check clang-build"
	@echo "         e2e serve-test hardening soak-short storage-test scaleout logic-test package-test fuzz"
	@echo "long:    soak (with storage-soak, serve-soak) kill-loop fuzz-long"
	@echo "bench:   bench-gen bench-http bench-miss"
	@echo "data:    golden-data salt-update (need ../shared)"

clean:
	rm -rf $(BUILD) build-asan build-clang

-include $(LIB_OBJS:.o=.d) $(STORE_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(SRV_OBJS:.o=.d) $(LOGIC_LIB_OBJS:.o=.d)
# Suites `make test` runs (mk/test.mk); each mk/*.mk file appends its own.
SUITES := unit
-include $(sort $(filter-out mk/config.mk,$(wildcard mk/*.mk)))
