/*
 * sysundo (private to src/io/) — the journal of the system settings a job changes for
 * its run and puts back after (system.c): a device's I/O scheduler, a cgroup made for
 * the job. Each line is written and synced before the change, so that a run killed
 * outright (SIGKILL, a crash) leaves a journal the next job that starts puts back: the
 * scheduler that was there, the cgroup removed (an empty one: the killed run's process
 * left it with its death). A journal is <state dir>/io-<pid>-XXXXXX.undo (core/journal.h),
 * locked while its job runs, removed once the job has put everything back.
 */
#ifndef SB_IO_RUN_SYSUNDO_H
#define SB_IO_RUN_SYSUNDO_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct sb_io_undo {
    int fd; /* -1 when none is open */
    char path[PATH_MAX];
} sb_io_undo;

/* The line kinds: "sched FILE OLD" (FILE a /sys/.../queue/scheduler, OLD the scheduler
 * to write back), "cgroup DIR" (a cgroup directory the job made, removed when empty). */
#define SB_IO_UNDO_SCHED "sched"
#define SB_IO_UNDO_CGROUP "cgroup"

/* Creates and locks this job's journal (when none is open yet). 0, or -errno with one
 * line in err. */
int sb_io_undo_open(sb_io_undo *u, char *err, size_t errlen);
/* Appends one line (kind, a, b: no tab or newline in them) and syncs it. 0 or -errno. */
int sb_io_undo_add(sb_io_undo *u, const char *kind, const char *a, const char *b);
/* The job is over: its journal goes when all_back (it put everything back), else it
 * stays, unlocked, for the next job to try again. Safe on one never opened. */
void sb_io_undo_done(sb_io_undo *u, bool all_back);
/* Puts back what every dead run's journal names and removes those journals; what was
 * done is said on log (NULL: nothing said). How many journals were replayed. */
int sb_io_undo_replay_stale(FILE *log);

#endif
