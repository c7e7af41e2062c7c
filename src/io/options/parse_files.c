/*
 * options_files — the entry parser of fio's file_service_type (several files per job,
 * files.c): random | roundrobin | sequential with an optional ":N" (I/Os before the
 * next file), or zipf | pareto | normal | gauss with an optional ":SKEW". Declared in
 * options.h, beside the other fio parsers; its own file so the table's stays small.
 */
#include "io/options/options.h"

#include <errno.h>
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
