/*
 * loop — one worker thread of an I/O job: the hot path. It allocates nothing and
 * makes no syscall besides the engine's own and clock reads (vDSO). A synchronous
 * engine reads the clock once per I/O (the end of one I/O is the start of the next;
 * twice when verifying); an asynchronous one reads it before and after each submitting
 * call and once per reaped batch and stamps every I/O of the batch with them, as the
 * latency of an I/O is from its start to the moment its completion is seen (and fio's
 * slat and clat split it at the submission's return).
 *
 * Phases share one start time: startdelay (idle), ramp (I/O, not counted),
 * measurement (until runtime, or until size is done when not time_based), end fsync
 * (inside the measurement). The time series costs one comparison per completion: an
 * interval is closed from the cumulative counters when its boundary has passed
 * (core/timeseries.h). The data pattern verify_pattern jobs write and check is
 * verify.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/rand.h"
#include "io/run/worker.h"
#include "io/job/zbd.h"

/* The job's clock (core/clock.h): the loops below are built once for the default clock,
 * whose read is then sb_now_ns() inlined, and once for the others (a choice per read). */
#define NOW(ck) sb_clock_read_as(&w->clk, (ck))

/* ------------------------------------------------------------- statistics */

/* An interval boundary has passed: close it from the cumulative counters (once per
 * interval, off the per-I/O path). */
static void __attribute__((noinline, cold)) close_interval(worker *w, uint64_t now)
{
    const sb_histogram *h[SB_DDIR_N] = {&w->st[0].clat, &w->st[1].clat, &w->st[2].clat};
    sb_tsb_close(&w->ts, now, h, SB_DDIR_N, w->st[0].bytes + w->st[1].bytes + w->st[2].bytes);
}

/* A buffered write cut short is how a filling file system first answers (fio writes
 * the rest as well): writing the rest names the cause (ENOSPC, EFBIG) instead of a
 * "short write" with EIO. Returns the rest's failure, or the short count when it went
 * through (the job still stops: the accounting would be off by the rest). */
static int64_t __attribute__((noinline, cold)) short_write_cause(worker *w, const sb_io_u *u)
{
    uint64_t done = (uint64_t)u->result;
    ssize_t k = pwrite(w->td.fd, (const char *)u->buf + done, u->len - done, (off_t)(u->offset + done));
    return k < 0 ? -(int64_t)errno : u->result;
}

/* Counts a completion seen at now; true when that also closed a time-series interval
 * (a scan of the buckets: the caller's next timestamp must not include it). */
static inline bool account(worker *w, sb_io_u *u, uint64_t now)
{
    if (__builtin_expect(w->zbd != NULL, 0)) /* zonemode=zbd: a zone may close */
        sb_zbd_done(w->zbd, u->ddir, u->offset, u->len, u->result == (int64_t)u->len);
    uint64_t bytes = u->len;
    if (u->result != (int64_t)u->len) {
        /* create_on_open: a read past the new file's end (the writes have not reached it)
         * completes with what it got, as under fio's asynchronous engines; fio's
         * synchronous ones fail it (EIO, "full resid"), and so does the branch below */
        if (u->ddir == SB_DDIR_READ && u->result >= 0 && w->job->create_on_open && !w->td.ops->sync) {
            bytes = (uint64_t)u->result;
            goto counted;
        }
        if (!w->err && u->result >= 0 && u->ddir == SB_DDIR_WRITE && !w->td.direct)
            u->result = short_write_cause(w, u);
        /* continue_on_error: counted (jobctl.c), and the job goes on */
        if (w->ctl && u->result < 0 && sb_io_ctl_error(w, u, (int)-u->result, now))
            return false;
        if (!w->err) {
            w->err = u->result < 0 ? (int)u->result : -EIO;
            if (u->result < 0)
                snprintf(w->errmsg, sizeof w->errmsg, "%s at offset %" PRIu64 ": %s",
                         u->ddir == SB_DDIR_READ ? "read" : u->ddir == SB_DDIR_WRITE ? "write" : "trim",
                         u->offset,
                         strerror((int)-u->result));
            else
                snprintf(w->errmsg, sizeof w->errmsg, "short %s at offset %" PRIu64 ": %" PRId64
                         " of %u bytes%s", u->ddir == SB_DDIR_READ ? "read" : "write", u->offset,
                         u->result, u->len, u->ddir == SB_DDIR_READ && w->job->create_on_open
                         ? " (past the end of the file create_on_open made; fio's synchronous engines "
                           "fail it too, an asynchronous engine such as libaio counts it)" : "");
        }
        atomic_store_explicit(&w->sh->stop, true, memory_order_relaxed);
        return false;
    }
counted:
    w->ios_done++;
    if (now >= w->next_tick_ns) {
        atomic_store_explicit(&w->progress_bytes, w->bytes_issued, memory_order_relaxed);
        atomic_store_explicit(&w->progress_ios, w->ios_done, memory_order_relaxed);
        w->next_tick_ns = now + TICK_NS;
    }
    if (now < w->ramp_end_ns)
        return false;
    bool closed = false;
    if (__builtin_expect(sb_tsb_due(&w->ts, now), 0)) { /* the one branch time series cost */
        close_interval(w, now);
        closed = true;
    }
    sb_io_dir_stats *st = &w->st[u->ddir];
    st->ios++;
    st->bytes += bytes;
    if (__builtin_expect(!w->no_lat, 1)) {
        sb_hist_record(&st->clat, now - u->start_ns);
        if (u->issue_ns) /* an asynchronous engine's: fio's clat, from the submission */
            sb_hist_record(&st->clat_issued, now - u->issue_ns);
    }
    if (__builtin_expect(w->watch, 0)) /* cmdprio, max_latency, latency_target (pace.c) */
        sb_io_watch(w, u, now - u->start_ns, now);
    if (__builtin_expect(w->log != NULL, 0)) {
        w->log->prio = w->job->log_prio ? u->ioprio : (w->cmdprio && u->ioprio != w->ioprio_default);
        sb_iolog_add(w->log, now - w->ramp_end_ns, now - u->start_ns, now - (u->issue_ns ?: u->start_ns), u->ddir,
                     (uint32_t)bytes, u->offset); /* lat from the start, fio's clat from the submission */
    }
    w->last_ns = now;
    return closed;
}

