/*
 * durability_fuse — the FUSE file of the durability test's FUSE recorder
 * (durability_fuse.c): durability_guard.c serves it, durability_stack.c builds the
 * stack over it. A module of its own, below both, so that neither calls the other's
 * code for it (no circle of objects or includes).
 */
#ifndef SB_WORKLOADS_DURABILITY_FUSE_H
#define SB_WORKLOADS_DURABILITY_FUSE_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "workloads/durability/writelog.h"

/* The FUSE file: served by the guardian process (durability_guard.h), never by the
 * process that writes through it, so that the writer's death cannot leave its own
 * filesystem waiting for a server that died with it. */
typedef struct dur_fuse_server {
    char mnt[PATH_MAX];        /* where the FUSE file system is mounted; its file is "disk" */
    int img_fd;
    uint64_t size;
    writelog_writer log;
    bool log_open;
    void *fuse;                /* struct fuse * */
    pthread_t thr;
    bool mounted, running;
    int err;                   /* first recording error (a log write failed) */
} dur_fuse_server;

/* Serves image (a file of the device's size) as mnt/disk, logging every write and
 * flush into log_path, from a thread of the calling process. */
int dur_fuse_serve(dur_fuse_server *s, const char *image, const char *log_path, const char *mnt,
                   char *err, size_t errlen);
/* Logs a mark, in order with the writes and flushes served before it. */
int dur_fuse_mark(dur_fuse_server *s, const char *text);
/* Unmounts, stops the thread and completes the log: 0 or the first recording error.
 * Safe after a failed dur_fuse_serve(). */
int dur_fuse_end(dur_fuse_server *s);

#endif
