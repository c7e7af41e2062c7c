/*
 * io_ranks — one `storbench io` job on every rank (see io_ranks.h). The order
 * of a run, on every rank:
 *
 *   set-up      its own directory under --directory ("storbench-rank<R>-XXXXXX"),
 *               or "<FILE>.<R>", or (--shared-file) the one file, made and sized by
 *               rank 0, in which rank R's region starts at offset + R * size, or
 *               (--layout interleaved) its segments alternate with the other ranks';
 *   write       only for a job that reads and finds no data yet: each rank writes its
 *               files or region sequentially (fdatasync at the end, inside the timing),
 *               measured and reported as IOR's write phase before its read phase;
 *   drop        the page cache, by the first rank on each host when root;
 *   the job     as asked (--stonewall caps its measured time);
 *   delete      each rank removes what it made (files named by --filename are kept,
 *               as plain io keeps them, unless the run failed and it made them).
 *
 * Every phase starts with a barrier and ends with sb_ranks_agree(): a failing rank
 * tells the others at once (they stop at their next poll, within 0.1 s), and all
 * learn its one line and clean up. Times are IOR's: on one host every rank's start
 * and end on the monotonic clock they share (earliest start to latest end); across
 * hosts each rank's own clock from the barrier that started the phase, so they
 * compare without synchronised clocks (the barrier's release skew is the error).
 */
#include "runner/io_ranks.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cache.h"
#include "core/clock.h"
#include "core/interrupt.h"
#include "core/ranks.h"
#include "core/strutil.h"
#include "core/units.h"
#include "core/workdir.h"
#include "workloads/workload.h"

/* What this rank made, to remove. */
typedef struct rank_files {
    char dir[PATH_MAX];  /* its directory under --directory: always removed */
    char file[PATH_MAX]; /* a file it created: removed on failure, or always if temp */
    bool temp;           /* the shared file made inside --directory */
} rank_files;

/* One rank's part of a phase, gathered by every rank. */
typedef struct rank_fig {
    double start, end; /* seconds from the phase's barrier */
    uint64_t bytes;
    uint64_t walled;   /* stopped by the stonewall (its own time or the poll) */
    uint64_t idle;     /* did not run the job (--ranks-per-job): not in the figures */
} rank_fig;

/* The stonewall of the running phase, on this rank's clock: the worker stops each rank
 * --stonewall seconds after its own start, and this poll stops a rank that started late
 * at the same instant as the first (within the worker's 0.1 s poll). */
static uint64_t g_wall_ns;
static bool g_walled;

static bool stop_cb(void *arg)
{
    if (g_wall_ns && sb_now_ns() >= g_wall_ns)
        g_walled = true;
    return g_walled || sb_interrupted() || sb_ranks_failure_announced();
}

static int fail(char *msg, size_t len, int e, const char *what)
{
    sb_fmt(msg, len, "%s: %s", what, strerror(e));
    return -e;
}

/* The shared file: rank 0 makes it (a temporary name inside --directory). */
static int setup_shared(const sb_io_job *job, sb_io_job *mine, rank_files *rf, char *msg, size_t len)
{
    mine->directory[0] = '\0'; /* the others learn the name from rank 0 */
    if (sb_ranks()->rank != 0)
        return 0;
    if (job->directory[0]) {
        if (strlen(job->directory) > sizeof rf->file - 32)
            return fail(msg, len, ENAMETOOLONG, job->directory);
        sb_fmt(rf->file, sizeof rf->file, "%s/storbench-shared-XXXXXX", job->directory);
        int fd = mkstemp(rf->file);
        if (fd < 0) {
            int e = errno;
            rf->file[0] = '\0';
            return fail(msg, len, e, job->directory);
        }
        close(fd);
        rf->temp = true;
        snprintf(mine->filename, sizeof mine->filename, "%s", rf->file);
        return 0;
    }
    if (access(job->filename, F_OK) == 0)
        return 0;
    int fd = open(job->filename, O_RDWR | O_CREAT | O_EXCL, 0644);
    if (fd < 0)
        return fail(msg, len, errno, job->filename);
    close(fd);
    snprintf(rf->file, sizeof rf->file, "%s", job->filename);
    return 0;
}

