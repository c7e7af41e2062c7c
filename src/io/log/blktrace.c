/*
 * blktrace — blktrace's binary traces as replay operations (iolog_replay.h), and the
 * merging of several traces into one (fio's merge_blktrace_file). A trace is a run of
 * 48-byte records (struct blk_io_trace of linux/blktrace_api.h: magic, sequence, time
 * in ns, sector, bytes, action, pid, device, cpu, error, pdu_len), each followed by
 * pdu_len bytes of payload, in the byte order of the machine that recorded it. As fio,
 * only queue events (Q) become I/O: reads, writes and discards (trims) with their
 * sector and bytes, and flushes as syncs; notify records and the block layer's other
 * events (merges, issues, completions) are passed over. One record is read at a time
 * and payloads are skipped, not read: memory is bounded whatever the trace's size.
 */
#include "io/log/iolog_replay.h"
#include "io/log/blktrace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define BT_MAGIC 0x65617400u
#define BT_VERSION 0x07u
#define TC_ACT(x) ((uint32_t)(x) << 16)
#define TC_WRITE (1u << 1)
#define TC_FLUSH (1u << 2)
#define TC_NOTIFY (1u << 10)
#define TC_DISCARD (1u << 13)
#define TA_QUEUE 1u

static uint32_t rd32(const unsigned char *p, bool swap)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return swap ? __builtin_bswap32(v) : v;
}

static uint64_t rd64(const unsigned char *p, bool swap)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return swap ? __builtin_bswap64(v) : v;
}

static void wr32(unsigned char *p, uint32_t v, bool swap)
{
    v = swap ? __builtin_bswap32(v) : v;
    memcpy(p, &v, 4);
}

static void wr64(unsigned char *p, uint64_t v, bool swap)
{
    v = swap ? __builtin_bswap64(v) : v;
    memcpy(p, &v, 8);
}

bool sb_blktrace_magic(const unsigned char *p, size_t n, bool *swap)
{
    if (n < SB_BLKTRACE_REC)
        return false;
    for (int s = 0; s < 2; s++)
        if ((rd32(p, s) & 0xffffff00u) == BT_MAGIC) {
            *swap = s;
            return true;
        }
    return false;
}

void sb_bt_decode(const unsigned char *p, bool swap, sb_bt_rec *t)
{
    t->magic = rd32(p, swap);
    t->time = rd64(p + 8, swap);
    t->sector = rd64(p + 16, swap);
    t->bytes = rd32(p + 24, swap);
    t->action = rd32(p + 28, swap);
    t->device = rd32(p + 36, swap);
    uint16_t pdu;
    memcpy(&pdu, p + 46, 2);
    t->pdu_len = swap ? __builtin_bswap16(pdu) : pdu;
}

void sb_bt_set_time(unsigned char *p, bool swap, uint64_t t) { wr64(p + 8, t, swap); }
void sb_bt_clear_pdu(unsigned char *p) { memset(p + 46, 0, 2); }
void sb_bt_set_magic(unsigned char *p, bool swap) { wr32(p, BT_MAGIC | BT_VERSION, swap); }

int sb_bt_read(FILE *f, const char *name, uint64_t recno, bool swap, unsigned char *p, sb_bt_rec *t,
               char *err, size_t errlen)
{
    size_t got = fread(p, 1, SB_BLKTRACE_REC, f);
    if (got == 0 && !ferror(f))
        return 0;
    if (got != SB_BLKTRACE_REC) {
        snprintf(err, errlen, "%s: record %" PRIu64 ": %s", name, recno + 1,
                 ferror(f) ? strerror(errno ? errno : EIO) : "cut short (a trace ends with a whole record)");
        return -EINVAL;
    }
    return sb_bt_take(f, name, recno, swap, p, t, err, errlen);
}

