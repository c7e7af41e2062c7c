/*
 * layout — mkfs, mount and description of one configuration (see layout.h).
 * mkfs.* and make-bcache are run through tool.c (no shell); mounting is
 * mount(2), with the generic options ("noatime", "ro" ...) turned into flags
 * and the rest passed to the filesystem as data. mkfs is told not to discard
 * (-K, -E nodiscard): on a loop device a discard punches holes in the
 * preallocated image, and on a real device it takes long and is not what the
 * configuration asked for.
 */

/* Messages and sysfs paths are built in fixed buffers sized for real paths (PATH_MAX);
 * a longer one is cut, which GCC cannot prove never happens. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "scenario/layout.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/btrfs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/fileio.h"
#include "scenario/lab_dilate.h"
#include "scenario/md.h"
#include "scenario/tool.h"

/* ---- bcache ---- */

int sb_bcache_available(char *why, size_t whylen)
{
    if (access("/sys/fs/bcache/register", W_OK) < 0) {
        snprintf(why, whylen, "this kernel has no bcache (no /sys/fs/bcache/register: the bcache module "
                 "is not loaded or not built; try 'modprobe bcache')");
        return -ENOTSUP;
    }
    if (!sb_in_path("make-bcache")) {
        snprintf(why, whylen, "make-bcache is not installed (Debian package bcache-tools)");
        return -ENOTSUP;
    }
    return 0;
}

static const char *base(const char *dev)
{
    return strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
}

/* bcache over devs[0] (cache) and devs[1] (backing); fills out->fs_device. */
static int bcache_setup(const sb_scn_config *c, sb_device *devs, sb_state *st, sb_layout *out,
                        char *err, size_t errlen)
{
    int rc = sb_bcache_available(err, errlen);
    if (rc < 0)
        return rc;
    char *argv[12];
    int k = 0;
    argv[k++] = "make-bcache";
    argv[k++] = "--wipe-bcache";
    if (c->cache_discard)
        argv[k++] = "--discard";
    if (c->cache == SB_CACHE_WRITEBACK)
        argv[k++] = "--writeback";
    argv[k++] = "-C";
    argv[k++] = devs[0].path;
    argv[k++] = "-B";
    argv[k++] = devs[1].path;
    argv[k] = NULL;
    char outbuf[8192] = "", cset[64] = "";
    if ((rc = sb_run_tool(argv, NULL, outbuf, sizeof outbuf, err, errlen)) < 0)
        return rc;
    /* make-bcache prints "Set UUID: <uuid>" for the cache set. */
    const char *p = strstr(outbuf, "Set UUID:");
    if (p && sscanf(p + 9, " %63s", cset) != 1)
        cset[0] = 0;
    if ((rc = sb_state_add(st, SB_ST_BCACHE, devs[1].path, cset)) < 0) {
        snprintf(err, errlen, "cannot journal bcache: %s", strerror(-rc));
        return rc;
    }
    /* Without udev nobody registers the new superblocks: do it (EEXIST/EINVAL when udev did). */
    for (int i = 0; i < 2; i++)
        sb_write_text("/sys/fs/bcache/register", devs[i].path);
    char link[PATH_MAX], target[PATH_MAX];
    snprintf(link, sizeof link, "/sys/block/%s/bcache/dev", base(devs[1].path));
    ssize_t n = -1;
    for (int i = 0; i < 100 && n < 0; i++) {
        n = readlink(link, target, sizeof target - 1);
        if (n < 0)
            sb_sleep_ms(50);
    }
    if (n < 0) {
        snprintf(err, errlen, "bcache: %s did not appear as a bcache device", devs[1].path);
        return -ENODEV;
    }
    target[n] = 0;
    snprintf(out->fs_device, sizeof out->fs_device, "/dev/%s", base(target));
    char mode_path[PATH_MAX];
    snprintf(mode_path, sizeof mode_path, "/sys/block/%s/bcache/cache_mode", base(devs[1].path));
    if ((rc = sb_write_text(mode_path, sb_cache_mode_name(c->cache))) < 0) {
        snprintf(err, errlen, "bcache: cannot set cache_mode %s: %s", sb_cache_mode_name(c->cache), strerror(-rc));
        return rc;
    }
    /* A dilated lab guest (--vm-dilate): bcache's own timers stretched with the disks. */
    if (c->time_dilate > 1)
        sb_lab_dilate_bcache(base(devs[1].path), cset, c->time_dilate);
    for (int i = 0; i < 100 && access(out->fs_device, F_OK) < 0; i++)
        sb_sleep_ms(50);
    return 0;
}

