# mk/config.mk - what the build asks the system: pkg-config's flags and
# libraries, llvm-config's, the sonames loaded at run time (libcurl,
# libLLVM), whether gold is installed.  Included by the Makefile before
# anything uses it (and not among the mk/*.mk included at its end).
#
# Each answer is a $(shell): 24 processes, ~0.15 s of CPU per make.  make
# test starts ~180 makes (one per suite, two per asan-<suite>, the
# selftest's own), so the first make asks and passes the answers down
# through the environment (KW_CFG_*, exported); a make started below it
# with the same KW_CFG_KEY (the pkg-config search path and LLVM_CONFIG:
# what the answers depend on) uses them instead of asking again.  A make
# started from a shell asks: nothing is kept between runs.
#
#   KW_CFG_PKG_CFLAGS    pkg-config --cflags $(PKGS)
#   KW_CFG_PKG_LIBS      pkg-config --libs $(LIB_PKGS)       (jansson, libcrypto)
#   KW_CFG_STORE_LIBS    pkg-config --libs $(STORE_PKGS)     (sqlite3)
#   KW_CFG_SRV_LDLIBS    pkg-config --libs $(SRV_PKGS)       (libmicrohttpd, libyaml)
#   KW_CFG_YAML_LIBS     pkg-config --libs yaml-0.1
#   KW_CFG_LOGIC_CFLAGS  pkg-config --cflags yaml-0.1 libcurl
#   KW_CFG_FUZZ_CFLAGS   pkg-config --cflags jansson libcrypto sqlite3 yaml-0.1
#   KW_CFG_CMOCKA_LIBS   pkg-config --libs cmocka
#   KW_CFG_CURL_SONAME   libcurl's soname (cli/logic_curl.c dlopen()s it)
#   KW_CFG_LLVM_CFLAGS   $(LLVM_CONFIG) --cflags
#   KW_CFG_LLVM_SONAME   libLLVM's soname (lib/codeobj dlopen()s it)
#   KW_CFG_GOLD          ld.gold's path, empty when not installed

LLVM_CONFIG ?= llvm-config-22

KW_CFG_KEY_NOW := $(PKG_CONFIG_PATH)|$(PKG_CONFIG_LIBDIR)|$(PKG_CONFIG_SYSROOT_DIR)|$(LLVM_CONFIG)|$(PKGS)
ifneq ($(KW_CFG_KEY),$(KW_CFG_KEY_NOW))
KW_CFG_PKG_CFLAGS   := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
KW_CFG_PKG_LIBS     := $(shell pkg-config --libs $(LIB_PKGS) 2>/dev/null)
KW_CFG_STORE_LIBS   := $(shell pkg-config --libs $(STORE_PKGS) 2>/dev/null)
KW_CFG_SRV_LDLIBS   := $(shell pkg-config --libs $(SRV_PKGS) 2>/dev/null)
KW_CFG_YAML_LIBS    := $(shell pkg-config --libs yaml-0.1 2>/dev/null)
KW_CFG_LOGIC_CFLAGS := $(shell pkg-config --cflags yaml-0.1 libcurl 2>/dev/null)
KW_CFG_FUZZ_CFLAGS  := $(shell pkg-config --cflags jansson libcrypto sqlite3 yaml-0.1 2>/dev/null)
KW_CFG_CMOCKA_LIBS  := $(shell pkg-config --libs cmocka 2>/dev/null)
KW_CFG_CURL_SONAME  := $(shell objdump -p $$(pkg-config --variable=libdir libcurl 2>/dev/null)/libcurl.so 2>/dev/null | awk '/SONAME/ {print $$2}')
KW_CFG_LLVM_CFLAGS  := $(shell $(LLVM_CONFIG) --cflags 2>/dev/null)
KW_CFG_LLVM_SONAME  := $(shell objdump -p $$($(LLVM_CONFIG) --libdir 2>/dev/null)/libLLVM.so 2>/dev/null | awk '/SONAME/ {print $$2}')
KW_CFG_GOLD         := $(shell command -v ld.gold 2>/dev/null)
KW_CFG_KEY          := $(KW_CFG_KEY_NOW)
endif
export KW_CFG_KEY KW_CFG_PKG_CFLAGS KW_CFG_PKG_LIBS KW_CFG_STORE_LIBS KW_CFG_SRV_LDLIBS \
	KW_CFG_YAML_LIBS KW_CFG_LOGIC_CFLAGS KW_CFG_FUZZ_CFLAGS KW_CFG_CMOCKA_LIBS \
	KW_CFG_CURL_SONAME KW_CFG_LLVM_CFLAGS KW_CFG_LLVM_SONAME KW_CFG_GOLD
