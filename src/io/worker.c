/*
 * worker — runs an I/O job (job.h): prepares the files (layout, free space,
 * O_DIRECT and alignment checks, page-cache invalidation), sets up one engine
 * instance per thread, starts numjobs threads on a common clock, and merges
 * their statistics.
 *
 * The per-thread loop is the hot path: it allocates nothing and makes no
 * syscall besides the engine's own and clock reads (vDSO). A synchronous
 * engine costs two clock reads per I/O (around the call); an asynchronous
 * one reads the clock once per submitted batch and once per reaped batch and
 * stamps every I/O of the batch with it, as the latency of an I/O is from
 * its submission to the moment its completion is seen.
 *
 * Phases share one start time: startdelay (idle), ramp (I/O, not counted),
 * measurement (until runtime, or until size is done when not time_based),
 * end fsync (inside the measurement). Per-second samples are kept for the
 * first SB_IO_MAX_SECONDS seconds.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

#include "core/clock.h"
#include "core/rand.h"
#include "io/engine.h"
#include "io/job.h"
#include "io/offsets.h"

#define SB_IO_MAX_SECONDS 3600u
#define TICK_NS 50000000ull   /* how often a worker publishes progress */
#define NS 1000000000ull

typedef struct shared {
    atomic_bool stop;
    uint64_t start_ns;         /* written before threads start */
} shared;

typedef struct worker {
    const sb_io_job *job;
    shared *sh;
    unsigned index;
    int fd;
    sb_engine_td td;
    bool engine_ready;
    void *bufmem;
    sb_io_u **freelist;
    unsigned nfree;
    sb_io_u **done;
    sb_offgen og;
    sb_rand rng;
    uint64_t block_count;
    bool pass_done;            /* set when a one-pass job has issued its last block */
    bool invalidate_pending;   /* a time-based pass ended: drop the cache before the next */
    uint64_t writes_since_fsync;

    uint64_t io_start_ns, ramp_end_ns, end_ns;
    uint64_t next_sec_ns, next_tick_ns, last_ns;
    unsigned cur_sec, n_sec_cap;
    uint64_t *sec_bytes, *sec_ios;
    sb_io_dir_stats st[SB_DDIR_N];
    uint64_t bytes_issued;
    atomic_uint_fast64_t progress_bytes;
    atomic_bool finished;
    int err;
    char errmsg[256];
} worker;

/* ---------------------------------------------------------------- job model */

void sb_io_job_init(sb_io_job *job)
{
    memset(job, 0, sizeof *job);
    job->rw = SB_RW_READ;
    job->rwmixread = 50;
    job->bs = 4096;
    job->size = 1ull << 30;
    job->iodepth = 1;
    job->numjobs = 1;
    job->invalidate = true;
    job->seed = 0x5eed;
    strcpy(job->engine, "psync");
}

static const char *const rw_names[] = {"read", "write", "randread", "randwrite", "rw", "randrw"};

int sb_rw_parse(const char *s, sb_rw *out)
{
    for (int i = 0; i < 6; i++)
        if (!strcmp(s, rw_names[i])) {
            *out = (sb_rw)i;
            return 0;
        }
    if (!strcmp(s, "readwrite")) {
        *out = SB_RW_RW;
        return 0;
    }
    return -EINVAL;
}

const char *sb_rw_name(sb_rw rw) { return (unsigned)rw < 6 ? rw_names[rw] : "?"; }

