/*
 * phase — fio's verify phase inside a job. fio's thread alternates a write phase and a
 * verify phase (backend.c: thread_main calls do_io, then do_verify on the writes it
 * logged): after each of its loops (loops=N), and, in a time-based job on an asynchronous
 * engine, after each `size` bytes it queued, writing and verifying in turn until the
 * runtime is spent. A phase here runs in the worker's own thread once its I/Os are all
 * back: each block whose last write is one of this thread's since the last phase is read
 * back (one read per write, the blocks of a write carrying its identity), checked, and
 * marked, so that neither a later phase nor the read-back after the job reads it again
 * until it is written anew (fio's verify phase takes each logged write once). The reads
 * are timed among the job's reads, as fio counts its verify reads, and the phase's time
 * is the read runtime's. An asynchronous engine's reads, direct or buffered, go through it
 * with as many in flight as its depth, each submitted as it is queued (iodepth_batch_submit),
 * as fio's do_verify queues them; a synchronous engine's are pread()s one at a time. Also
 * here, what the loops do with a failed check (sb_io_verify_failed), the phase's and theirs
 * alike.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "io/run/worker.h"

/* Whether block b of the file in use holds a write of this thread's phase that no check
 * has read yet; *ident gets the identity it holds. */
static bool phase_block(const sb_verify_thread *v, uint64_t b, uint64_t *ident)
{
    const sb_verify_table *t = v->table;
    uint64_t word = atomic_load_explicit(&t->w[b], memory_order_acquire);
    uint64_t id = word >> 1, seq = SB_VERIFY_IDENT_SEQ(id);
    *ident = id;
    if ((word & 1) || id == SB_VERIFY_UNKNOWN || id == SB_VERIFY_TRIMMED || SB_VERIFY_IDENT_JOB(id) != v->job ||
        seq <= v->phase_seq || seq > v->phase_upto)
        return false;
    return !(t->checked && atomic_load_explicit(&t->checked[b / 64], memory_order_relaxed) >> (b % 64) & 1);
}

bool sb_io_verify_failed(worker *w, int r)
{
    if (r == -EILSEQ && w->vt->fmt->survive) { /* continue_on_error=verify: counted */
        if (!w->total_err++)
            w->first_error = EILSEQ;
        if (!w->job->verify_fatal)
            return true;
        /* ... and with verify_fatal the job ends at the first, without failing */
    } else if (!w->err) {
        w->err = r;
        snprintf(w->errmsg, sizeof w->errmsg, "%.255s", w->vt->msg);
    }
    atomic_store_explicit(&w->sh->stop, true, memory_order_relaxed);
    return false;
}

void sb_io_verify_phase_due(worker *w)
{
    w->vphase_due = true;
    w->vt->phase_upto = w->vt->seq;
}

/* A read of the phase at off failed (k: -errno, or the bytes of a short read): the job's
 * error. */
static void phase_read_failed(worker *w, uint64_t off, int64_t k)
{
    int en = k < 0 ? (int)-k : EIO;
    if (!w->err) {
        w->err = -en;
        snprintf(w->errmsg, sizeof w->errmsg, "%.200s: verify read at offset %" PRIu64 ": %s", w->vt->path,
                 off, k < 0 ? strerror(en) : "short read");
    }
    atomic_store_explicit(&w->sh->stop, true, memory_order_relaxed);
}

/* One write's blocks, n from b, holding ident, read (k: bytes, or -errno) into buf from t0
 * on: timed (after the ramp), checked, marked, given back. False when the job ends here
 * (an error, or a mismatch it does not go on after). */
