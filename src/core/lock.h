/*
 * lock — the exclusive lock a shared file (a result file) is changed under,
 * so that commands started together (several `run`s into one --result, an
 * `import` or `merge` during a `run`) each add to what the others saved
 * instead of replacing it. The lock is flock(2) on an empty lock file beside
 * the file as it is named, ".NAME.lock" (flock on a file works on NFS, where
 * a lock on a directory would not). When NAME is a symlink the lock stays
 * beside the link: a lock file is never made where a link points (in a
 * sticky /tmp that could be anywhere), at the price that two different
 * links to one file do not exclude each other. The kernel drops the lock when its holder
 * dies, SIGKILL included; the holder removes the lock file before it lets go
 * (a waiter that opened the old one notices it was removed and takes the new
 * one), so no lock file outlives a save except where SIGKILL left one behind,
 * which the next save takes over and removes.
 *
 * Waits are bounded: a save holds the lock for milliseconds, so a wait longer
 * than a second is announced (the caller prints it, naming the holder's pid
 * from /proc/locks) and one longer than the bound (STORBENCH_LOCK_TIMEOUT
 * seconds, default 300) gives up with -ETIMEDOUT. Signals do not end a wait:
 * a command that has begun saving finishes (docs/architecture.md, "Interruption").
 */
#ifndef SB_LOCK_H
#define SB_LOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The default bound of a wait, in seconds, when STORBENCH_LOCK_TIMEOUT is not set. */
#define SB_LOCK_DEFAULT_TIMEOUT_S 300

typedef struct sb_lock {
    int fd;              /* -1 when not held */
    dev_t dev;           /* the lock file's identity, checked before it is removed */
    ino_t ino;
    char path[4096];     /* the lock file */
} sb_lock;

typedef struct sb_lock_wait {
    /* The bound in milliseconds; 0: STORBENCH_LOCK_TIMEOUT, else the default. */
    unsigned timeout_ms;
    /* Called once when the wait has lasted a second: the lock file and its holder's pid
     * (0 when /proc/locks does not show it, e.g. a holder on another NFS client). */
    void (*waiting)(void *arg, const char *lock_path, long holder);
    void *arg;
} sb_lock_wait;

/* The lock file of path: ".BASE.lock" in path's directory (symlinks not followed). 0 or
 * -errno. */
int sb_lock_path(const char *path, char *out, size_t len);

/* Takes the lock of path (w may be NULL: default bound, nothing announced), creating the
 * directory the file is in when it is missing. 0, or -errno with one line in err:
 * -ETIMEDOUT after the bound (naming the holder), -ELOOP when the lock file is a symlink,
 * -EINVAL when it is not a regular file, or why the lock file could not be opened. */
int sb_lock_take(sb_lock *l, const char *path, const sb_lock_wait *w, char *err, size_t errlen);

/* Removes the lock file and lets the lock go. Safe on a lock not held. */
void sb_lock_release(sb_lock *l);

/* The pid holding a flock(2) lock on the file fd is open on, from /proc/locks: > 0, or 0
 * when none is shown. */
long sb_lock_holder(int fd);

/* The bound of a wait: STORBENCH_LOCK_TIMEOUT (seconds, a decimal number > 0), else
 * SB_LOCK_DEFAULT_TIMEOUT_S; in milliseconds. */
unsigned sb_lock_timeout_ms(void);

#endif
