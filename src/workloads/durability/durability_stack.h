/*
 * durability_stack — the small storage stack the durability test builds and
 * takes apart (durability.c says why): a recorder that logs every write, flush
 * and FUA the filesystem sends to its device, in dm-log-writes format
 * (writelog.h), loop devices, mounts and mkfs.
 *
 * Two recorders. dm-log-writes (the kernel's target, through dmsetup) where the
 * kernel has device-mapper and the module; otherwise a FUSE file: the device is a
 * loop device over a file that storbench serves through FUSE (libfuse3), so every
 * write the loop driver passes down arrives at storbench, which logs it before
 * completing it, and every flush (the loop driver turns PREFLUSH and the flush of
 * an emulated FUA into fsync of its file) arrives as FUSE's FSYNC and is logged
 * as a FLUSH entry. Marks are logged by storbench itself, in order with both.
 * The FUSE file is served by the run's guardian, a process of its own
 * (durability_guard.h), which also takes the stack apart if the run is killed.
 */
#ifndef SB_DURABILITY_STACK_H
#define SB_DURABILITY_STACK_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workloads/durability/writelog.h"

typedef enum dur_rec_kind { DUR_REC_FUSE, DUR_REC_DM } dur_rec_kind;

struct dur_guard;

#include "workloads/durability/durability_fuse.h" /* the FUSE file the guardian serves */

typedef struct dur_recorder {
    dur_rec_kind kind;
    struct dur_guard *guard;   /* serves the FUSE file; journals the dm name */
    char dev[PATH_MAX];        /* the recorded block device to make the filesystem on */
    /* FUSE */
    char mnt[PATH_MAX];
    bool serving;              /* the guardian serves the FUSE file */
    int loop_fd;               /* the loop device over the FUSE file, or over the DM data image */
    /* dm-log-writes */
    uint64_t size;
    char dm_name[64];
    int log_loop_fd;
    char log_dev[64];
    int err;                   /* first recording error */
} dur_recorder;

/* Why a recorder cannot run here (one line), or "" when `kind` can. */
void dur_rec_probe(dur_rec_kind kind, char *why, size_t len);
/* Starts recording writes to image (a file of the device's size) into log_path;
 * work is a private directory for mount points; guard the run's guardian. r->dev
 * names the device. */
int dur_rec_start(dur_recorder *r, dur_rec_kind kind, struct dur_guard *guard, const char *image,
                  const char *log_path, const char *work, char *err, size_t errlen);
/* Logs a mark (in order with the writes and flushes before it). */
int dur_rec_mark(dur_recorder *r, const char *text);
/* Stops recording; the log at log_path is then complete. Safe after a failed start. */
int dur_rec_stop(dur_recorder *r, char *err, size_t errlen);

/* A loop device over file: its path in dev, its descriptor (held until detach) in *fd. */
int dur_loop_attach(const char *file, char *dev, size_t devlen, int *fd, char *err, size_t errlen);
void dur_loop_detach(int *fd);
/* A sparse copy of src into a new file dst (reflinked where the filesystem can). */
int dur_copy_image(const char *src, const char *dst, char *err, size_t errlen);

#endif
