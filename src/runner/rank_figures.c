/*
 * rank_figures — see rank_figures.h. Each measure's sample is gathered to rank
 * 0 as its headline (value, seconds, the measured interval from the run's
 * barrier, valid) and its secondary figures; rank 0 alone combines them, in rank
 * order, and broadcasts the combined sample, so the ranks never disagree and
 * none but rank 0 receives N ranks' figures (docs/mpi.md, "Thousands of ranks"):
 *
 *   a rate (unit ".../s", IOPS, TPS)  sum of value x seconds over the ranks (the
 *                                     work each did) / (latest end - earliest start)
 *   an amount (B, bytes, files, ios)  the sum over the ranks
 *   any other figure                  the mean over the ranks
 *   seconds                           latest end - earliest start
 *   latency (lat_*)                   recomputed from the ranks' histograms summed
 *
 * and each measure gains ranks, hosts, rank_min/rank_mean/rank_max (each rank's
 * own figure) and first_done_s/last_done_s.
 */
#include "runner/rank_figures.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/ranks.h"
#include "core/strutil.h"

typedef struct rank_head {
    double value, seconds, begin, end; /* begin, end: seconds on the host's monotonic clock
                                        * (one host), or from the rank's run barrier */
    uint64_t valid, n_figures;
} rank_head;

int sb_rank_run_begin(int status, const char *msg, char *err, size_t errlen)
{
    sb_ranks_clear_failure();
    return sb_ranks_agree(status, msg, err, errlen);
}

static bool is_rate(const char *unit)
{
    size_t n = strlen(unit);
    return (n > 2 && !strcmp(unit + n - 2, "/s")) || !strcmp(unit, "IOPS") || !strcmp(unit, "TPS");
}

/* Work done, which the ranks add up. */
static bool is_amount(const char *unit)
{
    return !strcmp(unit, "B") || !strcmp(unit, "bytes") || !strcmp(unit, "files") || !strcmp(unit, "ios");
}

/* The latency figures again, from the histogram every rank kept (all or none have one). */
static int merge_latency(sb_sample *s)
{
    uint64_t have = s->lat != NULL;
    int r = sb_ranks_allreduce_u64(&have, 1, SB_RANKS_MIN);
    if (r < 0 || !have)
        return r;
    if ((r = sb_ranks_merge_hist(s->lat)) < 0)
        return r;
    char name[sizeof s->lat_prefix], prefix[sizeof s->lat_prefix + 1];
    snprintf(name, sizeof name, "%s", s->lat_prefix);
    snprintf(prefix, sizeof prefix, "%s_", name);
    size_t k = 0;
    for (size_t i = 0; i < s->n_figures; i++)
        if (strncmp(s->figures[i].name, prefix, strlen(prefix)))
            s->figures[k++] = s->figures[i];
    s->n_figures = k;
    sb_histogram *h = s->lat;
    s->lat = NULL; /* merged: figures only */
    sb_sample_add_latency(s, name, h);
    free(h);
    return 0;
}

/* The secondary figures of every rank (fig: size x SB_MAX_FIGURES), by rank 0's names. */
static void combine_figures(sb_sample *s, const rank_head *head, const sb_figure *fig, int n,
                            double elapsed)
{
    size_t nf = (size_t)head[0].n_figures;
    sb_figure out[SB_MAX_FIGURES];
    for (size_t f = 0; f < nf; f++) {
        const sb_figure *name = &fig[f];
        double sum = 0, work = 0;
        int count = 0;
        for (int r = 0; r < n; r++)
            for (size_t g = 0; g < head[r].n_figures; g++) {
                const sb_figure *x = &fig[(size_t)r * SB_MAX_FIGURES + g];
                if (strcmp(x->name, name->name))
                    continue;
                sum += x->value;
                work += x->value * head[r].seconds;
                count++;
                break;
            }
        out[f] = *name;
        if (!strcmp(name->name, "seconds"))
            out[f].value = elapsed;
        else if (is_amount(name->unit))
            out[f].value = sum;
        else if (is_rate(name->unit))
            out[f].value = elapsed > 0 ? work / elapsed : 0;
        else
            out[f].value = sum / count;
    }
    memcpy(s->figures, out, nf * sizeof *out);
    s->n_figures = nf;
}

/* Rank 0's combined sample on every rank: what the runner decides from it (the run-count
 * rule, repetitions, validity) is then decided alike everywhere. A fixed 3.6 KB per rank,
 * whatever the number of ranks. */
static int share_combined(sb_sample *s)
{
    struct {
        double value, seconds;
        uint64_t valid, n_figures;
        sb_figure figures[SB_MAX_FIGURES];
    } c;
    memset(&c, 0, sizeof c);
    c.value = s->value;
    c.seconds = s->seconds;
    c.valid = s->valid;
    c.n_figures = s->n_figures;
    memcpy(c.figures, s->figures, s->n_figures * sizeof *c.figures);
    int r = sb_ranks_bcast(&c, sizeof c, 0);
    if (r < 0)
        return r;
    s->value = c.value;
    s->seconds = c.seconds;
    s->valid = c.valid != 0;
    s->n_figures = c.n_figures <= SB_MAX_FIGURES ? (size_t)c.n_figures : SB_MAX_FIGURES;
    memcpy(s->figures, c.figures, s->n_figures * sizeof *s->figures);
    return 0;
}