/* ------------------------------------------------------------ worker loop */

/* A pass ended: a one-pass job is done after `loops` of them (fio's loops). fill_device's
 * one pass is the room there was: the device is full, and fio ends the job at the ENOSPC
 * that says so, time based or not, whatever its loops (unless a smaller size= made the
 * region: then its passes are any job's, as fio's). */
static inline bool passes_done(worker *w)
{
    const sb_io_job *job = w->job;
    bool done = (job->fill_device && !job->fill_sized) || (!job->time_based && ++w->passes >= (job->loops ? job->loops : 1));
    if (__builtin_expect(w->vt != NULL, 0) && !done && w->vt->phase == SB_VPHASE_LOOP)
        sb_io_verify_phase_due(w); /* fio's verify phase after the loop */
    if (__builtin_expect(job->unlink_each_loop, 0) && !done && !job->time_based)
        sb_io_reloop_file(w); /* fio's unlink_each_loop: the next loop on a new file */
    return done;
}

/* A write's data: the pattern, new random bytes, or fio's scramble of the buffer. */
static inline void fill_write(worker *w, sb_io_u *u)
{
    const sb_io_job *job = w->job;
    if (u->ddir != SB_DDIR_WRITE)
        return;
    if (job->verify_pattern)
        sb_io_pattern_fill(u->buf, u->offset, u->len, job->seed);
    else if (__builtin_expect(w->fill, 0)) /* dedupe, compression (jobctl.c) */
        sb_io_fill_write(w, u);
    else if (__builtin_expect(job->refill_buffers, 0))
        sb_rand_fill(&w->rng, u->buf, u->len);
    else if (job->scramble_buffers && !job->zero_buffers && !w->vt && !job->buffer_pat_len) {
        /* fio's default: no two written blocks alike (dedupe), two stores per write */
        uint64_t *p = u->buf;
        p[0] = u->offset;
        p[1] = ++w->scramble_n;
    }
}

/* The next I/O's direction: a job of one direction (read, write, trim, trimwrite's trim)
 * has it fixed by worker.c, a mixed one draws it by rwmixread. */
static inline int pick_ddir(worker *w)
{
    if (__builtin_expect(w->ddir_fixed >= 0, 1))
        return w->ddir_fixed;
    return sb_rand_below(&w->rng, 100) < w->job->rwmixread ? SB_DDIR_READ : SB_DDIR_WRITE;
}

static inline bool stopped(worker *w);

/* Does a pass that ends start the next one cold? As fio's: a job that wraps around its
 * file (sequential, or random with its map of blocks full) reopens and invalidates it; a
 * random job without the map never ends a pass in fio, so its cache stays warm. fio turns
 * the map off for norandommap, a blockalign other than the smallest size, and a
 * distribution other than uniform (its init.c). */
