/*
 * replay — see replay.h. The log is read twice when read_iolog_chunked=0 (fio's
 * default, which loads the whole log before the job starts): once here before any I/O,
 * a line at a time, to refuse a bad line, learn the file, the directions and the largest
 * I/O; then by each thread while it replays. With read_iolog_chunked=1 it is read once,
 * while replaying: the job opens its file for reading and writing (any kind may come),
 * its buffers are bs bytes, and a bad line stops the job where it is found.
 *
 * Pacing: a timed log (version 3, blktrace) issues each I/O at the log's time since its
 * first operation, times 100 / replay_time_scale, after the thread's start; a late I/O
 * goes at once and the rest stay on the log's schedule, as fio's iolog_delay makes up
 * for its own lateness. The wait is before the I/O, outside its latency (the loop reads
 * the clock again for a paced thread).
 */
#include "io/loop/replay.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/clock.h"
#include "io/job/guard.h"
#include "io/log/blktrace.h"
#include "io/log/iolog_replay.h"
#include "io/log/iolog_write.h"
#include "io/run/worker.h"

typedef struct sb_io_iolog {
    sb_replay rp;
    bool replaying, stall, first_done;
    uint64_t log_t0, run_t0;   /* the first timed operation's log time, and its clock */
    uint64_t max_len;          /* the buffers' bytes */
    const char *file;          /* the one file a text log may name ("" until seen) */
    char file_seen[SB_REPLAY_NAME_MAX + 1];
    sb_iolog_w *out;           /* write_iolog */
    uint64_t last_off;
} sb_io_iolog;

static void replay_options(const sb_io_job *job, sb_replay *rp)
{
    rp->scale = job->replay_scale;
    rp->align = job->replay_align;
    rp->skip = job->replay_skip;
}

/* A trace's device as this machine names it (/dev/NAME from sysfs), as fio looks it up. */
static int device_path(uint32_t dev, char *out, size_t len, char *err, size_t errlen)
{
    char p[96], line[256];
    snprintf(p, sizeof p, "/sys/dev/block/%u:%u/uevent", dev >> 20, dev & 0xfffffu);
    FILE *f = fopen(p, "re");
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "DEVNAME=", 8)) {
            line[strcspn(line, "\n")] = '\0';
            snprintf(out, len, "/dev/%s", line + 8);
            fclose(f);
            return 0;
        }
    if (f)
        fclose(f);
    snprintf(err, errlen, "read_iolog: the trace's device %u:%u is not on this machine; name one with "
             "replay_redirect=", dev >> 20, dev & 0xfffffu);
    return -EINVAL;
}

/* The file an operation goes to: the redirect, else the one the log names (one only). */
static int note_file(const sb_io_job *job, const sb_replay *rp, const sb_rp_op *op, char *seen, uint32_t *dev,
                     bool *have, char *err, size_t errlen)
{
    if (job->replay_redirect[0])
        return 0;
    if (rp->fmt == SB_RP_FMT_BLKTRACE) {
        if (*have && *dev != op->dev) {
            snprintf(err, errlen, "read_iolog: %s: record %" PRIu64 ": a second device (%u:%u after %u:%u); "
                     "storbench replays one: use replay_redirect=", rp->name, rp->line, op->dev >> 20,
                     op->dev & 0xfffffu, *dev >> 20, *dev & 0xfffffu);
            return -EINVAL;
        }
        *dev = op->dev;
    } else {
        if (*have && strcmp(seen, op->file)) {
            snprintf(err, errlen, "read_iolog: %s:%" PRIu64 ": a second file (%s after %s); storbench "
                     "replays one: use replay_redirect=", rp->name, rp->line, op->file, seen);
            return -EINVAL;
        }
        snprintf(seen, SB_REPLAY_NAME_MAX + 1, "%s", op->file);
    }
    *have = true;
    return 0;
}

/* Reads the log (whole, or up to its first operation when chunked): what it does. */
static int scan(sb_io_job *job, sb_replay *rp, char *seen, uint32_t *dev, bool *have, unsigned *kinds,
                uint64_t *max_len, char *err, size_t errlen)
{
    job->replay_bytes = 0;
    sb_rp_op op;
    int k;
    char why[512];
    while ((k = sb_replay_next(rp, &op, why, sizeof why)) == 1) {
        if (op.kind != SB_RP_WAIT && (k = note_file(job, rp, &op, seen, dev, have, err, errlen)) < 0)
            return k;
        if (op.kind <= SB_RP_TRIM) {
            *kinds |= 1u << op.kind;
            *max_len = op.len > *max_len ? op.len : *max_len;
            job->replay_bytes += op.len;
        }
        if (job->read_iolog_chunked && (*have || job->replay_redirect[0])) { /* the rest: while replaying */
            job->replay_bytes = 0;
            return 0;
        }
    }
    if (k < 0)
        snprintf(err, errlen, "read_iolog: %s", why);
    else if (!*have && !job->replay_redirect[0])
        snprintf(err, errlen, "read_iolog: %s names no file to replay on", rp->name);
    else if (!*kinds && !job->read_iolog_chunked)
        snprintf(err, errlen, "read_iolog: %s holds no read, write or trim to replay", rp->name);
    else
        return 0;
    return k < 0 ? k : -EINVAL;
}

