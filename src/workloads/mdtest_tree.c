/*
 * mdtest_tree — the file operations of the mdtest workload (mdtest.h), one rank's
 * share at a time, as mdtest does them with -F (files only) and POSIX calls:
 * create is open + (with a write size: lseek to 0 + write, as IOR's POSIX
 * backend that mdtest writes through) + close, stat is stat(2), read is open +
 * (lseek + read of the read size) + close, delete is unlink(2). Names are mdtest's
 * ("file.mdtest.<rank>.<i>"; easy: in "mdtest_tree.<rank>.0", mdtest -u -L).
 * Files are made O_CREAT|O_EXCL|O_NOFOLLOW inside storbench's own private
 * directory, and only those names are removed.
 *
 * Any failed call fails the run with one line naming the call and the path, as
 * mdtest aborts on a failed operation.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/interrupt.h"
#include "core/ranks.h"
#include "workloads/fs_common.h"
#include "workloads/mdtest.h"

#define MDT_DIR_FMT "mdtest_tree.%d.0"

static int mdt_fail(sb_run_ctx *ctx, int err, const char *op, const char *path)
{
    return sb_ctx_fail(ctx, err, "mdtest: %s %s: %s", op, path, strerror(err));
}

static void mdt_layout_dir(const mdt_tree *t, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", t->root, t->p->hard ? "hard" : "easy");
}

static void mdt_own_dir(const mdt_tree *t, int owner, char *buf, size_t len)
{
    char layout[MDT_LAYOUT_MAX];
    mdt_layout_dir(t, layout, sizeof layout);
    if (t->p->hard)
        snprintf(buf, len, "%s", layout);
    else
        snprintf(buf, len, "%s/" MDT_DIR_FMT, layout, owner);
}

static void mdt_path(const mdt_tree *t, int owner, uint64_t i, char *buf, size_t len)
{
    char dir[MDT_DIR_MAX];
    mdt_own_dir(t, owner, dir, sizeof dir);
    snprintf(buf, len, "%s/file.mdtest.%d.%llu", dir, owner, (unsigned long long)i);
}

/* Between operations: the interrupt flag every time, another rank's failure every
 * MDT_POLL_EVERY operations. That asks MPI (an MPI_Iprobe, which runs Open MPI's progress
 * engine), which mdtest does not do per file: 2 % of a stat phase's CPU on one rank,
 * more on several (perf, cpu-clock). 64 files are milliseconds at any metadata rate. */
#define MDT_POLL_EVERY 64

static int mdt_stopped(sb_run_ctx *ctx)
{
    static unsigned n; /* one rank runs one phase loop at a time */
    bool stop = sb_interrupted() || (++n % MDT_POLL_EVERY == 0 && sb_ctx_interrupted(ctx));
    return stop ? sb_ctx_fail(ctx, EINTR, "mdtest: interrupted") : 0;
}

int mdt_make_shared(mdt_tree *t, sb_run_ctx *ctx)
{
    char dir[MDT_DIR_MAX];
    if (mkdir(t->root, 0700) != 0)
        return mdt_fail(ctx, errno, "mkdir", t->root);
    mdt_layout_dir(t, dir, sizeof dir);
    if (mkdir(dir, 0700) != 0)
        return mdt_fail(ctx, errno, "mkdir", dir);
    return 0;
}

int mdt_make_own(mdt_tree *t, sb_run_ctx *ctx)
{
    char dir[MDT_DIR_MAX];
    struct stat st;
    mdt_layout_dir(t, dir, sizeof dir);
    /* Another host may not see rank 0's directory: say so rather than ENOENT at create. */
    if (stat(dir, &st) != 0)
        return sb_ctx_fail(ctx, errno, "mdtest: %s: %s (mdtest needs a target every rank sees)",
                           dir, strerror(errno));
    if (t->p->hard)
        return 0;
    mdt_own_dir(t, t->rank, dir, sizeof dir);
    if (mkdir(dir, 0700) != 0)
        return mdt_fail(ctx, errno, "mkdir", dir);
    return 0;
}

static int mdt_create_one(mdt_tree *t, sb_run_ctx *ctx, const char *path)
{
    int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return mdt_fail(ctx, errno, "create", path);
    if (t->p->size > 0) {
        /* mdtest writes through IOR's POSIX backend: a seek to 0, then the write */
        if (lseek(fd, 0, SEEK_SET) < 0) {
            int e = errno;
            close(fd);
            return mdt_fail(ctx, e, "lseek", path);
        }
        int rc = sb_fs_write_all(fd, t->buf, t->p->size, -1);
        if (rc < 0) {
            close(fd);
            return mdt_fail(ctx, -rc, "write", path);
        }
    }
    if (close(fd) != 0)
        return mdt_fail(ctx, errno, "close", path);
    return 0;
}

