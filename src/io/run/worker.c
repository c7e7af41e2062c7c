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
#include "core/cpubusy.h"
#include "core/cpuset.h"
#include "core/rand.h"
#include "core/strutil.h"
#include "io/engine.h"
#include "io/job.h"
#include "io/loop/offsets.h"
#include "io/run/iomem.h"
#include "io/run/jobclock.h"
#include "io/run/live.h"
#include "io/run/gate.h"
#include "io/run/system.h"
#include "io/job/fileopts.h"
#include "io/run/worker.h"
#include "io/job/zbd.h"
#include "io/loop/replay.h"

static void worker_free(worker *w)
{
    if (!w)
        return;
    if (w->engine_ready)
        w->td.ops->cleanup(&w->td);
    sb_io_flock_detach(w);
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
    sb_varmap_free(&w->vmap);
    sb_zbd_thread_free(w->zbd);
    free(w->bs_table_w);
    if (w->spr)
        sb_spr_free(w->spr);
    free(w->prio);
    sb_iolog_close(w->log, 0);
    sb_io_iolog_end(w);
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

/* The I/O buffers' bytes: fio's hugepage-size makes huge-page buffers whole pages of it
 * (iomem.c then rounds to the kernel's own huge page, which MAP_HUGETLB needs). */
static size_t buffer_bytes(const sb_io_job *job, size_t bytes)
{
    if ((job->iomem == SB_IOMEM_SHMHUGE || job->iomem == SB_IOMEM_MMAPHUGE) && job->hugepage_size)
        bytes = (bytes + job->hugepage_size - 1) / job->hugepage_size * job->hugepage_size;
    return bytes;
}

/* The periodic sync: fsync=N, fdatasync=N or sync_file_range=FLAGS:N. */
static void sync_setup(worker *w, const sb_io_job *job)
{
    w->sync_every = job->fsync_every ? job->fsync_every
                    : job->fdatasync_every ? job->fdatasync_every : job->sfr_every;
    w->sync_data = !job->fsync_every && job->fdatasync_every;
    sb_hist_init_zeroed(&w->sync_st.clat); /* worker_alloc's pages: already zero */
}

/* A worker on path with its engine and buffers; the file op engines open nothing (their
 * operation is on the name: fileops.c). */
static int worker_setup(worker *w, const sb_io_job *job, const sb_engine_ops *ops,
                        const char *path, char *err, size_t errlen)
{
    int r = ops->caps & SB_ENGINE_FILE_OPS ? 0 : sb_io_open_for_io(job, path, &w->fd, err, errlen);
    if (r < 0)
        return r;
    /* offload: iodepth submit threads, each one I/O at a time, whatever the engine (fio's) */
    unsigned depth = ops->sync && !job->submit_offload ? 1 : job->iodepth;
    const uint64_t maxbs = sb_io_job_max_bs(job);
    size_t bufsz = buffer_bytes(job, (size_t)maxbs * depth + job->mem_align);
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
    else if (sb_rw_writes(job->rw)) /* fio's: a job that only reads leaves them untouched */
        sb_rand_fill(&w->rng, w->bufmem, bufsz); /* incompressible write data */
    if (sb_io_worker_bs_table(w, job) < 0) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    sync_setup(w, job);
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
    w->td.job = job;
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
        u->buf = (char *)w->bufmem + job->mem_align + (size_t)i * maxbs; /* fio's iomem_align */
        u->len = (uint32_t)job->bs;
        u->index = i;
        w->freelist[w->nfree++] = u;
    }
    sb_io_worker_offsets(w, job, seed);
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
    /* no clock read per I/O when nothing would keep it (every disable_* latency set) */
    w->no_lat = job->gtod_reduce || (job->disable_lat && job->disable_clat && job->disable_slat);
    w->ddir_fixed = job->rw == SB_RW_RW || job->rw == SB_RW_RANDRW ? -1
                    : sb_rw_trims(job->rw) ? SB_DDIR_TRIM : sb_rw_writes(job->rw) ? SB_DDIR_WRITE
                                                                                : SB_DDIR_READ;
    w->rare = job->rw == SB_RW_TRIMWRITE || w->seqmix_on || w->dir_seq; /* and several files: setup_workers */
    if ((r = sb_io_iolog_setup(w, path, err, errlen)) < 0) /* write_iolog, read_iolog */
        return r;
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
    r = pthread_attr_setstacksize(&attr, SB_IO_WORKER_STACK);
    if (!r && job->cpus_allowed_set) {
        cpu_set_t set, allowed = job->cpus_allowed;
        if (job->gtod_cpu > 0) /* fio's: the time thread's CPU is not the job's (0 stays) */
            CPU_CLR(job->gtod_cpu, &allowed);
        if (job->cpus_split) {
            CPU_ZERO(&set);
            CPU_SET(sb_cpuset_nth(&allowed, i), &set);
        } else {
            set = allowed;
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
    res->sync.ios += w->sync_st.ios;
    sb_hist_merge(&res->sync.clat, &w->sync_st.clat);
    res->cpu_ios += w->ios_done;
    res->sync_fsyncs += w->fsyncs;
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
        for (int d = 0; d < SB_DDIR_N; d++) { /* calloc'd: their pages left unwritten */
            sb_hist_init_zeroed(&t->dir[d].clat);
            sb_hist_init_zeroed(&t->dir[d].slat);
            sb_hist_init_zeroed(&t->dir[d].clat_issued);
        }
        sb_hist_init_zeroed(&t->clat_all);
        sb_hist_init_zeroed(&t->sync.clat);
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
    if (job->filesize_max) /* fio's filesize=LO-HI: each file's own size (files.c) */
        sb_io_files_sizes(job, files, *nfiles, job->seed);
    for (unsigned i = 0; i < *nfiles; i++) {
        if (files[i].size) {
            sb_io_job fj = *job;
            fj.size = files[i].size;
            r = sb_io_prepare_file(&fj, &files[i], err, errlen);
        } else if (job->offset_increment) { /* the file holds the furthest thread's region (one file per thread) */
            sb_io_job fj;
            sb_io_ctl_file_job(job, i, *nfiles, &fj);
            r = sb_io_prepare_file(&fj, &files[i], err, errlen);
        } else if (sb_engine_can(job->engine, SB_ENGINE_MAKES_FILES) ||
                   sb_engine_can(job->engine, SB_ENGINE_DIRS)) { /* opfiles.c */
            r = sb_io_prepare_opfile(job, &files[i], err, errlen);
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
            if (job->invalidate && !job->pre_read) /* fio: pre_read turns invalidate off */
                posix_fadvise(files[i].fd, 0, 0, POSIX_FADV_DONTNEED);
            close(files[i].fd);
            files[i].fd = -1;
        }
    }
    return 0;
}

/* fio's process settings (run/system.c) before the files are made: the devices under
 * the job's names (or its directory) for ioscheduler, the private directory for uid. */
static int system_begin(const sb_io_job *job, const char *dir, bool made_dir, sb_io_sys *sys, char *err,
                        size_t errlen)
{
    const char *paths[64];
    unsigned n = 0;
    for (const char *p = job->filename; *p && n < 64; p += strlen(p) + 1)
        paths[n++] = p;
    if (!n)
        paths[n++] = dir[0] ? dir : ".";
    return sb_io_sys_begin(job, paths, n, made_dir ? dir : NULL, sys, err, errlen);
}

/* Once the files are laid out: the wait for the phase's other jobs to have laid out theirs
 * (gate.h: fio lays out every job's files before it starts any), then exec_prerun, then
 * pre_read of each, as fio's order. */
static int files_ready(const sb_io_job *job, const file_ctx *files, unsigned nfiles, sb_io_sys *sys,
                       char *err, size_t errlen)
{
    sb_io_gate_pass(job->start_gate, job->gate_index, true);
    int r = sb_io_sys_prerun(job, sys, err, errlen);
    for (unsigned i = 0; r == 0 && job->pre_read && i < nfiles; i++)
        r = sb_io_fileopts_pre_read(job, files[i].path, err, errlen);
    return r;
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
        const file_ctx *f = &files[map[i * per]];
        if (job->offset_increment || f->size) { /* thread i's own region (jobctl.c), file size */
            ws[i]->own_job = *job;
            ws[i]->own_job.offset = sb_io_ctl_thread_offset(job, i);
            ws[i]->own_job.size = f->size ? f->size : job->size;
            ws[i]->job = &ws[i]->own_job;
        }
        ws[i]->path = f->path;
        ws[i]->op_files = files;
        ws[i]->op_map = map;
        if ((r = worker_setup(ws[i], ws[i]->job, ops, f->path, err, errlen)) < 0 ||
            (!(ops->caps & SB_ENGINE_FILE_OPS) && (r = sb_io_files_open(ws[i], ws[i]->job, files, map, err,
                                                                        errlen)) < 0))
            return r;
        if (f->zbd && (r = sb_zbd_thread_new(f->zbd, ws[i]->job, ws[i]->fd, &ws[i]->zbd, err, errlen)) < 0)
            return r;
        if (job->lockfile && (r = sb_io_flock_attach(ws[i], err, errlen)) < 0) /* lockfile.c */
            return r;
        if (ws[i]->fs) /* several files: next_io's file choice (io_uring registers each) */
            ws[i]->rare = true;
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
    long nap_ns = 1000000L; /* the measured window's CPU busy share: core/cpubusy.h (the lab's) */
    sb_cpubusy_window bw = sb_cpubusy_window_at(sh->start_ns, job->startdelay_s + job->ramp_s, job->runtime_s);
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
            double f, el = (double)(sb_now_ns() - sh->start_ns) / 1e9;
            /* read_iolog: the log's bytes are the whole (io/loop/replay.c) */
            double whole = (double)(job->replay_bytes ? job->replay_bytes : job->size) * job->numjobs * per;
            if (job->runtime_s > 0 && (job->time_based || el / total_s > (double)bytes / whole))
                f = el / total_s;
            else
                f = (double)bytes / whole;
            job->progress(job->cb_arg, f > 1 ? 1 : f);
        }
        /* a short job's end is seen within a millisecond or so (a fixed 100 ms nap made
         * each job of a few I/Os last 100 ms), a long one's every 100 ms: the naps double */
        struct timespec ts = {0, sb_cpubusy_window_nap(&bw, sb_now_ns(), nap_ns)};
        nanosleep(&ts, NULL);
        nap_ns = nap_ns < 50000000L ? nap_ns * 2 : 100000000L;
    }
    sb_cpubusy_window_end(&bw, &res->cpu_busy_ns, &res->cpu_window_ns);
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
    sb_io_opfiles_adopt(job, files, nfiles); /* what filecreate, dircreate made */
    sb_io_remove_created(job, files, nfiles, dir, made_dir, failed);
}

