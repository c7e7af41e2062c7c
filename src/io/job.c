/*
 * job — the job model of the I/O engine (job.h): fio's defaults, the rw mode names and
 * the convenience figures of a result. Checking a job is job/check.c's, running it
 * run/worker.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/engine.h"
#include "io/job.h"

void sb_io_job_init(sb_io_job *job)
{
    memset(job, 0, sizeof *job);
    job->rw = SB_RW_READ;
    job->rwmixread = 50;
    job->bs = 4096; /* bs_max 0: one size */
    job->nrfiles = job->loops = 1;
    job->randrepeat = true;
    job->group_reporting = false;
    job->stats = true;       /* fio's reporting options */
    job->sig_figs = 4;
    job->disk_util = true;
    job->gtod_cpu = -1;
    job->prio = -1;
    job->scramble_buffers = true;
    job->clat_percentiles = true;
    job->create_fsync = job->create_serialize = true;
    job->allow_file_create = true;
    job->unique_filename = true;
    job->per_job_logs = true;
    job->log_entries = 1024;
    job->bw_avg_ms = job->iops_avg_ms = 500;
    job->replay_time_scale = 100; /* fio's read_iolog replay options */
    job->replay_scale = 1;
    job->fadvise_hint = SB_FADVISE_PATTERN;
    job->size = 1ull << 30;
    job->iodepth = 1;
    job->numjobs = 1;
    job->invalidate = true;
    job->seed = 0x5eed;
    job->do_verify = true;
    job->trim_verify_zero = true;
    job->uring_fixed_files = job->uring_fixed_bufs = -1;
    job->uring_sqpoll_cpu = job->uring_nonvectored = job->laio_userspace_reap = -1;
    job->hipri_pct = 100;
    job->stat_type = SB_STAT_STAT;
    job->sg_write_mode = SB_SG_WRITE;
    job->error_dump = true;        /* fio's job control (jobctl.c) */
    job->dedupe_ws_pct = 5;
    job->compress_chunk = 512;
    job->create_serialize = true;
    strcpy(job->engine, "psync");
    job->steady.interval_s = 1; /* fio's ss_interval */
    job->spr_op = 0.15; /* fio's SPRandom defaults */
    job->spr_num_regions = 100;
    job->prioclass = -1;
    job->rate_cycle_ms = 1000; /* fio's rate_cycle */
    job->latency_percentile = 100;
    job->pct_random[0] = job->pct_random[1] = job->pct_random[2] = 100;
    job->cmdprio.cls[0] = job->cmdprio.cls[1] = job->cmdprio.level[0] = job->cmdprio.level[1] = -1;
    job->write_hint = -1;                 /* fio's file and system options (job.h) */
    job->hugepage_size = 2u << 20;        /* fio's FIO_HUGE_PAGE on x86 */
    job->uid = job->gid = -1;
}

/* bs=READ,WRITE and ba=READ,WRITE made what they mean for this job: with bs_is_seq_rand
 * the value of its kind of offsets (a random job's, a sequential job's); a job of one
 * direction takes that direction's value; only a job that reads and writes keeps both. */
static void sb_io_job_resolve_dirs(sb_io_job *job)
{
    bool mix = job->rw_seq_nr > 1 || sb_io_job_pct_mixed(job);
    bool to_w = job->bs_is_seq_rand ? sb_rw_is_random(job->rw) && !mix
                                    : sb_rw_writes(job->rw) && !sb_rw_reads(job->rw) && !sb_rw_trims(job->rw);
    bool drop = job->bs_is_seq_rand ? !sb_rw_is_random(job->rw) : !sb_rw_writes(job->rw);
    if (to_w && job->bs_w) {
        job->bs = job->bs_w;
        job->bs_max = job->bs_max_w;
    }
    if (to_w && job->blockalign_w)
        job->blockalign = job->blockalign_w;
    if (to_w || drop)
        job->bs_w = job->bs_max_w = job->blockalign_w = 0;
}

/* One direction's split under a bsrange given after it: each size aligned down to the
 * range's low end (whole multiples of it; at least it) and capped at its high end, as
 * fio's get_next_buflen does to each drawn size; a range of one size gives that size.
 * Sizes that become one share their percentages. */