int sb_io_job_check(const sb_io_job *job, char *err, size_t errlen, char *warn, size_t warnlen)
{
    if (warn && warnlen)
        warn[0] = '\0';
    const sb_engine_ops *ops = sb_engine_find(job->engine);
    if (!ops) {
        char list[256];
        sb_engine_list_working(list, sizeof list);
        snprintf(err, errlen, "unknown I/O engine '%s' (engines that work here: %s)", job->engine, list);
        return -EINVAL;
    }
    if (job->bs < SB_IO_MIN_BS || job->bs > SB_IO_MAX_BS) {
        snprintf(err, errlen, "block size %" PRIu64 " out of range (512 B .. 64 MiB)", job->bs);
        return -EINVAL;
    }
    if (job->iodepth < 1 || job->iodepth > SB_IO_MAX_DEPTH) {
        snprintf(err, errlen, "iodepth %u out of range (1 .. %u)", job->iodepth, SB_IO_MAX_DEPTH);
        return -EINVAL;
    }
    if (job->numjobs < 1 || job->numjobs > SB_IO_MAX_JOBS) {
        snprintf(err, errlen, "numjobs %u out of range (1 .. %u)", job->numjobs, SB_IO_MAX_JOBS);
        return -EINVAL;
    }
    if (job->batch_submit > SB_IO_MAX_DEPTH || job->batch_complete_min > SB_IO_MAX_DEPTH ||
        job->batch_complete_max > SB_IO_MAX_DEPTH) {
        snprintf(err, errlen, "iodepth_batch values must be in 1 .. %u", SB_IO_MAX_DEPTH);
        return -EINVAL;
    }
    if (job->batch_complete_max && job->batch_complete_max < job->batch_complete_min) {
        snprintf(err, errlen, "iodepth_batch_complete_max %u is less than iodepth_batch_complete_min %u",
                 job->batch_complete_max, job->batch_complete_min);
        return -EINVAL;
    }
    if (job->rwmixread > 100) {
        snprintf(err, errlen, "rwmixread %u is not a percentage", job->rwmixread);
        return -EINVAL;
    }
    if (job->size < job->bs) {
        snprintf(err, errlen, "size %" PRIu64 " is smaller than the block size %" PRIu64,
                 job->size, job->bs);
        return -EINVAL;
    }
    /* offset + size must be a file offset: 16383p + 2p would wrap around 2^64. */
    if (job->offset > (uint64_t)INT64_MAX || job->size > (uint64_t)INT64_MAX - job->offset) {
        snprintf(err, errlen, "offset %" PRIu64 " + size %" PRIu64 " is beyond the largest file "
                 "offset (2^63 - 1)", job->offset, job->size);
        return -EINVAL;
    }
    if (job->time_based && job->runtime_s <= 0) {
        snprintf(err, errlen, "time_based needs a runtime");
        return -EINVAL;
    }
    if (!job->filename[0] == !job->directory[0]) {
        snprintf(err, errlen, "give exactly one of a file name or a directory");
        return -EINVAL;
    }
    if (ops == &sb_engine_mmap && job->direct) {
        snprintf(err, errlen, "the mmap engine cannot do direct I/O (it works through the page cache)");
        return -EINVAL;
    }
    if (ops->sync && job->iodepth > 1 && warn)
        snprintf(warn, warnlen, "iodepth %u has no effect with the synchronous engine %s; using 1",
                 job->iodepth, ops->name);
    return 0;
}

/* ------------------------------------------------------------- statistics */

static inline void account(worker *w, sb_io_u *u, uint64_t now)
{
    if (u->result != (int64_t)u->len) {
        if (!w->err) {
            w->err = u->result < 0 ? (int)u->result : -EIO;
            if (u->result < 0)
                snprintf(w->errmsg, sizeof w->errmsg, "%s at offset %" PRIu64 ": %s",
                         u->ddir == SB_DDIR_READ ? "read" : "write", u->offset,
                         strerror((int)-u->result));
            else
                snprintf(w->errmsg, sizeof w->errmsg, "short %s at offset %" PRIu64 ": %" PRId64
                         " of %u bytes", u->ddir == SB_DDIR_READ ? "read" : "write", u->offset,
                         u->result, u->len);
        }
        atomic_store_explicit(&w->sh->stop, true, memory_order_relaxed);
        return;
    }
    if (now >= w->next_tick_ns) {
        atomic_store_explicit(&w->progress_bytes, w->bytes_issued, memory_order_relaxed);
        w->next_tick_ns = now + TICK_NS;
    }
    if (now < w->ramp_end_ns)
        return;
    sb_io_dir_stats *st = &w->st[u->ddir];
    st->ios++;
    st->bytes += u->len;
    sb_hist_record(&st->clat, now - u->start_ns);
    while (now >= w->next_sec_ns) {
        w->cur_sec++;
        w->next_sec_ns += NS;
    }
    if (w->cur_sec < w->n_sec_cap) {
        w->sec_bytes[w->cur_sec] += u->len;
        w->sec_ios[w->cur_sec]++;
    }
    w->last_ns = now;
}

/* ------------------------------------------------------------ data pattern */

