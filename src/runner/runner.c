/*
 * runner — see runner.h. One run = drop caches, fresh work directory, the
 * workload's run(), directory removed. A run whose headline figure is not
 * valid counts as failed and is topped back up (at most as many extra times
 * as were scheduled); a workload error ends the selection.
 */
#include "runner/runner.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cache.h"
#include "core/clock.h"
#include "core/cpubusy.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/ranks.h"
#include "core/stats.h"
#include "core/units.h"
#include "core/workdir.h"
#include "runner/preflight.h"
#include "runner/rank_figures.h"

#define MAX_RUNS 64
/* A wall-clock figure from a run shorter than this is not trusted (SPEC: run count). */
#define MIN_RUN_SECONDS 3.0
/* At --quick, the most repetitions of the quick work one run may pool (see run_pooled):
 * enough for the fastest quick work seen (750 SQLite inserts on tmpfs, 10 ms) to reach
 * MIN_RUN_SECONDS; the bound only stops a workload that measures almost nothing. */
#define MAX_REPETITIONS 1000

void sb_runner_init(sb_runner *r, const char *target, const char *identifier, sb_resultfile *out)
{
    memset(r, 0, sizeof *r);
    r->target = target;
    r->identifier = identifier;
    r->out = out;
    r->runs = 0; /* the default: scheduled_runs() */
    r->dynamic = true;
    r->drop_caches = true;
    r->log = stdout;
    r->time_dilate = 1;
    sb_progress_init(&r->progress);
}

/* A length of this machine's clock in the figures' time (sb_runner.time_dilate). */
static double figure_s(const sb_runner *r, double seconds)
{
    return r->time_dilate > 1 ? seconds / r->time_dilate : seconds;
}

void sb_runner_label(const sb_config *cfg, char *buf, size_t len)
{
    char desc[512];
    sb_config_describe(cfg, NULL, desc, sizeof desc);
    if (desc[0])
        snprintf(buf, len, "%s [%s]", cfg->workload->name, desc);
    else
        snprintf(buf, len, "%s", cfg->workload->name);
}

static int check_space(const sb_runner *r, const sb_config *cfg, char *err, size_t errlen)
{
    return sb_preflight_space(cfg, r->target, err, errlen);
}

static void prepare_caches(sb_runner *r)
{
    /* under MPI, once per host: the first rank there (the begin barrier waits for it) */
    if (!r->drop_caches || sb_ranks()->local_rank != 0)
        return;
    if (sb_drop_caches() < 0 && !r->warned_no_root) {
        sb_warn("not root: page cache not dropped between runs (figures may include cache effects)");
        r->warned_no_root = true;
    }
}

/* Adds the mean of each named secondary figure over the runs to the entry. */
static void add_secondary_means(sb_entry *e, sb_sample *const *runs, size_t n_runs, size_t m)
{
    const sb_sample *first = &runs[0][m];
    for (size_t f = 0; f < first->n_figures; f++) {
        double sum = 0;
        size_t count = 0;
        for (size_t k = 0; k < n_runs; k++) {
            const sb_sample *s = &runs[k][m];
            for (size_t g = 0; g < s->n_figures; g++)
                if (!strcmp(s->figures[g].name, first->figures[f].name)) {
                    sum += s->figures[g].value;
                    count++;
                    break;
                }
        }
        if (count)
            sb_entry_add_secondary(e, first->figures[f].name, first->figures[f].unit, sum / (double)count);
    }
}

/* The series of the run whose value is the median (the lower middle one of an even count),
 * and the steady-state outcome over the runs, onto the entry. */
