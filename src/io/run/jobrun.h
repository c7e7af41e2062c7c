/*
 * jobrun — several I/O jobs at once: the jobs of one phase of a job file (between two
 * of fio's barriers, jobfile.h) each run by sb_io_run() on a thread of its own, all
 * started together and all waited for, as fio starts the jobs between two stonewalls
 * together: each lays out its files (one job at a time, prepare_lock) and then waits at
 * the phase's gate (gate.h) until every job has, so their runtimes start together, as
 * fio's. Each job keeps its own files, threads, clock and result; the CPU figures
 * of each are the process's over its own run, so when jobs overlap they include
 * each other's.
 *
 * fio's exitall: when a job that has it ends, the jobs exit_what names end too: those
 * of its reporting group (group), every job of the phase (stonewall), or every job of
 * the phase and of every later phase, which then end as soon as they start (all, and
 * exitall_on_error when a job fails). Ended so, a job reports what it did until then;
 * it is not interrupted.
 */
#ifndef SB_IO_JOBRUN_H
#define SB_IO_JOBRUN_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "io/job.h"
#include "io/run/live.h"

#define SB_IO_JOB_STACK (512u << 10) /* a job's controlling thread's stack (jobrun.c) */

typedef struct sb_io_run_slot {
    const sb_io_job *job;
    unsigned group;        /* the job's reporting group: exit_what=group's jobs */
    sb_io_result result;   /* filled when rc is 0 (or a verify mismatch, as sb_io_run) */
    int rc;
    char err[1024];
    sb_io_live *live;      /* the caller's live view of the job (live.h), or NULL */
    /* jobrun.c's own: the copy that runs (its stop_ext is stop) and the phase's slots */
    sb_io_job run;
    atomic_bool stop;
    _Atomic(unsigned) flow_reserved; /* the job's flow weight counted before it starts */
    bool flow_held;                  /* that reservation was made */
    pthread_mutex_t *prepare_lock;   /* the phase's (job.h) */
    struct sb_io_gate *start_gate;   /* the phase's (gate.h), and this job's place there */
    size_t gate_index;
    struct sb_io_run_slot *all_slots;
    size_t n_slots;
    atomic_bool *end_all;
} sb_io_run_slot;

/* Runs slots[0..n) at once (one alone on the calling thread). end_all (may be NULL): set
 * when exit_what=all or exitall_on_error ended every job; when already set the jobs end
 * as soon as they start. 0, or -errno when a thread could not be started (the jobs
 * already started are waited for; the rest get rc). */
int sb_io_run_many(sb_io_run_slot *slots, size_t n, atomic_bool *end_all);

#endif
