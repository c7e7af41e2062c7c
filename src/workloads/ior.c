/*
 * ior — IOR's write and read phases on every rank (see ior.h for the layout,
 * the timing and the stonewall). One transfer at a time as IOR's POSIX backend
 * does it (lseek to the offset, then write or read), so that a figure compares
 * with IOR's on the same target. The test file is a path the user named (or the io500
 * workload's private directory): it is opened through core/safepath, created
 * with O_EXCL when missing, and removed only when this run created it.
 */
#include "workloads/ior.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/interrupt.h"
#include "core/ranks.h"
#include "core/rand.h"
#include "core/safepath.h"
#include "core/strutil.h"

/* One rank's part of a phase, gathered by every rank. */
typedef struct ior_fig {
    double t0, t1;          /* open start, close end: seconds on the host's monotonic clock
                             * (one host), or from the rank's own barrier exit (several) */
    double open_s, close_s;
    double wall_s;          /* time to the wall (deadline), 0 without */
    uint64_t bytes, pairs, wall_bytes, wall_pairs, walled;
} ior_fig;

/* How often the transfer loop asks whether another rank failed (an MPI probe). */
#define IOR_POLL_EVERY 256

int sb_ior_check(const sb_ior_params *p, char *err, size_t errlen)
{
    if (p->transfer == 0 || p->block == 0 || p->segments == 0) {
        snprintf(err, errlen, "transfer size (-t), block size (-b) and segments (-s) must be positive");
        return -EINVAL;
    }
    if (p->block % p->transfer) {
        snprintf(err, errlen, "block size %llu is not a multiple of the transfer size %llu (IOR's rule)",
                 (unsigned long long)p->block, (unsigned long long)p->transfer);
        return -EINVAL;
    }
    if (p->transfer > (1ull << 30)) {
        snprintf(err, errlen, "transfer size %llu: at most 1 GiB", (unsigned long long)p->transfer);
        return -EINVAL;
    }
    if (p->segments > UINT64_MAX / p->block / 65536) {
        snprintf(err, errlen, "%llu segments of %llu bytes: too large a file",
                 (unsigned long long)p->segments, (unsigned long long)p->block);
        return -EINVAL;
    }
    if (p->direct && (p->transfer % 512)) {
        snprintf(err, errlen, "O_DIRECT (-B) needs a transfer size that is a multiple of 512, not %llu",
                 (unsigned long long)p->transfer);
        return -EINVAL;
    }
    if (!p->path[0]) {
        snprintf(err, errlen, "no test file (-o)");
        return -EINVAL;
    }
    return 0;
}

int sb_ior_init(sb_ior_state *s, const sb_ior_params *p, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->p = *p;
    s->rank = sb_ranks()->rank;
    s->size = sb_ranks()->size;
    if (posix_memalign((void **)&s->buf, 4096, p->transfer) != 0) {
        snprintf(err, errlen, "out of memory for a %llu-byte transfer", (unsigned long long)p->transfer);
        return -ENOMEM;
    }
    /* data that no file system compresses away */
    sb_rand r;
    sb_rand_seed(&r, 0x10500);
    sb_rand_fill(&r, s->buf, p->transfer);
    return 0;
}

void sb_ior_free(sb_ior_state *s)
{
    free(s->buf);
    free(s->written);
    s->buf = NULL;
    s->written = NULL;
}

int sb_ior_task_offset(int q)
{
    const sb_ranks_info *ri = sb_ranks();
    if (ri->size < 2 || q <= 0)
        return 0;
    /* IOR's QueryNodeMapping: ranks placed by slot when rank 1 shares rank 0's host */
    const char *h0 = sb_ranks_host_of(0);
    bool by_slot = strcmp(h0, sb_ranks_host_of(1)) == 0;
    int shift = 1;
    const char *fake = getenv("IOR_FAKE_TASK_PER_NODES"); /* IOR's own override */
    if (by_slot && fake && atoi(fake) > 0) {
        shift = atoi(fake);
    } else if (by_slot) {
        shift = 0; /* IOR's numTasksOnNode0 */
        for (int i = 0; i < ri->size; i++)
            shift += strcmp(sb_ranks_host_of(i), h0) == 0;
    }
    return (int)(((long long)q * shift) % ri->size);
}

void sb_ior_file(const sb_ior_state *s, int owner, char *buf, size_t len)
{
    if (s->p.file_per_proc)
        snprintf(buf, len, "%s.%08d", s->p.path, owner);
    else
        snprintf(buf, len, "%s", s->p.path);
}

