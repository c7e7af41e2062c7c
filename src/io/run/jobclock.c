/*
 * jobclock — see jobclock.h. The time thread spins as fio's does (a pause between
 * reads, never a sleep: a sleeping keeper would hand out a stale time), so it takes
 * its CPU whole while jobs run; that is what gtod_cpu asks for. Its time is one 64-bit
 * word, so a reader needs no lock (fio's seqlock guards a struct timespec).
 */
#include "io/run/jobclock.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct gtod_keeper {
    pthread_mutex_t lock;
    unsigned users;            /* jobs running with gtod_cpu */
    pthread_t tid;
    cpu_set_t cpus;            /* the CPUs the jobs named, together */
    atomic_bool quit;
    int64_t off_us;            /* gettimeofday minus CLOCK_MONOTONIC when it started */
    _Atomic uint64_t now;      /* the time it keeps (core/clock.h's scale) */
} gtod_keeper;

static gtod_keeper keeper = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void *keep_time(void *arg)
{
    gtod_keeper *k = arg;
    while (!atomic_load_explicit(&k->quit, memory_order_relaxed)) {
        atomic_store_explicit(&k->now, sb_gtod_ns(k->off_us), memory_order_relaxed);
#if defined(__x86_64__) || defined(__i386__)
        __asm__ __volatile__("pause");
#endif
    }
    return NULL;
}

/* The thread started on k->cpus, its first time written. 0 or -errno. */
static int keeper_start(gtod_keeper *k)
{
    sb_clock c;
    char e[8];
    sb_clock_init(&c, SB_CLOCK_GTOD, NULL, e, sizeof e);
    k->off_us = c.gtod_off_us;
    atomic_store(&k->now, sb_gtod_ns(k->off_us));
    atomic_store(&k->quit, false);
    pthread_attr_t attr;
    int r = pthread_attr_init(&attr);
    if (!r)
        r = pthread_attr_setaffinity_np(&attr, sizeof k->cpus, &k->cpus);
    if (!r)
        r = pthread_create(&k->tid, &attr, keep_time, k);
    pthread_attr_destroy(&attr);
    if (!r)
        pthread_setname_np(k->tid, "sb-gtod");
    return -r;
}

int sb_io_jobclock_begin(const sb_io_job *job, sb_clock *c, char *err, size_t errlen)
{
    if (job->gtod_cpu < 0)
        return sb_clock_init(c, job->clocksource, NULL, err, errlen);
    gtod_keeper *k = &keeper;
    int r = 0;
    pthread_mutex_lock(&k->lock);
    if (job->gtod_cpu >= CPU_SETSIZE) {
        r = -EINVAL;
    } else if (!k->users) {
        CPU_ZERO(&k->cpus);
        CPU_SET(job->gtod_cpu, &k->cpus);
        r = keeper_start(k);
    } else if (!CPU_ISSET(job->gtod_cpu, &k->cpus)) { /* fio's: the thread may use each one named */
        cpu_set_t more = k->cpus;
        CPU_SET(job->gtod_cpu, &more);
        if (!(r = -pthread_setaffinity_np(k->tid, sizeof more, &more)))
            k->cpus = more;
    }
    if (!r)
        k->users++;
    pthread_mutex_unlock(&k->lock);
    if (r < 0) {
        snprintf(err, errlen, "gtod_cpu=%d: the time thread cannot be placed on that CPU: %s",
                 job->gtod_cpu, strerror(-r));
        return -ENXIO; /* a failed run (exit 1), as fio's failed setaffinity, not bad input */
    }
    return sb_clock_init(c, SB_CLOCK_SHARED, &k->now, err, errlen);
}

void sb_io_jobclock_end(const sb_io_job *job)
{
    if (job->gtod_cpu < 0)
        return;
    gtod_keeper *k = &keeper;
    pthread_mutex_lock(&k->lock);
    if (k->users && !--k->users) {
        atomic_store(&k->quit, true);
        pthread_join(k->tid, NULL);
    }
    pthread_mutex_unlock(&k->lock);
}
