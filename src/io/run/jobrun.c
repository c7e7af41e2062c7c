/*
 * jobrun — see jobrun.h. A thread per job only to call sb_io_run(): the job's own
 * threads do the I/O, so this adds one sleeping thread per job and nothing to the
 * I/O path. exitall is a flag per job that its control loop polls (worker.c).
 */
#include "io/run/jobrun.h"

#include "io/loop/flow.h"
#include "io/run/gate.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* A job ended: fio's exitall (and exitall_on_error) end the others. */
static void exit_others(sb_io_run_slot *s)
{
    const sb_io_job *job = s->job;
    bool all = (job->exitall && job->exit_what == 2) || (job->exitall_on_error && s->rc < 0 &&
                                                         !(s->rc == -EILSEQ && job->verify));
    if (!job->exitall && !all)
        return;
    for (size_t i = 0; i < s->n_slots; i++)
        if (all || job->exit_what == 1 || s->all_slots[i].group == s->group)
            atomic_store(&s->all_slots[i].stop, true);
    if (all && s->end_all)
        atomic_store(s->end_all, true);
}

static void *run_one(void *arg)
{
    sb_io_run_slot *s = arg;
    s->run = *s->job;
    s->run.stop_ext = &s->stop;
    s->run.flow_reserved = s->flow_held ? &s->flow_reserved : NULL;
    s->run.prepare_lock = s->prepare_lock;
    s->run.start_gate = s->start_gate;
    s->run.gate_index = s->gate_index;
    s->rc = sb_io_run_live(&s->run, &s->result, s->live, s->err, sizeof s->err);
    sb_io_gate_pass(s->start_gate, s->gate_index, false); /* one that ended before its I/O */
    if (s->flow_held) /* what its threads did not take (a job that failed early) */
        sb_flow_unreserve(s->job->flow_id, atomic_load(&s->flow_reserved));
    exit_others(s);
    return NULL;
}

int sb_io_run_many(sb_io_run_slot *slots, size_t n, atomic_bool *end_all)
{
    bool ended = end_all && atomic_load(end_all);
    for (size_t i = 0; i < n; i++) {
        atomic_init(&slots[i].stop, ended);
        slots[i].all_slots = slots;
        slots[i].n_slots = n;
        slots[i].end_all = end_all;
        /* flow: every job's weight counted before any starts, as fio's start together */
        unsigned w = slots[i].job->flow * slots[i].job->numjobs;
        slots[i].flow_held = w && sb_flow_reserve(slots[i].job->flow_id, w) == 0;
        atomic_init(&slots[i].flow_reserved, slots[i].flow_held ? w : 0);
    }
    if (n == 1) {
        run_one(&slots[0]);
        return 0;
    }
    pthread_t tids[n];
    pthread_mutex_t prepare_lock = PTHREAD_MUTEX_INITIALIZER;
    sb_io_gate gate;
    int r = sb_io_gate_init(&gate, n);
    for (size_t i = 0; i < n; i++) {
        slots[i].prepare_lock = &prepare_lock;
        slots[i].start_gate = r == 0 ? &gate : NULL; /* out of memory: each starts when ready */
        slots[i].gate_index = i;
    }
    bool gated = r == 0;
    size_t started = 0;
    /* each job's controlling thread: a stack sized to need (its deepest, measured over
     * fio's examples, was 62 KiB: layout, verify's read-back, the live view), not glibc's
     * 8 MiB, so a thousand jobs fit in a 4 GB address space as fio's do */
    pthread_attr_t attr;
    r = -pthread_attr_init(&attr);
    if (!r)
        r = -pthread_attr_setstacksize(&attr, SB_IO_JOB_STACK);
    for (; !r && started < n; started++) {
        int e = pthread_create(&tids[started], &attr, run_one, &slots[started]);
        if (e) {
            r = -e;
            break;
        }
    }
    pthread_attr_destroy(&attr);
    for (size_t i = started; gated && i < n; i++) /* never started: no one waits for them */
        sb_io_gate_pass(&gate, i, false);
    for (size_t i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    if (gated)
        sb_io_gate_destroy(&gate);
    for (size_t i = started; i < n; i++) {
        slots[i].rc = r;
        snprintf(slots[i].err, sizeof slots[i].err, "cannot start the job's thread: %s", strerror(-r));
    }
    return r;
}