static inline uint64_t pattern_word(uint64_t seed, uint64_t off)
{
    uint64_t z = off * 0x9e3779b97f4a7c15ull ^ seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void sb_io_pattern_fill(void *buf, uint64_t offset, uint32_t len, uint64_t seed)
{
    uint64_t *p = buf;
    for (uint32_t i = 0; i < len / 8; i++)
        p[i] = pattern_word(seed, offset + 8ull * i);
}

static bool pattern_check(const void *buf, uint64_t offset, uint32_t len, uint64_t seed, uint64_t *bad)
{
    const uint64_t *p = buf;
    for (uint32_t i = 0; i < len / 8; i++)
        if (p[i] != pattern_word(seed, offset + 8ull * i)) {
            *bad = offset + 8ull * i;
            return false;
        }
    return true;
}

/* ------------------------------------------------------------ worker loop */

/* Prepares u for the next I/O; false when a one-pass job has nothing left. */
static inline bool next_io(worker *w, sb_io_u *u)
{
    const sb_io_job *job = w->job;
    if (w->pass_done)
        return false;
    bool pass_end;
    uint64_t b = sb_offgen_next(&w->og, &pass_end);
    if (pass_end && !job->time_based)
        w->pass_done = true;
    else if (pass_end && job->invalidate && !job->direct)
        w->invalidate_pending = true;
    u->offset = job->offset + b * job->bs;
    switch (job->rw) {
    case SB_RW_READ: case SB_RW_RANDREAD: u->ddir = SB_DDIR_READ; break;
    case SB_RW_WRITE: case SB_RW_RANDWRITE: u->ddir = SB_DDIR_WRITE; break;
    default:
        u->ddir = sb_rand_below(&w->rng, 100) < job->rwmixread ? SB_DDIR_READ : SB_DDIR_WRITE;
    }
    if (job->verify_pattern && u->ddir == SB_DDIR_WRITE)
        sb_io_pattern_fill(u->buf, u->offset, u->len, job->seed);
    w->bytes_issued += u->len;
    return true;
}

static inline void check_read(worker *w, sb_io_u *u)
{
    uint64_t bad;
    if (u->ddir == SB_DDIR_READ && u->result == (int64_t)u->len &&
        !pattern_check(u->buf, u->offset, u->len, w->job->seed, &bad) && !w->err) {
        w->err = -EILSEQ;
        snprintf(w->errmsg, sizeof w->errmsg, "data read back differs from what was written at offset %" PRIu64, bad);
        atomic_store_explicit(&w->sh->stop, true, memory_order_relaxed);
    }
}

static inline bool stopped(worker *w)
{
    return atomic_load_explicit(&w->sh->stop, memory_order_relaxed);
}

static void do_fsync(worker *w)
{
    int r = w->td.ops->fsync(&w->td);
    if (r < 0 && !w->err) {
        w->err = r;
        snprintf(w->errmsg, sizeof w->errmsg, "fsync: %s", strerror(-r));
        atomic_store_explicit(&w->sh->stop, true, memory_order_relaxed);
    }
}

/* Every pass of a time-based job starts cold, as fio's does (it reopens and
 * invalidates the file when it wraps around): one fadvise per pass, never per I/O. */
static void invalidate_region(worker *w)
{
    w->invalidate_pending = false;
    posix_fadvise(w->fd, (off_t)w->job->offset, (off_t)w->job->size, POSIX_FADV_DONTNEED);
}

static void loop_sync(worker *w)
{
    const sb_engine_ops *ops = w->td.ops;
    sb_io_u *u = &w->td.ios[0];
    const unsigned fsync_every = w->job->fsync_every;
    const bool verify = w->job->verify_pattern;
    while (!stopped(w)) {
        if (!next_io(w, u))
            break;
        uint64_t t0 = sb_now_ns();
        if (t0 >= w->end_ns)
            break;
        u->start_ns = t0;
        ops->queue(&w->td, u);
        uint64_t t1 = sb_now_ns();
        if (verify)
            check_read(w, u);
        account(w, u, t1);
        if (fsync_every && u->ddir == SB_DDIR_WRITE && ++w->writes_since_fsync >= fsync_every) {
            do_fsync(w);
            w->writes_since_fsync = 0;
        }
        if (w->invalidate_pending)
            invalidate_region(w);
    }
}

/* Completes n reaped I/Os at time now. */
static inline void complete(worker *w, unsigned n, uint64_t now)
{
    for (unsigned i = 0; i < n; i++) {
        sb_io_u *u = w->done[i];
        if (w->job->verify_pattern)
            check_read(w, u);
        account(w, u, now);
        w->freelist[w->nfree++] = u;
    }
}

static int reap(worker *w, unsigned min, unsigned *in_flight)
{
    int n = w->td.ops->getevents(&w->td, min, *in_flight, w->done);
    if (n < 0)
        return n;
    uint64_t now = sb_now_ns();
    *in_flight -= (unsigned)n;
    complete(w, (unsigned)n, now);
    return n;
}

/* Waits until every I/O in flight is back. */
static int drain(worker *w, unsigned *in_flight)
{
    int r;
    while (*in_flight)
        if ((r = reap(w, *in_flight, in_flight)) < 0)
            return r;
    return 0;
}

/* A batch option: its default when 0, never more than the queue depth. */
static inline unsigned batch_value(unsigned v, unsigned dflt, unsigned depth)
{
    if (!v)
        v = dflt;
    return v > depth ? depth : v;
}

/* fio's queueing (job.h): queue one I/O per free buffer, submitting every
 * batch_submit of them; when no buffer is free (or nothing more will be
 * issued) reap at least complete_min, at most complete_max. The clock is read
 * once per submitted batch (its I/Os' submission time, and the runtime check)
 * and once per reaped batch. */
static void loop_async(worker *w)
{
    const sb_engine_ops *ops = w->td.ops;
    const sb_io_job *job = w->job;
    const unsigned depth = w->td.iodepth;
    const unsigned batch = batch_value(job->batch_submit, 1, depth);
    const unsigned cmin = batch_value(job->batch_complete_min, 1, depth);
    const unsigned cmax = batch_value(job->batch_complete_max, cmin, depth);
    const unsigned fsync_every = job->fsync_every;
    unsigned in_flight = 0, pending = 0;
    bool issuing = true;
    uint64_t t = 0;
    int r;
    while (!stopped(w)) {
        while (issuing && w->nfree && !stopped(w)) {
            if (!pending) {
                t = sb_now_ns();
                if (t >= w->end_ns) {
                    issuing = false;
                    break;
                }
            }
            sb_io_u *u = w->freelist[w->nfree - 1];
            if (!next_io(w, u)) {
                issuing = false;
                break;
            }
            w->nfree--;
            u->start_ns = t;
            if (ops->queue(&w->td, u) == SB_Q_COMPLETED) {
                /* refused at submission: account as an error */
                w->done[0] = u;
                complete(w, 1, sb_now_ns());
                break;
            }
            pending++;
            bool sync_due = fsync_every && u->ddir == SB_DDIR_WRITE &&
                            ++w->writes_since_fsync >= fsync_every;
            if (pending >= batch || sync_due || w->invalidate_pending) {
                if ((r = ops->commit(&w->td)) < 0)
                    goto fail;
                in_flight += pending;
                pending = 0;
            }
            if (w->invalidate_pending) {
                if ((r = drain(w, &in_flight)) < 0)
                    goto fail;
                invalidate_region(w);
            }
            if (sync_due) {
                if ((r = drain(w, &in_flight)) < 0)
                    goto fail;
                do_fsync(w);
                w->writes_since_fsync = 0;
            }
        }
        if (pending) {
            if ((r = ops->commit(&w->td)) < 0)
                goto fail;
            in_flight += pending;
            pending = 0;
        }
        if (!in_flight) {
            if (!issuing || stopped(w))
                break;
            continue;
        }
        /* The queue is full, or nothing more will be issued: reap. */
        if ((r = w->td.ops->getevents(&w->td, cmin < in_flight ? cmin : in_flight,
                                      cmax < in_flight ? cmax : in_flight, w->done)) < 0)
            goto fail;
        uint64_t now = sb_now_ns();
        in_flight -= (unsigned)r;
        complete(w, (unsigned)r, now);
    }
    /* Drain: every buffer must be back before the engine and buffers go away. */
    if (pending) {
        if ((r = ops->commit(&w->td)) < 0)
            goto fail;
        in_flight += pending;
    }
    if ((r = drain(w, &in_flight)) < 0)
        goto fail;
    return;
fail:
    if (!w->err) {
        w->err = r;
        snprintf(w->errmsg, sizeof w->errmsg, "%s: %s", ops->name, strerror(-r));
    }
    atomic_store_explicit(&w->sh->stop, true, memory_order_relaxed);
}

static void sleep_until(worker *w, uint64_t t)
{
    for (;;) {
        uint64_t now = sb_now_ns();
        if (now >= t || stopped(w))
            return;
        uint64_t d = t - now;
        if (d > 20000000ull)
            d = 20000000ull;
        struct timespec ts = {(time_t)(d / NS), (long)(d % NS)};
        nanosleep(&ts, NULL);
    }
}

static int worker_engine_init(worker *w);

static void *worker_main(void *arg)
{
    worker *w = arg;
    const sb_io_job *job = w->job;
    w->io_start_ns = w->sh->start_ns + (uint64_t)(job->startdelay_s * 1e9);
    w->ramp_end_ns = w->io_start_ns + (uint64_t)(job->ramp_s * 1e9);
    w->end_ns = job->runtime_s > 0 ? w->ramp_end_ns + (uint64_t)(job->runtime_s * 1e9) : UINT64_MAX;
    w->next_sec_ns = w->ramp_end_ns + NS;
    w->next_tick_ns = 0;
    w->last_ns = w->ramp_end_ns;
    if (worker_engine_init(w) < 0) {
        atomic_store(&w->finished, true);
        return NULL;
    }
    sleep_until(w, w->io_start_ns);
    if (w->td.ops->sync)
        loop_sync(w);
    else
        loop_async(w);
    if (job->end_fsync && sb_rw_writes(job->rw) && !w->err && !stopped(w)) {
        do_fsync(w);
        uint64_t now = sb_now_ns();
        if (now > w->last_ns && now >= w->ramp_end_ns)
            w->last_ns = now;
    }
    /* Torn down here too: the ring belongs to this thread. */
    w->td.ops->cleanup(&w->td);
    w->engine_ready = false;
    atomic_store_explicit(&w->progress_bytes, w->bytes_issued, memory_order_relaxed);
    atomic_store(&w->finished, true);
    return NULL;
}

/* ------------------------------------------------------------ preparation */

/* Logical block size (the O_DIRECT alignment) of the storage under fd. */
static unsigned direct_alignment(int fd, const struct stat *st)
{
#ifdef STATX_DIOALIGN
    struct statx sx;
    if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 && (sx.stx_mask & STATX_DIOALIGN) &&
        sx.stx_dio_offset_align)
        return sx.stx_dio_offset_align;
#endif
    if (S_ISBLK(st->st_mode)) {
        int ss;
        if (ioctl(fd, BLKSSZGET, &ss) == 0 && ss > 0)
            return (unsigned)ss;
    }
    char path[128];
    unsigned maj = major(st->st_dev), min = minor(st->st_dev);
    const char *fmt[] = {"/sys/dev/block/%u:%u/queue/logical_block_size",
                         "/sys/dev/block/%u:%u/../queue/logical_block_size"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, fmt[i], maj, min);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        unsigned v = 0;
        int ok = fscanf(f, "%u", &v);
        fclose(f);
        if (ok == 1 && v)
            return v;
    }
    return 512;
}

