/*
 * auth.c - bearer tokens from a file, checked in constant time (auth.h).
 *
 * Knows nothing of HTTP beyond the "Bearer" scheme of one header value.
 * The file is read by kw_tokens_read (kwgen/tokens.h), as kwgen logic
 * --token-file reads it.
 */
#include "auth.h"

#include <errno.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kwgen/tokens.h"

#define KW_AUTH_TOKEN_MAX KW_TOKEN_MAX

struct kw_auth {
	size_t n, alloc;
	unsigned char (*digest)[SHA256_DIGEST_LENGTH];
};

/* One token of the file: its SHA-256 joins the set. */
static int add_token(const char *tok, size_t len, void *ud)
{
	kw_auth *a = ud;

	if (a->n == a->alloc) {
		size_t na = a->alloc ? a->alloc * 2 : 8;
		void *p = realloc(a->digest, na * sizeof(*a->digest));

		if (!p)
			return KW_ENOMEM;
		a->digest = p;
		a->alloc = na;
	}
	SHA256((const unsigned char *)tok, len, a->digest[a->n++]);
	return 0;
}

int kw_auth_load(kw_auth **out, const char *path, char *msg, size_t msg_len)
{
	kw_auth *a = calloc(1, sizeof(*a));
	kw_error err = KW_ERROR_INIT;
	int rc;

	if (!a) {
		snprintf(msg, msg_len, "--auth-tokens %s: out of memory", path);
		return -1;
	}
	rc = kw_tokens_read(path, "--auth-tokens", add_token, a, &err);
	if (rc) {
		if (rc == KW_ENOMEM && !err.message[0])
			snprintf(msg, msg_len, "--auth-tokens %s: out of memory", path);
		else
			snprintf(msg, msg_len, "%s", err.message);
		kw_auth_free(a);
		return -1;
	}
	*out = a;
	return 0;
}

size_t kw_auth_count(const kw_auth *a)
{
	return a ? a->n : 0;
}

int kw_auth_check(const kw_auth *a, const char *authorization)
{
	static const char scheme[] = "Bearer";
	unsigned char d[SHA256_DIGEST_LENGTH];
	const char *t;
	size_t len;
	int match = 0;

	if (!a || !authorization)
		return 0;
	if (strncasecmp(authorization, scheme, sizeof(scheme) - 1) != 0 ||
	    (authorization[sizeof(scheme) - 1] != ' ' && authorization[sizeof(scheme) - 1] != '\t'))
		return 0;
	t = authorization + sizeof(scheme) - 1;
	while (*t == ' ' || *t == '\t')
		t++;
	len = strlen(t);
	while (len && (t[len - 1] == ' ' || t[len - 1] == '\t'))
		len--;
	if (!len || len > KW_AUTH_TOKEN_MAX)
		return 0;
	SHA256((const unsigned char *)t, len, d);
	for (size_t i = 0; i < a->n; i++)
		match |= CRYPTO_memcmp(d, a->digest[i], sizeof(d)) == 0;
	OPENSSL_cleanse(d, sizeof(d));
	return match;
}

void kw_auth_free(kw_auth *a)
{
	if (!a)
		return;
	if (a->digest)
		OPENSSL_cleanse(a->digest, a->n * sizeof(*a->digest));
	free(a->digest);
	free(a);
}