/* Bytes of each segment of the interleaved layout (IOR's blockSize). */
static uint64_t segment_bytes(const sb_io_job *job, const sb_io_ranks_opts *o)
{
    return o->segments ? job->size / o->segments : job->bs;
}

int sb_io_ranks_check(const sb_io_job *job, const sb_io_ranks_opts *o, char *err, size_t errlen)
{
    if (o->layout != SB_IO_LAYOUT_INTERLEAVED) {
        if (o->segments) {
            snprintf(err, errlen, "--segments is for --layout interleaved");
            return -EINVAL;
        }
        return 0;
    }
    if (!o->shared_file) {
        snprintf(err, errlen, "--layout interleaved is the layout of --shared-file");
        return -EINVAL;
    }
    /* the interleave is fio's strided zones of each rank (setup below): what they allow */
    if (sb_rw_is_random(job->rw) || job->zonemode || job->rw_skip || job->bs_max > job->bs ||
        job->bssplit.n) {
        snprintf(err, errlen, "--layout interleaved: sequential jobs of one block size only "
                 "(not random, zonemode, rw's skip, bsrange or bssplit)");
        return -EINVAL;
    }
    if (o->segments && job->size % o->segments) {
        snprintf(err, errlen, "--layout interleaved: --size %" PRIu64 " is not %" PRIu64
                 " whole segments", job->size, o->segments);
        return -EINVAL;
    }
    uint64_t seg = segment_bytes(job, o);
    if (!seg || seg % job->bs || job->size % seg) {
        snprintf(err, errlen, "--layout interleaved: a segment (%" PRIu64 " bytes) must be a "
                 "multiple of --bs %" PRIu64 " (IOR's blockSize of whole transfers)", seg, job->bs);
        return -EINVAL;
    }
    return 0;
}

static int setup(const sb_io_job *job, const sb_io_ranks_opts *o, sb_io_job *mine,
                 rank_files *rf, char *msg, size_t len)
{
    const sb_ranks_info *ri = sb_ranks();
    *mine = *job;
    mine->keep_files = true; /* kept between phases; the delete phase removes them */
    mine->should_stop = stop_cb;
    if (o->shared_file && o->layout == SB_IO_LAYOUT_INTERLEAVED) {
        /* IOR's segmented layout as fio's strided zones: rank R starts at its first
         * segment and, after each segment, skips the other N-1 ranks' ones; its span
         * ends with the file, so it still does exactly --size bytes */
        uint64_t seg = segment_bytes(job, o), n = (uint64_t)ri->size;
        mine->offset = job->offset + (uint64_t)ri->rank * seg;
        mine->size = n * job->size - (uint64_t)ri->rank * seg;
        mine->zonemode = 1;
        mine->zonesize = seg;
        mine->zoneskip = (n - 1) * seg;
        mine->invalidate = false;
        return setup_shared(job, mine, rf, msg, len);
    }
    if (o->shared_file) {
        mine->offset = job->offset + (uint64_t)ri->rank * job->size;
        mine->invalidate = false; /* rank 0 evicts the whole file once (evict_shared) */
        return setup_shared(job, mine, rf, msg, len);
    }
    if (job->directory[0]) {
        if (strlen(job->directory) > sizeof rf->dir - 48)
            return fail(msg, len, ENAMETOOLONG, job->directory);
        sb_fmt(rf->dir, sizeof rf->dir, "%s/storbench-rank%d-XXXXXX", job->directory, ri->rank);
        if (!mkdtemp(rf->dir)) {
            int e = errno;
            rf->dir[0] = '\0';
            return fail(msg, len, e, job->directory);
        }
        snprintf(mine->directory, sizeof mine->directory, "%s", rf->dir);
        mine->dir_private = true; /* made above: the phases share its files */
        return 0;
    }
    struct stat st;
    if (ri->size > 1) {
        if (stat(job->filename, &st) == 0 && S_ISBLK(st.st_mode)) {
            sb_fmt(msg, len, "%s is a block device: add --shared-file so that each rank "
                     "uses its own region of it", job->filename);
            return -EINVAL;
        }
        if (snprintf(mine->filename, sizeof mine->filename, "%s.%d", job->filename, ri->rank) >=
            (int)sizeof mine->filename)
            return fail(msg, len, ENAMETOOLONG, job->filename);
    }
    if (stat(mine->filename, &st) < 0 && errno == ENOENT)
        snprintf(rf->file, sizeof rf->file, "%s", mine->filename); /* the worker creates it */
    return 0;
}

