/*
 * read — reading /proc and /sys below a root prefix ("" is this machine, a
 * directory is a fixture tree in the unit tests): whole small files, one-line
 * attributes, sorted directory listings.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sysinfo/read.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/strutil.h"

/* Reads a whole (small) file below root; NULL when unreadable. Caller frees. Nothing we read
 * is over 4 MiB (pci.ids is about 1.3 MiB): a larger file is cut there rather than grown. */
char *si_slurp(const char *root, const char *path)
{
    char full[PATH_MAX];
    if (snprintf(full, sizeof full, "%s%s", root, path) >= (int)sizeof full)
        return NULL;
    char *buf = NULL;
    int rc = sb_read_file(full, 4u << 20, 1, &buf, NULL);
    if (rc == -ENOMEM)
        sb_oom();
    return rc < 0 ? NULL : buf;
}

/* One trimmed line of a sysfs attribute; NULL when unreadable or empty. */
char *si_slurp_attr(const char *root, const char *path)
{
    char *s = si_slurp(root, path);
    if (!s)
        return NULL;
    sb_trim(s);
    if (!*s) {
        free(s);
        return NULL;
    }
    return s;
}
static int version_cmp(const void *a, const void *b)
{
    return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted entry names of a directory below root (no dot entries); count in *n. */
char **si_list_dir(const char *root, const char *path, size_t *n)
{
    char full[PATH_MAX];
    *n = 0;
    sb_fmt(full, sizeof full, "%s%s", root, path);
    DIR *d = opendir(full);
    if (!d)
        return NULL;
    char **names = NULL;
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            names = realloc(names, cap * sizeof *names);
            if (!names)
                sb_oom();
        }
        names[(*n)++] = sb_xstrdup(e->d_name);
    }
    closedir(d);
    if (*n)
        qsort(names, *n, sizeof *names, version_cmp);
    return names;
}

void si_free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}
