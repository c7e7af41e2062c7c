/*
 * engine_ftruncate — fio's ftruncate: no data moves; each write is an ftruncate(2) of
 * the file to the write's offset (the size the file had before the block was written),
 * so a sequential write job leaves the file one block short of its size and holding no
 * data blocks, and a random one leaves the size of its last offset, as fio's does. A
 * read has no meaning here and fails with EINVAL, as in fio. A write counts its block's
 * bytes, so the figures are the cost of a size change per "block".
 */
#include <errno.h>
#include <unistd.h>

#include "io/engine.h"
#include "io/job.h"

static int ftr_queue(sb_engine_td *td, sb_io_u *u)
{
    if (u->ddir != SB_DDIR_WRITE) {
        u->result = -EINVAL;
        return SB_Q_COMPLETED;
    }
    int r;
    do {
        r = ftruncate(td->fd, (off_t)u->offset);
    } while (r < 0 && errno == EINTR);
    u->result = r < 0 ? -errno : (int64_t)u->len;
    return SB_Q_COMPLETED;
}

const sb_engine_ops sb_engine_ftruncate = {
    .name = "ftruncate",
    .rank = 11,
    .caps = SB_ENGINE_WRITES_ONLY | SB_ENGINE_NO_DATA,
    .description = "each write an ftruncate to its offset (no data), synchronous",
    .sync = true,
    .fd_own_thread = true,
    .init = sb_engine_init_none,
    .queue = ftr_queue,
    .fsync = sb_engine_fsync_fd,
    .cleanup = sb_engine_cleanup_free,
};
SB_ENGINE_REGISTER(sb_engine_ftruncate);