/* Does this rank's part hold no data yet for a job that reads? */
static bool needs_data(const sb_io_job *mine)
{
    if (!sb_rw_reads(mine->rw))
        return false;
    if (mine->directory[0])
        return true; /* a fresh directory */
    struct stat st;
    if (stat(mine->filename, &st) < 0)
        return true;
    return !S_ISBLK(st.st_mode) && (uint64_t)st.st_size < mine->offset + mine->size;
}

/* Rank 0 extends the shared file to every rank's region, so that no rank's set-up
 * (fallocate, or ftruncate where that is missing) races with another's writes. */
static int presize_shared(const sb_io_job *mine, uint64_t need, char *msg, size_t len)
{
    struct stat st;
    if (stat(mine->filename, &st) < 0)
        return fail(msg, len, errno, mine->filename);
    if (S_ISBLK(st.st_mode) || (uint64_t)st.st_size >= need)
        return 0;
    int fd = open(mine->filename, O_RDWR);
    if (fd < 0)
        return fail(msg, len, errno, mine->filename);
    int r = fallocate(fd, 0, 0, (off_t)need) < 0 ? -errno : 0;
    if (r == -EOPNOTSUPP || r == -ENOSYS)
        r = ftruncate(fd, (off_t)need) < 0 ? -errno : 0;
    close(fd);
    return r < 0 ? fail(msg, len, -r, mine->filename) : 0;
}

/* Out of the page cache before a phase that reads, when the caches cannot be dropped
 * (not root). A shared file is evicted once, by rank 0, before the phase's barrier: each
 * rank's own eviction (the worker's --invalidate) would cover the whole file, write back
 * the other ranks' dirty pages, and hold its start back. */
static int evict_shared(const sb_io_job *mine, char *msg, size_t len)
{
    if (sb_ranks()->rank != 0)
        return 0;
    int fd = open(mine->filename, O_RDONLY);
    if (fd < 0)
        return fail(msg, len, errno, mine->filename);
    int r = sb_evict_file(fd);
    close(fd);
    return r < 0 ? fail(msg, len, -r, mine->filename) : 0;
}

static void cleanup(const rank_files *rf, bool failed)
{
    if (rf->dir[0])
        sb_remove_tree(rf->dir);
    if (rf->file[0] && (failed || rf->temp))
        unlink(rf->file);
}

/* Between phases: the page cache goes, once per host (root only). True when every host
 * dropped it; otherwise the worker's per-file eviction (--invalidate) is what remains. */
static bool drop_between(void)
{
    uint64_t ok = 0;
    if (sb_is_root())
        ok = sb_ranks()->local_rank == 0 ? sb_drop_caches() == 0 : 1;
    if (sb_ranks_allreduce_u64(&ok, 1, SB_RANKS_MIN) < 0)
        return false;
    return ok != 0;
}

