/*
 * durability_stack — recorders, loop devices, mounts and commands for the
 * durability test (durability_stack.h says what each recorder sees and why).
 */
#define FUSE_USE_VERSION 31
#include "workloads/durability/durability_stack.h"
#include "workloads/durability/durability_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* ------------------------------------------------------------ commands */

int dur_run(const char *const argv[], char *err, size_t errlen)
{
    char errfile[] = "/tmp/storbench-cmd.XXXXXX";
    int efd = mkstemp(errfile);
    if (efd < 0) {
        snprintf(err, errlen, "%s: cannot make a temporary file: %s", argv[0], strerror(errno));
        return -errno;
    }
    unlink(errfile);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, efd, 2);
    pid_t pid;
    int r = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (r) {
        close(efd);
        snprintf(err, errlen, "%s: %s", argv[0], strerror(r));
        return -r;
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        close(efd);
        return 0;
    }
    char line[200] = "";
    ssize_t n = pread(efd, line, sizeof line - 1, 0);
    close(efd);
    line[n > 0 ? n : 0] = '\0';
    line[strcspn(line, "\n")] = '\0';
    if (WIFEXITED(st))
        snprintf(err, errlen, "%s failed (exit %d)%s%s", argv[0], WEXITSTATUS(st), line[0] ? ": " : "", line);
    else
        snprintf(err, errlen, "%s killed by signal %d", argv[0], WTERMSIG(st));
    return -EIO;
}

void dur_umount(const char *path)
{
    for (int i = 0; i < 50; i++) {
        if (umount2(path, 0) == 0 || errno == EINVAL || errno == ENOENT)
            return;
        if (errno != EBUSY)
            break;
        nap_ms(20);
    }
    umount2(path, MNT_DETACH);
}

