/*
 * finish — a verifying job's end: its threads' verify figures merged, verify_state_save's
 * tables written, and the read-back of every file (do_verify, verify_only), whose reads,
 * with verify_backlog's and the verify phases' made during the job (phase.c), fio reports
 * among the job's reads (sb_io_result's verify_read), and, for threads reported one by one,
 * among each thread's (verify_threads: a thread's own and the read-back of its writes).
 * Kept apart from run.c, which holds what the I/O path calls.
 */
#include "io/verify/verify.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/safepath.h"
#include "io/run/worker.h"

/* Reads back one file after the job (O_DIRECT when the job was direct; else its
 * pages are written and dropped first, so the check reads what the device holds). The
 * write-back's time goes to *sync_ns: storbench's own, not a read (fio's verify phase
 * syncs nothing), so not in the read runtime. */
static int read_back(const sb_io_job *job, const sb_verify_fmt *fmt, file_ctx *f, sb_verify_stats *st,
                     sb_verify_reads *rd, uint64_t *sync_ns, char *err, size_t errlen)
{
    int fd = -1;
    int r = sb_open_resolved(f->path, O_RDONLY | (job->direct ? O_DIRECT : 0), 0, &fd, err, errlen);
    if (r < 0)
        return r;
    if (!job->direct && job->invalidate) {
        uint64_t t0 = sb_now_ns();
        fdatasync(fd);
        *sync_ns += sb_now_ns() - t0;
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    }
    r = sb_verify_file(fmt, job->verify_only && !job->verify_state_load ? NULL : &f->vtab, fd, f->path, job->offset,
                           job->size / fmt->bs, job->numjobs, job->should_stop, job->cb_arg, st, rd,
                           err, errlen);
    close(fd);
    return r;
}

/* A thread's verify_backlog and verify phase reads into the result's verify reads, made when none
 * yet, and into the thread's own (tr; NULL: the job reports as one): fio issues them among
 * the job's I/Os, time-based or not. -ENOMEM. */
static int backlog_reads(sb_io_result *res, const sb_verify_thread *v, sb_verify_thread_reads *tr)
{
    if ((double)v->phase_ns / 1e9 > res->verify_phase_s) /* the verify phases' (phase.c) */
        res->verify_phase_s = (double)v->phase_ns / 1e9;
    if (tr)
        tr->phase_ns = v->phase_ns;
    if (!v->bl_ios)
        return 0;
    if (tr) {
        tr->ios += v->bl_ios;
        tr->bytes += v->bl_bytes;
        sb_hist_merge(&tr->clat, v->bl_clat);
    }
    if (!res->verify_read && !(res->verify_read = calloc(1, sizeof *res->verify_read)))
        return -ENOMEM;
    if (!res->verify_read->ios)
        sb_hist_init(&res->verify_read->clat);
    res->verify_read->ios += v->bl_ios;
    res->verify_read->bytes += v->bl_bytes;
    sb_hist_merge(&res->verify_read->clat, v->bl_clat);
    return 0;
}

/* Each thread's verify reads apart, [n] (fio's threads each read back their own writes, and
 * a thread reported on its own shows its own), or NULL: no memory. */
static sb_verify_thread_reads *thread_reads(unsigned n)
{
    sb_verify_thread_reads *tr = calloc(n, sizeof *tr);
    for (unsigned i = 0; tr && i < n; i++) /* calloc'd: the buckets' pages left unwritten */
        sb_hist_init_zeroed(&tr[i].clat);
    return tr;
}

/* The first thread that works on the file of table t: a block where no write of this run is
 * known (verify_only) is read back as its. */
static unsigned file_owner(worker **ws, unsigned n, const sb_verify_table *t)
{
    for (unsigned i = 0; i < n; i++) {
        const sb_verify_thread *v = ws[i] ? ws[i]->vt : NULL;
        for (unsigned k = 0; v && k < (v->files ? v->nfiles : 1); k++)
            if ((v->files ? v->files[k].table : v->table) == t)
                return i;
    }
    return 0;
}

