/*
 * ddwiki — the dd wiki page (seed 004), read and written. On such a page
 * people post one block per machine: a "==== Machine description ====" heading,
 * perhaps a note, then GNU dd's three summary lines in <code>:
 *
 *   ==== Raspberry Pi CM4 8GB mem / KINGSTON SNVS1000G (1TB) ====
 *   <code>Direct write: 1073741824 bytes (1.1 GB, 1.0 GiB) copied, 3.17625 s, 338 MB/s
 *   Direct read:  1073741824 bytes (1.1 GB, 1.0 GiB) copied, 2.68052 s, 401 MB/s
 *   Read cache:   1073741824 bytes (1.1 GB, 1.0 GiB) copied, 0.769217 s, 1.4 GB/s
 *   </code>
 *
 * Each block becomes one identifier whose three figures land in the dd test's
 * three results, with the options its byte count implies (2048k blocks), so
 * that `storbench run dd` at the same size joins the same charts. The format,
 * what is accepted and what is refused: docs/text-format.md "The dd wiki page".
 */
#ifndef SB_FORMATS_DDWIKI_H
#define SB_FORMATS_DDWIKI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "results/result.h"

/* The dd test's three figures in its measure order: Direct Write, Direct Read, Read Cache. */
#define SB_DDWIKI_TESTS 3

/* The wiki's labels with their padding, as a line starts: "Direct write: ", "Direct read:  ",
 * "Read cache:   ". */
extern const char *const sb_ddwiki_labels[SB_DDWIKI_TESTS];

/* Does text look like a dd wiki page (a line that starts with "Direct write:")? */
bool sb_ddwiki_detect(const char *text, size_t len);

/* Reads the page into rf (initialised and empty). log, when not NULL, gets one line per
 * block imported and per section skipped (the page's introductory example). 0, or -EINVAL
 * with one line in err ("line N: ..."), -ENOMEM. */
int sb_import_ddwiki(const char *text, size_t len, sb_resultfile *rf, FILE *log, char *err,
                     size_t errlen);

/* The three labelled lines, GNU dd's summary after each label. */
void sb_ddwiki_lines(FILE *out, const uint64_t bytes[SB_DDWIKI_TESTS],
                     const double seconds[SB_DDWIKI_TESTS]);
/* A block ready to paste into the page: the heading and the three lines in <code>. */
void sb_ddwiki_block(FILE *out, const char *heading, const uint64_t bytes[SB_DDWIKI_TESTS],
                     const double seconds[SB_DDWIKI_TESTS]);
/* NULL when heading can head a block (and reads back as itself), else why not. */
const char *sb_ddwiki_heading_problem(const char *heading);

#endif
