/*
 * journal — where a run writes down what it changes outside itself before it changes
 * it, so that what a SIGKILL leaves can be taken apart by the next run. Each journal is
 * a file in the state directory ($STORBENCH_STATE_DIR, else /run/storbench, 0700) that
 * its run holds an flock on while it is alive; the kernel drops the lock with the
 * process, so an unlocked journal whose pid (in its name) is gone belongs to a dead run.
 * The scenario runs' journals (scenario/state.c) and the I/O jobs' system settings
 * (io/run/sysundo.c) both live there, each with its own name prefix and line kinds.
 */
#ifndef SB_CORE_JOURNAL_H
#define SB_CORE_JOURNAL_H

#include <stdbool.h>

/* The directory journals live in. */
const char *sb_journal_dir(void);
/* Makes the directory (0700) when it is missing. 0 or -errno. */
int sb_journal_dir_make(void);
/* Whether process pid lives: a zombie does not (it has exited and closed everything;
 * only its parent has yet to reap it). */
bool sb_journal_pid_lives(long pid);
/* The journal at path of a dead run, opened read-only and locked (so that no other
 * cleaner replays it at the same time), or -1 when its run is alive: it holds the lock,
 * or its pid lives (a run between creating its journal and locking it). pid is the
 * run's, from the journal's name; a journal of this process is taken as dead. */
int sb_journal_lock_stale(const char *path, long pid);
/* Whether the journal at path is held by a live run (its lock is taken). */
bool sb_journal_locked(const char *path);

#endif
