# mk/package.mk - make install / uninstall, the pkg-config file, and a test
# of the installed layout.
#
#   make install [PREFIX=/usr/local] [DESTDIR=/tmp/stage]   (paths may hold spaces)
#     bin/kwgen bin/kwgend  lib/libkwgen.a  lib/libkwgen-store.a (kwgen/cache.h)  include/kwgen/*.h
#     lib/libkwgen.so.VERSION (SONAME libkwgen.so.MAJOR) + the .so.MAJOR and .so links
#     the Python module in $(PYTHONDIR) (scripts/python-dir.py: Debian's
#     dist-packages for PREFIX, else the site-packages of $(PYTHON) for PREFIX)
#     lib/pkgconfig/kwgen.pc  share/man/man1/kwgen.1 share/man/man8/kwgend.8
#     share/kwgen/schema/*
#   make package-test   install into a temporary DESTDIR and build a program
#                       against it with `pkg-config --cflags --libs kwgen`
#   make core-deps      libkwgen.so (what the Python module loads) needs jansson,
#                       libcrypto and libc only: no SQLite, no kw_cache_* symbol
#                       (the cache is libkwgen-store.a, linked by kwgen and kwgend)

BINDIR        ?= $(PREFIX)/bin
LIBDIR        ?= $(PREFIX)/lib
INCLUDEDIR    ?= $(PREFIX)/include
MANDIR        ?= $(PREFIX)/share/man
DATADIR       ?= $(PREFIX)/share/kwgen
PKGCONFIGDIR  ?= $(LIBDIR)/pkgconfig
INSTALL       ?= install
PYTHON        ?= python3
# Asked once per make run, when a recipe first needs it (a plain ?= would
# start python3 at each of the four uses in install: ~0.15 s of CPU each).
PYTHONDIR     ?= $(eval PYTHONDIR := $(shell $(PYTHON) scripts/python-dir.py "$(PREFIX)"))$(PYTHONDIR)

.PHONY: install uninstall package-test core-deps FORCE-PC

# Regenerated on every run: PREFIX may differ from the last one.
$(BUILD)/kwgen.pc: kwgen.pc.in FORCE-PC
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(KWGEN_VERSION)|g' $< > $@

install: all $(BUILD)/kwgen.pc
	$(INSTALL) -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(LIBDIR)" "$(DESTDIR)$(PKGCONFIGDIR)" \
	    "$(DESTDIR)$(INCLUDEDIR)/kwgen" "$(DESTDIR)$(MANDIR)/man1" "$(DESTDIR)$(MANDIR)/man8" \
	    "$(DESTDIR)$(DATADIR)/schema"
	$(INSTALL) -m 755 $(BUILD)/kwgen "$(DESTDIR)$(BINDIR)/kwgen"
	$(if $(SRV_SRCS),$(INSTALL) -m 755 $(BUILD)/kwgend "$(DESTDIR)$(BINDIR)/kwgend")
	$(INSTALL) -m 644 $(BUILD)/libkwgen.a "$(DESTDIR)$(LIBDIR)/libkwgen.a"
	$(INSTALL) -m 644 $(BUILD)/libkwgen-store.a "$(DESTDIR)$(LIBDIR)/libkwgen-store.a"
	$(INSTALL) -m 755 $(BUILD)/$(KW_SO_REAL) "$(DESTDIR)$(LIBDIR)/$(KW_SO_REAL)"
	ln -sf $(KW_SO_REAL) "$(DESTDIR)$(LIBDIR)/$(KW_SONAME)"
	ln -sf $(KW_SO_REAL) "$(DESTDIR)$(LIBDIR)/libkwgen.so"
	$(INSTALL) -d "$(DESTDIR)$(PYTHONDIR)/kwgen"
	$(INSTALL) -m 644 python/kwgen/__init__.py "$(DESTDIR)$(PYTHONDIR)/kwgen/__init__.py"
	printf '# written by make install: where libkwgen is\nLIBDIR = %s\n' "'$(LIBDIR)'" \
	    > "$(DESTDIR)$(PYTHONDIR)/kwgen/_install.py"
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.argv[1] in sys.path else 1)' "$(PYTHONDIR)" || \
	    echo "note: $(PYTHON) does not look in $(PYTHONDIR); use PYTHONPATH=$(PYTHONDIR) python3 -c 'import kwgen'"
	$(INSTALL) -m 644 lib/include/kwgen/*.h "$(DESTDIR)$(INCLUDEDIR)/kwgen/"
	$(INSTALL) -m 644 $(BUILD)/kwgen.pc "$(DESTDIR)$(PKGCONFIGDIR)/kwgen.pc"
	$(INSTALL) -m 644 man/kwgen.1 "$(DESTDIR)$(MANDIR)/man1/kwgen.1"
	$(INSTALL) -m 644 man/kwgend.8 "$(DESTDIR)$(MANDIR)/man8/kwgend.8"
	$(if $(wildcard schema/*),$(INSTALL) -m 644 $(wildcard schema/*) "$(DESTDIR)$(DATADIR)/schema/")

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/kwgen" "$(DESTDIR)$(BINDIR)/kwgend" \
	    "$(DESTDIR)$(LIBDIR)/libkwgen.a" "$(DESTDIR)$(LIBDIR)/libkwgen-store.a" "$(DESTDIR)$(LIBDIR)/libkwgen.so" \
	    "$(DESTDIR)$(LIBDIR)/$(KW_SONAME)" "$(DESTDIR)$(LIBDIR)/$(KW_SO_REAL)" \
	    "$(DESTDIR)$(PKGCONFIGDIR)/kwgen.pc" \
	    "$(DESTDIR)$(MANDIR)/man1/kwgen.1" "$(DESTDIR)$(MANDIR)/man8/kwgend.8"
	rm -rf "$(DESTDIR)$(INCLUDEDIR)/kwgen" "$(DESTDIR)$(DATADIR)" "$(DESTDIR)$(PYTHONDIR)/kwgen"

package-test: all
	sh tests/package/install_test.sh

core-deps: $(BUILD)/libkwgen.so $(BUILD)/libkwgen-store.a
	sh tests/package/core_deps.sh $(BUILD)/libkwgen.so $(BUILD)/libkwgen-store.a

SUITES += package-test core-deps
