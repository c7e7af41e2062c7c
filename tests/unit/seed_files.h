/*
 * seed_files — test helpers shared by the unit tests that read files of the
 * source tree (seed pages, golden pages): read one whole (core/fileio's reader), or import a seed
 * page into a result file. Paths are relative to $STORBENCH_SRC (the
 * checkout, set by tests/run-all.sh), else the current directory.
 * Include after <cmocka.h>.
 */
#ifndef SB_TEST_SEED_FILES_H
#define SB_TEST_SEED_FILES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "formats/text_import.h"
#include "results/result.h"

/* The whole file (at most 1 MiB), NUL-terminated; the caller frees it. Fails the test when
 * the file cannot be opened. */
static inline char *slurp(const char *rel, size_t *len)
{
    char path[1024];
    const char *src = getenv("STORBENCH_SRC");
    snprintf(path, sizeof path, "%s/%s", src && *src ? src : ".", rel);
    char *buf;
    int rc = sb_read_file(path, (1 << 20) - 1, 1, &buf, len);
    if (rc < 0)
        fail_msg("cannot read %s: %s", path, strerror(-rc));
    return buf;
}

/* Imports a seed-format page into rf (initialised here); fails the test on error. */
static inline void import_file(const char *rel, sb_resultfile *rf)
{
    size_t len;
    char *text = slurp(rel, &len);
    char err[256] = "";
    sb_resultfile_init(rf);
    if (sb_text_import(text, len, rf, err, sizeof err))
        fail_msg("import of %s failed: %s", rel, err);
    free(text);
}

#endif
