/*
 * iolog — see iolog.h.
 */
#include "io/log/iolog.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/job.h"
#include "io/log/histlog.h"

#define LINE_MAX_BYTES 112

static const char *const kinds[SB_IOLOG_N] = {"bw", "lat", "clat", "iops"};

static int open_logs(sb_iolog *l, const sb_io_job *job, unsigned index, char *err, size_t errlen)
{
    const char *prefix[SB_IOLOG_N] = {job->bw_log, job->lat_log, job->lat_log, job->iops_log};
    int r = 0;
    for (int k = 0; k < SB_IOLOG_N && r == 0; k++)
        if (prefix[k][0])
            r = sb_logfile_open(&l->f[k], job, prefix[k], kinds[k], index, 0, err, errlen);
    if (r == 0 && job->lat_log[0]) { /* fio's slat log: storbench has no submission latency */
        sb_logfile slat;
        if ((r = sb_logfile_open(&slat, job, job->lat_log, "slat", index, 0, err, errlen)) == 0)
            sb_logfile_close(&slat);
    }
    if (r == 0 && job->hist_log[0])
        r = sb_histlog_open(job, index, &l->hist, err, errlen);
    return r;
}

int sb_iolog_open(const sb_io_job *job, unsigned index, sb_iolog **out, char *err, size_t errlen)
{
    *out = NULL;
    if (!job->bw_log[0] && !job->lat_log[0] && !job->iops_log[0] && !job->hist_log[0])
        return 0;
    sb_iolog *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    for (int k = 0; k < SB_IOLOG_N; k++)
        l->f[k].fd = -1;
    l->offset = job->log_offset;
    l->binary = job->log_gz_store;
    l->log_max = job->log_max;
    l->prio_hex = job->log_prio;
    l->avg_ns = (uint64_t)job->log_avg_ms * 1000000ull;
    l->win_end = l->avg_ns;
    l->bw_ns = l->bw_end = (uint64_t)job->bw_avg_ms * 1000000ull;
    l->iops_ns = l->iops_end = (uint64_t)job->iops_avg_ms * 1000000ull;
    l->epoch_clock = job->log_unix_epoch || job->log_alt_epoch ? job->log_epoch_clock_id : -1;
    l->lines = job->bw_log[0] || job->lat_log[0] || job->iops_log[0];
    int r = open_logs(l, job, index, err, errlen);
    if (r < 0) {
        sb_iolog_close(l, 0);
        return r;
    }
    *out = l;
    return 0;
}

/* fio's binary sample (iolog.h), little-endian as on every machine storbench runs on. */
static size_t sample(const sb_iolog *l, char *p, uint64_t ms, uint64_t value, int ddir, uint32_t bs,
                     uint64_t off)
{
    uint32_t d = (uint32_t)ddir | (l->offset ? SB_IOLOG_FLAG_OFFSET : 0) | (l->prio_hex ? SB_IOLOG_FLAG_PRIO : 0);
    /* without log_prio fio prints 1 for a real-time class value: storbench's 1 (an I/O
     * cmdprio picked) is stored as class 1 level 0 so that it reads back as 1 */
    uint16_t prio = (uint16_t)(l->prio_hex ? l->prio : l->prio ? 0x2000u : 0);
    uint64_t bs64 = bs;
    memset(p, 0, SB_IOLOG_SAMPLE_OFFSET_BYTES);
    memcpy(p, &ms, 8);
    memcpy(p + 8, &value, 8);
    memcpy(p + 16, &d, 4);
    memcpy(p + 20, &prio, 2);
    memcpy(p + 24, &bs64, 8);
    if (!l->offset)
        return SB_IOLOG_SAMPLE_BYTES;
    memcpy(p + 32, &off, 8);
    return SB_IOLOG_SAMPLE_OFFSET_BYTES;
}

static void line(sb_iolog *l, int k, uint64_t t_ns, uint64_t value, int ddir, uint32_t bs, uint64_t off)
{
    char *p = sb_logfile_room(&l->f[k], LINE_MAX_BYTES);
    if (!p)
        return;
    uint64_t ms = t_ns / 1000000 + l->epoch_ms;
    if (l->binary) {
        sb_logfile_put(&l->f[k], sample(l, p, ms, value, ddir, bs, off));
        return;
    }
    char prio[16];
    snprintf(prio, sizeof prio, l->prio_hex ? "0x%04x" : "%u", l->prio);
    int n = l->offset ? snprintf(p, LINE_MAX_BYTES, "%" PRIu64 ", %" PRIu64 ", %d, %u, %" PRIu64 ", %s\n",
                                 ms, value, ddir, bs, off, prio)
                      : snprintf(p, LINE_MAX_BYTES, "%" PRIu64 ", %" PRIu64 ", %d, %u, %s\n",
                                 ms, value, ddir, bs, prio);
    if (n > 0)
        sb_logfile_put(&l->f[k], (size_t)n);
}

/* The mean (fio rounds it half up) or, with log_max_value, the largest. */
static uint64_t pick(const sb_iolog *l, double sum, double max, unsigned n)
{
    return (uint64_t)(l->log_max ? max : sum / n + 0.5);
}

