/*
 * engine_psync — synchronous pread(2)/pwrite(2), one I/O per call, iodepth 1.
 * The reference point every other engine is compared with: one syscall per
 * I/O and nothing else.
 */
#include <errno.h>
#include <unistd.h>

#include "io/engine.h"
#include "io/job.h"

static int psync_init(sb_engine_td *td) { return 0; }

static int psync_queue(sb_engine_td *td, sb_io_u *u)
{
    ssize_t n;
    do {
        n = u->ddir == SB_DDIR_READ ? pread(td->fd, u->buf, u->len, (off_t)u->offset)
                                    : pwrite(td->fd, u->buf, u->len, (off_t)u->offset);
    } while (n < 0 && errno == EINTR);
    u->result = n < 0 ? -errno : n;
    return SB_Q_COMPLETED;
}

static void psync_cleanup(sb_engine_td *td) {}

const sb_engine_ops sb_engine_psync = {
    .name = "psync",
    .description = "pread/pwrite, synchronous",
    .sync = true,
    .init = psync_init,
    .queue = psync_queue,
    .fsync = sb_engine_fsync_fd,
    .cleanup = psync_cleanup,
};
