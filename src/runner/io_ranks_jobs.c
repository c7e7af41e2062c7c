/*
 * io_ranks_jobs — a job file's jobs on every MPI rank (io_ranks_jobs.h), the way fio's
 * client runs one job file on each of its servers: every rank runs every job, phase by
 * phase and a phase's jobs at once, on files of its own, and each job's figures are then
 * combined over the ranks as fio's "All clients" are: bytes and I/Os summed, bandwidth and
 * IOPS over the earliest start to the latest end, latency percentiles from the ranks'
 * merged histograms, never an average of averages. The combining is io_ranks.c's, the
 * same as for one job from flags. With --ranks-per-job each job runs on its share of the
 * ranks only (sb_io_ranks_runs_job), and its figures are those ranks' alone.
 */
#include "runner/io_ranks_jobs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/clock.h"
#include "core/interrupt.h"
#include "core/ranks.h"
#include "core/strutil.h"

/* Does the job write (or trim) what it names? */
static bool job_writes(const sb_io_job *job)
{
    return job->rw != SB_RW_READ && job->rw != SB_RW_RANDREAD;
}

/* A log prefix of the rank's own, "<PREFIX>.<R>": the ranks of one host would write the
 * same log files. */
static int own_log(char *prefix, size_t size, const sb_io_job *job, char *err, size_t errlen)
{
    char was[256];
    if (!prefix[0])
        return 0;
    snprintf(was, sizeof was, "%s", prefix);
    if (snprintf(prefix, size, "%s.%d", was, sb_ranks()->rank) >= (int)size) {
        snprintf(err, errlen, "%s: the log prefix %s is too long for a rank's", job->name, was);
        return -ENAMETOOLONG;
    }
    return 0;
}

int sb_io_ranks_own_files(sb_io_job *job, char *err, size_t errlen)
{
    const sb_ranks_info *ri = sb_ranks();
    if (ri->size < 2)
        return 0;
    int e;
    if ((e = own_log(job->bw_log, sizeof job->bw_log, job, err, errlen)) < 0 ||
        (e = own_log(job->lat_log, sizeof job->lat_log, job, err, errlen)) < 0 ||
        (e = own_log(job->iops_log, sizeof job->iops_log, job, err, errlen)) < 0)
        return e;
    /* a directory job's files go into a private directory of its own inside it
     * (io/job/prepare.c): the ranks' never meet */
    if (!job->filename[0])
        return 0;
    char out[sizeof job->filename];
    size_t n = 0;
    for (const char *p = job->filename; *p; p += strlen(p) + 1) {
        struct stat st;
        bool dev = stat(p, &st) == 0 && (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode));
        if (dev && job_writes(job) && ri->max_per_host > 1) {
            snprintf(err, errlen, "%s: %s is a device and %d ranks share a host: each would write "
                     "it (run one rank per host, or one job from flags with --shared-file)",
                     job->name, p, ri->max_per_host);
            return -EINVAL;
        }
        /* a device is each host's own; a file becomes the rank's, "<FILE>.<R>" (IOR's) */
        int w = dev ? snprintf(out + n, sizeof out - n, "%s", p)
                    : snprintf(out + n, sizeof out - n, "%s.%d", p, ri->rank);
        if (w < 0 || (size_t)w + 2 > sizeof out - n) {
            snprintf(err, errlen, "%s: %s: the rank's file name is too long", job->name, p);
            return -ENAMETOOLONG;
        }
        n += (size_t)w + 1;
    }
    out[n] = '\0';
    memcpy(job->filename, out, n + 1);
    return 0;
}

/* The first job of the phase that failed on this rank (a verify mismatch is a result,
 * as in a run alone): its status and "JOB: message". */
static int local_status(const sb_io_run_slot *slots, size_t n, char *msg, size_t len)
{
    for (size_t m = 0; m < n; m++) {
        const sb_io_run_slot *sl = &slots[m];
        if (sl->rc < 0 && !(sl->rc == -EILSEQ && sl->job->verify)) {
            snprintf(msg, len, "%s: %s", sl->job->name, sl->err);
            return sl->rc;
        }
        if (sl->rc == 0 && sl->result.interrupted) {
            snprintf(msg, len, "interrupted");
            return -EINTR;
        }
    }
    return 0;
}

bool sb_io_ranks_runs_job(size_t index, unsigned per_job, int rank, int size)
{
    if (!per_job || (int)per_job >= size)
        return true;
    int first = (int)((index * per_job) % (size_t)size);
    return (rank - first + size) % size < (int)per_job;
}

/* The phase's jobs this rank runs (all of them without --ranks-per-job), at once; the
 * others' slots get an empty result. The run works on copies gathered together, as
 * sb_io_run_many's exitall needs the phase's running slots side by side. */