int mdt_create(mdt_tree *t, sb_run_ctx *ctx, uint64_t from, uint64_t to, uint64_t wall_ns,
               mdt_count *c)
{
    char path[MDT_PATH_MAX];
    for (uint64_t i = from; i < to; i++) {
        /* mdtest checks its stonewall before each item; so does this loop */
        if (wall_ns && sb_now_ns() >= wall_ns)
            break;
        int rc = mdt_stopped(ctx);
        if (rc < 0)
            return rc;
        mdt_path(t, t->rank, i, path, sizeof path);
        if ((rc = mdt_create_one(t, ctx, path)) < 0)
            return rc;
        c->ops++;
        c->bytes += t->p->size;
    }
    return 0;
}

/* After the wall: a checked barrier (a rank that failed has left for the runner's), the
 * most files any rank made, then the rest. */
int mdt_create_wearout(mdt_tree *t, sb_run_ctx *ctx, mdt_count *c, uint64_t *at_wall, double *wall_s)
{
    const mdt_params *p = t->p;
    uint64_t wall = p->stonewall > 0 ? c->t0 + (uint64_t)(p->stonewall * 1e9) : 0;
    int rc = mdt_create(t, ctx, 0, p->files, wall, c);
    if (rc < 0)
        return rc;
    *at_wall = c->ops;
    *wall_s = (double)(sb_now_ns() - c->t0) / 1e9;
    if (p->stonewall <= 0)
        return 0;
    if ((rc = sb_ctx_barrier(ctx)) < 0)
        return rc;
    uint64_t most = c->ops;
    if ((rc = sb_ranks_allreduce_u64(&most, 1, SB_RANKS_MAX)) < 0 ||
        (rc = sb_ranks_allreduce_u64(at_wall, 1, SB_RANKS_SUM)) < 0 ||
        (rc = sb_ranks_allreduce_double(wall_s, 1, SB_RANKS_MAX)) < 0)
        return sb_ctx_fail(ctx, rc, "mdtest: agreeing on the stonewall count: %s", strerror(-rc));
    return mdt_create(t, ctx, c->ops, most, 0, c);
}

/* One phase over files 0 .. count-1 of owner's share: op on each path, stopping at an
 * interruption (or another rank's failure) and at the first error, which op reports. */
typedef int (*mdt_op)(mdt_tree *t, sb_run_ctx *ctx, const char *path, mdt_count *c);

static int mdt_each(mdt_tree *t, sb_run_ctx *ctx, int owner, uint64_t count, mdt_count *c, mdt_op op)
{
    char path[MDT_PATH_MAX];
    for (uint64_t i = 0; i < count; i++) {
        int rc = mdt_stopped(ctx);
        if (rc < 0)
            return rc;
        mdt_path(t, owner, i, path, sizeof path);
        if ((rc = op(t, ctx, path, c)) < 0)
            return rc;
    }
    return 0;
}

static int op_stat(mdt_tree *t, sb_run_ctx *ctx, const char *path, mdt_count *c)
{
    struct stat st;
    if (fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return mdt_fail(ctx, errno, "stat", path);
    c->ops++;
    c->bytes += (uint64_t)st.st_size;
    return 0;
}

static int op_read(mdt_tree *t, sb_run_ctx *ctx, const char *path, mdt_count *c)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return mdt_fail(ctx, errno, "open", path);
    size_t done = 0, want = (size_t)t->p->size;
    if (want > 0 && lseek(fd, 0, SEEK_SET) < 0) { /* as mdtest's read, through IOR's backend */
        int e = errno;
        close(fd);
        return mdt_fail(ctx, e, "lseek", path);
    }
    while (done < want) {
        ssize_t n = read(fd, t->buf + done, want - done);
        if (n < 0 && errno == EINTR && !sb_ctx_interrupted(ctx))
            continue;
        if (n <= 0) {
            int e = n < 0 ? errno : EIO;
            close(fd);
            if (n == 0)
                return sb_ctx_fail(ctx, EIO, "mdtest: read %s: %zu of %zu bytes (file shorter than written)",
                                   path, done, want);
            return mdt_fail(ctx, e, "read", path);
        }
        done += (size_t)n;
    }
    if (close(fd) != 0)
        return mdt_fail(ctx, errno, "close", path);
    c->bytes += done;
    c->ops++;
    return 0;
}

static int op_unlink(mdt_tree *t, sb_run_ctx *ctx, const char *path, mdt_count *c)
{
    if (unlink(path) != 0)
        return mdt_fail(ctx, errno, "unlink", path);
    c->ops++;
    return 0;
}

