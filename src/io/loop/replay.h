/*
 * replay (private to src/io/) — fio's write_iolog and read_iolog in a job: the job's
 * copy made to replay its log (the file, the directions, the buffers' size; the log
 * checked whole first unless read_iolog_chunked, merged first with merge_blktrace_file),
 * and, per thread, the source of its I/Os. The choice is made once per thread: a thread
 * with neither option has w->iolog NULL and the hot loop pays one test it already makes
 * (next_io's rare paths, loop.c).
 */
#ifndef SB_IO_LOOP_REPLAY_H
#define SB_IO_LOOP_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "io/job.h"

struct worker;
struct sb_io_u;

/* The job as it replays read_iolog (job is the run's own copy): 0 when it has none or it
 * is ready, -EINVAL / -errno with one line in err. */
int sb_io_replay_job(sb_io_job *job, char *err, size_t errlen);
/* A thread's log to write and log to read (path: the file its I/Os go to). 0 or -errno. */
int sb_io_iolog_setup(struct worker *w, const char *path, char *err, size_t errlen);
/* The next I/O of a thread with w->iolog set (next_io's contract, loop.c). */
bool sb_io_iolog_next(struct worker *w, struct sb_io_u *u);
/* A sync was issued (write_iolog logs it). */
void sb_io_iolog_sync(struct worker *w, bool data_only);
/* The thread's end: the written log closed (its error into w->err when the job had none)
 * and the replay's state freed. Safe to call twice. */
void sb_io_iolog_end(struct worker *w);

#endif
