/*
 * io_status — see io_status.h. One thread wakes at the next interval report or
 * progress line, whichever comes first; it holds the lock while it reads the jobs'
 * live views and writes, and the command holds it while it adds a job's final figures
 * to the report, so a report never sees a block half added. The progress line is
 * fio's ("Jobs: 1 (f=1): [R(1)][40.0%][r=96.0MiB/s][r=24.6k IOPS][eta 00m:03s]"), on
 * standard error: redrawn in place on a terminal (with --eta-newline a new line every
 * so often), one line per interval otherwise (--eta=always; auto shows none there).
 */
#include "cli/io_status.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"
#include "core/strutil.h"
#include "core/units.h"

struct sb_io_status {
    sb_io_status_opts o;
    sb_io_out *out;
    pthread_t tid;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool quit, tty, eta;
    /* the phase that runs */
    sb_io_status_job *jobs;
    sb_io_live *lives;
    size_t n;
    uint64_t phase_ns;
    /* the progress line: the last counts, for its rates; when a new line is due */
    uint64_t last_ns, last_ios[SB_DDIR_N], last_bytes[SB_DDIR_N];
    uint64_t newline_ns;
    int line_len;
};

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------ interval reports */

/* Every job's figures so far: the ended phases' (already in out) and this phase's. */
static void report(sb_io_status *s)
{
    sb_io_out_status_begin(s->out);
    for (size_t i = 0; i < s->n; i++) {
        sb_io_result *r = sb_xcalloc(1, sizeof *r); /* large: histograms */
        int st = sb_io_live_snapshot(&s->lives[i], r);
        if (st == SB_IO_LIVE_RUNNING || st == SB_IO_LIVE_ENDED) {
            sb_io_out_job(s->out, s->jobs[i].job, r, s->jobs[i].group, 0, s->jobs[i].given, NULL);
            sb_io_result_free(r);
        }
        free(r);
    }
    if (sb_io_out_status_end(s->out) < 0)
        sb_warn("io: --status-interval: the report could not be written");
}

/* ------------------------------------------------------------ the progress line */

/* fio's letter for a running thread of job: R/r read, W/w write, M/m mixed, D/d trim
 * (upper case sequential). */
static char run_letter(const sb_io_job *job)
{
    bool rnd = sb_rw_is_random(job->rw);
    char c = sb_rw_trims(job->rw) && !sb_rw_writes(job->rw) ? 'D'
             : sb_rw_reads(job->rw) && sb_rw_writes(job->rw) ? 'M'
             : sb_rw_writes(job->rw) ? 'W' : 'R';
    return rnd ? (char)(c - 'A' + 'a') : c;
}

/* How far job is, 0 to 1, from its bytes and its time, as worker.c's progress (per_thread:
 * a replayed log's bytes, else 0 and the job's size). */
static double job_fraction(const sb_io_job *job, uint64_t per_thread, uint64_t bytes, double elapsed_s)
{
    double total_s = job->startdelay_s + job->ramp_s + job->runtime_s;
    double work = per_thread ? (double)per_thread * job->numjobs
                             : (double)job->size * job->numjobs * (job->loops ? job->loops : 1);
    double fb = work > 0 ? (double)bytes / work : 0, ft = total_s > 0 ? elapsed_s / total_s : 0;
    double f = job->runtime_s > 0 && (job->time_based || ft > fb) ? ft : fb;
    return f > 1 ? 1 : f;
}

