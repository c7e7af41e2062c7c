/*
 * cmdprio — see cmdprio.h: the pick of each I/O's priority and the per-priority latency
 * statistics (the options' syntax is options_fiob.c's).
 */
#include "io/loop/cmdprio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


uint16_t sb_cmdprio_pick(const sb_cmdprio *c, int ddir, uint64_t len, double r, uint16_t dflt,
                         bool *high)
{
    *high = false;
    if (ddir > 1) /* 0 read, 1 write (job.h): fio's cmdprio is per both; a trim keeps the default */
        return dflt;
    int cls = c->cls[ddir] >= 0 ? c->cls[ddir] : 1, level = c->level[ddir] >= 0 ? c->level[ddir] : 0;
    if (c->n[ddir]) {
        double acc = 0;
        for (unsigned i = 0; i < c->n[ddir]; i++) {
            const sb_cmdprio_entry *e = &c->e[ddir][i];
            if (e->bs != len)
                continue;
            acc += e->pct;
            if (r < acc) {
                *high = true;
                return sb_ioprio(e->cls >= 0 ? e->cls : cls, e->level >= 0 ? e->level : level,
                                 e->hint > 0 ? e->hint : 0);
            }
        }
        return dflt;
    }
    if (r < c->pct[ddir]) {
        *high = true;
        return sb_ioprio(cls, level, 0);
    }
    return dflt;
}

void sb_prio_record(sb_prio_stats *s, int ddir, uint16_t ioprio, uint64_t lat_ns)
{
    if (ddir > 1) /* reads and writes only (job.h's 0 and 1), as fio's prios */
        return;
    unsigned i = 0;
    while (i < s->n[ddir] && s->ioprio[ddir][i] != ioprio)
        i++;
    if (i == s->n[ddir]) {
        if (i == SB_CMDPRIO_MAX_PRIOS)
            return;
        s->ioprio[ddir][i] = ioprio;
        sb_hist_init_zeroed(&s->clat[ddir][i]);
        s->n[ddir]++;
    }
    sb_hist_record(&s->clat[ddir][i], lat_ns);
}

void sb_prio_merge(sb_prio_stats *to, const sb_prio_stats *from)
{
    for (int d = 0; d < 2; d++)
        for (unsigned k = 0; k < from->n[d]; k++) {
            unsigned i = 0;
            while (i < to->n[d] && to->ioprio[d][i] != from->ioprio[d][k])
                i++;
            if (i == to->n[d]) {
                if (i == SB_CMDPRIO_MAX_PRIOS)
                    continue;
                to->ioprio[d][i] = from->ioprio[d][k];
                sb_hist_init_zeroed(&to->clat[d][i]);
                to->n[d]++;
            }
            sb_hist_merge(&to->clat[d][i], &from->clat[d][k]);
        }
}
