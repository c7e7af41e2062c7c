/*
 * devguard — the device-safety rules (devguard.h), read from what the kernel says:
 * /proc/self/mountinfo and /proc/swaps by device number, /sys/class/block for a
 * device's partitions and holders, LOOP_GET_STATUS64 for a loop device's backing file,
 * an O_EXCL open for any other claim, and libblkid for what the device carries.
 *
 * A device's "family" is the device and its partitions: a write to a whole disk
 * destroys what its partitions hold, so each rule is asked of every member.
 */
/* Messages are built in fixed buffers sized for real paths; a longer one is cut, which
 * GCC cannot prove never happens. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "core/devguard.h"

#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/fileio.h"

#define FAMILY_MAX 128

/* A device and its partitions: numbers and kernel names. */
typedef struct family {
    size_t n;
    dev_t dev[FAMILY_MAX];
    char name[FAMILY_MAX][64];
} family;

int sb_devguard_consent_add(sb_devguard_consent *c, const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) < 0) {
        int e = errno;
        snprintf(err, errlen, "--destroy-data-on %s: %s", path, strerror(e));
        return -e;
    }
    if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "--destroy-data-on %s: not a block device or a file", path);
        return -EINVAL;
    }
    if (c->n == SB_DEVGUARD_CONSENT_MAX) {
        snprintf(err, errlen, "--destroy-data-on: at most %d devices or files", SB_DEVGUARD_CONSENT_MAX);
        return -E2BIG;
    }
    c->item[c->n].dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
    c->item[c->n].ino = S_ISBLK(st.st_mode) ? 0 : st.st_ino;
    c->n++;
    return 0;
}

bool sb_devguard_consented(const sb_devguard_consent *c, const struct stat *st)
{
    uint64_t dev = S_ISBLK(st->st_mode) ? st->st_rdev : st->st_dev;
    uint64_t ino = S_ISBLK(st->st_mode) ? 0 : st->st_ino;
    for (unsigned i = 0; c && i < c->n; i++)
        if (c->item[i].dev == dev && c->item[i].ino == ino)
            return true;
    return false;
}