static void eta_line(sb_io_status *s, uint64_t now)
{
    char line[512], run[128] = "", rate[160] = "", iops[96] = "";
    unsigned running = 0;
    double frac = 0, elapsed = (double)(now - s->phase_ns) / 1e9, dt = (double)(now - s->last_ns) / 1e9;
    uint64_t ios[SB_DDIR_N] = {0}, bytes[SB_DDIR_N] = {0};
    size_t rl = 0;
    for (size_t i = 0; i < s->n; i++) {
        uint64_t ji[SB_DDIR_N], jb[SB_DDIR_N];
        int st = sb_io_live_counts(&s->lives[i], ji, jb);
        const sb_io_job *job = s->jobs[i].job;
        for (int d = 0; d < SB_DDIR_N; d++) {
            ios[d] += ji[d];
            bytes[d] += jb[d];
        }
        frac += st == SB_IO_LIVE_ENDED ? 1 : job_fraction(job, sb_io_live_replay_bytes(&s->lives[i]),
                                                                  jb[0] + jb[1] + jb[2], elapsed);
        running += st == SB_IO_LIVE_RUNNING ? job->numjobs : 0;
        char c = st == SB_IO_LIVE_RUNNING ? run_letter(job) : st == SB_IO_LIVE_ENDED ? '_' : 'P';
        if (rl + 16 < sizeof run)
            rl += (size_t)snprintf(run + rl, sizeof run - rl, "%c(%u)", c, job->numjobs);
    }
    frac = s->n ? frac / (double)s->n : 0;
    static const char *const dn[SB_DDIR_N] = {"r", "w", "t"};
    size_t ra = 0, ia = 0;
    for (int d = 0; d < SB_DDIR_N; d++) {
        if (!ios[d] && d != 0 && !(d == 1 && !ios[0]))
            continue;
        char b[32];
        sb_format_iec(b, sizeof b, dt > 0 ? (double)(bytes[d] - s->last_bytes[d]) / dt : 0, "B/s");
        ra += (size_t)snprintf(rate + ra, sizeof rate - ra, "%s%s=%s", ra ? "," : "", dn[d], b);
        double v = dt > 0 ? (double)(ios[d] - s->last_ios[d]) / dt : 0;
        ia += (size_t)snprintf(iops + ia, sizeof iops - ia, "%s%s=%.*f%s", ia ? "," : "", dn[d],
                               v >= 1e4 ? 1 : 0, v >= 1e4 ? v / 1e3 : v, v >= 1e4 ? "k" : "");
        if (ra >= sizeof rate || ia >= sizeof iops)
            break;
    }
    memcpy(s->last_ios, ios, sizeof ios);
    memcpy(s->last_bytes, bytes, sizeof bytes);
    s->last_ns = now;
    long eta = frac > 0 ? (long)(elapsed * (1 - frac) / frac + 0.5) : -1;
    char etas[32] = "--m:--s";
    if (eta >= 0)
        snprintf(etas, sizeof etas, "%02ldm:%02lds", eta / 60, eta % 60);
    int len = snprintf(line, sizeof line, "Jobs: %u (f=%u): [%s][%.1f%%][%s][%s IOPS][eta %s]",
                       running, running, run, 100 * frac, rate, iops, etas);
    if (len >= (int)sizeof line)
        len = (int)sizeof line - 1;
    if (!s->tty) { /* a log: one whole line each time */
        fprintf(stderr, "%s\n", line);
        return;
    }
    bool newline = s->o.eta_newline_s > 0 && now >= s->newline_ns;
    if (newline)
        s->newline_ns = now + (uint64_t)(s->o.eta_newline_s * 1e9);
    fprintf(stderr, "\r%s%*s%s", line, s->line_len > len ? s->line_len - len : 0, "", newline ? "\n" : "");
    fflush(stderr);
    s->line_len = newline ? 0 : len;
}

/* ------------------------------------------------------------ the thread */

static struct timespec abs_of(uint64_t ns)
{
    return (struct timespec){(time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull)};
}

static uint64_t next_of(uint64_t next, double iv_s, uint64_t now)
{
    uint64_t iv = (uint64_t)(iv_s * 1e9);
    while (next <= now) /* a late wake-up skips what it missed: one report, not a burst */
        next += iv;
    return next;
}

