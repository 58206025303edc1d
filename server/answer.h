/*
 * answer.h - the texts of a generated answer (answer.c).
 */
#ifndef KWGEND_ANSWER_H
#define KWGEND_ANSWER_H

#include <jansson.h>

/*
 * The texts a miss needs, each value written by jansson: *client the answer
 * ("cached": false), *stored the row kept in the cache ("cached": true),
 * *tables the row's tables column ([{"name", "acc2arch"?, "arch2acc"?,
 * "value"?}, ...]).  resp is the answer object {key, config_id,
 * generator_version, isa, results}; the texts are what json_dumps(resp,
 * JSON_COMPACT) writes, with the "cached" member last.  All three are
 * malloc()ed; returns 0, or -1 when out of memory (all three NULL).
 */
int kw_answer_texts(char **client, char **stored, char **tables, const json_t *resp);

/* Every result's "asm", concatenated in order (results without asm add
 * nothing): the row's asm column.  malloc()ed; NULL when out of memory. */
char *kw_answer_concat_asm(const json_t *results);

/* Make a 200 reply's JSON object body end in ,"source":src} (src is
 * compact JSON; NULL or "" leaves the body alone).  Out of memory turns
 * the reply into a 503.  POST answers (kernels.c) and GET by key
 * (kernels_get.c) carry their source so. */
struct kw_reply;
void kw_answer_splice_source(struct kw_reply *out, const char *src);

#endif
