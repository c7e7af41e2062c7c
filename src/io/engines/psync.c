/*
 * engine_psync — synchronous pread(2)/pwrite(2), one I/O per call, iodepth 1.
 * The reference point every other engine is compared with: one syscall per
 * I/O and nothing else — made through syscall(2), not glibc's pread/pwrite:
 * those are thread cancellation points, and in a process with more than one
 * thread (storbench's job threads and the thread that watches them) glibc
 * switches asynchronous cancellation on and off around every call, 2.7 % of a
 * tmpfs 4k psync run's CPU (perf). storbench never cancels a thread.
 */
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "io/engine.h"
#include "io/job.h"

static int psync_queue(sb_engine_td *td, sb_io_u *u)
{
    long n;
    do {
        n = syscall(u->ddir == SB_DDIR_READ ? SYS_pread64 : SYS_pwrite64, td->fd, u->buf,
                    (size_t)u->len, (off_t)u->offset);
    } while (n < 0 && errno == EINTR);
    u->result = n < 0 ? -errno : n;
    return SB_Q_COMPLETED;
}

static const char *const psync_aliases[] = {"pread", NULL};
const sb_engine_ops sb_engine_psync = {
    .name = "psync",
    .rank = 0,
    .aliases = psync_aliases,
    .description = "pread/pwrite, synchronous",
    .sync = true,
    .fd_own_thread = true,
    .init = sb_engine_init_none,
    .queue = psync_queue,
    .fsync = sb_engine_fsync_fd,
    .cleanup = sb_engine_cleanup_free,
};
SB_ENGINE_REGISTER(sb_engine_psync);
