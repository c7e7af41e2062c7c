/*
 * prepare — the files of an I/O job before its threads start: creating or extending
 * each file (laid out with data when the job reads or verifies, else allocated),
 * the free-space and short-file checks, block devices, and opening for the run with
 * O_DIRECT and its alignment (the logical block size of the storage) checked.
 *
 * Ownership (the safety rule): with a directory the files go in a private
 * directory storbench makes inside it (mkdtemp, 0700, core/workdir: removed
 * afterwards, on Ctrl-C, and by the next run after a SIGKILL), unless the caller's
 * directory is already its own (dir_private), and each is created with
 * O_CREAT|O_EXCL|O_NOFOLLOW: a user's "storbench-io.0" or an attacker's symlink of
 * that name is never read, written or removed. A --filename is used as given
 * (symlinks followed under the protected-symlink rule, core/safepath.h) and removed
 * only when this run created it and then failed; what is removed is checked to be
 * the inode this run created. fio's unlink_each_loop (sb_io_reloop_file) unlinks a thread's
 * file between loops, as the option asks, and makes it anew with O_EXCL.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>

#include "core/devguard.h"
#include "core/fileio.h"
#include "core/rand.h"
#include "core/safepath.h"
#include "core/workdir.h"
#include "io/job/fileopts.h"
#include "io/run/worker.h"

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

static int layout_file(int fd, uint64_t from, uint64_t to, uint64_t seed, bool pattern, bool sync,
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
        int e = sb_pwrite_all(fd, buf, n, off);
        if (e < 0) {
            free(buf);
            snprintf(err, errlen, "%s: laying out the file: %s", path, strerror(-e));
            return e;
        }
        off += n;
    }
    free(buf);
    /* fio's create_fsync (on by default): the laid-out data on the medium before the run */
    if (sync && fsync(fd) < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: fsync: %s", path, strerror(e));
        return -e;
    }
    return 0;
}

static int write_all(int fd, const char *buf, size_t n, uint64_t off, const char *path,
                     char *err, size_t errlen)
{
    int r = sb_pwrite_all(fd, buf, n, off);
    if (r < 0)
        snprintf(err, errlen, "%s: laying out the file: %s", path, strerror(-r));
    return r;
}

/* verify: the whole blocks of the job's region from `have` on are laid out as
 * layout blocks (sequence 0), so that a read of a block this run has not written
 * is checked too; what lies around them gets random data as usual. */
