/*
 * engine_sync — synchronous read(2)/write(2) after lseek(2), as fio's "sync"
 * engine: two syscalls per I/O. The lseek is skipped when the file position is
 * already where the I/O starts (sequential jobs), as fio does. read/write go
 * through syscall(2), as in engine_psync.c (no cancellation-point wrapper).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "io/engine.h"
#include "io/job.h"

typedef struct sync_data {
    uint64_t pos;   /* where the kernel's file position is; UINT64_MAX = unknown */
    int fd;         /* ... of this descriptor (a job with several files switches) */
} sync_data;

static int sync_init(sb_engine_td *td)
{
    sync_data *d = calloc(1, sizeof *d);
    if (!d)
        return -ENOMEM;
    d->pos = UINT64_MAX;
    td->data = d;
    return 0;
}

static int sync_queue(sb_engine_td *td, sb_io_u *u)
{
    sync_data *d = td->data;
    if (d->pos != u->offset || d->fd != td->fd) {
        if (lseek(td->fd, (off_t)u->offset, SEEK_SET) < 0) {
            u->result = -errno;
            d->pos = UINT64_MAX;
            return SB_Q_COMPLETED;
        }
    }
    long n;
    do {
        n = syscall(u->ddir == SB_DDIR_READ ? SYS_read : SYS_write, td->fd, u->buf, (size_t)u->len);
    } while (n < 0 && errno == EINTR);
    u->result = n < 0 ? -errno : n;
    d->pos = n < 0 ? UINT64_MAX : u->offset + (uint64_t)n;
    d->fd = td->fd;
    return SB_Q_COMPLETED;
}

const sb_engine_ops sb_engine_sync = {
    .name = "sync",
    .rank = 1,
    .description = "lseek + read/write, synchronous",
    .sync = true,
    .fd_own_thread = true,
    .init = sync_init,
    .queue = sync_queue,
    .fsync = sb_engine_fsync_fd,
    .cleanup = sb_engine_cleanup_free,
};
SB_ENGINE_REGISTER(sb_engine_sync);