/* Whether a and b name one file (the same inode; or the same name when one is missing). */
static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) < 0 || stat(b, &sb) < 0)
        return !strcmp(a, b);
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The rules of a replayed job that the option table cannot state. */
static int replay_check(const sb_io_job *job, char *err, size_t errlen)
{
    const char *bad = job->verify != SB_VERIFY_NONE || job->verify_pattern ? "verify"
                      : job->loops > 1 ? "loops" : job->zonemode ? "zonemode"
                      : job->nrfiles > 1 ? "nrfiles" : NULL;
    if (bad) {
        snprintf(err, errlen, "read_iolog: %s with a replayed log is not supported (the log says "
                 "what each I/O is)", bad);
        return -EINVAL;
    }
    for (const char *p = job->read_iolog; *p; p += strlen(p) + 1) {
        const char *out = job->write_iolog[0] && same_file(job->write_iolog, p) ? "write_iolog"
                          : job->merge_blktrace_file[0] && same_file(job->merge_blktrace_file, p)
                          ? "merge_blktrace_file" : NULL;
        if (out) {
            snprintf(err, errlen, "%s: %s is a log read_iolog reads", out, p);
            return -EINVAL;
        }
    }
    if (sb_opt_list_count(job->read_iolog) > 1 && !job->merge_blktrace_file[0]) {
        snprintf(err, errlen, "read_iolog: several logs need merge_blktrace_file= (storbench replays "
                 "one log per job)");
        return -EINVAL;
    }
    return 0;
}

/* The job made a replay: its file, directions, buffers; nothing laid out (fio opens the
 * log's file as it is, and a read past its end fails as fio's does). */
static void make_replay_job(sb_io_job *job, const char *file, unsigned kinds, uint64_t max_len)
{
    if (file[0]) {
        snprintf(job->filename, sizeof job->filename, "%s", file);
        job->filename[strlen(job->filename) + 1] = '\0'; /* a LIST of one */
        job->directory[0] = '\0';
    }
    job->rw = job->read_iolog_chunked ? (job->readonly ? SB_RW_READ : SB_RW_TRIMWRITE)
              : kinds == 1u << SB_RP_READ ? SB_RW_READ
              : kinds == 1u << SB_RP_WRITE ? SB_RW_WRITE
              : kinds == 1u << SB_RP_TRIM ? SB_RW_TRIM
              : kinds & (1u << SB_RP_TRIM) ? SB_RW_TRIMWRITE : SB_RW_RW;
    uint64_t bs = job->bs_max > job->bs ? job->bs_max : job->bs;
    if (!job->read_iolog_chunked && max_len > bs)
        bs = (max_len + SB_IO_MIN_BS - 1) / SB_IO_MIN_BS * SB_IO_MIN_BS;
    job->bs = bs;
    job->bs_max = 0;
    job->bssplit.n = job->bssplit_w.n = 0;
    job->offset = 0;
    job->size = bs;
    job->filesize = 0;
    job->size_pct = 0;
    job->create_on_open = true;
    job->invalidate = false;
    job->rw_skip = 0;
}

/* A log read once, as it comes (fio's "-", a pipe): nothing is read before the replay,
 * so the replay must not need it to be. */
static int streamed_job(sb_io_job *job, char *err, size_t errlen)
{
    if (!job->read_iolog_chunked || !job->replay_redirect[0] || job->numjobs > 1) {
        snprintf(err, errlen, "read_iolog: %s is not a regular file: it is read once, as it comes, "
                 "which needs read_iolog_chunked=1, replay_redirect= and numjobs=1", job->read_iolog);
        return -EINVAL;
    }
    make_replay_job(job, job->replay_redirect, 0, 0);
    return sb_io_guard_job(job, NULL, err, errlen) < 0 ? -EINVAL : 0;
}

