/*
 * stack — the storage behind a target directory: its mount (type, source,
 * options), the block device under it followed through dm/md slaves, btrfs
 * members and overlay upper directories down to the disks, and their model,
 * scheduler and rotational flag (docs/sysinfo.md, Storage).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sysinfo/read.h"
#include "sysinfo/block.h"
#include "sysinfo/stack.h"
#include "sysinfo/sysinfo_parse.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/strutil.h"

const char *sb_sysinfo_fs_magic_name(unsigned long magic)
{
    static const struct {
        unsigned long magic;
        const char *name;
    } t[] = {
        {0xEF53, "ext4"}, /* ext2/3/4 share one magic; ext4 is what a modern kernel mounts */
        {0x58465342, "xfs"},
        {0x9123683E, "btrfs"},
        {0x01021994, "tmpfs"},
        {0x794C7630, "overlayfs"},
        {0x6969, "nfs"},
        {0x2FC12FC1, "zfs"},
        {0xF2F52010, "f2fs"},
        {0x4D44, "vfat"},
        {0x5346544E, "ntfs"},
        {0x65735546, "fuse"},
        {0xCA451A4E, "bcachefs"},
        {0x858458F6, "ramfs"},
        {0x3153464A, "jfs"},
        {0x52654973, "reiserfs"},
        {0xFF534D42, "cifs"},
        {0x9FA0, "proc"},
        {0x62656572, "sysfs"},
        {0x2011BAB0, "exfat"},
        {0x73717368, "squashfs"},
        {0x01161970, "gfs2"},
        {0x7461636F, "ocfs2"},
        {0x00C36400, "ceph"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].magic == (magic & 0xFFFFFFFFUL))
            return t[i].name;
    return NULL;
}
/* realpath of root + rel, given back relative to root; false when it does not resolve or
 * leads out of root. */
static bool resolve_below(const char *root, const char *rel, char *out, size_t len)
{
    char full[PATH_MAX], real[PATH_MAX], rootreal[PATH_MAX];
    sb_fmt(full, sizeof full, "%s%s", root, rel);
    if (!realpath(full, real))
        return false;
    size_t rl = 0;
    if (root[0]) {
        if (!realpath(root, rootreal))
            return false;
        rl = strlen(rootreal);
        if (strncmp(real, rootreal, rl) != 0 || (real[rl] != '/' && real[rl] != '\0'))
            return false;
    }
    sb_fmt(out, len, "%s", real + rl);
    return true;
}

/* Root-relative sysfs directory of a block device number, resolved; false when absent. */
static bool sysfs_dev_dir(const char *root, unsigned maj, unsigned min, char *out, size_t len)
{
    char rel[64];
    sb_fmt(rel, sizeof rel, "/sys/dev/block/%u:%u", maj, min);
    return resolve_below(root, rel, out, len);
}

static bool sysfs_exists(const char *root, const char *dir, const char *attr)
{
    char full[PATH_MAX];
    sb_fmt(full, sizeof full, "%s%s/%s", root, dir, attr);
    return access(full, F_OK) == 0;
}

/* A partition's disk is its parent directory in sysfs. */
static void whole_disk(const char *root, char *dir)
{
    if (sysfs_exists(root, dir, "partition")) {
        char *slash = strrchr(dir, '/');
        if (slash && slash != dir)
            *slash = '\0';
    }
}

/* Follows dm/md "slaves" down to the physical disks: leaf names go into names (" + "
 * joined), the first leaf's directory into first. */
static void leaf_disks(const char *root, const char *dir, int depth, char *names, size_t nlen,
                       char *first, size_t flen)
{
    char sl[PATH_MAX];
    sb_fmt(sl, sizeof sl, "%s/slaves", dir);
    size_t n = 0;
    char **sub = depth < 4 ? si_list_dir(root, sl, &n) : NULL;
    if (n == 0) {
        char d[PATH_MAX];
        sb_fmt(d, sizeof d, "%s", dir);
        whole_disk(root, d);
        const char *base = strrchr(d, '/');
        base = base ? base + 1 : d;
        char with[PATH_MAX];
        sb_fmt(with, sizeof with, " %s ", base);
        char padded[1024];
        sb_fmt(padded, sizeof padded, " %s ", names);
        /* two partitions of one disk under an md array name the disk once */
        if (!strstr(padded, with)) {
            size_t l = strlen(names);
            sb_fmt(names + l, nlen - l, "%s%s", l ? " + " : "", base);
        }
        if (!first[0])
            sb_fmt(first, flen, "%s", d);
    }
    for (size_t i = 0; i < n; i++) {
        char rel[PATH_MAX], sub_dir[PATH_MAX];
        sb_fmt(rel, sizeof rel, "%s/%s", sl, sub[i]);
        if (resolve_below(root, rel, sub_dir, sizeof sub_dir))
            leaf_disks(root, sub_dir, depth + 1, names, nlen, first, flen);
    }
    si_free_names(sub, n);
}

/* A multi-device btrfs lists its members in /sys/fs/btrfs/<uuid>/devices; the mount source
 * names only one of them. True (members " + " joined into label, the first one's sysfs
 * directory into first) when name belongs to a filesystem of more than one device. */
