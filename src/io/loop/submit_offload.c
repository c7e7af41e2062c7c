/*
 * submit_offload — fio's io_submit_mode=offload (fio's rate-submit.c describes the model;
 * this is storbench's own). The job's thread only decides what to do and when: it takes
 * the next I/O, waits for its time under rate / rate_iops (linear or poisson), and hands
 * it to a pool of iodepth submit threads, each with an engine context of its own (a ring,
 * an aio context) doing one I/O at a time, as fio's offload workers do with iodepth=1.
 * So the submission schedule never waits on completions: an inline job that is ahead of
 * its rate first waits for what is in flight (fio's quiesce); an offloaded one goes on
 * issuing while up to iodepth I/Os are outstanding, and only a job with every buffer in
 * flight waits, for the first to come back. A submit thread stamps the completion time
 * itself, so an I/O's latency is its own, not the time the job's thread took to notice.
 * The statistics, logs and time series stay the job's thread's (loop.c's accounting),
 * fed from the completion queue.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "io/run/worker.h"

typedef struct offload {
    worker *w;
    pthread_mutex_t mu;
    pthread_cond_t work_cv, done_cv;
    sb_io_u **sq, **cq;        /* rings of depth + 1: to submit, completed */
    unsigned cap, sq_head, sq_tail, cq_head, cq_tail;
    uint64_t *done_ns;         /* [depth] by io_u index: when its completion was seen */
    /* [depth] by io_u index: the file it was drawn for. A thread of several files switches
     * w->td's descriptor between draws, while a submit thread's copy of td is taken once. */
    int *fd_of;
    unsigned *file_of;
    /* take_done's batch, [depth] each: on the heap, as the job thread's stack is small
     * (worker.h) and iodepth goes to 65536 */
    sb_io_u **got;
    uint64_t *at;
    bool quit;
    unsigned ready, failed;    /* submit threads whose engine init passed / failed */
    int err;                   /* the first submit thread's failure */
    char errmsg[256];
} offload;

static bool ring_empty(unsigned head, unsigned tail) { return head == tail; }

/* One submit thread: an engine context of its own, one I/O at a time. */
static void *submit_main(void *arg)
{
    offload *o = arg;
    worker *w = o->w;
    sb_io_u slot = {0};
    sb_engine_td td = w->td; /* the job's descriptor and flags, a context of its own */
    sb_clock clk = w->clk;   /* and the job's clock, read from this thread */
    td.iodepth = 1;
    td.ios = &slot;
    td.data = NULL;
    td.fixed_files = td.fixed_bufs = false; /* registration is per ring, buffers shared */
    td.files_required = td.bufs_required = false;
    int r = td.ops->init(&td);
    pthread_mutex_lock(&o->mu);
    if (r < 0 && !o->err) {
        o->err = r;
        snprintf(o->errmsg, sizeof o->errmsg, "%s engine (offload): %s", td.ops->name, strerror(-r));
    }
    if (r < 0)
        o->failed++;
    else
        o->ready++;
    pthread_cond_broadcast(&o->done_cv);
    while (r >= 0) {
        while (!o->quit && !o->err && ring_empty(o->sq_head, o->sq_tail))
            pthread_cond_wait(&o->work_cv, &o->mu);
        if ((o->quit || o->err) && ring_empty(o->sq_head, o->sq_tail))
            break;
        sb_io_u *u = o->sq[o->sq_head];
        o->sq_head = (o->sq_head + 1) % o->cap;
        td.fd = o->fd_of[u->index];
        td.file = o->file_of[u->index];
        pthread_mutex_unlock(&o->mu);
        slot.buf = u->buf;
        slot.offset = u->offset;
        slot.len = u->len;
        slot.ddir = u->ddir;
        slot.start_ns = u->start_ns;
        slot.ioprio = u->ioprio;
        slot.result = 0;
        int q = td.ops->queue(&td, &slot);
        if (q == SB_Q_QUEUED) {
            sb_io_u *out[1];
            int c = td.ops->commit(&td);
            if (c >= 0)
                c = td.ops->getevents(&td, 1, 1, out);
            if (c < 0)
                slot.result = c;
        } else if (q < 0) {
            slot.result = q;
        }
        uint64_t now = sb_clock_read(&clk);
        u->result = slot.result;
        pthread_mutex_lock(&o->mu);
        o->done_ns[u->index] = now;
        o->cq[o->cq_tail] = u;
        o->cq_tail = (o->cq_tail + 1) % o->cap;
        pthread_cond_signal(&o->done_cv);
    }
    pthread_mutex_unlock(&o->mu);
    if (r >= 0)
        td.ops->cleanup(&td);
    return NULL;
}

