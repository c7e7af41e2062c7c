/*
 * undo — removing one object a scenario run made (see undo.c), with nothing
 * but system calls: state.c replays its journal through sb_undo(), which
 * looks the journal line's kind up in one table {kind, undo function}
 * (docs/scenarios.md, "Cleanup", lists the kinds). Each returns 0 when the
 * object is gone or was no longer ours, else -errno with one line in err;
 * what was done is reported on log (may be NULL).
 */
#ifndef SB_SCENARIO_UNDO_H
#define SB_SCENARIO_UNDO_H

#include <stddef.h>
#include <stdio.h>

/* Kinds of objects (a journal line's first word), undone in reverse order of creation. */
#define SB_ST_IMAGE "image"       /* a: image file path */
#define SB_ST_LOOP "loop"         /* a: /dev/loopN, b: backing image path */
#define SB_ST_DIR "dir"           /* a: directory we created (mount point) */
#define SB_ST_MOUNT "mount"       /* a: mount point */
#define SB_ST_BTRFS "btrfs"       /* a: device to unregister from btrfs after unmount */
#define SB_ST_BCACHE "bcache"     /* a: backing device (stopped via sysfs), b: cache set uuid */
#define SB_ST_MD "md"             /* a: /dev/mdN, b: its members, comma-separated */
#define SB_ST_NBDKIT "nbdkit"     /* a: its pid, b: its unix socket (--vm device-model, vm_nbd.h) */
#define SB_ST_FUSE "fuse"         /* a: the modeled devices' FUSE mount point (modeled.h) */

/* One row of the table: a kind and how an object of it is taken apart. */
typedef struct sb_undo_kind {
    const char *kind;
    int (*undo)(const char *a, const char *b, FILE *log, char *err, size_t errlen);
    const char *what; /* for docs/scenarios.md: what is undone, and how */
} sb_undo_kind;
/* The table, ending with {NULL}. */
extern const sb_undo_kind sb_undo_kinds[];

/* Undoes one journaled object of kind with its fields a and b. A kind not in the table
 * (a journal from a newer storbench) is left alone: 0. */
int sb_undo(const char *kind, const char *a, const char *b, FILE *log, char *err, size_t errlen);

/* Unmounts mountpoint if it still is one (a busy one is detached lazily). */
int sb_undo_umount(const char *mountpoint, FILE *log, char *err, size_t errlen);
/* Tells btrfs to forget dev (best effort: a stale registration is harmless). */
void sb_undo_btrfs_forget(const char *dev);
/* Stops bcache on the backing device and unregisters the cache set cset (may be ""). */
int sb_undo_bcache_stop(const char *backing, const char *cset, FILE *log, char *err, size_t errlen);
/* Detaches loop device dev if it is still backed by image (and only then). */
int sb_undo_loop_detach(const char *dev, const char *image, FILE *log, char *err, size_t errlen);
/* Removes a mount-point directory we created; one already gone is fine. */
int sb_undo_rmdir(const char *dir, FILE *log, char *err, size_t errlen);
/* Removes an image file we created; one already gone is fine. */
int sb_undo_unlink_image(const char *path, FILE *log, char *err, size_t errlen);

/* Stops nbdkit process pid if it still is an nbdkit serving on socket sock (and only
 * then: a pid reused by anything else is left alone), then removes the socket. */
int sb_undo_nbdkit(const char *pid, const char *sock, FILE *log, char *err, size_t errlen);
/* undo_fuse.c: unmounts the modeled devices' FUSE mount on mountpoint if it still is
 * one, aborting its connection (fusectl) when a plain unmount is refused. */
int sb_undo_fuse(const char *mountpoint, FILE *log, char *err, size_t errlen);

/* Stops /dev/mdN if its members are still the journaled ones (members: comma-separated
 * device paths), and clears their superblocks. 0 or -errno with one line in err. */
int sb_undo_md_stop(const char *md_dev, const char *members, FILE *log, char *err, size_t errlen);

#endif