int sb_bt_take(FILE *f, const char *name, uint64_t recno, bool swap, const unsigned char *p, sb_bt_rec *t,
               char *err, size_t errlen)
{
    sb_bt_decode(p, swap, t);
    if ((t->magic & 0xffffff00u) != BT_MAGIC) {
        snprintf(err, errlen, "%s: record %" PRIu64 ": bad magic 0x%08x (not a blktrace record)", name,
                 recno + 1, t->magic);
        return -EINVAL;
    }
    if ((t->magic & 0xffu) != BT_VERSION) {
        snprintf(err, errlen, "%s: record %" PRIu64 ": blktrace version %u (fio and storbench read %u)",
                 name, recno + 1, t->magic & 0xffu, BT_VERSION);
        return -EINVAL;
    }
    /* the payload read and dropped, not sought past: a trace may come through a pipe */
    char skip[512];
    for (size_t left = t->pdu_len; left;) {
        size_t k = fread(skip, 1, left < sizeof skip ? left : sizeof skip, f);
        if (!k) {
            snprintf(err, errlen, "%s: record %" PRIu64 ": its payload of %u bytes is cut short", name,
                     recno + 1, t->pdu_len);
            return -EINVAL;
        }
        left -= k;
    }
    return 1;
}

/* What fio replays of a record: a queue event that is not a notification. */
int sb_bt_kind(const sb_bt_rec *t)
{
    if ((t->action & 0xffffu) != TA_QUEUE || (t->action & TC_ACT(TC_NOTIFY)))
        return -1;
    if (t->action & TC_ACT(TC_DISCARD))
        return SB_RP_TRIM;
    if (t->action & TC_ACT(TC_FLUSH))
        return SB_RP_SYNC;
    return t->action & TC_ACT(TC_WRITE) ? SB_RP_WRITE : SB_RP_READ;
}

int sb_blktrace_next(sb_replay *r, sb_rp_op *op, char *err, size_t errlen)
{
    unsigned char p[SB_BLKTRACE_REC];
    sb_bt_rec t;
    for (;;) {
        int k;
        if (r->ppeek < r->npeek) { /* the first record, read to tell the format */
            memcpy(p, r->peek, SB_BLKTRACE_REC);
            r->ppeek = r->npeek;
            k = sb_bt_take(r->f, r->name, r->line, r->swap, p, &t, err, errlen);
        } else {
            k = sb_bt_read(r->f, r->name, r->line, r->swap, p, &t, err, errlen);
        }
        if (k <= 0)
            return k;
        r->line++;
        int kind = sb_bt_kind(&t);
        if (kind < 0)
            continue;
        /* a read or write of no bytes is passed over, as fio's ("zero byte trace") */
        if (kind != SB_RP_SYNC && !t.bytes)
            continue;
        if (kind != SB_RP_SYNC && (t.bytes > SB_REPLAY_LEN_MAX || t.sector > (uint64_t)INT64_MAX / 512 -
                                   SB_REPLAY_LEN_MAX)) {
            snprintf(err, errlen, "%s: record %" PRIu64 ": %s of %" PRIu32 " bytes at sector %" PRIu64
                     " is beyond what storbench replays (1 .. %u bytes, offsets below 2^63)", r->name,
                     r->line, kind == SB_RP_READ ? "read" : kind == SB_RP_WRITE ? "write" : "trim", t.bytes, t.sector, SB_REPLAY_LEN_MAX);
            return -EINVAL;
        }
        memset(op, 0, sizeof *op);
        op->kind = (sb_rp_kind)kind;
        op->timed = true;
        op->time_ns = t.time;
        op->dev = t.device;
        op->offset = kind == SB_RP_SYNC ? 0 : t.sector * 512;
        op->len = kind == SB_RP_SYNC ? 0 : t.bytes;
        /* replay_align rounds a trace's bytes up to it as well (fio's t_bytes_align) */
        if (r->align && op->len)
            op->len = (uint32_t)(((uint64_t)op->len + r->align - 1) & ~((uint64_t)r->align - 1));
        return 1;
    }
}