static void clamp_split(sb_io_bssplit *sp, uint64_t lo, uint64_t hi)
{
    sb_io_bssplit out = {0};
    for (unsigned i = 0; i < sp->n; i++) {
        uint64_t b = sp->bs[i] - sp->bs[i] % lo;
        b = hi <= lo ? lo : b < lo ? lo : b > hi ? hi : b;
        unsigned k = 0;
        while (k < out.n && out.bs[k] != b)
            k++;
        if (k == out.n) {
            out.bs[out.n] = b;
            out.pct[out.n++] = 0;
        }
        out.pct[k] += sp->pct[i];
    }
    *sp = out;
}

/* bssplit and bsrange (or bs=READ,WRITE) together, as fio: a bsrange given after the
 * split holds its sizes (clamp_split, each direction with its range); otherwise the
 * split's own sizes are the min and max, and the range given before means nothing. */
static void sb_io_job_resolve_split(sb_io_job *job)
{
    if (!job->bssplit.n)
        return;
    /* without bs_unaligned fio rounds each drawn size down to a multiple of the split's
     * smallest (get_next_buflen): bssplit=4k/50:6k/50 writes 4k blocks only; with it the
     * sizes stay as given */
    if (!job->bsrange_clamps && !job->bs_unaligned) {
        sb_io_bssplit *sps[] = {&job->bssplit, &job->bssplit_w};
        for (int d = 0; d < 2; d++) {
            uint64_t lo = UINT64_MAX, hi = 0;
            for (unsigned i = 0; i < sps[d]->n; i++) {
                lo = sps[d]->bs[i] < lo ? sps[d]->bs[i] : lo;
                hi = sps[d]->bs[i] > hi ? sps[d]->bs[i] : hi;
            }
            if (sps[d]->n > 1)
                clamp_split(sps[d], lo, hi);
        }
    }
    if (job->bsrange_clamps) {
        sb_io_bssplit w = job->bssplit_w.n ? job->bssplit_w : job->bssplit;
        uint64_t wlo = job->bs_w ? job->bs_w : job->bs, whi = job->bs_w ? job->bs_max_w : job->bs_max;
        clamp_split(&job->bssplit, job->bs, job->bs_max);
        clamp_split(&w, wlo, whi);
        bool same = w.n == job->bssplit.n && !memcmp(w.bs, job->bssplit.bs, w.n * sizeof w.bs[0]) &&
                    !memcmp(w.pct, job->bssplit.pct, w.n * sizeof w.pct[0]);
        job->bssplit_w = w;
        if (same)
            job->bssplit_w.n = 0;
        job->bsrange_clamps = false;
    }
    job->bs_w = job->bs_max_w = 0;
}

