#!/bin/sh
# Install into a temporary DESTDIR, check the layout, and build and run a
# program against the installed library with pkg-config.
# Prints "package: N passed, M failed".
set -u
MAKE=${MAKE:-make}
PREFIX=${PREFIX_TEST:-/usr/local}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

if $MAKE -s install DESTDIR="$stage" PREFIX="$PREFIX" >"$stage/install.log" 2>&1; then ok; else
	bad "make install"; cat "$stage/install.log"
fi
root="$stage$PREFIX"
for f in bin/kwgen lib/libkwgen.a lib/libkwgen.so lib/pkgconfig/kwgen.pc \
	 include/kwgen/error.h include/kwgen/request.h \
	 share/man/man1/kwgen.1 share/man/man8/kwgend.8; do
	if [ -f "$root/$f" ]; then ok; else bad "missing $PREFIX/$f"; fi
done
if ls server/*.c >/dev/null 2>&1; then
	if [ -x "$root/bin/kwgend" ]; then ok; else bad "missing $PREFIX/bin/kwgend"; fi
fi
if ls schema/* >/dev/null 2>&1; then
	n=$(ls schema | wc -l)
	m=$(ls "$root/share/kwgen/schema" 2>/dev/null | wc -l)
	if [ "$n" = "$m" ]; then ok; else bad "schema files: $m installed of $n"; fi
fi
for h in lib/include/kwgen/*.h; do
	if cmp -s "$h" "$root/include/kwgen/$(basename "$h")"; then ok; else bad "header $h not installed"; fi
done
# the installed man pages render (man-db is in scripts/deps; without man this fails)
MAN=${MAN:-man}
if ! command -v "$MAN" >/dev/null 2>&1; then
	bad "man is not installed (apt-get install man-db): cannot check the man pages"
else
	for page in man1/kwgen.1 man8/kwgend.8; do
		name=$(basename "$page" | sed 's/\.[0-9]$//')
		if MANWIDTH=80 "$MAN" -l "$root/share/man/$page" >"$stage/man.out" 2>"$stage/man.err" &&
		   grep -q "$name" "$stage/man.out" && [ ! -s "$stage/man.err" ]; then ok; else
			bad "$page does not render cleanly: $(head -c 300 "$stage/man.err")"
		fi
	done
fi

# pkg-config against the staged tree
export PKG_CONFIG_PATH="$root/lib/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$stage"
flags=$(pkg-config --cflags --libs kwgen 2>&1)
case "$flags" in
	*"-I$root/include"*"-L$root/lib"*"-lkwgen"*) ok ;;
	*) bad "pkg-config --cflags --libs kwgen: $flags" ;;
esac
if [ "$(pkg-config --modversion kwgen)" != "" ]; then ok; else bad "pkg-config --modversion"; fi
cat >"$stage/use.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <kwgen/error.h>
#include <kwgen/request.h>
int main(void)
{
	kw_error e = KW_ERROR_INIT;
	int rc = kw_error_set(&e, KW_EINVAL, "kernel.MIWaveTile", "bad %d", 7);
	printf("%s %s %s\n", kw_error_code_name(rc), e.field, e.message);
	return strcmp(e.message, "bad 7") != 0;
}
C
if ${CC:-cc} -o "$stage/use" "$stage/use.c" $(pkg-config --cflags --libs kwgen) 2>"$stage/cc.log" &&
   LD_LIBRARY_PATH="$root/lib" "$stage/use" >"$stage/use.out"; then ok; else
	bad "build/run a program with pkg-config --cflags --libs kwgen"; cat "$stage/cc.log"
fi
if ${CC:-cc} -o "$stage/use-static" "$stage/use.c" $(pkg-config --cflags kwgen) "$root/lib/libkwgen.a" \
	$(pkg-config --static --libs kwgen | sed 's/-lkwgen//') 2>"$stage/cc2.log" && "$stage/use-static" >/dev/null; then ok; else
	bad "static link with pkg-config --static"; cat "$stage/cc2.log"
fi
if "$root/bin/kwgen" --help >/dev/null 2>&1 || "$root/bin/kwgen" -h >/dev/null 2>&1; then ok; else bad "installed kwgen --help"; fi
$MAKE -s uninstall DESTDIR="$stage" PREFIX="$PREFIX" >/dev/null 2>&1
left=$(find "$stage$PREFIX" -type f 2>/dev/null | wc -l)
if [ "$left" = 0 ]; then ok; else bad "uninstall left $left files"; fi

echo "package: $pass passed, $fail failed"
[ "$fail" = 0 ]
