/*
 * ui.c - the playground page's files (see ui.h).
 */
#include "ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct kw_ui_asset {
	const char *path;         /* "/ui/app.js" */
	const char *type;         /* Content-Type */
	const unsigned char *data;
	size_t len;
	const char *etag;         /* "\"<sha256 hex>\"" */
} kw_ui_asset;

#include "ui_assets.h" /* generated: kw_ui_assets[] */

#define KW_UI_NASSETS (sizeof(kw_ui_assets) / sizeof(kw_ui_assets[0]))

/* Every response of the page: no inline script or style, nothing from
 * another origin, no framing; the page talks to this daemon only. */
static const char *const kw_ui_headers[] = {
	"Content-Security-Policy",
	"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
	"Cache-Control", "no-cache",
	"X-Content-Type-Options", "nosniff",
	"Referrer-Policy", "no-referrer",
	NULL,
};

int kw_ui_path(const char *url)
{
	return strcmp(url, "/") == 0 || strcmp(url, "/ui") == 0 || strncmp(url, "/ui/", 4) == 0;
}

/* If-None-Match names etag: "*" or a comma-separated list holding it
 * (a weak W/ prefix matches too, as RFC 9110 says for GET). */
static int etag_matches(const char *inm, const char *etag)
{
	return inm && (strcmp(inm, "*") == 0 || strstr(inm, etag) != NULL);
}

void kw_ui_get(kw_reply *out, const char *url, const char *if_none_match, int enabled)
{
	const char *path = url;
	const kw_ui_asset *a = NULL;
	char *body;

	if (!enabled) {
		kw_reply_error(out, 404, "not_found", NULL,
			       "the playground page is turned off (kwgend --no-ui)");
		return;
	}
	if (strcmp(url, "/") == 0 || strcmp(url, "/ui") == 0 || strcmp(url, "/ui/") == 0)
		path = "/ui/index.html";
	for (size_t i = 0; i < KW_UI_NASSETS; i++)
		if (strcmp(path, kw_ui_assets[i].path) == 0)
			a = &kw_ui_assets[i];
	if (!a) {
		kw_reply_error(out, 404, "not_found", NULL,
			       "no such file of the playground page; it has / and /ui/<file>");
		return;
	}
	snprintf(out->etag, sizeof(out->etag), "%s", a->etag);
	out->headers = kw_ui_headers;
	if (etag_matches(if_none_match, a->etag)) {
		kw_reply_text(out, 304, NULL, 0, a->type);
		return;
	}
	if (!(body = malloc(a->len))) {
		kw_reply_error(out, 503, "no_memory", NULL, "out of memory");
		out->headers = NULL;
		return;
	}
	memcpy(body, a->data, a->len);
	kw_reply_text(out, 200, body, a->len, a->type);
}