/* An averaged window ends: a line per log per direction that has samples in it. */
static void window(sb_iolog *l, uint64_t end)
{
    l->prio = 0; /* averaged lines: no one I/O's priority */
    for (int d = 0; d < SB_IOLOG_DIRS; d++) {
        sb_iolog_dir *x = &l->dir[d];
        if (x->bw_n)
            line(l, SB_IOLOG_BW, end, pick(l, x->bw_sum, x->bw_max, x->bw_n), d, 0, 0);
        if (x->ios) {
            line(l, SB_IOLOG_LAT, end, l->log_max ? x->lat_max : x->lat_sum / x->ios, d, 0, 0);
            line(l, SB_IOLOG_CLAT, end, l->log_max ? x->clat_max : x->clat_sum / x->ios, d, 0, 0);
        }
        if (x->iops_n)
            line(l, SB_IOLOG_IOPS, end, pick(l, x->iops_sum, x->iops_max, x->iops_n), d, 0, 0);
        x->lat_sum = x->lat_max = x->clat_sum = x->clat_max = x->ios = 0;
        x->bw_sum = x->bw_max = x->iops_sum = x->iops_max = 0;
        x->bw_n = x->iops_n = 0;
    }
}

/* A bandwidth (KiB/s, as fio's averaged log) or IOPS sample window ends: a sample per
 * direction that did I/O in it, as fio takes them. */
static void bw_sample(sb_iolog *l)
{
    double s = (double)l->bw_ns / 1e9;
    for (int d = 0; d < SB_IOLOG_DIRS; d++) {
        sb_iolog_dir *x = &l->dir[d];
        if (!x->bw_bytes)
            continue;
        double v = (double)x->bw_bytes / s / 1024;
        x->bw_sum += v;
        x->bw_max = v > x->bw_max ? v : x->bw_max;
        x->bw_n++;
        x->bw_bytes = 0;
    }
}

static void iops_sample(sb_iolog *l)
{
    double s = (double)l->iops_ns / 1e9;
    for (int d = 0; d < SB_IOLOG_DIRS; d++) {
        sb_iolog_dir *x = &l->dir[d];
        if (!x->iops_ios)
            continue;
        double v = (double)x->iops_ios / s;
        x->iops_sum += v;
        x->iops_max = v > x->iops_max ? v : x->iops_max;
        x->iops_n++;
        x->iops_ios = 0;
    }
}

/* Every window that ended by t, in time order (a sample before the log window it ends with). */
static void advance(sb_iolog *l, uint64_t t_ns)
{
    for (;;) {
        uint64_t next = l->win_end < l->bw_end ? l->win_end : l->bw_end;
        next = l->iops_end < next ? l->iops_end : next;
        if (t_ns < next)
            return;
        if (l->bw_end == next) {
            bw_sample(l);
            l->bw_end += l->bw_ns;
        } else if (l->iops_end == next) {
            iops_sample(l);
            l->iops_end += l->iops_ns;
        } else {
            window(l, l->win_end);
            l->win_end += l->avg_ns;
        }
    }
}

/* log_unix_epoch / log_alternate_epoch: the clock's time when the measurement began. */
static void set_epoch(sb_iolog *l, uint64_t t_ns)
{
    struct timespec ts;
    l->epoch_set = true;
    if (clock_gettime((clockid_t)l->epoch_clock, &ts) < 0)
        return;
    uint64_t now_ms = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
    l->epoch_ms = now_ms > t_ns / 1000000 ? now_ms - t_ns / 1000000 : 0;
}

void sb_iolog_add(sb_iolog *l, uint64_t t_ns, uint64_t lat_ns, uint64_t clat_ns, int ddir, uint32_t bs,
                  uint64_t offset)
{
    if (__builtin_expect(l->epoch_clock >= 0 && !l->epoch_set, 0))
        set_epoch(l, t_ns);
    if (l->hist)
        sb_histlog_add(l->hist, t_ns / 1000000 + l->epoch_ms, clat_ns, ddir, bs); /* fio's clat */
    if (!l->lines)
        return;
    if (!l->avg_ns) {
        /* fio's per-I/O bandwidth: this I/O's bytes over its latency, bytes per ms */
        line(l, SB_IOLOG_BW, t_ns, lat_ns ? (uint64_t)bs * 1000000 / lat_ns : 0, ddir, bs, offset);
        line(l, SB_IOLOG_LAT, t_ns, lat_ns, ddir, bs, offset);
        line(l, SB_IOLOG_CLAT, t_ns, clat_ns, ddir, bs, offset);
        line(l, SB_IOLOG_IOPS, t_ns, 1, ddir, bs, offset);
        return;
    }
    advance(l, t_ns);
    sb_iolog_dir *x = &l->dir[ddir];
    x->lat_sum += lat_ns;
    x->lat_max = lat_ns > x->lat_max ? lat_ns : x->lat_max;
    x->clat_sum += clat_ns;
    x->clat_max = clat_ns > x->clat_max ? clat_ns : x->clat_max;
    x->ios++;
    x->bw_bytes += bs;
    x->iops_ios++;
}

int sb_iolog_close(sb_iolog *l, uint64_t t_ns)
{
    if (!l)
        return 0;
    if (l->avg_ns && (l->dir[0].ios || l->dir[1].ios || l->dir[2].ios))
        window(l, t_ns > l->win_end - l->avg_ns ? t_ns : l->win_end);
    int r = l->err;
    for (int k = 0; k < SB_IOLOG_N; k++) {
        int e = sb_logfile_close(&l->f[k]);
        r = r ? r : e;
    }
    int e = sb_histlog_close(l->hist);
    r = r ? r : e;
    free(l);
    return r;
}
