/*
 * kwgen/text.h - an answer as plain text: the assembly of every result,
 * for people (kwgen --asm, kwgend's Accept: text/plain).
 *
 * The text of an answer is, in order:
 *
 *   // source: FILE, SolutionIndex N, SolutionNameMin NAME   (only with a "source")
 *   // <generator>(<arg>=<value>, ...)                       (one per result)
 *   <the result's asm, unchanged>
 *   // warning: <code>: <message>                            (one per diagnostic)
 *
 * Arguments are written as a Python call (the seed's names, defaults
 * filled): integers in decimal, strings JSON-quoted, True/False/None.
 * Results without assembly print their value on the header line
 * ("// getAccToArchLen() = 16", "// hasSequentialValuC() = True"); an
 * accToArchMapper result prints "// acc2arch: [...]" and "// arch2acc:
 * [...]" lines.  The text is assemblable as is: every added line is a
 * comment.
 *
 * Ownership: nothing is kept; out is appended to (kw_buf's sticky error).
 */
#ifndef KWGEN_TEXT_H
#define KWGEN_TEXT_H

#include <jansson.h>

#include "kwgen/buf.h"
#include "kwgen/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Append the text of answer to out.  answer is a farm-form answer object
 * ({"results": [{"name", "args", "asm", "value"?, "acc2arch"?, "arch2acc"?,
 * "diagnostics"}], "source"?, ...}, as kw_request_run's results wrapped by
 * kwgen and kwgend).  Returns 0; KW_EINVAL when answer has no "results"
 * array (an error answer, say); KW_ENOMEM.
 */
int kw_text_render(kw_buf *out, const json_t *answer, kw_error *err);

/* Append the "// source: ..." line for source (an object or a string, as
 * kw_request_source gives it); nothing for NULL.  Returns 0 or KW_ENOMEM. */
int kw_text_source_line(kw_buf *out, const json_t *source);

#ifdef __cplusplus
}
#endif
#endif
