/*
 * engine_sg — fio's sg: each I/O a SCSI command through SG_IO on a SCSI generic device
 * (/dev/sgN) or a SCSI block device (/dev/sdX): READ(16) or, as sg_write_mode says,
 * WRITE(16), WRITE AND VERIFY(16), WRITE SAME(16) (with NDOB: no data out), VERIFY(16)
 * with BYTCHK 00, 01 or 11, or WRITE STREAM(16) of stream_id; readfua and writefua set
 * FUA, hipri asks the sg driver for polled completion (SGV4_FLAG_HIPRI). The logical
 * block size comes from READ CAPACITY(16) at start; offsets and lengths must be whole
 * blocks. Synchronous (one SG_IO per I/O), iodepth 1.
 *
 * A job on anything else — a regular file, a disk that does not take SG_IO (virtio-blk)
 * — is refused before the run with one line naming the missing device (job/check.c asks
 * SB_ENGINE_SCSI); writes to a device pass the device rules first (job/guard.c, which
 * finds the block device behind /dev/sgN).
 */
#include <errno.h>
#include <scsi/sg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "io/engine.h"
#include "io/job.h"

#define SG_HIPRI 0x800       /* sg v4's SGV4_FLAG_HIPRI (fio's hipri) */
#define SG_TIMEOUT_MS 30000

typedef struct sg_data {
    uint32_t lbs;            /* logical block size */
    unsigned char sense[64];
} sg_data;

static int sg_cmd(sb_engine_td *td, unsigned char *cdb, int dir, void *buf, uint32_t len)
{
    sg_data *d = td->data;
    sg_io_hdr_t h;
    memset(&h, 0, sizeof h);
    h.interface_id = 'S';
    h.cmd_len = 16;
    h.cmdp = cdb;
    h.dxfer_direction = len ? dir : SG_DXFER_NONE;
    h.dxferp = buf;
    h.dxfer_len = len;
    h.sbp = d->sense;
    h.mx_sb_len = sizeof d->sense;
    h.timeout = SG_TIMEOUT_MS;
    if (td->hipri)
        h.flags |= SG_HIPRI;
    if (ioctl(td->fd, SG_IO, &h) < 0)
        return -errno;
    if (h.status || h.host_status || h.driver_status)
        return -EIO; /* CHECK CONDITION and the like: the command failed on the device */
    return (int)(len - (uint32_t)h.resid);
}

static void put_be(unsigned char *p, uint64_t v, int n)
{
    for (int i = n - 1; i >= 0; i--, v >>= 8)
        p[i] = (unsigned char)v;
}

static int sg_init(sb_engine_td *td)
{
    sg_data *d = calloc(1, sizeof *d);
    if (!d)
        return -ENOMEM;
    td->data = d;
    unsigned char cdb[16] = {0x9e, 0x10}; /* SERVICE ACTION IN(16): READ CAPACITY(16) */
    unsigned char cap[32];
    put_be(cdb + 10, sizeof cap, 4);
    int r = sg_cmd(td, cdb, SG_DXFER_FROM_DEV, cap, sizeof cap);
    if (r < 12) {
        snprintf(td->why, sizeof td->why, "READ CAPACITY(16) through SG_IO failed (%s): not a SCSI "
                 "device that answers", strerror(r < 0 ? -r : EIO));
        free(d);
        td->data = NULL;
        return r < 0 ? r : -EIO;
    }
    d->lbs = (uint32_t)cap[8] << 24 | (uint32_t)cap[9] << 16 | (uint32_t)cap[10] << 8 | cap[11];
    if (!d->lbs || td->ios[0].len % d->lbs) {
        snprintf(td->why, sizeof td->why, "bs %u is not a multiple of the logical block size %u",
                 td->ios[0].len, d->lbs);
        free(d);
        td->data = NULL;
        return -EINVAL;
    }
    return 0;
}

/* The write's command, as sg_write_mode says: its opcode, byte 1 and how much data goes out. */
static unsigned char write_cdb(const sb_io_job *job, unsigned char *cdb, uint32_t len, uint32_t lbs,
                               uint32_t *out)
{
    int mode = job ? job->sg_write_mode : SB_SG_WRITE;
    bool fua = job && job->sg_writefua;
    *out = len;
    switch (mode) {
    case SB_SG_WRITE_VERIFY: cdb[0] = 0x8e; cdb[1] = 0x02; break;         /* BYTCHK 01 */
    case SB_SG_WRITE_SAME: cdb[0] = 0x93; *out = lbs; break;             /* one block, repeated */
    case SB_SG_WRITE_SAME_NDOB: cdb[0] = 0x93; cdb[1] = 0x01; *out = 0; break; /* NDOB: zeros */
    case SB_SG_VERIFY_00: cdb[0] = 0x8f; *out = 0; break;                /* the medium only */
    case SB_SG_VERIFY_01: cdb[0] = 0x8f; cdb[1] = 0x02; break;           /* compare len bytes */
    case SB_SG_VERIFY_11: cdb[0] = 0x8f; cdb[1] = 0x06; *out = lbs; break; /* one block to each */
    case SB_SG_WRITE_STREAM: cdb[0] = 0x9a; if (job) put_be(cdb + 10, job->sg_stream_id, 2); break;
    default: cdb[0] = 0x8a; break;                                       /* WRITE(16) */
    }
    if (fua && (cdb[0] == 0x8a || cdb[0] == 0x9a))
        cdb[1] |= 0x08;
    return cdb[0];
}

static int sg_queue(sb_engine_td *td, sb_io_u *u)
{
    sg_data *d = td->data;
    unsigned char cdb[16] = {0};
    uint32_t out = u->len, blocks = u->len / d->lbs;
    int dir = SG_DXFER_FROM_DEV;
    if (u->ddir == SB_DDIR_READ) {
        cdb[0] = 0x88; /* READ(16) */
        if (td->job && td->job->sg_readfua)
            cdb[1] |= 0x08;
    } else {
        write_cdb(td->job, cdb, u->len, d->lbs, &out);
        dir = SG_DXFER_TO_DEV;
    }
    put_be(cdb + 2, u->offset / d->lbs, 8);
    if (cdb[0] != 0x9a)
        put_be(cdb + 10, blocks, 4);
    else
        put_be(cdb + 12, blocks, 2); /* WRITE STREAM(16): the length is two bytes */
    int r = sg_cmd(td, cdb, dir, u->buf, out);
    u->result = r < 0 ? r : (int64_t)u->len; /* the blocks the command covered */
    return SB_Q_COMPLETED;
}

static int sg_fsync(sb_engine_td *td)
{
    unsigned char cdb[16] = {0x91}; /* SYNCHRONIZE CACHE(16), the whole device */
    int r = sg_cmd(td, cdb, SG_DXFER_NONE, NULL, 0);
    return r < 0 ? r : 0;
}

static const char *const sg_options[] = {"hipri", "readfua", "writefua", "sg_write_mode", "stream_id", NULL};
const sb_engine_ops sb_engine_sg = {
    .name = "sg",
    .rank = 14,
    .caps = SB_ENGINE_SCSI,
    .options = sg_options,
    .description = "SCSI commands through SG_IO on /dev/sgN or a SCSI disk, synchronous",
    .sync = true,
    .init = sg_init,
    .queue = sg_queue,
    .fsync = sg_fsync,
    .cleanup = sb_engine_cleanup_free,
};
SB_ENGINE_REGISTER(sb_engine_sg);
