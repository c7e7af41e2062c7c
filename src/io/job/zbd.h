/*
 * zbd — fio's zonemode=zbd (issue 27): I/O to a zoned block device, or to zones
 * emulated on a regular file or a device that is not zoned (fio's "none" model: every
 * zone sequential-write-required, empty when the run starts, zonesize given, its
 * capacity zonecapacity or the whole zone). Each zone has a write pointer; a write goes
 * only to the write pointer of its zone (a random write picks a zone by its random
 * offset and writes at that zone's pointer), a read only below it unless
 * read_beyond_wp. A full zone is reset before it is written again; max_open_zones and
 * job_max_open_zones bound the zones being written, zone_reset_threshold and
 * zone_reset_frequency add resets as garbage collection would. Semantics learnt from
 * fio 3.33's HOWTO and zbd.c (not its code): docs/io.md "Zoned block devices".
 *
 * One zone set per file or device (sb_zbd_set), shared by every job and thread of the
 * process that uses it, and kept across a job file's phases (a write job's zones are
 * what a later read job reads), as fio keeps its zone information for all its jobs.
 * A reset of an emulated zone moves the pointer only, as fio's: the data stays.
 * zbd_blk.c talks to the kernel (BLKREPORTZONE, BLKRESETZONE, sysfs).
 */
#ifndef SB_IO_ZBD_H
#define SB_IO_ZBD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/job.h"

typedef struct sb_zbd_set sb_zbd_set;
typedef struct sb_zbd_thread sb_zbd_thread;

/* Zone models (the device's /sys/block/X/queue/zoned), fio's. */
enum { SB_ZBD_MODEL_NONE = 0, SB_ZBD_MODEL_HOST_AWARE, SB_ZBD_MODEL_HOST_MANAGED };
/* Zone types and conditions as linux/blkzoned.h numbers them. */
enum { SB_ZBD_TYPE_CONV = 1, SB_ZBD_TYPE_SWR = 2, SB_ZBD_TYPE_SWP = 3 };
enum {
    SB_ZBD_COND_NOT_WP = 0, SB_ZBD_COND_EMPTY = 1, SB_ZBD_COND_IMP_OPEN = 2,
    SB_ZBD_COND_EXP_OPEN = 3, SB_ZBD_COND_CLOSED = 4, SB_ZBD_COND_READONLY = 0xd,
    SB_ZBD_COND_FULL = 0xe, SB_ZBD_COND_OFFLINE = 0xf,
};
#define SB_ZBD_MAX_OPEN SB_ZBD_MAX_OPEN_ZONES

/* One zone as a device reports it, in bytes (zbd_blk.c). */
typedef struct sb_zbd_report {
    uint64_t start, len, wp, capacity;
    int type, cond;
} sb_zbd_report;

/* The zone set of path (opened by the run: created says this run made the file, so a set
 * left by an earlier file of that inode is stale). A zoned device's zones are read from
 * it; otherwise they are emulated over the file's or device's size. 0, or -errno with one
 * line in err (-EINVAL: the job does not fit the device: zonesize, max_open_zones). */
int sb_zbd_attach(const sb_io_job *job, const char *path, bool created, sb_zbd_set **out,
                  char *err, size_t errlen);
/* The job is done with it; forget: its file is gone (the set goes with it). */
void sb_zbd_detach(sb_zbd_set *s, bool forget);

/* One worker's view: its region's zones, fd for resets of a device's zones. */
int sb_zbd_thread_new(sb_zbd_set *s, const sb_io_job *job, int fd, sb_zbd_thread **out,
                      char *err, size_t errlen);
void sb_zbd_thread_free(sb_zbd_thread *t);
/* The zone resets it made (fio's "N zone resets"). */
uint64_t sb_zbd_resets(const sb_zbd_thread *t);

/* What sb_zbd_place() says. */
enum {
    SB_ZBD_OK = 0,    /* *ddir, *offset, *len are the I/O to issue */
    SB_ZBD_PASS_END,  /* sequential: nothing more in this pass (reads up to the pointers):
                       * count a pass, then ask again (the next pass starts over) */
    SB_ZBD_BUSY,      /* no zone can take the write until I/O in flight completes: reap,
                       * then ask again with the same arguments */
    SB_ZBD_EOF,       /* nothing to do at all (no zone holds data to read) */
    SB_ZBD_ERR,       /* a reset failed: sb_zbd_error() says why */
};

/* Places the next I/O. off: a random job's offset (its block drawn as without zones);
 * a sequential job's position is the zone code's own, and *pass_end is set when the
 * pass's size is done. *ddir may turn a first read of an empty mixed job into a write,
 * as fio's. */
int sb_zbd_place(sb_zbd_thread *t, uint64_t off, int *ddir, uint64_t *offset, uint32_t *len,
                 bool *pass_end);
/* An I/O placed by this thread has completed (ok: in full). */
void sb_zbd_done(sb_zbd_thread *t, int ddir, uint64_t offset, uint32_t len, bool ok);
/* A placed I/O that was not issued (the runtime ended first): a write's pointer goes
 * back (a reset it needed stays done). */
void sb_zbd_cancel(sb_zbd_thread *t, int ddir, uint64_t offset, uint32_t len);
/* Nothing this thread placed is in flight. */
bool sb_zbd_idle(const sb_zbd_thread *t);
/* Whether a trim placed at off was its zone's reset, done by sb_zbd_place (the zone has
 * a write pointer): then the trim discards nothing. */
bool sb_zbd_trim_is_reset(const sb_zbd_thread *t, uint64_t off);
/* The failure behind SB_ZBD_ERR: -errno and its line. */
int sb_zbd_error(const sb_zbd_thread *t, const char **msg);

/* ---- zbd_blk.c: the kernel's zoned block devices ---- */

/* The zone model of a block device (path names it; a partition's disk is asked). */
int sb_zbd_blk_model(const char *path);
/* Its zone size in bytes, 0 when it is not zoned. */
uint64_t sb_zbd_blk_zone_size(const char *path);
/* Its limit of open zones (queue/max_open_zones), 0 = none. */
unsigned sb_zbd_blk_max_open(const char *path);
/* Up to n zones from byte offset from: how many, or -errno. */
int sb_zbd_blk_report(int fd, uint64_t from, sb_zbd_report *zones, unsigned n);
/* Resets the write pointers of [off, off + len): 0 or -errno. */
int sb_zbd_blk_reset(int fd, uint64_t off, uint64_t len);
/* One zone of the kernel's report (struct blk_zone, its report's flags) in bytes: for
 * the report above, and for the unit test, which has no zoned device to ask. */
void sb_zbd_blk_zone(const void *blk_zone, uint32_t report_flags, sb_zbd_report *out);

#endif
