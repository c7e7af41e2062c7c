/*
 * engine_mmap — the file mapped shared into memory (each of a thread's files its own
 * mapping, as fio's); a read copies from the mapping into the buffer, a write copies into
 * the mapping, fsync is msync.
 * Synchronous; page faults are the I/O. With direct=1 the file is opened
 * O_DIRECT and mapped all the same (as fio), the copies going through the
 * page cache. As fio's engine, the mapping is advised with the job's pattern
 * (MADV_RANDOM for a random job, so a fault reads its page and no read-around;
 * MADV_SEQUENTIAL else) unless fadvise_hint=0. The cache is dropped before
 * the run, not mapped yet; a pass's end drops nothing that is mapped, in
 * either tool (a time-based random read job reads its file from the device
 * once, then from the cache).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "io/engine.h"
#include "io/job.h"

/* A thread's mappings: one per file (several files per job: td->fds), as fio's per file. */
typedef struct mmap_data {
    unsigned n;
    struct { char *p; uint64_t len; } m[];
} mmap_data;

static void unmap_all(mmap_data *d)
{
    for (unsigned k = 0; k < d->n; k++)
        if (d->m[k].p)
            munmap(d->m[k].p, d->m[k].len);
    free(d);
}

/* One file mapped: the job's region (offset + size); of several files, each at least
 * as far as it is long (filesize=LO-HI: each file its own size, the region the first's). */
static int map_one(sb_engine_td *td, int fd, char **out, uint64_t *len)
{
    uint64_t n = td->file_size;
    struct stat st;
    if (td->fds && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > n)
        n = (uint64_t)st.st_size;
    void *p = mmap(NULL, n, td->writes ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        return -errno;
    *out = p;
    *len = n;
    /* fio's thp: the mapping backed by transparent huge pages where the file system can */
    if (td->job && td->job->mmap_thp && madvise(p, n, MADV_HUGEPAGE) < 0)
        return -errno;
    /* fio advises the mapping by the job's pattern whenever fadvise_hint is not 0 */
    if (td->job && td->job->fadvise_hint != SB_FADVISE_NONE &&
        madvise(p, n, sb_rw_is_random(td->job->rw) ? MADV_RANDOM : MADV_SEQUENTIAL) < 0)
        return -errno;
    return 0;
}

static int mmap_init(sb_engine_td *td)
{
    if (td->file_size == 0)
        return -EINVAL;
    unsigned n = td->fds ? td->nfds : 1;
    mmap_data *d = calloc(1, sizeof *d + n * sizeof d->m[0]);
    if (!d)
        return -ENOMEM;
    d->n = n;
    for (unsigned k = 0; k < n; k++) {
        int r = map_one(td, td->fds ? td->fds[k] : td->fd, &d->m[k].p, &d->m[k].len);
        if (r < 0) {
            unmap_all(d);
            return r;
        }
    }
    td->data = d;
    return 0;
}

static int mmap_queue(sb_engine_td *td, sb_io_u *u)
{
    mmap_data *d = td->data;
    unsigned k = td->fds ? td->file : 0;
    if (u->offset + u->len > d->m[k].len) {
        u->result = -EINVAL;
        return SB_Q_COMPLETED;
    }
    if (u->ddir == SB_DDIR_READ)
        memcpy(u->buf, d->m[k].p + u->offset, u->len);
    else
        memcpy(d->m[k].p + u->offset, u->buf, u->len);
    u->result = u->len;
    return SB_Q_COMPLETED;
}

/* the file in use's mapping (the worker's end_fsync goes over each file in turn) */
static int mmap_fsync(sb_engine_td *td)
{
    mmap_data *d = td->data;
    unsigned k = td->fds ? td->file : 0;
    return msync(d->m[k].p, d->m[k].len, MS_SYNC) < 0 ? -errno : 0;
}

static void mmap_cleanup(sb_engine_td *td)
{
    if (td->data)
        unmap_all(td->data);
    td->data = NULL;
}

static const char *const mmap_options[] = {"thp", NULL};
const sb_engine_ops sb_engine_mmap = {
    .name = "mmap",
    .rank = 5,
    .caps = SB_ENGINE_MAPS,
    .options = mmap_options,
    .description = "memory-mapped file, memcpy, msync",
    .sync = true,
    .init = mmap_init,
    .queue = mmap_queue,
    .fsync = mmap_fsync,
    .cleanup = mmap_cleanup,
};
SB_ENGINE_REGISTER(sb_engine_mmap);