static inline bool pass_invalidates(const sb_io_job *job)
{
    bool map_off = job->norandommap || job->dist.kind != SB_DIST_RANDOM ||
                   (job->blockalign && job->blockalign != job->bs) ||
                   (job->blockalign_w && job->blockalign_w != (job->bs_w ? job->bs_w : job->bs));
    return job->invalidate && !job->direct && !(map_off && sb_rw_is_random(job->rw));
}

/* zonemode=zbd (zbd.h): the block drawn as without zones, placed by the zone code (a
 * write at a write pointer, a read below one). A write that must wait for completions
 * is held: the async loop reaps and asks again (zbd_hold); with nothing of its own in
 * flight (another thread's writes fill the zones) the thread waits here. */
static __attribute__((noinline)) bool next_io_zbd(worker *w, sb_io_u *u)
{
    const sb_io_job *job = w->job;
    if (!w->zbd_hold) {
        w->zbd_b = sb_offgen_next(&w->og, &w->zbd_pass_end);
        w->zbd_ddir = pick_ddir(w);
    }
    w->zbd_hold = false;
    for (;;) {
        int ddir = w->zbd_ddir;
        bool pass_end = w->zbd_pass_end;
        uint64_t off;
        uint32_t len;
        int r = sb_zbd_place(w->zbd, job->offset + w->zbd_b * w->unit, &ddir, &off, &len, &pass_end);
        if (r == SB_ZBD_BUSY && !sb_zbd_idle(w->zbd)) {
            w->zbd_hold = true;
            return false;
        }
        if (r == SB_ZBD_BUSY && !stopped(w) && sb_io_now(w) < w->end_ns) { /* (a time-based trim may wait) */
            sb_io_sleep_until(w, sb_io_now(w) + 20000);
            continue;
        }
        if (r == SB_ZBD_PASS_END && !passes_done(w))
            continue;
        if (r == SB_ZBD_ERR && !w->err) {
            const char *msg;
            w->err = sb_zbd_error(w->zbd, &msg);
            snprintf(w->errmsg, sizeof w->errmsg, "%s", msg);
            atomic_store_explicit(&w->sh->stop, true, memory_order_relaxed);
        }
        if (r != SB_ZBD_OK) {
            w->pass_done = true;
            return false;
        }
        if (pass_end && passes_done(w))
            w->pass_done = true;
        else if (pass_end && pass_invalidates(job))
            w->invalidate_pending = true;
        u->ddir = (uint8_t)ddir;
        u->offset = off;
        u->len = len;
        fill_write(w, u);
        w->bytes_issued += len;
        return true;
    }
}

/* Prepares u for the next I/O; false when a one-pass job has nothing left. Inlined
 * into both loops: it runs once per I/O. */
/* trimwrite, as fio's: the block just trimmed is written next; the pass ends after it. */
static __attribute__((noinline)) bool trimwrite_write(worker *w, sb_io_u *u)
{
    u->ddir = SB_DDIR_WRITE;
    u->offset = w->tw_off;
    u->len = w->tw_len;
    w->tw_pending = false;
    fill_write(w, u);
    w->bytes_issued += u->len;
    if (w->tw_last)
        w->pass_done = true;
    w->tw_last = false;
    return true;
}

/* verify: u's blocks (verify.h), the first and how many (several: sizes of bsrange or
 * bssplit, in blocks of their common unit) */
static inline uint64_t vblock(const worker *w, const sb_io_u *u) { return (u->offset - w->job->offset) / w->vt->fmt->bs; }
static inline unsigned vblocks(const worker *w, const sb_io_u *u) { return u->len / w->vt->fmt->bs; }

/* verify: the I/O's blocks taken (verify_run.c); a write whose blocks have an I/O in
 * flight takes the next block (of one size) or the next draw (several). False when the
 * pass ended looking for free ones. */
static __attribute__((noinline)) bool verify_claim(worker *w, sb_io_u *u, uint64_t *b, uint64_t *byte_off,
                                                   bool *pass_end)
{
    const uint64_t unit = w->vt->fmt->bs;
    bool end = *pass_end, write = u->ddir == SB_DDIR_WRITE;
    for (;;) {
        if (sb_verify_issue_n(w->vt, u->index, write, w->bs_table ? *byte_off / unit : *b,
                              w->bs_table ? u->len / (uint32_t)unit : 1, u->buf))
            break;
        if (end && !w->job->time_based) {
            w->pass_done = true;
            return false;
        }
        if (w->bs_table)
            *byte_off = sb_io_next_var(w, u, pass_end);
        else
            *b = sb_offgen_next(&w->og, pass_end);
        end |= *pass_end;
    }
    *pass_end = end;
    return true;
}

