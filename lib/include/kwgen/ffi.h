/*
 * kwgen/ffi.h - text in, text out: the calls a foreign-function binding
 * needs (the Python module python/kwgen/ uses them through ctypes), with no
 * jansson type in the interface.
 *
 * Every call takes one request as JSON text (either form, kwgen/request.h)
 * and returns a malloc()ed NUL-terminated text the caller releases with
 * kw_ffi_free (never free(): the binding may not share this C library's
 * allocator).  *code is 0 on success, else the KW_E* code of the failure
 * (kwgen/error.h); then the text is the error as JSON:
 *   {"error": {"code": "invalid", "message": "...", "field": "kernel.MIWaveTile" | null}}
 * NULL is returned only when out of memory.  Thread-safe: no shared state.
 */
#ifndef KWGEN_FFI_H
#define KWGEN_FFI_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The farm-form answer (kw_request_answer) as compact JSON text. */
char *kw_ffi_generate(const char *json, size_t len, int *code);

/* The results without the cache key: {"isa", "results": [...] (as
 * kw_request_run), "source"?}; no canonical form or SHA-256 is computed
 * (the Python module's seed-shaped helpers). */
char *kw_ffi_run(const char *json, size_t len, int *code);

/* The answer as plain text (kwgen/text.h: what `kwgen --asm` prints). */
char *kw_ffi_asm(const char *json, size_t len, int *code);

/* Release a text returned by kw_ffi_generate or kw_ffi_asm; NULL is a no-op. */
void kw_ffi_free(char *text);

/* The generator-version salt (kw_generator_version), static storage. */
const char *kw_ffi_version(void);

#ifdef __cplusplus
}
#endif
#endif