/* Sums the ranks' results into r (on every rank): counts and bytes, CPU time (the
 * longest wall time: CPU % is of one rank's interval), histograms, per-second samples
 * (aligned on the phase's barrier), and the interval. Each thread's own figures and the
 * priorities' are this rank's alone: they go, so that nothing printed is one rank's. */
static int merge_result(sb_io_result *r, double elapsed)
{
    uint64_t c[2 * SB_DDIR_N + 1];
    for (int d = 0; d < SB_DDIR_N; d++)
        c[2 * d] = r->dir[d].ios, c[2 * d + 1] = r->dir[d].bytes;
    c[2 * SB_DDIR_N] = r->interrupted;
    int e;
    if ((e = sb_ranks_allreduce_u64(c, 2 * SB_DDIR_N, SB_RANKS_SUM)) < 0 ||
        (e = sb_ranks_allreduce_u64(c + 2 * SB_DDIR_N, 1, SB_RANKS_MAX)) < 0)
        return e;
    for (int d = 0; d < SB_DDIR_N; d++)
        r->dir[d].ios = c[2 * d], r->dir[d].bytes = c[2 * d + 1];
    r->interrupted = c[2 * SB_DDIR_N] != 0;
    double cpu[2] = {r->cpu_user_s, r->cpu_sys_s}; /* every rank's job threads */
    uint64_t cpu_ios = r->cpu_ios;
    if ((e = sb_ranks_allreduce_double(cpu, 2, SB_RANKS_SUM)) < 0 ||
        (e = sb_ranks_allreduce_u64(&cpu_ios, 1, SB_RANKS_SUM)) < 0 ||
        (e = sb_ranks_allreduce_double(&r->cpu_wall_s, 1, SB_RANKS_MAX)) < 0)
        return e;
    r->cpu_user_s = cpu[0], r->cpu_sys_s = cpu[1], r->cpu_ios = cpu_ios;
    sb_verify_stats *v = &r->verify; /* a mismatch fails the run: no first offset to merge */
    uint64_t vs[5] = {v->blocks_checked, v->bytes_checked, v->errors, v->writes_moved, v->reads_unchecked};
    if ((e = sb_ranks_allreduce_u64(vs, 5, SB_RANKS_SUM)) < 0)
        return e;
    v->blocks_checked = vs[0], v->bytes_checked = vs[1], v->errors = vs[2];
    v->writes_moved = vs[3], v->reads_unchecked = vs[4];
    for (int d = 0; d < SB_DDIR_N; d++)
        if ((e = sb_ranks_merge_hist(&r->dir[d].clat)) < 0 || (e = sb_ranks_merge_hist(&r->dir[d].slat)) < 0 ||
            (e = sb_ranks_merge_hist(&r->dir[d].clat_issued)) < 0)
            return e;
    if ((e = sb_ranks_merge_hist(&r->clat_all)) < 0)
        return e;
    uint64_t syncs[2] = {r->sync.ios, r->sync_fsyncs}; /* the periodic syncs, every rank's */
    if ((e = sb_ranks_allreduce_u64(syncs, 2, SB_RANKS_SUM)) < 0 || (e = sb_ranks_merge_hist(&r->sync.clat)) < 0)
        return e;
    r->sync.ios = syncs[0], r->sync_fsyncs = syncs[1];
    /* the ranks' bwavgtime windows do not line up: their per-second samples serve */
    free(r->bw_win);
    free(r->iops_win);
    r->bw_win = r->iops_win = NULL;
    r->n_bw_win = r->n_iops_win = 0;
    uint64_t n = r->n_seconds;
    if ((e = sb_ranks_allreduce_u64(&n, 1, SB_RANKS_MAX)) < 0)
        return e;
    if (n) {
        r->bw_bytes_per_s = sb_xrealloc(r->bw_bytes_per_s, n * sizeof(double));
        r->iops = sb_xrealloc(r->iops, n * sizeof(double));
        for (size_t i = r->n_seconds; i < n; i++)
            r->bw_bytes_per_s[i] = r->iops[i] = 0;
        r->n_seconds = n;
        if ((e = sb_ranks_allreduce_double(r->bw_bytes_per_s, n, SB_RANKS_SUM)) < 0 ||
            (e = sb_ranks_allreduce_double(r->iops, n, SB_RANKS_SUM)) < 0)
            return e;
    }
    free(r->threads);
    r->threads = NULL;
    r->n_threads = 0;
    free(r->prio);
    r->prio = NULL;
    free(r->verify_read); /* one rank's read-back: not summed over the ranks */
    r->verify_read = NULL;
    r->seconds = elapsed;
    return 0;
}