static void add_series(sb_entry *e, sb_sample *const *runs, size_t n_runs, size_t m)
{
    size_t order[MAX_RUNS], n = 0;
    for (size_t k = 0; k < n_runs; k++)
        if (runs[k][m].series.n)
            order[n++] = k;
    for (size_t i = 1; i < n; i++) /* insertion sort by value: a handful of runs */
        for (size_t j = i; j > 0 && runs[order[j]][m].value < runs[order[j - 1]][m].value; j--) {
            size_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    sb_entry_set_series(e, n ? &runs[order[(n - 1) / 2]][m].series : NULL,
                        n ? (unsigned)order[(n - 1) / 2] : 0);
    unsigned checked = 0, attained = 0;
    double at = 0;
    for (size_t k = 0; k < n_runs; k++) {
        const sb_sample *s = &runs[k][m];
        if (!s->steady[0])
            continue;
        checked++;
        if (s->steady_attained) {
            attained++;
            at += s->steady_at_s;
        }
    }
    sb_entry_set_steady(e, checked ? runs[0][m].steady : NULL, checked, attained,
                        attained ? at / attained : 0);
}

/* The CPUs' busy share of the run (core/cpubusy.h, enabled in the lab's guest only) for
 * each measure whose workload did not measure its own window: the whole run(). */
static void run_busy(const sb_config *cfg, sb_sample *samples, const sb_cpubusy *a, const sb_cpubusy *b)
{
    uint64_t busy, window;
    sb_cpubusy_between(a, b, &busy, &window);
    for (size_t m = 0; window && m < cfg->workload->n_measures; m++)
        if (!samples[m].cpu_window_ns) {
            samples[m].cpu_busy_ns = busy;
            samples[m].cpu_window_ns = window;
        }
}

/* The measure's CPU busy share over its runs (their busy time over their windows), in
 * percent, onto the entry; nothing when no run measured one. */
static void add_busy(sb_entry *e, sb_sample *const *runs, size_t n_runs, size_t m)
{
    double busy = 0, window = 0;
    for (size_t k = 0; k < n_runs; k++) {
        busy += (double)runs[k][m].cpu_busy_ns;
        window += (double)runs[k][m].cpu_window_ns;
    }
    if (window > 0)
        sb_entry_set_cpu_busy(e, 100.0 * busy / window);
}

static void record(sb_runner *r, const sb_config *cfg, sb_sample *const *runs, size_t n_runs,
                   const char *software)
{
    const sb_workload *w = cfg->workload;
    double values[MAX_RUNS];
    sb_kvlist options = {0};
    for (size_t i = 0; i < w->n_options; i++)
        sb_kvlist_add(&options, w->options[i].key, cfg->values[i]);
    char source[256];
    sb_measured_source(source, sizeof source, software, w->title, w->name);
    for (size_t m = 0; m < w->n_measures; m++) {
        if (!sb_config_measured(cfg, m))
            continue;
        char desc[1024];
        sb_config_describe(cfg, &w->measures[m], desc, sizeof desc);
        /* The result is the test and its options; its version stays empty: the entry's
         * source names what ran. */
        sb_result *res = sb_resultfile_get_result_opts(r->out, w->name, w->title, "", desc,
                                                       w->measures[m].unit,
                                                       w->measures[m].direction, &options);
        if (res->options.n == 0)
            for (size_t i = 0; i < options.n; i++)
                sb_kvlist_add(&res->options, options.items[i].key, options.items[i].value);
        sb_entry *e = sb_result_find_entry(res, r->identifier);
        if (!e)
            e = sb_result_add_entry(res, r->identifier);
        sb_entry_set_source(e, source, false);
        bool untrusted = false;
        double reps = 1;
        for (size_t k = 0; k < n_runs; k++) {
            const sb_figure *rp = sb_sample_figure(&runs[k][m], "repetitions");
            if (rp && rp->value > reps)
                reps = rp->value;
            values[k] = runs[k][m].value;
            if ((w->flags & SB_WL_WALL_CLOCK) && figure_s(r, runs[k][m].seconds) < MIN_RUN_SECONDS)
                untrusted = true;
        }
        sb_entry_set_values(e, values, n_runs);
        e->untrusted = untrusted;
        add_secondary_means(e, runs, n_runs, m);
        add_series(e, runs, n_runs, m);
        add_busy(e, runs, n_runs, m);
        if (r->log) {
            char v[64];
            sb_format_value(v, sizeof v, e->mean, e->decimals);
            double rsd = e->mean != 0 ? 100.0 * e->sd / fabs(e->mean) : 0;
            char pooled[96] = "";
            if (reps > 1)
                snprintf(pooled, sizeof pooled, ", up to %.0f repetitions of the quick work each", reps);
            if (e->has_cpu_busy) /* the lab's: its vCPU's share of the measured time */
                snprintf(pooled + strlen(pooled), sizeof pooled - strlen(pooled), ", vCPU busy %.1f %%",
                         e->cpu_busy_pct);
            fprintf(r->log, "  %s%s%s %s  (SD %.2f %%, %zu run%s%s)%s\n",
                    w->measures[m].label ? w->measures[m].label : "", w->measures[m].label ? ": " : "",
                    v, w->measures[m].unit, rsd, n_runs, n_runs == 1 ? "" : "s", pooled,
                    untrusted ? " [runs under 3 s: not trusted]" : "");
            fflush(r->log);
        }
    }
    sb_kvlist_free(&options);
}

/* How the run went, with its line in err: -EINTR, the workload's failure, the directory's. */
static int run_status(const sb_config *cfg, int rc, int rm, const sb_run_ctx *ctx, char *err,
                      size_t errlen)
{
    if (sb_interrupted()) {
        snprintf(err, errlen, "interrupted");
        return -EINTR;
    }
    if (rc < 0) {
        snprintf(err, errlen, "%s", ctx->err[0] ? ctx->err : strerror(-rc));
        return rc;
    }
    if (rm < 0) {
        snprintf(err, errlen, "%s: cannot remove %s: %s", cfg->workload->name, ctx->dir, strerror(-rm));
        return rm;
    }
    /* A run that noted a failure (sb_ctx_fail) and still returned figures computed them
     * from a run with errors: it is a failed run, and nothing of it is saved. */
    if (ctx->err[0]) {
        snprintf(err, errlen, "%s", ctx->err);
        return -EIO;
    }
    return 0;
}

/* One measured run. Fills samples (n_measures). Under MPI every rank runs it at once, in its
 * own directory, and samples are every rank's figures combined (rank_figures.h). */
static int run_once(sb_runner *r, const sb_config *cfg, unsigned index, unsigned planned,
                    sb_sample *samples, char *software, size_t swlen, char *err, size_t errlen)
{
    char dir[PATH_MAX];
    int rc = sb_workdir_create(r->target, dir, sizeof dir);
    if (rc < 0)
        snprintf(err, errlen, "%s: cannot create a work directory in %s: %s", cfg->workload->name,
                 r->target, strerror(-rc));
    else
        prepare_caches(r);
    if (sb_ranks_active()) {
        int b = sb_rank_run_begin(rc, err, err, errlen);
        if (b < 0 && rc == 0)
            sb_workdir_remove(dir);
        rc = b;
    }
    if (rc < 0)
        return rc;
    uint64_t t_ref = sb_now_ns();
    sb_run_ctx ctx = {
        .dir = dir,
        .target = r->target,
        .cfg = cfg,
        .run_index = index,
        .run_count = planned,
        .is_root = sb_is_root(),
        .progress = &r->progress,
    };
    char label[256];
    sb_runner_label(cfg, label, sizeof label);
    /* The ETA of a selection's first run comes from the workload's estimate; later runs use
     * the length of the run before (sb_progress_end records it). */
    if (index == 0)
        r->progress.previous_run_s = cfg->workload->estimate_seconds ? cfg->workload->estimate_seconds(sb_config_params(cfg)) : 0;
    sb_progress_begin(&r->progress, label, index + 1, planned);
    sb_cpubusy c0, c1;
    sb_cpubusy_now(&c0);
    rc = cfg->workload->run(&ctx, sb_config_params(cfg), samples);
    sb_cpubusy_now(&c1);
    run_busy(cfg, samples, &c0, &c1);
    uint64_t t_ret = sb_now_ns();
    sb_progress_end(&r->progress);
    if (ctx.software[0])
        snprintf(software, swlen, "%s", ctx.software);
    int rm = sb_workdir_remove(dir);
    rc = run_status(cfg, rc, rm, &ctx, err, errlen);
    if (sb_ranks_active())
        rc = sb_rank_run_end(cfg->workload, rc, err, samples, t_ref, t_ret, err, errlen);
    return rc;
}

/* Adds b's secondary figures into the running sums of acc (matched by name). */
static void sum_figures(sb_sample *acc, double *counts, const sb_sample *b)
{
    for (size_t g = 0; g < b->n_figures; g++) {
        size_t f = 0;
        while (f < acc->n_figures && strcmp(acc->figures[f].name, b->figures[g].name))
            f++;
        if (f == acc->n_figures) {
            if (f >= SB_MAX_FIGURES)
                continue;
            acc->figures[f] = b->figures[g];
            acc->figures[f].value = 0;
            counts[f] = 0;
            acc->n_figures++;
        }
        acc->figures[f].value += b->figures[g].value;
        counts[f] += 1;
    }
}

/* One run. At full scale it is one run of the workload. At --quick, a wall-clock test whose
 * quick work measured less than MIN_RUN_SECONDS repeats that work (each repetition a
 * complete run: fresh directory, caches dropped) until the repetitions together measured
 * MIN_RUN_SECONDS, and the run's figure is their mean, its seconds their sum: a fast target
 * (tmpfs) gets as much measured time per run as a slow one without changing what one
 * repetition does, which is what keeps the quick figure equal to the full one. This is how
 * microbenchmark harnesses calibrate short work (loops until a minimum time). The runs of
 * a full-scale test are never pooled: a short one is flagged. */
static int run_pooled(sb_runner *r, const sb_config *cfg, unsigned index, unsigned planned,
                      sb_sample *samples, char *software, size_t swlen, char *err, size_t errlen)
{
    const sb_workload *w = cfg->workload;
    int rc = run_once(r, cfg, index, planned, samples, software, swlen, err, errlen);
    if (rc < 0 || !cfg->quick || !(w->flags & SB_WL_WALL_CLOCK))
        return rc;
    size_t nm = w->n_measures;
    sb_sample *one = calloc(nm, sizeof *one);
    double (*counts)[SB_MAX_FIGURES] = calloc(nm, sizeof *counts);
    double *sum = calloc(nm, sizeof *sum);
    if (!one || !counts || !sum) {
        free(one);
        free(counts);
        free(sum);
        return 0; /* the first repetition stands alone */
    }
    unsigned reps = 1;
    for (size_t m = 0; m < nm; m++) {
        sum[m] = samples[m].value;
        for (size_t f = 0; f < samples[m].n_figures; f++)
            counts[m][f] = 1;
    }
    for (;;) {
        bool short_run = false, valid = true;
        for (size_t m = 0; m < nm; m++) {
            if (!sb_config_measured(cfg, m))
                continue;
            short_run = short_run || figure_s(r, samples[m].seconds) < MIN_RUN_SECONDS;
            valid = valid && samples[m].valid;
        }
        if (!short_run || !valid || reps >= MAX_REPETITIONS)
            break;
        memset(one, 0, nm * sizeof *one);
        rc = run_once(r, cfg, index, planned, one, software, swlen, err, errlen);
        if (rc < 0)
            break;
        bool ok = true;
        for (size_t m = 0; m < nm; m++)
            ok = ok && (!sb_config_measured(cfg, m) || (one[m].valid && isfinite(one[m].value)));
        if (!ok) { /* a failed repetition fails the run, as a failed run would */
            for (size_t m = 0; m < nm; m++)
                samples[m].valid = false;
            break;
        }
        reps++;
        for (size_t m = 0; m < nm; m++) {
            sum[m] += one[m].value;
            samples[m].seconds += one[m].seconds;
            /* samples[m] keeps running sums of its figures until the end */
            sum_figures(&samples[m], counts[m], &one[m]);
            samples[m].cpu_busy_ns += one[m].cpu_busy_ns;
            samples[m].cpu_window_ns += one[m].cpu_window_ns;
        }
    }
    if (rc == 0 && reps > 1) {
        for (size_t m = 0; m < nm; m++) {
            samples[m].value = sum[m] / reps;
            for (size_t f = 0; f < samples[m].n_figures; f++)
                if (counts[m][f] > 0)
                    samples[m].figures[f].value /= counts[m][f];
            sb_sample_add(&samples[m], "repetitions", "", (double)reps);
        }
    }
    free(one);
    free(counts);
    free(sum);
    return rc;
}

/* The runs a selection is scheduled: what the user asked for, else the workload's own
 * quick count at --quick, else the default. */
static unsigned scheduled_runs(const sb_runner *r, const sb_config *cfg)
{
    if (r->runs)
        return r->runs;
    if (cfg->quick && cfg->workload->quick_runs)
        return cfg->workload->quick_runs;
    return SB_DEFAULT_RUNS;
}

/* The largest relative SD (percent) of the n runs' figures; 0 with fewer than two runs. */
static double worst_rsd(const sb_config *cfg, sb_sample *const *runs, size_t n)
{
    double worst = 0, values[MAX_RUNS];
    for (size_t m = 0; n >= 2 && m < cfg->workload->n_measures; m++) {
        if (!sb_config_measured(cfg, m))
            continue;
        for (size_t k = 0; k < n; k++)
            values[k] = runs[k][m].value;
        sb_stats st;
        sb_stats_compute(values, n, &st);
        if (st.rsd_pct > worst)
            worst = st.rsd_pct;
    }
    return worst;
}

/* The quick top-up (runner.h): another run for a noisy quick figure while the budget,
 * counting the next run at the mean length of this selection's runs so far, allows it. */
static bool quick_top_up(const sb_runner *r, const sb_config *cfg, sb_sample *const *runs,
                         size_t n_ok, unsigned attempts, unsigned scheduled, uint64_t t0)
{
    if (scheduled < 2 || n_ok >= 2 * (size_t)scheduled || !attempts ||
        worst_rsd(cfg, runs, n_ok) <= SB_QUICK_NOISY_RSD_PCT)
        return false;
    double spent = figure_s(r, (double)(sb_now_ns() - t0) / 1e9);
    return r->quick_spent_s + spent + spent / attempts <= SB_QUICK_BUDGET_S;
}

int sb_runner_run(sb_runner *r, const sb_config *cfg, char *err, size_t errlen)
{
    uint64_t t0 = sb_now_ns();
    const sb_workload *w = cfg->workload;
    if (!sb_config_is_resolved(cfg)) { /* the caller skipped sb_config_resolve(): a bug */
        snprintf(err, errlen, "%s: options not resolved before the run", w->name);
        return -EINVAL;
    }
    int rc = check_space(r, cfg, err, errlen);
    /* Under MPI every rank learns any host's verdict: a rank whose host is short of space
     * returning here alone would leave the others waiting for it at the run's first
     * barrier (a full tmpfs on one of two hosts hung the job: tests/cli/test_mpi_hosts.sh). */
    if (sb_ranks_active())
        rc = sb_ranks_agree(rc, err, err, errlen);
    if (rc < 0)
        return rc;
    unsigned scheduled = scheduled_runs(r, cfg);
    sb_sample *runs[MAX_RUNS];
    size_t n_ok = 0;
    unsigned failed = 0;
    double values[MAX_RUNS];
    char software[sizeof ((sb_run_ctx *)0)->software] = "";
    rc = 0;
    for (;;) {
        bool more = n_ok < scheduled;
        /* --quick promises minutes: more runs only for a noisy figure, within the budget */
        if (!more && r->dynamic && cfg->quick)
            more = quick_top_up(r, cfg, runs, n_ok, (unsigned)n_ok + failed, scheduled, t0);
        if (!more && r->dynamic && !cfg->quick)
            for (size_t m = 0; m < w->n_measures && !more; m++) {
                if (!sb_config_measured(cfg, m))
                    continue;
                for (size_t k = 0; k < n_ok; k++)
                    values[k] = runs[k][m].value;
                more = sb_run_rule_want_more(scheduled, values, n_ok);
            }
        /* Under MPI rank 0 decides for all: every rank holds rank 0's combined figures
         * (rank_figures.c), but the quick budget reads each rank's own clock. */
        if (sb_ranks_active()) {
            unsigned char v = more;
            if ((rc = sb_ranks_bcast(&v, 1, 0)) < 0) {
                snprintf(err, errlen, "rank %d on %s: sharing the run count: %s", sb_ranks()->rank,
                         sb_ranks()->host, strerror(-rc));
                break;
            }
            more = v != 0;
        }
        if (!more || n_ok >= MAX_RUNS)
            break;
        sb_sample *s = calloc(w->n_measures, sizeof *s);
        if (!s) {
            rc = -ENOMEM;
            snprintf(err, errlen, "out of memory");
            break;
        }
        unsigned planned = n_ok < scheduled ? scheduled : (unsigned)n_ok + 1;
        rc = run_pooled(r, cfg, (unsigned)n_ok + failed, planned, s, software, sizeof software, err,
                        errlen);
        if (rc < 0) {
            free(s);
            if (rc == -ENOTSUP)
                rc = SB_RUN_SKIPPED;
            break;
        }
        bool valid = true;
        for (size_t m = 0; m < w->n_measures; m++)
            valid = valid && (!sb_config_measured(cfg, m) || (s[m].valid && isfinite(s[m].value)));
        if (!valid) {
            free(s);
            if (++failed > scheduled) {
                snprintf(err, errlen, "%s: %u runs produced no figure", w->name, failed);
                rc = -EIO;
                break;
            }
            continue;
        }
        runs[n_ok++] = s;
    }
    if (rc == 0 && n_ok > 0)
        record(r, cfg, runs, n_ok, software);
    if (cfg->quick) {
        double rsd = rc == 0 ? worst_rsd(cfg, runs, n_ok) : 0;
        r->quick_spent_s += figure_s(r, (double)(sb_now_ns() - t0) / 1e9);
        if (rsd > SB_QUICK_NOISY_RSD_PCT && r->dynamic && r->log) {
            fprintf(r->log, "  still noisy: relative SD %.1f %% after %zu runs (the quick budget, "
                    "%.0f s a target, has %.0f s left)\n", rsd, n_ok, SB_QUICK_BUDGET_S,
                    r->quick_spent_s < SB_QUICK_BUDGET_S ? SB_QUICK_BUDGET_S - r->quick_spent_s : 0);
            fflush(r->log);
        }
    }
    for (size_t k = 0; k < n_ok; k++)
        free(runs[k]);
    return rc;
}