static inline __attribute__((always_inline)) bool next_io(worker *w, sb_io_u *u)
{
    const sb_io_job *job = w->job;
    const bool rare = w->rare; /* several files or trimwrite: one test on the common path */
    if (__builtin_expect(rare, 0) && w->iolog_next) /* read_iolog, write_iolog (replay.c) */
        return w->iolog_next(w, u);
    if (__builtin_expect(rare, 0) && w->tw_pending)
        return trimwrite_write(w, u);
    if (w->pass_done)
        return false;
    if (__builtin_expect(w->zbd != NULL, 0))
        return next_io_zbd(w, u);
    bool pass_end;
    uint64_t b = 0, byte_off = 0;
    if (__builtin_expect(rare, 0) && w->fs) /* several files: which one (files.c) */
        sb_io_files_pick(w);
    /* the direction first: with bssplit=READS,WRITES it decides the size */
    u->ddir = (uint8_t)pick_ddir(w);
    if (__builtin_expect(w->bs_table != NULL, 0)) {
        /* a pass that ended short, without an I/O (varsize.c): the job's end or the next */
        while ((byte_off = sb_io_next_var(w, u, &pass_end)) == SB_IO_VAR_CUT) {
            if (!(job->io_size && !job->time_based) && passes_done(w)) {
                w->pass_done = true;
                return false;
            }
            w->invalidate_pending |= pass_invalidates(job);
        }
    } else if (__builtin_expect(w->spr != NULL, 0)) { /* sprandom: its own end (sprandom.h) */
        if (!sb_spr_next(w->spr, &w->og, &b)) {
            w->pass_done = true;
            return false;
        }
        pass_end = false;
    } else
        b = sb_offgen_next(&w->og, &pass_end);
    if (__builtin_expect(rare, 0) && w->dir_seq && !w->fs) /* rw=rw: the direction's own position */
        b = w->dir_pos[u->ddir]++ % w->og.nblocks;
    if (__builtin_expect(rare, 0) && w->seqmix_on && !w->bs_table) { /* randread:N, percentage_random */
        b = sb_seqmix_next(&w->seqmix, u->ddir, b, w->og.nblocks);
        if (pass_end && !job->time_based) /* the next loop starts afresh, as fio's file reset */
            w->seqmix.pos = (sb_seqpos){0};
    }
    if (w->vt && !verify_claim(w, u, &b, &byte_off, &pass_end))
        return false;
    if (__builtin_expect(rare, 0) && w->fs) /* a file's pass, or all of them */
        pass_end = sb_io_files_pass_end(w, pass_end, u->len);
    /* io_size: loops end by bytes, not passes (jobctl.c) */
    if (pass_end && !(job->io_size && !job->time_based) && passes_done(w))
        w->pass_done = true;
    else if (pass_end && pass_invalidates(job))
        w->invalidate_pending = true;
    u->offset = job->offset + (w->bs_table ? byte_off : b * w->unit);
    fill_write(w, u);
    if (__builtin_expect(w->cmdprio, 0)) {
        bool high;
        u->ioprio = sb_cmdprio_pick(&job->cmdprio, u->ddir, u->len, 100 * sb_rand_double(&w->rng),
                                    w->ioprio_default, &high);
    }
    if (__builtin_expect(rare, 0) && job->rw == SB_RW_TRIMWRITE) {
        w->tw_pending = true;
        w->tw_off = u->offset;
        w->tw_len = u->len;
        w->tw_last = w->pass_done; /* the pass ends after the write */
        w->pass_done = false;
    }
    w->bytes_issued += u->len;
    if (__builtin_expect(w->ctl, 0) && sb_io_ctl_issued(w, u)) /* io_size, number_ios */
        w->pass_done = true;
    if (__builtin_expect(w->vphase_bytes != 0, 0) && w->bytes_issued - w->vphase_mark >= w->vphase_bytes)
        sb_io_verify_phase_due(w); /* a time-based write phase ends at its bytes, as fio's do_io */
    return true;
}

