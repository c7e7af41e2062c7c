/*
 * device — loop devices over image files, and the safety checks for real
 * devices (see device.h). Loop devices are made with LOOP_CTL_GET_FREE and
 * LOOP_CONFIGURE (one atomic ioctl; Linux 5.8+), falling back to LOOP_SET_FD +
 * LOOP_SET_STATUS64 on older kernels. A free number can be taken by another
 * process between the two calls: that shows as EBUSY and we try again.
 */

/* Messages and sysfs paths are built in fixed buffers sized for real paths (PATH_MAX);
 * a longer one is cut, which GCC cannot prove never happens. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "scenario/device.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/devguard.h"
#include "core/fileio.h"

#ifndef LOOP_CONFIGURE
#define LOOP_CONFIGURE 0x4C0A
struct loop_config {
    __u32 fd;
    __u32 block_size;
    struct loop_info64 info;
    __u64 __reserved[8];
};
#endif

int sb_loop_available(char *why, size_t whylen)
{
    int fd = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        snprintf(why, whylen, "/dev/loop-control: %s (loop devices need root and the loop driver)",
                 strerror(e));
        return -e;
    }
    close(fd);
    return 0;
}

int sb_image_create(sb_state *st, const char *path, uint64_t size, char *err, size_t errlen)
{
    int rc = sb_state_add(st, SB_ST_IMAGE, path, NULL);
    if (rc < 0) {
        snprintf(err, errlen, "cannot journal %s: %s", path, strerror(-rc));
        return rc;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, "cannot create image %s: %s", path, strerror(e));
        return -e;
    }
    /* Preallocated, so that the benchmark does not measure the host filesystem allocating
     * blocks under the loop device; sparse where the filesystem cannot preallocate. */
    if (fallocate(fd, 0, 0, (off_t)size) < 0) {
        int e = errno;
        if (e != EOPNOTSUPP && e != ENOSYS) {
            close(fd);
            snprintf(err, errlen, "cannot allocate %llu bytes for %s: %s", (unsigned long long)size, path,
                     strerror(e));
            return -e;
        }
        if (ftruncate(fd, (off_t)size) < 0) {
            e = errno;
            close(fd);
            snprintf(err, errlen, "cannot size %s: %s", path, strerror(e));
            return -e;
        }
    }
    if (fsync(fd) < 0 || close(fd) < 0) {
        int e = errno;
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
        return -e;
    }
    return 0;
}

/* One attempt on loop device number n. 0, -EBUSY (taken meanwhile) or -errno. */
static int configure(int n, int img, const char *image, bool direct, sb_device *d)
{
    char dev[64];
    snprintf(dev, sizeof dev, "/dev/loop%d", n);
    int fd = -1;
    for (int i = 0; i < 50 && fd < 0; i++) { /* devtmpfs may take a moment to show a new node */
        fd = open(dev, O_RDWR | O_CLOEXEC);
        if (fd < 0 && errno != ENOENT)
            return -errno;
        if (fd < 0)
            sb_sleep_ms(20);
    }
    if (fd < 0)
        return -ENOENT;
    struct loop_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.fd = (__u32)img;
    cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR | (direct ? LO_FLAGS_DIRECT_IO : 0);
    snprintf((char *)cfg.info.lo_file_name, LO_NAME_SIZE, "%s", image);
    if (ioctl(fd, LOOP_CONFIGURE, &cfg) < 0) {
        int e = errno;
        if (e == EINVAL || e == ENOTTY) {
            /* Before 5.8 there is no LOOP_CONFIGURE. */
            if (e == ENOTTY && ioctl(fd, LOOP_SET_FD, img) == 0) {
                struct loop_info64 info;
                memset(&info, 0, sizeof info);
                info.lo_flags = LO_FLAGS_AUTOCLEAR;
                snprintf((char *)info.lo_file_name, LO_NAME_SIZE, "%s", image);
                if (ioctl(fd, LOOP_SET_STATUS64, &info) == 0) {
                    direct = false;
                    goto done;
                }
                e = errno;
                ioctl(fd, LOOP_CLR_FD, 0);
            }
        }
        close(fd);
        return -e;
    }
done:
    snprintf(d->path, sizeof d->path, "%s", dev);
    snprintf(d->image, sizeof d->image, "%s", image);
    d->fd = fd;
    d->direct_io = direct;
    if (ioctl(fd, BLKGETSIZE64, &d->size) < 0)
        d->size = 0;
    return 0;
}

