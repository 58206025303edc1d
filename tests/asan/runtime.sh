#!/bin/sh
# tests/asan/runtime.sh CC OUT SRC CFLAGS... - the ASan runtime archive that
# build-asan/'s programs and unit tests link (mk/core.mk: -L build-asan/asan-rt
# ahead of the toolchain's directories; the driver links it whole with
# -static-libasan, and never into a shared library).
#
# OUT is CC's libasan.a with two changes (tests/asan/lsan_roots.c says why):
#   - sanitizer_stackdepot.o's .bss (the stack depot) is renamed to the
#     section kw_asan_noroots: the same bytes, after .bss in the same
#     writable segment, with __start_/__stop_ symbols at its ends;
#   - SRC (lsan_roots.c: the program's dl_iterate_phdr, which reports the
#     main program's writable segment without that section), compiled with
#     CFLAGS, is added as a member.
# The rename is made only once the depot's .bss is checked to hold nothing
# but the depot's objects (hash table, stack store maps and allocator); when a
# check fails (another toolchain), OUT is the runtime as shipped, and the
# programs scan their globals as before.
set -eu
cc=$1 out=$2 src=$3
shift 3

rt=$($cc -print-file-name=libasan.a)
dir=$(dirname "$out")
tmp=$dir/tmp.$$
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

shipped() {
	echo "tests/asan/runtime.sh: $1; build-asan links the ASan runtime as shipped" >&2
	cp "$rt" "$out.tmp"
	mv "$out.tmp" "$out"
	exit 0
}

case $rt in
/*) ;;
*) shipped "$cc has no static libasan.a" ;;
esac
command -v objcopy >/dev/null 2>&1 || shipped "objcopy (binutils) not found"

(cd "$tmp" && ar x "$rt" sanitizer_stackdepot.o) 2>/dev/null ||
	shipped "$rt has no sanitizer_stackdepot.o"
# The .bss symbols of the depot's object: the hash table of stack ids
# (theDepot: ids and the map of its node arrays), the maps of the stack
# store (tracePtrs, useCounts) and its allocator (traceAllocator): all of
# them the runtime's own bookkeeping, none the address of a heap block.
bss=$(nm "$tmp/sanitizer_stackdepot.o" | awk '$2 ~ /^[bB]$/ {print $3}' | sort | tr '\n' ' ')
want="_ZN11__sanitizerL14traceAllocatorE _ZN11__sanitizerL8theDepotE _ZN11__sanitizerL9tracePtrsE _ZN11__sanitizerL9useCountsE "
[ "$bss" = "$want" ] || shipped "sanitizer_stackdepot.o's .bss holds [$bss], not the objects checked"
nm -A "$rt" 2>/dev/null | grep -q ' [TW] dl_iterate_phdr$' &&
	shipped "the runtime defines dl_iterate_phdr itself"

objcopy --rename-section .bss=kw_asan_noroots "$tmp/sanitizer_stackdepot.o"
$cc "$@" -c -o "$tmp/lsan_roots.o" "$src"
cp "$rt" "$tmp/libasan.a"
(cd "$tmp" && ar r libasan.a sanitizer_stackdepot.o lsan_roots.o)
mv "$tmp/libasan.a" "$out"