static inline void check_read(worker *w, sb_io_u *u)
{
    uint64_t bad;
    if (u->ddir == SB_DDIR_READ && u->result == (int64_t)u->len &&
        !sb_io_pattern_check(u->buf, u->offset, u->len, w->job->seed, &bad) && !w->err) {
        w->err = -EILSEQ;
        snprintf(w->errmsg, sizeof w->errmsg, "data read back differs from what was written at offset %" PRIu64, bad);
        atomic_store_explicit(&w->sh->stop, true, memory_order_relaxed);
    }
}

/* verify: records a completed write, checks a read (verify_run.c); a mismatch or an error
 * is counted or ends the job (phase.c). */
static inline void verify_done(worker *w, sb_io_u *u)
{
    int r = sb_verify_complete_n(w->vt, u->index, u->ddir == SB_DDIR_WRITE, vblock(w, u), vblocks(w, u), u->buf,
                                 u->result);
    if (__builtin_expect(r < 0, 0))
        sb_io_verify_failed(w, r);
}

static inline bool stopped(worker *w)
{
    return atomic_load_explicit(&w->sh->stop, memory_order_relaxed);
}

/* flow (flow.h), before an I/O: true when the thread is ahead of its weight and holds back
 * this time, after draining what it has in flight (async: *in_flight) and sleeping
 * flow_sleep, or else yielding the CPU (fio retries at once). */
static int drain(worker *w, unsigned *in_flight);
static __attribute__((noinline)) bool flow_hold(worker *w, unsigned *in_flight)
{
    if (!sb_flow_ahead(&w->flow))
        return false;
    if (w->job->flow_sleep_us) {
        if (in_flight && drain(w, in_flight) < 0)
            return true;
        sb_io_sleep_until(w, sb_io_now(w) + (uint64_t)w->job->flow_sleep_us * 1000);
    } else {
        sched_yield();
    }
    return true;
}

/* One I/O at a time. Without verification the clock is read once per I/O: the end of
 * one I/O is the start of the next, so an I/O's latency is its syscall plus what
 * storbench does between two syscalls (the next offset, counting the last one:
 * ~60 instructions, docs/io.md "Timing"). With verification (a checksum of the
 * block between two I/Os) and after an fsync, a cache drop or an interval's close,
 * the clock is read again before the next I/O, so none of that is anyone's latency. */
static inline __attribute__((always_inline)) void loop_sync(worker *w, const int ck)
{
    const sb_engine_ops *ops = w->td.ops;
    sb_io_u *u = &w->td.ios[0];
    const unsigned fsync_every = w->sync_every;
    const bool verify = w->job->verify_pattern;
    const bool one_clock = !verify && !w->vt;
    const bool trims = sb_rw_trims(w->job->rw);
    uint64_t t = NOW(ck);
    while (!stopped(w)) {
        if (__builtin_expect(w->flow.flow != NULL, 0) && flow_hold(w, NULL)) {
            t = NOW(ck); /* the wait is no I/O's latency */
            continue;
        }
        if (__builtin_expect(w->sync_pending, 0) && !w->pass_done) {
            sb_io_periodic_sync(w);
            t = NOW(ck);
        }
        if (!next_io(w, u))
            break;
        if (!one_clock)
            t = NOW(ck);
        if (__builtin_expect(w->paced, 0))
            t = sb_io_pace(w, u->ddir, u->len, t);
        if (t >= w->end_ns) {
            if (w->vt)  /* not issued: the blocks go back as they were */
                sb_verify_cancel_n(w->vt, u->index, u->ddir == SB_DDIR_WRITE, vblock(w, u), vblocks(w, u));
            if (w->zbd) /* and its zone's write pointer */
                sb_zbd_cancel(w->zbd, u->ddir, u->offset, u->len);
            break;
        }
        u->start_ns = t;
        if (__builtin_expect(trims, 0) && u->ddir == SB_DDIR_TRIM) /* trim.c */
            u->result = sb_io_trim_u(w, u);
        else
            ops->queue(&w->td, u);
        t = NOW(ck);
        if (verify)
            check_read(w, u);
        if (w->vt)
            verify_done(w, u);
        bool slow = account(w, u, t);
        if (fsync_every && u->ddir == SB_DDIR_WRITE && ++w->writes_since_fsync >= fsync_every) {
            w->sync_pending = true;
            w->writes_since_fsync = 0;
        }
        if (w->invalidate_pending) {
            sb_io_invalidate_region(w);
            slow = true;
        }
        if (__builtin_expect(w->vphase_due, 0)) { /* fio's verify phase after a loop */
            sb_io_verify_phase(w);
            slow = true;
        }
        if (slow)
            t = NOW(ck);
    }
}

