/*
 * worker — runs an I/O job (job.h): prepares the files (prepare.c), sets up one
 * engine instance and its buffers per thread, starts numjobs threads (loop.c) on a
 * common clock, watches them for interruption and progress from the calling thread,
 * and merges their statistics into the result.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/cpuset.h"
#include "core/rand.h"
#include "io/engine.h"
#include "io/job.h"
#include "io/loop/offsets.h"
#include "io/run/iomem.h"
#include "io/run/live.h"
#include "io/run/worker.h"
#include "io/job/zbd.h"

static void worker_free(worker *w)
{
    if (!w)
        return;
    if (w->engine_ready)
        w->td.ops->cleanup(&w->td);
    sb_flow_leave(&w->flow);
    sb_io_files_close(w);
    if (w->fd >= 0)
        close(w->fd);
    if (w->job)
        sb_iomem_free(w->job->iomem, w->bufmem, w->buflen);
    free(w->td.ios);
    free(w->freelist);
    free(w->done);
    free(w->pend);
    free(w->bs_table);
    sb_zbd_thread_free(w->zbd);
    free(w->bs_table_w);
    if (w->spr)
        sb_spr_free(w->spr);
    free(w->prio);
    sb_iolog_close(w->log, 0);
    sb_tsb_free(&w->ts);
    munmap(w, sizeof *w);
}

/* A worker's state in pages of its own, zero and untouched: its two latency
 * histograms (~60 KiB each) then cost memory only for the buckets its latencies
 * reach (a few pages), which keeps a 64-job run small. NULL when out of memory. */
