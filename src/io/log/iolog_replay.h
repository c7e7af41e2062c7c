/*
 * iolog_replay — the reader of fio's I/O logs for read_iolog= (not the bw/lat/iops
 * logs of iolog.h): text logs of versions 2 and 3 ("fio version 2 iolog", lines
 * "FILE add|open|close" and "FILE read|write|trim|sync|datasync OFFSET LENGTH"; version
 * 3 puts the microseconds since the log began in front of each line), and blktrace's
 * binary traces (blktrace.c), told apart by their first bytes. One operation at a time
 * from a stream: memory is one line (at most SB_REPLAY_LINE_MAX bytes) or one trace
 * record whatever the log's size, so a 10 GB log is never held whole. A malformed line
 * is an error naming FILE:LINE and the cause; fio logs such a line and skips it,
 * storbench refuses it (a replay that silently differs from its log measures something
 * else). The replay options that change what an operation is (replay_scale,
 * replay_align, replay_skip) are applied here, for both formats alike.
 */
#ifndef SB_IO_IOLOG_REPLAY_H
#define SB_IO_IOLOG_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SB_REPLAY_LINE_MAX 4096u /* fio reads a line into 4096 bytes too */
#define SB_REPLAY_NAME_MAX 256u  /* fio's %256s */
#define SB_REPLAY_LEN_MAX (64u << 20) /* one I/O's bytes at most: storbench's largest bs */

typedef enum sb_rp_kind {
    SB_RP_READ = 0, SB_RP_WRITE = 1, SB_RP_TRIM = 2, /* as SB_DDIR_* */
    SB_RP_SYNC, SB_RP_DATASYNC, SB_RP_WAIT, SB_RP_ADD, SB_RP_OPEN, SB_RP_CLOSE,
} sb_rp_kind;

/* replay_skip's bits: 1 << SB_RP_READ, WRITE, TRIM, and SB_RP_SKIP_SYNC for sync and
 * datasync (fio's "sync"). */
#define SB_RP_SKIP_SYNC (1u << SB_RP_SYNC)

enum { SB_RP_FMT_V2 = 2, SB_RP_FMT_V3 = 3, SB_RP_FMT_BLKTRACE = 100 };

typedef struct sb_rp_op {
    sb_rp_kind kind;
    uint64_t offset;           /* bytes, after replay_scale and replay_align; WAIT: its ms */
    uint32_t len;
    bool timed;                /* time_ns holds the log's time of the operation */
    uint64_t time_ns;          /* v3: its microseconds in ns; blktrace: the trace's ns */
    const char *file;          /* text logs: the file it names (valid until the next call) */
    uint32_t dev;              /* blktrace: the device (major << 20 | minor) */
} sb_rp_op;

typedef struct sb_replay {
    FILE *f;
    bool own;                  /* f was opened here (closed by sb_replay_close) */
    char name[256];            /* the log as errors name it */
    int fmt;                   /* SB_RP_FMT_* */
    bool swap;                 /* blktrace written on the other endianness */
    uint64_t line;             /* text: the line last read; blktrace: the record */
    unsigned scale, align, skip; /* replay_scale (0, 1: none), replay_align (power of 2, 0:
                                  * none), replay_skip bits */
    unsigned char peek[48];    /* the first bytes, read to tell the format: read again */
    unsigned npeek, ppeek;     /* from here before the stream (no seek: a pipe reads too) */
    char buf[SB_REPLAY_LINE_MAX + 2];
} sb_replay;

/* Opens path (a text log or a blktrace; "-": standard input, as fio's) and reads its
 * header. The log is read forward only, never sought: a pipe does. 0, or -errno / -EINVAL
 * with one line in err. */
int sb_replay_open(sb_replay *r, const char *path, char *err, size_t errlen);
/* The same on a stream the caller owns (the fuzz harness's fmemopen), named name. */
int sb_replay_open_stream(sb_replay *r, FILE *f, const char *name, char *err, size_t errlen);
/* The next operation: 1, 0 at the end, -EINVAL with "NAME:LINE: cause" in err, or
 * -errno when reading fails. */
int sb_replay_next(sb_replay *r, sb_rp_op *op, char *err, size_t errlen);
void sb_replay_close(sb_replay *r);
/* The name of kind as fio's logs spell it. */
const char *sb_rp_kind_name(sb_rp_kind k);

/* blktrace.c: whether the 48 bytes at p start a blktrace record (*swap: other endianness),
 * and the next queue event of the trace as an operation (same returns as sb_replay_next). */
#define SB_BLKTRACE_REC 48u
bool sb_blktrace_magic(const unsigned char *p, size_t n, bool *swap);
int sb_blktrace_next(sb_replay *r, sb_rp_op *op, char *err, size_t errlen);

#endif