/* Completes n reaped I/Os at time now. */
static inline void complete(worker *w, unsigned n, uint64_t now)
{
    for (unsigned i = 0; i < n; i++) {
        sb_io_u *u = w->done[i];
        if (w->job->verify_pattern)
            check_read(w, u);
        if (w->vt)
            verify_done(w, u);
        account(w, u, now);
        w->freelist[w->nfree++] = u;
    }
}

/* fio's IO depth maps (job.h): a depth's bucket (1, 2-3, 4-7, ... 32-63, >=64: fio's
 * io_u_mark_depth, each label the least depth it holds) and a call's (0, 1-4, 5-8, ...
 * 33-64, >64). A few compares once per submitted or reaped batch. */
static inline unsigned level_bucket(unsigned d)
{
    return d < 2 ? 0 : d < 4 ? 1 : d < 8 ? 2 : d < 16 ? 3 : d < 32 ? 4 : d < 64 ? 5 : 6;
}

static inline unsigned call_bucket(unsigned n)
{
    return n == 0 ? 0 : n <= 4 ? 1 : n <= 8 ? 2 : n <= 16 ? 3 : n <= 32 ? 4 : n <= 64 ? 5 : 6;
}

/* n I/Os submitted in one call, the queue then in_flight deep. */
static inline void mark_submit(worker *w, unsigned n, unsigned in_flight)
{
    w->depths.level[level_bucket(in_flight)] += n;
    w->depths.submit[call_bucket(n)]++;
}

/* The pending I/Os went to the kernel in one call: in flight now, and, as fio's io_uring
 * and libaio engines do, stamped with the clock after the call. Their submission latency
 * (fio's slat: from the I/O's start to that stamp) is recorded, and at completion the
 * latency from the stamp (fio's clat) beside storbench's own from the start (fio's lat).
 * One clock read per submitting call. */
static inline __attribute__((always_inline)) void submitted(worker *w, unsigned *pending,
                                                           unsigned *in_flight, const int ck)
{
    *in_flight += *pending;
    mark_submit(w, *pending, *in_flight);
    if (__builtin_expect(!w->no_lat, 1)) {
        uint64_t now = NOW(ck);
        for (unsigned i = 0; i < *pending; i++) {
            sb_io_u *u = w->pend[i];
            u->issue_ns = now;
            if (now >= w->ramp_end_ns)
                sb_hist_record(&w->st[u->ddir].slat, now - u->start_ns);
        }
    }
    *pending = 0;
}

static int reap(worker *w, unsigned min, unsigned *in_flight)
{
    int n = w->td.ops->getevents(&w->td, min, *in_flight, w->done);
    if (n < 0)
        return n;
    w->depths.complete[call_bucket((unsigned)n)]++;
    uint64_t now = sb_io_now(w);
    *in_flight -= (unsigned)n;
    complete(w, (unsigned)n, now);
    return n;
}

/* Waits until every I/O in flight is back. */
static int drain(worker *w, unsigned *in_flight)
{
    int r;
    while (*in_flight)
        if ((r = reap(w, *in_flight, in_flight)) < 0)
            return r;
    return 0;
}

/* A batch option: its default when 0, never more than the queue depth. */
static inline unsigned batch_value(unsigned v, unsigned dflt, unsigned depth)
{
    if (!v)
        v = dflt;
    return v > depth ? depth : v;
}

/* flow in the async loop: what is queued goes before the thread holds back. 1 when it
 * holds back, 0 when it goes on, or a commit's error. */
static int async_flow_hold(worker *w, unsigned *pending, unsigned *in_flight)
{
    if (*pending) {
        int r = w->td.ops->commit(&w->td);
        if (r < 0)
            return r;
        *in_flight += *pending;
        mark_submit(w, *pending, *in_flight);
        *pending = 0;
    }
    return flow_hold(w, in_flight) ? 1 : 0;
}

/* A paced async I/O, by its own direction (fio's rate=READ,WRITE): false when the runtime
 * ended meanwhile, the I/O then not issued and its block given back as it was.
 * serialize_overlap (a paced job too): the I/Os in flight it overlaps come back first. */