int mdt_stat(mdt_tree *t, sb_run_ctx *ctx, int owner, uint64_t count, mdt_count *c)
{
    return mdt_each(t, ctx, owner, count, c, op_stat);
}

int mdt_read(mdt_tree *t, sb_run_ctx *ctx, int owner, uint64_t count, mdt_count *c)
{
    return mdt_each(t, ctx, owner, count, c, op_read);
}

int mdt_delete(mdt_tree *t, sb_run_ctx *ctx, int owner, uint64_t count, mdt_count *c)
{
    return mdt_each(t, ctx, owner, count, c, op_unlink);
}

int mdt_remove_rest(mdt_tree *t, sb_run_ctx *ctx, int owner, uint64_t count)
{
    char path[MDT_PATH_MAX];
    for (uint64_t i = 0; i < count; i++) {
        mdt_path(t, owner, i, path, sizeof path);
        if (unlink(path) != 0 && errno != ENOENT)
            return mdt_fail(ctx, errno, "unlink", path);
    }
    return 0;
}

typedef struct mdt_walk {
    mdt_tree *t;
    sb_run_ctx *ctx;
    const struct timespec *newer;
    uint64_t size;
    uint64_t index; /* files seen, in walk order: this rank checks every size-th */
    mdt_count *c;
} mdt_walk;

static bool mdt_after(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec > b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec > b->tv_nsec);
}

/* One directory of the walk: every rank lists every directory (the tree is small in
 * directories) and checks its share of the files, as pfind splits the work. */
static int mdt_walk_dir(mdt_walk *w, const char *path, int depth)
{
    DIR *d = opendir(path);
    if (!d)
        return mdt_fail(w->ctx, errno, "opendir", path);
    int rc = 0;
    struct dirent *de;
    char sub[PATH_MAX];
    errno = 0;
    while (rc == 0 && (de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if ((rc = mdt_stopped(w->ctx)) < 0)
            break;
        snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
        struct stat st;
        bool is_dir = de->d_type == DT_DIR;
        if (de->d_type == DT_UNKNOWN) {
            if (fstatat(AT_FDCWD, sub, &st, AT_SYMLINK_NOFOLLOW) != 0) {
                rc = mdt_fail(w->ctx, errno, "stat", sub);
                break;
            }
            is_dir = S_ISDIR(st.st_mode);
        }
        if (is_dir) {
            rc = depth < 8 ? mdt_walk_dir(w, sub, depth + 1) : 0;
            continue;
        }
        if (w->index++ % (uint64_t)w->t->size != (uint64_t)w->t->rank)
            continue;
        if (fstatat(AT_FDCWD, sub, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            rc = mdt_fail(w->ctx, errno, "stat", sub);
            break;
        }
        w->c->ops++;
        if (S_ISREG(st.st_mode) && (uint64_t)st.st_size == w->size && mdt_after(&st.st_mtim, w->newer) &&
            fnmatch("*01*", de->d_name, 0) == 0)
            w->c->found++;
        errno = 0;
    }
    if (rc == 0 && errno != 0)
        rc = mdt_fail(w->ctx, errno, "readdir", path);
    closedir(d);
    return rc;
}

int mdt_find_dir(mdt_tree *t, sb_run_ctx *ctx, const char *dir, const struct timespec *newer,
                 uint64_t size, mdt_count *c)
{
    mdt_walk w = {.t = t, .ctx = ctx, .newer = newer, .size = size, .c = c};
    return mdt_walk_dir(&w, dir, 0);
}

int mdt_find(mdt_tree *t, sb_run_ctx *ctx, const struct timespec *newer, uint64_t size,
             mdt_count *c)
{
    char dir[MDT_DIR_MAX];
    mdt_layout_dir(t, dir, sizeof dir);
    return mdt_find_dir(t, ctx, dir, newer, size, c);
}

int mdt_remove_own(mdt_tree *t, sb_run_ctx *ctx)
{
    if (t->p->hard)
        return 0;
    char dir[MDT_DIR_MAX];
    mdt_own_dir(t, t->rank, dir, sizeof dir);
    if (rmdir(dir) != 0)
        return mdt_fail(ctx, errno, "rmdir", dir);
    return 0;
}

int mdt_remove_shared(mdt_tree *t, sb_run_ctx *ctx)
{
    char dir[MDT_DIR_MAX];
    mdt_layout_dir(t, dir, sizeof dir);
    if (rmdir(dir) != 0)
        return mdt_fail(ctx, errno, "rmdir", dir);
    if (rmdir(t->root) != 0)
        return mdt_fail(ctx, errno, "rmdir", t->root);
    return 0;
}
