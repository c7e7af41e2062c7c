/*
 * zbd_blk — what zonemode=zbd (zbd.h) asks a zoned block device: its model and limits
 * from sysfs (/sys/dev/block/MAJ:MIN/queue/zoned, max_open_zones; a partition asks its
 * disk), its zones (BLKREPORTZONE, in sectors, converted to bytes) and zone resets
 * (BLKRESETZONE). Conditions read-only and offline are used as fio uses them: not at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/blkzoned.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "io/job/zbd.h"

/* The first line of a sysfs attribute of path's disk, or "" when there is none. */
static void disk_attr(const char *path, const char *attr, char *out, size_t len)
{
    struct stat st;
    char link[512], dev[64], p[700];
    out[0] = '\0';
    if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
        return;
    snprintf(dev, sizeof dev, "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
    ssize_t n = readlink(dev, link, sizeof link - 1);
    if (n < 0)
        return;
    link[n] = '\0';
    /* a partition (it has a "partition" file): its disk is the directory above */
    snprintf(p, sizeof p, "%s/partition", dev);
    if (access(p, F_OK) == 0) {
        char *slash = strrchr(link, '/');
        if (slash)
            *slash = '\0';
    }
    snprintf(p, sizeof p, "/sys/dev/block/%s/%s", link, attr);
    FILE *f = fopen(p, "r");
    if (!f)
        return;
    if (!fgets(out, (int)len, f))
        out[0] = '\0';
    fclose(f);
    out[strcspn(out, "\n")] = '\0';
}

int sb_zbd_blk_model(const char *path)
{
    char m[64];
    disk_attr(path, "queue/zoned", m, sizeof m);
    if (!strcmp(m, "host-managed"))
        return SB_ZBD_MODEL_HOST_MANAGED;
    if (!strcmp(m, "host-aware"))
        return SB_ZBD_MODEL_HOST_AWARE;
    return SB_ZBD_MODEL_NONE;
}

uint64_t sb_zbd_blk_zone_size(const char *path)
{
    if (sb_zbd_blk_model(path) == SB_ZBD_MODEL_NONE)
        return 0;
    char s[64];
    disk_attr(path, "queue/chunk_sectors", s, sizeof s); /* the zone size, in sectors */
    return strtoull(s, NULL, 10) << 9;
}

unsigned sb_zbd_blk_max_open(const char *path)
{
    char s[64];
    disk_attr(path, "queue/max_open_zones", s, sizeof s);
    return (unsigned)strtoul(s, NULL, 10);
}

void sb_zbd_blk_zone(const void *zone, uint32_t report_flags, sb_zbd_report *out)
{
    const struct blk_zone *z = zone;
    out->start = z->start << 9;
    out->len = z->len << 9;
    out->wp = z->wp << 9;
    /* kernels before 5.9 report no capacity: the whole zone */
    out->capacity = (report_flags & BLK_ZONE_REP_CAPACITY) ? z->capacity << 9 : out->len;
    out->type = z->type;
    out->cond = z->cond;
    if (z->cond == BLK_ZONE_COND_READONLY || z->cond == BLK_ZONE_COND_OFFLINE ||
        (z->cond > BLK_ZONE_COND_CLOSED && z->cond != BLK_ZONE_COND_FULL)) {
        out->cond = SB_ZBD_COND_OFFLINE;
        out->wp = out->start;
    }
}

int sb_zbd_blk_report(int fd, uint64_t from, sb_zbd_report *zones, unsigned n)
{
    struct blk_zone_report *h = calloc(1, sizeof *h + (size_t)n * sizeof(struct blk_zone));
    if (!h)
        return -ENOMEM;
    h->sector = from >> 9;
    h->nr_zones = n;
    int r = ioctl(fd, BLKREPORTZONE, h) < 0 ? -errno : 0;
    if (r == 0) {
        for (unsigned i = 0; i < h->nr_zones && i < n; i++)
            sb_zbd_blk_zone(&h->zones[i], h->flags, &zones[i]);
        r = (int)(h->nr_zones < n ? h->nr_zones : n);
        if (r == 0)
            r = -EIO; /* an empty report: the device answers nothing (fio's reading) */
    }
    free(h);
    return r;
}

int sb_zbd_blk_reset(int fd, uint64_t off, uint64_t len)
{
    struct blk_zone_range zr = {.sector = off >> 9, .nr_sectors = len >> 9};
    return ioctl(fd, BLKRESETZONE, &zr) < 0 ? -errno : 0;
}