/* IOR's figures for one measure, the same on every rank. */
static int combine_one(const sb_measure *m, sb_sample *s, uint64_t t_ref, uint64_t t_ret)
{
    int n = sb_ranks()->size;
    if (s->ranks_combined) { /* already all ranks' figure (io500): only the counts added */
        s->series.n = 0;
        s->steady[0] = '\0';
        sb_sample_add(s, "ranks", "", n);
        sb_sample_add(s, "hosts", "", sb_ranks()->hosts);
        return 0;
    }
    rank_head me = {s->value, s->seconds, 0, 0, s->valid, s->n_figures};
    /* On one host every rank reads the same monotonic clock: the interval is then the
     * earliest start to the latest end on it, as IOR spans the ranks on one clock. Counted
     * from each rank's own begin barrier instead, each rank's exit skew from that barrier
     * (milliseconds, more with ranks oversubscribed) moved its phases, long after it, by
     * that much against the others'. Across hosts, whose clocks need not agree, each
     * rank's own clock from the barrier. */
    uint64_t base = sb_ranks()->hosts == 1 ? 0 : t_ref;
    me.end = (double)((s->end_ns ? s->end_ns : t_ret) - base) / 1e9;
    me.begin = s->begin_ns ? (double)(s->begin_ns - base) / 1e9 : me.end - s->seconds;
    bool root = sb_ranks()->rank == 0;
    rank_head *head = root ? sb_xrealloc(NULL, (size_t)n * sizeof *head) : NULL;
    sb_figure *fig = root ? sb_xrealloc(NULL, (size_t)n * SB_MAX_FIGURES * sizeof *fig) : NULL;
    sb_figure mine[SB_MAX_FIGURES];
    memset(mine, 0, sizeof mine);
    memcpy(mine, s->figures, s->n_figures * sizeof *mine);
    int r = sb_ranks_gather(&me, head, sizeof me, 0);
    if (r == 0)
        r = sb_ranks_gather(mine, fig, sizeof mine, 0);
    if (r == 0 && root) {
        double lo = head[0].begin, hi = head[0].end, first = head[0].end, work = 0, sum = 0;
        double vmin = head[0].value, vmax = head[0].value;
        bool valid = true;
        for (int i = 0; i < n; i++) {
            const rank_head *h = &head[i];
            lo = h->begin < lo ? h->begin : lo;
            hi = h->end > hi ? h->end : hi;
            first = h->end < first ? h->end : first;
            vmin = h->value < vmin ? h->value : vmin;
            vmax = h->value > vmax ? h->value : vmax;
            work += h->value * h->seconds;
            sum += h->value;
            valid = valid && h->valid;
        }
        double elapsed = hi - lo;
        combine_figures(s, head, fig, n, elapsed);
        s->value = is_rate(m->unit) ? (elapsed > 0 ? work / elapsed : 0) : sum / n;
        s->seconds = elapsed;
        s->valid = valid && elapsed > 0;
        sb_sample_add(s, "ranks", "", n);
        sb_sample_add(s, "hosts", "", sb_ranks()->hosts);
        sb_sample_add(s, "rank_min", m->unit, vmin);
        sb_sample_add(s, "rank_mean", m->unit, sum / n);
        sb_sample_add(s, "rank_max", m->unit, vmax);
        sb_sample_add(s, "first_done_s", "s", first - lo);
        sb_sample_add(s, "last_done_s", "s", elapsed);
    }
    /* one rank's time series and steady state would stand for all: not recorded */
    s->series.n = 0;
    s->steady[0] = '\0';
    if (r == 0)
        r = merge_latency(s); /* a reduction: every rank takes part, rank 0's result counts */
    if (r == 0)
        r = share_combined(s);
    free(head);
    free(fig);
    return r;
}

int sb_rank_run_end(const sb_workload *w, int status, const char *msg, sb_sample *samples,
                    uint64_t t_ref, uint64_t t_ret, char *err, size_t errlen)
{
    const char *line;
    int rc;
    if (sb_ranks_failure_agreed(&line, &rc)) {
        /* a barrier inside the run already agreed on it: the others are past it too */
        snprintf(err, errlen, "%s", line);
    } else {
        if (status < 0 && status != -EINTR)
            sb_ranks_announce_failure();
        rc = sb_ranks_agree(status, msg, err, errlen);
    }
    for (size_t m = 0; m < w->n_measures && rc == 0; m++)
        if ((rc = combine_one(&w->measures[m], &samples[m], t_ref, t_ret)) < 0)
            snprintf(err, errlen, "rank %d on %s: combining the ranks' figures: %s",
                     sb_ranks()->rank, sb_ranks()->host, strerror(-rc));
    for (size_t m = 0; m < w->n_measures; m++) {
        free(samples[m].lat);
        samples[m].lat = NULL;
    }
    return rc;
}
