/*
 * durability_stack — recorders, loop devices and image copies for the durability
 * test (durability_stack.h says what each recorder sees and why); the FUSE file the
 * guardian serves is durability_fuse.c, the commands and unmounts durability_cmd.c.
 */
#include "workloads/durability/durability_stack.h"
#include "workloads/durability/durability_cmd.h"
#include "workloads/durability/durability_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* ------------------------------------------------------------ commands */

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
