/*
 * parse_iolog — the entry parsers of read_iolog's replay options whose values have a
 * syntax of their own (declared in options.h): replay_align (a power of 2), replay_skip
 * (fio's comma-separated kinds) and merge_blktrace_scalars / _iters (fio's ':' lists,
 * one value per trace).
 */
#include "io/options/options.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "io/job.h"
#include "io/log/iolog_replay.h"

int sb_opt_parse_replay_align(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                              char *err, size_t errlen)
{
    uint64_t a;
    if (sb_parse_size_kb(v, ctx ? ctx->kb_base : 0, &a) < 0 || (a & (a - 1)) || a > SB_REPLAY_LEN_MAX) {
        snprintf(err, errlen, "'%s' is not a power of 2 up to 64 MiB (0: none)", v);
        return -EINVAL;
    }
    ((sb_io_job *)base)->replay_align = (unsigned)a;
    return 0;
}

static int replay_skip_value(void *base, const char *v, char *err, size_t errlen);

/* A value naming no kind fails the run, not the parse, as fio's (job.h's run_fail). */
int sb_opt_parse_replay_skip(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                             char *err, size_t errlen)
{
    sb_io_job *job = base;
    if (replay_skip_value(base, v, err, errlen) < 0)
        snprintf(job->run_fail, sizeof job->run_fail, "replay_skip: %s", err);
    return 0;
}

static int replay_skip_value(void *base, const char *v, char *err, size_t errlen)
{
    static const struct { const char *name; unsigned bit; } kinds[] = {
        {"read", 1u << SB_RP_READ}, {"write", 1u << SB_RP_WRITE}, {"trim", 1u << SB_RP_TRIM},
        {"sync", SB_RP_SKIP_SYNC}};
    unsigned bits = 0;
    for (const char *p = v; *p;) {
        size_t n = strcspn(p, ",");
        unsigned k = 0;
        while (k < 4 && !(strlen(kinds[k].name) == n && !strncmp(p, kinds[k].name, n)))
            k++;
        if (k == 4) {
            snprintf(err, errlen, "'%.*s' is not a kind to skip (read, write, trim, sync)", (int)n, p);
            return -EINVAL;
        }
        bits |= kinds[k].bit;
        p += n + (p[n] == ',');
    }
    if (!bits) {
        snprintf(err, errlen, "'%s' names no kind to skip (read, write, trim, sync)", v);
        return -EINVAL;
    }
    ((sb_io_job *)base)->replay_skip = bits;
    return 0;
}

/* A ':' list of at most SB_IO_MAX_MERGE numbers in [lo, hi]: their count, or -1. */
static int num_list(const char *v, double lo, double hi, double *out, char *err, size_t errlen)
{
    int n = 0;
    for (const char *p = v;;) {
        char *end;
        errno = 0;
        double d = strtod(p, &end);
        if (end == p || errno || !isfinite(d) || d < lo || d > hi || (*end && *end != ':') || n == SB_IO_MAX_MERGE) {
            snprintf(err, errlen, "'%s' is not a ':' list of at most %d numbers of %g .. %g", v, SB_IO_MAX_MERGE, lo, hi);
            return -1;
        }
        out[n++] = d;
        if (!*end)
            return n;
        p = end + 1;
    }
}

int sb_opt_parse_merge_scalars(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                               char *err, size_t errlen)
{
    sb_io_job *job = base;
    int n = num_list(v, 0.001, 1e6, job->merge_scalars, err, errlen);
    if (n < 0)
        return -EINVAL;
    job->n_merge_scalars = (unsigned)n;
    return 0;
}

int sb_opt_parse_merge_iters(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                             char *err, size_t errlen)
{
    sb_io_job *job = base;
    double d[SB_IO_MAX_MERGE];
    int n = num_list(v, 1, 1000000, d, err, errlen);
    if (n < 0)
        return -EINVAL;
    for (int i = 0; i < n; i++) {
        if (d[i] != floor(d[i])) {
            snprintf(err, errlen, "'%s': %g is not a whole number of repetitions", v, d[i]);
            return -EINVAL;
        }
        job->merge_iters[i] = (unsigned)d[i];
    }
    job->n_merge_iters = (unsigned)n;
    return 0;
}