static bool phase_check(worker *w, uint64_t b, unsigned n, uint64_t ident, uint64_t t0, int64_t k, char *buf)
{
    sb_verify_thread *v = w->vt;
    sb_verify_table *t = v->table;
    const uint32_t bs = v->fmt->bs;
    if (k != (int64_t)n * bs) {
        for (unsigned i = 0; i < n; i++)
            sb_verify_release(t, b + i, ident);
        phase_read_failed(w, t->first_block_off + b * bs, k);
        return false;
    }
    if (t0 >= w->ramp_end_ns) { /* one of the job's reads, as fio counts its verify reads */
        sb_hist_record(v->bl_clat, sb_io_now(w) - t0);
        v->bl_ios++;
        v->bl_bytes += (uint64_t)k;
    }
    bool go_on = true;
    for (unsigned i = 0; i < n; i++) {
        if (go_on && sb_verify_check_one(v, buf + (size_t)i * bs, b + i, ident) < 0)
            go_on = sb_io_verify_failed(w, -EILSEQ);
        sb_verify_mark_checked(t, b + i, true); /* read once: the read-back after the job leaves it */
        sb_verify_release(t, b + i, ident);
    }
    return go_on;
}

/* The next write of the phase from *b on, its blocks claimed: *first, *n and *ident.
 * False when none is left, or the job ends (its runtime spent, as fio's do_verify stops
 * there; or stopped); *t0 is the clock then. */
static bool phase_next(worker *w, uint64_t *b, uint64_t *first, unsigned *n, uint64_t *ident, uint64_t *t0)
{
    sb_verify_thread *v = w->vt;
    sb_verify_table *t = v->table;
    uint64_t id2, word;
    while (*b < t->nblocks) {
        if (!phase_block(v, *b, ident)) {
            ++*b;
            continue;
        }
        *t0 = sb_io_now(w);
        if (*t0 >= w->end_ns || atomic_load_explicit(&w->sh->stop, memory_order_relaxed))
            return false;
        unsigned k = 1; /* the write's blocks: bsrange and bssplit writes cover several */
        while (k < v->max_units && *b + k < t->nblocks && phase_block(v, *b + k, &id2) && id2 == *ident)
            k++;
        /* up to a block another thread of a shared file holds, or wrote since it was looked
         * at (that one is given back as it is: its write is not this phase's) */
        unsigned got = 0;
        while (got < k && sb_verify_claim(t, *b + got, &word)) {
            if (word >> 1 != *ident) {
                sb_verify_release(t, *b + got, word >> 1);
                break;
            }
            got++;
        }
        *first = *b;
        *b += got ? got : 1;
        if (got) {
            *n = got;
            return true;
        }
    }
    return false;
}

/* The phase over the file in use, one pread() at a time (a synchronous engine's job). */
static bool phase_file_sync(worker *w)
{
    sb_verify_thread *v = w->vt;
    const uint32_t bs = v->fmt->bs;
    uint64_t b = 0, first, ident, t0;
    unsigned n;
    while (phase_next(w, &b, &first, &n, &ident, &t0)) {
        ssize_t k = pread(v->fd, v->pbuf, (size_t)n * bs, (off_t)(v->table->first_block_off + first * bs));
        if (!phase_check(w, first, n, ident, t0, k < 0 ? -errno : k, v->pbuf))
            return false;
    }
    return !atomic_load_explicit(&w->sh->stop, memory_order_relaxed) && sb_io_now(w) < w->end_ns;
}

/* A read of the phase came back (u's slot holds its identity). */
static bool phase_reaped(worker *w, sb_io_u *u)
{
    sb_verify_thread *v = w->vt;
    const uint32_t bs = v->fmt->bs;
    uint64_t b = (u->offset - v->table->first_block_off) / bs;
    bool go_on = phase_check(w, b, u->len / bs, v->slot_ident[(size_t)u->index * v->max_units], u->start_ns,
                             u->result, u->buf);
    w->freelist[w->nfree++] = u;
    return go_on;
}

/* The phase over the file in use through the job's asynchronous engine, as many reads in
 * flight as its depth (fio's do_verify queues them as its I/Os): every slot is free now. */