int sb_io_replay_job(sb_io_job *job, char *err, size_t errlen)
{
    if (!job->read_iolog[0])
        return 0;
    int r = replay_check(job, err, errlen);
    if (r < 0)
        return r;
    struct stat st;
    if (!job->merge_blktrace_file[0] &&
        (!strcmp(job->read_iolog, "-") || (stat(job->read_iolog, &st) == 0 && !S_ISREG(st.st_mode))))
        return streamed_job(job, err, errlen);
    if (job->merge_blktrace_file[0]) {
        if ((r = sb_blktrace_merge(job->read_iolog, job->merge_scalars, job->n_merge_scalars, job->merge_iters,
                                   job->n_merge_iters, job->merge_blktrace_file, err, errlen)) < 0)
            return r;
        size_t n = strnlen(job->merge_blktrace_file, sizeof job->merge_blktrace_file - 1);
        memcpy(job->read_iolog, job->merge_blktrace_file, n);
        job->read_iolog[n] = job->read_iolog[n + 1] = '\0'; /* a LIST of one */
    }
    sb_replay *rp = malloc(sizeof *rp);
    char seen[SB_REPLAY_NAME_MAX + 1] = "", file[PATH_MAX] = "";
    if (!rp) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    if ((r = sb_replay_open(rp, job->read_iolog, err, errlen)) < 0) {
        free(rp);
        return r;
    }
    if (job->readonly) /* as fio's read-only mode: the log's writes and trims are not replayed */
        job->replay_skip |= 1u << SB_RP_WRITE | 1u << SB_RP_TRIM;
    replay_options(job, rp);
    uint32_t dev = 0;
    bool have = false;
    unsigned kinds = 0;
    uint64_t max_len = 0;
    r = scan(job, rp, seen, &dev, &have, &kinds, &max_len, err, errlen);
    int fmt = rp->fmt;
    sb_replay_close(rp);
    free(rp);
    if (r < 0)
        return r;
    if (job->replay_redirect[0])
        snprintf(file, sizeof file, "%s", job->replay_redirect);
    else if (fmt == SB_RP_FMT_BLKTRACE && (r = device_path(dev, file, sizeof file, err, errlen)) < 0)
        return r;
    else if (fmt != SB_RP_FMT_BLKTRACE)
        snprintf(file, sizeof file, "%s", seen);
    make_replay_job(job, file, kinds, max_len);
    /* the safety rules (io/job/guard.h) on the file the log names, as on a job's own */
    return sb_io_guard_job(job, NULL, err, errlen) < 0 ? -EINVAL : 0; /* a refusal: exit 2 */
}

int sb_io_iolog_setup(worker *w, const char *path, char *err, size_t errlen)
{
    const sb_io_job *job = w->job;
    if (!job->read_iolog[0] && !job->write_iolog[0])
        return 0;
    sb_io_iolog *lg = calloc(1, sizeof *lg);
    if (!lg) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    w->iolog = lg;
    w->iolog_next = sb_io_iolog_next;
    w->iolog_sync = sb_io_iolog_sync;
    w->rare = true;
    int r = 0;
    if (job->read_iolog[0]) {
        if ((r = sb_replay_open(&lg->rp, job->read_iolog, err, errlen)) < 0)
            return r;
        replay_options(job, &lg->rp);
        lg->replaying = true;
        lg->stall = !job->replay_no_stall;
        lg->max_len = job->bs;
        w->paced |= lg->stall; /* the loop reads the clock after a wait */
    }
    if (job->write_iolog[0])
        r = sb_iolog_w_open(job->write_iolog, path, &lg->out, err, errlen);
    return r;
}

/* The replay stops: a bad line (-EINVAL: the job's bad input) or a read error. */
static bool replay_fail(worker *w, int r, const char *why)
{
    if (!w->err) {
        w->err = r;
        snprintf(w->errmsg, sizeof w->errmsg, "read_iolog: %.240s", why);
    }
    atomic_store_explicit(&w->sh->stop, true, memory_order_relaxed);
    w->pass_done = true;
    return false;
}

/* A timed operation's wait: its time since the log's first, scaled, after the thread's. */
static void replay_wait(worker *w, sb_io_iolog *lg, uint64_t log_ns)
{
    uint64_t now = sb_io_now(w);
    if (!lg->first_done) {
        lg->first_done = true;
        lg->log_t0 = log_ns;
        lg->run_t0 = now;
        return;
    }
    if (log_ns <= lg->log_t0) /* time going back: at once, as fio's */
        return;
    long double d = (long double)(log_ns - lg->log_t0) * 100 / w->job->replay_time_scale;
    uint64_t at = lg->run_t0 + (d > 1e18L ? (uint64_t)1e18 : (uint64_t)d);
    if (at > now) /* no later than the runtime's end: the loop stops there */
        sb_io_sleep_until(w, at < w->end_ns ? at : w->end_ns);
}

static void replay_sync(worker *w, bool data_only)
{
    w->td.datasync = data_only;
    int r = w->td.ops->fsync(&w->td);
    if (r < 0 && !w->err) {
        w->err = r;
        snprintf(w->errmsg, sizeof w->errmsg, "%s: %s", data_only ? "fdatasync" : "fsync", strerror(-r));
        atomic_store_explicit(&w->sh->stop, true, memory_order_relaxed);
    }
    sb_io_iolog_sync(w, data_only);
}