/* ---- mkfs ---- */

static int mkfs(const sb_scn_config *c, sb_device *devs, size_t n, const char *fs_device, char *err,
                size_t errlen)
{
    char *argv[64], extra[sizeof c->mkfs_options], dopt[32], mopt[32];
    int k = 0;
    bool btrfs = !strcmp(c->filesystem, "btrfs");
    if (!strcmp(c->filesystem, "ext4")) {
        argv[k++] = "mkfs.ext4";
        argv[k++] = "-q";
        argv[k++] = "-F";
        argv[k++] = "-E";
        argv[k++] = "nodiscard";
    } else if (!strcmp(c->filesystem, "xfs")) {
        argv[k++] = "mkfs.xfs";
        argv[k++] = "-q";
        argv[k++] = "-f";
        argv[k++] = "-K";
    } else {
        argv[k++] = "mkfs.btrfs";
        argv[k++] = "-q";
        argv[k++] = "-f";
        argv[k++] = "-K";
        if (c->data_profile[0]) {
            snprintf(dopt, sizeof dopt, "%s", c->data_profile);
            argv[k++] = "-d";
            argv[k++] = dopt;
        }
        if (c->metadata_profile[0]) {
            snprintf(mopt, sizeof mopt, "%s", c->metadata_profile);
            argv[k++] = "-m";
            argv[k++] = mopt;
        }
    }
    snprintf(extra, sizeof extra, "%s", c->mkfs_options);
    for (char *save = NULL, *w = strtok_r(extra, " \t", &save); w && k < 40; w = strtok_r(NULL, " \t", &save))
        argv[k++] = w;
    if (btrfs && c->cache == SB_CACHE_NONE && !c->md[0]) {
        for (size_t i = 0; i < n && k < 62; i++)
            argv[k++] = devs[i].path;
    } else {
        argv[k++] = (char *)fs_device;
    }
    argv[k] = NULL;
    return sb_run_tool(argv, NULL, NULL, 0, err, errlen);
}

/* ---- mount ---- */

static const struct {
    const char *name;
    unsigned long set;
} mount_flags[] = {
    {"ro", MS_RDONLY}, {"rw", 0}, {"noatime", MS_NOATIME}, {"nodiratime", MS_NODIRATIME},
    {"relatime", MS_RELATIME}, {"strictatime", MS_STRICTATIME}, {"lazytime", MS_LAZYTIME},
    {"sync", MS_SYNCHRONOUS}, {"dirsync", MS_DIRSYNC}, {"nosuid", MS_NOSUID}, {"nodev", MS_NODEV},
    {"noexec", MS_NOEXEC}, {"async", 0}, {"defaults", 0},
};

