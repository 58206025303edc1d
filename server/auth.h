/*
 * auth.h - bearer-token access control for kwgend (--auth-tokens FILE).
 *
 * The token file holds one token per line; blank lines and lines starting
 * with '#' are skipped, surrounding spaces and tabs (and a trailing CR) are
 * trimmed.  Only the SHA-256 digest of each token is kept in memory.  A
 * presented token is hashed and compared with every stored digest using
 * CRYPTO_memcmp, always over all of them, so neither the position of a
 * match nor the length of a token shows in the time taken.
 *
 * Ownership: kw_auth is opaque, created by kw_auth_load, released with
 * kw_auth_free.  It is read-only after loading and may be shared by every
 * worker thread.
 */
#ifndef KW_SERVER_AUTH_H
#define KW_SERVER_AUTH_H

#include <stddef.h>

typedef struct kw_auth kw_auth;

/* The realm named in WWW-Authenticate. */
#define KW_AUTH_CHALLENGE "Bearer realm=\"kwgen\""

/*
 * Read the token file at path.  Returns 0 and *out on success; -1 with a
 * message in msg (msg_len bytes, names the file) when the file cannot be
 * read, holds no token, or holds a token longer than 4096 bytes or with
 * characters outside printable ASCII, a NUL byte, a line over 4352 bytes or
 * more than 16 MiB in all (read no further: /dev/zero is refused at once).
 * *out is left alone on failure.
 */
int kw_auth_load(kw_auth **out, const char *path, char *msg, size_t msg_len);

/* Number of tokens loaded. */
size_t kw_auth_count(const kw_auth *a);

/*
 * Check an Authorization header value (may be NULL).  Returns 1 when it is
 * "Bearer <token>" (scheme case-insensitive) with a known token, else 0.
 */
int kw_auth_check(const kw_auth *a, const char *authorization);

/* NULL is a no-op; the digests are wiped before the memory is freed. */
void kw_auth_free(kw_auth *a);

#endif
