/*
 * engine_mmap — the file mapped shared into memory; a read copies from the
 * mapping into the buffer, a write copies into the mapping, fsync is msync.
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
#include <string.h>
#include <sys/mman.h>

#include "io/engine.h"
#include "io/job.h"

static int mmap_init(sb_engine_td *td)
{
    if (td->file_size == 0)
        return -EINVAL;
    void *p = mmap(NULL, td->file_size, td->writes ? PROT_READ | PROT_WRITE : PROT_READ,
                   MAP_SHARED, td->fd, 0);
    if (p == MAP_FAILED)
        return -errno;
    /* fio's thp: the mapping backed by transparent huge pages where the file system can */
    if (td->job && td->job->mmap_thp && madvise(p, td->file_size, MADV_HUGEPAGE) < 0) {
        int e = errno;
        munmap(p, td->file_size);
        return -e;
    }
    /* fio advises the mapping by the job's pattern whenever fadvise_hint is not 0 */
    if (td->job && td->job->fadvise_hint != SB_FADVISE_NONE &&
        madvise(p, td->file_size, sb_rw_is_random(td->job->rw) ? MADV_RANDOM : MADV_SEQUENTIAL) < 0) {
        int e = errno;
        munmap(p, td->file_size);
        return -e;
    }
    td->data = p;
    return 0;
}

static int mmap_queue(sb_engine_td *td, sb_io_u *u)
{
    char *base = td->data;
    if (u->offset + u->len > td->file_size) {
        u->result = -EINVAL;
        return SB_Q_COMPLETED;
    }
    if (u->ddir == SB_DDIR_READ)
        memcpy(u->buf, base + u->offset, u->len);
    else
        memcpy(base + u->offset, u->buf, u->len);
    u->result = u->len;
    return SB_Q_COMPLETED;
}

static int mmap_fsync(sb_engine_td *td)
{
    return msync(td->data, td->file_size, MS_SYNC) < 0 ? -errno : 0;
}

static void mmap_cleanup(sb_engine_td *td)
{
    if (td->data)
        munmap(td->data, td->file_size);
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
