/*
 * pace — what a worker waits for and watches besides its I/O, off the hot path (only
 * paced or watched jobs come here): the rate's schedule per direction, fio's thinktime
 * with thinktime_spin, thinktime_blocks (counted on completed or issued I/Os),
 * thinktime_iotime and rate_ignore_thinktime; and, per completion, max_latency and
 * fio's latency target, the search for the deepest queue whose latencies meet
 * latency_target (fio's bisection: double the depth while a window meets it, halve
 * towards the last good depth when one does not, then one more window at the depth
 * found, measured alone, and the job ends; latency_run searches for the whole run).
 * Kept apart from loop.c so that loop.c stays the common path; nothing here calls
 * back into loop.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "io/run/worker.h"

static bool pace_stopped(const worker *w)
{
    return atomic_load_explicit(&w->sh->stop, memory_order_relaxed);
}

void sb_io_sleep_until(worker *w, uint64_t t)
{
    for (;;) {
        uint64_t now = sb_now_ns();
        if (now >= t || pace_stopped(w))
            return;
        uint64_t d = t - now;
        if (d > 20000000ull)
            d = 20000000ull;
        struct timespec ts = {(time_t)(d / NS), (long)(d % NS)};
        nanosleep(&ts, NULL);
    }
}

/* fio's handle_thinktime rule: after thinktime_blocks I/Os (completed, or issued) since
 * the last think, or, with thinktime_iotime, once that much time and the think itself
 * have passed since the last (then thinktime_blocks counts only when given). The count
 * when a think is found due is its mark, taken before the queue drains, as fio's: what
 * the drain completes counts towards the next think. */
bool sb_io_think_due(worker *w, uint64_t now)
{
    const sb_io_job *job = w->job;
    if (!w->think_ns)
        return false;
    uint64_t b = job->thinktime_blocks_type == SB_THINK_ISSUE ? w->think_issued : w->ios_done;
    bool due = false;
    if (job->thinktime_iotime_s > 0) {
        uint64_t since = w->think_last_ns ? w->think_last_ns : w->io_start_ns;
        due = now - since >= (uint64_t)(job->thinktime_iotime_s * 1e9) + w->think_ns;
        if (!due && !job->thinktime_blocks)
            return false;
    }
    due = due || b >= w->think_last_b + (job->thinktime_blocks ? job->thinktime_blocks : 1);
    if (due && !w->think_marked) {
        w->think_mark = b;
        w->think_marked = true;
    }
    return due;
}

/* One think: thinktime_spin on the CPU, the rest asleep. Returns the time it took. */
static uint64_t think(worker *w, int ddir, uint64_t now)
{
    const sb_io_job *job = w->job;
    uint64_t spin_end = now + w->spin_ns, t = now;
    while (w->spin_ns && (t = sb_io_now(w)) < spin_end && !pace_stopped(w))
        ;
    if (w->think_ns > w->spin_ns)
        sb_io_sleep_until(w, now + w->think_ns);
    uint64_t after = sb_io_now(w), total = after - now;
    /* rate_ignore_thinktime: the direction's schedule moves on by the think, less one
     * I/O's gap so that the next goes at once (fio's); else it catches up after it */
    if (job->rate_ign_think && w->next_issue_ns[ddir]) {
        double gap = w->ns_per_byte[ddir] * (double)job->bs;
        if (w->ns_per_io[ddir] > gap)
            gap = w->ns_per_io[ddir];
        w->next_issue_ns[ddir] += (double)total >= gap ? total - (uint64_t)gap : total;
    }
    w->think_last_b = w->think_mark;
    w->think_marked = false;
    if (job->thinktime_iotime_s > 0)
        w->think_last_ns = now;
    return after;
}

/* rate, rate_iops, thinktime: waits until the next I/O of len bytes in direction ddir may
 * start, and returns the clock after the wait. Each direction keeps its own schedule
 * (fio's rate=READ,WRITE), from its first I/O on, so a slow I/O is made up by the next
 * ones, as fio's rate. */
uint64_t sb_io_pace(worker *w, int ddir, uint32_t len, uint64_t now)
{
    if (sb_io_think_due(w, now))
        now = think(w, ddir, now);
    w->think_issued++;
    if (w->ns_per_byte[ddir] > 0 || w->ns_per_io[ddir] > 0) {
        if (!w->next_issue_ns[ddir])
            w->next_issue_ns[ddir] = now;
        else
            sb_io_sleep_until(w, w->next_issue_ns[ddir]);
        double a = w->ns_per_byte[ddir] * len, b = w->ns_per_io[ddir], gap = a > b ? a : b;
        if (w->job->rate_poisson) /* fio's rate_process=poisson: arrivals of a Poisson process */
            gap *= -log(1 - sb_rand_double(&w->rng));
        w->next_issue_ns[ddir] += (uint64_t)gap;
    }
    return sb_io_now(w);
}

/* Whether a rate-limited direction's next I/O is not due yet (the direction of the next
 * I/O is not known before it is prepared: any limited direction ahead counts). */
bool sb_io_rate_ahead(worker *w)
{
    uint64_t now = sb_io_now(w);
    for (int d = 0; d < SB_DDIR_N; d++)
        if ((w->ns_per_byte[d] > 0 || w->ns_per_io[d] > 0) && w->next_issue_ns[d] > now)
            return true;
    return false;
}

/* ------------------------------------------------------------ latency */

