/*
 * options_files — the entry parsers of a job's files: fio's file_service_type (several
 * files per job, files.c): random | roundrobin | sequential with an optional ":N" (I/Os
 * before the next file), or zipf | pareto | normal | gauss with an optional ":SKEW"; and
 * filename=, which adds to the job's files as fio's str_filename_cb does: every line's
 * names after those the job has (its [global]'s, the command line's, its own earlier
 * lines; a name given twice is two files of the job, as in fio), each joined to the job's
 * directory as it is when the line is read (the job file applies filename lines after the
 * section's others, as fio's option priority puts them after directory). Declared in
 * options.h, beside the other fio parsers; their own file so the table's stays small.
 */
#include "io/options/options.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "io/job.h"

int sb_opt_parse_file_service(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                              char *err, size_t errlen)
{
    static const struct { const char *name; unsigned kind; } kinds[] = {
        {"roundrobin", SB_FSRV_ROUNDROBIN}, {"random", SB_FSRV_RANDOM},
        {"sequential", SB_FSRV_SEQUENTIAL}, {"zipf", SB_FSRV_ZIPF}, {"pareto", SB_FSRV_PARETO},
        {"normal", SB_FSRV_NORMAL}, {"gauss", SB_FSRV_NORMAL},
    };
    sb_io_job *job = base;
    const char *colon = strchr(v, ':');
    size_t n = colon ? (size_t)(colon - v) : strlen(v);
    unsigned i = 0;
    while (i < sizeof kinds / sizeof kinds[0] && (strlen(kinds[i].name) != n || strncmp(kinds[i].name, v, n)))
        i++;
    if (i == sizeof kinds / sizeof kinds[0]) {
        snprintf(err, errlen, "'%s' is not one of roundrobin, random, sequential, zipf, pareto, "
                 "normal, gauss (each with :N)", v);
        return -EINVAL;
    }
    unsigned kind = kinds[i].kind;
    uint64_t nr = 0;
    double skew = 0;
    if (colon && kind < SB_FSRV_ZIPF && sb_parse_uint(colon + 1, 1, 1u << 30, &nr) < 0) {
        snprintf(err, errlen, "'%s': ':%s' is not a number of I/Os (1 or more)", v, colon + 1);
        return -EINVAL;
    }
    if (colon && kind >= SB_FSRV_ZIPF) {
        char *end;
        skew = strtod(colon + 1, &end);
        if (end == colon + 1 || *end || !(skew > 0) || (kind == SB_FSRV_PARETO && skew >= 1)) {
            snprintf(err, errlen, "'%s': ':%s' is not a skew (above 0; pareto below 1)", v, colon + 1);
            return -EINVAL;
        }
    }
    job->file_service = kind;
    job->file_service_nr = (unsigned)nr;
    job->file_service_skew = skew;
    return 0;
}

/* The first of directory=A:B (fio's add_file names a filename's files below it, the
 * first for every clone): up to its first ':' that is not "\\:", leading ones skipped. */
static size_t first_directory(const char *dirs, char *out, size_t len)
{
    size_t n = 0;
    while (*dirs == ':')
        dirs++;
    for (const char *p = dirs; *p && n + 1 < len; p++) {
        if (*p == '\\' && p[1] == ':')
            p++;
        else if (*p == ':')
            break;
        out[n++] = *p;
    }
    out[n] = '\0';
    return n;
}

int sb_opt_parse_filename(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                          char *err, size_t errlen)
{
    (void)ctx;
    sb_io_job *job = base;
    char names[sizeof job->filename], dir[PATH_MAX];
    int r = sb_opt_parse_list(names, sizeof names, v, err, errlen);
    if (r < 0)
        return r;
    size_t used = 0; /* the job's names so far, up to the list's closing NUL */
    unsigned added = 0;
    while (job->filename[used])
        used += strlen(job->filename + used) + 1;
    const bool first = used == 0;
    /* fio joins without a look at the name: directory=/d with filename=/x is /d//x */
    size_t dn = first_directory(job->directory, dir, sizeof dir);
    for (const char *p = names; *p; p += strlen(p) + 1) {
        int k = snprintf(job->filename + used, sizeof job->filename - used, "%s%s%s", dir, dn ? "/" : "", p);
        if (k < 0 || used + (size_t)k + 2 > sizeof job->filename) {
            job->filename[used] = '\0';
            snprintf(err, errlen, "the job's files' names take more than %zu bytes", sizeof job->filename - 2);
            return -EINVAL;
        }
        used += (size_t)k + 1;
        added++;
    }
    job->filename[used] = '\0'; /* the list's end: NUL NUL */
    /* fio's nr_files: counted from the first file on (an nrfiles before it is forgotten),
     * one more for each after an nrfiles that cut it (parse_nrfiles) */
    if (first)
        job->filename_nr = 0;
    else if (job->filename_nr)
        job->filename_nr += added;
    (void)o;
    return 0;
}

/* fio's nrfiles: the files of a thread made in the directory; once the job has files of
 * filename lines (a [global]'s, an earlier --filename: a section's own come after its
 * nrfiles), fio's count of them, which it sets to N: fewer than the files named, and the
 * job's files are the first N (job.c cuts the list once the job is read), as fio's. */
int sb_opt_parse_nrfiles(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                         char *err, size_t errlen)
{
    (void)ctx;
    sb_io_job *job = base;
    uint64_t n;
    if (sb_parse_uint(v, (uint64_t)o->min, UINT32_MAX, &n) < 0) {
        snprintf(err, errlen, "'%s' is not a number of at least %.0f", v, o->min);
        return -EINVAL;
    }
    unsigned have = sb_opt_list_count(job->filename);
    if (have)
        job->filename_nr = n < have ? (unsigned)n : 0;
    job->nrfiles = (unsigned)n;
    return 0;
}
