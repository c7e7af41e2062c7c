/*
 * jobctl — fio's job control in the loop of a thread (worker.h): io_size and number_ios
 * (how much I/O a thread does), offset_increment (where each thread's region starts),
 * continue_on_error and ignore_error (which failed I/Os a job goes on after, counted as
 * fio's total_err and first_error), and the data of writes that dedupe_percentage or
 * buffer_compress_percentage shape. Everything here runs only for jobs that set one of
 * them (worker->ctl, worker->fill): the loop of any other job tests one flag.
 */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "core/rand.h"
#include "io/run/worker.h"

/* The job file i is laid out for: its region moved to thread i's (or, for the one shared
 * file, to the last thread's, the furthest), so the file holds every thread's region. */
void sb_io_ctl_file_job(const sb_io_job *job, unsigned file, unsigned nfiles, sb_io_job *out)
{
    *out = *job;
    unsigned i = nfiles == 1 ? job->numjobs - 1 : file;
    out->offset = sb_io_ctl_thread_offset(job, i);
}

uint64_t sb_io_ctl_thread_offset(const sb_io_job *job, unsigned i)
{
    uint64_t off = job->offset + (uint64_t)i * job->offset_increment, a = job->offinc_align;
    return a ? (off + a - 1) / a * a : off;
}

int sb_io_ctl_fill_job(const sb_io_job *job, const char *dir, sb_io_job **out, char *err, size_t errlen)
{
    char path[PATH_MAX], where[PATH_MAX];
    struct statvfs vfs;
    struct stat st;
    uint64_t have = 0;
    if (job->filename[0]) {
        snprintf(path, sizeof path, "%s", job->filename);
        if (stat(job->filename, &st) == 0)
            have = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
        snprintf(where, sizeof where, "%s", dirname(path)); /* dirname may change path */
    } else {
        snprintf(where, sizeof where, "%s", dir);
    }
    if (statvfs(where, &vfs) < 0) {
        snprintf(err, errlen, "fill_device: %s: %s", where, strerror(errno));
        return -errno;
    }
    uint64_t room = (uint64_t)vfs.f_bavail * vfs.f_frsize + have;
    room = room > job->offset ? (room - job->offset) / job->bs * job->bs : 0;
    if (room < job->bs) {
        snprintf(err, errlen, "fill_device: %s has no room for a block of %" PRIu64 " bytes", where, job->bs);
        return -ENOSPC;
    }
    if (!(*out = malloc(sizeof **out))) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    **out = *job;
    (*out)->size = room / (job->filename[0] ? 1 : job->numjobs) / job->bs * job->bs;
    if (job->size_given && !job->size_pct && job->size && job->size < (*out)->size) {
        (*out)->size = job->size; /* fio fills the device only where no size= says less */
        (*out)->fill_sized = true;
    }
    return 0;
}

int sb_io_ctl_setup(worker *w, const sb_io_job *job, char *err, size_t errlen)
{
    w->ctl = job->number_ios || (job->io_size && !job->time_based) || job->flow ||
             job->continue_on_error || job->fill_device;
    w->first_error = 0;
    if (sb_flow_join(&w->flow, job->flow_id, job->flow, job->flow_reserved) < 0) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    /* dedupe: the working set's blocks are a thread's first new ones (fio's), or, with
     * dedupe_global, one set of the run's that every such job draws from */
    w->ws_seed = job->dedupe_global ? job->seed * 0x9e3779b97f4a7c15ull ^ 0xd3d0
                                    : job->seed * 0x9e3779b97f4a7c15ull ^ (w->index + 1);
    return 0;
}

/* After an I/O was prepared: true when the thread is done after it. io_size: a loop ends
 * when it has issued io_size bytes (passes over the region go round as needed), and the
 * next loop starts at the region's start again, as fio's. */
bool sb_io_ctl_issued(worker *w, sb_io_u *u)
{
    const sb_io_job *job = w->job;
    if (job->number_ios && ++w->ios_issued >= job->number_ios)
        return true;
    if (!job->io_size || job->time_based)
        return false;
    w->loop_bytes += u->len;
    if (w->loop_bytes < job->io_size)
        return false;
    w->loop_bytes = 0;
    if (++w->passes >= (job->loops ? job->loops : 1))
        return true;
    sb_offgen_new_pass(&w->og);
    w->seq_pos = w->pass_bytes = 0;
    return false;
}

