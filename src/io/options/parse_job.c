/*
 * parse_job — the entry parsers of the table's rows (table.c) for what a job is: rw mix as
 * writes, steady-state criteria, CPU lists, log intervals, verify's algorithm, buffered as
 * the inverse of direct, filesize ranges, nice and prio, the percentile list.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/cpuset.h"
#include "core/units.h"
#include "io/job.h"
#include "io/options/options.h"

int sb_opt_parse_steady(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                        char *err, size_t errlen)
{
    return sb_ss_parse(v, &((sb_io_job *)base)->steady, err, errlen);
}

int sb_opt_parse_cpus(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                      char *err, size_t errlen)
{
    sb_io_job *job = base;
    int missing;
    /* a CPU this machine lacks parses, as fio's --parse-only; the job fails when it starts
     * (job_copy, run/worker.c), as fio's does */
    if (sb_cpuset_parse_lax(v, &job->cpus_allowed, &missing, err, errlen) < 0)
        return -EINVAL;
    job->cpus_missing = missing + 1;
    job->cpus_allowed_set = true;
    return 0;
}

/* fio's log_avg_msec: the time-series interval in milliseconds. */
int sb_opt_parse_log_msec(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                          char *err, size_t errlen)
{
    uint64_t ms;
    if (sb_parse_uint(v, 1, 86400000, &ms) < 0) {
        snprintf(err, errlen, "'%s' is not a number of milliseconds (1 .. 86400000)", v);
        return -EINVAL;
    }
    ((sb_io_job *)base)->log_interval_s = (double)ms / 1000;
    return 0;
}

int sb_opt_parse_verify(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                        char *err, size_t errlen)
{
    if (sb_verify_algo_parse(v, &((sb_io_job *)base)->verify) < 0) {
        snprintf(err, errlen, "unknown algorithm '%s' (crc32c, xxhash, sha256, pattern, crc64, crc32, "
                 "crc16, crc7, md5, sha1, sha224, sha384, sha512, sha3-224 .. sha3-512, meta)", v);
        return -EINVAL;
    }
    return 0;
}

/* fio's rwmixwrite: the reads are the rest. */
int sb_opt_parse_rwmixwrite(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                            char *err, size_t errlen)
{
    uint64_t u;
    char num[32];
    size_t n = strlen(v);
    if (n && v[n - 1] == '%')
        n--;
    if (n >= sizeof num || (memcpy(num, v, n), num[n] = '\0', sb_parse_uint(num, 0, 100, &u)) < 0) {
        snprintf(err, errlen, "'%s' is not a percentage (0 .. 100)", v);
        return -EINVAL;
    }
    ((sb_io_job *)base)->rwmixread = 100 - (unsigned)u;
    return 0;
}

/* fio's buffered: the opposite of direct. */
int sb_opt_parse_buffered(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                          char *err, size_t errlen)
{
    int b = 1;
    if (v && sb_parse_bool(v, &b) < 0) {
        snprintf(err, errlen, "'%s' is not 0 or 1", v);
        return -EINVAL;
    }
    ((sb_io_job *)base)->direct = !b;
    return 0;
}

/* fio's filesize: the file's size, and the job's region unless size makes it smaller. */
int sb_opt_parse_filesize(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                          char *err, size_t errlen)
{
    sb_io_job *job = base;
    uint64_t u, hi = 0;
    /* fio splits an option's value into pieces at ',', else ':', else '-' (parse.c's
     * handle_option): filesize=4m:6m is 4m-6m, 4 to 6 MiB */
    size_t n = strlen(v);
    if (n && v[n - 1] == ',') /* fio drops a trailing comma */
        n--;
    size_t first = strcspn(v, ",:-");
    const char *dash = first < n ? v + first : NULL, *last = NULL;
    for (size_t i = 0; i < n; i++)
        if (strchr(",:-", v[i]))
            last = v + i;
    char lo[64];
    snprintf(lo, sizeof lo, "%.*s", dash ? (int)(dash - v) : (int)n, v);
    char hitext[64];
    if (last)
        snprintf(hitext, sizeof hitext, "%.*s", (int)(v + n - last - 1), last + 1);
    /* fio's LO-HI: each file's size drawn in the range (files.c). With more than one
     * separator fio 3.33 takes the first piece as LO and the last as HI ("16-8k/8M-512M"
     * is 16 .. 512M), what lies between unread; the same here (silently, as fio's) */
    if (sb_opt_parse_size(lo, ctx ? ctx->kb_base : 0, &u) < 0 ||
        (dash && (sb_opt_parse_size(hitext, ctx ? ctx->kb_base : 0, &hi) < 0 || hi < u))) {
        snprintf(err, errlen, "'%s' is not a size or a range LO-HI of sizes", v);
        return -EINVAL;
    }

    job->filesize = u;
    job->filesize_max = hi > u ? hi : 0;
    job->size = hi > u ? hi : u;
    return 0;
}

/* A signed integer in [lo, hi] (nice: -20 .. 19; prio: 0 .. 7). */
static int parse_signed(const char *v, long lo, long hi, int *out, char *err, size_t errlen)
{
    char *end;
    long x = strtol(v, &end, 10);
    if (!*v || *end || x < lo || x > hi) {
        snprintf(err, errlen, "'%s' is not in %ld .. %ld", v, lo, hi);
        return -EINVAL;
    }
    *out = (int)x;
    return 0;
}

int sb_opt_parse_nice(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                      char *err, size_t errlen)
{
    return parse_signed(v, -20, 19, &((sb_io_job *)base)->nice, err, errlen);
}

int sb_opt_parse_prio(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                      char *err, size_t errlen)
{
    return parse_signed(v, 0, 7, &((sb_io_job *)base)->prio, err, errlen);
}

/* fio's percentile_list: 99:99.9:99.99, at most SB_IO_MAX_PERCENTILES, each in (0, 100]. */
int sb_opt_parse_percentiles(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                             char *err, size_t errlen)
{
    sb_io_job *job = base;
    double p[SB_IO_MAX_PERCENTILES];
    unsigned n = 0;
    const char *s = v;
    while (*s) {
        char *end;
        double x = strtod(s, &end);
        if (end == s || (*end && *end != ':') || !(x > 0 && x <= 100) || n == SB_IO_MAX_PERCENTILES) {
            snprintf(err, errlen, "'%s' is not a list of at most %d percentiles (99:99.9)", v,
                     SB_IO_MAX_PERCENTILES);
            return -EINVAL;
        }
        p[n++] = x;
        s = *end ? end + 1 : end;
    }
    if (!n) {
        snprintf(err, errlen, "'%s' is empty", v);
        return -EINVAL;
    }
    memcpy(job->percentiles, p, sizeof p);
    job->n_percentiles = n;
    return 0;
}

/* fio's allrandrepeat: every generator repeats. storbench's generators (offsets, mix, data)
 * all derive from the job's seed, so 1 is randrepeat=1; 0 leaves randrepeat as it is. */
int sb_opt_parse_allrandrepeat(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                               char *err, size_t errlen)
{
    int b;
    if (sb_parse_bool(v ? v : "1", &b) < 0) {
        snprintf(err, errlen, "'%s' is not 0 or 1", v);
        return -EINVAL;
    }
    if (b)
        ((sb_io_job *)base)->randrepeat = true;
    return 0;
}
