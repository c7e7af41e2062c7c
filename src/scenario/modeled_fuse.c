/*
 * modeled_fuse — the FUSE file system of the modeled devices (modeled.h): one regular
 * file per device, d0, d1 ..., each the size of its image. Every read and write is
 * done on the image and then held until the device's model (devices/model.h, through
 * its real-time queue) completes it; fsync is the device's FLUSH, fallocate's punch
 * the loop driver's discard (a DISCARD), its zeroing a WRITE of the range. The image is
 * never fsynced: the model stands for the device's timing, not for its durability.
 * direct_io on every file, so no page cache sits between the loop driver and the
 * model; a serving thread per request the devices can have in flight (each sleeps until
 * its request's modeled completion), so that the queue sees the requests the loop driver
 * has in flight and can reorder them (NCQ), and two devices (RAID0) overlap: libfuse's
 * default of 10 threads held 64 requests in flight to 10 in all.
 *
 * Not one server with durability_fuse.c's: both mount with libfuse's high-level API
 * from a thread of a guardian (core/guardian.h), but this one serves many threads,
 * each asleep until its request's modeled time, and is stopped after the run's journal
 * has already unmounted it (fuse_exit, a detached unmount); the recorder serves on one
 * thread, so that its log holds the writes in the order they were completed, and
 * unmounts its own file system, waiting while it is busy.
 */
#define FUSE_USE_VERSION 312 /* 3.12: fuse_loop_cfg, to set the thread limit */
#include "scenario/modeled.h"

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/strutil.h"
#include "devices/model.h"

/* NCQ's 32 tags: what SATA drives reorder among. */
#define QUEUE_DEPTH 32

typedef struct {
    int fd;
    uint64_t size;
    sb_dev_model *model;
    sb_dev_queue *queue;
} disk;

struct sb_modeled_server {
    char mnt[PATH_MAX];
    unsigned n;
    disk d[SB_SCN_MAX_DEVICES];
    struct fuse *fuse;
    pthread_t thr;
    int mounted, running;
};

static sb_modeled_server *srv(void)
{
    return fuse_get_context()->private_data;
}

/* "/d3" -> the disk, NULL for anything else. */
static disk *disk_of(const char *path)
{
    sb_modeled_server *s = srv();
    if (path[0] != '/' || path[1] != 'd' || !path[2])
        return NULL;
    char *end;
    unsigned long i = strtoul(path + 2, &end, 10);
    return *end || i >= s->n ? NULL : &s->d[i];
}

static void *f_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
    cfg->direct_io = 1;
    cfg->attr_timeout = 3600;
    cfg->entry_timeout = 3600;
    /* the loop driver's requests in flight reach us together (async direct I/O) */
    conn->max_background = 64;
    conn->congestion_threshold = 48;
    return srv();
}

static int f_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
    memset(st, 0, sizeof *st);
    if (!strcmp(path, "/")) {
        st->st_mode = S_IFDIR | 0700;
        st->st_nlink = 2;
        return 0;
    }
    disk *d = disk_of(path);
    if (!d)
        return -ENOENT;
    st->st_mode = S_IFREG | 0600;
    st->st_nlink = 1;
    st->st_size = (off_t)d->size;
    st->st_blocks = (blkcnt_t)(d->size / 512);
    return 0;
}

static int f_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off, struct fuse_file_info *fi,
                     enum fuse_readdir_flags flags)
{
    if (strcmp(path, "/"))
        return -ENOENT;
    fill(buf, ".", NULL, 0, 0);
    fill(buf, "..", NULL, 0, 0);
    for (unsigned i = 0; i < srv()->n; i++) {
        char name[16];
        snprintf(name, sizeof name, "d%u", i);
        fill(buf, name, NULL, 0, 0);
    }
    return 0;
}

static int f_open(const char *path, struct fuse_file_info *fi)
{
    if (!disk_of(path))
        return -ENOENT;
    fi->direct_io = 1;
    return 0;
}

static int f_read(const char *path, char *buf, size_t n, off_t off, struct fuse_file_info *fi)
{
    disk *d = disk_of(path);
    if (!d)
        return -ENOENT;
    if ((uint64_t)off >= d->size)
        return 0;
    if ((uint64_t)off + n > d->size)
        n = (size_t)(d->size - (uint64_t)off);
    ssize_t k = pread(d->fd, buf, n, off);
    if (k < 0)
        return -errno;
    int rc = sb_dev_queue_io(d->queue, SB_DEV_READ, (uint64_t)off, (uint64_t)k);
    return rc < 0 ? -EIO : (int)k;
}

static int f_write(const char *path, const char *buf, size_t n, off_t off, struct fuse_file_info *fi)
{
    disk *d = disk_of(path);
    if (!d)
        return -ENOENT;
    if ((uint64_t)off + n > d->size)
        return -ENOSPC;
    ssize_t k = pwrite(d->fd, buf, n, off);
    if (k < 0)
        return -errno;
    int rc = sb_dev_queue_io(d->queue, SB_DEV_WRITE, (uint64_t)off, (uint64_t)k);
    return rc < 0 ? -EIO : (int)k;
}