int sb_io_verify_finish(const sb_io_job *job, const sb_verify_fmt *fmt, file_ctx *files,
                        unsigned nfiles, worker **ws, sb_io_result *res, int r, char *err, size_t errlen)
{
    if (!job->verify)
        return r;
    memset(&res->verify, 0, sizeof res->verify);
    sb_verify_thread_reads *tr = NULL; /* threads reported one by one (io/run/worker.c) */
    if (!job->group_reporting && job->numjobs > 1) {
        tr = res->verify_threads = thread_reads(job->numjobs);
        if (!tr && r >= 0) {
            snprintf(err, errlen, "out of memory");
            r = -ENOMEM;
        }
    }
    for (unsigned i = 0; i < job->numjobs; i++)
        if (ws[i] && ws[i]->vt) {
            sb_verify_stats_merge(&res->verify, &ws[i]->vt->st);
            if (backlog_reads(res, ws[i]->vt, tr ? &tr[i] : NULL) < 0 && r >= 0) {
                snprintf(err, errlen, "out of memory");
                r = -ENOMEM;
            }
        }
    bool read_back_due = job->verify_only || (job->do_verify && sb_rw_writes(job->rw));
    /* fio's verify_state_save: a writing job's tables, interrupted or not (fio's too) */
    for (unsigned i = 0; job->verify_state_save && sb_rw_writes(job->rw) && !job->verify_only &&
                         i < nfiles && (r == 0 || r == -EILSEQ); i++) {
        char path[PATH_MAX + 128];
        sb_verify_state_path(path, sizeof path, job->aux_path, job->name, i);
        int s = sb_verify_state_save(fmt, &files[i].vtab, path, err, errlen);
        r = s < 0 ? s : r;
    }
    if (r < 0 || res->interrupted || !read_back_due)
        return r;
    /* its reads as fio's verify phase counts them: one per write, at its own size (bsrange,
     * bssplit: a write's blocks carry its identity; without the table, verify_only's, one per
     * block of the job's size), each counted to the thread that wrote it too. A time-based
     * job has spent its runtime: fio then skips the verify phase, and the read-back is
     * storbench's own check, not in the figures */
    sb_io_dir_stats *vr = job->time_based ? NULL : res->verify_read ? res->verify_read : calloc(1, sizeof *vr);
    const bool table = !job->verify_only || job->verify_state_load;
    sb_verify_reads rd = {.unit = table ? sb_io_job_max_bs(job) : job->bs, .clat = vr ? &vr->clat : NULL,
                          .threads = tr, .nthreads = job->numjobs};
    if (vr && !vr->ios)
        sb_hist_init(&vr->clat);
    if (vr) /* (a time-based job keeps its backlog's and phases' reads) */
        res->verify_read = vr;
    uint64_t t0 = sb_now_ns(), synced = 0;
    for (unsigned i = 0; i < nfiles && r == 0; i++) {
        sb_verify_stats st = {0};
        rd.owner = file_owner(ws, job->numjobs, &files[i].vtab);
        r = read_back(job, fmt, &files[i], &st, vr ? &rd : NULL, &synced, err, errlen);
        sb_verify_stats_merge(&res->verify, &st);
    }
    if (vr) {
        vr->ios += rd.ios;
        vr->bytes += rd.bytes;
        res->verify_read_s += (double)(sb_now_ns() - t0 - synced) / 1e9;
    }
    if (r == -EINTR) {
        res->interrupted = true;
        r = 0;
    }
    if (r == -EILSEQ && fmt->survive) { /* counted among the job's errors (fio's total_err) */
        uint64_t rb = res->verify.errors;
        for (unsigned i = 0; i < job->numjobs; i++)
            rb -= ws[i] && ws[i]->vt ? ws[i]->vt->st.errors : 0;
        if (!ws[0]->total_err)
            ws[0]->first_error = EILSEQ;
        ws[0]->total_err += rb;
        r = 0;
    }
    return r;
}
