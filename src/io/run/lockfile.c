/*
 * lockfile — fio's lockfile: a lock per file, shared by every thread of the run that
 * uses the file (found by device and inode, as fio shares one lock among the jobs of a
 * file name), taken around each I/O's submission as fio's td_io_prep .. td_io_queue:
 * for a synchronous engine the whole I/O, for an asynchronous one its queueing.
 * exclusive: one I/O at a time on the file; readwrite: reads share it, a write (or trim)
 * holds it alone. A thread of several files (nrfiles, filename=a:b) has a lock for each,
 * and each I/O takes the one of the file it goes to, as fio's lock_file() takes the
 * io_u's file's: I/Os on different files never wait for each other. The hot loop is not
 * touched: the worker's engine table becomes a copy whose queue takes the lock, calls
 * the engine's own and gives the lock back.
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/run/worker.h"

typedef struct sb_io_flock {
    struct sb_io_flock *next;
    dev_t dev;
    ino_t ino;
    unsigned refs;
    pthread_mutex_t mx;        /* exclusive */
    pthread_rwlock_t rw;       /* readwrite */
} sb_io_flock;

/* The run's file locks (a list, searched once per thread and file at set-up), under
 * registry_mx. */
static pthread_mutex_t registry_mx = PTHREAD_MUTEX_INITIALIZER;
static sb_io_flock *registry;

/* The lock of the file the I/O goes to: the one in use (files.c made its descriptor
 * td's before the I/O was prepared), else the one whose descriptor td has. */
static sb_io_flock *file_lock(const worker *w, int fd)
{
    const sb_io_fileset *fs = w->fs;
    if (!fs)
        return w->flock[0];
    if (fs->f[fs->cur].fd == fd)
        return w->flock[fs->cur];
    for (unsigned k = 0; k < fs->n; k++)
        if (fs->f[k].fd == fd)
            return w->flock[k];
    return w->flock[fs->cur];
}

static int locked_queue(sb_engine_td *td, sb_io_u *u)
{
    worker *w = (worker *)((char *)td - offsetof(worker, td));
    sb_io_flock *l = file_lock(w, td->fd);
    bool rw = w->job->lockfile == SB_LOCKFILE_READWRITE;
    if (!rw)
        pthread_mutex_lock(&l->mx);
    else if (u->ddir == SB_DDIR_READ)
        pthread_rwlock_rdlock(&l->rw);
    else
        pthread_rwlock_wrlock(&l->rw);
    int r = w->flock_real->queue(td, u);
    if (rw)
        pthread_rwlock_unlock(&l->rw);
    else
        pthread_mutex_unlock(&l->mx);
    return r;
}

/* The run's lock of the file open at fd (made on first use), one reference more. */
static int lock_of(int fd, const char *path, sb_io_flock **out, char *err, size_t errlen)
{
    struct stat st;
    if (fstat(fd, &st) < 0) {
        int e = errno;
        snprintf(err, errlen, "lockfile: %s: %s", path, strerror(e));
        return -e;
    }
    pthread_mutex_lock(&registry_mx);
    sb_io_flock *l = registry;
    while (l && !(l->dev == st.st_dev && l->ino == st.st_ino))
        l = l->next;
    if (!l && (l = calloc(1, sizeof *l))) {
        l->dev = st.st_dev;
        l->ino = st.st_ino;
        pthread_mutex_init(&l->mx, NULL);
        pthread_rwlock_init(&l->rw, NULL);
        l->next = registry;
        registry = l;
    }
    if (l)
        l->refs++;
    pthread_mutex_unlock(&registry_mx);
    if (!l) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    *out = l;
    return 0;
}

/* One reference to l given back; the last frees it. */
static void lock_put(sb_io_flock *l)
{
    pthread_mutex_lock(&registry_mx);
    if (--l->refs == 0) {
        sb_io_flock **p = &registry;
        while (*p != l)
            p = &(*p)->next;
        *p = l->next;
        pthread_mutex_destroy(&l->mx);
        pthread_rwlock_destroy(&l->rw);
        free(l);
    }
    pthread_mutex_unlock(&registry_mx);
}

int sb_io_flock_attach(worker *w, char *err, size_t errlen)
{
    unsigned n = w->fs ? w->fs->n : 1;
    if (!(w->flock = calloc(n, sizeof *w->flock))) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    for (unsigned k = 0; k < n; k++) {
        int r = lock_of(w->fs ? w->fs->f[k].fd : w->fd, w->path, &w->flock[k], err, errlen);
        if (r < 0)
            return r; /* the ones taken go back in sb_io_flock_detach */
        w->nflock = k + 1;
    }
    w->flock_real = w->td.ops;
    w->flock_ops = *w->td.ops;
    w->flock_ops.queue = locked_queue;
    w->td.ops = &w->flock_ops;
    return 0;
}

void sb_io_flock_detach(worker *w)
{
    for (unsigned k = 0; k < w->nflock; k++)
        lock_put(w->flock[k]);
    free(w->flock);
    w->flock = NULL;
    w->nflock = 0;
}