static int f_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
    disk *d = disk_of(path);
    if (!d)
        return -ENOENT;
    return sb_dev_queue_io(d->queue, SB_DEV_FLUSH, 0, 0) < 0 ? -EIO : 0;
}

static int f_fallocate(const char *path, int mode, off_t off, off_t len, struct fuse_file_info *fi)
{
    disk *d = disk_of(path);
    if (!d)
        return -ENOENT;
    if (!(mode & FALLOC_FL_KEEP_SIZE) && (uint64_t)(off + len) > d->size)
        return -ENOSPC;
    if (fallocate(d->fd, mode, off, len) < 0)
        return -errno;
    sb_dev_op op = mode & FALLOC_FL_PUNCH_HOLE ? SB_DEV_DISCARD : SB_DEV_WRITE;
    return sb_dev_queue_io(d->queue, op, (uint64_t)off, (uint64_t)len) < 0 ? -EIO : 0;
}

static const struct fuse_operations ops = {
    .init = f_init,
    .getattr = f_getattr,
    .readdir = f_readdir,
    .open = f_open,
    .read = f_read,
    .write = f_write,
    .fsync = f_fsync,
    .fallocate = f_fallocate,
};

static void *loop_thread(void *arg)
{
    sb_modeled_server *s = arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* the workers inherit it: no signal lands on them */
    struct fuse_loop_config *cfg = fuse_loop_cfg_create();
    if (!cfg)
        return NULL;
    /* every tag of every device may be waiting for its completion at once */
    unsigned threads = QUEUE_DEPTH * s->n + 4;
    fuse_loop_cfg_set_max_threads(cfg, threads);
    fuse_loop_cfg_set_idle_threads(cfg, threads);
    fuse_loop_mt(s->fuse, cfg);
    fuse_loop_cfg_destroy(cfg);
    return NULL;
}

static int open_disks(sb_modeled_server *s, char images[][PATH_MAX], const char *const *specs, char *err,
                      size_t errlen)
{
    for (unsigned i = 0; i < s->n; i++) {
        disk *d = &s->d[i];
        struct stat st;
        if ((d->fd = open(images[i], O_RDWR | O_CLOEXEC | O_NOFOLLOW)) < 0 || fstat(d->fd, &st) < 0) {
            int e = errno;
            sb_fmt(err, errlen, "%s: %s", images[i], strerror(e));
            return -e;
        }
        d->size = (uint64_t)st.st_size;
        int rc = sb_dev_model_new(specs[i], d->size, &d->model, err, errlen);
        if (rc < 0)
            return rc;
        if (!(d->queue = sb_dev_queue_new(d->model, QUEUE_DEPTH, 0))) {
            sb_fmt(err, errlen, "cannot start the queue of %s", specs[i]);
            return -EAGAIN;
        }
    }
    return 0;
}

int sb_modeled_serve(const char *mnt, char images[][PATH_MAX], const char *const *specs, unsigned n,
                     sb_modeled_server **out, char *err, size_t errlen)
{
    sb_modeled_server *s = calloc(1, sizeof *s);
    if (!s)
        sb_oom();
    *out = s;
    sb_fmt(s->mnt, sizeof s->mnt, "%s", mnt);
    s->n = n;
    for (unsigned i = 0; i < SB_SCN_MAX_DEVICES; i++)
        s->d[i].fd = -1;
    int rc = open_disks(s, images, specs, err, errlen);
    if (rc < 0)
        return rc;
    char *argv[] = {"storbench-modeled", NULL};
    struct fuse_args args = FUSE_ARGS_INIT(1, argv);
    s->fuse = fuse_new(&args, &ops, sizeof ops, s);
    if (!s->fuse || fuse_mount(s->fuse, s->mnt) != 0) {
        sb_fmt(err, errlen, "cannot mount the modeled devices' FUSE file system on %s", s->mnt);
        return -EIO;
    }
    s->mounted = 1;
    if ((rc = pthread_create(&s->thr, NULL, loop_thread, s)) != 0) {
        sb_fmt(err, errlen, "cannot start the FUSE server: %s", strerror(rc));
        return -rc;
    }
    s->running = 1;
    return 0;
}

void sb_modeled_serve_stop(sb_modeled_server *s)
{
    if (!s)
        return;
    if (s->running) {
        /* Unmounted by the journal's undo, normally: the loop has returned or returns now. */
        if (s->mounted)
            fuse_exit(s->fuse);
        umount2(s->mnt, MNT_DETACH);
        pthread_join(s->thr, NULL);
    }
    if (s->mounted)
        fuse_unmount(s->fuse);
    if (s->fuse)
        fuse_destroy(s->fuse);
    for (unsigned i = 0; i < s->n; i++) {
        sb_dev_queue_free(s->d[i].queue);
        sb_dev_model_free(s->d[i].model);
        if (s->d[i].fd >= 0)
            close(s->d[i].fd);
    }
    free(s);
}