static int layout_file(int fd, uint64_t from, uint64_t to, uint64_t seed, bool pattern,
                       char *err, size_t errlen, const char *path)
{
    const size_t chunk = 1u << 20;
    char *buf = malloc(chunk);
    if (!buf)
        return -ENOMEM;
    sb_rand r;
    sb_rand_seed(&r, seed ^ 0x1a7017ull);
    for (uint64_t off = from; off < to;) {
        size_t n = to - off < chunk ? (size_t)(to - off) : chunk;
        if (pattern)
            sb_io_pattern_fill(buf, off, (uint32_t)n, seed);
        else
            sb_rand_fill(&r, buf, n);
        ssize_t k = pwrite(fd, buf, n, (off_t)off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            int e = k < 0 ? errno : EIO;
            free(buf);
            snprintf(err, errlen, "%s: laying out the file: %s", path, strerror(e));
            return -e;
        }
        off += (uint64_t)k;
    }
    free(buf);
    if (fdatasync(fd) < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: fdatasync: %s", path, strerror(e));
        return -e;
    }
    return 0;
}

typedef struct file_ctx {
    char path[PATH_MAX + 32];
    int fd;                /* buffered descriptor for layout; closed before the run */
    bool created;
} file_ctx;

/* Creates/extends/checks one file so that [0, offset+size) exists. */
static int prepare_file(const sb_io_job *job, file_ctx *f, char *err, size_t errlen)
{
    uint64_t need = job->offset + job->size;
    struct stat st;
    bool exists = stat(f->path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s is a directory", f->path);
        return -EISDIR;
    }
    bool reads = sb_rw_reads(job->rw);
    if (exists && S_ISBLK(st.st_mode)) {
        int fd = open(f->path, reads && !sb_rw_writes(job->rw) ? O_RDONLY : O_RDWR);
        if (fd < 0) {
            int e = errno;
            snprintf(err, errlen, "%s: %s", f->path, strerror(e));
            return -e;
        }
        uint64_t bytes = 0;
        ioctl(fd, BLKGETSIZE64, &bytes);
        close(fd);
        if (bytes < need) {
            snprintf(err, errlen, "%s holds %" PRIu64 " bytes, less than offset + size = %" PRIu64,
                     f->path, bytes, need);
            return -ENOSPC;
        }
        f->fd = -1;
        return 0;
    }
    if (exists && reads && (uint64_t)st.st_size < need) {
        snprintf(err, errlen, "%s is %" PRIu64 " bytes, shorter than offset + size = %" PRIu64
                 " needed by a read job", f->path, (uint64_t)st.st_size, need);
        return -EINVAL;
    }
    uint64_t have = exists ? (uint64_t)st.st_size : 0;
    if (have < need) {
        char dir[sizeof f->path];
        snprintf(dir, sizeof dir, "%s", f->path);
        char *slash = strrchr(dir, '/');
        if (slash)
            *(slash == dir ? slash + 1 : slash) = '\0';
        else
            strcpy(dir, ".");
        struct statvfs vfs;
        if (statvfs(dir, &vfs) == 0) {
            uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
            if (need - have > avail) {
                snprintf(err, errlen, "%s: size %" PRIu64 " bytes does not fit: %" PRIu64
                         " bytes needed, %" PRIu64 " free", f->path, need, need - have, avail);
                return -ENOSPC;
            }
        }
    }
    int fd = open(f->path, O_RDWR | O_CREAT, 0644);
    if (fd < 0 && errno == EACCES && reads && !sb_rw_writes(job->rw) && exists)
        fd = open(f->path, O_RDONLY);
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", f->path, strerror(e));
        return -e;
    }
    f->created = !exists;
    f->fd = fd;
    if (have < need) {
        int r;
        if (reads || job->verify_pattern) {
            /* a read must find data on the medium, as fio's layout writes it */
            r = layout_file(fd, have, need, job->seed, job->verify_pattern, err, errlen, f->path);
        } else {
            r = fallocate(fd, 0, 0, (off_t)need) < 0 ? -errno : 0;
            if (r == -EOPNOTSUPP || r == -ENOSYS)
                r = ftruncate(fd, (off_t)need) < 0 ? -errno : 0;
            if (r < 0)
                snprintf(err, errlen, "%s: allocating %" PRIu64 " bytes: %s", f->path, need, strerror(-r));
        }
        if (r < 0)
            return r;
    }
    return 0;
}

