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

void sb_device_signature(int fd, char *out, size_t len)
{
    static unsigned char buf[70 * 1024];
    out[0] = 0;
    ssize_t n = pread(fd, buf, sizeof buf, 0);
    if (n < 4096)
        return;
    if (n >= 65536 + 72 && !memcmp(buf + 65536 + 64, "_BHRfS_M", 8))
        snprintf(out, len, "btrfs");
    else if (!memcmp(buf, "XFSB", 4))
        snprintf(out, len, "xfs");
    else if (buf[1080] == 0x53 && buf[1081] == 0xEF)
        snprintf(out, len, "ext2/3/4");
    else if (!memcmp(buf, "LUKS\xba\xbe", 6))
        snprintf(out, len, "LUKS");
    else if (!memcmp(buf + 4096 - 10, "SWAPSPACE2", 10) || !memcmp(buf + 4096 - 10, "SWAP-SPACE", 10))
        snprintf(out, len, "swap");
    else if (!memcmp(buf + 4096 + 24, "\xc6\x85\x73\xf6\x4e\x1a\x45\xca\x82\x65\xf5\x7f\x48\xba\x6d\x81", 16))
        snprintf(out, len, "bcache");
    else if (!memcmp(buf + 512, "EFI PART", 8))
        snprintf(out, len, "GPT partition table");
    else if (buf[510] == 0x55 && buf[511] == 0xAA)
        snprintf(out, len, "MBR partition table");
}

/* Is one of devs (the device and its partitions) mounted? Fills where. The maj:min of
 * mountinfo is the block device for most filesystems, but an anonymous one for btrfs: the
 * mount source is compared too. */
static bool mounted(const dev_t *devs, size_t n, char *where, size_t len)
{
    FILE *f = fopen("/proc/self/mountinfo", "r");
    if (!f)
        return false;
    char line[8192];
    bool hit = false;
    while (!hit && fgets(line, sizeof line, f)) {
        unsigned ma, mi;
        char mp[2048], src[2048] = "";
        if (sscanf(line, "%*d %*d %u:%u %*s %2047s", &ma, &mi, mp) != 3)
            continue;
        const char *sep = strstr(line, " - ");
        struct stat st;
        bool by_source = sep && sscanf(sep + 3, "%*s %2047s", src) == 1 && !strncmp(src, "/dev/", 5) &&
                         stat(src, &st) == 0 && S_ISBLK(st.st_mode);
        for (size_t i = 0; i < n && !hit; i++)
            if ((major(devs[i]) == ma && minor(devs[i]) == mi) || (by_source && st.st_rdev == devs[i])) {
                snprintf(where, len, "%s", mp);
                hit = true;
            }
    }
    fclose(f);
    return hit;
}

static bool swap_on(const char *name)
{
    FILE *f = fopen("/proc/swaps", "r");
    if (!f)
        return false;
    char line[1024];
    bool hit = false;
    while (!hit && fgets(line, sizeof line, f)) {
        char path[512];
        if (sscanf(line, "%511s", path) == 1 && !strncmp(path, "/dev/", 5)) {
            const char *b = path + 5;
            hit = !strncmp(b, name, strlen(name));
        }
    }
    fclose(f);
    return hit;
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
    char link[PATH_MAX], syspath[128], target[PATH_MAX];
    snprintf(syspath, sizeof syspath, "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
    ssize_t ln = readlink(syspath, link, sizeof link - 1);
    if (ln < 0) {
        snprintf(err, errlen, "%s: not known to sysfs (%s)", path, syspath);
        return -ENODEV;
    }
    link[ln] = 0;
    const char *name = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
    snprintf(d->path, sizeof d->path, "/dev/%s", name);

    /* The device and its partitions. */
    dev_t devs[128];
    size_t n = 0;
    devs[n++] = st.st_rdev;
    snprintf(target, sizeof target, "/sys/class/block/%s", name);
    DIR *dir = opendir(target);
    struct dirent *de;
    bool held = false;
    char holder[256] = "";
    while (dir && (de = readdir(dir))) {
        char p[PATH_MAX], val[64];
        unsigned ma, mi;
        if (!strncmp(de->d_name, name, strlen(name))) {
            snprintf(p, sizeof p, "%s/%s/dev", target, de->d_name);
            if (n < 128 && sb_read_text(p, val, sizeof val) == 0 && sscanf(val, "%u:%u", &ma, &mi) == 2)
                devs[n++] = makedev(ma, mi);
            snprintf(p, sizeof p, "%s/%s/holders", target, de->d_name);
        } else if (!strcmp(de->d_name, "holders")) {
            snprintf(p, sizeof p, "%s/holders", target);
        } else {
            continue;
        }
        DIR *h = opendir(p);
        struct dirent *he;
        while (h && (he = readdir(h)))
            if (he->d_name[0] != '.') {
                held = true;
                snprintf(holder, sizeof holder, "%s", he->d_name);
            }
        if (h)
            closedir(h);
    }
    if (dir)
        closedir(dir);

    char where[2048], comm[64];
    if (mounted(devs, n, where, sizeof where)) {
        snprintf(err, errlen, "%s is mounted (on %s): refusing to touch it", path, where);
        return -EBUSY;
    }
    if (swap_on(name)) {
        snprintf(err, errlen, "%s is in use as swap: refusing to touch it", path);
        return -EBUSY;
    }
    if (held) {
        snprintf(err, errlen, "%s is held by %s (md, dm or bcache): refusing to touch it", path, holder);
        return -EBUSY;
    }
    long pid = opened_elsewhere(devs, n, comm, sizeof comm);
    if (pid) {
        snprintf(err, errlen, "%s is held open by process %ld (%s): refusing to touch it", path, pid, comm);
        return -EBUSY;
    }
    int fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        if (e == EBUSY)
            snprintf(err, errlen, "%s is in use (part of a mounted multi-device filesystem, or opened exclusively): refusing to touch it",
                     path);
        else
            snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    if (ioctl(fd, BLKGETSIZE64, &d->size) < 0)
        d->size = 0;
    sb_device_signature(fd, d->signature, sizeof d->signature);
    close(fd);
    char p[256];
    snprintf(p, sizeof p, "/sys/class/block/%s/device/model", name);
    if (sb_read_text(p, d->model, sizeof d->model) < 0)
        d->model[0] = 0;
    return 0;
}