/* Opens the file, creating it (O_EXCL) when missing and create is set; *created says which. */
static int ior_open(const char *path, bool create, bool write, bool direct, bool *created, int *fd,
                    char *msg, size_t len)
{
    int fl = (write ? O_WRONLY : O_RDONLY) | O_CLOEXEC | (direct ? O_DIRECT : 0);
    *created = false;
    if (create) {
        int r = sb_open_resolved(path, fl | O_CREAT | O_EXCL, 0644, fd, msg, len);
        if (r == 0) {
            *created = true;
            return 0;
        }
        if (r != -EEXIST)
            return r;
    }
    return sb_open_resolved(path, fl, 0, fd, msg, len);
}

/* The byte offset of transfer q (0-based, segment by segment) of rank `owner`. */
static uint64_t ior_offset(const sb_ior_state *s, const uint64_t *perm, int owner, uint64_t q)
{
    uint64_t tpb = s->p.block / s->p.transfer, seg = q / tpb, k = q % tpb;
    if (perm)
        k = perm[k];
    uint64_t base = s->p.file_per_proc ? seg * s->p.block
                                       : (seg * (uint64_t)s->size + (uint64_t)owner) * s->p.block;
    return base + k * s->p.transfer;
}

/* -z: the transfers of a block in an order shuffled by the owner's seed (the same for
 * the write and for the read of that owner's data), NULL otherwise. */
static uint64_t *ior_perm(const sb_ior_state *s, int owner)
{
    if (!s->p.random)
        return NULL;
    uint64_t n = s->p.block / s->p.transfer;
    uint64_t *perm = sb_xrealloc(NULL, n * sizeof *perm);
    sb_rand r;
    sb_rand_seed(&r, 0x1047 + (uint64_t)owner);
    for (uint64_t i = 0; i < n; i++)
        perm[i] = i;
    for (uint64_t i = n; i > 1; i--) {
        uint64_t j = sb_rand_below(&r, i), t = perm[i - 1];
        perm[i - 1] = perm[j], perm[j] = t;
    }
    return perm;
}

typedef struct ior_loop {
    const sb_ior_state *s;
    int fd, owner;
    bool write;
    const uint64_t *perm;
    uint64_t wall_ns; /* 0 = none */
    const char *path;
} ior_loop;

/* Transfers [*q, to) until the wall; *q and f advance. 0 or -errno with msg. */
static int ior_transfers(const ior_loop *l, uint64_t *q, uint64_t to, ior_fig *f, char *msg, size_t len)
{
    const uint64_t t = l->s->p.transfer;
    for (; *q < to; (*q)++) {
        if (l->wall_ns && sb_now_ns() >= l->wall_ns)
            return 0;
        if (sb_interrupted() || ((*q % IOR_POLL_EVERY) == 0 && sb_ranks_failure_announced())) {
            snprintf(msg, len, "interrupted");
            return -EINTR;
        }
        uint64_t off = ior_offset(l->s, l->perm, l->owner, *q), done = 0;
        uint64_t stamp[2] = {(uint64_t)l->owner + 1, off};
        if (l->write && t >= sizeof stamp)
            memcpy(l->s->buf, stamp, sizeof stamp);
        /* as IOR's POSIX backend (POSIX_Xfer): a seek to the offset, then write or read
         * from there. One system call more than a pwrite, and the same work as IOR's: on
         * a VM with page-table isolation a call costs ~1.7 us, which made ior-hard's
         * 47,008-byte reads 1.2x IOR's on tmpfs when this used pread (docs/mpi.md) */
        if (lseek(l->fd, (off_t)off, SEEK_SET) < 0) {
            int e = errno;
            sb_fmt(msg, len, "lseek %s to offset %llu: %s", l->path, (unsigned long long)off, strerror(e));
            return -e;
        }
        while (done < t) {
            ssize_t n = l->write ? write(l->fd, l->s->buf + done, t - done)
                                 : read(l->fd, l->s->buf + done, t - done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                int e = errno;
                sb_fmt(msg, len, "%s %s at offset %llu: %s", l->write ? "write" : "read", l->path,
                       (unsigned long long)(off + done), strerror(e));
                return -e;
            }
            if (n == 0) {
                sb_fmt(msg, len, "read %s at offset %llu: the file ends there (written by an earlier run "
                       "with a smaller layout?)", l->path, (unsigned long long)(off + done));
                return -EIO;
            }
            done += (uint64_t)n;
        }
        if (!l->write && l->s->p.check && t >= sizeof stamp && memcmp(l->s->buf, stamp, sizeof stamp)) {
            uint64_t got[2];
            memcpy(got, l->s->buf, sizeof got);
            sb_fmt(msg, len, "read %s at offset %llu: holds rank %lld's block of offset %llu, not rank %d's "
                   "(-R: the data is not what this layout wrote)", l->path, (unsigned long long)off,
                   (long long)got[0] - 1, (unsigned long long)got[1], l->owner);
            return -EIO;
        }
        f->bytes += t;
        f->pairs++;
    }
    return 0;
}