/* An empty result for the job on engine ops: its histograms, the steady-state check,
 * what ran. 0, or -ENOMEM with err. */
static int result_init(sb_io_result *res, const sb_io_job *job, const sb_engine_ops *ops, char *err,
                       size_t errlen)
{
    /* its untouched pages left so (core/histogram.h): a job file of many jobs */
    sb_hist_clear_sparse(res, sizeof *res);
    for (int d = 0; d < SB_DDIR_N; d++) {
        sb_hist_init_zeroed(&res->dir[d].clat);
        sb_hist_init_zeroed(&res->dir[d].slat);
        sb_hist_init_zeroed(&res->dir[d].clat_issued);
    }
    sb_hist_init_zeroed(&res->clat_all);
    sb_hist_init_zeroed(&res->sync.clat);
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
        lv[i] = (sb_io_live_thread){ws[i]->st, &ws[i]->sync_st, &ws[i]->ios_done, &ws[i]->total_err, &ws[i]->last_ns,
                                    &ws[i]->depths, &ws[i]->finished, &ws[i]->ts, &ws[i]->fsyncs};
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
    if (job_given->run_fail[0]) { /* first: it may leave size unknown (size=Nz, no zones) */
        snprintf(err, errlen, "%s", job_given->run_fail);
        return -ERANGE; /* a failed run (exit 1), as fio's */
    }
    if (job_given->size < job_given->bs && !job_given->size_pct) { /* size=N%: bytes below */
        snprintf(err, errlen, "size %" PRIu64 " is smaller than the block size %" PRIu64 " (fio: "
                 "size too small)", job_given->size, job_given->bs);
        return -ERANGE; /* a failed run (exit 1), as fio's, not a refused file */
    }
    if (job_given->cpus_missing) {
        snprintf(err, errlen, "cpus_allowed: CPU %d is not one this process may use (%ld online)",
                 job_given->cpus_missing - 1, sysconf(_SC_NPROCESSORS_ONLN));
        return -ENXIO;
    }
    sb_io_job *jcopy = malloc(sizeof *jcopy);
    if (!jcopy) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    *jcopy = *job_given;
    if (jcopy->time_based && jcopy->runtime_s <= 0) /* fio's: no runtime, no time_based (check.c) */
        jcopy->time_based = false;
    if ((r = sb_io_fileopts_resolve(jcopy, err, errlen)) < 0 || /* opendir, file_append */
        (r = sb_io_files_size_pct(jcopy, err, errlen)) < 0) {
        free(jcopy);
        return r;
    }
    sb_io_files_resolve(jcopy);
    if ((r = sb_io_replay_job(jcopy, err, errlen)) < 0) { /* read_iolog: the log's file and I/Os */
        free(jcopy);
        return r;
    }
    *out = jcopy;
    return 0;
}