static int open_for_io(const sb_io_job *job, const char *path, int *fdp, char *err, size_t errlen)
{
    int flags = sb_rw_writes(job->rw) ? O_RDWR : O_RDONLY;
    if (job->direct)
        flags |= O_DIRECT;
    int fd = open(path, flags);
    if (fd < 0) {
        int e = errno;
        if (e == EINVAL && job->direct) {
            snprintf(err, errlen, "%s: O_DIRECT refused by the filesystem (try buffered I/O)", path);
            return -EOPNOTSUPP;
        }
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    if (job->direct) {
        struct stat st;
        fstat(fd, &st);
        unsigned align = direct_alignment(fd, &st);
        if (job->bs % align || job->offset % align) {
            snprintf(err, errlen, "%s: %s %" PRIu64 " is not a multiple of the logical block size %u "
                     "(direct I/O)", path, job->bs % align ? "bs" : "offset",
                     job->bs % align ? job->bs : job->offset, align);
            close(fd);
            return -EINVAL;
        }
    }
    *fdp = fd;
    return 0;
}

static void worker_free(worker *w)
{
    if (!w)
        return;
    if (w->engine_ready)
        w->td.ops->cleanup(&w->td);
    if (w->fd >= 0)
        close(w->fd);
    free(w->bufmem);
    free(w->td.ios);
    free(w->freelist);
    free(w->done);
    free(w->sec_bytes);
    free(w->sec_ios);
    free(w);
}

static int worker_setup(worker *w, const sb_io_job *job, const sb_engine_ops *ops,
                        const char *path, char *err, size_t errlen)
{
    int r = open_for_io(job, path, &w->fd, err, errlen);
    if (r < 0)
        return r;
    unsigned depth = ops->sync ? 1 : job->iodepth;
    size_t bufsz = (size_t)job->bs * depth;
    if (posix_memalign(&w->bufmem, 4096, bufsz)) {
        w->bufmem = NULL;
        snprintf(err, errlen, "cannot allocate %zu bytes of I/O buffers", bufsz);
        return -ENOMEM;
    }
    sb_rand_seed(&w->rng, job->seed * 0x9e3779b97f4a7c15ull + w->index + 1);
    sb_rand_fill(&w->rng, w->bufmem, bufsz); /* incompressible write data */
    w->td.ops = ops;
    w->td.fd = w->fd;
    w->td.iodepth = depth;
    w->td.file_size = job->offset + job->size;
    w->td.direct = job->direct;
    w->td.writes = sb_rw_writes(job->rw);
    w->td.fixed_files = job->uring_fixed_files;
    w->td.fixed_bufs = job->uring_fixed_bufs;
    w->td.ios = calloc(depth, sizeof *w->td.ios);
    w->freelist = calloc(depth, sizeof *w->freelist);
    w->done = calloc(depth, sizeof *w->done);
    w->n_sec_cap = job->runtime_s > 0 ? (unsigned)ceil(job->runtime_s) + 2 : SB_IO_MAX_SECONDS;
    if (w->n_sec_cap > SB_IO_MAX_SECONDS)
        w->n_sec_cap = SB_IO_MAX_SECONDS;
    w->sec_bytes = calloc(w->n_sec_cap, sizeof *w->sec_bytes);
    w->sec_ios = calloc(w->n_sec_cap, sizeof *w->sec_ios);
    if (!w->td.ios || !w->freelist || !w->done || !w->sec_bytes || !w->sec_ios) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    for (unsigned i = 0; i < depth; i++) {
        sb_io_u *u = &w->td.ios[i];
        u->buf = (char *)w->bufmem + (size_t)i * job->bs;
        u->len = (uint32_t)job->bs;
        u->index = i;
        w->freelist[w->nfree++] = u;
    }
    w->block_count = job->size / job->bs;
    sb_offgen_init(&w->og, w->block_count, sb_rw_is_random(job->rw), job->norandommap,
                   job->seed + 0x100 * (w->index + 1));
    for (int d = 0; d < SB_DDIR_N; d++)
        sb_hist_init(&w->st[d].clat);
    return 0;
}

/* The engine is set up in the thread that uses it: io_uring binds a single-issuer ring
 * to the task that creates it. */
static int worker_engine_init(worker *w)
{
    int r = w->td.ops->init(&w->td);
    if (r < 0) {
        w->err = r;
        snprintf(w->errmsg, sizeof w->errmsg, "%s engine: %s", w->td.ops->name, strerror(-r));
        atomic_store_explicit(&w->sh->stop, true, memory_order_relaxed);
        return r;
    }
    w->engine_ready = true;
    /* fio's default fadvise_hint: tell the kernel the access pattern, so that random
     * buffered reads do not read ahead. */
    posix_fadvise(w->fd, 0, 0, sb_rw_is_random(w->job->rw) ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL);
    return 0;
}

/* ---------------------------------------------------------------- run */

void sb_io_result_free(sb_io_result *r)
{
    free(r->bw_bytes_per_s);
    free(r->iops);
    r->bw_bytes_per_s = r->iops = NULL;
    r->n_seconds = 0;
}

double sb_io_result_iops(const sb_io_result *r, int ddir)
{
    if (r->seconds <= 0)
        return 0;
    uint64_t n = ddir < 0 ? r->dir[0].ios + r->dir[1].ios : r->dir[ddir].ios;
    return (double)n / r->seconds;
}

double sb_io_result_bw(const sb_io_result *r, int ddir)
{
    if (r->seconds <= 0)
        return 0;
    uint64_t n = ddir < 0 ? r->dir[0].bytes + r->dir[1].bytes : r->dir[ddir].bytes;
    return (double)n / r->seconds;
}

int sb_io_run(const sb_io_job *job, sb_io_result *res, char *err, size_t errlen)
{
    char warn[256];
    int r = sb_io_job_check(job, err, errlen, warn, sizeof warn);
    if (r < 0)
        return r;
    const sb_engine_ops *ops = sb_engine_find(job->engine);
    if (ops->probe && (r = ops->probe()) < 0) {
        char list[256];
        sb_engine_list_working(list, sizeof list);
        snprintf(err, errlen, "I/O engine %s does not work on this kernel (%s); engines that work here: %s",
                 ops->name, strerror(-r), list);
        return r;
    }
    memset(res, 0, sizeof *res);
    for (int d = 0; d < SB_DDIR_N; d++)
        sb_hist_init(&res->dir[d].clat);
    sb_hist_init(&res->clat_all);
    snprintf(res->engine, sizeof res->engine, "%s", ops->name);
    res->effective_iodepth = ops->sync ? 1 : job->iodepth;

    unsigned nfiles = job->filename[0] ? 1 : job->numjobs;
    file_ctx *files = calloc(nfiles, sizeof *files);
    worker **ws = calloc(job->numjobs, sizeof *ws);
    pthread_t *tids = calloc(job->numjobs, sizeof *tids);
    shared sh;
    atomic_init(&sh.stop, false);
    unsigned started = 0;
    if (!files || !ws || !tids) {
        r = -ENOMEM;
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    for (unsigned i = 0; i < nfiles; i++) {
        files[i].fd = -1;
        if (job->filename[0])
            snprintf(files[i].path, sizeof files[i].path, "%s", job->filename);
        else
            snprintf(files[i].path, sizeof files[i].path, "%s/storbench-io.%u", job->directory, i);
        if ((r = prepare_file(job, &files[i], err, errlen)) < 0)
            goto out;
    }
    for (unsigned i = 0; i < nfiles; i++) {
        if (files[i].fd >= 0) {
            /* Before the run: the file's pages leave the page cache, so reads reach the
             * device. No sync here, as fio has none: a laid-out file was synced when it
             * was written (fio's create_fsync), and a fallocated one has nothing to
             * write — but an fdatasync would commit its new allocation (a btrfs
             * transaction, an ext4 journal commit) before the timed part, which fio
             * leaves to happen during the run. */
            if (job->invalidate)
                posix_fadvise(files[i].fd, 0, 0, POSIX_FADV_DONTNEED);
            close(files[i].fd);
            files[i].fd = -1;
        }
    }
    for (unsigned i = 0; i < job->numjobs; i++) {
        ws[i] = calloc(1, sizeof *ws[i]);
        if (!ws[i]) {
            r = -ENOMEM;
            snprintf(err, errlen, "out of memory");
            goto out;
        }
        ws[i]->fd = -1;
        ws[i]->index = i;
        ws[i]->job = job;
        ws[i]->sh = &sh;
        if ((r = worker_setup(ws[i], job, ops, files[nfiles == 1 ? 0 : i].path, err, errlen)) < 0)
            goto out;
    }
    sh.start_ns = sb_now_ns();
    for (; started < job->numjobs; started++) {
        if ((r = -pthread_create(&tids[started], NULL, worker_main, ws[started])) < 0) {
            snprintf(err, errlen, "cannot start a thread: %s", strerror(-r));
            atomic_store(&sh.stop, true);
            goto out;
        }
    }
    /* Control loop: interruption and progress, off the workers' hot path. */
    double total_s = job->startdelay_s + job->ramp_s + job->runtime_s;
    for (;;) {
        unsigned finished = 0;
        uint64_t bytes = 0;
        for (unsigned i = 0; i < job->numjobs; i++) {
            finished += atomic_load(&ws[i]->finished);
            bytes += atomic_load_explicit(&ws[i]->progress_bytes, memory_order_relaxed);
        }
        if (finished == job->numjobs)
            break;
        if (job->should_stop && job->should_stop(job->cb_arg)) {
            atomic_store(&sh.stop, true);
            res->interrupted = true;
        }
        if (job->progress) {
            double f;
            double el = (double)(sb_now_ns() - sh.start_ns) / 1e9;
            if (job->runtime_s > 0 && (job->time_based ||
                                       el / total_s > (double)bytes / ((double)job->size * job->numjobs)))
                f = el / total_s;
            else
                f = (double)bytes / ((double)job->size * job->numjobs);
            job->progress(job->cb_arg, f > 1 ? 1 : f);
        }
        struct timespec ts = {0, 100000000L};
        nanosleep(&ts, NULL);
    }
out:
    for (unsigned i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    if (r == 0) {
        for (unsigned i = 0; i < job->numjobs; i++)
            if (ws[i]->err) {
                r = ws[i]->err;
                snprintf(err, errlen, "%s", ws[i]->errmsg);
                break;
            }
    }
    if (r == 0) {
        unsigned nsec = 0;
        for (unsigned i = 0; i < job->numjobs; i++) {
            worker *w = ws[i];
            for (int d = 0; d < SB_DDIR_N; d++) {
                res->dir[d].ios += w->st[d].ios;
                res->dir[d].bytes += w->st[d].bytes;
                sb_hist_merge(&res->dir[d].clat, &w->st[d].clat);
                sb_hist_merge(&res->clat_all, &w->st[d].clat);
            }
            double s = w->last_ns > w->ramp_end_ns ? (double)(w->last_ns - w->ramp_end_ns) / 1e9 : 0;
            if (s > res->seconds)
                res->seconds = s;
            unsigned full = (unsigned)s;
            if (full > w->n_sec_cap)
                full = w->n_sec_cap;
            if (full > nsec)
                nsec = full;
        }
        if (nsec) {
            res->bw_bytes_per_s = calloc(nsec, sizeof *res->bw_bytes_per_s);
            res->iops = calloc(nsec, sizeof *res->iops);
            if (res->bw_bytes_per_s && res->iops) {
                res->n_seconds = nsec;
                for (unsigned i = 0; i < job->numjobs; i++)
                    for (unsigned s = 0; s < nsec && s < ws[i]->n_sec_cap; s++) {
                        res->bw_bytes_per_s[s] += (double)ws[i]->sec_bytes[s];
                        res->iops[s] += (double)ws[i]->sec_ios[s];
                    }
            }
        }
    }
    if (ws)
        for (unsigned i = 0; i < job->numjobs; i++)
            worker_free(ws[i]);
    if (files) {
        for (unsigned i = 0; i < nfiles; i++) {
            if (files[i].fd >= 0)
                close(files[i].fd);
            if (job->directory[0] && !job->keep_files && files[i].path[0])
                unlink(files[i].path);
        }
    }
    free(files);
    free(ws);
    free(tids);
    return r;
}
