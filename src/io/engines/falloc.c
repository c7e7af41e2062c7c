/*
 * engine_falloc — fio's falloc: no data moves; each I/O is one fallocate(2) of its
 * range. A write allocates it (mode 0: the file grows to cover it), a read allocates
 * it without changing the size (FALLOC_FL_KEEP_SIZE), and a trim punches it out
 * (PUNCH_HOLE | KEEP_SIZE) — the trim every engine does through the worker (job/trim.c),
 * which is already that call on a file. It measures the file system's allocator.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>

#include "io/engine.h"
#include "io/job.h"

static int fal_queue(sb_engine_td *td, sb_io_u *u)
{
    int mode = u->ddir == SB_DDIR_READ ? FALLOC_FL_KEEP_SIZE : 0;
    int r;
    do {
        r = fallocate(td->fd, mode, (off_t)u->offset, (off_t)u->len);
    } while (r < 0 && errno == EINTR);
    u->result = r < 0 ? -errno : (int64_t)u->len;
    return SB_Q_COMPLETED;
}

/* fallocate is Linux 2.6.23, but a file system may lack it: that shows at the first I/O */
const sb_engine_ops sb_engine_falloc = {
    .name = "falloc",
    .rank = 10,
    .caps = SB_ENGINE_ALLOCATES | SB_ENGINE_NO_DATA,
    .description = "each I/O a fallocate of its range (write allocates, trim punches), synchronous",
    .sync = true,
    .fd_own_thread = true,
    .init = sb_engine_init_none,
    .queue = fal_queue,
    .fsync = sb_engine_fsync_fd,
    .cleanup = sb_engine_cleanup_free,
};
SB_ENGINE_REGISTER(sb_engine_falloc);
