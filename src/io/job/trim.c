/*
 * trim — fio's trim, randtrim and trimwrite: discarding blocks. On a file a trim
 * punches a hole (fallocate PUNCH_HOLE | KEEP_SIZE: the size stays, the blocks go back
 * to the file system, which may pass the discard down); on a block device it is a
 * BLKDISCARD of the range, as fio's os_trim. Like fio's asynchronous engines, which
 * trim synchronously at queue time, every engine's trims are done here, one call each,
 * by the worker thread (loop.c), and counted in the third direction (fio's "trim").
 *
 * Whether the target discards at all is asked when each file is opened for the run,
 * before anything is measured: a file system without hole punching, or a device
 * without discard, refuses the job with one line naming EOPNOTSUPP. Under zonemode=zbd a
 * trim is fio's: a reset of one zone (zbd.c), bs the zone size, nothing discarded.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/falloc.h>
#include <linux/fs.h>

#include "io/run/worker.h"
#include "io/job/zbd.h"

int sb_io_trim_check(const sb_io_job *job, char *err, size_t errlen)
{
    if (!sb_rw_trims(job->rw))
        return 0;
    if (job->verify || job->verify_pattern || job->verify_only) {
        snprintf(err, errlen, "verify with rw=%s is not supported (a trimmed block has no data "
                 "to check)", sb_rw_name(job->rw));
        return -EINVAL;
    }
    if (sb_engine_can(job->engine, SB_ENGINE_MAPS)) {
        snprintf(err, errlen, "the %s engine cannot trim (rw=%s)", job->engine, sb_rw_name(job->rw));
        return -EINVAL;
    }
    /* zonemode=zbd: each trim resets one zone (zbd.c), so it is a zone, as fio's
     * zbd_verify_bs; trimwrite's write would bypass the write pointers */
    if (job->zonemode == SB_ZONEMODE_ZBD && job->rw == SB_RW_TRIMWRITE) {
        snprintf(err, errlen, "rw=trimwrite with zonemode=zbd is not supported (trim or randtrim are)");
        return -EINVAL;
    }
    if (job->zonemode == SB_ZONEMODE_ZBD && job->bs != job->zonesize) {
        snprintf(err, errlen, "rw=%s with zonemode=zbd: bs %" PRIu64 " is not the zone size %" PRIu64
                 " (each trim resets one zone, as fio)", sb_rw_name(job->rw), job->bs, job->zonesize);
        return -EINVAL;
    }
    return 0;
}

/* The trim of u: under zonemode=zbd, a zone with a write pointer was reset when the trim
 * was placed (zbd.c) and nothing is discarded (as fio, which moves an emulated zone's
 * pointer only); else a discard. */
int64_t sb_io_trim_u(const worker *w, const sb_io_u *u)
{
    if (w->zbd && sb_zbd_trim_is_reset(w->zbd, u->offset))
        return u->len;
    return sb_io_trim(w->td.fd, w->trim_blk, u->offset, u->len);
}

int64_t sb_io_trim(int fd, bool blkdev, uint64_t off, uint32_t len)
{
    int r;
    if (blkdev) {
        uint64_t range[2] = {off, len};
        r = ioctl(fd, BLKDISCARD, range);
    } else {
        r = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len);
    }
    return r < 0 ? -(int64_t)errno : (int64_t)len;
}

/* A block device discards unless its queue says it takes 0 bytes of discard at once
 * (/sys/dev/block/M:m/queue/discard_max_bytes, a partition's in its disk's queue); when
 * that cannot be read, the trims themselves will tell. */
static bool device_discards(dev_t rdev)
{
    const char *fmt[] = {"/sys/dev/block/%u:%u/queue/discard_max_bytes",
                         "/sys/dev/block/%u:%u/../queue/discard_max_bytes"};
    for (int i = 0; i < 2; i++) {
        char path[128];
        snprintf(path, sizeof path, fmt[i], major(rdev), minor(rdev));
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        unsigned long long v = 1;
        int ok = fscanf(f, "%llu", &v);
        fclose(f);
        return ok != 1 || v > 0;
    }
    return true;
}

/* Whether fd discards, without touching a byte of data: a block device by its queue's
 * limits, a file by a hole punched past the job's region and its end (nothing there to
 * free). */
int sb_io_trim_probe(const sb_io_job *job, int fd, const char *path, bool *blkdev, char *err,
                     size_t errlen)
{
    struct stat st;
    if (fstat(fd, &st) < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    *blkdev = S_ISBLK(st.st_mode);
    if (!sb_rw_trims(job->rw) || job->zonemode == SB_ZONEMODE_ZBD) /* zone resets, not discards */
        return 0;
    int64_t r;
    if (*blkdev) {
        r = device_discards(st.st_rdev) ? 0 : -EOPNOTSUPP;
    } else {
        uint64_t end = job->offset + job->size, from = (uint64_t)st.st_size > end ? (uint64_t)st.st_size : end;
        from = (from + 4095) & ~4095ull;
        r = sb_io_trim(fd, false, from, 4096);
    }
    if (r == -EOPNOTSUPP || r == -ENOTTY || r == -ENOSYS) {
        snprintf(err, errlen, "%s: rw=%s: the target does not discard (%s refused: EOPNOTSUPP, %s)",
                 path, sb_rw_name(job->rw), *blkdev ? "BLKDISCARD" : "fallocate PUNCH_HOLE",
                 strerror(EOPNOTSUPP));
        return -EOPNOTSUPP;
    }
    if (r < 0) {
        snprintf(err, errlen, "%s: rw=%s: a trim was refused: %s", path, sb_rw_name(job->rw),
                 strerror((int)-r));
        return (int)r;
    }
    return 0;
}
