/*
 * fileopts — fio's options about a job's files that act before or around the run, as
 * fio 3.33 has them: opendir (every regular file under a directory becomes one of the
 * job's files, as filename=a:b would name them, and without size= the job is as large as
 * they are, each file its own size, as fio's), file_append (the region starts at the
 * file's end), parent directories of a filename made as fio's create_work_dirs makes
 * them (0700, each missing one), pre_read (the region read into the page cache before
 * the run), write_hint (fcntl F_SET_RW_HINT on each descriptor) and atomic (refused with
 * the reason: the file system's statx answer, or that no engine issues RWF_ATOMIC).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/fileio.h"
#include "io/engine.h"
#include "io/job/fileopts.h"

#ifndef F_SET_RW_HINT
#define F_SET_RW_HINT 1036 /* F_LINUX_SPECIFIC_BASE + 12 */
#endif
#define SB_STATX_WRITE_ATOMIC 0x00010000u /* older headers lack it */

/* opendir's walk: the names collected into a filename list (nftw has no user argument,
 * so the list it fills is the walker's one at a time, set around the call). */
typedef struct opendir_walk {
    char *list;
    size_t cap, used;
    unsigned n;
    bool full;
} opendir_walk;
static _Thread_local opendir_walk *walk_now;

static int opendir_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    if (type != FTW_F || !S_ISREG(st->st_mode))
        return 0;
    size_t n = strlen(path) + 1;
    if (walk_now->used + n + 1 > walk_now->cap) {
        walk_now->full = true;
        return 1;
    }
    memcpy(walk_now->list + walk_now->used, path, n);
    walk_now->used += n;
    walk_now->list[walk_now->used] = '\0';
    walk_now->n++;
    return 0;
}

/* fio's opendir: the files under job->opendir, in the order the walk meets them. */
static int opendir_files(sb_io_job *job, char *err, size_t errlen)
{
    char list[sizeof job->filename];
    opendir_walk w = {.list = list, .cap = sizeof list};
    list[0] = list[1] = '\0';
    walk_now = &w;
    int r = nftw(job->opendir, opendir_one, 16, FTW_PHYS);
    walk_now = NULL;
    if (w.full) {
        snprintf(err, errlen, "opendir %s: its files' names take more than %zu bytes", job->opendir,
                 sizeof list);
        return -ENAMETOOLONG;
    }
    if (r < 0 || !w.n) { /* bad input: the job names a directory it cannot use */
        snprintf(err, errlen, "opendir %s: %s", job->opendir, r < 0 ? strerror(errno) : "no regular file in it");
        return -EINVAL;
    }
    memcpy(job->filename, list, w.used + 1);
    return 0;
}

/* Whether a job's files may each have a size of their own (filesize=LO-HI, opendir's files
 * of different sizes): jobs with the plain random or sequential offsets only (files.c). */
static bool sizes_own_ok(const sb_io_job *job)
{
    return !(job->rw_skip || job->zonemode || job->blockalign || job->dist.kind != SB_DIST_RANDOM ||
             job->random_generator == SB_RNG_LFSR || job->sprandom || job->verify || job->verify_pattern ||
             job->offset_increment || job->offinc_pct || job->fill_device || job->size_pct || job->io_size);
}

/* fio's opendir without size= (nor filesize, size=N%, fill_device): the job's size is its
 * files' (fio's setup_files: each file's io_size its own size from offset, the job's their
 * sum), here in whole blocks: one size for all (filesize = size, so that it is not divided
 * among them) or, for files of different sizes, each its own (filesize=LO-HI's, where a
 * file that exists keeps its size). */
