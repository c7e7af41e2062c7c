/*
 * diskstats — the disk under a path and its counters (diskstats.h): stat() the path
 * for its device number, /sys/dev/block/MAJ:MIN to the device's directory, up one to
 * the whole disk when it is a partition, then its stat file.
 */
#include "sysinfo/diskstats.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

int sb_diskstat_read(sb_diskstat *d)
{
    char p[PATH_MAX + 8];
    snprintf(p, sizeof p, "%s/stat", d->dir);
    FILE *f = fopen(p, "r");
    if (!f)
        return -errno;
    uint64_t v[11] = {0};
    int n = fscanf(f, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
                   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64, &v[0], &v[1], &v[2],
                   &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]);
    fclose(f);
    if (n != 11)
        return -EINVAL;
    d->ios[0] = v[0], d->merges[0] = v[1], d->sectors[0] = v[2], d->ticks[0] = v[3];
    d->ios[1] = v[4], d->merges[1] = v[5], d->sectors[1] = v[6], d->ticks[1] = v[7];
    d->io_ticks = v[9];
    d->time_in_queue = v[10];
    return 0;
}

int sb_diskstat_for_path(const char *path, sb_diskstat *d)
{
    struct stat st;
    memset(d, 0, sizeof *d);
    if (stat(path, &st) < 0) {
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%s", path);
        char *slash = strrchr(dir, '/');
        if (slash == dir)
            slash[1] = '\0';
        else if (slash)
            *slash = '\0';
        else
            snprintf(dir, sizeof dir, ".");
        if (stat(dir, &st) < 0)
            return -errno;
    }
    if (major(st.st_dev) == 0)
        return -ENODEV; /* tmpfs, overlay and other filesystems without a block device */
    char link[64], real[PATH_MAX], attr[PATH_MAX + 16];
    snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
    if (!realpath(link, real))
        return -ENODEV;
    snprintf(attr, sizeof attr, "%s/partition", real);
    if (access(attr, F_OK) == 0) {
        char *slash = strrchr(real, '/');
        if (slash)
            *slash = '\0';
    }
    const char *base = strrchr(real, '/');
    snprintf(d->name, sizeof d->name, "%.63s", base ? base + 1 : real);
    snprintf(d->dir, sizeof d->dir, "%s", real);
    return sb_diskstat_read(d);
}

int sb_diskstat_since(const sb_diskstat *before, double elapsed_ms, sb_diskstat_delta *out)
{
    sb_diskstat now = *before;
    memset(out, 0, sizeof *out);
    int rc = sb_diskstat_read(&now);
    if (rc < 0)
        return rc;
    for (int k = 0; k < 2; k++) {
        out->ios[k] = now.ios[k] - before->ios[k];
        out->merges[k] = now.merges[k] - before->merges[k];
        out->ticks[k] = now.ticks[k] - before->ticks[k];
    }
    out->in_queue = now.time_in_queue - before->time_in_queue;
    out->util_pct = elapsed_ms > 0 ? 100.0 * (double)(now.io_ticks - before->io_ticks) / elapsed_ms : 0;
    if (out->util_pct > 100)
        out->util_pct = 100;
    return 0;
}
