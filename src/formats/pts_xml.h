/*
 * pts_xml — the Phoronix Test Suite result file (test-results/NAME/composite.xml,
 * also what OpenBenchmarking.org serves): read into the result model
 * (pts_xml.c) and written from it (pts_xml_write.c), both with libxml2. What
 * each element becomes, and what PTS-only fields are kept where: docs/pts.md.
 */
#ifndef SB_FORMATS_PTS_XML_H
#define SB_FORMATS_PTS_XML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results/result.h"

/* Is text an XML document whose root element is <PhoronixTestSuite>? Only the start of
 * the document is read (a file malformed further on is still PTS, and refused by the
 * reader with its line). */
bool sb_pts_xml_detect(const char *text, size_t len);

/* Reads a PTS result file into rf (initialised, empty). name stands for the file in
 * messages. A result or entry that cannot be read is skipped with a warning naming its
 * line (through core/log), and *skipped counts them; with strict the first such problem
 * refuses the file instead (-EINVAL, the line in err). Malformed XML: -EBADMSG, with its
 * line in err. Not a PTS result file: -EINVAL. */
int sb_pts_xml_read(const char *text, size_t len, const char *name, bool strict,
                    sb_resultfile *rf, size_t *skipped, char *err, size_t errlen);

/* Writes rf as a PTS result file (docs/pts.md, "Export"). 0 or -EIO/-ENOMEM. */
int sb_pts_xml_write(FILE *out, const sb_resultfile *rf);

/* The storbench test that stands in for the PTS test profile NAME ("pts/fio",
 * "pts/fio-2.1.0"), or NULL. */
const char *sb_pts_profile_test(const char *name);
/* The profile map, for `list`: i below sb_pts_profile_count(). */
size_t sb_pts_profile_count(void);
const char *sb_pts_profile_at(size_t i, const char **test);
/* The profile revisions (" "-separated, "" when none is known) that ran the program version
 * profile i's storbench test follows, or NULL past the end. */
const char *sb_pts_profile_versions(size_t i);
/* The row of a pts/ name ("pts/fio", "pts/fio-2.1.0") or -1; *followed (may be NULL) tells
 * whether it has no version or one of the row's revisions. */
long sb_pts_profile_find(const char *name, bool *followed);

#endif