/* IOR's figures from the interval and bytes of every rank that ran the job (at least one
 * did: the first). */
static void phase_figures(const rank_fig *all, int n, sb_io_phase_report *ph)
{
    int k = 0, ran = 0;
    while (k < n - 1 && all[k].idle)
        k++;
    double lo = all[k].start, hi = all[k].end, first = all[k].end, sum_bw = 0;
    ph->bytes_min = ph->bytes_max = all[k].bytes;
    ph->bw_min = ph->bw_max = -1;
    ph->ranks_stonewalled = 0;
    for (int i = 0; i < n; i++) {
        const rank_fig *f = &all[i];
        if (f->idle)
            continue;
        ran++;
        lo = f->start < lo ? f->start : lo;
        hi = f->end > hi ? f->end : hi;
        first = f->end < first ? f->end : first;
        ph->bytes_min = f->bytes < ph->bytes_min ? f->bytes : ph->bytes_min;
        ph->bytes_max = f->bytes > ph->bytes_max ? f->bytes : ph->bytes_max;
        double s = f->end - f->start, bw = s > 0 ? (double)f->bytes / s : 0;
        sum_bw += bw;
        ph->bw_min = ph->bw_min < 0 || bw < ph->bw_min ? bw : ph->bw_min;
        ph->bw_max = bw > ph->bw_max ? bw : ph->bw_max;
        ph->ranks_stonewalled += f->walled != 0;
    }
    ph->bw_mean = ran ? sum_bw / ran : 0;
    ph->elapsed_s = hi - lo;
    ph->first_done_s = first - lo;
    ph->last_done_s = hi - lo;
}

/* The figures of job j over the ranks that ran it (idle: this one did not). */
static int combine(const sb_io_job *j, sb_io_result *r, uint64_t t0, uint64_t t1, double wall,
                   bool walled_by_poll, bool idle, int *nran, sb_io_phase_report *ph)
{
    int n = sb_ranks()->size;
    double own = (double)(t1 - t0) / 1e9;
    /* a rank that finished its work first ends before the wall; one the wall stopped (the
     * worker's own runtime, counted from its start, or the poll) ends after it */
    bool walled = wall > 0 && (walled_by_poll || own >= wall);
    /* IOR's interval: the earliest start to the latest end on one clock. On one host every
     * rank reads the same monotonic clock, and that is taken, so a rank that leaves the
     * barrier late (descheduled, more so with ranks oversubscribed) counts from the
     * earliest start; across hosts, whose clocks need not agree, each rank counts on its
     * own clock from its exit of the barrier (the release skew is the error) */
    uint64_t base = sb_ranks()->hosts == 1 ? 0 : t0;
    double end = (double)(t1 - base) / 1e9;
    rank_fig me = {end - r->seconds, end, 0, walled, idle};
    for (int d = 0; d < SB_DDIR_N; d++)
        me.bytes += r->dir[d].bytes;
    if (r->end_ns) { /* the measured interval itself, when the engine says it */
        me.start = (double)(r->start_ns - base) / 1e9;
        me.end = (double)(r->end_ns - base) / 1e9;
    }
    rank_fig *all = sb_xrealloc(NULL, (size_t)n * sizeof *all);
    int rc = sb_ranks_allgather(&me, all, sizeof me);
    *nran = 0;
    for (int i = 0; rc == 0 && i < n; i++)
        *nran += !all[i].idle;
    if (rc == 0) {
        phase_figures(all, n, ph);
        rc = merge_result(r, ph->elapsed_s);
    }
    free(all);
    if (rc < 0)
        return rc;
    snprintf(ph->name, sizeof ph->name, "%s", sb_rw_name(j->rw));
    ph->bytes = ph->ios = 0;
    for (int d = 0; d < SB_DDIR_N; d++)
        ph->bytes += r->dir[d].bytes, ph->ios += r->dir[d].ios;
    ph->bw = ph->elapsed_s > 0 ? (double)ph->bytes / ph->elapsed_s : 0;
    ph->iops = ph->elapsed_s > 0 ? (double)ph->ios / ph->elapsed_s : 0;
    ph->lat = r->clat_all;
    return 0;
}

