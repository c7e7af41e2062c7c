/*
 * iolog — see iolog.h.
 */
#include "io/log/iolog.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/safepath.h"
#include "io/job.h"

#define BUF_CAP (64u << 10)
#define LINE_MAX_BYTES 96

static const char *const kinds[SB_IOLOG_N] = {"bw", "lat", "clat", "iops"};

/* PREFIX_KIND.N.log, created or replaced as the user names it; with fio's per_job_logs=0
 * PREFIX_KIND.log for all the job's threads: the first (set up before the others) replaces
 * it, the others append, and every write of a buffer of whole lines lands whole (O_APPEND). */
static int open_one(const char *prefix, const char *kind, unsigned index, bool per_thread, int *fd,
                    char *err, size_t errlen)
{
    char path[PATH_MAX];
    int n = per_thread ? snprintf(path, sizeof path, "%s_%s.%u.log", prefix, kind, index + 1)
                       : snprintf(path, sizeof path, "%s_%s.log", prefix, kind);
    if (n >= (int)sizeof path) {
        snprintf(err, errlen, "%s: %s", prefix, strerror(ENAMETOOLONG));
        return -ENAMETOOLONG;
    }
    int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (per_thread || index == 0 ? O_TRUNC : 0) |
                (per_thread ? 0 : O_APPEND);
    return sb_open_resolved(path, flags, 0644, fd, err, errlen);
}

int sb_iolog_open(const sb_io_job *job, unsigned index, sb_iolog **out, char *err, size_t errlen)
{
    const char *prefix[SB_IOLOG_N] = {job->bw_log, job->lat_log, job->lat_log, job->iops_log};
    *out = NULL;
    if (!job->bw_log[0] && !job->lat_log[0] && !job->iops_log[0])
        return 0;
    sb_iolog *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    l->offset = job->log_offset;
    l->prio_hex = job->log_prio;
    l->avg_ns = (uint64_t)job->log_avg_ms * 1000000ull;
    l->win_end = l->avg_ns;
    int r = 0;
    for (int k = 0; k < SB_IOLOG_N; k++)
        l->fd[k] = -1;
    for (int k = 0; k < SB_IOLOG_N && r == 0; k++) {
        if (!prefix[k][0])
            continue;
        if ((r = open_one(prefix[k], kinds[k], index, job->per_job_logs, &l->fd[k], err, errlen)) == 0 &&
            !(l->buf[k] = malloc(BUF_CAP))) {
            snprintf(err, errlen, "out of memory");
            r = -ENOMEM;
        }
    }
    if (r == 0 && job->lat_log[0]) { /* fio's slat log: storbench has no submission latency */
        int fd;
        if ((r = open_one(job->lat_log, "slat", index, job->per_job_logs, &fd, err, errlen)) == 0)
            close(fd);
    }
    if (r < 0) {
        sb_iolog_close(l, 0);
        return r;
    }
    *out = l;
    return 0;
}

static void flush_one(sb_iolog *l, int k)
{
    size_t done = 0;
    while (done < l->len[k]) {
        ssize_t n = write(l->fd[k], l->buf[k] + done, l->len[k] - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (!l->err)
                l->err = n < 0 ? -errno : -EIO;
            break;
        }
        done += (size_t)n;
    }
    l->len[k] = 0;
}

static void line(sb_iolog *l, int k, uint64_t t_ns, uint64_t value, int ddir, uint32_t bs, uint64_t off)
{
    if (l->fd[k] < 0)
        return;
    if (l->len[k] + LINE_MAX_BYTES > BUF_CAP)
        flush_one(l, k);
    char *p = l->buf[k] + l->len[k];
    char prio[16];
    snprintf(prio, sizeof prio, l->prio_hex ? "0x%x" : "%u", l->prio);
    int n = l->offset ? snprintf(p, LINE_MAX_BYTES, "%" PRIu64 ", %" PRIu64 ", %d, %u, %" PRIu64 ", %s\n",
                                 t_ns / 1000000, value, ddir, bs, off, prio)
                      : snprintf(p, LINE_MAX_BYTES, "%" PRIu64 ", %" PRIu64 ", %d, %u, %s\n",
                                 t_ns / 1000000, value, ddir, bs, prio);
    if (n > 0)
        l->len[k] += (size_t)n;
}

/* An averaged window ends: one line per direction that did I/O in it. */
static void window(sb_iolog *l, uint64_t end)
{
    l->prio = 0; /* averaged lines: no one I/O's priority */
    double ms = (double)l->avg_ns / 1e6;
    for (int d = 0; d < 2; d++) {
        if (!l->ios[d])
            continue;
        line(l, SB_IOLOG_BW, end, (uint64_t)((double)l->bytes[d] / ms + 0.5), d, 0, 0);
        line(l, SB_IOLOG_LAT, end, l->lat_sum[d] / l->ios[d], d, 0, 0);
        line(l, SB_IOLOG_CLAT, end, l->lat_sum[d] / l->ios[d], d, 0, 0);
        line(l, SB_IOLOG_IOPS, end, (uint64_t)((double)l->ios[d] * 1000 / ms + 0.5), d, 0, 0);
        l->lat_sum[d] = l->ios[d] = l->bytes[d] = 0;
    }
}

void sb_iolog_add(sb_iolog *l, uint64_t t_ns, uint64_t lat_ns, int ddir, uint32_t bs, uint64_t offset)
{
    if (!l->avg_ns) {
        /* fio's per-I/O bandwidth: this I/O's bytes over its latency, bytes per ms */
        line(l, SB_IOLOG_BW, t_ns, lat_ns ? (uint64_t)bs * 1000000 / lat_ns : 0, ddir, bs, offset);
        line(l, SB_IOLOG_LAT, t_ns, lat_ns, ddir, bs, offset);
        line(l, SB_IOLOG_CLAT, t_ns, lat_ns, ddir, bs, offset);
        line(l, SB_IOLOG_IOPS, t_ns, 1, ddir, bs, offset);
        return;
    }
    while (t_ns >= l->win_end) {
        window(l, l->win_end);
        l->win_end += l->avg_ns;
    }
    l->lat_sum[ddir] += lat_ns;
    l->ios[ddir]++;
    l->bytes[ddir] += bs;
}

int sb_iolog_close(sb_iolog *l, uint64_t t_ns)
{
    if (!l)
        return 0;
    if (l->avg_ns && (l->ios[0] || l->ios[1]))
        window(l, t_ns > l->win_end - l->avg_ns ? t_ns : l->win_end);
    for (int k = 0; k < SB_IOLOG_N; k++) {
        if (l->fd[k] >= 0) {
            flush_one(l, k);
            close(l->fd[k]);
        }
        free(l->buf[k]);
    }
    int r = l->err;
    free(l);
    return r;
}