static void ior_figures(const ior_fig *all, int n, sb_ior_phase *ph)
{
    double lo = all[0].t0, hi = all[0].t1;
    ph->bytes = ph->stonewall_bytes = 0;
    ph->open_s = ph->close_s = ph->stonewall_s = 0;
    ph->rank_bw_min = ph->rank_bw_max = -1;
    ph->pairs_min = ph->pairs_max = all[0].pairs;
    ph->wall_pairs_min = ph->wall_pairs_max = all[0].wall_pairs;
    ph->ranks_walled = 0;
    for (int i = 0; i < n; i++) {
        const ior_fig *f = &all[i];
        lo = f->t0 < lo ? f->t0 : lo;
        hi = f->t1 > hi ? f->t1 : hi;
        ph->bytes += f->bytes;
        ph->stonewall_bytes += f->wall_bytes;
        ph->open_s = f->open_s > ph->open_s ? f->open_s : ph->open_s;
        ph->close_s = f->close_s > ph->close_s ? f->close_s : ph->close_s;
        ph->stonewall_s = f->wall_s > ph->stonewall_s ? f->wall_s : ph->stonewall_s;
        ph->pairs_min = f->pairs < ph->pairs_min ? f->pairs : ph->pairs_min;
        ph->pairs_max = f->pairs > ph->pairs_max ? f->pairs : ph->pairs_max;
        ph->wall_pairs_min = f->wall_pairs < ph->wall_pairs_min ? f->wall_pairs : ph->wall_pairs_min;
        ph->wall_pairs_max = f->wall_pairs > ph->wall_pairs_max ? f->wall_pairs : ph->wall_pairs_max;
        ph->ranks_walled += f->walled != 0;
        double s = f->t1 - f->t0, bw = s > 0 ? (double)f->bytes / s : 0;
        ph->rank_bw_min = ph->rank_bw_min < 0 || bw < ph->rank_bw_min ? bw : ph->rank_bw_min;
        ph->rank_bw_max = bw > ph->rank_bw_max ? bw : ph->rank_bw_max;
    }
    ph->elapsed_s = hi - lo;
    ph->bw = ph->elapsed_s > 0 ? (double)ph->bytes / ph->elapsed_s : 0;
}

/* The shared file, made by rank 0 before the phase (outside its timing), so that no
 * rank's open races with its creation. */
static int ior_precreate(sb_ior_state *s, char *msg, size_t len)
{
    if (s->p.file_per_proc || s->rank != 0)
        return 0;
    bool created;
    int fd, r = ior_open(s->p.path, true, true, false, &created, &fd, msg, len);
    if (r < 0)
        return r;
    close(fd);
    s->created = s->created || created;
    return 0;
}

/* The stonewall's wear-out: the most transfers any rank made (a failed rank gives 0,
 * and goes no further; every rank takes part, so that none waits for it). */
static int ior_wearout(ior_loop *l, uint64_t *q, ior_fig *f, int st, char *msg, size_t len)
{
    uint64_t most = st == 0 ? *q : 0;
    int r = sb_ranks_allreduce_u64(&most, 1, SB_RANKS_MAX);
    if (r < 0) {
        snprintf(msg, len, "agreeing on the stonewall count: %s", strerror(-r));
        return st < 0 ? st : r;
    }
    if (st < 0)
        return st;
    l->wall_ns = 0;
    return ior_transfers(l, q, most, f, msg, len);
}