int sb_loop_attach(sb_state *st, const char *image, sb_device *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    d->fd = -1;
    int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
    if (ctl < 0) {
        int e = errno;
        snprintf(err, errlen, "/dev/loop-control: %s", strerror(e));
        return -e;
    }
    /* Direct I/O needs the backing file's O_DIRECT too; tmpfs has none. */
    int img = open(image, O_RDWR | O_DIRECT | O_CLOEXEC);
    bool direct = img >= 0;
    if (img < 0)
        img = open(image, O_RDWR | O_CLOEXEC);
    if (img < 0) {
        int e = errno;
        close(ctl);
        snprintf(err, errlen, "cannot open image %s: %s", image, strerror(e));
        return -e;
    }
    int rc = -EBUSY;
    for (int tries = 0; tries < 20 && rc == -EBUSY; tries++) {
        int n = ioctl(ctl, LOOP_CTL_GET_FREE);
        if (n < 0) {
            rc = -errno;
            break;
        }
        rc = configure(n, img, image, direct, d);
        if (rc == -EINVAL && direct) {
            /* The backing store refuses direct I/O: go buffered, with a descriptor without
             * O_DIRECT (the loop driver takes O_DIRECT on it as a request for direct I/O). */
            close(img);
            img = open(image, O_RDWR | O_CLOEXEC);
            if (img < 0) {
                rc = -errno;
                break;
            }
            direct = false;
            rc = configure(n, img, image, direct, d);
        }
    }
    if (img >= 0)
        close(img);
    close(ctl);
    if (rc < 0) {
        snprintf(err, errlen, "cannot attach a loop device to %s: %s", image, strerror(-rc));
        return rc;
    }
    rc = sb_state_add(st, SB_ST_LOOP, d->path, image);
    if (rc < 0) {
        snprintf(err, errlen, "cannot journal %s: %s", d->path, strerror(-rc));
        return rc;
    }
    return 0;
}

void sb_device_release(sb_device *d)
{
    if (d->fd >= 0)
        close(d->fd);
    d->fd = -1;
}

/* Another process with one of devs open: its pid, else 0. */
static long opened_elsewhere(const dev_t *devs, size_t n, char *comm, size_t len)
{
    DIR *proc = opendir("/proc");
    if (!proc)
        return 0;
    long found = 0, self = (long)getpid();
    struct dirent *pe;
    while (!found && (pe = readdir(proc))) {
        if (!isdigit((unsigned char)pe->d_name[0]))
            continue;
        long pid = atol(pe->d_name);
        if (pid == self)
            continue;
        char fdd[64];
        snprintf(fdd, sizeof fdd, "/proc/%ld/fd", pid);
        DIR *fds = opendir(fdd);
        if (!fds)
            continue;
        struct dirent *fe;
        while (!found && (fe = readdir(fds))) {
            char p[128];
            struct stat st;
            snprintf(p, sizeof p, "%s/%s", fdd, fe->d_name);
            if (fe->d_name[0] == '.' || stat(p, &st) < 0 || !S_ISBLK(st.st_mode))
                continue;
            for (size_t i = 0; i < n; i++)
                if (st.st_rdev == devs[i])
                    found = pid;
        }
        closedir(fds);
    }
    closedir(proc);
    if (found) {
        char p[64];
        snprintf(p, sizeof p, "/proc/%ld/comm", found);
        if (sb_read_text(p, comm, len) < 0)
            snprintf(comm, len, "?");
    }
    return found;
}

int sb_real_device_check(const char *path, sb_device *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    d->fd = -1;
    struct stat st;
    if (stat(path, &st) < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    if (!S_ISBLK(st.st_mode)) {
        snprintf(err, errlen, "%s: not a block device", path);
        return -ENOTBLK;
    }
    /* the rules every command shares (core/devguard.h); the data is given up already */
    const sb_devguard_rules rules = {.probe_exclusive = true, .data_given_up = true};
    int r = sb_devguard_check(path, &rules, err, errlen);
    if (r < 0)
        return r;
    char link[PATH_MAX], syspath[128];
    snprintf(syspath, sizeof syspath, "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
    ssize_t ln = readlink(syspath, link, sizeof link - 1);
    if (ln < 0) {
        snprintf(err, errlen, "%s: not known to sysfs (%s)", path, syspath);
        return -ENODEV;
    }
    link[ln] = 0;
    const char *name = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
    snprintf(d->path, sizeof d->path, "/dev/%s", name);
    /* A build runs mkfs, mdadm, make-bcache on it: beyond the shared rules, no other
     * process may have it open at all. */
    dev_t devs[128];
    size_t n = sb_devguard_family(name, st.st_rdev, devs, 128);
    char comm[64];
    long pid = opened_elsewhere(devs, n, comm, sizeof comm);
    if (pid) {
        snprintf(err, errlen, "%s is held open by process %ld (%s): refusing to touch it", path, pid, comm);
        return -EBUSY;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    if (ioctl(fd, BLKGETSIZE64, &d->size) < 0)
        d->size = 0;
    sb_devguard_signature(fd, d->signature, sizeof d->signature);
    close(fd);
    char p[256];
    snprintf(p, sizeof p, "/sys/class/block/%s/device/model", name);
    if (sb_read_text(p, d->model, sizeof d->model) < 0)
        d->model[0] = 0;
    return 0;
}
