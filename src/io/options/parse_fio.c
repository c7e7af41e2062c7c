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

#include "core/cpuset.h"
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

/* fio's log_compression_cpus: a CPU list, as cpus_allowed. */
int sb_opt_parse_log_cpus(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                          char *err, size_t errlen)
{
    sb_io_job *job = base;
    if (sb_cpuset_parse(v, &job->log_gz_cpus, err, errlen) < 0)
        return -EINVAL;
    job->log_gz_cpus_set = true;
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

/* One direction's value of bs or blockalign (one size), or of bsrange (LO-HI or LO:HI, as
 * fio's range type reads it; hi 0 for one size). */
static int dir_value(const char *s, bool ranges, const sb_opt_ctx *ctx, uint64_t v[2])
{
    char buf[64], *dash;
    if (strlen(s) >= sizeof buf)
        return -EINVAL;
    strcpy(buf, s);
    unsigned kb = ctx ? ctx->kb_base : 0;
    v[1] = 0;
    if (ranges && ((dash = strchr(buf, '-')) || (dash = strchr(buf, ':')))) {
        *dash = '\0';
        if (sb_opt_parse_size(dash + 1, kb, &v[1]) < 0)
            return -EINVAL;
    }
    return sb_opt_parse_size(buf, kb, &v[0]);
}

/* fio's bs, bsrange and blockalign: READ[,WRITE[,TRIM]] (sb_opt_dir_parts: bs=4k-16k is
 * reads 4k, writes 16k, as fio reads it), each a size, bsrange's a range LO-HI; one value
 * is every direction's, an empty one keeps its default. The writes' value goes beside the
 * reads' (bs_w/bs_max_w, blockalign_w) when it differs; storbench's trims take the reads'
 * size, so a trim value of its own is refused. */
int sb_opt_parse_bs_dirs(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                         char *err, size_t errlen)
{
    sb_io_job *job = base;
    const bool ba = o->off == offsetof(sb_io_job, blockalign);
    const bool range = !ba && !strcmp(o->name, "bsrange");
    uint64_t d[3][2] = {{0}};
    bool given[3] = {false};
    char part[SB_DDIR_PARTS][64];
    int n = sb_opt_dir_parts(v, !range, part);
    if (n < 0) {
        snprintf(err, errlen, "'%s': at most READ,WRITE,TRIM", v);
        return -EINVAL;
    }
    for (int i = 0; i < n; i++) {
        given[i] = part[i][0] != '\0';
        /* the sizes' bounds are sb_io_job_check's, which names the direction's use */
        if (given[i] && (dir_value(part[i], range, ctx, d[i]) < 0 || (ba && d[i][0] > SB_IO_MAX_BS) ||
                         (d[i][1] && d[i][1] < d[i][0]))) {
            snprintf(err, errlen, "'%s' is not %s, or READ,WRITE[,TRIM] of them", v,
                     ba ? "an alignment in bytes (up to 64M)" : range ? "a range of sizes (4k-64k)" : "a size");
            return -EINVAL;
        }
    }
    if (!given[0] && !given[1] && !given[2]) { /* no value at all (an unset ${VAR}) */
        snprintf(err, errlen, "'%s' is not %s", v, ba ? "an alignment" : "a size");
        return -EINVAL;
    }
    uint64_t *rd = ba ? &job->blockalign : &job->bs, *wr = ba ? &job->blockalign_w : &job->bs_w;
    if (given[0]) {
        rd[0] = d[0][0];
        if (!ba)
            rd[1] = d[0][1];
    }
    bool one = n == 1;
    uint64_t w0 = one || !given[1] ? rd[0] : d[1][0], w1 = one || !given[1] ? (ba ? 0 : rd[1]) : d[1][1];
    if (!ba) /* refused only for a job that trims (sb_io_job_check) */
        job->bs_trim_own = given[2] && (d[2][0] != rd[0] || d[2][1] != rd[1]);
    else if (given[2] && d[2][0] != rd[0]) {
        snprintf(err, errlen, "'%s': storbench's trims take the reads' value; a trim value of its own "
                 "is not supported", v);
        return -EINVAL;
    }
    bool same = w0 == rd[0] && (ba || w1 == rd[1]);
    wr[0] = same ? 0 : w0;
    if (!ba)
        wr[1] = same ? 0 : w1;
    /* bsrange after a bssplit holds the split's sizes in its range (fio's min and max, which
     * both fill: the later one's stay) */
    if (!ba && !strcmp(o->name, "bsrange"))
        job->bsrange_clamps = job->bssplit.n > 0;
    return 0;
}

int sb_opt_parse_bssplit(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx, char *err,
                         size_t errlen)
{
    sb_io_job *job = base;
    int r = sb_opt_parse_split(o, (char *)base + o->off, v, ctx, err, errlen);
    if (r == 0) /* its own sizes are the min and max now, whatever bsrange said before */
        job->bsrange_clamps = false;
    return r;
}

int sb_opt_parse_pct_dirs(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                          char *err, size_t errlen)
{
    unsigned *pct = (unsigned *)((char *)base + o->off), got[SB_DDIR_PARTS];
    char part[SB_DDIR_PARTS][64];
    int n = sb_opt_dir_parts(v, true, part);
    uint64_t x;
    for (int i = 0; i < n; i++) {
        if (!part[i][0]) { /* an empty one keeps the default, as fio's */
            got[i] = pct[i];
            continue;
        }
        if (sb_parse_uint(part[i], 0, 100, &x) < 0)
            n = -1;
        else
            got[i] = (unsigned)x;
    }
    if (n < 0) {
        snprintf(err, errlen, "'%s' is not a percentage (0 .. 100), or READ,WRITE[,TRIM] of them", v);
        return -EINVAL;
    }
    for (int i = 0; i < SB_DDIR_PARTS; i++) /* the last one given is also the rest's, as fio's */
        pct[i] = got[i < n ? i : n - 1];
    return 0;
}
