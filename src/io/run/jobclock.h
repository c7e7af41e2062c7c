/*
 * jobclock (private to src/io/) — the clock a job's threads time their I/O with:
 * fio's clocksource (clock_gettime, gettimeofday, cpu) and gtod_cpu, whose thread,
 * pinned to that CPU, reads gettimeofday without pause into a time the job threads
 * read instead of any clock (fio's gettime-thread.c). One such thread serves every job
 * of the process that runs at the time (fio has one for the run); its CPUs are the
 * ones the jobs name, together, and it ends when the last of them ends.
 */
#ifndef SB_IO_RUN_JOBCLOCK_H
#define SB_IO_RUN_JOBCLOCK_H

#include <stddef.h>

#include "core/clock.h"
#include "io/job.h"

/* The job's clock into c (and the time thread taken when the job has gtod_cpu: give it
 * back with sb_io_jobclock_end). 0, or -errno with one line in err (the thread could not
 * be pinned to that CPU; no TSC). */
int sb_io_jobclock_begin(const sb_io_job *job, sb_clock *c, char *err, size_t errlen);
void sb_io_jobclock_end(const sb_io_job *job);

#endif