static bool async_pace(worker *w, sb_io_u *u, uint64_t *t, unsigned *in_flight)
{
    while (w->job->serialize_overlap && *in_flight && sb_io_overlaps(w, u))
        if (reap(w, 1, in_flight) < 0)
            break;
    *t = sb_io_pace(w, u->ddir, u->len, sb_io_now(w));
    if (*t < w->end_ns)
        return true;
    if (w->vt)
        sb_verify_cancel_n(w->vt, u->index, u->ddir == SB_DDIR_WRITE, vblock(w, u), vblocks(w, u));
    w->bytes_issued -= u->len;
    return false;
}

/* Before a paced I/O: what is queued goes now; thinktime waits for the queue to drain,
 * as fio's quiesce before a think; ahead of the rate, what is in flight comes back first,
 * as fio's inline mode quiesces before it sleeps (its latency is then its own, not the
 * sleep's; io_submit_mode=offload is the mode that does not wait); latency_target's
 * search drains when it makes the queue shallower and holds it to its depth. 1: the
 * queue is at that depth (reap first), 0: go on, or a commit's error. */
static int async_paced_gate(worker *w, unsigned *pending, unsigned *in_flight)
{
    int r;
    if (*pending) {
        if ((r = w->td.ops->commit(&w->td)) < 0)
            return r;
        submitted(w, pending, in_flight, SB_CLOCK_ANY);
    }
    bool ahead = sb_io_rate_ahead(w);
    if ((sb_io_think_due(w, sb_io_now(w)) || ahead || w->lat_quiesce) && (r = drain(w, in_flight)) < 0)
        return r;
    w->lat_quiesce = false;
    return *in_flight >= w->lat_qd;
}

/* iodepth_low: a queue that was full drains to it before it is filled again, reaped as
 * before, at least cmin, at most cmax a call (fio's). */
static __attribute__((noinline)) int drain_to_low(worker *w, unsigned cmin, unsigned cmax,
                                                  unsigned *in_flight)
{
    while (*in_flight > w->depth_low && !stopped(w)) {
        unsigned n = *in_flight;
        int r = w->td.ops->getevents(&w->td, cmin < n ? cmin : n, cmax < n ? cmax : n, w->done);
        if (r < 0)
            return r;
        w->depths.complete[call_bucket((unsigned)r)]++;
        *in_flight -= (unsigned)r;
        complete(w, (unsigned)r, sb_io_now(w));
    }
    return 0;
}

/* The periodic sync in the async loop: what is queued is submitted and completes first;
 * *t is then the next I/O's start. */
static int __attribute__((noinline)) async_sync(worker *w, unsigned *pending, unsigned *in_flight,
                                                uint64_t *t)
{
    int r;
    if (*pending) {
        if ((r = w->td.ops->commit(&w->td)) < 0)
            return r;
        submitted(w, pending, in_flight, SB_CLOCK_ANY);
    }
    if ((r = drain(w, in_flight)) < 0)
        return r;
    sb_io_periodic_sync(w);
    *t = sb_io_now(w);
    return 0;
}

/* fio's queueing (job.h): queue one I/O per free buffer, submitting every
 * batch_submit of them; when no buffer is free (or nothing more will be
 * issued) reap at least complete_min, at most complete_max. The clock is read
 * once per submitted batch (its I/Os' submission time, and the runtime check)
 * and once per reaped batch. */
