/*
 * jobrun — several I/O jobs at once: the jobs of one phase of a job file (between two
 * of fio's barriers, jobfile.h) each run by sb_io_run() on a thread of its own, all
 * started together and all waited for, as fio starts the jobs between two stonewalls
 * together. Each job keeps its own files, threads, clock and result; the CPU figures
 * of each are the process's over its own run, so when jobs overlap they include
 * each other's.
 */
#ifndef SB_IO_JOBRUN_H
#define SB_IO_JOBRUN_H

#include <stddef.h>

#include "io/job.h"

typedef struct sb_io_run_slot {
    const sb_io_job *job;
    sb_io_result result;   /* filled when rc is 0 (or a verify mismatch, as sb_io_run) */
    int rc;
    char err[1024];
} sb_io_run_slot;

/* Runs slots[0..n) at once (one alone on the calling thread). 0, or -errno when a thread
 * could not be started (the jobs already started are waited for; the rest get rc). */
int sb_io_run_many(sb_io_run_slot *slots, size_t n);

#endif