int sb_io_ranks_combine(const sb_io_job *j, sb_io_result *r, uint64_t t0, uint64_t t1, double wall,
                        bool walled_by_poll, sb_io_phase_report *ph)
{
    int nran;
    return combine(j, r, t0, t1, wall, walled_by_poll, false, &nran, ph);
}

int sb_io_ranks_combine_some(const sb_io_job *j, sb_io_result *r, uint64_t t0, uint64_t t1, bool ran,
                             int *nran, sb_io_phase_report *ph)
{
    return combine(j, r, t0, t1, 0, false, !ran, nran, ph);
}

/* One phase on every rank: barrier, the job, agreement, then the combined figures. */
static int run_phase(const sb_io_job *j, double wall, sb_io_result *r, sb_io_phase_report *ph,
                     char *err, size_t errlen)
{
    char msg[1024] = "";
    memset(r, 0, sizeof *r);
    int st = sb_ranks_barrier();
    sb_test_rank_delay(); /* tests only: a rank that leaves the barrier late */
    uint64_t t0 = sb_now_ns();
    g_wall_ns = wall > 0 ? t0 + (uint64_t)(wall * 1e9) : 0;
    g_walled = false;
    if (st == 0)
        st = sb_io_run(j, r, msg, sizeof msg);
    uint64_t t1 = sb_now_ns();
    g_wall_ns = 0;
    if (st == 0 && r->interrupted && g_walled && !sb_interrupted() && !sb_ranks_failure_announced())
        r->interrupted = false; /* stopped by the wall: a complete phase */
    if (st == 0 && r->interrupted) {
        st = -EINTR;
        snprintf(msg, sizeof msg, "interrupted");
    }
    if (st < 0 && st != -EINTR)
        sb_ranks_announce_failure();
    int rc = sb_ranks_agree(st, msg, err, errlen);
    if (rc < 0) {
        sb_io_result_free(r);
        return rc;
    }
    rc = sb_io_ranks_combine(j, r, t0, t1, wall, g_walled, ph);
    if (rc < 0) {
        snprintf(err, errlen, "rank %d on %s: combining the ranks' figures: %s",
                 sb_ranks()->rank, sb_ranks()->host, strerror(-rc));
        sb_io_result_free(r);
    }
    return rc;
}

/* The write phase before a job that reads: its data, written as IOR's write phase. */
static int write_phase(const sb_io_job *mine, sb_io_ranks_report *rep, char *err, size_t errlen)
{
    sb_io_job *w = sb_xcalloc(1, sizeof *w);       /* large: paths */
    sb_io_result *r = sb_xcalloc(1, sizeof *r);    /* large: histograms */
    *w = *mine;
    w->rw = SB_RW_WRITE;
    w->end_fsync = true; /* clean pages, so that the read is not served by dirty ones */
    w->time_based = false;
    w->runtime_s = w->ramp_s = w->startdelay_s = 0;
    int rc = run_phase(w, 0, r, &rep->phase[rep->n_phases], err, errlen);
    if (rc == 0) {
        rep->n_phases++;
        sb_io_result_free(r);
    }
    free(r);
    free(w);
    return rc < 0 ? rc : 0;
}

