/*
 * cmdprio — fio's per-I/O priorities (cmdprio_percentage, cmdprio_class, cmdprio,
 * cmdprio_bssplit; io_uring and libaio, which pass a priority with each request) and the
 * job's default one (prioclass, prio). A priority is Linux's ioprio value: class << 13 |
 * hint << 3 | level (class 1 realtime, 2 best effort, 3 idle; level 0 highest .. 7; the
 * hint, fio's 5th cmdprio_bssplit field, a command duration limit descriptor since Linux
 * 6.5). Each I/O picks its priority when it is prepared: with cmdprio_percentage, that
 * share of each direction's I/Os gets cmdprio_class/cmdprio and the rest the default; with
 * cmdprio_bssplit, an I/O of size BS takes the entries for BS in turn by their shares
 * (the rest: the default). The statistics keep one latency histogram per priority seen,
 * which the reports give as fio's "prios" (json) and "clat prio C/L" lines.
 */
#ifndef SB_IO_CMDPRIO_H
#define SB_IO_CMDPRIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/histogram.h"

#define SB_CMDPRIO_MAX_ENTRIES 16
#define SB_CMDPRIO_MAX_PRIOS 8    /* distinct priorities counted per direction */

typedef struct sb_cmdprio_entry {
    uint64_t bs;
    unsigned pct;
    int cls, level, hint;          /* -1: cmdprio_class / cmdprio / 0 */
} sb_cmdprio_entry;

typedef struct sb_cmdprio {
    unsigned pct[2];               /* cmdprio_percentage per direction */
    int cls[2], level[2];          /* cmdprio_class, cmdprio: -1 = 1 (realtime), 0 */
    unsigned n[2];                 /* cmdprio_bssplit entries per direction */
    sb_cmdprio_entry e[2][SB_CMDPRIO_MAX_ENTRIES];
} sb_cmdprio;

static inline uint16_t sb_ioprio(int cls, int level, int hint)
{
    return (uint16_t)(cls << 13 | hint << 3 | level);
}

/* Whether the job asks for per-I/O priorities at all. */
static inline bool sb_cmdprio_on(const sb_cmdprio *c)
{
    return c->pct[0] || c->pct[1] || c->n[0] || c->n[1];
}

/* The priority of an I/O of len bytes in direction ddir; r is uniform in [0, 100);
 * *high: it was picked by cmdprio (fio's log prio column without log_prio). */
uint16_t sb_cmdprio_pick(const sb_cmdprio *c, int ddir, uint64_t len, double r, uint16_t dflt,
                         bool *high);

/* Latency per priority, per direction. */
typedef struct sb_prio_stats {
    unsigned n[2];
    uint16_t ioprio[2][SB_CMDPRIO_MAX_PRIOS];
    sb_histogram clat[2][SB_CMDPRIO_MAX_PRIOS];
} sb_prio_stats;

/* One completion; priorities past SB_CMDPRIO_MAX_PRIOS go uncounted here. */
void sb_prio_record(sb_prio_stats *s, int ddir, uint16_t ioprio, uint64_t lat_ns);
/* Adds from into to, priority by priority. */
void sb_prio_merge(sb_prio_stats *to, const sb_prio_stats *from);

#endif
