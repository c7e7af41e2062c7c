/*
 * parse_zbd — the entry parsers of fio's zonemode=zbd options (declared in options.h):
 * a size that may count zones (size=128z, offset=524z, offset_increment=8z: fio's 'z'
 * suffix, made bytes by
 * sb_io_job_resolve once the zone size is known) or, for size, be a percentage of the
 * file (size=95%: made bytes by sb_io_files_size_pct; size=A:B: fio's list, the last
 * kept), and the fractions of
 * zone_reset_threshold and zone_reset_frequency; beside the fraction, a percentage with
 * decimals (latency_percentile). The table is table.c.
 */
#include "io/options/options.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/job.h"

/* The zone count that goes with an entry's byte field (size, offset). */
static unsigned *zones_field(const sb_opt *o, void *base)
{
    sb_io_job *job = base;
    if (o->off == offsetof(sb_io_job, size))
        return &job->size_zones;
    if (o->off == offsetof(sb_io_job, offset))
        return &job->offset_zones;
    if (o->off == offsetof(sb_io_job, offset_increment))
        return &job->offinc_zones;
    return NULL;
}

int sb_opt_parse_zoned_size(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                            char *err, size_t errlen)
{
    /* size=6400K:6400K (or with commas): fio parses each value in turn into the one
     * size, so the last one is the job's; each must be a size */
    const char *sep = o->off == offsetof(sb_io_job, size) ? strpbrk(v, ":,") : NULL;
    if (o->off == offsetof(sb_io_job, size))
        ((sb_io_job *)base)->size_given = true;
    if (sep) {
        char part[64];
        for (const char *p = v;; p = sep + 1, sep = strpbrk(p, ":,")) {
            size_t k = sep ? (size_t)(sep - p) : strlen(p);
            snprintf(part, sizeof part, "%.*s", (int)(k < sizeof part ? k : sizeof part - 1), p);
            if (k >= sizeof part || !k || sb_opt_parse_zoned_size(o, base, part, ctx, err, errlen) < 0) {
                snprintf(err, errlen, "'%s' is not a size, or sizes separated by ':' (fio keeps the last)", v);
                return -EINVAL;
            }
            if (!sep)
                return 0;
        }
    }
    unsigned *zones = zones_field(o, base);
    uint64_t *bytes = (uint64_t *)((char *)base + o->off);
    size_t n = strlen(v);
    if (zones && n > 1 && v[n - 1] == 'z') {
        char *end;
        errno = 0;
        unsigned long long z = strtoull(v, &end, 10);
        /* 0z is the first zone's start for offset, as fio's; a size needs a zone at least */
        bool zero_ok = o->off != offsetof(sb_io_job, size);
        if (errno || end != v + n - 1 || (z == 0 && !zero_ok) || z > UINT32_MAX || *v == '-') {
            snprintf(err, errlen, "'%s' is not a number of zones (such as 128z)", v);
            return -EINVAL;
        }
        *zones = (unsigned)z;
        *bytes = 0; /* until the zone size is known (sb_io_job_resolve) */
        return 0;
    }
    bool is_off = o->off == offsetof(sb_io_job, offset);
    bool is_inc = o->off == offsetof(sb_io_job, offset_increment);
    if ((o->off == offsetof(sb_io_job, size) || is_off || is_inc) && n > 1 && v[n - 1] == '%') {
        char *end;
        unsigned long pct = strtoul(v, &end, 10);
        /* fio reads "100%%" as 100% (its percent sign may come doubled, as in a printf) */
        size_t signs = n > 2 && v[n - 2] == '%' ? 2 : 1;
        /* offset: 0 .. 99; offset_increment: 0 .. 100 (fio's percentages); size: 1 .. 100 */
        unsigned lo = !is_off && !is_inc, hi = 100 - is_off;
        if (end != v + n - signs || pct < lo || pct > hi || *v == '-') {
            snprintf(err, errlen, "'%s' is not a percentage from %u%% to %u%%", v, lo, hi);
            return -EINVAL;
        }
        if (is_off) /* offset=N%: of the file, aligned up to offset_align (files.c) */
            ((sb_io_job *)base)->offset_pct = (unsigned)pct + 1;
        else if (is_inc) /* offset_increment=N%: likewise (files.c, jobctl.c) */
            ((sb_io_job *)base)->offinc_pct = (unsigned)pct + 1;
        else
            ((sb_io_job *)base)->size_pct = (unsigned)pct;
        *bytes = 0; /* until the file is named (sb_io_files_size_pct) */
        if (zones)
            *zones = 0;
        return 0;
    }
    uint64_t u;
    if (sb_opt_parse_size(v, ctx ? ctx->kb_base : 0, &u) < 0) {
        snprintf(err, errlen, "'%s' is not a size", v);
        return -EINVAL;
    }
    *bytes = u;
    if (zones)
        *zones = 0;
    if (o->off == offsetof(sb_io_job, size))
        ((sb_io_job *)base)->size_pct = 0;
    if (is_off)
        ((sb_io_job *)base)->offset_pct = 0;
    if (is_inc)
        ((sb_io_job *)base)->offinc_pct = 0;
    return 0;
}

int sb_opt_parse_fraction(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                          char *err, size_t errlen)
{
    char *end;
    double x = strtod(v, &end);
    if (end == v || *end || !(x >= 0 && x <= 1)) {
        snprintf(err, errlen, "'%s' is not a number from 0 to 1", v);
        return -EINVAL;
    }
    *(double *)((char *)base + o->off) = x;
    return 0;
}

int sb_opt_parse_pct_float(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                           char *err, size_t errlen)
{
    char *end;
    double x = strtod(v, &end);
    if (end != v && *end == '%')
        end++;
    if (end == v || *end || !(x >= 0 && x <= 100)) {
        snprintf(err, errlen, "'%s' is not a percentage from 0 to 100", v);
        return -EINVAL;
    }
    *(double *)((char *)base + o->off) = x;
    return 0;
}
