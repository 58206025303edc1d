/*
 * ui.h - the playground page: GET / and GET /ui/<file>, served from the
 * files of server/ui/ compiled into kwgend (scripts/embed-ui.sh).
 *
 * The page and its assets are static and hold no secrets, so they are
 * served without a bearer token even with --auth-tokens; the page asks for
 * the token and sends it on its own API requests.  --no-ui answers 404.
 */
#ifndef KW_SERVER_UI_H
#define KW_SERVER_UI_H

#include "reply.h"

/* Is url one of the page's paths ("/", "/ui", "/ui/...")? */
int kw_ui_path(const char *url);

/* Answer GET/HEAD of a page path into out: 200 with the file, its
 * Content-Type, a strong ETag (the file's SHA-256), Cache-Control
 * no-cache and a strict Content-Security-Policy; 304 when if_none_match
 * (may be NULL) names the ETag; 404 for an unknown file or when enabled
 * is 0 (--no-ui).  The body is a malloc()ed copy owned by out. */
void kw_ui_get(kw_reply *out, const char *url, const char *if_none_match, int enabled);

#endif