static int opendir_sizes(sb_io_job *job, char *err, size_t errlen)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    for (const char *p = job->filename; *p; p += strlen(p) + 1) {
        struct stat st;
        uint64_t sz = stat(p, &st) == 0 ? (uint64_t)st.st_size : 0;
        sz = sz > job->offset ? sz - job->offset : 0;
        if (sz < job->bs) {
            snprintf(err, errlen, "opendir: %s holds less than a block (bs %" PRIu64 ") past offset %" PRIu64
                     ", and no size= says how much to do: give size=", p, job->bs, job->offset);
            return -EINVAL;
        }
        lo = sz < lo ? sz : lo;
        hi = sz > hi ? sz : hi;
    }
    if (lo - lo % job->bs == hi - hi % job->bs) {
        job->size = job->filesize = hi - hi % job->bs;
        return 0;
    }
    if (job->offset || !sizes_own_ok(job)) {
        snprintf(err, errlen, "opendir: its files have different sizes (%" PRIu64 " .. %" PRIu64 " bytes), "
                 "each the job's own only with the plain random or sequential offsets from offset 0 (no "
                 "zones, skips, distributions, lfsr, verify, io_size, offset_increment): give size=", lo, hi);
        return -EINVAL;
    }
    job->filesize = lo; /* the range holds every file, so each keeps its size (files.c) */
    job->filesize_max = hi;
    job->size = hi - hi % job->bs;
    return 0;
}

/* file_append: the region starts at the end of the job's file(s), fio's get_start_offset;
 * several files must be alike (one offset for all). */
static int append_offset(sb_io_job *job, char *err, size_t errlen)
{
    uint64_t at = 0;
    unsigned k = 0;
    for (const char *p = job->filename; *p; p += strlen(p) + 1, k++) {
        struct stat st;
        uint64_t sz = stat(p, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
        if (k && sz != at) {
            snprintf(err, errlen, "file_append: the job's files end at different offsets (%" PRIu64
                     " and %" PRIu64 " bytes); one offset serves them all here", at, sz);
            return -EINVAL;
        }
        at = sz;
    }
    job->offset = at;
    return 0;
}

int sb_io_fileopts_check(const sb_io_job *job, char *err, size_t errlen)
{
    const char *why = NULL, *what = NULL;
    if (job->write_barrier)
        what = "write_barrier", why = "fio issues barrier writes only from its sg engine, which storbench has not";
    else if (job->lockfile && job->submit_offload)
        what = "lockfile", why = "not with io_submit_mode=offload";
    else if (job->unlink_each_loop && (sb_rw_reads(job->rw) || job->verify || job->verify_pattern))
        what = "unlink_each_loop", why = "a job that reads would find no file after the first loop "
                                         "(fio's fails with ENOENT): for write jobs";
    else if (job->unlink_each_loop && !(sb_engine_find(job->engine) && sb_engine_find(job->engine)->sync))
        what = "unlink_each_loop", why = "only with a synchronous engine (psync, sync, pvsync, pvsync2)";
    else if (job->unlink_each_loop && (sb_opt_list_count(job->filename) > 1 || job->nrfiles > 1 ||
                                       job->opendir[0] || (job->numjobs > 1 && !job->directory[0])))
        what = "unlink_each_loop", why = "one file per thread (a directory's, or one job's filename)";
    else if (job->opendir[0] && job->filename[0])
        what = "opendir", why = "give it or filename, not both";
    else if (job->sfr_flags && (job->fsync_every || job->fdatasync_every))
        what = "sync_file_range", why = "one periodic sync at a time: not with fsync or fdatasync";
    else if (job->filesize_max && !sizes_own_ok(job))
        what = "filesize", why = "a range LO-HI is supported for jobs with the plain random or sequential "
                                 "offsets (no zones, skips, distributions, lfsr, verify, io_size, size=N%, "
                                 "offset_increment, fill_device)";
    else if (job->zonerange && job->zonemode == SB_ZONEMODE_STRIDED && job->zonerange < job->zonesize)
        what = "zonerange", why = "smaller than zonesize (fio then goes over the zone again) is not supported";
    if (!what)
        return 0;
    snprintf(err, errlen, "%s: %s", what, why);
    return -EINVAL;
}

int sb_io_fileopts_resolve(sb_io_job *job, char *err, size_t errlen)
{
    int r;
    if (job->opendir[0] && job->directory[0] && job->opendir[0] != '/') {
        /* fio names opendir's files below the job's directory */
        char d[sizeof job->opendir];
        if (snprintf(d, sizeof d, "%s/%s", job->directory, job->opendir) >= (int)sizeof d) {
            snprintf(err, errlen, "opendir %s: %s", job->opendir, strerror(ENAMETOOLONG));
            return -ENAMETOOLONG;
        }
        memcpy(job->opendir, d, sizeof d);
    }
    if (job->opendir[0]) {
        job->directory[0] = '\0';
        if ((r = opendir_files(job, err, errlen)) < 0)
            return r;
        if (!job->size_given && !job->filesize && !job->size_pct && !job->fill_device &&
            (r = opendir_sizes(job, err, errlen)) < 0)
            return r;
    }
    if (job->file_append && job->filename[0] && (r = append_offset(job, err, errlen)) < 0)
        return r;
    return 0;
}

int sb_io_fileopts_parents(const char *path, char *err, size_t errlen)
{
    char p[PATH_MAX];
    if (snprintf(p, sizeof p, "%s", path) >= (int)sizeof p)
        return 0;
    for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = '\0';
        if (mkdir(p, 0700) < 0 && errno != EEXIST) {
            int e = errno;
            snprintf(err, errlen, "%s: cannot make the directory: %s", p, strerror(e));
            return -e;
        }
        *s = '/';
    }
    return 0;
}

