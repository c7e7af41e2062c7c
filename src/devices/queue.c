/*
 * devices/queue — a modeled device in real time. Server threads (FUSE, nbdkit) call
 * sb_dev_queue_io(); one dispatcher thread owns the model and starts the requests in
 * the device's order: the waiting request with the shortest positioning time among the
 * oldest `depth` (NCQ; first come first served at depth 1), and, for a request that
 * needs the busy arm, not before the arm is free (so that what arrives meanwhile can be
 * chosen instead). A caller then sleeps until its modeled completion on
 * CLOCK_MONOTONIC, the clock the model's virtual time is read from. A request that
 * finds nothing waiting and a device that could start it now is started by its caller.
 * Each thread that sleeps here asks for a timer slack of 1 ns first: a normal thread's
 * default 50 us would be added to completions the SSD model times in tens of
 * microseconds (real-time threads have none; nbdkit's threads are normal). Waking from
 * a sleep still costs an idle CPU tens of microseconds (on a virtual machine, the host
 * scheduling the vCPU back: 149 us per QD1 4 KiB write through nbdkit where the model
 * and the path add up to 90), so the last SPIN_NS of a wait are spun instead of slept,
 * by at most half the CPUs at once (a spinner holds its CPU: more of them would take
 * the CPUs the workload and the other requests need; the rest sleep the whole wait;
 * on one CPU nothing spins). A queue made with SB_DEV_QUEUE_SLEEP (a guest in virtual
 * time) never spins: there only a sleeping vCPU lets the guest's clock jump.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/strutil.h"
#include "devices/model.h"

/* How much of a wait is spun rather than slept: more than a wake-up costs. */
#define SPIN_NS 200000ull

/* A spinning CPU's hint that it waits (x86's pause; elsewhere nothing). */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Threads spinning now, in the whole process (every device's queue). */
static atomic_int spinners;

typedef struct req {
    sb_dev_op op;
    uint64_t off, len;
    uint64_t done_at;
    int state; /* 0 waiting, 1 started (done_at set), 2 refused (the queue stops) */
    struct req *next;
} req;

struct sb_dev_queue {
    sb_dev_model *m;
    unsigned depth;
    unsigned flags;  /* SB_DEV_QUEUE_* */
    atomic_ullong spun; /* waits whose end was spun */
    pthread_mutex_t mu;
    pthread_cond_t work; /* the dispatcher: a request arrived, or stop */
    pthread_cond_t done; /* the callers: a request was started */
    req *head, *tail;
    int stop;
    pthread_t thread;
};

static struct timespec abs_ts(uint64_t ns)
{
    struct timespec ts = {(time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull)};
    return ts;
}

/* The request to start next among the oldest depth, and its positioning time. */
static req **choose(sb_dev_queue *q, uint64_t now, uint64_t *pos)
{
    req **best = &q->head;
    *pos = UINT64_MAX;
    unsigned k = 0;
    for (req **r = &q->head; *r && k < q->depth; r = &(*r)->next, k++) {
        uint64_t p = sb_dev_model_position_ns(q->m, (*r)->op, (*r)->off, now);
        if (p < *pos) {
            *pos = p;
            best = r;
        }
    }
    return best;
}

static void *dispatcher(void *arg)
{
    sb_dev_queue *q = arg;
    pthread_mutex_lock(&q->mu);
    for (;;) {
        while (!q->stop && !q->head)
            pthread_cond_wait(&q->work, &q->mu);
        if (q->stop)
            break;
        uint64_t now = sb_now_ns(), pos;
        req **slot = choose(q, now, &pos);
        uint64_t ready = sb_dev_model_ready_ns(q->m, now);
        if (pos > 0 && ready > now) {
            /* The arm is busy: decide when it is free, among what has arrived by then. */
            struct timespec ts = abs_ts(ready);
            pthread_cond_timedwait(&q->work, &q->mu, &ts);
            continue;
        }
        req *r = *slot;
        *slot = r->next;
        if (q->tail == r) {
            q->tail = NULL;
            for (req *t = q->head; t; t = t->next)
                q->tail = t;
        }
        r->done_at = sb_dev_model_service(q->m, r->op, r->off, r->len, now);
        r->state = 1;
        pthread_cond_broadcast(&q->done);
    }
    for (req *r = q->head; r; r = r->next)
        r->state = 2;
    q->head = q->tail = NULL;
    pthread_cond_broadcast(&q->done);
    pthread_mutex_unlock(&q->mu);
    return NULL;
}

sb_dev_queue *sb_dev_queue_new(sb_dev_model *m, unsigned depth, unsigned flags)
{
    sb_dev_queue *q = calloc(1, sizeof *q);
    if (!q)
        sb_oom();
    q->m = m;
    q->depth = depth ? depth : 1;
    q->flags = flags;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&q->mu, NULL);
    pthread_cond_init(&q->work, &ca);
    pthread_cond_init(&q->done, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&q->thread, NULL, dispatcher, q) != 0) {
        pthread_cond_destroy(&q->work);
        pthread_cond_destroy(&q->done);
        pthread_mutex_destroy(&q->mu);
        free(q);
        return NULL;
    }
    return q;
}