/* Accounts what came back (loop.c's completion), without the lock held; returns how many. */
static unsigned take_done(offload *o, bool wait, uint64_t until_ns)
{
    sb_io_u **got = o->got;
    uint64_t *at = o->at;
    unsigned n = 0;
    pthread_mutex_lock(&o->mu);
    if (wait && ring_empty(o->cq_head, o->cq_tail) && !o->err) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t d = until_ns, ns = (uint64_t)ts.tv_nsec + d % NS;
        ts.tv_sec += (time_t)(d / NS + ns / NS);
        ts.tv_nsec = (long)(ns % NS);
        pthread_cond_timedwait(&o->done_cv, &o->mu, &ts);
    }
    while (!ring_empty(o->cq_head, o->cq_tail)) {
        got[n] = o->cq[o->cq_head];
        at[n] = o->done_ns[got[n]->index];
        o->cq_head = (o->cq_head + 1) % o->cap;
        n++;
    }
    pthread_mutex_unlock(&o->mu);
    for (unsigned i = 0; i < n; i++) {
        sb_io_complete_one(o->w, got[i], at[i]);
        o->w->depths.complete[1]++; /* one I/O per reap: fio's 1-4 bucket */
    }
    return n;
}

/* The job's side (see the top), once every submit thread has its engine. */
static void run(offload *o)
{
    worker *w = o->w;
    unsigned in_flight = 0;
    bool issuing = true;
    while (issuing || in_flight) {
        in_flight -= take_done(o, !issuing || !w->nfree, 20000000ull); /* wait at most 20 ms */
        if (atomic_load_explicit(&w->sh->stop, memory_order_relaxed))
            issuing = false;
        if (!issuing || !w->nfree)
            continue;
        sb_io_u *u = w->freelist[w->nfree - 1];
        if (!sb_io_next(w, u)) {
            issuing = false;
            continue;
        }
        uint64_t t = w->paced ? sb_io_pace(w, u->ddir, u->len, sb_io_now(w)) : sb_io_now(w);
        if (t >= w->end_ns) {
            issuing = false;
            continue;
        }
        w->nfree--;
        u->start_ns = t;
        pthread_mutex_lock(&o->mu);
        o->sq[o->sq_tail] = u;
        o->fd_of[u->index] = w->td.fd;
        o->file_of[u->index] = w->td.file;
        o->sq_tail = (o->sq_tail + 1) % o->cap;
        pthread_cond_signal(&o->work_cv);
        pthread_mutex_unlock(&o->mu);
        in_flight++;
        w->depths.level[in_flight <= 1 ? 0 : in_flight <= 2 ? 1 : in_flight <= 4 ? 2 : in_flight <= 8
                        ? 3 : in_flight <= 16 ? 4 : in_flight <= 32 ? 5 : 6]++;
        w->depths.submit[1]++;
    }
}

void sb_io_loop_offload(worker *w)
{
    unsigned depth = w->td.iodepth;
    offload o = {.w = w, .cap = depth + 1};
    pthread_t *th = calloc(depth, sizeof *th);
    o.sq = calloc(o.cap, sizeof *o.sq);
    o.cq = calloc(o.cap, sizeof *o.cq);
    o.done_ns = calloc(depth, sizeof *o.done_ns);
    o.got = calloc(depth, sizeof *o.got);
    o.at = calloc(depth, sizeof *o.at);
    o.fd_of = calloc(depth, sizeof *o.fd_of);
    o.file_of = calloc(depth, sizeof *o.file_of);
    unsigned started = 0;
    pthread_mutex_init(&o.mu, NULL);
    pthread_cond_init(&o.work_cv, NULL);
    pthread_cond_init(&o.done_cv, NULL);
    if (!th || !o.sq || !o.cq || !o.done_ns || !o.got || !o.at || !o.fd_of || !o.file_of) {
        o.err = -ENOMEM;
        snprintf(o.errmsg, sizeof o.errmsg, "io_submit_mode=offload: %s", strerror(ENOMEM));
    }
    /* a submit thread does one I/O at a time: an I/O thread's small stack (worker.h), so
     * that iodepth=1024 of them do not reserve 8 GiB of address space */
    pthread_attr_t attr;
    bool attr_ok = !pthread_attr_init(&attr) && !pthread_attr_setstacksize(&attr, SB_IO_WORKER_STACK);
    for (; !o.err && started < depth; started++) {
        int r = pthread_create(&th[started], attr_ok ? &attr : NULL, submit_main, &o);
        if (r) {
            o.err = -r;
            snprintf(o.errmsg, sizeof o.errmsg, "io_submit_mode=offload: a submit thread: %s",
                     strerror(r));
            break;
        }
    }
    pthread_attr_destroy(&attr);
    /* I/O only once every engine context is there: a failed one fails the job up front */
    pthread_mutex_lock(&o.mu);
    while (o.ready + o.failed < started)
        pthread_cond_wait(&o.done_cv, &o.mu);
    pthread_mutex_unlock(&o.mu);
    if (!o.err)
        run(&o);
    pthread_mutex_lock(&o.mu);
    o.quit = true;
    pthread_cond_broadcast(&o.work_cv);
    pthread_mutex_unlock(&o.mu);
    for (unsigned i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    take_done(&o, false, 0); /* nothing is left in flight once every thread has ended */
    if (o.err && !w->err) {
        w->err = o.err;
        snprintf(w->errmsg, sizeof w->errmsg, "%s", o.errmsg);
        atomic_store_explicit(&w->sh->stop, true, memory_order_relaxed);
    }
    pthread_cond_destroy(&o.work_cv);
    pthread_cond_destroy(&o.done_cv);
    pthread_mutex_destroy(&o.mu);
    free(th);
    free(o.sq);
    free(o.cq);
    free(o.done_ns);
    free(o.got);
    free(o.at);
    free(o.fd_of);
    free(o.file_of);
}