void sb_io_ranks_report_start(sb_io_ranks_report *rep)
{
    const sb_ranks_info *ri = sb_ranks();
    memset(rep, 0, sizeof *rep);
    rep->ranks = ri->size;
    rep->hosts = ri->hosts;
    rep->max_per_host = ri->max_per_host;
    snprintf(rep->mpi, sizeof rep->mpi, "%s", sb_ranks_impl_name());
}

static void report_init(const sb_io_job *job, sb_io_ranks_report *rep, const sb_io_ranks_opts *o)
{
    sb_io_ranks_report_start(rep);
    rep->shared_file = o->shared_file;
    rep->layout = o->shared_file ? o->layout : SB_IO_LAYOUT_CONTIGUOUS;
    rep->segment_bytes = rep->layout == SB_IO_LAYOUT_INTERLEAVED ? segment_bytes(job, o) : 0;
    rep->stonewall_s = o->stonewall_s;
}

/* Set-up and the write phase when the job needs data; 0 or the agreed failure. */
static int prepare(const sb_io_job *job, const sb_io_ranks_opts *o, sb_io_job *mine,
                   rank_files *rf, sb_io_ranks_report *rep, char *err, size_t errlen)
{
    char msg[1024] = "";
    int rc = sb_ranks_agree(setup(job, o, mine, rf, msg, sizeof msg), msg, err, errlen);
    if (rc < 0)
        return rc;
    if (o->shared_file && (rc = sb_ranks_bcast(mine->filename, sizeof mine->filename, 0)) < 0)
        return rc;
    uint64_t need = needs_data(mine);
    if ((rc = sb_ranks_allreduce_u64(&need, 1, SB_RANKS_MAX)) < 0)
        return rc;
    int st = 0;
    if (o->shared_file && sb_ranks()->rank == 0)
        st = presize_shared(mine, job->offset + job->size * (uint64_t)sb_ranks()->size, msg, sizeof msg);
    if (o->shared_file && st == 0 && job->invalidate && !need)
        st = evict_shared(mine, msg, sizeof msg);
    if ((rc = sb_ranks_agree(st, msg, err, errlen)) < 0 || !need)
        return rc;
    if ((rc = write_phase(mine, rep, err, errlen)) < 0)
        return rc;
    rep->cache_dropped = drop_between();
    st = 0;
    if (o->shared_file && !rep->cache_dropped && job->invalidate)
        st = evict_shared(mine, msg, sizeof msg);
    return sb_ranks_agree(st, msg, err, errlen);
}

int sb_io_ranks_run(const sb_io_job *job, const sb_io_ranks_opts *o, sb_io_result *res,
                    sb_io_ranks_report *rep, char *err, size_t errlen)
{
    sb_io_job *mine = sb_xcalloc(1, sizeof *mine); /* large: paths */
    rank_files rf = {{0}, {0}, false};
    report_init(job, rep, o);
    int rc = prepare(job, o, mine, &rf, rep, err, errlen);
    if (rc == 0) {
        if (o->stonewall_s > 0 && (mine->runtime_s <= 0 || mine->runtime_s > o->stonewall_s))
            mine->runtime_s = o->stonewall_s;
        rc = run_phase(mine, o->stonewall_s, res, &rep->phase[rep->n_phases], err, errlen);
        if (rc == 0)
            rep->n_phases++;
    }
    free(mine);
    cleanup(&rf, rc < 0);
    /* the delete phase ends when every rank has removed its files */
    int b = sb_ranks_barrier();
    if (rc == 0 && b < 0) {
        snprintf(err, errlen, "rank %d on %s: barrier after the delete phase: %s",
                 sb_ranks()->rank, sb_ranks()->host, strerror(-b));
        sb_io_result_free(res);
        rc = b;
    }
    return rc;
}