static inline __attribute__((always_inline)) void loop_async(worker *w, const int ck)
{
    const sb_engine_ops *ops = w->td.ops;
    const sb_io_job *job = w->job;
    const unsigned depth = w->td.iodepth;
    const unsigned batch = batch_value(job->batch_submit, 1, depth);
    const unsigned cmin = batch_value(job->batch_complete_min, 1, depth);
    const unsigned cmax = batch_value(job->batch_complete_max, cmin, depth);
    const unsigned fsync_every = w->sync_every;
    unsigned in_flight = 0, pending = 0;
    bool issuing = true;
    uint64_t t = 0;
    int r;
    while (!stopped(w)) {
        while (issuing && w->nfree && !stopped(w)) {
            if (__builtin_expect(w->paced, 0)) {
                if ((r = async_paced_gate(w, &pending, &in_flight)) < 0)
                    goto fail;
                if (r)
                    break;
            } else if (!pending) {
                t = NOW(ck);
                if (t >= w->end_ns) {
                    issuing = false;
                    break;
                }
            }
            if (__builtin_expect(w->flow.flow != NULL, 0) &&
                (r = async_flow_hold(w, &pending, &in_flight)) != 0) {
                if (r < 0)
                    goto fail;
                break;
            }
            if (__builtin_expect(w->sync_pending, 0) && !w->pass_done &&
                (r = async_sync(w, &pending, &in_flight, &t)) < 0)
                goto fail;
            sb_io_u *u = w->freelist[w->nfree - 1];
            if (!next_io(w, u) || (__builtin_expect(w->paced, 0) && !async_pace(w, u, &t, &in_flight))) {
                if (__builtin_expect(w->zbd_hold, 0))
                    break; /* zonemode=zbd: reap, then place the held write again */
                issuing = false;
                break;
            }
            w->nfree--;
            u->start_ns = t;
            u->issue_ns = 0;
            if (__builtin_expect(u->ddir == SB_DDIR_TRIM, 0)) {
                /* as fio's asynchronous engines: a trim is done at once, on its own */
                u->result = sb_io_trim_u(w, u);
                w->done[0] = u;
                complete(w, 1, NOW(ck));
                continue;
            }
            if (ops->queue(&w->td, u) == SB_Q_COMPLETED) {
                /* refused at submission: account as an error */
                w->done[0] = u;
                complete(w, 1, NOW(ck));
                break;
            }
            w->pend[pending++] = u;
            bool sync_due = fsync_every && u->ddir == SB_DDIR_WRITE &&
                            ++w->writes_since_fsync >= fsync_every;
            if (pending >= batch || sync_due || w->invalidate_pending || w->vphase_due) {
                if ((r = ops->commit(&w->td)) < 0)
                    goto fail;
                submitted(w, &pending, &in_flight, ck);
            }
            if (w->invalidate_pending) {
                if ((r = drain(w, &in_flight)) < 0)
                    goto fail;
                sb_io_invalidate_region(w);
            }
            if (__builtin_expect(w->vphase_due, 0)) { /* fio's verify phase: its writes all back first */
                if ((r = drain(w, &in_flight)) < 0)
                    goto fail;
                sb_io_verify_phase(w);
            }
            if (sync_due) {
                w->sync_pending = true;
                w->writes_since_fsync = 0;
            }
        }
        if (pending) {
            if ((r = ops->commit(&w->td)) < 0)
                goto fail;
            submitted(w, &pending, &in_flight, ck);
        }
        if (!in_flight) {
            if (!issuing || stopped(w))
                break;
            continue;
        }
        /* The queue is full, or nothing more will be issued: reap. */
        if ((r = w->td.ops->getevents(&w->td, cmin < in_flight ? cmin : in_flight,
                                      cmax < in_flight ? cmax : in_flight, w->done)) < 0)
            goto fail;
        uint64_t now = NOW(ck);
        w->depths.complete[call_bucket((unsigned)r)]++;
        in_flight -= (unsigned)r;
        complete(w, (unsigned)r, now);
        if (__builtin_expect(w->depth_low != 0, 0) && in_flight + (unsigned)r >= depth &&
            (r = drain_to_low(w, cmin, cmax, &in_flight)) < 0)
            goto fail;
    }
    /* Drain: every buffer must be back before the engine and buffers go away. */
    if (pending) {
        if ((r = ops->commit(&w->td)) < 0)
            goto fail;
        submitted(w, &pending, &in_flight, ck);
    }
    if ((r = drain(w, &in_flight)) < 0)
        goto fail;
    return;
fail:
    if (!w->err) {
        w->err = r;
        snprintf(w->errmsg, sizeof w->errmsg, "%s: %s", ops->name, strerror(-r));
    }
    atomic_store_explicit(&w->sh->stop, true, memory_order_relaxed);
}

/* For the offload loop (submit_offload.c): one I/O's preparation, pacing and completion
 * seen at now, as the loops here do them. */
bool sb_io_next(worker *w, sb_io_u *u) { return next_io(w, u); }
void sb_io_complete_one(worker *w, sb_io_u *u, uint64_t now)
{
    w->done[0] = u;
    complete(w, 1, now);
}

/* For worker_thread.c, which chooses the loop (this one's, or submit_offload.c's): the
 * loop of a synchronous engine and of an asynchronous one, an fsync of its files, and
 * whether the job was stopped. */
void sb_io_loop_sync(worker *w)
{
    if (w->clk.kind == SB_CLOCK_MONO)
        loop_sync(w, SB_CLOCK_MONO);
    else
        loop_sync(w, SB_CLOCK_ANY);
}
void sb_io_loop_async(worker *w)
{
    if (w->clk.kind == SB_CLOCK_MONO)
        loop_async(w, SB_CLOCK_MONO);
    else
        loop_async(w, SB_CLOCK_ANY);
}
bool sb_io_stopped(worker *w) { return stopped(w); }
