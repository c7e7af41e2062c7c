/*
 * cmdprio — see cmdprio.h: the pick of each I/O's priority, the per-priority latency
 * statistics and the option values' syntax (fio's HOWTO: a value for both directions or
 * "read,write", cmdprio_bssplit's three entry formats).
 */
#include "io/cmdprio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/options.h"

uint16_t sb_cmdprio_pick(const sb_cmdprio *c, int ddir, uint64_t len, double r, uint16_t dflt,
                         bool *high)
{
    int cls = c->cls[ddir] >= 0 ? c->cls[ddir] : 1, level = c->level[ddir] >= 0 ? c->level[ddir] : 0;
    *high = false;
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

static int parse_int(const char *s, size_t n, int lo, int hi, int *out)
{
    char buf[32];
    if (!n || n >= sizeof buf)
        return -EINVAL;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *end;
    long x = strtol(buf, &end, 10);
    if (*end || x < lo || x > hi)
        return -EINVAL;
    *out = (int)x;
    return 0;
}

int sb_cmdprio_parse_pair(const char *v, int lo, int hi, int out[2], char *err, size_t errlen)
{
    const char *comma = strchr(v, ',');
    size_t n = comma ? (size_t)(comma - v) : strlen(v);
    int a, b;
    if (parse_int(v, n, lo, hi, &a) < 0 ||
        (comma ? parse_int(comma + 1, strlen(comma + 1), lo, hi, &b) : (b = a, 0)) < 0) {
        snprintf(err, errlen, "'%s' is not N or READ,WRITE with each in %d .. %d", v, lo, hi);
        return -EINVAL;
    }
    out[0] = a;
    out[1] = b;
    return 0;
}

/* One direction's entries: BS/PCT[/CLASS/LEVEL[/HINT]]:... */
static int parse_dir(char *s, unsigned kb_base, sb_cmdprio *c, int d)
{
    char *save = NULL;
    c->n[d] = 0;
    for (char *e = strtok_r(s, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
        char *f[6];
        int nf = 0;
        char *save2 = NULL;
        for (char *t = strtok_r(e, "/", &save2); t && nf < 6; t = strtok_r(NULL, "/", &save2))
            f[nf++] = t;
        if ((nf != 2 && nf != 4 && nf != 5) || c->n[d] == SB_CMDPRIO_MAX_ENTRIES)
            return -EINVAL;
        sb_cmdprio_entry *x = &c->e[d][c->n[d]];
        int pct;
        x->cls = x->level = x->hint = -1;
        if (sb_opt_parse_size(f[0], kb_base, &x->bs) < 0 ||
            parse_int(f[1], strlen(f[1]), 0, 100, &pct) < 0 ||
            (nf >= 4 && (parse_int(f[2], strlen(f[2]), 0, 3, &x->cls) < 0 ||
                         parse_int(f[3], strlen(f[3]), 0, 7, &x->level) < 0)) ||
            (nf == 5 && parse_int(f[4], strlen(f[4]), 0, 1023, &x->hint) < 0))
            return -EINVAL;
        x->pct = (unsigned)pct;
        c->n[d]++;
    }
    return 0;
}

int sb_cmdprio_parse_bssplit(const char *v, unsigned kb_base, sb_cmdprio *c, char *err,
                             size_t errlen)
{
    char buf[1024];
    if (strlen(v) >= sizeof buf)
        goto bad;
    strcpy(buf, v);
    char *comma = strchr(buf, ',');
    if (comma)
        *comma = '\0';
    if (parse_dir(buf, kb_base, c, 0) < 0 || (comma && parse_dir(comma + 1, kb_base, c, 1) < 0))
        goto bad;
    if (!comma) { /* one value: both directions */
        c->n[1] = c->n[0];
        memcpy(c->e[1], c->e[0], sizeof c->e[0]);
    }
    return 0;
bad:
    snprintf(err, errlen, "'%s' is not BS/PCT[/CLASS/LEVEL[/HINT]]:... (64k/40:1m/60), for "
             "reads[,writes]", v);
    return -EINVAL;
}