static int layout_verified(int fd, const sb_io_job *job, uint64_t have, uint64_t need,
                           uint64_t *known_from, char *err, size_t errlen, const char *path)
{
    const uint64_t bs = sb_io_verify_unit(job), nb = job->size / bs; /* verify's blocks */
    uint64_t k0 = have <= job->offset ? 0 : (have - job->offset + bs - 1) / bs;
    if (k0 >= nb)
        return layout_file(fd, have, need, job->seed, false, job->create_fsync, err, errlen, path);
    uint64_t from = job->offset + k0 * bs, to = job->offset + nb * bs;
    int r = 0;
    if (have < from && (r = layout_file(fd, have, from, job->seed, false, job->create_fsync, err, errlen, path)) < 0)
        return r;
    uint64_t per = bs >= (1u << 20) ? 1 : (1u << 20) / bs;
    sb_verify_fmt fmt;
    char *buf = NULL;
    if (sb_io_verify_fmt_init(&fmt, job, (uint32_t)bs) < 0 ||
        posix_memalign((void **)&buf, 4096, per * bs)) {
        sb_verify_fmt_free(&fmt);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    for (uint64_t k = k0; k < nb && r == 0; k += per) {
        uint64_t n = nb - k < per ? nb - k : per;
        for (uint64_t i = 0; i < n; i++)
            sb_verify_format(&fmt, buf + i * bs, job->offset + (k + i) * bs, 0, 0);
        r = write_all(fd, buf, (size_t)(n * bs), job->offset + k * bs, path, err, errlen);
    }
    free(buf);
    sb_verify_fmt_free(&fmt);
    if (r == 0)
        r = layout_file(fd, to, need, job->seed, false, job->create_fsync, err, errlen, path);
    if (r == 0)
        *known_from = from;
    return r;
}

/* Opens f->path for preparing: created (O_EXCL, so f->created is exact), or the existing
 * file; *st is what was opened. 0 or -errno with one line in err. */
static int open_job_file(const sb_io_job *job, file_ctx *f, struct stat *st, char *err, size_t errlen)
{
    bool read_only = !sb_io_job_modifies(job) || job->readonly;
    /* fio's allow_file_create=0 and --readonly: nothing is created */
    bool create = job->allow_file_create && !job->readonly;
    const char *no_create = job->readonly ? " (--readonly creates no file)"
                                          : " (allow_file_create=0: every file must exist)";
    int fd = -1, r;
    f->created = false;
    if (job->directory[0]) {
        /* a private directory: only an earlier phase's file of ours (keep_files) can be there;
         * a filename_format with '/' names directories below it, made first */
        if (create && strchr(job->filename_format, '/') && (r = sb_io_fileopts_parents(f->path, err, errlen)) < 0)
            return r;
        fd = create ? open(f->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644) : -1;
        f->created = fd >= 0;
        if (!create)
            errno = ENOENT;
        if (fd < 0 && (errno == EEXIST || !create) && job->dir_private && job->keep_files)
            fd = open(f->path, (read_only ? O_RDONLY : O_RDWR) | O_NOFOLLOW | O_CLOEXEC);
        r = fd < 0 ? -errno : 0;
        if (r < 0)
            snprintf(err, errlen, "%s: %s%s", f->path, strerror(-r), create ? "" : no_create);
    } else {
        /* the missing directories of the name are made first, as fio's create_work_dirs */
        r = create && !job->verify_only ? sb_io_fileopts_parents(f->path, err, errlen) : 0;
        if (r < 0)
            return r;
        r = job->verify_only || !create ? -EEXIST /* never made: verify_only checks an earlier run's file */
                                         : sb_open_resolved(f->path, O_RDWR | O_CREAT | O_EXCL, 0644, &fd, err, errlen);
        f->created = r == 0;
        if (r == -EEXIST) {
            r = sb_open_resolved(f->path, read_only ? O_RDONLY : O_RDWR, 0, &fd, err, errlen);
            if (r == -ENOENT && job->verify_only)
                snprintf(err, errlen, "%s does not exist: verify_only checks a file an earlier run wrote",
                         f->path);
            else if (r == -ENOENT && !create)
                snprintf(err, errlen, "%s does not exist%s", f->path, no_create);
        }
    }
    if (r < 0)
        return r;
    if (fstat(fd, st) < 0) {
        r = -errno;
        snprintf(err, errlen, "%s: %s", f->path, strerror(-r));
        close(fd);
        return r;
    }
    f->dev = st->st_dev;
    f->ino = st->st_ino;
    f->fd = fd;
    return 0;
}

/* A block device: checked for size, and, when the job writes or trims, by the device
 * rules (core/devguard.h; the command claimed it, so without the exclusive probe, which
 * the claim itself would fail). The workers open it. */
static int check_block_device(const sb_io_job *job, file_ctx *f, char *err, size_t errlen)
{
    uint64_t need = job->offset + job->size, bytes = 0;
    ioctl(f->fd, BLKGETSIZE64, &bytes);
    close(f->fd);
    f->fd = -1;
    if (sb_io_job_modifies(job)) {
        const sb_devguard_rules rules = {.allow_mounted = job->allow_mounted_write, .consent = &job->consent};
        int r = sb_devguard_check(f->path, &rules, err, errlen);
        if (r < 0)
            return r;
    }
    if (bytes < need) {
        snprintf(err, errlen, "%s holds %" PRIu64 " bytes, less than offset + size = %" PRIu64,
                 f->path, bytes, need);
        return -ENOSPC;
    }
    return 0;
}

/* Whether what is missing of the file fits on its filesystem. */
static int check_space(file_ctx *f, uint64_t have, uint64_t need, char *err, size_t errlen)
{
    struct statvfs vfs;
    if (have >= need || fstatvfs(f->fd, &vfs) < 0)
        return 0;
    uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
    if (need - have > avail) {
        snprintf(err, errlen, "%s: size %" PRIu64 " bytes does not fit: %" PRIu64
                 " bytes needed, %" PRIu64 " free", f->path, need, need - have, avail);
        return -ENOSPC;
    }
    return 0;
}

/* Creates/extends/checks one file so that [0, offset+size) exists. */
int sb_io_prepare_file(const sb_io_job *job, file_ctx *f, char *err, size_t errlen)
{
    uint64_t need = job->offset + job->size;
    struct stat st;
    f->known_from = UINT64_MAX;
    f->fd = -1;
    int r = open_job_file(job, f, &st, err, errlen);
    if (r < 0)
        return r;
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s is a directory", f->path);
        return -EISDIR;
    }
    /* a trim finds data to discard, as fio lays the file out for it */
    bool reads = sb_rw_reads(job->rw) || job->verify_only || sb_rw_trims(job->rw);
    /* fio's overwrite: a write job's missing bytes are written before the run, as a read
     * job's are, so that its writes overwrite data */
    bool layout = reads || (job->overwrite && sb_rw_writes(job->rw));
    if (S_ISBLK(st.st_mode))
        return check_block_device(job, f, err, errlen);
    if (!f->created && reads && (uint64_t)st.st_size < need) {
        snprintf(err, errlen, "%s is %" PRIu64 " bytes, shorter than offset + size = %" PRIu64
                 " needed by a read job", f->path, (uint64_t)st.st_size, need);
        return -EINVAL;
    }
    uint64_t have = f->created ? 0 : (uint64_t)st.st_size;
    /* continue_on_error surviving ENOSPC writes: a file larger than the room is the point */
    bool room_ok = sb_io_ctl_survives(job, SB_DDIR_WRITE, ENOSPC) || job->fill_device;
    if (!room_ok && (r = check_space(f, have, need, err, errlen)) < 0)
        return r;
    int fd = f->fd;
    /* fio's create_on_open: the file is made but neither laid out nor allocated; the
     * run's writes extend it. A read job's reads then find holes (zeros) below the end
     * and nothing past it, as fio's do (loop.c counts those; verify checks only the
     * blocks this run wrote: the table starts unknown). verify_only and verify_pattern
     * check every block they read, so their file is laid out. (A file that exists and is
     * shorter than a read job needs was refused above.) */
    bool bare = job->create_on_open && !job->verify_only && !job->verify_pattern;
    if (have < need && !bare) {
        if ((reads || job->verify_pattern) && job->verify) {
            r = layout_verified(fd, job, have, need, &f->known_from, err, errlen, f->path);
        } else if (layout || job->verify_pattern) {
            /* a read must find data on the medium, as fio's layout writes it */
            r = layout_file(fd, have, need, job->seed, job->verify_pattern, job->create_fsync, err, errlen,
                            f->path);
        } else {
            /* fio's fallocate: none (a sparse file), keep (allocated, the size set apart),
             * native/posix (the default: allocated, else sparse where unsupported) */
            int mode = job->fallocate == SB_FALLOC_KEEP ? FALLOC_FL_KEEP_SIZE : 0;
            r = job->fallocate == SB_FALLOC_NONE ? -EOPNOTSUPP
                : fallocate(fd, mode, 0, (off_t)need) < 0 ? -errno : 0;
            if (r == -EOPNOTSUPP || r == -ENOSYS || mode || (r == -ENOSPC && room_ok))
                r = ftruncate(fd, (off_t)need) < 0 ? -errno : 0;
            if (r < 0)
                snprintf(err, errlen, "%s: allocating %" PRIu64 " bytes: %s", f->path, need, strerror(-r));
        }
        if (r < 0)
            return r;
    }
    return 0;
}

