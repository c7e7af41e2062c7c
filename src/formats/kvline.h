/*
 * kvline — the "Key: value, Key: value" line that result pages and PTS result
 * files use for a system's hardware and software. One reader and one writer, so
 * that every outside format splits and joins it alike (issue 25: the formats
 * layer shares its small tokenizers).
 */
#ifndef SB_FORMATS_KVLINE_H
#define SB_FORMATS_KVLINE_H

#include "results/result.h"

/* Appends the pieces of line to l: it is split at ", " followed by a key (one to three
 * words, each starting with an upper-case letter or a digit, then ':' and a space). A piece
 * without a key is kept under the empty key. */
void sb_kvline_parse(const char *line, sb_kvlist *l);
/* "Key: value, Key: value" of l (caller frees); a pair with an empty key is its value. */
char *sb_kvline_format(const sb_kvlist *l);

#endif