/* One phase: every rank goes through every barrier and reduction, failed or not. */
static int ior_phase(sb_ior_state *s, bool write, sb_ior_phase *ph, char *err, size_t errlen)
{
    char msg[1024] = "", path[PATH_MAX];
    int st = write ? ior_precreate(s, msg, sizeof msg) : 0;
    int owner = write ? s->rank : (s->rank + s->p.reorder) % s->size;
    uint64_t tpb = s->p.block / s->p.transfer, total = s->p.segments * tpb;
    uint64_t to = !write && s->written ? s->written[owner] : total;
    uint64_t *perm = ior_perm(s, owner);
    ior_fig f;
    memset(&f, 0, sizeof f);
    sb_ior_file(s, write ? s->rank : owner, path, sizeof path);
    ior_loop l = {s, -1, owner, write, perm, 0, path};
    sb_ranks_barrier();
    uint64_t tb = sb_now_ns(), t_open = tb;
    bool created = false;
    /* the shared file is rank 0's (made above): another rank opens it, never makes it */
    bool may_create = write && (s->p.file_per_proc || s->rank == 0);
    if (st == 0)
        st = ior_open(path, may_create, write, s->p.direct, &created, &l.fd, msg, sizeof msg);
    if (created && s->p.file_per_proc)
        s->created = true;
    uint64_t t_io = sb_now_ns();
    sb_ranks_barrier(); /* IOR -g: every rank has opened */
    uint64_t q = 0;
    l.wall_ns = s->p.deadline > 0 ? sb_now_ns() + (uint64_t)(s->p.deadline * 1e9) : 0;
    uint64_t t_start = sb_now_ns();
    if (st == 0)
        st = ior_transfers(&l, &q, to, &f, msg, sizeof msg);
    if (s->p.deadline > 0) {
        f.wall_s = (double)(sb_now_ns() - t_start) / 1e9;
        f.wall_bytes = f.bytes;
        f.wall_pairs = f.pairs;
        f.walled = st == 0 && q < to;
        if (write && s->p.wearout)
            st = ior_wearout(&l, &q, &f, st, msg, sizeof msg);
    }
    /* -e: IOR's WriteOrRead ends with the fsync, before the barrier that ends the
     * transfers, so each rank syncs as soon as its own writes are done */
    if (l.fd >= 0 && st == 0 && write && s->p.fsync && fsync(l.fd) != 0) {
        st = -errno;
        sb_fmt(msg, sizeof msg, "fsync %s: %s", path, strerror(errno));
    }
    sb_ranks_barrier(); /* IOR -g: every rank has done its transfers */
    uint64_t t_close = sb_now_ns();
    if (l.fd >= 0) {
        if (close(l.fd) != 0 && st == 0) {
            st = -errno;
            sb_fmt(msg, sizeof msg, "close %s: %s", path, strerror(errno));
        }
    }
    uint64_t t_end = sb_now_ns();
    free(perm);
    if (st < 0 && st != -EINTR)
        sb_ranks_announce_failure();
    int rc = sb_ranks_agree(st, msg, err, errlen);
    if (rc < 0)
        return rc;
    /* IOR's interval is the earliest open to the latest close on one clock, so a rank that
     * leaves the barrier late (descheduled) counts. On one host every rank reads the same
     * monotonic clock and that is what is taken; across hosts each rank's clock counts
     * from its own barrier exit (their clocks need not agree; the release skew is the error) */
    uint64_t base = sb_ranks()->hosts == 1 ? 0 : tb;
    f.t0 = (double)(t_open - base) / 1e9;
    f.t1 = (double)(t_end - base) / 1e9;
    f.open_s = (double)(t_io - t_open) / 1e9;
    f.close_s = (double)(t_end - t_close) / 1e9;
    ior_fig *all = sb_xrealloc(NULL, (size_t)s->size * sizeof *all);
    if ((rc = sb_ranks_allgather(&f, all, sizeof f)) == 0) {
        ior_figures(all, s->size, ph);
        if (write) {
            s->written = sb_xrealloc(s->written, (size_t)s->size * sizeof *s->written);
            for (int i = 0; i < s->size; i++)
                s->written[i] = all[i].pairs;
        }
    } else {
        snprintf(err, errlen, "rank %d on %s: gathering the ranks' figures: %s", s->rank,
                 sb_ranks()->host, strerror(-rc));
    }
    free(all);
    ph->my_bytes = f.bytes;
    ph->my_t0 = t_open;
    ph->my_t1 = t_end;
    return rc;
}

int sb_ior_write(sb_ior_state *s, sb_ior_phase *ph, char *err, size_t errlen)
{
    return ior_phase(s, true, ph, err, errlen);
}

int sb_ior_read(sb_ior_state *s, sb_ior_phase *ph, char *err, size_t errlen)
{
    return ior_phase(s, false, ph, err, errlen);
}

int sb_ior_remove(sb_ior_state *s, char *err, size_t errlen)
{
    char msg[1024] = "", path[PATH_MAX];
    int st = 0;
    sb_ranks_barrier(); /* nobody still reads another rank's data */
    if (s->created && (s->p.file_per_proc || s->rank == 0)) {
        sb_ior_file(s, s->rank, path, sizeof path);
        if (unlink(path) != 0 && errno != ENOENT) {
            st = -errno;
            sb_fmt(msg, sizeof msg, "unlink %s: %s", path, strerror(errno));
        }
        s->created = false;
    }
    return sb_ranks_agree(st, msg, err, errlen);
}