/* prepare_files under the phase's lock (job.h: the jobs of a phase lay out one at a time). */
static int prepare_files_locked(const sb_io_job *job, file_ctx *files, unsigned *nfiles,
                                unsigned *map, const char *dir, char *err, size_t errlen)
{
    if (job->prepare_lock)
        pthread_mutex_lock(job->prepare_lock);
    int r = prepare_files(job, files, nfiles, map, dir, err, errlen);
    if (job->prepare_lock)
        pthread_mutex_unlock(job->prepare_lock);
    return r;
}

/* The job's clock (jobclock.h) into every worker; *taken when it must be given back. */
static int clock_workers(const sb_io_job *job, worker **ws, bool *taken, char *err, size_t errlen)
{
    sb_clock clk;
    int r = sb_io_jobclock_begin(job, &clk, err, errlen);
    if (r < 0)
        return r;
    *taken = true;
    for (unsigned i = 0; i < job->numjobs; i++)
        ws[i]->clk = clk;
    return 0;
}

/* The job's files, none open yet: a failure before prepare_files closes none (0 is stdin). */
static file_ctx *files_alloc(unsigned n)
{
    file_ctx *files = calloc(n, sizeof *files);
    for (unsigned i = 0; files && i < n; i++)
        files[i].fd = -1;
    return files;
}