int sb_io_files_dir(const sb_io_job *job, char *dir, size_t len, bool *made, char *err, size_t errlen)
{
    *made = false;
    dir[0] = '\0';
    if (!job->directory[0])
        return 0;
    if (job->dir_private) {
        snprintf(dir, len, "%s", job->directory);
        return 0;
    }
    if (job->keep_files) {
        /* a directory of storbench's own is removed afterwards: nothing could be kept */
        snprintf(err, errlen, "keep_files needs a directory of the caller's own (dir_private)");
        return -EINVAL;
    }
    /* fio's directory=A:B: a private directory in each, the list of them in dir (each
     * name ends in NUL, the list in another); thread j's files go in the (j mod n)-th */
    size_t used = 0;
    const char *p = job->directory;
    while (*p) {
        char one[PATH_MAX];
        size_t n = strcspn(p, ":");
        snprintf(one, sizeof one, "%.*s", (int)n, p);
        p += n + (p[n] == ':');
        if (!one[0])
            continue;
        int r = used + 2 < len ? sb_workdir_create(one, dir + used, len - used - 1) : -ENAMETOOLONG;
        if (r < 0) {
            snprintf(err, errlen, "%s: cannot make a private directory in it: %s", one, strerror(-r));
            dir[used] = '\0';
            sb_io_files_dir_remove(dir);
            dir[0] = '\0';
            return r;
        }
        used += strlen(dir + used) + 1;
        dir[used] = '\0';
    }
    *made = used > 0;
    return 0;
}

