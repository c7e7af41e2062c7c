/*
 * context — the small services a workload's run() gets from the runner:
 * interruption, progress, error text and secondary figures.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/interrupt.h"
#include "core/ranks.h"
#include "core/strutil.h"
#include "workloads/workload.h"

bool sb_ctx_interrupted(const sb_run_ctx *ctx)
{
    (void)ctx;
    return sb_interrupted() || sb_ranks_failure_announced();
}

int sb_ctx_barrier(sb_run_ctx *ctx)
{
    if (!sb_ranks_active())
        return 0;
    return sb_ranks_agree(sb_interrupted() ? -EINTR : 0, "interrupted", ctx->err, sizeof ctx->err);
}

/* STORBENCH_TEST_RANK_DELAY=R:MS (tests only): a sleep that signals do not cut short. */
void sb_test_rank_delay(void)
{
    const char *s = getenv("STORBENCH_TEST_RANK_DELAY");
    char *end;
    if (!s || !*s || !sb_ranks_active())
        return;
    long rank = strtol(s, &end, 10), ms = *end == ':' ? strtol(end + 1, NULL, 10) : 0;
    if (rank != sb_ranks()->rank || ms <= 0 || ms > 600000)
        return;
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

void sb_ctx_progress(sb_run_ctx *ctx, double fraction)
{
    if (ctx && ctx->progress)
        sb_progress_update(ctx->progress, fraction);
}

int sb_ctx_fail(sb_run_ctx *ctx, int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
    va_end(ap);
    if (err == 0)
        return -EIO;
    return err < 0 ? err : -err;
}

const sb_figure *sb_sample_figure(const sb_sample *s, const char *name)
{
    for (size_t i = 0; i < s->n_figures; i++)
        if (!strcmp(s->figures[i].name, name))
            return &s->figures[i];
    return NULL;
}

void sb_sample_add(sb_sample *s, const char *name, const char *unit, double value)
{
    if (s->n_figures >= SB_MAX_FIGURES)
        return;
    sb_figure *f = &s->figures[s->n_figures++];
    snprintf(f->name, sizeof f->name, "%s", name);
    snprintf(f->unit, sizeof f->unit, "%s", unit);
    f->value = value;
}

void sb_sample_add_latency(sb_sample *s, const char *prefix, const sb_histogram *h)
{
    char name[32];
    if (sb_ranks_active() && !s->lat) { /* merged over the ranks by the runner */
        s->lat = sb_xrealloc(NULL, sizeof *h);
        *s->lat = *h;
        snprintf(s->lat_prefix, sizeof s->lat_prefix, "%s", prefix);
    }
    if (!h->count)
        return;
    snprintf(name, sizeof name, "%s_min", prefix);
    sb_sample_add(s, name, "us", (double)h->min / 1e3);
    snprintf(name, sizeof name, "%s_mean", prefix);
    sb_sample_add(s, name, "us", sb_hist_mean(h) / 1e3);
    snprintf(name, sizeof name, "%s_stddev", prefix);
    sb_sample_add(s, name, "us", sb_hist_stddev(h) / 1e3);
    snprintf(name, sizeof name, "%s_max", prefix);
    sb_sample_add(s, name, "us", (double)h->max / 1e3);
    for (int i = 0; i < SB_HIST_N_PERCENTILES; i++) {
        snprintf(name, sizeof name, "%s_p%g", prefix, sb_hist_percentiles[i]);
        sb_sample_add(s, name, "us", sb_hist_percentile(h, sb_hist_percentiles[i]) / 1e3);
    }
}
