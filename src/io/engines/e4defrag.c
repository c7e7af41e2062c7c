/*
 * engine_e4defrag — fio's e4defrag: no data moves; each write asks ext4 to swap the
 * write's blocks with those of a donor file (EXT4_IOC_MOVE_EXT), the online
 * defragmenter's call, so the job measures defragmentation under whatever else runs.
 * The donor (donorname, in the job's directory when it has one) is created by the job
 * (O_EXCL: never someone's file) and removed after; it is allocated once over the job's
 * range, or with inplace=1 allocated before each move and truncated after it, as fio's.
 * A write counts the bytes ext4 says it moved. Only on ext4: another file system is
 * refused at start with one line naming it.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "io/engine.h"
#include "io/job.h"

#define E4_SUPER_MAGIC 0xEF53 /* linux/magic.h's EXT4_SUPER_MAGIC (ext2/3 share it) */

/* linux/ext4.h is not a uapi header everywhere: the ioctl's argument, as the kernel has it */
struct e4_move_extent {
    __u32 reserved;    /* zero */
    __u32 donor_fd;
    __u64 orig_start;  /* in blocks */
    __u64 donor_start;
    __u64 len;         /* blocks to move */
    __u64 moved_len;   /* blocks moved (out) */
};
#define E4_IOC_MOVE_EXT _IOWR('f', 15, struct e4_move_extent)

typedef struct e4_data {
    int donor;
    unsigned bsz;      /* the donor's block size: the ioctl's unit */
    bool inplace;
    char path[PATH_MAX];
} e4_data;

static int e4_open_donor(sb_engine_td *td, e4_data *d)
{
    const sb_io_job *job = td->job;
    int n = job->directory[0] ? snprintf(d->path, sizeof d->path, "%s/%s", job->directory, job->donorname)
                              : snprintf(d->path, sizeof d->path, "%s", job->donorname);
    if (n < 0 || (size_t)n >= sizeof d->path)
        return -ENAMETOOLONG;
    d->donor = open(d->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (d->donor < 0) {
        int e = errno;
        snprintf(td->why, sizeof td->why, "donorname %.120s: %s%s", d->path, strerror(e),
                 e == EEXIST ? " (the job makes its donor itself, and removes it after)" : "");
        return -e;
    }
    struct stat st;
    if (fstat(d->donor, &st) < 0)
        return -errno;
    d->bsz = st.st_blksize ? (unsigned)st.st_blksize : 4096;
    if (!d->inplace && fallocate(d->donor, 0, (off_t)job->offset, (off_t)job->size) < 0) {
        int e = errno;
        snprintf(td->why, sizeof td->why, "allocating the donor %.120s: %s", d->path, strerror(e));
        return -e;
    }
    return 0;
}

static void e4_cleanup(sb_engine_td *td)
{
    e4_data *d = td->data;
    if (!d)
        return;
    if (d->donor >= 0) {
        close(d->donor);
        unlink(d->path);
    }
    free(d);
    td->data = NULL;
}

static int e4_init(sb_engine_td *td)
{
    struct statfs fs;
    if (!td->job || !td->job->donorname[0])
        return -EINVAL; /* the job's check asks for donorname first */
    if (fstatfs(td->fd, &fs) == 0 && fs.f_type != E4_SUPER_MAGIC) {
        snprintf(td->why, sizeof td->why, "the file is not on ext4 (file system magic 0x%lx): "
                 "EXT4_IOC_MOVE_EXT is ext4's", (unsigned long)fs.f_type);
        return -EOPNOTSUPP;
    }
    e4_data *d = calloc(1, sizeof *d);
    if (!d)
        return -ENOMEM;
    d->donor = -1;
    d->inplace = td->job->e4_inplace;
    td->data = d;
    int r = e4_open_donor(td, d);
    if (r < 0)
        e4_cleanup(td);
    return r;
}

static int e4_queue(sb_engine_td *td, sb_io_u *u)
{
    e4_data *d = td->data;
    if (d->inplace && fallocate(d->donor, 0, (off_t)u->offset, (off_t)u->len) < 0) {
        u->result = -errno;
        return SB_Q_COMPLETED;
    }
    struct e4_move_extent me = {.donor_fd = (__u32)d->donor};
    me.orig_start = me.donor_start = u->offset / d->bsz;
    me.len = (u->offset + u->len + d->bsz - 1) / d->bsz - me.orig_start;
    int r = ioctl(td->fd, E4_IOC_MOVE_EXT, &me);
    int e = errno;
    uint64_t moved = me.moved_len * d->bsz;
    if (moved > u->len)
        moved = u->len;
    /* nothing moved without an error: beyond the file's end, as fio says */
    u->result = r < 0 ? -e : moved ? (int64_t)moved : -EINVAL;
    if (d->inplace && ftruncate(d->donor, 0) < 0 && u->result >= 0)
        u->result = -errno;
    return SB_Q_COMPLETED;
}

static const char *const e4_options[] = {"donorname", "inplace", NULL};
const sb_engine_ops sb_engine_e4defrag = {
    .name = "e4defrag",
    .rank = 13,
    .caps = SB_ENGINE_WRITES_ONLY | SB_ENGINE_NO_DATA,
    .options = e4_options,
    .description = "each write an EXT4_IOC_MOVE_EXT of its blocks with a donor file's (ext4)",
    .sync = true,
    .fd_own_thread = false, /* the donor's descriptor is opened in init */
    .init = e4_init,
    .queue = e4_queue,
    .fsync = sb_engine_fsync_fd,
    .cleanup = e4_cleanup,
};
SB_ENGINE_REGISTER(sb_engine_e4defrag);