int dur_copy_image(const char *src, const char *dst, char *err, size_t errlen)
{
    int in = open(src, O_RDONLY | O_CLOEXEC), out = -1, r = 0;
    struct stat st;
    if (in < 0 || fstat(in, &st) < 0 ||
        (out = open(dst, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0 ||
        ftruncate(out, st.st_size) < 0) {
        r = -errno;
        goto done;
    }
    if (ioctl(out, FICLONE, in) == 0)
        goto done;
    /* the data extents only: a fresh filesystem image is mostly holes */
    for (off_t off = 0; off < st.st_size;) {
        off_t data = lseek(in, off, SEEK_DATA);
        if (data < 0)
            break;
        off_t hole = lseek(in, data, SEEK_HOLE);
        if (hole < 0)
            hole = st.st_size;
        loff_t a = data, b = data;
        while (a < hole) {
            ssize_t k = copy_file_range(in, &a, out, &b, (size_t)(hole - a), 0);
            if (k <= 0) {
                r = k < 0 ? -errno : -EIO;
                goto done;
            }
        }
        off = hole;
    }
done:
    if (r < 0)
        snprintf(err, errlen, "copying %s to %s: %s", src, dst, strerror(-r));
    if (in >= 0)
        close(in);
    if (out >= 0)
        close(out);
    return r;
}

/* ------------------------------------------------------------ loop devices */

int dur_loop_attach(const char *file, char *dev, size_t devlen, int *fdp, char *err, size_t errlen)
{
    int img = open(file, O_RDWR | O_CLOEXEC), ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
    int r = img < 0 || ctl < 0 ? -errno : -EBUSY;
    for (int tries = 0; tries < 20 && r == -EBUSY; tries++) {
        int n = ioctl(ctl, LOOP_CTL_GET_FREE);
        if (n < 0) {
            r = -errno;
            break;
        }
        snprintf(dev, devlen, "/dev/loop%d", n);
        int fd = -1;
        for (int i = 0; i < 50 && fd < 0; i++) { /* devtmpfs may show a new node late */
            fd = open(dev, O_RDWR | O_CLOEXEC);
            if (fd < 0 && errno == ENOENT)
                nap_ms(20);
            else if (fd < 0)
                break;
        }
        if (fd < 0) {
            r = -errno;
            break;
        }
        struct loop_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.fd = (__u32)img;
        cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR; /* gone when the last holder closes it */
        snprintf((char *)cfg.info.lo_file_name, LO_NAME_SIZE, "%s", file);
        if (ioctl(fd, LOOP_CONFIGURE, &cfg) == 0) {
            *fdp = fd;
            r = 0;
        } else {
            r = -errno;
            close(fd);
        }
    }
    if (img >= 0)
        close(img);
    if (ctl >= 0)
        close(ctl);
    if (r < 0)
        snprintf(err, errlen, "cannot attach a loop device to %s: %s", file, strerror(-r));
    return r;
}

void dur_loop_detach(int *fd)
{
    if (*fd >= 0) {
        ioctl(*fd, LOOP_CLR_FD, 0);
        close(*fd);
    }
    *fd = -1;
}

/* ------------------------------------------------------------ FUSE server */

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

/* ------------------------------------------------------------ FUSE recorder */

static int fuse_start(dur_recorder *r, const char *image, const char *log_path, const char *work,
                      char *err, size_t errlen)
{
    snprintf(r->mnt, sizeof r->mnt, "%s/recorder", work);
    int e = dur_guard_fuse_start(r->guard, image, log_path, r->mnt, err, errlen);
    if (e < 0)
        return e;
    r->serving = true;
    char disk[PATH_MAX + 16];
    snprintf(disk, sizeof disk, "%s/disk", r->mnt);
    return dur_loop_attach(disk, r->dev, sizeof r->dev, &r->loop_fd, err, errlen);
}

static void fuse_stop(dur_recorder *r, char *err, size_t errlen)
{
    dur_loop_detach(&r->loop_fd);
    if (r->serving) {
        int e = dur_guard_fuse_stop(r->guard, err, errlen);
        if (e < 0 && !r->err)
            r->err = e;
    }
    r->serving = false;
}

/* ------------------------------------------------------------ dm-log-writes */

static int dm_start(dur_recorder *r, const char *image, const char *log_path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(image, &st) < 0) {
        snprintf(err, errlen, "%s: %s", image, strerror(errno));
        return -errno;
    }
    r->size = (uint64_t)st.st_size;
    /* the log holds every write with a sector of its own: twice the device is ample */
    int fd = open(log_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0 || ftruncate(fd, (off_t)(2 * r->size + (64u << 20))) < 0) {
        snprintf(err, errlen, "%s: %s", log_path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -errno;
    }
    close(fd);
    char data_dev[64];
    int e = dur_loop_attach(image, data_dev, sizeof data_dev, &r->loop_fd, err, errlen);
    if (e == 0)
        e = dur_loop_attach(log_path, r->log_dev, sizeof r->log_dev, &r->log_loop_fd, err, errlen);
    if (e < 0)
        return e;
    snprintf(r->dm_name, sizeof r->dm_name, "storbench-durability-%d", (int)getpid());
    /* journaled before it exists: a killed run's guardian, or the next run, removes it */
    if ((e = dur_guard_note(r->guard, "dm", r->dm_name)) < 0) {
        snprintf(err, errlen, "journaling %s: %s", r->dm_name, strerror(-e));
        r->dm_name[0] = '\0';
        return e;
    }
    char table[256];
    snprintf(table, sizeof table, "0 %" PRIu64 " log-writes %s %s", r->size / 512, data_dev, r->log_dev);
    const char *argv[] = {"dmsetup", "create", r->dm_name, "--table", table, NULL};
    if ((e = dur_run(argv, err, errlen)) < 0) {
        r->dm_name[0] = '\0';
        return e;
    }
    snprintf(r->dev, sizeof r->dev, "/dev/mapper/%s", r->dm_name);
    return 0;
}

static void dm_stop(dur_recorder *r, char *err, size_t errlen)
{
    if (r->dm_name[0]) {
        const char *argv[] = {"dmsetup", "remove", "--retry", r->dm_name, NULL};
        if (dur_run(argv, err, errlen) < 0 && !r->err)
            r->err = -EIO;
        r->dm_name[0] = '\0';
    }
    dur_loop_detach(&r->log_loop_fd);
    dur_loop_detach(&r->loop_fd);
}

/* ------------------------------------------------------------ either */

void dur_rec_probe(dur_rec_kind kind, char *why, size_t len)
{
    why[0] = '\0';
    if (geteuid() != 0) {
        snprintf(why, len, "needs root (loop devices, mounts)");
    } else if (access("/dev/loop-control", R_OK | W_OK) < 0) {
        snprintf(why, len, "no loop devices (/dev/loop-control: %s)", strerror(errno));
    } else if (kind == DUR_REC_FUSE) {
        int fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
        if (fd < 0)
            snprintf(why, len, "no FUSE (/dev/fuse: %s)", strerror(errno));
        else
            close(fd);
    } else {
        char e[160];
        const char *modprobe[] = {"modprobe", "dm-log-writes", NULL};
        dur_run(modprobe, e, sizeof e); /* built in, or loaded now, or missing: asked below */
        FILE *p = access("/dev/mapper/control", F_OK) == 0 ? popen("dmsetup targets 2>/dev/null", "r") : NULL;
        bool found = false;
        char line[128];
        while (p && fgets(line, sizeof line, p))
            found |= !strncmp(line, "log-writes", 10);
        if (p)
            pclose(p);
        if (!found)
            snprintf(why, len, "no dm-log-writes target (device-mapper or its module missing from this kernel)");
    }
}

int dur_rec_start(dur_recorder *r, dur_rec_kind kind, struct dur_guard *guard, const char *image,
                  const char *log_path, const char *work, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->guard = guard;
    r->loop_fd = r->log_loop_fd = -1;
    return kind == DUR_REC_FUSE ? fuse_start(r, image, log_path, work, err, errlen)
                                : dm_start(r, image, log_path, err, errlen);
}

int dur_rec_mark(dur_recorder *r, const char *text)
{
    if (r->kind == DUR_REC_FUSE)
        return dur_guard_mark(r->guard, text);
    char e[160];
    const char *argv[] = {"dmsetup", "message", r->dm_name, "0", "mark", text, NULL};
    return dur_run(argv, e, sizeof e);
}

int dur_rec_stop(dur_recorder *r, char *err, size_t errlen)
{
    err[0] = '\0';
    if (r->kind == DUR_REC_FUSE)
        fuse_stop(r, err, errlen);
    else
        dm_stop(r, err, errlen);
    if (r->err && err[0] == '\0')
        snprintf(err, errlen, "recording the writes: %s", strerror(-r->err));
    return r->err;
}