int sb_io_fileopts_open(const sb_io_job *job, int fd, const char *path, char *err, size_t errlen)
{
    if (job->write_hint >= 0) {
        uint64_t hint = (uint64_t)job->write_hint;
        if (fcntl(fd, F_SET_RW_HINT, &hint) < 0) {
            int e = errno;
            snprintf(err, errlen, "%s: write_hint: fcntl F_SET_RW_HINT: %s", path, strerror(e));
            return -e;
        }
    }
    if (job->atomic) {
        /* struct statx as the kernel lays it out: the atomic write units at 0xb0 */
        uint64_t sx[32] = {0};
        uint32_t mask, lo = 0, hi = 0;
        long rc = syscall(SYS_statx, fd, "", AT_EMPTY_PATH, SB_STATX_WRITE_ATOMIC, sx);
        memcpy(&mask, sx, 4);
        memcpy(&lo, (char *)sx + 0xb0, 4);
        memcpy(&hi, (char *)sx + 0xb4, 4);
        if (rc < 0 || !(mask & SB_STATX_WRITE_ATOMIC) || !lo)
            snprintf(err, errlen, "atomic: %s: the kernel or file system offers no atomic writes "
                     "(statx STATX_WRITE_ATOMIC: %s)", path, rc < 0 ? strerror(errno)
                     : !(mask & SB_STATX_WRITE_ATOMIC) ? "not known" : "unit 0");
        /* refused, not failed: the option cannot mean anything on this file */
        else
            snprintf(err, errlen, "atomic: %s takes atomic writes of %u .. %u bytes, but storbench's "
                     "engines do not issue RWF_ATOMIC", path, lo, hi);
        return -EINVAL;
    }
    return 0;
}

int sb_io_fileopts_pre_read(const sb_io_job *job, const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: pre_read: %s", path, strerror(e));
        return -e;
    }
    const size_t chunk = 1u << 20;
    char *buf = malloc(chunk);
    int r = buf ? 0 : -ENOMEM;
    for (uint64_t off = job->offset, end = job->offset + job->size; r == 0 && off < end;) {
        size_t n = end - off < chunk ? (size_t)(end - off) : chunk;
        ssize_t got = pread(fd, buf, n, (off_t)off);
        if (got < 0)
            r = -errno;
        if (got <= 0)
            break;
        off += (uint64_t)got;
    }
    if (r < 0)
        snprintf(err, errlen, "%s: pre_read: %s", path, strerror(-r));
    free(buf);
    close(fd);
    return r;
}
