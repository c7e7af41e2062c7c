/*
 * options_jobctl — the entry parsers and choices of the job-control options whose entries
 * are in options_jobctl_entries.h (declared in options.h): rate and rate_iops per direction,
 * continue_on_error's classes, ignore_error's lists of errors.
 */
#include "io/options/options.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/units.h"
#include "io/job.h"


/* fio's R[,W[,T]]: one value is every direction's; an empty one leaves that direction
 * unlimited. sizes: by kb_base, else plain numbers. */
/* A count as fio's integer options take it: a number with an optional k, m or g of 1000s
 * (rate_iops=3k is 3000 I/Os per second). 0 or -EINVAL. */
static int parse_count(const char *p, uint64_t *out)
{
    size_t n = strlen(p);
    uint64_t mult = 1;
    char last = n ? (char)tolower((unsigned char)p[n - 1]) : 0;
    if (last == 'k' || last == 'm' || last == 'g') {
        mult = last == 'k' ? 1000 : last == 'm' ? 1000000 : 1000000000;
        char num[64];
        if (n - 1 == 0 || n - 1 >= sizeof num)
            return -EINVAL;
        memcpy(num, p, n - 1);
        num[n - 1] = '\0';
        if (sb_parse_uint(num, 0, UINT64_MAX / mult, out) < 0)
            return -EINVAL;
        *out *= mult;
        return 0;
    }
    return sb_parse_uint(p, 0, UINT64_MAX, out);
}

/* READ[,WRITE[,TRIM]] rates (sb_opt_dir_parts: fio's ',', ':' or '-' between them); the
 * last value given is also the directions' after it, as fio stores them. */
static int parse_per_dir(const char *v, bool sizes, const sb_opt_ctx *ctx, uint64_t out[3])
{
    char part[SB_DDIR_PARTS][64];
    int n = sb_opt_dir_parts(v, true, part);
    if (n < 0)
        return -EINVAL;
    for (int i = 0; i < n; i++) {
        if (!part[i][0])
            out[i] = 0;
        else if (sizes ? sb_opt_parse_size(part[i], ctx ? ctx->kb_base : 0, &out[i]) < 0
                       : parse_count(part[i], &out[i]) < 0)
            return -EINVAL;
    }
    for (int i = n; i < 3; i++)
        out[i] = out[n - 1];
    return 0;
}

int sb_opt_parse_rate(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                      char *err, size_t errlen)
{
    sb_io_job *job = base;
    uint64_t r[3];
    if (parse_per_dir(v, true, ctx, r) < 0) {
        snprintf(err, errlen, "'%s' is not a rate in bytes/s, or READ,WRITE[,TRIM] rates", v);
        return -EINVAL;
    }
    job->rate = r[0];
    job->rate_write = r[1];
    job->rate_trim = r[2];
    return 0;
}

int sb_opt_parse_rate_iops(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                           char *err, size_t errlen)
{
    sb_io_job *job = base;
    uint64_t r[3];
    if (parse_per_dir(v, false, ctx, r) < 0) {
        snprintf(err, errlen, "'%s' is not a number of I/Os per second, or READ,WRITE[,TRIM]", v);
        return -EINVAL;
    }
    job->rate_iops = r[0];
    job->rate_iops_write = r[1];
    return 0;
}

/* fio's continue_on_error: the classes of errors a job goes on after (job.h's bits). */
int sb_opt_parse_continue(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                          char *err, size_t errlen)
{
    static const struct { const char *name; unsigned bits; } c[] = {
        {"none", 0}, {"0", 0}, {"read", 1}, {"write", 2}, {"io", 3}, {"verify", 4},
        {"all", 7}, {"1", 7},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        if (!strcmp(v, c[i].name)) {
            ((sb_io_job *)base)->continue_on_error = c[i].bits;
            return 0;
        }
    snprintf(err, errlen, "'%s' is not one of none, read, write, io, verify, all", v);
    return -EINVAL;
}

/* An errno by name (ENOSPC) or number. */
static int errno_by_name(const char *s)
{
    static const struct { const char *name; int e; } t[] = {
        {"EPERM", EPERM}, {"ENOENT", ENOENT}, {"EINTR", EINTR}, {"EIO", EIO}, {"ENXIO", ENXIO},
        {"E2BIG", E2BIG}, {"EBADF", EBADF}, {"EAGAIN", EAGAIN}, {"ENOMEM", ENOMEM},
        {"EACCES", EACCES}, {"EFAULT", EFAULT}, {"EBUSY", EBUSY}, {"EEXIST", EEXIST},
        {"ENODEV", ENODEV}, {"EINVAL", EINVAL}, {"EFBIG", EFBIG}, {"ENOSPC", ENOSPC},
        {"ESPIPE", ESPIPE}, {"EROFS", EROFS}, {"EILSEQ", EILSEQ}, {"EOPNOTSUPP", EOPNOTSUPP},
        {"ETIMEDOUT", ETIMEDOUT}, {"ENODATA", ENODATA}, {"EREMOTEIO", EREMOTEIO},
        {"EDQUOT", EDQUOT}, {"ENOTSUP", ENOTSUP}, {"ECANCELED", ECANCELED},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (!strcmp(s, t[i].name))
            return t[i].e;
    uint64_t u;
    return sb_parse_uint(s, 1, 4095, &u) < 0 ? -1 : (int)u;
}

/* fio's ignore_error=READ,WRITE,VERIFY: each a :-list of errors; an empty one keeps
 * fio's default for that class (EIO, EILSEQ). */
int sb_opt_parse_ignore_error(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                              char *err, size_t errlen)
{
    sb_io_job *job = base;
    int lists[3][8];
    unsigned n[3] = {0, 0, 0}, cls = 0;
    char buf[512];
    if (strlen(v) >= sizeof buf) {
        snprintf(err, errlen, "too long");
        return -EINVAL;
    }
    strcpy(buf, v);
    for (char *p = buf, *next; p; p = next, cls++) {
        next = strchr(p, ',');
        if (next)
            *next++ = '\0';
        if (cls == 3) {
            snprintf(err, errlen, "'%s': at most three lists (read, write, verify)", v);
            return -EINVAL;
        }
        for (char *save = NULL, *e = strtok_r(p, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
            int x = errno_by_name(e);
            if (x < 0 || n[cls] == 8) {
                snprintf(err, errlen, "'%s': %s", v, x < 0 ? "an error is not a name such as "
                         "ENOSPC or a number" : "at most 8 errors per list");
                return -EINVAL;
            }
            lists[cls][n[cls]++] = x;
        }
    }
    for (unsigned c = 0; c < 3; c++)
        if (n[c]) {
            memcpy(job->ignore_error[c], lists[c], sizeof lists[c]);
            job->n_ignore_error[c] = n[c];
        }
    return 0;
}