void sb_io_files_dir_remove(const char *dirs)
{
    for (const char *d = dirs; *d; d += strlen(d) + 1)
        sb_workdir_remove(d);
}

/* Unlinks path if it is still the inode this run created there (a name another process
 * put in its place since is left alone). */
static void remove_if_ours(const file_ctx *f)
{
    sb_path_at at;
    char err[64];
    struct stat st;
    if (sb_path_resolve(f->path, 0, &at, err, sizeof err) < 0)
        return;
    /* a directory: one the job made (dircreate, dirstat: opfiles.c) */
    if (fstatat(at.dirfd, at.base, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) && st.st_dev == f->dev && st.st_ino == f->ino)
        unlinkat(at.dirfd, at.base, S_ISDIR(st.st_mode) ? AT_REMOVEDIR : 0);
    sb_path_at_close(&at);
}

void sb_io_remove_created(const sb_io_job *job, const file_ctx *files, unsigned nfiles, const char *dir,
                          bool made, bool failed)
{
    for (unsigned i = 0; files && i < nfiles; i++) {
        if (!files[i].created)
            continue;
        /* a named file only when this run made it and failed, or fio's unlink asks */
        if (job->directory[0] ? !job->keep_files : failed || job->unlink)
            remove_if_ours(&files[i]);
    }
    if (made)
        sb_io_files_dir_remove(dir);
}

int sb_io_open_for_io(const sb_io_job *job, const char *path, int *fdp, char *err, size_t errlen)
{
    int flags = sb_io_job_modifies(job) ? O_RDWR : O_RDONLY;
    if (job->direct)
        flags |= O_DIRECT;
    if (job->open_sync) /* fio's sync=1 / dsync: every write waits for the medium */
        flags |= job->open_sync == 2 ? O_DSYNC : O_SYNC;
    int fd = -1;
    int r = sb_open_resolved(path, flags, 0, &fd, err, errlen);
    if (r < 0) {
        if (r == -EINVAL && job->direct) {
            snprintf(err, errlen, "%s: O_DIRECT refused by the filesystem (try buffered I/O)", path);
            return -EOPNOTSUPP;
        }
        return r;
    }
    bool blk;
    if ((r = sb_io_fileopts_open(job, fd, path, err, errlen)) < 0 || /* write_hint, atomic */
        (r = sb_io_trim_probe(job, fd, path, &blk, err, errlen)) < 0) { /* trim.c */
        close(fd);
        return r;
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

void sb_io_reloop_file(worker *w)
{
    const sb_io_job *job = w->job;
    char err[200];
    int fd = -1, r = 0;
    close(w->fd);
    if (unlink(w->path) < 0 && errno != ENOENT)
        r = -errno;
    /* a new file of this run's own (O_EXCL: nobody else's name is taken over) */
    int c = r ? -1 : open(w->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (!r && c < 0)
        r = -errno;
    if (c >= 0)
        close(c);
    if (r < 0)
        snprintf(err, sizeof err, "unlink_each_loop: %s: %s", w->path, strerror(-r));
    else
        r = sb_io_open_for_io(job, w->path, &fd, err, sizeof err);
    w->fd = w->td.fd = fd;
    if (r < 0 && !w->err) {
        w->err = r;
        snprintf(w->errmsg, sizeof w->errmsg, "%s", err);
        atomic_store_explicit(&w->sh->stop, true, memory_order_relaxed);
    }
}
