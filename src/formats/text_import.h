/*
 * text_import — reads a result page in the seed text format (the one
 * report/text.c writes) into a result file: the tidy multi-line layout (seed
 * 001) and the whitespace-flattened one (seed 000) alike. Every system with its hardware and software
 * description, every result with title, version, option line, unit,
 * direction and each identifier's value.
 */
#ifndef SB_FORMATS_TEXT_IMPORT_H
#define SB_FORMATS_TEXT_IMPORT_H

#include <stddef.h>

#include "results/result.h"

/* rf must be initialised and empty. 0, or -EINVAL with one line in err when the text is
 * not a result page. */
int sb_text_import(const char *text, size_t len, sb_resultfile *rf, char *err, size_t errlen);

#endif
