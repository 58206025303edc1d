#!/bin/sh
# tests/asan/roots_check.sh BIN LIB - LeakSanitizer and AddressSanitizer
# still report in build-asan/'s programs (tests/asan/lsan_roots.c takes
# LeakSanitizer's roots there): no report for blocks held by a global of
# the program (.bss, .data, a big array's last word), of a dlopen'd module
# and of libc; a report for a dropped block and for a heap overflow; the
# runtime's stack depot left out of the scan.  The deliberate reports are
# kept out of this script's output (make test fails a suite that prints one).
bin=$1 lib=$2
passed=0 failed=0 skipped=0
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ok() { passed=$((passed + 1)); echo "ok      $1"; }
bad() { failed=$((failed + 1)); echo "FAILED  $1"; sed -n '1,20s/^/    | /p' "$out" | sed 's/ERROR: \([A-Za-z]*\)Sanitizer/error: \1-sanitizer/; s/^\(    | \)SUMMARY:/\1summary:/'; }

"$bin" "$lib" layout >"$out" 2>&1
if ! grep -q '^asan 1$' "$out"; then
	skipped=1
	echo "SKIPPED roots_check: $bin is not built with AddressSanitizer (run make asan-lsan-roots)"
	echo "lsan-roots: $passed passed, $failed failed, $skipped skipped"
	exit 0
fi
noroots=$(sed -n 's/^noroots //p' "$out")
trimmed=$(sed -n 's/^trimmed //p' "$out")
if [ "${noroots:-0}" = 0 ]; then
	skipped=$((skipped + 1))
	echo "SKIPPED the runtime's stack depot is scanned: tests/asan/runtime.sh linked the runtime as shipped (its message says why)"
elif [ "$noroots" -gt 4000000 ] && [ "$trimmed" = "$noroots" ]; then
	ok "the runtime's stack depot ($noroots bytes) is left out of LeakSanitizer's scan"
else
	bad "the runtime's stack depot ($noroots bytes) is in kw_asan_noroots, but dl_iterate_phdr leaves ${trimmed:-?} bytes out"
fi

"$bin" "$lib" reachable >"$out" 2>&1
rc=$?
if [ $rc -eq 0 ] && ! grep -q 'Sanitizer' "$out"; then
	ok "blocks held by the program's .bss, .data, a dlopen'd module and libc: no report"
else
	bad "blocks held by globals: exit $rc, a report"
fi

"$bin" "$lib" leak >"$out" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q 'ERROR: LeakSanitizer: detected memory leaks' "$out" &&
	grep -q 'Direct leak of 4242 byte' "$out" && ! grep -qE 'leak of 1[1-4] byte' "$out"; then
	ok "a dropped block of 4242 bytes: LeakSanitizer reports it (exit $rc), and only it"
else
	bad "a dropped block: exit $rc, no LeakSanitizer report of it alone"
fi

"$bin" "$lib" overflow >"$out" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q 'ERROR: AddressSanitizer: heap-buffer-overflow' "$out"; then
	ok "a write past a heap block: AddressSanitizer reports heap-buffer-overflow (exit $rc)"
else
	bad "a heap overflow: exit $rc, no heap-buffer-overflow report"
fi
echo "lsan-roots: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
