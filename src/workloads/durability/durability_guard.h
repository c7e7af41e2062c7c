/*
 * durability_guard — the durability test's guardian and its journal: what makes
 * a killed run harmless (docs/workloads.md, durability, "If the run is killed").
 *
 * The guardian is a process forked at the start of each run, in a session of its
 * own (a kill of the run's process group or a terminal's Ctrl-C does not reach
 * it). It serves the FUSE recorder's file (durability_fuse.h), so the process
 * that writes through the recorded filesystem never serves it: when that process
 * is killed in the middle of an fsync, its last I/O still completes and it exits,
 * instead of waiting for ever on a server that was one of its own threads (tasks
 * in D state, and every `sync` on the machine with them). The run talks to it
 * over a socket; when the run is gone (the socket reads end-of-file, which it
 * does only once every thread of the run has exited) the guardian takes apart
 * whatever the run left in its private directory (dur_leftovers_remove) and exits.
 * If the guardian dies, the kernel aborts its FUSE connection, so nothing waits
 * on it either: the run's I/O fails and it stops with one line.
 *
 * The journal is a small file <state dir>/durability-<pid>-XXXXXX.state (state dir:
 * $STORBENCH_STATE_DIR, else /run/storbench, as `scenario run` uses) naming the run's
 * pid, the guardian's, its private directory and a device-mapper name; both
 * processes hold an flock on it while either lives. A journal found unlocked is
 * a killed run's whose guardian was killed too: the next `run durability` and
 * `storbench scenario cleanup` take apart what it names (dur_cleanup_stale) and
 * say so in one line.
 */
#ifndef SB_DURABILITY_GUARD_H
#define SB_DURABILITY_GUARD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct dur_guard {
    pid_t pid;                 /* the guardian, 0 when none */
    int sock;                  /* our end of its socket, -1 when none */
    int state_fd;              /* the journal, locked; -1 when none */
    char state_path[PATH_MAX];
} dur_guard;

/* Journals the private directory dir and forks the guardian. 0 or -errno (line in err). */
int dur_guard_start(dur_guard *g, const char *dir, char *err, size_t errlen);
/* Adds "kind value" to the journal (written and synced before returning). */
int dur_guard_note(dur_guard *g, const char *kind, const char *value);
/* The guardian serves image as mnt/disk, logging into log_path (dur_fuse_serve). */
int dur_guard_fuse_start(dur_guard *g, const char *image, const char *log_path, const char *mnt,
                         char *err, size_t errlen);
int dur_guard_mark(dur_guard *g, const char *text);
/* Ends the serving (dur_fuse_end): 0 or the first recording error (line in err). */
int dur_guard_fuse_stop(dur_guard *g, char *err, size_t errlen);
/* The run is over and has taken its stack apart: the guardian exits, the journal goes. */
void dur_guard_end(dur_guard *g);

/* What dur_leftovers_remove found and took apart. */
typedef struct dur_left {
    unsigned mounts, fuse, loops, dm;
    bool dir;                  /* the private directory was there and is removed */
    bool incomplete;           /* something could not be taken apart (still mounted, ...) */
} dur_left;

/* Takes apart what a run left in its private directory dir: aborts the FUSE
 * connections of the mounts in it (so nothing can wait on them any more), unmounts
 * the other mounts in it (lazily when busy), removes the device-mapper device dm
 * (may be "" or NULL), detaches the loop devices over files in it or over its FUSE
 * files, unmounts its FUSE mounts and removes the directory. Safe to call on what
 * is already gone. */
void dur_leftovers_remove(const char *dir, const char *dm, dur_left *left);

/* Reads a journal (from its start): the run's pid, the guardian's (0 when not yet
 * journaled), the private directory and the device-mapper name ("" when none).
 * 0, or -EINVAL when it is not a journal. */
int dur_journal_read(int fd, long *pid, long *gpid, char *dir, size_t dirlen, char *dm, size_t dmlen);
/* The directory journals live in (created 0700 when missing, by the callers that write). */
const char *dur_state_dir(void);
/* Takes apart what every killed run named in an unlocked journal left, removes the
 * journals, and hands one line per such run to say (may be NULL). Returns how many. */
unsigned dur_cleanup_stale(void (*say)(void *arg, const char *line), void *arg);

#endif