static void run_own(sb_io_run_slot *slots, size_t n, size_t first, unsigned per_job, atomic_bool *end_all)
{
    const sb_ranks_info *ri = sb_ranks();
    if (!per_job || (int)per_job >= ri->size) {
        sb_io_run_many(slots, n, end_all);
        return;
    }
    sb_io_run_slot *mine = sb_xcalloc(n, sizeof *mine);
    size_t k = 0;
    for (size_t m = 0; m < n; m++)
        if (sb_io_ranks_runs_job(first + m, per_job, ri->rank, ri->size))
            memcpy(&mine[k++], &slots[m], sizeof *mine);
    if (k)
        sb_io_run_many(mine, k, end_all);
    k = 0;
    for (size_t m = 0; m < n; m++)
        if (sb_io_ranks_runs_job(first + m, per_job, ri->rank, ri->size)) {
            memcpy(&slots[m], &mine[k++], sizeof *mine);
        } else {
            slots[m].rc = 0;
            sb_io_result_empty(&slots[m].result);
        }
    free(mine);
}

/* What of a job's result its ranks' sums leave as one rank's (the engine's name, depths,
 * the first error, ...): the job's first rank's, for a rank 0 that did not run it. */
typedef struct rank_desc {
    char engine[32];
    unsigned effective_iodepth, latency_depth;
    bool uring_fixed_files, uring_fixed_bufs;
    sb_io_depths depths;
    uint64_t zone_resets, total_err;
    int first_error;
} rank_desc;

static int share_desc(sb_io_result *r, int root)
{
    rank_desc d;
    memset(&d, 0, sizeof d);
    memcpy(d.engine, r->engine, sizeof d.engine);
    d.effective_iodepth = r->effective_iodepth;
    d.latency_depth = r->latency_depth;
    d.uring_fixed_files = r->uring_fixed_files;
    d.uring_fixed_bufs = r->uring_fixed_bufs;
    d.depths = r->depths;
    d.zone_resets = r->zone_resets;
    d.total_err = r->total_err;
    d.first_error = r->first_error;
    int e = sb_ranks_bcast(&d, sizeof d, root);
    if (e < 0 || sb_ranks()->rank == root)
        return e;
    memcpy(r->engine, d.engine, sizeof r->engine);
    r->effective_iodepth = d.effective_iodepth;
    r->latency_depth = d.latency_depth;
    r->uring_fixed_files = d.uring_fixed_files;
    r->uring_fixed_bufs = d.uring_fixed_bufs;
    r->depths = d.depths;
    r->zone_resets = d.zone_resets;
    r->total_err = d.total_err;
    r->first_error = d.first_error;
    return 0;
}

/* Job index's figures combined over the ranks that ran it, into its slot and rep. */
static int combine_job(sb_io_run_slot *sl, size_t index, unsigned per_job, uint64_t t0, uint64_t t1,
                       sb_io_ranks_report *rep)
{
    const sb_ranks_info *ri = sb_ranks();
    sb_io_ranks_report_start(rep);
    rep->n_phases = 1;
    if (!per_job || (int)per_job >= ri->size)
        return sb_io_ranks_combine(sl->job, &sl->result, t0, t1, 0, false, &rep->phase[0]);
    bool ran = sb_io_ranks_runs_job(index, per_job, ri->rank, ri->size);
    int rc = sb_io_ranks_combine_some(sl->job, &sl->result, t0, t1, ran, &rep->ranks, &rep->phase[0]);
    return rc < 0 ? rc : share_desc(&sl->result, (int)((index * per_job) % (size_t)ri->size));
}

int sb_io_ranks_phase(sb_io_run_slot *slots, size_t n, size_t first, unsigned per_job, atomic_bool *end_all,
                      sb_io_ranks_report *reps, char *err, size_t errlen)
{
    char msg[1200] = "";
    int st = sb_ranks_barrier();
    uint64_t t0 = sb_now_ns();
    if (st == 0)
        run_own(slots, n, first, per_job, end_all);
    uint64_t t1 = sb_now_ns();
    if (st == 0)
        st = local_status(slots, n, msg, sizeof msg);
    else
        snprintf(msg, sizeof msg, "the barrier before the phase: %s", strerror(-st));
    if (st < 0 && st != -EINTR)
        sb_ranks_announce_failure();
    int rc = sb_ranks_agree(st, msg, err, errlen);
    if (rc == 0) {
        const sb_ranks_info *ri = sb_ranks();
        for (size_t m = 0; m < n && rc == 0; m++)
            rc = combine_job(&slots[m], first + m, per_job, t0, t1, &reps[m]);
        if (rc < 0)
            snprintf(err, errlen, "rank %d on %s: combining the ranks' figures: %s", ri->rank, ri->host,
                     strerror(-rc));
    }
    if (rc < 0)
        for (size_t m = 0; m < n; m++)
            if (slots[m].rc == 0 || slots[m].rc == -EILSEQ)
                sb_io_result_free(&slots[m].result);
    return rc;
}