static void *status_main(void *arg)
{
    sb_io_status *s = arg;
    uint64_t t0 = mono_ns();
    uint64_t next_st = s->o.status_s > 0 ? t0 + (uint64_t)(s->o.status_s * 1e9) : UINT64_MAX;
    uint64_t next_eta = s->eta ? t0 + (uint64_t)(s->o.eta_interval_s * 1e9) : UINT64_MAX;
    pthread_mutex_lock(&s->lock);
    while (!s->quit) {
        struct timespec until = abs_of(next_st < next_eta ? next_st : next_eta);
        int r = pthread_cond_timedwait(&s->cond, &s->lock, &until);
        if (s->quit)
            break;
        if (r != ETIMEDOUT)
            continue;
        uint64_t now = mono_ns();
        if (now >= next_st) {
            report(s);
            next_st = next_of(next_st, s->o.status_s, mono_ns());
        }
        if (now >= next_eta) {
            if (s->n)
                eta_line(s, now);
            next_eta = next_of(next_eta, s->o.eta_interval_s, mono_ns());
        }
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

sb_io_status *sb_io_status_start(const sb_io_status_opts *opts, sb_io_out *out)
{
    bool tty = isatty(STDERR_FILENO);
    bool eta = opts->eta == SB_ETA_ALWAYS || (opts->eta == SB_ETA_AUTO && tty);
    if (!eta && opts->status_s <= 0)
        return NULL;
    sb_io_status *s = sb_xcalloc(1, sizeof *s);
    s->o = *opts;
    s->out = out;
    s->tty = tty;
    s->eta = eta;
    pthread_mutex_init(&s->lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->cond, &ca);
    pthread_condattr_destroy(&ca);
    s->phase_ns = s->last_ns = mono_ns();
    s->newline_ns = s->phase_ns + (uint64_t)(opts->eta_newline_s * 1e9);
    if (pthread_create(&s->tid, NULL, status_main, s)) {
        sb_warn("io: cannot start the thread of the progress line and interval reports");
        pthread_cond_destroy(&s->cond);
        pthread_mutex_destroy(&s->lock);
        free(s);
        return NULL;
    }
    return s;
}

sb_io_live *sb_io_status_phase(sb_io_status *s, const sb_io_status_job *jobs, size_t n)
{
    if (!s)
        return NULL;
    pthread_mutex_lock(&s->lock);
    s->jobs = sb_xrealloc(NULL, (n ? n : 1) * sizeof *s->jobs);
    s->lives = sb_xrealloc(NULL, (n ? n : 1) * sizeof *s->lives);
    memcpy(s->jobs, jobs, n * sizeof *jobs);
    for (size_t i = 0; i < n; i++)
        sb_io_live_init(&s->lives[i]);
    s->n = n;
    s->phase_ns = s->last_ns = mono_ns();
    memset(s->last_ios, 0, sizeof s->last_ios);
    memset(s->last_bytes, 0, sizeof s->last_bytes);
    sb_io_live *l = s->lives;
    pthread_mutex_unlock(&s->lock);
    return l;
}

void sb_io_status_phase_end(sb_io_status *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        sb_io_live_free(&s->lives[i]);
    free(s->lives);
    free(s->jobs);
    s->lives = NULL;
    s->jobs = NULL;
    s->n = 0;
}

void sb_io_status_lock(sb_io_status *s)
{
    if (s)
        pthread_mutex_lock(&s->lock);
}

void sb_io_status_unlock(sb_io_status *s)
{
    if (s)
        pthread_mutex_unlock(&s->lock);
}

void sb_io_status_stop(sb_io_status *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->lock);
    s->quit = true;
    pthread_cond_signal(&s->cond);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->tid, NULL);
    if (s->tty && s->line_len) { /* the line goes: the report follows on a clean line */
        fprintf(stderr, "\r%*s\r", s->line_len, "");
        fflush(stderr);
    }
    sb_io_status_phase_end(s);
    pthread_cond_destroy(&s->cond);
    pthread_mutex_destroy(&s->lock);
    free(s);
}