/* The class of a failed I/O: its direction (fio's read and write error types; the
 * third, verify, is a mismatch the verify code finds, which stops the job). */
static int error_class(const sb_io_u *u)
{
    return u->ddir;
}

bool sb_io_ctl_survives(const sb_io_job *job, int ddir, int e)
{
    unsigned c = ddir == SB_DDIR_WRITE ? 1 : 0;
    if (!(job->continue_on_error & (1u << c)))
        return false;
    bool listed = false;
    if (!job->n_ignore_error[c])
        listed = e == EIO || e == EILSEQ; /* fio's default list */
    for (unsigned i = 0; i < job->n_ignore_error[c] && !listed; i++)
        listed = job->ignore_error[c][i] == e;
    return listed;
}

bool sb_io_ctl_error(worker *w, const sb_io_u *u, int e, uint64_t now)
{
    const sb_io_job *job = w->job;
    if (job->fill_device && u->ddir == SB_DDIR_WRITE && (e == ENOSPC || e == EDQUOT)) {
        w->pass_done = true; /* full: the end fill_device waits for, no error (fio's) */
        return true;
    }
    if (!sb_io_ctl_survives(job, error_class(u), e))
        return false;
    if (now >= w->ramp_end_ns)
        w->st[u->ddir].ios++; /* fio counts a failed I/O among the I/Os, not its bytes */
    if (!w->total_err++)
        w->first_error = e;
    if (job->error_dump) /* as fio's io_u error line, once per error */
        fprintf(stderr, "storbench: io: %s: %s error at offset %" PRIu64 ", %u bytes: %s "
                "(continue_on_error)\n", job->name[0] ? job->name : "job",
                u->ddir == SB_DDIR_READ ? "read" : "write", u->offset, u->len, strerror(e));
    return true;
}

/* A block's data from its seed alone, so that a repeated block is byte for byte the one
 * it repeats: random, or per compress chunk random for (100 - PCT) % and then zeros. */
static void fill_from_seed(const sb_io_job *job, void *buf, uint32_t len, uint64_t seed)
{
    sb_rand r;
    sb_rand_seed(&r, seed);
    if (!job->compress_pct) {
        sb_rand_fill(&r, buf, len);
        return;
    }
    uint64_t chunk = job->compress_chunk ? job->compress_chunk : 512;
    for (uint32_t at = 0; at < len;) {
        uint32_t seg = (uint32_t)(len - at < chunk ? len - at : chunk);
        uint32_t rnd = (uint32_t)((uint64_t)seg * (100 - job->compress_pct) / 100);
        sb_rand_fill(&r, (char *)buf + at, rnd);
        memset((char *)buf + at + rnd, 0, seg - rnd);
        at += seg;
    }
}

static uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t z = a ^ (b * 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* fio's dedupe_percentage (dedupe_mode) and buffer_compress_percentage: each write is a
 * new block, or with dedupe_percentage % a repeat of the last new one (repeat) or of a
 * block of the working set (working_set: dedupe_working_set_percentage % of the region's
 * blocks, the first new blocks the thread writes). */
void sb_io_fill_write(worker *w, sb_io_u *u)
{
    const sb_io_job *job = w->job;
    uint64_t seed;
    bool dup = job->dedupe_percentage && sb_rand_below(&w->rng, 100) < job->dedupe_percentage;
    uint64_t set = job->size * job->dedupe_ws_pct / 100 / job->bs;
    if (dup && job->dedupe_mode == 1 && set) {
        seed = mix(w->ws_seed, sb_rand_below(&w->rng, set));
    } else if (dup && job->dedupe_mode == 0 && w->dedupe_last) {
        seed = w->dedupe_last;
    } else {
        /* the thread's k-th new block: the working set's k-th block when k is in the set */
        seed = job->dedupe_global && job->dedupe_mode == 1 ? mix(w->ws_seed ^ ((uint64_t)w->index + 1) << 40,
                                                                 w->scramble_n)
                                                           : mix(w->ws_seed, w->scramble_n);
        w->scramble_n++;
        w->dedupe_last = seed;
    }
    fill_from_seed(job, u->buf, u->len, seed);
}