/* Mounts with a comma-separated option list (plus extra filesystem data). 0 or -errno. */
static int do_mount(const char *src, const char *mnt, const char *fs, const char *opts, const char *extra)
{
    char buf[1024], data[2048] = "";
    unsigned long flags = 0;
    snprintf(buf, sizeof buf, "%s", opts);
    for (char *save = NULL, *o = strtok_r(buf, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
        bool generic = false;
        for (size_t i = 0; i < sizeof mount_flags / sizeof mount_flags[0]; i++)
            if (!strcmp(o, mount_flags[i].name)) {
                flags |= mount_flags[i].set;
                generic = true;
            }
        if (!generic) {
            size_t l = strlen(data);
            snprintf(data + l, sizeof data - l, "%s%s", l ? "," : "", o);
        }
    }
    if (extra && *extra) {
        size_t l = strlen(data);
        snprintf(data + l, sizeof data - l, "%s%s", l ? "," : "", extra);
    }
    return mount(src, mnt, fs, flags, data[0] ? data : NULL) < 0 ? -errno : 0;
}

/* Options that kernels have removed over the years: a kernel that refuses them makes the
 * option not applicable rather than the configuration invalid. */
static bool droppable(const char *o)
{
    return !strcmp(o, "nobarrier") || !strcmp(o, "barrier") || !strncmp(o, "barrier=", 8);
}

static void list_add(char *list, size_t len, const char *item)
{
    size_t l = strlen(list);
    snprintf(list + l, len - l, "%s%s", l ? "," : "", item);
}

static int mount_config(const sb_scn_config *c, sb_device *devs, size_t n, sb_layout *out, char *err,
                        size_t errlen)
{
    char extra[2048] = "";
    if (!strcmp(c->filesystem, "btrfs") && c->cache == SB_CACHE_NONE && !c->md[0] && n > 1)
        for (size_t i = 0; i < n; i++) {
            char d[128];
            snprintf(d, sizeof d, "device=%s", devs[i].path);
            list_add(extra, sizeof extra, d);
        }
    int rc = do_mount(out->fs_device, out->mountpoint, c->filesystem, c->mount_options, extra);
    snprintf(out->options, sizeof out->options, "%s", c->mount_options);
    if (rc == -EINVAL && c->mount_options[0]) {
        /* Which option did the kernel refuse? Try each alone. */
        char buf[sizeof c->mount_options], keep[sizeof out->options] = "";
        snprintf(buf, sizeof buf, "%s", c->mount_options);
        bool found = false;
        for (char *save = NULL, *o = strtok_r(buf, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
            int r = do_mount(out->fs_device, out->mountpoint, c->filesystem, o, extra);
            if (r == 0) {
                umount2(out->mountpoint, 0);
                list_add(keep, sizeof keep, o);
                continue;
            }
            if (r != -EINVAL) {
                snprintf(err, errlen, "mount %s on %s: %s", out->fs_device, out->mountpoint, strerror(-r));
                return r;
            }
            found = true;
            if (!droppable(o)) {
                snprintf(err, errlen, "%s refuses the mount option '%s' on this kernel (see dmesg)",
                         c->filesystem, o);
                return -EINVAL;
            }
            list_add(out->not_applicable, sizeof out->not_applicable, o);
        }
        if (!found) {
            snprintf(err, errlen, "%s refuses the mount options '%s' together (see dmesg)", c->filesystem,
                     c->mount_options);
            return -EINVAL;
        }
        snprintf(out->options, sizeof out->options, "%s", keep);
        rc = do_mount(out->fs_device, out->mountpoint, c->filesystem, keep, extra);
    }
    if (rc < 0)
        snprintf(err, errlen, "mount %s (%s) on %s: %s", out->fs_device, c->filesystem, out->mountpoint,
                 strerror(-rc));
    return rc;
}

/* The btrfs profiles in use, from /sys/fs/btrfs/<fsid>/allocation/<kind>/. */
static void btrfs_profiles(const char *mnt, sb_layout *out)
{
    int fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    struct btrfs_ioctl_fs_info_args info;
    memset(&info, 0, sizeof info);
    int rc = ioctl(fd, BTRFS_IOC_FS_INFO, &info);
    close(fd);
    if (rc < 0)
        return;
    char uuid[40];
    const unsigned char *u = info.fsid;
    snprintf(uuid, sizeof uuid, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
             u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
    const char *kinds[2] = {"data", "metadata"};
    char *dst[2] = {out->data_profile, out->metadata_profile};
    for (int k = 0; k < 2; k++) {
        char p[256];
        snprintf(p, sizeof p, "/sys/fs/btrfs/%s/allocation/%s", uuid, kinds[k]);
        DIR *d = opendir(p);
        struct dirent *de;
        dst[k][0] = 0;
        while (d && (de = readdir(d)))
            if (sb_btrfs_profile_min_devices(de->d_name) && strcmp(de->d_name, ""))
                list_add(dst[k], sizeof out->data_profile, de->d_name);
        if (d)
            closedir(d);
    }
}

int sb_layout_build(const sb_scn_config *c, sb_device *devs, size_t n, const char *parent_dir,
                    sb_state *st, sb_layout *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    int rc;
    if (c->cache != SB_CACHE_NONE) {
        if (n != 2) {
            snprintf(err, errlen, "bcache needs 2 devices");
            return -EINVAL;
        }
        if ((rc = bcache_setup(c, devs, st, out, err, errlen)) < 0)
            return rc;
    } else if (c->md[0]) {
        if ((rc = sb_md_setup(c, devs, n, st, out->fs_device, sizeof out->fs_device, err, errlen)) < 0)
            return rc;
    } else {
        snprintf(out->fs_device, sizeof out->fs_device, "%s", devs[0].path);
    }
    if ((rc = mkfs(c, devs, n, out->fs_device, err, errlen)) < 0)
        return rc;
    snprintf(out->mountpoint, sizeof out->mountpoint, "%s/storbench-mnt-%ld-XXXXXX", parent_dir, (long)getpid());
    if (!mkdtemp(out->mountpoint)) {
        int e = errno;
        snprintf(err, errlen, "cannot create a mount point in %s: %s", parent_dir, strerror(e));
        return -e;
    }
    if ((rc = sb_state_add(st, SB_ST_DIR, out->mountpoint, NULL)) < 0)
        goto journal;
    if (!strcmp(c->filesystem, "btrfs"))
        for (size_t i = 0; i < n && c->cache == SB_CACHE_NONE && !c->md[0]; i++)
            if ((rc = sb_state_add(st, SB_ST_BTRFS, devs[i].path, NULL)) < 0)
                goto journal;
    if ((rc = sb_state_add(st, SB_ST_MOUNT, out->mountpoint, NULL)) < 0)
        goto journal;
    if ((rc = mount_config(c, devs, n, out, err, errlen)) < 0)
        return rc;
    if (!strcmp(c->filesystem, "btrfs"))
        btrfs_profiles(out->mountpoint, out);
    return 0;
journal:
    snprintf(err, errlen, "cannot write the state journal: %s", strerror(-rc));
    return rc;
}

/* ---- description ---- */

/* What the kernel says the stack under the filesystem is, read after building it: bcache's
 * cache mode (the one in brackets of "writethrough [writeback] writearound none") and the
 * md array's level and state. */
static void describe_read_back(const sb_scn_config *c, const sb_layout *l, sb_system *sys)
{
    char path[PATH_MAX], text[256] = "";
    if (c->cache != SB_CACHE_NONE) {
        snprintf(path, sizeof path, "/sys/block/%s/bcache/cache_mode", base(l->fs_device));
        char mode[64] = "";
        const char *open = NULL;
        if (sb_read_text(path, text, sizeof text) == 0 && (open = strchr(text, '[')))
            sscanf(open + 1, "%63[^]]", mode);
        sb_kvlist_set(&sys->storage, "Cache Mode (sysfs)", mode[0] ? mode : "unknown");
    }
    if (c->md[0]) {
        sb_md_describe(l->fs_device, text, sizeof text);
        sb_kvlist_set(&sys->storage, "MD Array", text[0] ? text : "unknown");
    }
}

static void upper(char *dst, size_t len, const char *src)
{
    size_t i = 0;
    for (; src[i] && i + 1 < len; i++)
        dst[i] = (char)toupper((unsigned char)src[i]);
    dst[i] = 0;
}

static void size_text(char *buf, size_t len, uint64_t bytes)
{
    /* The seed pages' decimal sizes: 120GB; below a gigabyte, MB. */
    if (bytes >= 1000000000ull)
        snprintf(buf, len, "%.0fGB", (double)bytes / 1e9);
    else
        snprintf(buf, len, "%.0fMB", (double)bytes / 1e6);
}

static void device_text(char *buf, size_t len, const sb_device *d)
{
    char sz[32];
    size_text(sz, sizeof sz, d->size);
    if (d->image[0] && d->model[0]) /* a modeled device (modeled.h): its spec */
        snprintf(buf, len, "%s Loop Image modeled as %s", sz, d->model);
    else if (d->image[0])
        snprintf(buf, len, "%s Loop Image", sz);
    else
        snprintf(buf, len, "%s %s", sz, d->model[0] ? d->model : base(d->path));
}

void sb_layout_describe(const sb_scn_config *c, const sb_device *devs, size_t n, const sb_layout *l,
                        sb_system *sys)
{
    char buf[2048], item[256];

    /* Disk: "2 x 268MB Loop Image", "120GB TOSHIBA-TR150 + 1000GB HGST ..." */
    buf[0] = 0;
    for (size_t i = 0; i < n;) {
        device_text(item, sizeof item, &devs[i]);
        size_t same = 1;
        char next[256];
        while (i + same < n && (device_text(next, sizeof next, &devs[i + same]), !strcmp(next, item)))
            same++;
        size_t bl = strlen(buf);
        if (same > 1)
            snprintf(buf + bl, sizeof buf - bl, "%s%zu x %s", bl ? " + " : "", same, item);
        else
            snprintf(buf + bl, sizeof buf - bl, "%s%s", bl ? " + " : "", item);
        i += same;
    }
    sb_kvlist_set(&sys->hardware, "Disk", buf);

    /* File-System: "btrfs RAID1 (compress=lzo, noatime; nobarrier: not applicable)" */
    bool btrfs = !strcmp(c->filesystem, "btrfs");
    char prof[96] = "", dp[32], mp[32];
    const char *data = l->data_profile[0] ? l->data_profile : c->data_profile;
    const char *meta = l->metadata_profile[0] ? l->metadata_profile : c->metadata_profile;
    if (btrfs && (n > 1 || c->data_profile[0])) {
        upper(dp, sizeof dp, data[0] ? data : "single");
        upper(mp, sizeof mp, meta[0] ? meta : "");
        if (!meta[0] || !strcmp(data, meta))
            snprintf(prof, sizeof prof, " %s", dp);
        else
            snprintf(prof, sizeof prof, " %s data, %s metadata", dp, mp);
    }
    char opts[1024] = "";
    for (size_t i = 0, j = 0; l->options[i]; i++) /* "a,b" -> "a, b" */
        if (j + 3 < sizeof opts) {
            opts[j++] = l->options[i];
            if (l->options[i] == ',')
                opts[j++] = ' ';
            opts[j] = 0;
        }
    char na[512] = "";
    if (l->not_applicable[0])
        snprintf(na, sizeof na, "%s%s: not applicable", opts[0] ? "; " : "", l->not_applicable);
    char cache[96] = "";
    if (c->cache != SB_CACHE_NONE)
        snprintf(cache, sizeof cache, " on bcache %s%s", sb_cache_mode_name(c->cache),
                 c->cache_discard ? " + discard" : "");
    if (c->md[0]) {
        upper(dp, sizeof dp, c->md);
        snprintf(cache, sizeof cache, " on md %s", dp);
    }
    if (opts[0] || na[0])
        snprintf(buf, sizeof buf, "%s%s%s (%s%s)", c->filesystem, prof, cache, opts, na);
    else
        snprintf(buf, sizeof buf, "%s%s%s", c->filesystem, prof, cache);
    sb_kvlist_set(&sys->software, "File-System", buf);

    /* The storage details. */
    snprintf(buf, sizeof buf, "%s%s%s over %zu %s device%s", c->filesystem, prof, cache, n,
             devs[0].image[0] ? "loop" : "block", n == 1 ? "" : "s");
    sb_kvlist_set(&sys->storage, "Layout", buf);
    buf[0] = 0;
    for (size_t i = 0; i < n; i++) {
        size_t bl = strlen(buf);
        char sz[32];
        size_text(sz, sizeof sz, devs[i].size);
        if (devs[i].image[0])
            snprintf(buf + bl, sizeof buf - bl, "%s%s = %s (%s, %s)", bl ? ", " : "", devs[i].path, devs[i].image,
                     sz, devs[i].direct_io ? "direct I/O" : "buffered");
        else
            snprintf(buf + bl, sizeof buf - bl, "%s%s (%s%s%s)", bl ? ", " : "", devs[i].path, sz,
                     devs[i].model[0] ? " " : "", devs[i].model);
    }
    if (c->cache != SB_CACHE_NONE && n == 2) {
        size_t bl = strlen(buf);
        snprintf(buf + bl, sizeof buf - bl, "; cache %s, backing %s, filesystem on %s", devs[0].path,
                 devs[1].path, l->fs_device);
    }
    sb_kvlist_set(&sys->storage, "Devices", buf);
    if (btrfs) {
        sb_kvlist_set(&sys->storage, "Data Profile", data[0] ? data : "mkfs default");
        sb_kvlist_set(&sys->storage, "Metadata Profile", meta[0] ? meta : "mkfs default");
    }
    const char *comp = "none";
    char cbuf[64];
    char ob[sizeof l->options];
    snprintf(ob, sizeof ob, "%s", l->options);
    for (char *save = NULL, *o = strtok_r(ob, ",", &save); o; o = strtok_r(NULL, ",", &save))
        if (!strncmp(o, "compress=", 9) || !strncmp(o, "compress-force=", 15)) {
            snprintf(cbuf, sizeof cbuf, "%s%s", strchr(o, '=') + 1, o[8] == '-' ? " (forced)" : "");
            comp = cbuf;
        } else if (!strcmp(o, "compress") || !strcmp(o, "compress-force")) {
            comp = "zlib";
        }
    sb_kvlist_set(&sys->storage, "Compression", comp);
    if (c->cache != SB_CACHE_NONE) {
        snprintf(buf, sizeof buf, "bcache %s%s", sb_cache_mode_name(c->cache), c->cache_discard ? ", discard" : "");
        sb_kvlist_set(&sys->storage, "Cache", buf);
    }
    const char *kernel_opts = sb_kvlist_get(&sys->storage, "Mount Options");
    if (kernel_opts && *kernel_opts)
        sb_kvlist_set(&sys->storage, "Kernel Mount Options", kernel_opts);
    snprintf(buf, sizeof buf, "%s%s", l->options[0] ? l->options : "defaults", na);
    sb_kvlist_set(&sys->storage, "Mount Options", buf);
    if (c->mkfs_options[0])
        sb_kvlist_set(&sys->storage, "Mkfs Options", c->mkfs_options);
    describe_read_back(c, l, sys);
}
