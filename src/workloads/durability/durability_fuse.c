/*
 * durability_fuse — the FUSE recorder's file (durability_fuse.h): image served as
 * mnt/disk from a thread of the guardian process, every write logged (dm-log-writes
 * format, writelog.h) before it reaches the image and is completed, every fsync
 * logged as a FLUSH, marks in order with both. One serving thread (fuse_loop, not
 * the modeled devices' many in scenario/modeled_fuse.c): the log is the order in which
 * writes were completed, and a second thread would interleave them.
 */
#define FUSE_USE_VERSION 31
#include "workloads/durability/durability_fuse.h"

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workloads/durability/durability_cmd.h"

static dur_fuse_server *srv_of_ctx(void) { return fuse_get_context()->private_data; }

static void *f_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
    cfg->direct_io = 1;      /* no page cache between the loop driver and the log */
    cfg->attr_timeout = 3600;
    cfg->entry_timeout = 3600;
    return srv_of_ctx();
}

static int f_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
    memset(st, 0, sizeof *st);
    if (!strcmp(path, "/")) {
        st->st_mode = S_IFDIR | 0700;
        st->st_nlink = 2;
    } else if (!strcmp(path, "/disk")) {
        st->st_mode = S_IFREG | 0600;
        st->st_nlink = 1;
        st->st_size = (off_t)srv_of_ctx()->size;
    } else {
        return -ENOENT;
    }
    return 0;
}

static int f_open(const char *path, struct fuse_file_info *fi)
{
    if (strcmp(path, "/disk"))
        return -ENOENT;
    fi->direct_io = 1;
    return 0;
}

static int f_read(const char *path, char *buf, size_t n, off_t off, struct fuse_file_info *fi)
{
    ssize_t k = pread(srv_of_ctx()->img_fd, buf, n, off);
    return k < 0 ? -errno : (int)k;
}

/* A write reaches the image and the log before it is completed to the loop driver. */
static int f_write(const char *path, const char *buf, size_t n, off_t off, struct fuse_file_info *fi)
{
    dur_fuse_server *s = srv_of_ctx();
    if (off % 512 || n % 512 || (uint64_t)off + n > s->size)
        return -EINVAL;
    int e = writelog_append(&s->log, (uint64_t)off / 512, n / 512, 0, buf, n);
    if (e == 0 && pwrite(s->img_fd, buf, n, off) != (ssize_t)n)
        e = -EIO;
    if (e < 0 && !s->err)
        s->err = e;
    return e < 0 ? e : (int)n;
}

static int f_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
    dur_fuse_server *s = srv_of_ctx();
    int e = writelog_append(&s->log, 0, 0, WRITELOG_FLUSH, NULL, 0);
    if (e < 0 && !s->err)
        s->err = e;
    return e;
}

static const struct fuse_operations fuse_ops = {
    .init = f_init,
    .getattr = f_getattr,
    .open = f_open,
    .read = f_read,
    .write = f_write,
    .fsync = f_fsync,
};

static void *fuse_thread(void *arg)
{
    dur_fuse_server *s = arg;
    /* this thread takes no signals: they are the serving process's main thread's */
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    fuse_loop(s->fuse);
    return NULL;
}

int dur_fuse_serve(dur_fuse_server *s, const char *image, const char *log_path, const char *mnt,
                   char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->log.fd = -1;
    struct stat st;
    if ((s->img_fd = open(image, O_RDWR | O_CLOEXEC)) < 0 || fstat(s->img_fd, &st) < 0) {
        snprintf(err, errlen, "%s: %s", image, strerror(errno));
        return -errno;
    }
    s->size = (uint64_t)st.st_size;
    int e = writelog_create(&s->log, log_path);
    if (e < 0) {
        snprintf(err, errlen, "%s: %s", log_path, strerror(-e));
        return e;
    }
    s->log_open = true;
    snprintf(s->mnt, sizeof s->mnt, "%s", mnt);
    if (mkdir(s->mnt, 0700) < 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: %s", s->mnt, strerror(errno));
        return -errno;
    }
    char *argv[] = {"storbench-durability", NULL};
    struct fuse_args args = FUSE_ARGS_INIT(1, argv);
    s->fuse = fuse_new(&args, &fuse_ops, sizeof fuse_ops, s);
    if (!s->fuse || fuse_mount(s->fuse, s->mnt) != 0) {
        snprintf(err, errlen, "cannot mount the FUSE recorder on %s", s->mnt);
        return -EIO;
    }
    s->mounted = true;
    if ((e = pthread_create(&s->thr, NULL, fuse_thread, s)) != 0) {
        snprintf(err, errlen, "cannot start the FUSE recorder: %s", strerror(e));
        return -e;
    }
    s->running = true;
    return 0;
}

int dur_fuse_mark(dur_fuse_server *s, const char *text)
{
    return s->log_open ? writelog_append(&s->log, 0, 0, WRITELOG_MARK, text, strlen(text)) : -EBADF;
}

int dur_fuse_end(dur_fuse_server *s)
{
    /* Unmounted here first: the kernel then ends the channel, and the loop in the
     * thread returns quietly (closing the channel under it would make libfuse complain). */
    if (s->mounted)
        dur_umount(s->mnt);
    if (s->running)
        pthread_join(s->thr, NULL);
    if (s->mounted)
        fuse_unmount(s->fuse);
    if (s->fuse)
        fuse_destroy(s->fuse);
    s->fuse = NULL;
    s->mounted = s->running = false;
    if (s->img_fd >= 0)
        close(s->img_fd);
    s->img_fd = -1;
    if (s->log_open) {
        int e = writelog_close(&s->log);
        if (e < 0 && !s->err)
            s->err = e;
        s->log_open = false;
    }
    if (s->mnt[0])
        rmdir(s->mnt);
    return s->err;
}
