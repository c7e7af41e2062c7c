/*
 * engine_splice — fio's splice: the data goes through a pipe instead of a read(2) or
 * write(2) of the buffer. A read splices the file's range into the pipe (splice(2)) and
 * takes it out into the buffer with vmsplice(2); a write puts the buffer into the pipe
 * with vmsplice and splices the pipe into the file at the I/O's offset. At most one
 * pipe's worth (F_GETPIPE_SZ) moves per round, so a block larger than the pipe takes
 * several. Synchronous, iodepth 1. A file system without splice fails the first I/O
 * with EINVAL, as fio's (which then says "looks like splice doesn't work").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#include "io/engine.h"
#include "io/job.h"

typedef struct splice_data {
    int pipe[2];  /* [0] read end, [1] write end */
    size_t chunk; /* the pipe's capacity: what one round moves at most */
} splice_data;

static int spl_init(sb_engine_td *td)
{
    splice_data *d = calloc(1, sizeof *d);
    if (!d)
        return -ENOMEM;
    if (pipe2(d->pipe, O_CLOEXEC) < 0) {
        int e = errno;
        free(d);
        return -e;
    }
    int sz = fcntl(d->pipe[1], F_GETPIPE_SZ);
    d->chunk = sz > 0 ? (size_t)sz : 65536;
    td->data = d;
    return 0;
}

/* Drains n bytes of the pipe into p (vmsplice of the read end copies them out). */
static int64_t spl_drain(splice_data *d, char *p, size_t n)
{
    while (n) {
        struct iovec iov = {p, n};
        ssize_t r = vmsplice(d->pipe[0], &iov, 1, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return r < 0 ? -errno : -ENODATA;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

static int64_t spl_read(sb_engine_td *td, splice_data *d, sb_io_u *u)
{
    loff_t off = (loff_t)u->offset;
    size_t left = u->len;
    char *p = u->buf;
    while (left) {
        size_t want = left < d->chunk ? left : d->chunk;
        ssize_t r = splice(td->fd, &off, d->pipe[1], NULL, want, left > want ? SPLICE_F_MORE : 0);
        if (r < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (r < 0)
            return -errno;
        if (r == 0) /* end of file: a short read, as read(2) would give */
            break;
        int64_t e = spl_drain(d, p, (size_t)r);
        if (e < 0)
            return e;
        p += r;
        left -= (size_t)r;
    }
    return (int64_t)(u->len - left);
}

static int64_t spl_write(sb_engine_td *td, splice_data *d, sb_io_u *u)
{
    loff_t off = (loff_t)u->offset;
    size_t left = u->len;
    char *p = u->buf;
    while (left) {
        struct iovec iov = {p, left < d->chunk ? left : d->chunk};
        ssize_t in = vmsplice(d->pipe[1], &iov, 1, SPLICE_F_NONBLOCK); /* the pipe is empty: some fits */
        if (in < 0 && errno == EINTR)
            continue;
        if (in < 0)
            return -errno;
        for (ssize_t out = in; out > 0;) {
            ssize_t r = splice(d->pipe[0], NULL, td->fd, &off, (size_t)out, 0);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                return r < 0 ? -errno : -EIO;
            out -= r;
        }
        p += in;
        left -= (size_t)in;
    }
    return u->len;
}

static int spl_queue(sb_engine_td *td, sb_io_u *u)
{
    splice_data *d = td->data;
    u->result = u->ddir == SB_DDIR_READ ? spl_read(td, d, u) : spl_write(td, d, u);
    return SB_Q_COMPLETED;
}

static void spl_cleanup(sb_engine_td *td)
{
    splice_data *d = td->data;
    if (!d)
        return;
    close(d->pipe[0]);
    close(d->pipe[1]);
    free(d);
    td->data = NULL;
}

const sb_engine_ops sb_engine_splice = {
    .name = "splice",
    .rank = 12,
    .description = "splice/vmsplice through a pipe, synchronous",
    .sync = true,
    .fd_own_thread = true,
    .init = spl_init,
    .queue = spl_queue,
    .fsync = sb_engine_fsync_fd,
    .cleanup = spl_cleanup,
};
SB_ENGINE_REGISTER(sb_engine_splice);