static worker *worker_alloc(void)
{
    void *p = mmap(NULL, sizeof(worker), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* The largest block size of the job (bsrange, bssplit, or bs). */
static uint64_t job_max_bs(const sb_io_job *job)
{
    uint64_t m = job->bs_max > job->bs ? job->bs_max : job->bs;
    m = job->bs_w > m ? job->bs_w : m; /* bs=READ,WRITE */
    m = job->bs_max_w > m ? job->bs_max_w : m;
    for (unsigned i = 0; i < job->bssplit.n; i++)
        m = job->bssplit.bs[i] > m ? job->bssplit.bs[i] : m;
    for (unsigned i = 0; i < job->bssplit_w.n; i++)
        m = job->bssplit_w.bs[i] > m ? job->bssplit_w.bs[i] : m;
    return m;
}

/* A split's SB_IO_BS_TABLE sizes in proportion to their percentages, shuffled. */
static void split_table(worker *w, const sb_io_bssplit *sp, uint32_t *t)
{
    unsigned k = 0;
    for (unsigned i = 0; i < sp->n; i++)
        for (unsigned j = 0; j < sp->pct[i] * SB_IO_BS_TABLE / 100 && k < SB_IO_BS_TABLE; j++)
            t[k++] = (uint32_t)sp->bs[i];
    for (unsigned i = 0; k < SB_IO_BS_TABLE; k++, i++) /* rounding: the largest shares fill */
        t[k] = (uint32_t)sp->bs[i % sp->n];
    for (unsigned i = SB_IO_BS_TABLE - 1; i > 0; i--) {
        unsigned j = (unsigned)sb_rand_below(&w->rng, i + 1);
        uint32_t x = t[i];
        t[i] = t[j];
        t[j] = x;
    }
}

/* The thread's block sequence: its unit and count, the generator, rw's skip, strided
 * zones, a distribution, randread:N and percentage_random (offsets.h). */
static void offsets_setup(worker *w, const sb_io_job *job, uint64_t seed)
{
    /* blockalign: random offsets in its unit, the last block still whole */
    w->unit = job->blockalign ? job->blockalign : job->bs;
    /* ba=READ,WRITE, bs=READ,WRITE: the writes' random offsets in their own unit (fio's ba
     * defaults to each direction's smallest size) */
    w->unit_w = job->blockalign_w ? job->blockalign_w : job->blockalign ? 0 : job->bs_w;
    w->block_count = job->blockalign && job->size >= job->bs ? (job->size - job->bs) / w->unit + 1
                                                             : job->size / job->bs;
    sb_offgen_init(&w->og, w->block_count, sb_rw_is_random(job->rw), job->norandommap,
                   seed + 0x100 * (w->index + 1));
    if (job->rw_skip)
        sb_offgen_set_step(&w->og, (int64_t)(job->bs + (uint64_t)job->rw_skip) / (int64_t)job->bs);
    if (job->zonemode == SB_ZONEMODE_STRIDED)
        sb_offgen_set_zones(&w->og, job->zonesize / job->bs, job->zoneskip / job->bs);
    if (job->dist.kind != SB_DIST_RANDOM && sb_rw_is_random(job->rw)) {
        sb_distgen_init(&w->dg, &job->dist, w->block_count, w->unit, seed + 0x100 * (w->index + 1));
        w->og.dist = &w->dg;
    }
    /* randread:N and percentage_random go through next_io's rare path */
    w->seqmix_on = sb_rw_is_random(job->rw) && (job->rw_seq_nr > 1 || job->pct_random < 100);
    if (w->seqmix_on)
        sb_seqmix_init(&w->seqmix, job->rw_seq_nr, job->rw_sequencer == 1, job->pct_random,
                       seed + 0x100 * (w->index + 1));
}

/* A range's sizes (one size: hi 0): uniform in multiples of lo, as fio's, or with
 * bs_unaligned any byte count from lo to hi. */
static void range_table(worker *w, uint64_t lo, uint64_t hi, bool unaligned, uint32_t *t)
{
    uint64_t steps = hi > lo ? (unaligned ? hi - lo + 1 : hi / lo) : 1;
    for (unsigned i = 0; i < SB_IO_BS_TABLE; i++) {
        uint64_t k = sb_rand_below(&w->rng, steps);
        t[i] = (uint32_t)(unaligned && hi > lo ? lo + k : lo * (1 + k));
    }
}

/* bsrange / bssplit / bs=READ,WRITE / blockalign: SB_IO_BS_TABLE sizes drawn now, so that
 * an I/O only takes the next (loop.c): a split's sizes in proportion to their
 * percentages, a range's uniform in multiples of its low end, as fio's; the writes' own
 * when they differ. Shuffled with the thread's generator. A random job with blockalign
 * takes this path for its offsets (fio's: drawn independently in the alignment's unit). */
static int bs_table_setup(worker *w, const sb_io_job *job)
{
    bool blocks = job->zonemode == SB_ZONEMODE_ZBD || job->sprandom || job->random_generator == SB_RNG_LFSR;
    if (!job->bssplit.n && job->bs_max <= job->bs && !job->bs_w &&
        !(job->blockalign && sb_rw_is_random(job->rw) && !blocks))
        return 0;
    uint32_t *t = malloc(SB_IO_BS_TABLE * sizeof *t);
    if (!t)
        return -ENOMEM;
    if (job->bssplit_w.n || job->bs_w) { /* bssplit=READS,WRITES, bs=READ,WRITE: the writes' */
        if (!(w->bs_table_w = malloc(SB_IO_BS_TABLE * sizeof *w->bs_table_w))) {
            free(t);
            return -ENOMEM;
        }
        if (job->bssplit_w.n)
            split_table(w, &job->bssplit_w, w->bs_table_w);
        else
            range_table(w, job->bs_w, job->bs_max_w, job->bs_unaligned, w->bs_table_w);
    }
    if (job->bssplit.n)
        split_table(w, &job->bssplit, t);
    else
        range_table(w, job->bs, job->bs_max, job->bs_unaligned, t);
    w->bs_table = t;
    return 0;
}

static int worker_setup(worker *w, const sb_io_job *job, const sb_engine_ops *ops,
                        const char *path, char *err, size_t errlen)
{
    int r = sb_io_open_for_io(job, path, &w->fd, err, errlen);
    if (r < 0)
        return r;
    /* offload: iodepth submit threads, each one I/O at a time, whatever the engine (fio's) */
    unsigned depth = ops->sync && !job->submit_offload ? 1 : job->iodepth;
    const uint64_t maxbs = job_max_bs(job);
    size_t bufsz = (size_t)maxbs * depth;
    w->buflen = bufsz;
    if ((r = sb_iomem_alloc(job->iomem, bufsz, &w->bufmem, err, errlen)) < 0) /* fio's mem */
        return r;
    struct stat fst;
    w->trim_blk = fstat(w->fd, &fst) == 0 && S_ISBLK(fst.st_mode);
    const uint64_t seed = w->sh->seed;
    sb_rand_seed(&w->rng, seed * 0x9e3779b97f4a7c15ull + w->index + 1);
    if (job->buffer_pat_len) /* fio's buffer_pattern: the pattern, repeated */
        for (size_t i = 0; i < bufsz; i++)
            ((uint8_t *)w->bufmem)[i] = job->buffer_pat[i % job->buffer_pat_len];
    else if (job->zero_buffers)
        memset(w->bufmem, 0, bufsz);
    else
        sb_rand_fill(&w->rng, w->bufmem, bufsz); /* incompressible write data */
    if (bs_table_setup(w, job) < 0) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    w->sync_every = job->fsync_every ? job->fsync_every : job->fdatasync_every;
    w->sync_data = !job->fsync_every && job->fdatasync_every;
    const uint64_t rates[SB_DDIR_N] = {job->rate, job->rate_write};
    const uint64_t iops[SB_DDIR_N] = {job->rate_iops, job->rate_iops_write};
    w->paced = (w->think_ns = (uint64_t)(job->thinktime_s * 1e9)) > 0;
    for (int d = 0; d < SB_DDIR_N; d++) {
        w->ns_per_byte[d] = rates[d] ? 1e9 / (double)rates[d] : 0;
        w->ns_per_io[d] = iops[d] ? 1e9 / (double)iops[d] : 0;
        w->paced |= w->ns_per_byte[d] > 0 || w->ns_per_io[d] > 0;
    }
    w->fill = (job->dedupe_percentage || job->compress_pct) && !job->zero_buffers;
    if ((r = sb_io_ctl_setup(w, job, err, errlen)) < 0)
        return r;
    w->td.ops = ops;
    w->td.fd = w->fd;
    w->td.iodepth = depth;
    w->td.file_size = job->offset + job->size;
    w->td.direct = job->direct;
    w->td.writes = sb_rw_writes(job->rw);
    w->td.fixed_files = job->uring_fixed_files != 0;
    w->td.fixed_bufs = job->uring_fixed_bufs != 0;
    w->td.files_required = job->uring_fixed_files > 0;
    w->td.bufs_required = job->uring_fixed_bufs > 0;
    w->td.sqpoll = job->uring_sqpoll;
    w->td.nowait = job->io_nowait;
    w->td.hipri = job->io_hipri;
    w->td.ios = calloc(depth, sizeof *w->td.ios);
    w->freelist = calloc(depth, sizeof *w->freelist);
    w->done = calloc(depth, sizeof *w->done);
    w->pend = calloc(depth, sizeof *w->pend);
    /* the clock starts in the thread (sb_tsb_start); the snapshot is allocated here */
    int ts = sb_tsb_init(&w->ts, 0, sb_io_log_interval_ns(job));
    if (!w->td.ios || !w->freelist || !w->done || !w->pend || ts < 0) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    for (unsigned i = 0; i < depth; i++) {
        sb_io_u *u = &w->td.ios[i];
        u->buf = (char *)w->bufmem + (size_t)i * maxbs;
        u->len = (uint32_t)job->bs;
        u->index = i;
        w->freelist[w->nfree++] = u;
    }
    offsets_setup(w, job, seed);
    /* fio's cmdprio: each I/O's priority, the rest's the job's (prioclass / prio) */
    w->cmdprio = sb_cmdprio_on(&job->cmdprio);
    if (job->prioclass >= 0 || job->prio >= 0)
        w->ioprio_default = sb_ioprio(job->prioclass >= 0 ? job->prioclass : 2,
                                      job->prio >= 0 ? job->prio : 0, 0);
    if (w->cmdprio && !(w->prio = calloc(1, sizeof *w->prio))) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    /* pace.c: thinktime's options, cmdprio's stats, max_latency, latency_target, iodepth_low */
    sb_io_watch_setup(w, job, depth);
    /* fio's random_generator=lfsr; sprandom draws its fresh blocks from the same cycle */
    if ((job->random_generator == SB_RNG_LFSR || job->sprandom) && !w->og.dist)
        sb_offgen_set_lfsr(&w->og);
    if (job->sprandom) {
        int r = sb_spr_init(&w->spr_state, w->block_count, job->spr_op, job->spr_num_regions,
                            seed + 0x100 * (w->index + 1), err, errlen);
        if (r < 0)
            return r;
        w->spr = &w->spr_state;
    }
    for (int d = 0; d < SB_DDIR_N; d++) { /* worker_alloc's pages: already zero */
        sb_hist_init_zeroed(&w->st[d].clat);
        sb_hist_init_zeroed(&w->st[d].slat);
        sb_hist_init_zeroed(&w->st[d].clat_issued);
    }
    w->no_lat = job->gtod_reduce;
    w->ddir_fixed = job->rw == SB_RW_RW || job->rw == SB_RW_RANDRW ? -1
                    : sb_rw_trims(job->rw) ? SB_DDIR_TRIM : sb_rw_writes(job->rw) ? SB_DDIR_WRITE
                                                                                : SB_DDIR_READ;
    w->rare = job->rw == SB_RW_TRIMWRITE || w->seqmix_on; /* and several files: setup_workers */
    return sb_iolog_open(job, w->index, &w->log, err, errlen);
}

/* ---------------------------------------------------------------- run */

/* Starts thread i, placed on the job's CPUs when cpus_allowed is set. */
static int start_thread(const sb_io_job *job, unsigned i, pthread_t *tid, worker *w)
{
    pthread_attr_t attr;
    int r = pthread_attr_init(&attr);
    if (r)
        return -r;
    if (job->cpus_allowed_set) {
        cpu_set_t set;
        if (job->cpus_split) {
            CPU_ZERO(&set);
            CPU_SET(sb_cpuset_nth(&job->cpus_allowed, i), &set);
        } else {
            set = job->cpus_allowed;
        }
        r = pthread_attr_setaffinity_np(&attr, sizeof set, &set);
    }
    if (!r)
        r = pthread_create(tid, &attr, sb_io_worker_main, w);
    pthread_attr_destroy(&attr);
    return -r;
}

/* One thread's figures added to res. */
static void merge_worker(const worker *w, sb_io_result *res)
{
    for (int d = 0; d < SB_DDIR_N; d++) {
        res->dir[d].ios += w->st[d].ios;
        res->dir[d].bytes += w->st[d].bytes;
        sb_hist_merge(&res->dir[d].clat, &w->st[d].clat);
        sb_hist_merge(&res->dir[d].slat, &w->st[d].slat);
        sb_hist_merge(&res->dir[d].clat_issued, &w->st[d].clat_issued);
        sb_hist_merge(&res->clat_all, &w->st[d].clat);
    }
    res->cpu_ios += w->ios_done;
    res->zone_resets += sb_zbd_resets(w->zbd);
    if (w->lat_target_ns)
        res->latency_depth = w->lat_qd;
    res->total_err += w->total_err;
    if (!res->first_error)
        res->first_error = w->first_error;
    for (int i = 0; i < SB_IO_DEPTH_BUCKETS; i++) {
        res->depths.level[i] += w->depths.level[i];
        res->depths.submit[i] += w->depths.submit[i];
        res->depths.complete[i] += w->depths.complete[i];
    }
    res->uring_fixed_files = w->td.fixed_files;
    res->uring_fixed_bufs = w->td.fixed_bufs;
    double s = w->last_ns > w->ramp_end_ns ? (double)(w->last_ns - w->ramp_end_ns) / 1e9 : 0;
    if (s > res->seconds)
        res->seconds = s;
    if (w->last_ns > w->ramp_end_ns) { /* the interval on the clock, for MPI ranks */
        if (!res->start_ns || w->ramp_end_ns < res->start_ns)
            res->start_ns = w->ramp_end_ns;
        if (w->last_ns > res->end_ns)
            res->end_ns = w->last_ns;
    }
}

/* The figures of the threads, summed and merged into res (their time series: sampling.c);
 * without group_reporting, each thread's also on its own in res->threads, as fio reports
 * each of numjobs. */
static int merge_results(const sb_io_job *job, worker **ws, sb_io_result *res)
{
    for (unsigned i = 0; i < job->numjobs; i++)
        merge_worker(ws[i], res);
    /* cmdprio: the latency per priority, of the threads together */
    for (unsigned i = 0; i < job->numjobs; i++)
        if (ws[i]->prio && (res->prio || (res->prio = calloc(1, sizeof *res->prio))))
            sb_prio_merge(res->prio, ws[i]->prio);
    if (job->group_reporting || job->numjobs < 2)
        return 0;
    res->threads = calloc(job->numjobs, sizeof *res->threads);
    if (!res->threads)
        return -ENOMEM;
    res->n_threads = job->numjobs;
    for (unsigned i = 0; i < job->numjobs; i++) {
        sb_io_result *t = &res->threads[i];
        for (int d = 0; d < SB_DDIR_N; d++) {
            sb_hist_init(&t->dir[d].clat);
            sb_hist_init(&t->dir[d].slat);
            sb_hist_init(&t->dir[d].clat_issued);
        }
        sb_hist_init(&t->clat_all);
        snprintf(t->engine, sizeof t->engine, "%s", res->engine);
        t->effective_iodepth = res->effective_iodepth;
        merge_worker(ws[i], t);
    }
    return 0;
}

/* The job's files: named, created or extended to offset+size, and out of the page cache.
 * Each descriptor is closed again: the workers open their own. */
static int prepare_files(const sb_io_job *job, file_ctx *files, unsigned *nfiles, unsigned *map,
                         const char *dir, char *err, size_t errlen)
{
    int r;
    for (unsigned i = 0; i < *nfiles; i++)
        files[i].fd = -1; /* before any can fail: the clean-up closes what is >= 0 */
    /* the names (files.c): fio's a:b list, or nrfiles per thread in dir */
    if ((r = sb_io_files_name(job, dir, files, nfiles, map, err, errlen)) < 0) {
        *nfiles = 0;
        return r;
    }
    for (unsigned i = 0; i < *nfiles; i++) {
        if (job->offset_increment) { /* the file holds the furthest thread's region (one file per thread) */
            sb_io_job fj;
            sb_io_ctl_file_job(job, i, *nfiles, &fj);
            r = sb_io_prepare_file(&fj, &files[i], err, errlen);
        } else {
            r = sb_io_prepare_file(job, &files[i], err, errlen);
        }
        if (r < 0)
            return r;
    }
    for (unsigned i = 0; i < *nfiles; i++) {
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
    return 0;
}

/* numjobs workers, each on its file (the shared one, or its own) with engine and buffers. */
static int setup_workers(const sb_io_job *job, const sb_engine_ops *ops, const file_ctx *files,
                         const unsigned *map, shared *sh, worker **ws, char *err, size_t errlen)
{
    const unsigned per = sb_io_files_per_thread(job);
    int r;
    for (unsigned i = 0; i < job->numjobs; i++) {
        ws[i] = worker_alloc();
        if (!ws[i]) {
            snprintf(err, errlen, "out of memory");
            return -ENOMEM;
        }
        ws[i]->fd = -1;
        ws[i]->index = i;
        ws[i]->job = job;
        ws[i]->sh = sh;
        if (job->offset_increment) { /* thread i's own region (jobctl.c) */
            ws[i]->own_job = *job;
            ws[i]->own_job.offset += (uint64_t)i * job->offset_increment;
            ws[i]->job = &ws[i]->own_job;
        }
        const file_ctx *f = &files[map[i * per]];
        if ((r = worker_setup(ws[i], ws[i]->job, ops, f->path, err, errlen)) < 0 ||
            (r = sb_io_files_open(ws[i], ws[i]->job, files, map, err, errlen)) < 0)
            return r;
        if (f->zbd && (r = sb_zbd_thread_new(f->zbd, ws[i]->job, ws[i]->fd, &ws[i]->zbd, err, errlen)) < 0)
            return r;
        if (ws[i]->fs) { /* one registered file, the first: the others go by descriptor */
            ws[i]->td.fixed_files = false;
            ws[i]->rare = true;
        }
    }
    return 0;
}

/* zonemode=zbd: each file's zones (zbd.h), shared with the other jobs on it. */
static int zbd_attach_files(const sb_io_job *job, file_ctx *files, unsigned nfiles, char *err,
                            size_t errlen)
{
    int r;
    for (unsigned i = 0; i < nfiles && job->zonemode == SB_ZONEMODE_ZBD; i++)
        if ((r = sb_zbd_attach(job, files[i].path, files[i].created, &files[i].zbd, err, errlen)) < 0)
            return r;
    return 0;
}

/* fio's rate_min and rate_iops_min (rate_min wins when both are given, as fio's), from the
 * controlling thread. As fio's, a thread is judged when it has completed I/O (fio checks
 * after completions), at most once per rate_cycle (1 s by default),
 * on the bytes since it was last judged, from the second second of the measurement on; a
 * thread that completes nothing for 10 s is judged then. -ETIME with the line in err when
 * one is below (the job stops), else 0. */
static int rate_min_poll(const sb_io_job *job, worker **ws, const shared *sh, uint64_t now,
                         char *err, size_t errlen)
{
    const uint64_t measure_ns = sh->start_ns + (uint64_t)((job->startdelay_s + job->ramp_s) * 1e9);
    for (unsigned i = 0; i < job->numjobs; i++) {
        worker *w = ws[i];
        uint64_t b = atomic_load_explicit(&w->progress_bytes, memory_order_relaxed);
        uint64_t n = atomic_load_explicit(&w->progress_ios, memory_order_relaxed);
        if (atomic_load(&w->finished) || now < measure_ns + NS)
            continue;
        if (!w->rm_next_ns) { /* rm_next_ns: when it was last judged */
            w->rm_next_ns = now;
            w->rm_bytes = b;
            w->rm_ios = n;
            continue;
        }
        uint64_t spent = now - w->rm_next_ns;
        if (spent < (uint64_t)job->rate_cycle_ms * 1000000 || (b == w->rm_bytes && spent < 10 * NS))
            continue;
        double rate = (double)(b - w->rm_bytes) / ((double)spent / 1e9);
        double iops = (double)(n - w->rm_ios) / ((double)spent / 1e9);
        if (job->rate_min && rate < (double)job->rate_min) {
            snprintf(err, errlen, "rate_min %" PRIu64 " B/s not met: thread %u moved %.0f B/s",
                     job->rate_min, i + 1, rate);
            return -ETIME;
        }
        if (!job->rate_min && iops < (double)job->rate_iops_min) {
            snprintf(err, errlen, "rate_iops_min %" PRIu64 " not met: thread %u did %.0f IOPS",
                     job->rate_iops_min, i + 1, iops);
            return -ETIME;
        }
        w->rm_bytes = b;
        w->rm_ios = n;
        w->rm_next_ns = now;
    }
    return 0;
}

/* Control loop: interruption, steady state, rate_min and progress, off the workers' hot path.
 * Returns when every worker has finished: 0, or -ETIME when rate_min was not met. */
static int watch_workers(const sb_io_job *job, worker **ws, shared *sh, sb_io_result *res,
                         char *err, size_t errlen)
{
    int rc = 0;
    const unsigned per = sb_io_files_per_thread(job);
    double total_s = job->startdelay_s + job->ramp_s + job->runtime_s;
    size_t ss_next = 0;
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
            atomic_store(&sh->stop, true);
            res->interrupted = true;
        }
        if (job->stop_ext && atomic_load(job->stop_ext))
            atomic_store(&sh->stop, true); /* exitall: another job ended (jobrun.c) */
        if (sb_io_steady_poll(ws, job->numjobs, &res->steady, &ss_next))
            atomic_store(&sh->stop, true); /* settled (io/steadystate.h) */
        if ((job->rate_min || job->rate_iops_min) && !rc && (rc = rate_min_poll(job, ws, sh, sb_now_ns(), err, errlen)) < 0)
            atomic_store(&sh->stop, true);
        if (job->progress) {
            double f;
            double el = (double)(sb_now_ns() - sh->start_ns) / 1e9;
            if (job->runtime_s > 0 && (job->time_based ||
                                       el / total_s > (double)bytes / ((double)job->size * job->numjobs * per)))
                f = el / total_s;
            else
                f = (double)bytes / ((double)job->size * job->numjobs * per);
            job->progress(job->cb_arg, f > 1 ? 1 : f);
        }
        struct timespec ts = {0, 100000000L};
        nanosleep(&ts, NULL);
    }
    return rc;
}

/* Workers and files go; of the files only those this run created are removed
 * (prepare.c: sb_io_remove_created), and the private directory if it made one. */
static void release(const sb_io_job *job, worker **ws, file_ctx *files, unsigned nfiles,
                    const char *dir, bool made_dir, bool failed)
{
    if (ws)
        for (unsigned i = 0; i < job->numjobs; i++)
            worker_free(ws[i]);
    for (unsigned i = 0; files && i < nfiles; i++) {
        if (files[i].fd >= 0)
            close(files[i].fd);
        /* a file that goes takes its zones with it (prepare.c's rule of what goes) */
        sb_zbd_detach(files[i].zbd, files[i].created &&
                                    (job->directory[0] ? !job->keep_files : failed || job->unlink));
    }
    sb_io_remove_created(job, files, nfiles, dir, made_dir, failed);
}

/* An empty result for the job on engine ops: its histograms, the steady-state check,
 * what ran. 0, or -ENOMEM with err. */
static int result_init(sb_io_result *res, const sb_io_job *job, const sb_engine_ops *ops, char *err,
                       size_t errlen)
{
    memset(res, 0, sizeof *res);
    for (int d = 0; d < SB_DDIR_N; d++) {
        sb_hist_init(&res->dir[d].clat);
        sb_hist_init(&res->dir[d].slat);
        sb_hist_init(&res->dir[d].clat_issued);
    }
    sb_hist_init(&res->clat_all);
    int r = sb_ss_init(&res->steady, &job->steady);
    if (r < 0) {
        snprintf(err, errlen, "out of memory");
        return r;
    }
    snprintf(res->engine, sizeof res->engine, "%s", ops->name);
    res->effective_iodepth = ops->sync && !job->submit_offload ? 1 : job->iodepth;
    return 0;
}

/* The caller's live view (live.h; NULL: none) of the running threads: what it reads of
 * each. The views, freed by the caller after sb_io_live_detach(). */
static sb_io_live_thread *live_attach(sb_io_live *live, const sb_io_job *job, worker **ws,
                                      const sb_io_result *res, uint64_t start_ns, const sb_cpu_times *cpu0)
{
    sb_io_live_thread *lv = live ? calloc(job->numjobs, sizeof *lv) : NULL;
    if (!lv)
        return NULL; /* out of memory: no snapshots, the job runs */
    for (unsigned i = 0; i < job->numjobs; i++)
        lv[i] = (sb_io_live_thread){ws[i]->st, &ws[i]->ios_done, &ws[i]->total_err, &ws[i]->last_ns,
                                    &ws[i]->depths, &ws[i]->finished, &ws[i]->ts};
    sb_io_live_attach(live, job, lv, job->numjobs, res->engine, res->effective_iodepth, start_ns, cpu0);
    return lv;
}

/* The job checked, and the copy that runs: its size per file (files.c: fio's size over
 * nrfiles) and a size=N% made bytes from the file as it is when the job starts (an
 * earlier phase may have made it). 0, or -errno with one line in err. */
static int job_copy(const sb_io_job *job_given, sb_io_job **out, char *err, size_t errlen)
{
    char warn[256];
    int r = sb_io_job_check(job_given, err, errlen, warn, sizeof warn);
    if (r < 0)
        return r;
    sb_io_job *jcopy = malloc(sizeof *jcopy);
    if (!jcopy) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    *jcopy = *job_given;
    if ((r = sb_io_files_size_pct(jcopy, err, errlen)) < 0) {
        free(jcopy);
        return r;
    }
    sb_io_files_resolve(jcopy);
    *out = jcopy;
    return 0;
}

int sb_io_run(const sb_io_job *job, sb_io_result *res, char *err, size_t errlen)
{
    return sb_io_run_live(job, res, NULL, err, errlen);
}

int sb_io_run_live(const sb_io_job *job_given, sb_io_result *res, sb_io_live *live, char *err,
                   size_t errlen)
{
    sb_io_job *jcopy;
    int r = job_copy(job_given, &jcopy, err, errlen);
    if (r < 0)
        return r;
    const sb_io_job *job = jcopy;
    const sb_engine_ops *ops = sb_engine_find(job->engine);
    if ((r = sb_engine_check_works(ops, "", err, errlen)) < 0 ||
        (r = result_init(res, job, ops, err, errlen)) < 0) {
        free(jcopy);
        return r;
    }

    const unsigned per = sb_io_files_per_thread(job);
    unsigned nfiles = job->filename[0] ? per : job->numjobs * per; /* at most: names may repeat */
    file_ctx *files = calloc(nfiles, sizeof *files);
    unsigned *map = calloc((size_t)job->numjobs * per, sizeof *map);
    worker **ws = calloc(job->numjobs, sizeof *ws);
    pthread_t *tids = calloc(job->numjobs, sizeof *tids);
    shared sh;
    sb_io_job *filled = NULL;
    sb_verify_fmt vfmt = {0};
    atomic_init(&sh.stop, false);
    /* randrepeat=0: a seed of this run's own, as fio's (the clock's low bits) */
    sh.seed = job->randrepeat ? job->seed : job->seed ^ (sb_now_ns() * 0x9e3779b97f4a7c15ull);
    unsigned started = 0;
    char dir[PATH_MAX] = "";
    bool made_dir = false;
    sb_cpu_times cpu0 = {0}, cpu1;
    sb_io_live_thread *lv = NULL;
    if (!files || !ws || !tids || !map) {
        r = -ENOMEM;
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    if ((r = sb_io_files_dir(job, dir, sizeof dir, &made_dir, err, errlen)) < 0)
        goto out;
    /* fill_device: the region is the room left (jobctl.c), for the rest of the run */
    if (job->fill_device && (r = sb_io_ctl_fill_job(job, dir, &filled, err, errlen)) < 0)
        goto out;
    if (filled)
        job = filled;
    if (job->prepare_lock)
        pthread_mutex_lock(job->prepare_lock);
    r = prepare_files(job, files, &nfiles, map, dir, err, errlen);
    if (job->prepare_lock)
        pthread_mutex_unlock(job->prepare_lock);
    if (r < 0 || (r = zbd_attach_files(job, files, nfiles, err, errlen)) < 0 ||
        (r = setup_workers(job, ops, files, map, &sh, ws, err, errlen)) < 0 ||
        (r = sb_io_verify_setup(job, &vfmt, files, nfiles, ws, err, errlen)) < 0)
        goto out;
    sb_cpu_times_now(&cpu0);
    sh.start_ns = sb_now_ns();
    for (; started < job->numjobs; started++) {
        if ((r = start_thread(job, started, &tids[started], ws[started])) < 0) {
            snprintf(err, errlen, "cannot start a thread: %s", strerror(-r));
            atomic_store(&sh.stop, true);
            goto out;
        }
    }
    lv = live_attach(live, job, ws, res, sh.start_ns, &cpu0);
    r = watch_workers(job, ws, &sh, res, err, errlen);
out:
    for (unsigned i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    if (live) /* before the workers go: their final figures stay readable */
        sb_io_live_detach(live);
    free(lv);
    if (started) {
        sb_cpu_times_now(&cpu1);
        res->cpu_user_s = (double)(cpu1.user_ns - cpu0.user_ns) / 1e9;
        res->cpu_sys_s = (double)(cpu1.sys_ns - cpu0.sys_ns) / 1e9;
        uint64_t end = sh.start_ns;
        for (unsigned i = 0; i < started; i++)
            end = ws[i]->finished_ns > end ? ws[i]->finished_ns : end;
        res->cpu_wall_s = (double)(end - sh.start_ns) / 1e9;
    }
    if (r == 0) {
        for (unsigned i = 0; i < job->numjobs; i++)
            if (ws[i]->err) {
                r = ws[i]->err;
                snprintf(err, errlen, "%s", ws[i]->errmsg);
                break;
            }
        r = sb_io_verify_finish(job, &vfmt, files, nfiles, ws, res, r, err, errlen);
    }
    /* a verify mismatch keeps the figures: the report shows them beside it */
    if ((r == 0 || (r == -EILSEQ && job->verify)) && merge_results(job, ws, res) < 0 && r == 0) {
        r = -ENOMEM;
        snprintf(err, errlen, "out of memory");
    }
    sb_io_verify_free(&vfmt, files, nfiles, ws, job->numjobs);
    if ((r == 0 || (r == -EILSEQ && job->verify)) && sb_io_series_collect(ws, job->numjobs, res) < 0 &&
        r == 0) {
        r = -ENOMEM;
        snprintf(err, errlen, "out of memory");
    }
    release(job, ws, files, nfiles, dir, made_dir, r < 0 && !(r == -EILSEQ && job->verify));
    free(files);
    free(map);
    free(ws);
    free(tids);
    bool keep = r == 0 || (r == -EILSEQ && job->verify); /* a verify mismatch keeps its figures */
    free(filled);
    free(jcopy);
    if (!keep)
        sb_io_result_free(res);
    return r;
}