static void sleep_until(uint64_t t)
{
    struct timespec ts = abs_ts(t);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

/* Returns at t (CLOCK_MONOTONIC ns): sleeps until SPIN_NS before it, then spins the rest
 * when a spinner's place is free and sleeps it otherwise; true when it spun. */
static bool wait_until(uint64_t t)
{
    /* Half the CPUs, none on one CPU (a spinner there would hold the only CPU). */
    static atomic_int max_spinners = -1;
    if (atomic_load(&max_spinners) < 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN) / 2;
        atomic_store(&max_spinners, n > 0 ? (int)n : 0);
    }
    if (!atomic_load(&max_spinners)) {
        sleep_until(t);
        return false;
    }
    if (t > SPIN_NS && t - SPIN_NS > sb_now_ns())
        sleep_until(t - SPIN_NS);
    if (atomic_fetch_add(&spinners, 1) >= atomic_load(&max_spinners)) {
        atomic_fetch_sub(&spinners, 1);
        sleep_until(t);
        return false;
    }
    while (sb_now_ns() < t)
        cpu_relax();
    atomic_fetch_sub(&spinners, 1);
    return true;
}

int sb_dev_queue_io(sb_dev_queue *q, sb_dev_op op, uint64_t off, uint64_t len)
{
    req r = {.op = op, .off = off, .len = len};
    pthread_mutex_lock(&q->mu);
    if (q->stop) {
        pthread_mutex_unlock(&q->mu);
        return -EINTR;
    }
    uint64_t now = sb_now_ns();
    if (!q->head && (sb_dev_model_ready_ns(q->m, now) <= now ||
                     sb_dev_model_position_ns(q->m, op, off, now) == 0)) {
        /* Nothing waits and nothing to choose among: start it here, without the two
         * thread switches through the dispatcher (on a busy host each costs a time slice). */
        r.done_at = sb_dev_model_service(q->m, op, off, len, now);
        r.state = 1;
    } else {
        if (q->tail)
            q->tail->next = &r;
        else
            q->head = &r;
        q->tail = &r;
        pthread_cond_signal(&q->work);
        while (r.state == 0)
            pthread_cond_wait(&q->done, &q->mu);
    }
    pthread_mutex_unlock(&q->mu);
    if (r.state == 2)
        return -EINTR;
    if (r.done_at <= sb_now_ns())
        return 0;
    static __thread int slack_set;
    if (!slack_set) {
        (void)prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
        slack_set = 1;
    }
    if (q->flags & SB_DEV_QUEUE_SLEEP)
        sleep_until(r.done_at);
    else if (wait_until(r.done_at))
        atomic_fetch_add(&q->spun, 1);
    return 0;
}

uint64_t sb_dev_queue_spun(sb_dev_queue *q) { return atomic_load(&q->spun); }

void sb_dev_queue_free(sb_dev_queue *q)
{
    if (!q)
        return;
    pthread_mutex_lock(&q->mu);
    q->stop = 1;
    pthread_cond_signal(&q->work);
    pthread_mutex_unlock(&q->mu);
    pthread_join(q->thread, NULL);
    pthread_cond_destroy(&q->work);
    pthread_cond_destroy(&q->done);
    pthread_mutex_destroy(&q->mu);
    free(q);
}
