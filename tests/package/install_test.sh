#!/bin/sh
# Install into a temporary DESTDIR, check the layout, and build and run a
# program against the installed library with pkg-config.
# Prints "package: N passed, M failed".
# Env: MAN (the man program), PACKAGE_TEST_ONLY=man (the install and the
# checks up to the man pages' only), PREFIX_TEST, MAKE, CC, PYTHON.
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
# PACKAGE_TEST_ONLY=man: stop here (the self-test of the man check needs
# one install, not the four installs and three uninstalls below)
if [ "${PACKAGE_TEST_ONLY:-}" = man ]; then
	echo "package: $pass passed, $fail failed"
	[ "$fail" = 0 ]
	exit
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
# the shared library: versioned file, SONAME, links, only the libraries it uses
real=$(ls "$root"/lib/libkwgen.so.*.*.* 2>/dev/null | head -1)
if [ -n "$real" ] && [ -f "$real" ] && [ -L "$root/lib/libkwgen.so.0" ] && [ -L "$root/lib/libkwgen.so" ]; then ok; else
	bad "lib/libkwgen.so.X.Y.Z with the libkwgen.so.0 and libkwgen.so links: $(ls -l "$root/lib" | tr '\n' ' ')"
fi
if command -v readelf >/dev/null 2>&1; then
	dyn=$(readelf -d "$root/lib/libkwgen.so.0" 2>&1)
	case "$dyn" in *"Library soname: [libkwgen.so.0]"*) ok ;; *) bad "SONAME of libkwgen.so: $dyn" ;; esac
	case "$dyn" in *microhttpd*|*yaml*|*curl*) bad "libkwgen.so links what it never calls: $dyn" ;; *) ok ;; esac
else
	bad "readelf is not installed (binutils): cannot check the SONAME"
fi
# the Python module: installed for PREFIX, finds the installed library
# (a second install without DESTDIR, so the recorded LIBDIR is real)
PY=${PYTHON:-python3}
p2="$stage/p2"
if $MAKE -s install PREFIX="$p2" >"$stage/install2.log" 2>&1; then ok; else bad "make install PREFIX=$p2"; cat "$stage/install2.log"; fi
pydir=$($PY scripts/python-dir.py "$p2")
out=$(cd / && env -u KWGEN_LIB PYTHONPATH="$pydir" $PY -c 'import kwgen; print(kwgen.library_path()); print(kwgen.getAccToArchLen({"MatrixInstM": 16, "MatrixInstN": 16, "MatrixInstBM": 1, "MatrixInstBN": 1, "MIWaveTile": [2, 2], "MIRegPerOut": 1, "VectorWidthA": 1, "VectorWidthB": 1, "SourceSwap": False, "WavefrontSize": 64, "EnableMatrixInstruction": True, "ProblemType": {"DataType": 0}}, isa="gfx942"))' 2>&1)
case "$out" in
	"$p2/lib/libkwgen.so.0"*16) ok ;;
	*) bad "import kwgen from $pydir: $out" ;;
esac
$MAKE -s uninstall PREFIX="$p2" >/dev/null 2>&1
left=$(find "$p2" -type f 2>/dev/null | wc -l)
if [ "$left" = 0 ]; then ok; else bad "uninstall PREFIX=$p2 left $left files: $(find "$p2" -type f | head -3)"; fi
$MAKE -s uninstall DESTDIR="$stage" PREFIX="$PREFIX" >/dev/null 2>&1
left=$(find "$stage$PREFIX" -type f 2>/dev/null | wc -l)
if [ "$left" = 0 ]; then ok; else bad "uninstall left $left files"; fi

# a staging directory whose name holds a space (install and uninstall quote every path)
sp="$stage/stage with space"
if $MAKE -s install DESTDIR="$sp" PREFIX="$PREFIX" >"$stage/install3.log" 2>&1 &&
   [ -x "$sp$PREFIX/bin/kwgen" ] && [ -f "$sp$PREFIX/lib/pkgconfig/kwgen.pc" ]; then ok; else
	bad "make install DESTDIR='$sp'"; tail -5 "$stage/install3.log"
fi
$MAKE -s uninstall DESTDIR="$sp" PREFIX="$PREFIX" >/dev/null 2>&1
left=$(find "$sp" -type f 2>/dev/null | wc -l)
if [ "$left" = 0 ]; then ok; else bad "uninstall DESTDIR='$sp' left $left files"; fi

echo "package: $pass passed, $fail failed"
[ "$fail" = 0 ]