void sb_io_watch_setup(worker *w, const sb_io_job *job, unsigned depth)
{
    w->spin_ns = (uint64_t)(job->thinktime_spin_s * 1e9);
    /* serialize_overlap and latency_target wait in the paced path too */
    w->paced |= job->serialize_overlap || job->latency_target_s > 0;
    w->depth_low = job->iodepth_low && job->iodepth_low < depth ? job->iodepth_low : 0;
    w->max_lat_ns = (uint64_t)(job->max_latency_s * 1e9 + 0.5);
    w->lat_target_ns = (uint64_t)(job->latency_target_s * 1e9 + 0.5);
    w->watch = w->prio || w->max_lat_ns || w->lat_target_ns;
    /* the search starts at depth 1, bounded by iodepth (fio's lat_target_init) */
    w->lat_qd = w->lat_target_ns ? 1 : depth;
    w->lat_qd_low = 1;
    w->lat_qd_high = depth;
}

static void lat_fail(worker *w, uint64_t lat_ns, uint64_t limit_ns, const sb_io_u *u)
{
    if (w->err)
        return;
    w->err = -ETIMEDOUT;
    snprintf(w->errmsg, sizeof w->errmsg, "latency of %" PRIu64 " ns exceeds %s %" PRIu64 " ns: %s at "
             "offset %" PRIu64 ", %u bytes", lat_ns, limit_ns == w->max_lat_ns ? "max_latency" :
             "latency_target at depth 1", limit_ns, u->ddir == SB_DDIR_WRITE ? "write" :
             u->ddir == SB_DDIR_TRIM ? "trim" : "read", u->offset, u->len);
    atomic_store_explicit(&w->sh->stop, true, memory_order_relaxed);
}

static void lat_new_window(worker *w, uint64_t now)
{
    w->lat_ts = now;
    w->lat_ios = w->ios_done;
    w->lat_failed = 0;
}

/* A window missed the target: a shallower queue, what is in flight drained first; at
 * depth 1 the target cannot be met (false). */
static bool lat_down(worker *w, uint64_t now)
{
    if (w->lat_qd == 1)
        return false;
    w->lat_qd_high = w->lat_qd;
    if (w->lat_qd == w->lat_qd_low)
        w->lat_qd_low--;
    w->lat_qd = (w->lat_qd + w->lat_qd_low) / 2;
    w->lat_stable = 0;
    w->lat_quiesce = true;
    lat_new_window(w, now);
    return true;
}

/* The measurement starts again at the depth found: its figures are the final window's. */
static void lat_restart_stats(worker *w, uint64_t now)
{
    for (int d = 0; d < SB_DDIR_N; d++) {
        sb_io_dir_stats *st = &w->st[d];
        st->ios = st->bytes = 0;
        sb_hist_init(&st->clat);
        sb_hist_init(&st->slat);
        sb_hist_init(&st->clat_issued);
    }
    memset(&w->depths, 0, sizeof w->depths);
    w->ramp_end_ns = now;
    w->last_ns = now;
}

/* A window met the target: deeper (doubling until a window fails, then bisecting up to
 * the last failing depth); the same depth twice: one more window, measured on its own,
 * and the thread is done (unless latency_run). */
static void lat_up(worker *w, uint64_t now)
{
    const unsigned qd = w->lat_qd, depth = w->td.iodepth;
    w->lat_qd_low = w->lat_qd;
    if (w->lat_qd + 1 == w->lat_qd_high && ++w->lat_stable >= 3) {
        w->lat_qd_high++; /* stuck one below the failing depth: try it again now and then */
        w->lat_stable = 0;
    }
    w->lat_qd = w->lat_qd_high != depth ? (w->lat_qd + w->lat_qd_high) / 2 : w->lat_qd * 2;
    if (w->lat_qd > depth)
        w->lat_qd = depth;
    if (!w->job->latency_run && w->lat_qd == qd) {
        if (w->lat_end_run) {
            w->pass_done = true;
        } else {
            w->lat_quiesce = true;
            w->lat_end_run = true;
            lat_restart_stats(w, now);
        }
    }
    lat_new_window(w, now);
}

static void lat_window(worker *w, uint64_t now)
{
    if (!w->lat_ts) {
        lat_new_window(w, now);
        return;
    }
    if (now - w->lat_ts < (uint64_t)(w->job->latency_window_s * 1e9) || w->pass_done)
        return;
    uint64_t ios = w->ios_done - w->lat_ios;
    double ok = ios ? 100.0 * (double)(ios - w->lat_failed) / (double)ios : 100.0;
    if (ok >= w->job->latency_percentile)
        lat_up(w, now);
    else
        lat_down(w, now);
}

void sb_io_watch(worker *w, const sb_io_u *u, uint64_t lat_ns, uint64_t now)
{
    if (w->prio)
        sb_prio_record(w->prio, u->ddir, u->ioprio, lat_ns);
    if (w->max_lat_ns && lat_ns > w->max_lat_ns && u->ddir != SB_DDIR_TRIM)
        lat_fail(w, lat_ns, w->max_lat_ns, u);
    if (!w->lat_target_ns)
        return;
    if (lat_ns > w->lat_target_ns && u->ddir != SB_DDIR_TRIM) {
        if (w->job->latency_percentile < 100)
            w->lat_failed++;
        else if (!lat_down(w, now))
            lat_fail(w, lat_ns, w->lat_target_ns, u);
    }
    lat_window(w, now);
}

/* ------------------------------------------------------------ overlaps */

bool sb_io_overlaps(const worker *w, const sb_io_u *u)
{
    for (unsigned i = 0; i < w->td.iodepth; i++) {
        const sb_io_u *o = &w->td.ios[i];
        if (o == u || o->offset >= u->offset + u->len || u->offset >= o->offset + o->len)
            continue;
        bool free = false;
        for (unsigned k = 0; k < w->nfree && !free; k++)
            free = w->freelist[k] == o;
        if (!free)
            return true;
    }
    return false;
}
