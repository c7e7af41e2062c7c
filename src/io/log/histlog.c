/*
 * histlog — see histlog.h.
 */
#include "io/log/histlog.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "io/job.h"
#include "io/log/logfile.h"

#define DIRS 3
/* A line's worst case: three 20-digit numbers and 1856 counters of up to 20 digits, each
 * with ", ". */
#define LINE_WORST ((3 + SB_HISTLOG_BINS) * 22u + 2)

struct sb_histlog {
    sb_logfile f;
    uint64_t msec;                        /* log_hist_msec; 0: no line */
    unsigned stride;                      /* 2^log_hist_coarseness bins per column */
    bool started[DIRS];
    uint64_t last[DIRS];                  /* the current window's start, ms */
    uint64_t bins[DIRS][SB_HISTLOG_BINS]; /* the I/Os since the direction's last line */
};

uint64_t sb_histlog_bin_low(unsigned bin)
{
    if (bin < 128)
        return bin;
    unsigned drop = (bin >> 6) - 1;
    return (uint64_t)(64 + (bin & 63)) << drop;
}

int sb_histlog_open(const sb_io_job *job, unsigned index, sb_histlog **out, char *err, size_t errlen)
{
    sb_histlog *h = calloc(1, sizeof *h);
    *out = NULL;
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    h->msec = job->log_hist_ms;
    h->stride = 1u << job->log_hist_coarseness;
    int r = sb_logfile_open(&h->f, job, job->hist_log, "clat_hist", index, LINE_WORST, err, errlen);
    if (r < 0) {
        free(h);
        return r;
    }
    *out = h;
    return 0;
}

static void write_line(sb_histlog *h, uint64_t t_ms, int ddir, uint32_t bs)
{
    char *p = sb_logfile_room(&h->f, LINE_WORST);
    if (!p)
        return;
    char *s = p;
    s += sprintf(s, "%" PRIu64 ", %d, %u", t_ms, ddir, bs);
    uint64_t *b = h->bins[ddir];
    for (unsigned i = 0; i < SB_HISTLOG_BINS; i += h->stride) {
        uint64_t sum = 0;
        for (unsigned j = i; j < i + h->stride; j++)
            sum += b[j];
        s += sprintf(s, ", %" PRIu64, sum);
    }
    *s++ = '\n';
    sb_logfile_put(&h->f, (size_t)(s - p));
    for (unsigned i = 0; i < SB_HISTLOG_BINS; i++)
        b[i] = 0;
}

void sb_histlog_add(sb_histlog *h, uint64_t t_ms, uint64_t lat_ns, int ddir, uint32_t bs)
{
    if (!h->msec)
        return;
    h->bins[ddir][sb_histlog_bin(lat_ns)]++;
    if (!h->started[ddir]) {
        h->started[ddir] = true;
        h->last[ddir] = t_ms;
    }
    if (t_ms - h->last[ddir] >= h->msec) {
        write_line(h, t_ms, ddir, bs);
        /* the next window starts where this one should have ended, as fio: a late line
         * does not shift the ones after it */
        h->last[ddir] += h->msec;
    }
}

int sb_histlog_close(sb_histlog *h)
{
    if (!h)
        return 0;
    int r = sb_logfile_close(&h->f);
    free(h);
    return r;
}
