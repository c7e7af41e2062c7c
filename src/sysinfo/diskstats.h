/*
 * diskstats — the block device under a path and its /sys/block counters, read before
 * and after a run so that the difference says what the disk did meanwhile (fio's
 * disk_util). The device is the whole disk holding the path's filesystem (a
 * partition's parent); a filesystem without one (tmpfs, overlay, NFS) has none.
 */
#ifndef SB_SYSINFO_DISKSTATS_H
#define SB_SYSINFO_DISKSTATS_H

#include <stdbool.h>
#include <stdint.h>

/* /sys/block/NAME/stat, the fields fio reads (Documentation/block/stat.rst). */
typedef struct sb_diskstat {
    char name[64];
    char dir[4096];            /* the device's sysfs directory */
    uint64_t ios[2], merges[2], sectors[2], ticks[2];
    uint64_t io_ticks, time_in_queue;
} sb_diskstat;

/* The disk under path (or, when path does not exist yet, under its directory), counters
 * read now. 0, or -errno (-ENODEV: no block device under it). */
int sb_diskstat_for_path(const char *path, sb_diskstat *d);
/* Reads d's counters again. 0 or -errno. */
int sb_diskstat_read(sb_diskstat *d);

/* What a disk did between two readings, as fio's disk_util: I/Os, merges and ticks (ms)
 * per direction, time in queue, and the share of the elapsed time it was busy. */
typedef struct sb_diskstat_delta {
    uint64_t ios[2], merges[2], ticks[2], in_queue;
    double util_pct;           /* io_ticks over the elapsed time, at most 100 */
} sb_diskstat_delta;
/* The counters now against before's, over elapsed_ms. 0, or -errno (*out zero). */
int sb_diskstat_since(const sb_diskstat *before, double elapsed_ms, sb_diskstat_delta *out);

#endif
