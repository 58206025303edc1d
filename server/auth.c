/*
 * auth.c - bearer tokens from a file, checked in constant time (auth.h).
 *
 * Knows nothing of HTTP beyond the "Bearer" scheme of one header value.
 */
#include "auth.h"

#include <errno.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define KW_AUTH_TOKEN_MAX 4096

struct kw_auth {
	size_t n;
	unsigned char (*digest)[SHA256_DIGEST_LENGTH];
};

/* Trim spaces, tabs, CR and LF from both ends of s (in place); returns
 * the start and sets *len. */
static char *trim(char *s, size_t *len)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
		n--;
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	s[n] = '\0';
	*len = n;
	return s;
}

/* Bounds on the file (an endless or binary file such as /dev/zero must not
 * be read for ever): a line, and the whole file. */
#define KW_AUTH_LINE_MAX (KW_AUTH_TOKEN_MAX + 256)
#define KW_AUTH_FILE_MAX ((size_t)16 << 20)

/* The next line of f into line (cap KW_AUTH_LINE_MAX + 1), NUL-terminated,
 * without its newline.  Returns 1, 0 at the end of the file, -1 on a read
 * error, -2 for a line over KW_AUTH_LINE_MAX, -3 for a NUL byte, -4 past
 * KW_AUTH_FILE_MAX bytes in all (*total counts them). */
static int read_line(FILE *f, char *line, size_t *total)
{
	size_t n = 0;
	int c;

	while ((c = getc(f)) != EOF) {
		if (++*total > KW_AUTH_FILE_MAX)
			return -4;
		if (c == '\n')
			break;
		if (c == '\0')
			return -3;
		if (n == KW_AUTH_LINE_MAX)
			return -2;
		line[n++] = (char)c;
	}
	line[n] = '\0';
	if (c == EOF && ferror(f))
		return -1;
	return c == EOF && n == 0 ? 0 : 1;
}

int kw_auth_load(kw_auth **out, const char *path, char *msg, size_t msg_len)
{
	kw_auth *a = calloc(1, sizeof(*a));
	FILE *f = NULL;
	char *line = malloc(KW_AUTH_LINE_MAX + 1);
	size_t cap = KW_AUTH_LINE_MAX + 1, lineno = 0, alloc = 0, total = 0;
	int got;

	if (!a || !line) {
		snprintf(msg, msg_len, "--auth-tokens %s: out of memory", path);
		free(a);
		free(line);
		return -1;
	}
	if (!(f = fopen(path, "r"))) {
		snprintf(msg, msg_len, "--auth-tokens %s: %s", path, strerror(errno));
		goto fail;
	}
	errno = 0;
	while ((got = read_line(f, line, &total)) > 0) {
		size_t len;
		char *t = trim(line, &len);

		lineno++;
		if (!len || *t == '#')
			continue;
		if (len > KW_AUTH_TOKEN_MAX) {
			snprintf(msg, msg_len, "--auth-tokens %s:%zu: a token is at most %d bytes", path,
				 lineno, KW_AUTH_TOKEN_MAX);
			goto fail;
		}
		for (size_t i = 0; i < len; i++)
			if (t[i] <= 0x20 || t[i] >= 0x7f) {
				snprintf(msg, msg_len,
					 "--auth-tokens %s:%zu: tokens are printable ASCII without spaces",
					 path, lineno);
				goto fail;
			}
		if (a->n == alloc) {
			size_t na = alloc ? alloc * 2 : 8;
			void *p = realloc(a->digest, na * sizeof(*a->digest));

			if (!p) {
				snprintf(msg, msg_len, "--auth-tokens %s: out of memory", path);
				goto fail;
			}
			a->digest = p;
			alloc = na;
		}
		SHA256((const unsigned char *)t, len, a->digest[a->n++]);
		OPENSSL_cleanse(t, len);
	}
	if (got == -1) {
		snprintf(msg, msg_len, "--auth-tokens %s: %s", path, strerror(errno ? errno : EIO));
		goto fail;
	}
	if (got == -2) {
		snprintf(msg, msg_len, "--auth-tokens %s:%zu: a line is over %d bytes (a token is at most %d)", path,
			 lineno + 1, KW_AUTH_LINE_MAX, KW_AUTH_TOKEN_MAX);
		goto fail;
	}
	if (got == -3) {
		snprintf(msg, msg_len, "--auth-tokens %s:%zu: a NUL byte (tokens are printable ASCII)", path,
			 lineno + 1);
		goto fail;
	}
	if (got == -4) {
		snprintf(msg, msg_len, "--auth-tokens %s: over %zu bytes; a token file holds tokens, one a line",
			 path, KW_AUTH_FILE_MAX);
		goto fail;
	}
	if (!a->n) {
		snprintf(msg, msg_len, "--auth-tokens %s: no token in the file", path);
		goto fail;
	}
	if (line)
		OPENSSL_cleanse(line, cap);
	free(line);
	fclose(f);
	*out = a;
	return 0;
fail:
	if (line)
		OPENSSL_cleanse(line, cap);
	free(line);
	if (f)
		fclose(f);
	kw_auth_free(a);
	return -1;
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