static bool phase_file_queued(worker *w)
{
    sb_verify_thread *v = w->vt;
    const sb_engine_ops *ops = w->td.ops;
    const uint32_t bs = v->fmt->bs;
    uint64_t b = 0, first, ident, t0;
    unsigned n, in_flight = 0, pending = 0;
    /* submitted as the job's I/Os are: each as it is queued (fio's iodepth_batch_submit, 1 by
     * default; 16 buffered reads in one io_submit took it 15 to 40 ms here, read one by one) */
    const unsigned batch = w->job->batch_submit ? w->job->batch_submit : 1;
    bool more = true, go_on = true;
    while (in_flight || (more && go_on)) {
        while (more && go_on && w->nfree && pending < batch) {
            if (!(more = phase_next(w, &b, &first, &n, &ident, &t0)))
                break;
            sb_io_u *u = w->freelist[--w->nfree];
            u->ddir = SB_DDIR_READ;
            u->offset = v->table->first_block_off + first * bs;
            u->len = n * bs;
            u->start_ns = t0;
            u->issue_ns = 0;
            u->ioprio = w->ioprio_default;
            v->slot_ident[(size_t)u->index * v->max_units] = ident;
            int q = ops->queue(&w->td, u);
            if (q == SB_Q_QUEUED)
                pending++;
            else { /* done at once, or refused: its result says which */
                if (q < 0)
                    u->result = q;
                go_on = phase_reaped(w, u);
            }
        }
        if (pending) {
            int r = ops->commit(&w->td);
            if (r < 0) { /* nothing of it went: the blocks back, the job's error */
                phase_read_failed(w, 0, r);
                return false;
            }
            in_flight += pending;
            pending = 0;
        }
        if (more && go_on && w->nfree) /* slots free: they are filled before any is reaped */
            continue;
        if (!in_flight)
            break;
        int r = ops->getevents(&w->td, 1, in_flight, w->done);
        if (r < 0) {
            phase_read_failed(w, 0, r);
            return false;
        }
        in_flight -= (unsigned)r;
        for (int i = 0; i < r; i++)
            go_on = phase_reaped(w, w->done[i]) && go_on;
    }
    return go_on && !atomic_load_explicit(&w->sh->stop, memory_order_relaxed) && sb_io_now(w) < w->end_ns;
}

void sb_io_verify_phase(worker *w)
{
    sb_verify_thread *v = w->vt;
    const unsigned nf = v->files ? v->nfiles : 1, was = v->cur;
    uint64_t t0 = sb_io_now(w);
    bool go_on = true;
    /* an asynchronous engine's reads go through it, its depth at a time, buffered or direct:
     * fio's do_verify queues them as the job's I/Os (Linux AIO reads a buffered file inside
     * io_submit) */
    const bool queued = !v->files && !w->td.ops->sync;
    for (unsigned k = 0; k < nf && go_on; k++) {
        if (v->files)
            sb_verify_use(v, k);
        /* as fio's: its verify phase finds the files closed (clear_io_state), so it neither
         * syncs them nor drops their pages then; it reopens each, which drops the cached
         * pages that are clean (invalidate=1), and what is not yet written back is read
         * from the cache */
        if (w->job->invalidate)
            posix_fadvise(v->fd, (off_t)v->table->first_block_off, (off_t)(v->table->nblocks * v->fmt->bs),
                          POSIX_FADV_DONTNEED);
        go_on = queued ? phase_file_queued(w) : phase_file_sync(w);
    }
    if (v->files)
        sb_verify_use(v, was);
    v->phase_seq = v->phase_upto;
    v->nring = v->pending = 0; /* verify_backlog's waiting writes were read: fio's history is empty */
    w->vphase_due = false;
    w->vphase_mark = w->bytes_issued;
    uint64_t t1 = sb_io_now(w), from = t0 > w->ramp_end_ns ? t0 : w->ramp_end_ns;
    if (t1 > from) { /* the read runtime's; and the job's, as fio's runtime holds its phases */
        v->phase_ns += t1 - from;
        if (t1 > w->last_ns)
            w->last_ns = t1;
    }
}
