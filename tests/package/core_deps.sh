#!/bin/sh
# tests/package/core_deps.sh LIBKWGEN_SO STORE_A - the core library links no
# storage: libkwgen.so's NEEDED entries are jansson, OpenSSL's libcrypto and
# the C runtime only (no libsqlite3: the cache is libkwgen-store.a, which
# kwgen and kwgend link), and it defines no kw_cache_* symbol, which the
# store library does.  Prints "core-deps: N passed, M failed".
set -u
so=$1
store=$2
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

needed=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
if [ -n "$needed" ]; then ok; else bad "readelf -d $so lists no NEEDED entry"; fi
for lib in $needed; do
	case "$lib" in
	libjansson.so.* | libcrypto.so.* | libc.so.* | libm.so.* | libpthread.so.* | ld-linux*) ok ;;
	*) bad "$so needs $lib (the core links jansson and libcrypto only)" ;;
	esac
done
if echo "$needed" | grep -q sqlite; then bad "$so needs SQLite"; else ok; fi
if nm -D --defined-only "$so" | grep -q ' kw_cache_'; then
	bad "$so defines kw_cache_* symbols: the cache belongs in the store library"
else ok; fi
if nm --defined-only "$store" 2>/dev/null | grep -q ' T kw_cache_open$'; then ok; else
	bad "$store does not define kw_cache_open"
fi
echo "core-deps: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