/* The log's next I/O into u: file actions pass (the file stays open for the run), waits
 * and syncs are done here. */
static bool replay_next(worker *w, sb_io_iolog *lg, sb_io_u *u)
{
    sb_rp_op op;
    char why[512];
    for (;;) {
        if (sb_io_stopped(w))
            return false;
        int k = sb_replay_next(&lg->rp, &op, why, sizeof why);
        if (k < 0)
            return replay_fail(w, k, why);
        if (k == 0) {
            w->pass_done = true;
            return false;
        }
        if (op.kind >= SB_RP_ADD)
            continue;
        if (op.kind == SB_RP_WAIT) { /* version 2: until OFFSET ms after the start (fio's mtime) */
            if (lg->stall) {
                uint64_t at = w->io_start_ns + (op.offset > UINT64_MAX / 2000000 ? UINT64_MAX / 2 : op.offset * 1000000);
                sb_io_sleep_until(w, at < w->end_ns ? at : w->end_ns);
            }
            continue;
        }
        if (lg->stall && op.timed)
            replay_wait(w, lg, op.time_ns);
        if (!w->job->replay_redirect[0] && lg->rp.fmt != SB_RP_FMT_BLKTRACE && op.file) {
            bool have = lg->file_seen[0] != '\0';
            uint32_t dev = 0;
            if ((k = note_file(w->job, &lg->rp, &op, lg->file_seen, &dev, &have, why, sizeof why)) < 0)
                return replay_fail(w, k, why + strlen("read_iolog: "));
        }
        if (op.kind == SB_RP_SYNC || op.kind == SB_RP_DATASYNC) {
            replay_sync(w, op.kind == SB_RP_DATASYNC);
            continue;
        }
        if (op.len > lg->max_len) {
            snprintf(why, sizeof why, "%s:%" PRIu64 ": a %s of %" PRIu32 " bytes, larger than the buffers "
                     "(bs=%" PRIu64 "; read_iolog_chunked sizes them by bs)", lg->rp.name, lg->rp.line,
                     sb_rp_kind_name(op.kind), op.len, lg->max_len);
            return replay_fail(w, -EINVAL, why);
        }
        u->ddir = (uint8_t)op.kind;
        u->offset = op.offset;
        u->len = op.len;
        return true;
    }
}

/* What next_io does with an I/O besides choosing it: its data (refill_buffers, dedupe,
 * compression) and its priority (cmdprio). number_ios does not cut a replay short: fio
 * 3.33 replays all 16 writes of a log with number_ios=5 too. */
static void replay_issue(worker *w, sb_io_u *u)
{
    const sb_io_job *job = w->job;
    if (u->ddir == SB_DDIR_WRITE && w->fill)
        sb_io_fill_write(w, u);
    else if (u->ddir == SB_DDIR_WRITE && job->refill_buffers)
        sb_rand_fill(&w->rng, u->buf, u->len);
    if (w->cmdprio) {
        bool high;
        u->ioprio = sb_cmdprio_pick(&job->cmdprio, u->ddir, u->len, 100 * sb_rand_double(&w->rng),
                                    w->ioprio_default, &high);
    }
    w->bytes_issued += u->len;
}

bool sb_io_iolog_next(worker *w, sb_io_u *u)
{
    sb_io_iolog *lg = w->iolog;
    bool ok;
    if (lg->replaying) {
        ok = replay_next(w, lg, u);
        if (ok)
            replay_issue(w, u);
    } else { /* recording only: the job's own next I/O (the hook off meanwhile) */
        w->iolog_next = NULL;
        ok = sb_io_next(w, u);
        w->iolog_next = sb_io_iolog_next;
    }
    if (ok && lg->out) {
        sb_iolog_w_op(lg->out, u->ddir, u->offset, u->len);
        lg->last_off = u->offset;
    }
    return ok;
}

void sb_io_iolog_sync(worker *w, bool data_only)
{
    sb_io_iolog *lg = w->iolog;
    if (lg && lg->out) /* fio logs a sync at the last I/O's offset, 0 bytes */
        sb_iolog_w_op(lg->out, data_only ? SB_RP_DATASYNC : SB_RP_SYNC, lg->last_off, 0);
}

void sb_io_iolog_end(worker *w)
{
    sb_io_iolog *lg = w->iolog;
    if (!lg)
        return;
    w->iolog = NULL;
    w->iolog_next = NULL;
    w->iolog_sync = NULL;
    int r = sb_iolog_w_close(lg->out);
    if (r < 0 && !w->err) {
        w->err = r;
        snprintf(w->errmsg, sizeof w->errmsg, "write_iolog: %.160s: %s", w->job->write_iolog, strerror(-r));
    }
    sb_replay_close(&lg->rp);
    free(lg);
}
