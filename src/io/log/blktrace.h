/*
 * blktrace (internal to io/log/) — one blktrace record decoded (the fields fio's replay
 * reads), the reading of the next record of a trace, and the merge of several traces
 * into one (fio's merge_blktrace_file, merge_blktrace_scalars, merge_blktrace_iters;
 * blktrace_merge.c).
 */
#ifndef SB_IO_LOG_BLKTRACE_H
#define SB_IO_LOG_BLKTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct sb_bt_rec {
    uint32_t magic;
    uint64_t time;             /* ns */
    uint64_t sector;           /* 512-byte sectors */
    uint32_t bytes, action, device;
    uint16_t pdu_len;
} sb_bt_rec;

/* The record at p in the trace's byte order (swap: not the machine's). */
void sb_bt_decode(const unsigned char *p, bool swap, sb_bt_rec *t);
/* Reads the next 48-byte record into p and t and skips its payload: 1, 0 at the end, or
 * -EINVAL / -errno with one line in err naming the trace and the record (recno + 1). */
int sb_bt_read(FILE *f, const char *name, uint64_t recno, bool swap, unsigned char *p, sb_bt_rec *t,
               char *err, size_t errlen);
/* The same on a record already read into p (its checks, its payload skipped). */
int sb_bt_take(FILE *f, const char *name, uint64_t recno, bool swap, const unsigned char *p, sb_bt_rec *t,
               char *err, size_t errlen);
/* The replayed kind of a record (SB_RP_READ, WRITE, TRIM, SYNC), -1 when fio passes it over. */
int sb_bt_kind(const sb_bt_rec *t);
/* Rewrites a raw record in place: its time, no payload, the machine's byte order. */
void sb_bt_set_time(unsigned char *p, bool swap, uint64_t t);
void sb_bt_clear_pdu(unsigned char *p);
void sb_bt_set_magic(unsigned char *p, bool swap);
void sb_bt_to_native(unsigned char *p);

/* The merge: each trace's queue events of reads, writes and trims, in the order of their
 * times, trace i's times scaled by scalars[i] percent (100: as recorded) and its events
 * repeated iters[i] times (each repetition after the trace's last event), written to out
 * (created, or replaced as fio's). n traces in paths (NUL-separated, as a LIST field);
 * nscalars / niters 0: every trace 100 % and once. 0, or -EINVAL / -errno with one line. */
int sb_blktrace_merge(const char *paths, const double *scalars, unsigned nscalars,
                      const unsigned *iters, unsigned niters, const char *out, char *err, size_t errlen);

#endif
