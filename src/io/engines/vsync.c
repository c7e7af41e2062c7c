/*
 * engine_vsync — fio's vsync: readv(2)/writev(2) of one iovec after an lseek(2), the
 * vectored twin of the sync engine (two syscalls per I/O, the lseek skipped when the
 * file position is already where the I/O starts). fio's vsync has code to gather I/Os
 * that follow each other into one readv, but as a synchronous engine its queue depth is
 * capped at 1 (fio 3.33 says so, and issues one readv of one iovec per I/O at any
 * iodepth): the same here.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "io/engine.h"
#include "io/job.h"

typedef struct vsync_data {
    uint64_t pos; /* where the kernel's file position is; UINT64_MAX = unknown */
    int fd;       /* ... of this descriptor (a job with several files switches) */
} vsync_data;

static int vsync_init(sb_engine_td *td)
{
    vsync_data *d = calloc(1, sizeof *d);
    if (!d)
        return -ENOMEM;
    d->pos = UINT64_MAX;
    td->data = d;
    return 0;
}

static int vsync_queue(sb_engine_td *td, sb_io_u *u)
{
    vsync_data *d = td->data;
    if ((d->pos != u->offset || d->fd != td->fd) && lseek(td->fd, (off_t)u->offset, SEEK_SET) < 0) {
        u->result = -errno;
        d->pos = UINT64_MAX;
        return SB_Q_COMPLETED;
    }
    struct iovec iov = {u->buf, (size_t)u->len};
    long n;
    do {
        n = syscall(u->ddir == SB_DDIR_READ ? SYS_readv : SYS_writev, td->fd, &iov, 1);
    } while (n < 0 && errno == EINTR);
    u->result = n < 0 ? -errno : n;
    d->pos = n < 0 ? UINT64_MAX : u->offset + (uint64_t)n;
    d->fd = td->fd;
    return SB_Q_COMPLETED;
}

const sb_engine_ops sb_engine_vsync = {
    .name = "vsync",
    .rank = 9,
    .description = "lseek + readv/writev of one iovec, synchronous",
    .sync = true,
    .fd_own_thread = true,
    .init = vsync_init,
    .queue = vsync_queue,
    .fsync = sb_engine_fsync_fd,
    .cleanup = sb_engine_cleanup_free,
};
SB_ENGINE_REGISTER(sb_engine_vsync);