static bool btrfs_members(const char *root, const char *name, char *label, size_t llen,
                          char *first, size_t flen)
{
    size_t n = 0;
    char **fs = si_list_dir(root, "/sys/fs/btrfs", &n);
    bool found = false;
    for (size_t i = 0; i < n && !found; i++) {
        char d[PATH_MAX];
        sb_fmt(d, sizeof d, "/sys/fs/btrfs/%s/devices", fs[i]);
        size_t m = 0;
        char **devs = si_list_dir(root, d, &m);
        for (size_t j = 0; j < m; j++)
            if (!strcmp(devs[j], name))
                found = m > 1;
        if (found) {
            char rel[PATH_MAX];
            label[0] = '\0';
            for (size_t j = 0; j < m; j++) {
                size_t l = strlen(label);
                sb_fmt(label + l, llen - l, "%s%s", j ? " + " : "", devs[j]);
            }
            sb_fmt(rel, sizeof rel, "%s/%s", d, devs[0]);
            if (resolve_below(root, rel, first, flen))
                whole_disk(root, first);
            else
                found = false;
        }
        si_free_names(devs, m);
    }
    si_free_names(fs, n);
    return found;
}

static void describe_device(const char *root, unsigned maj, unsigned min, bool btrfs,
                            struct si_target *t)
{
    char dir[PATH_MAX];
    if (!sysfs_dev_dir(root, maj, min, dir, sizeof dir)) {
        sb_fmt(t->device, sizeof t->device, "%u:%u", maj, min);
        return;
    }
    const char *top = strrchr(dir, '/');
    top = top ? top + 1 : dir;
    char leaves[512] = "", first[PATH_MAX] = "";
    if (btrfs && btrfs_members(root, top, leaves, sizeof leaves, first, sizeof first)) {
        sb_fmt(t->device, sizeof t->device, "%s", leaves);
    } else {
        leaf_disks(root, dir, 0, leaves, sizeof leaves, first, sizeof first);
        if (!strcmp(leaves, top))
            sb_fmt(t->device, sizeof t->device, "%s", top);
        else
            sb_fmt(t->device, sizeof t->device, "%s on %s", top, leaves);
    }
    char p[PATH_MAX];
    char *m = si_disk_model(root, first);
    if (m)
        sb_fmt(t->model, sizeof t->model, "%s", m);
    free(m);
    sb_fmt(p, sizeof p, "%s/queue/scheduler", first);
    char *text = si_slurp(root, p);
    char *s = sb_sysinfo_scheduler(text);
    if (s)
        sb_fmt(t->scheduler, sizeof t->scheduler, "%s", s);
    free(s);
    free(text);
    sb_fmt(p, sizeof p, "%s/queue/rotational", first);
    char *r = si_slurp_attr(root, p);
    if (r && (r[0] == '0' || r[0] == '1'))
        sb_fmt(t->rotational, sizeof t->rotational, "%s", r[0] == '1' ? "Yes" : "No");
    free(r);
}

/* Value of name=... in a comma-separated option list, or NULL. Caller frees. */
static char *option_value(const char *opts, const char *name)
{
    size_t nl = strlen(name);
    for (const char *p = opts; p && *p;) {
        const char *c = strchr(p, ',');
        size_t l = c ? (size_t)(c - p) : strlen(p);
        if (l > nl && !strncmp(p, name, nl) && p[nl] == '=')
            return sb_xstrndup(p + nl + 1, l - nl - 1);
        p = c ? c + 1 : NULL;
    }
    return NULL;
}

void si_describe_target(const char *root, const char *path, struct si_target *t, int depth)
{
    char *mi = si_slurp(root, "/proc/self/mountinfo");
    sb_sysinfo_mount m;
    int rc = sb_sysinfo_mountinfo_find(mi, path, &m);
    free(mi);
    if (rc < 0)
        return;
    if (depth == 0) {
        sb_fmt(t->fstype, sizeof t->fstype, "%s", m.fstype);
        sb_fmt(t->mount_point, sizeof t->mount_point, "%s", m.mount_point);
        sb_fmt(t->source, sizeof t->source, "%s", m.source);
        char *o = sb_sysinfo_merge_options(m.mount_opts, m.super_opts);
        sb_fmt(t->options, sizeof t->options, "%s", o);
        free(o);
    }
    unsigned maj = m.major, min = m.minor;
    /* btrfs (and others) report an anonymous 0:N device; the source names the real one. */
    if (maj == 0 && !strncmp(m.source, "/dev/", 5)) {
        char full[PATH_MAX];
        struct stat st;
        sb_fmt(full, sizeof full, "%s%s", root, m.source);
        if (stat(full, &st) == 0 && S_ISBLK(st.st_mode)) {
            maj = major(st.st_rdev);
            min = minor(st.st_rdev);
        } else {
            /* no device node to stat (a fixture root): sysfs knows the number by name */
            char p[PATH_MAX];
            sb_fmt(p, sizeof p, "/sys/class/block/%s/dev", strrchr(m.source, '/') + 1);
            char *dev = si_slurp_attr(root, p);
            if (!dev || sscanf(dev, "%u:%u", &maj, &min) != 2)
                maj = min = 0;
            free(dev);
        }
    }
    if (maj != 0) {
        describe_device(root, maj, min, !strcmp(m.fstype, "btrfs"), t);
    } else if (!strcmp(m.fstype, "overlay") && depth == 0) {
        /* An overlay writes into its upper directory: describe the storage behind that. */
        char *upper = option_value(m.super_opts, "upperdir");
        if (upper && upper[0] == '/')
            si_describe_target(root, upper, t, depth + 1);
        free(upper);
        if (!t->device[0])
            sb_fmt(t->device, sizeof t->device, "None");
    } else if (depth == 0) {
        sb_fmt(t->device, sizeof t->device, "None");
    }
    sb_sysinfo_mount_free(&m);
}