/* The kernel's name of a device number ("loop3", "sdb1"); 0 or -ENODEV. */
static int kernel_name(dev_t rdev, char *out, size_t len)
{
    char sys[64], link[4096];
    snprintf(sys, sizeof sys, "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
    ssize_t n = readlink(sys, link, sizeof link - 1);
    if (n < 0)
        return -ENODEV;
    link[n] = '\0';
    const char *base = strrchr(link, '/');
    snprintf(out, len, "%s", base ? base + 1 : link);
    return 0;
}

/* The device named name (number rdev) and its partitions (sysfs subdirectories that
 * carry the device's name and a dev file). */
static void family_of(const char *name, dev_t rdev, family *f)
{
    f->n = 1;
    f->dev[0] = rdev;
    snprintf(f->name[0], sizeof f->name[0], "%s", name);
    char dir[128];
    snprintf(dir, sizeof dir, "/sys/class/block/%s", name);
    DIR *d = opendir(dir);
    struct dirent *de;
    while (d && (de = readdir(d)) && f->n < FAMILY_MAX) {
        char p[512], val[64];
        unsigned ma, mi;
        if (strncmp(de->d_name, name, strlen(name)) || !de->d_name[strlen(name)])
            continue;
        snprintf(p, sizeof p, "%s/%s/dev", dir, de->d_name);
        if (sb_read_text(p, val, sizeof val) == 0 && sscanf(val, "%u:%u", &ma, &mi) == 2) {
            f->dev[f->n] = makedev(ma, mi);
            snprintf(f->name[f->n], sizeof f->name[0], "%s", de->d_name);
            f->n++;
        }
    }
    if (d)
        closedir(d);
}

size_t sb_devguard_family(const char *name, dev_t rdev, dev_t *devs, size_t max)
{
    family f;
    family_of(name, rdev, &f);
    size_t n = f.n < max ? f.n : max;
    memcpy(devs, f.dev, n * sizeof *devs);
    return n;
}

/* The member of f that is dev, or -1. */
static int member(const family *f, dev_t dev)
{
    for (size_t i = 0; i < f->n; i++)
        if (f->dev[i] == dev)
            return (int)i;
    return -1;
}

/* A mounted member of f: its index, where in *mp. By the mount's device number, and by
 * its source for filesystems (btrfs) that report an anonymous one. */
static int mounted_member(const family *f, char *mp, size_t len)
{
    FILE *in = fopen("/proc/self/mountinfo", "r");
    if (!in)
        return -1;
    char line[8192];
    int hit = -1;
    while (hit < 0 && fgets(line, sizeof line, in)) {
        unsigned ma, mi;
        char where[4096], src[4096];
        if (sscanf(line, "%*d %*d %u:%u %*s %4095s", &ma, &mi, where) != 3)
            continue;
        hit = member(f, makedev(ma, mi));
        const char *sep = strstr(line, " - ");
        struct stat st;
        if (hit < 0 && sep && sscanf(sep + 3, "%*s %4095s", src) == 1 && !strncmp(src, "/dev/", 5) &&
            stat(src, &st) == 0 && S_ISBLK(st.st_mode))
            hit = member(f, st.st_rdev);
        if (hit >= 0)
            snprintf(mp, len, "%s", where);
    }
    fclose(in);
    return hit;
}

/* A member of f in use as swap: its index, or -1. */
static int swap_member(const family *f)
{
    FILE *in = fopen("/proc/swaps", "r");
    if (!in)
        return -1;
    char line[4096];
    int hit = -1;
    while (hit < 0 && fgets(line, sizeof line, in)) {
        char path[4096];
        struct stat st;
        if (sscanf(line, "%4095s", path) == 1 && path[0] == '/' && stat(path, &st) == 0 &&
            S_ISBLK(st.st_mode))
            hit = member(f, st.st_rdev);
    }
    fclose(in);
    return hit;
}

/* A member of f held by another block device: its index, the holder's name in *who. */
static int held_member(const family *f, char *who, size_t len)
{
    for (size_t i = 0; i < f->n; i++) {
        char p[256];
        snprintf(p, sizeof p, "/sys/class/block/%s/holders", f->name[i]);
        DIR *d = opendir(p);
        struct dirent *de;
        bool hit = false;
        while (d && !hit && (de = readdir(d)))
            if (de->d_name[0] != '.') {
                snprintf(who, len, "%s", de->d_name);
                hit = true;
            }
        if (d)
            closedir(d);
        if (hit)
            return (int)i;
    }
    return -1;
}

/* Whether /dev/NAME refuses an O_EXCL open (someone claims it). */
static bool claimed_elsewhere(const char *devpath)
{
    int fd = open(devpath, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
    if (fd >= 0) {
        close(fd);
        return false;
    }
    return errno == EBUSY;
}

/* The first rule of "in use" that the device named name breaks, as one phrase in why
 * ("is mounted on /mnt"); -EBUSY, or 0 when none. allow_mounted lifts the mounted rule. */
static int in_use(const char *name, dev_t rdev, bool probe, bool allow_mounted, char *why, size_t len)
{
    static const char holder_kinds[] = "md, dm, bcache or LVM";
    family f;
    char mp[4096], who[256], devpath[80];
    family_of(name, rdev, &f);
    int m = mounted_member(&f, mp, sizeof mp);
    if (m >= 0 && !allow_mounted) {
        if (m == 0)
            snprintf(why, len, "is mounted on %s", mp);
        else
            snprintf(why, len, "has a partition, /dev/%s, mounted on %s", f.name[m], mp);
        return -EBUSY;
    }
    if ((m = swap_member(&f)) >= 0) {
        if (m == 0)
            snprintf(why, len, "is in use as swap");
        else
            snprintf(why, len, "has a partition, /dev/%s, in use as swap", f.name[m]);
        return -EBUSY;
    }
    if ((m = held_member(&f, who, sizeof who)) >= 0) {
        if (m == 0)
            snprintf(why, len, "is held by %s (%s)", who, holder_kinds);
        else
            snprintf(why, len, "has a partition, /dev/%s, held by %s (%s)", f.name[m], who, holder_kinds);
        return -EBUSY;
    }
    snprintf(devpath, sizeof devpath, "/dev/%s", name);
    /* a mounted device always refuses O_EXCL: under allow_mounted_write that is no news */
    if (probe && mounted_member(&f, mp, sizeof mp) < 0 && claimed_elsewhere(devpath)) {
        snprintf(why, len, "is claimed exclusively by another user (a filesystem, md, dm, bcache, "
                 "or a program that opened it with O_EXCL)");
        return -EBUSY;
    }
    return 0;
}

/* A loop device's backing file: its filesystem and inode, its name. 0, or -errno
 * (not a loop device, or unbound). */
static int loop_backing(const char *devpath, uint64_t *dev, uint64_t *ino, char *file, size_t len)
{
    int fd = open(devpath, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return -errno;
    struct loop_info64 li;
    int r = ioctl(fd, LOOP_GET_STATUS64, &li) < 0 ? -errno : 0;
    close(fd);
    if (r < 0)
        return r;
    *dev = li.lo_device;
    *ino = li.lo_inode;
    snprintf(file, len, "%.*s", LO_NAME_SIZE, (const char *)li.lo_file_name);
    return 0;
}

/* A loop device target: its backing file must not be behind another loop device in use,
 * nor live on the target itself. -EBUSY with the phrase in why, else 0. */
static int loop_twins(const char *name, dev_t rdev, const sb_devguard_rules *r, char *why, size_t len)
{
    uint64_t bdev, bino;
    char file[LO_NAME_SIZE + 1], devpath[80];
    snprintf(devpath, sizeof devpath, "/dev/%s", name);
    if (strncmp(name, "loop", 4) || loop_backing(devpath, &bdev, &bino, file, sizeof file) < 0)
        return 0;
    family self;
    family_of(name, rdev, &self);
    if (member(&self, (dev_t)bdev) >= 0) {
        snprintf(why, len, "has its backing file (%s) on a filesystem of its own", file);
        return -EBUSY;
    }
    DIR *d = opendir("/sys/class/block");
    struct dirent *de;
    int rc = 0;
    while (d && rc == 0 && (de = readdir(d))) {
        const char *k = de->d_name;
        if (strncmp(k, "loop", 4) || !k[4] || strspn(k + 4, "0123456789") != strlen(k + 4) || !strcmp(k, name))
            continue;
        uint64_t dev, ino;
        char other[80], f2[LO_NAME_SIZE + 1], sub[4096];
        struct stat st;
        snprintf(other, sizeof other, "/dev/%s", k);
        if (loop_backing(other, &dev, &ino, f2, sizeof f2) < 0 || dev != bdev || ino != bino ||
            stat(other, &st) < 0)
            continue;
        if ((rc = in_use(k, st.st_rdev, r->probe_exclusive, r->allow_mounted, sub, sizeof sub)) < 0)
            snprintf(why, len, "shares its backing file (%s) with /dev/%s, which %s", file, k, sub);
    }
    if (d)
        closedir(d);
    return rc;
}

void sb_devguard_signature(int fd, char *out, size_t len)
{
    out[0] = '\0';
    blkid_probe pr = blkid_new_probe();
    if (!pr)
        return;
    if (blkid_probe_set_device(pr, fd, 0, 0) == 0) {
        blkid_probe_enable_superblocks(pr, 1);
        blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
        blkid_probe_enable_partitions(pr, 1);
        int rc = blkid_do_safeprobe(pr);
        const char *type = NULL, *usage = NULL, *pt = NULL;
        if (rc == -2) {
            snprintf(out, len, "several signatures");
        } else if (rc == 0 && blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0) {
            if (blkid_probe_lookup_value(pr, "USAGE", &usage, NULL) == 0)
                snprintf(out, len, "%s (%s)", type, usage);
            else
                snprintf(out, len, "%s", type);
        } else if (rc == 0 && blkid_probe_lookup_value(pr, "PTTYPE", &pt, NULL) == 0) {
            snprintf(out, len, "a %s partition table", pt);
        }
    }
    blkid_free_probe(pr);
}

/* The signature rule: -EPERM with the line when the device carries data not given up. */
static int data_rule(const char *path, const struct stat *st, const sb_devguard_rules *r, char *err,
                     size_t errlen)
{
    if (r->data_given_up || sb_devguard_consented(r->consent, st))
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    char sig[128];
    sb_devguard_signature(fd, sig, sizeof sig);
    close(fd);
    if (!sig[0])
        return 0;
    if (r->consent)
        snprintf(err, errlen, "%s carries %s: writing would destroy it; to give its data up, name it "
                 "with --destroy-data-on %s", path, sig, path);
    else /* a command without the flag */
        snprintf(err, errlen, "%s carries %s: writing would destroy it; this command takes no "
                 "--destroy-data-on: to give its data up, erase the signature first (wipefs -a %s)",
                 path, sig, path);
    return -EPERM;
}

int sb_devguard_check(const char *path, const sb_devguard_rules *r, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
        return 0; /* not a block device: the file rules are the caller's */
    char name[64], why[8192];
    if (kernel_name(st.st_rdev, name, sizeof name) < 0) {
        snprintf(err, errlen, "%s: a block device the kernel does not list in /sys/dev/block: refusing to write to it",
                 path);
        return -ENODEV;
    }
    int rc = in_use(name, st.st_rdev, r->probe_exclusive, r->allow_mounted, why, sizeof why);
    if (rc == 0)
        rc = loop_twins(name, st.st_rdev, r, why, sizeof why);
    if (rc < 0) {
        bool mount = strstr(why, "mounted on") != NULL;
        snprintf(err, errlen, "%s %s: refusing to write to it%s", path, why,
                 mount ? " (fio's allow_mounted_write=1 overrides)" : "");
        return rc;
    }
    return data_rule(path, &st, r, err, errlen);
}

int sb_devguard_claim(sb_devguard *g, const char *path, const sb_devguard_rules *r, char *err,
                      size_t errlen)
{
    struct stat st;
    if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
        return 0;
    for (unsigned i = 0; i < g->n; i++)
        if (g->held[i].rdev == st.st_rdev)
            return 0;
    if (g->n == SB_DEVGUARD_HOLD_MAX) {
        snprintf(err, errlen, "%s: at most %d block devices at once", path, SB_DEVGUARD_HOLD_MAX);
        return -E2BIG;
    }
    sb_devguard_rules probing = *r;
    probing.probe_exclusive = true;
    int rc = sb_devguard_check(path, &probing, err, errlen);
    if (rc < 0)
        return rc;
    /* Held from here on: nothing mounts or assembles it while the command runs. Under
     * allow_mounted_write a mounted device cannot be held: it is only checked. */
    int fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0 && !(errno == EBUSY && r->allow_mounted)) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", path, e == EBUSY ? "claimed by another user meanwhile: refusing to write to it"
                                                         : strerror(e));
        return -e;
    }
    g->held[g->n].rdev = st.st_rdev;
    g->held[g->n].fd = fd;
    g->n++;
    return 0;
}

void sb_devguard_release(sb_devguard *g)
{
    for (unsigned i = 0; i < g->n; i++)
        if (g->held[i].fd >= 0)
            close(g->held[i].fd);
    g->n = 0;
}
