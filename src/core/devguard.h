/*
 * devguard — the one check every command makes before it writes, trims or formats a
 * block device (docs/safety.md, "Block devices"): storbench never touches a device in
 * use, nor data the user did not give up.
 *
 * In use: mounted (by device number, mountinfo; also a partition of it), swap, held by
 * another block device (md, dm, bcache, LVM: sysfs holders, also a partition's), claimed
 * exclusively (an O_EXCL open fails), or a loop device whose backing file is also behind
 * another loop device that is in use, or lives on the device itself. fio's
 * allow_mounted_write=1 lifts the mounted rule alone. Data: a device that carries a
 * signature libblkid recognises (a filesystem, a partition table, RAID, LVM, bcache,
 * swap) is written only when the user named it (--destroy-data-on, the consent set).
 *
 * A claim keeps the device open with O_EXCL while the command runs, so that nothing
 * mounts or assembles it meanwhile; the command's own threads open it without O_EXCL.
 * Two O_EXCL opens conflict even in one process, so a command claims each device once
 * (sb_devguard_claim skips one it holds) and lower layers check without claiming.
 */
#ifndef SB_CORE_DEVGUARD_H
#define SB_CORE_DEVGUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#define SB_DEVGUARD_CONSENT_MAX 16
#define SB_DEVGUARD_HOLD_MAX 64

/* What the user gave up (--destroy-data-on): block devices by device number, files by
 * filesystem and inode, as they were when named. */
typedef struct sb_devguard_consent {
    unsigned n;
    struct {
        uint64_t dev; /* a block device's st_rdev, or a file's st_dev */
        uint64_t ino; /* a file's inode; 0 for a block device */
    } item[SB_DEVGUARD_CONSENT_MAX];
} sb_devguard_consent;

typedef struct sb_devguard_rules {
    bool allow_mounted;   /* fio's allow_mounted_write=1: the mounted rule is lifted */
    bool probe_exclusive; /* try an O_EXCL open (not where this process claimed it) */
    bool data_given_up;   /* the caller has the user's consent already (no signature check) */
    const sb_devguard_consent *consent; /* NULL: the command has no --destroy-data-on */
} sb_devguard_rules;

/* The devices a command holds with O_EXCL. Zeroed is empty. */
typedef struct sb_devguard {
    unsigned n;
    struct {
        uint64_t rdev;
        int fd; /* -1: checked but not held (mounted under allow_mounted_write) */
    } held[SB_DEVGUARD_HOLD_MAX];
} sb_devguard;

/* Adds path (an existing block device or file) to c. 0, or -errno with one line. */
int sb_devguard_consent_add(sb_devguard_consent *c, const char *path, char *err, size_t errlen);
/* Whether st (of a block device or a file) is one the user gave up. */
bool sb_devguard_consented(const sb_devguard_consent *c, const struct stat *st);

/* Whether path may be written: 0 when it is not a block device or passes every rule;
 * -EBUSY (in use) or -EPERM (carries data, not given up) or -errno, with one line in
 * err naming the device, what holds it or what it carries, and the way out. */
int sb_devguard_check(const char *path, const sb_devguard_rules *r, char *err, size_t errlen);
/* sb_devguard_check with the exclusive probe, then the device held open O_EXCL in g
 * until sb_devguard_release. A device g already holds passes at once. */
int sb_devguard_claim(sb_devguard *g, const char *path, const sb_devguard_rules *r, char *err,
                      size_t errlen);
void sb_devguard_release(sb_devguard *g);

/* The device numbers of the block device named name (number rdev, the kernel's name:
 * "loop3") and of its partitions, into devs[0 .. max): how many (at least 1). */
size_t sb_devguard_family(const char *name, dev_t rdev, dev_t *devs, size_t max);

/* What a device carries, as libblkid names it ("ext4 (filesystem)", "gpt partition
 * table", "several signatures"), or "" when nothing known. fd open for reading. */
void sb_devguard_signature(int fd, char *out, size_t len);

#endif
