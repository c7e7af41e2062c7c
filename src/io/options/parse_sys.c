/*
 * parse_sys — the entry parsers of fio's file and system options whose values have a
 * syntax of their own: sync_file_range (wait_before, write, wait_after joined by ',',
 * then an optional ":N", the writes between two calls), cpumask (fio's bit mask of CPUs,
 * the same set cpus_allowed takes as a list), uid and gid (numbers) and clocksource.
 */
#include "io/options/options.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpuset.h"
#include "io/job.h"

int sb_opt_parse_sync_file_range(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                                 char *err, size_t errlen)
{
    sb_io_job *job = base;
    unsigned flags = 0;
    const char *p = v;
    while (*p && *p != ':') {
        size_t n = strcspn(p, ",:");
        if (n == 11 && !strncmp(p, "wait_before", n))
            flags |= SYNC_FILE_RANGE_WAIT_BEFORE;
        else if (n == 5 && !strncmp(p, "write", n))
            flags |= SYNC_FILE_RANGE_WRITE;
        else if (n == 10 && !strncmp(p, "wait_after", n))
            flags |= SYNC_FILE_RANGE_WAIT_AFTER;
        else
            goto bad;
        p += n;
        if (*p == ',')
            p++;
    }
    unsigned long every = 1;
    if (*p == ':') {
        char *end;
        every = strtoul(p + 1, &end, 10);
        if (end == p + 1 || *end || every == 0 || every > (1ul << 30))
            goto bad;
    }
    if (!flags)
        goto bad;
    job->sfr_flags = flags;
    job->sfr_every = (unsigned)every;
    return 0;
bad:
    snprintf(err, errlen, "'%s' is not wait_before, write, wait_after (joined by ',') with an "
             "optional :N", v);
    return -EINVAL;
}

/* fio's cpumask: a number (decimal, 0x hex or 0 octal) whose bit N allows CPU N. */
int sb_opt_parse_cpumask(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                         char *err, size_t errlen)
{
    sb_io_job *job = base;
    char *end;
    errno = 0;
    unsigned long long m = strtoull(v, &end, 0);
    if (end == v || *end || errno || v[0] == '-') {
        snprintf(err, errlen, "'%s' is not a CPU mask (0x5: CPUs 0 and 2)", v);
        return -EINVAL;
    }
    if (!m) {
        snprintf(err, errlen, "'%s' allows no CPU", v);
        return -EINVAL;
    }
    /* the list form, so that each CPU is checked as cpus_allowed checks its own */
    char list[64 * 4] = "";
    size_t off = 0;
    for (int c = 0; c < 64; c++)
        if (m >> c & 1)
            off += (size_t)snprintf(list + off, sizeof list - off, "%s%d", off ? "," : "", c);
    if (sb_cpuset_parse(list, &job->cpus_allowed, err, errlen) < 0)
        return -EINVAL;
    job->cpus_allowed_set = true;
    return 0;
}

/* fio's clocksource: clock_gettime (CLOCK_MONOTONIC), gettimeofday (microseconds) or cpu
 * (the TSC at a rate calibrated when the job starts; core/clock.h). Where the counter
 * is not invariant the job's check warns, as fio's "may not be reliable". */
int sb_opt_parse_clocksource(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                             char *err, size_t errlen)
{
    static const char *const names[] = {"clock_gettime", "gettimeofday", "cpu"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(v, names[i])) {
#if !defined(__x86_64__) && !defined(__i386__)
            if (i == 2) { /* fio offers cpu only where it reads a cycle counter */
                snprintf(err, errlen, "'cpu': storbench reads a CPU clock only on x86 (the TSC)");
                return -EINVAL;
            }
#endif
            ((sb_io_job *)base)->clocksource = i; /* core/clock.h's SB_CLOCK_MONO, _GTOD, _TSC */
            return 0;
        }
    snprintf(err, errlen, "'%s' is not one of clock_gettime, gettimeofday, cpu", v);
    return -EINVAL;
}

/* fio's uid / gid: a number, 0 .. 2^31 - 2, into the row's int */
int sb_opt_parse_id(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx, char *err,
                    size_t errlen)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (end == v || *end || errno || x < 0 || x >= 0x7fffffffL) {
        snprintf(err, errlen, "'%s' is not a numeric id (0 .. 2147483646)", v);
        return -EINVAL;
    }
    *(int *)((char *)base + o->off) = (int)x;
    return 0;
}
