/*
 * scratch_dir — the scratch directory fixture shared by the unit tests that
 * run workloads for real: a fresh directory under /var/tmp (disk-backed) per
 * test group, removed afterwards, with the interrupt flag cleared on both
 * sides; and a count of a directory's entries, to assert a run left nothing.
 * Define SCRATCH_TEMPLATE (a mkdtemp template) before including; include
 * after <cmocka.h>.
 */
#ifndef SB_TEST_SCRATCH_DIR_H
#define SB_TEST_SCRATCH_DIR_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/interrupt.h"
#include "core/workdir.h"

static char dir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "%s", SCRATCH_TEMPLATE);
    if (!mkdtemp(dir))
        return -1;
    sb_interrupt_reset();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    sb_remove_tree(dir);
    sb_interrupt_reset();
    return 0;
}

/* Entries of path other than "." and ".." (0 when it cannot be read). */
static size_t entries(const char *path)
{
    DIR *d = opendir(path);
    size_t n = 0;
    struct dirent *e;
    if (!d)
        return 0;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

#endif
