/*
 * state — the journal of what a scenario run has created (image files, loop
 * devices, mounts, mount-point directories, bcache devices, the nbdkit servers of --vm modeled disks), so that anything
 * can be undone: by the run itself after each configuration (success, failure
 * or Ctrl-C), and by `storbench scenario cleanup` after a run that was killed.
 *
 * Each run keeps one file <state dir>/scenario-<pid>.state (state dir:
 * $STORBENCH_STATE_DIR, else /run/storbench), holds an flock on it while it is
 * alive, and appends one line per object *before* creating it (after, for a
 * loop device, whose number is known only then) and fsyncs. Undoing appends
 * an "undo N" line; an object is undone only if it still is what the journal
 * says (a loop device still backed by our image, a directory still mounted),
 * so a number reused by somebody else is never touched.
 */
#ifndef SB_SCENARIO_STATE_H
#define SB_SCENARIO_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "scenario/undo.h" /* the kinds of objects (SB_ST_*) */

typedef struct sb_state_item {
    char kind[16];
    char a[4096];
    char b[4096];
    bool undone;
} sb_state_item;

typedef struct sb_state {
    char path[4096];
    int fd;                /* -1 when closed */
    size_t n, cap;
    sb_state_item *items;
} sb_state;

/* Creates this process's state file and locks it. 0 or -errno, one line in err. */
int sb_state_open(sb_state *st, char *err, size_t errlen);
/* Journals an object (written and fsynced before returning). 0 or -errno. */
int sb_state_add(sb_state *st, const char *kind, const char *a, const char *b);
/* Undoes every object from index `from` on, newest first. Lines for what was done go to
 * log (may be NULL). Continues past failures; returns 0 or the first -errno, whose line
 * is in err. */
int sb_state_undo(sb_state *st, size_t from, FILE *log, char *err, size_t errlen);
/* Removes the state file (when everything was undone) and frees. */
void sb_state_close(sb_state *st);

/* `scenario cleanup`: undoes the journals of runs that are no longer alive and removes
 * their state files. *found counts the stale journals, *busy the live runs skipped.
 * 0 or the first -errno (line in err); continues past failures. */
int sb_state_cleanup(FILE *log, unsigned *found, unsigned *busy, char *err, size_t errlen);
/* True when a live scenario run with this pid holds its state file. */
bool sb_state_pid_alive(long pid);
/* Removes from dir what dead runs left that no journal names (after a reboot the journals
 * in /run are gone): image files "storbench-scn-<pid>-*.img" not attached to a loop device
 * and empty mount-point directories "storbench-mnt-<pid>-*", for pids whose run is not
 * alive. *removed counts them. 0 or the first -errno (line in err). */
int sb_state_sweep_dir(const char *dir, FILE *log, unsigned *removed, char *err, size_t errlen);

#endif
