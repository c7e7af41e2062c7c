/*
 * options_fio — the entry parsers of the options fio's job files brought (issue 27) whose
 * values have a syntax of their own: rw's :SKIP, random_distribution, write_*_log given
 * bare, log_avg_msec=0 (declared in options.h). The table itself stays in options.c; this
 * file keeps that one under the size limit, one parser per option as there.
 */
#include "io/options/options.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "io/loop/distribution.h"
#include "io/job.h"

/* fio's random_distribution (io/distribution.h). */
int sb_opt_parse_distribution(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                              char *err, size_t errlen)
{
    return sb_dist_parse(v, ctx ? ctx->kb_base : 0, &((sb_io_job *)base)->dist, err, errlen);
}

/* fio's rw=MODE:SKIP: SKIP bytes after each sequential I/O (negative: backwards). */
int sb_opt_parse_rw(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                    char *err, size_t errlen)
{
    sb_io_job *job = base;
    char mode[32];
    const char *colon = strchr(v, ':');
    size_t n = colon ? (size_t)(colon - v) : strlen(v);
    snprintf(mode, sizeof mode, "%.*s", (int)(n < sizeof mode ? n : sizeof mode - 1), v);
    const sb_opt_choice *c = o->choices;
    while (c && c->name && strcmp(c->name, mode))
        c++;
    if (!c || !c->name) {
        int k = snprintf(err, errlen, "'%s' is not one of ", mode);
        for (c = o->choices; c && c->name && k >= 0 && (size_t)k < errlen; c++)
            k += snprintf(err + k, errlen - (size_t)k, "%s%s", c == o->choices ? "" : ", ", c->name);
        return -EINVAL;
    }
    job->rw = (sb_rw)c->value;
    job->rw_skip = 0;
    job->rw_seq_nr = 0;
    if (!colon)
        return 0;
    const char *s = colon + 1;
    bool neg = *s == '-';
    uint64_t u;
    if (sb_rw_is_random(job->rw)) { /* randread:N: a new random offset every N I/Os */
        char *end;
        unsigned long long n = strtoull(s, &end, 10);
        if (end == s || *end || n < 1 || n > UINT32_MAX || neg) {
            snprintf(err, errlen, "'%s': the number after ':' is not a count of I/Os from 1 (randread:8)", v);
            return -EINVAL;
        }
        job->rw_seq_nr = (unsigned)n;
        return 0;
    }
    if (sb_opt_parse_size(s + neg, ctx ? ctx->kb_base : 0, &u) < 0 || u > INT64_MAX) {
        snprintf(err, errlen, "'%s': the skip after ':' is not a size (read:8k, read:-8k)", v);
        return -EINVAL;
    }
    job->rw_skip = neg ? -(int64_t)u : (int64_t)u;
    return 0;
}

/* fio's write_*_log=PREFIX; given bare, the job's name (sb_io_job_resolve puts it in place
 * of "\1": a [global] line comes before the name). */
int sb_opt_parse_log_prefix(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                            char *err, size_t errlen)
{
    char *field = (char *)base + o->off;
    if (v == o->def) /* bare: sb_opt_parse passed the default itself */
        v = "\1";
    if (!*v || strlen(v) >= o->size) {
        snprintf(err, errlen, "'%s' is not a file name prefix (1 .. %zu bytes)", v, o->size - 1);
        return -EINVAL;
    }
    memcpy(field, v, strlen(v) + 1);
    return 0;
}

/* fio's log_avg_msec: the time-series interval, and the log files' averaging. */
int sb_opt_parse_log_avg(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                         char *err, size_t errlen)
{
    sb_io_job *job = base;
    uint64_t ms;
    if (sb_parse_uint(v, 0, 86400000, &ms) < 0) {
        snprintf(err, errlen, "'%s' is not a number of milliseconds (0 .. 86400000)", v);
        return -EINVAL;
    }
    job->log_avg_ms = (unsigned)ms;
    if (ms) /* 0: fio's default, one log line per I/O; the series keeps its interval */
        return sb_opt_parse_log_msec(o, base, v, ctx, err, errlen);
    return 0;
}
