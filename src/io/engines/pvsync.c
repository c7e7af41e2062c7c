/*
 * engine_pvsync — fio's pvsync and pvsync2: synchronous preadv(2)/pwritev(2) and
 * preadv2(2)/pwritev2(2) of one iovec, one I/O per call, iodepth 1. They differ
 * from psync only in the system call (the vectored path of the kernel), which is
 * what a job naming them measures; before issue 27 pvsync quietly ran psync.
 * pvsync2 passes fio's nowait (RWF_NOWAIT), hipri (RWF_HIPRI, on hipri_percentage of
 * the calls, drawn at random) and uncached (RWF_DONTCACHE, buffered I/O only) as flags.
 * Through syscall(2) for the reason engine_psync.c gives (glibc's cancellation
 * points); the offset goes as two halves, as the kernel's ABI takes it.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "io/engine.h"
#include "io/job.h"

#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080 /* linux/fs.h of 6.14 */
#endif

/* pvsync2's flags: fixed ones and, for hipri_percentage, a random draw per call */
typedef struct pv2_data {
    int flags;          /* every call's: nowait, uncached, hipri at 100 % */
    unsigned hipri_pct; /* 0: no draw; else RWF_HIPRI on this % of the calls */
    uint64_t rng;       /* xorshift64 state of the draw */
} pv2_data;

static int pv2_init(sb_engine_td *td)
{
    pv2_data *d = calloc(1, sizeof *d);
    if (!d)
        return -ENOMEM;
    const sb_io_job *job = td->job;
    unsigned pct = td->hipri ? (job ? job->hipri_pct : 100) : 0;
    d->flags = (td->nowait ? RWF_NOWAIT : 0) | (pct == 100 ? RWF_HIPRI : 0) |
               (job && job->io_uncached && !td->direct ? RWF_DONTCACHE : 0);
    d->hipri_pct = pct < 100 ? pct : 0;
    d->rng = (job ? job->seed : 1) * 0x9e3779b97f4a7c15ull | 1;
    td->data = d;
    return 0;
}

static int pv2_flags(sb_engine_td *td)
{
    pv2_data *d = td->data;
    if (!d->hipri_pct)
        return d->flags;
    d->rng ^= d->rng << 13, d->rng ^= d->rng >> 7, d->rng ^= d->rng << 17;
    return d->flags | (d->rng % 100 < d->hipri_pct ? RWF_HIPRI : 0);
}

static int pv_do(sb_engine_td *td, sb_io_u *u, bool v2)
{
    struct iovec iov = {u->buf, (size_t)u->len};
    unsigned long lo = (unsigned long)u->offset, hi = (unsigned long)((uint64_t)u->offset >> 32);
#if __SIZEOF_LONG__ == 8
    hi = 0; /* 64-bit: the low word is the whole offset, the kernel ignores the high one */
#endif
    long n;
    do {
        if (v2)
            n = syscall(u->ddir == SB_DDIR_READ ? SYS_preadv2 : SYS_pwritev2, td->fd, &iov, 1, lo,
                        hi, pv2_flags(td));
        else
            n = syscall(u->ddir == SB_DDIR_READ ? SYS_preadv : SYS_pwritev, td->fd, &iov, 1, lo, hi);
    } while (n < 0 && errno == EINTR);
    u->result = n < 0 ? -errno : n;
    return SB_Q_COMPLETED;
}

static int pvsync_queue(sb_engine_td *td, sb_io_u *u) { return pv_do(td, u, false); }
static int pvsync2_queue(sb_engine_td *td, sb_io_u *u) { return pv_do(td, u, true); }

/* preadv2 is Linux 4.6: a kernel without it says ENOSYS here, not in the middle of a job. */
static int pvsync2_probe(void)
{
    struct iovec iov = {NULL, 0};
    long n = syscall(SYS_preadv2, -1, &iov, 1, 0, 0, 0);
    return n < 0 && errno == ENOSYS ? -ENOSYS : 0;
}

const sb_engine_ops sb_engine_pvsync = {
    .name = "pvsync",
    .rank = 6,
    .description = "preadv/pwritev of one iovec, synchronous",
    .sync = true,
    .fd_own_thread = true,
    .init = sb_engine_init_none,
    .queue = pvsync_queue,
    .fsync = sb_engine_fsync_fd,
    .cleanup = sb_engine_cleanup_free,
};
SB_ENGINE_REGISTER(sb_engine_pvsync);

static const char *const pvsync2_options[] = {"hipri", "hipri_percentage", "nowait", "uncached", NULL};
const sb_engine_ops sb_engine_pvsync2 = {
    .name = "pvsync2",
    .rank = 7,
    .caps = SB_ENGINE_RWF,
    .options = pvsync2_options,
    .description = "preadv2/pwritev2 of one iovec (nowait, hipri as RWF_ flags), synchronous",
    .sync = true,
    .fd_own_thread = true,
    .probe = pvsync2_probe,
    .init = pv2_init,
    .queue = pvsync2_queue,
    .fsync = sb_engine_fsync_fd,
    .cleanup = sb_engine_cleanup_free,
};
SB_ENGINE_REGISTER(sb_engine_pvsync2);
