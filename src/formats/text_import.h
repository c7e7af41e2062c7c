/*
 * text_import — reads a result page in the seed text format (the one
 * report/text.c writes) into a result file: the tidy multi-line layout (seed
 * 001) and the whitespace-flattened one (seed 000) alike. Every system with its hardware and software
 * description, every result with title, version, option line, unit,
 * direction and each identifier's value.
 */
#ifndef SB_FORMATS_TEXT_IMPORT_H
#define SB_FORMATS_TEXT_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "results/result.h"

/* How a page with a result that cannot be read is taken (docs/text-format.md, "A result
 * that cannot be read"): PTS's result-file-to-text prints the heading of a test that
 * produced no figure, a second row of one identifier, and its own warnings before the
 * page. Tolerant (strict false): each such result, row or leading line is skipped, with
 * one warning naming it (through core/log, when warn is set) and counted in skipped; the
 * rest imports. strict: the first of them refuses the page (-EINVAL, its line in err). */
typedef struct sb_text_import_opts {
    bool strict;
    bool warn;        /* say each skip on stderr; false: count only (a format probe) */
    const char *name; /* the file, in warnings */
    size_t skipped;   /* out */
} sb_text_import_opts;

/* rf must be initialised and empty. 0, or -EINVAL with one line in err when the text is
 * not a result page. sb_text_import is the strict form (the whole page or nothing). */
int sb_text_import(const char *text, size_t len, sb_resultfile *rf, char *err, size_t errlen);
int sb_text_import_ex(const char *text, size_t len, sb_resultfile *rf, sb_text_import_opts *o,
                      char *err, size_t errlen);

#endif
