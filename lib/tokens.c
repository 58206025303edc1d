/*
 * tokens.c - the bearer-token file (kwgen/tokens.h), read the same way by
 * kwgend --auth-tokens and kwgen logic --token-file.
 */
#include "kwgen/tokens.h"

#include <errno.h>
#include <openssl/crypto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The next line of f into line (cap KW_TOKEN_LINE_MAX + 1), NUL-terminated,
 * without its newline.  Returns 1, 0 at the end of the file, -1 on a read
 * error, -2 for a line over KW_TOKEN_LINE_MAX, -3 for a NUL byte, -4 past
 * KW_TOKEN_FILE_MAX bytes in all (*total counts them). */
static int read_line(FILE *f, char *line, size_t *total)
{
	size_t n = 0;
	int c;

	while ((c = getc(f)) != EOF) {
		if (++*total > KW_TOKEN_FILE_MAX)
			return -4;
		if (c == '\n')
			break;
		if (c == '\0')
			return -3;
		if (n == KW_TOKEN_LINE_MAX)
			return -2;
		line[n++] = (char)c;
	}
	line[n] = '\0';
	if (c == EOF && ferror(f))
		return -1;
	return c == EOF && n == 0 ? 0 : 1;
}

int kw_tokens_read(const char *path, const char *flag, kw_token_fn each, void *ud, kw_error *err)
{
	const size_t cap = KW_TOKEN_LINE_MAX + 1;
	char *line = malloc(cap);
	size_t lineno = 0, total = 0, count = 0;
	int got, rc = 0;
	FILE *f;

	if (!line)
		return kw_error_set(err, KW_ENOMEM, NULL, "%s %s: out of memory", flag, path);
	if (!(f = fopen(path, "r"))) {
		rc = kw_error_set(err, KW_EIO, NULL, "%s %s: %s", flag, path, strerror(errno));
		free(line);
		return rc;
	}
	errno = 0;
	while ((got = read_line(f, line, &total)) > 0) {
		size_t len;
		char *t = trim(line, &len);

		lineno++;
		if (!len || *t == '#')
			continue;
		if (len > KW_TOKEN_MAX) {
			rc = kw_error_set(err, KW_EINVAL, NULL, "%s %s:%zu: a token is at most %d bytes", flag, path,
					  lineno, KW_TOKEN_MAX);
			goto done;
		}
		for (size_t i = 0; i < len; i++)
			if (t[i] <= 0x20 || t[i] >= 0x7f) {
				rc = kw_error_set(err, KW_EINVAL, NULL,
						  "%s %s:%zu: tokens are printable ASCII without spaces", flag, path,
						  lineno);
				goto done;
			}
		count++;
		if ((rc = each(t, len, ud)) != 0)
			goto done;
	}
	if (got == -1)
		rc = kw_error_set(err, KW_EIO, NULL, "%s %s: %s", flag, path, strerror(errno ? errno : EIO));
	else if (got == -2)
		rc = kw_error_set(err, KW_EINVAL, NULL, "%s %s:%zu: a line is over %d bytes (a token is at most %d)",
				  flag, path, lineno + 1, KW_TOKEN_LINE_MAX, KW_TOKEN_MAX);
	else if (got == -3)
		rc = kw_error_set(err, KW_EINVAL, NULL, "%s %s:%zu: a NUL byte (tokens are printable ASCII)", flag,
				  path, lineno + 1);
	else if (got == -4)
		rc = kw_error_set(err, KW_EINVAL, NULL, "%s %s: over %zu bytes; a token file holds tokens, one a line",
				  flag, path, KW_TOKEN_FILE_MAX);
	else if (!count)
		rc = kw_error_set(err, KW_EINVAL, NULL,
				  "%s %s: no token in the file (one a line; lines starting with # are comments)",
				  flag, path);
done:
	OPENSSL_cleanse(line, cap);
	free(line);
	fclose(f);
	return rc;
}
