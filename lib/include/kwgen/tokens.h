/*
 * kwgen/tokens.h - the bearer-token file, one format for kwgend
 * --auth-tokens and kwgen logic --token-file.
 *
 * The format: text, one token a line; spaces and tabs around a token and a
 * CR before the newline are ignored; empty lines and lines whose first
 * non-blank character is '#' are comments.  A token is 1..KW_TOKEN_MAX
 * bytes of printable ASCII without spaces.  A line is at most
 * KW_TOKEN_LINE_MAX bytes and the file at most KW_TOKEN_FILE_MAX bytes (an
 * endless or binary file such as /dev/zero is refused, not read for ever);
 * a NUL byte is refused.  A file without any token is refused.
 */
#ifndef KWGEN_TOKENS_H
#define KWGEN_TOKENS_H

#include <stddef.h>

#include "kwgen/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KW_TOKEN_MAX 4096
#define KW_TOKEN_LINE_MAX (KW_TOKEN_MAX + 256)
#define KW_TOKEN_FILE_MAX ((size_t)16 << 20)

/* Called once per token, in file order: tok is NUL-terminated, len bytes,
 * valid (and wiped) only during the call.  Nonzero stops the reading; the
 * value is returned by kw_tokens_read. */
typedef int (*kw_token_fn)(const char *tok, size_t len, void *ud);

/*
 * Read the token file at path and call each for every token.  flag names
 * the option in messages ("--auth-tokens"), which read
 * "FLAG PATH:LINE: what is wrong (what is allowed)".  Every line is read
 * and checked before the function returns.  Returns 0 (at least one
 * token), each's nonzero value, or KW_EIO (cannot open or read: the
 * system's reason), KW_EINVAL (a line breaks the format, or no token),
 * KW_ENOMEM, with err filled.  Line buffers are wiped (OPENSSL_cleanse).
 */
int kw_tokens_read(const char *path, const char *flag, kw_token_fn each, void *ud, kw_error *err);

#ifdef __cplusplus
}
#endif

#endif