int sb_io_run(const sb_io_job *job, sb_io_result *res, char *err, size_t errlen)
{
    return sb_io_run_live(job, res, NULL, err, errlen);
}

/* Every thread's buffers (worker_setup's: depth I/Os of the largest bs) in memory at once. */
static int buffers_fit(const sb_io_job *job, const sb_engine_ops *ops, char *err, size_t errlen)
{
    unsigned depth = ops->sync && !job->submit_offload ? 1 : job->iodepth;
    return sb_iomem_check(job->iomem, sb_io_job_max_bs(job) * depth + job->mem_align, job->numjobs, err, errlen);
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
        (r = buffers_fit(job, ops, err, errlen)) < 0 ||
        (r = result_init(res, job, ops, err, errlen)) < 0) {
        free(jcopy);
        return r;
    }

    const unsigned per = sb_io_files_per_thread(job);
    unsigned nfiles = job->filename[0] ? per : job->numjobs * per; /* at most: names may repeat */
    file_ctx *files = files_alloc(nfiles);
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
    bool made_dir = false, clock_taken = false;
    sb_io_sys sys = {0};
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
    if ((r = system_begin(job, dir, made_dir, &sys, err, errlen)) < 0)
        goto out;
    r = prepare_files_locked(job, files, &nfiles, map, dir, err, errlen);
    if (r < 0 || (r = zbd_attach_files(job, files, nfiles, err, errlen)) < 0 ||
        (r = files_ready(job, files, nfiles, &sys, err, errlen)) < 0)
        goto out;
    if (job->create_only) /* fio's: the files are laid out, no I/O is done */
        goto created;
    if ((r = setup_workers(job, ops, files, map, &sh, ws, err, errlen)) < 0 ||
        (r = sb_io_verify_setup(job, &vfmt, files, nfiles, ws, err, errlen)) < 0 ||
        (r = clock_workers(job, ws, &clock_taken, err, errlen)) < 0)
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
    if (clock_taken)
        sb_io_jobclock_end(job);
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
created:
    sb_io_sys_end(job, &sys); /* the scheduler, cgroup and memory back; exec_postrun */
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