void sb_io_job_resolve(sb_io_job *job)
{
    /* fio's nr_files below the count of a filename's files (nrfiles after them:
     * options/parse_files.c): the job's files are the first that many; fio neither lays
     * out nor uses the others */
    if (job->filename_nr) {
        char *p = job->filename;
        for (unsigned k = 0; k < job->filename_nr && *p; k++)
            p += strlen(p) + 1;
        *p = '\0';
        job->filename_nr = 0;
    }
    sb_io_zbd_resolve(job); /* size=Nz, offset=Nz; zbd's whole zones */
    if (job->gtod_reduce)
        job->clat_percentiles = false; /* nothing recorded to print */
    /* fio: a non-uniform distribution draws blocks again and again, so it has no map of
     * blocks done (and no pass that ends, so no cold restart of a time-based job) */
    if (job->dist.kind != SB_DIST_RANDOM)
        job->norandommap = true;
    /* fio: a size above what the one file holds is cut to filesize (fio 3.33 reads 2 MiB
     * with size=8m filesize=2m); io_size is how to do more */
    if (job->filesize && job->size > job->filesize && job->nrfiles <= 1 && !job->filesize_max)
        job->size = job->filesize;
    if (job->filesize_max) /* filesize=LO-HI: the largest file's; each file's is drawn (files.c) */
        job->size = job->filesize_max;
    /* a bare write_*_log: the job's name is the prefix, as fio's */
    char *logs[] = {job->bw_log, job->lat_log, job->iops_log};
    for (int i = 0; i < 3; i++)
        if (!strcmp(logs[i], "\1"))
            snprintf(logs[i], sizeof job->bw_log, "%s", job->name[0] ? job->name : "storbench-io");
    /* fio's percentage_random=0: every offset of a random job is the next one, the job
     * sequential; made so, so that what a sequential job has (verify) it has too */
    if (!job->pct_random[0] && !job->pct_random[1] && !job->pct_random[2] && job->rw_seq_nr <= 1 &&
        sb_rw_is_random(job->rw)) {
        job->rw = job->rw == SB_RW_RANDREAD ? SB_RW_READ : job->rw == SB_RW_RANDWRITE ? SB_RW_WRITE
                  : job->rw == SB_RW_RANDRW ? SB_RW_RW : SB_RW_TRIM;
        job->pct_random[0] = job->pct_random[1] = job->pct_random[2] = 100;
    }
    sb_io_job_resolve_split(job);
    sb_io_job_resolve_dirs(job);
    if (!job->bssplit.n)
        return;
    uint64_t m = job->bssplit.bs[0];
    for (unsigned i = 1; i < job->bssplit.n; i++)
        m = job->bssplit.bs[i] < m ? job->bssplit.bs[i] : m;
    for (unsigned i = 0; i < job->bssplit_w.n; i++) /* READS,WRITES: the smallest of both */
        m = job->bssplit_w.bs[i] < m ? job->bssplit_w.bs[i] : m;
    job->bs = m;
    job->bs_max = 0;
}

static const char *const rw_names[] = {"read", "write", "randread", "randwrite", "rw", "randrw",
                                       "trim", "randtrim", "trimwrite"};
#define N_RW_NAMES (sizeof rw_names / sizeof rw_names[0])

int sb_rw_parse(const char *s, sb_rw *out)
{
    for (unsigned i = 0; i < N_RW_NAMES; i++)
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

const char *sb_rw_name(sb_rw rw) { return (unsigned)rw < N_RW_NAMES ? rw_names[rw] : "?"; }

/* ---------------------------------------------------------------- results */

void sb_io_result_empty(sb_io_result *r)
{
    memset(r, 0, sizeof *r);
    for (int d = 0; d < SB_DDIR_N; d++) {
        sb_hist_init(&r->dir[d].clat);
        sb_hist_init(&r->dir[d].slat);
        sb_hist_init(&r->dir[d].clat_issued);
    }
    sb_hist_init(&r->clat_all);
    sb_hist_init(&r->sync.clat);
}

void sb_io_result_free(sb_io_result *r)
{
    free(r->bw_bytes_per_s);
    free(r->iops);
    r->bw_bytes_per_s = r->iops = NULL;
    r->n_seconds = 0;
    free(r->bw_win);
    free(r->iops_win);
    r->bw_win = r->iops_win = NULL;
    r->n_bw_win = r->n_iops_win = 0;
    free(r->series);
    r->series = NULL;
    sb_ss_free(&r->steady);
    free(r->threads);
    r->threads = NULL;
    free(r->verify_read);
    r->verify_read = NULL;
    free(r->verify_threads);
    r->verify_threads = NULL;
    free(r->prio);
    r->prio = NULL;

    r->n_threads = 0;
}

double sb_io_result_iops(const sb_io_result *r, int ddir)
{
    if (r->seconds <= 0)
        return 0;
    uint64_t n = ddir < 0 ? r->dir[0].ios + r->dir[1].ios + r->dir[2].ios : r->dir[ddir].ios;
    return (double)n / r->seconds;
}

double sb_io_result_bw(const sb_io_result *r, int ddir)
{
    if (r->seconds <= 0)
        return 0;
    uint64_t n = ddir < 0 ? r->dir[0].bytes + r->dir[1].bytes + r->dir[2].bytes : r->dir[ddir].bytes;
    return (double)n / r->seconds;
}

bool sb_io_job_modifies(const sb_io_job *job)
{
    return sb_rw_modifies(job->rw) || sb_engine_can(job->engine, SB_ENGINE_ALLOCATES);
}
