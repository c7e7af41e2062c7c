/*
 * iolog — fio's per-thread log files (write_bw_log, write_lat_log, write_iops_log)
 * in fio 3.33's format, one line per I/O or, with log_avg_msec=N, one per data
 * direction per N ms:
 *     msec, value, ddir, bs, prio            (log_offset=1: msec, value, ddir, bs, offset, prio)
 * msec since the measurement began (after the ramp); value: latency in ns (the lat log
 * from the I/O's start, fio's lat; the clat log from its submission, fio's clat: the
 * same figure with a synchronous engine, which has no submission latency), KiB/s as
 * fio counts it (bytes per millisecond; averaged: KiB/s) for bw, I/Os for iops (1 per
 * line, or per second when averaged); ddir 0 read, 1 write, 2 trim; bs 0 in averaged
 * lines; prio 0, or
 * with cmdprio 1 for an I/O it picked, or with log_prio each I/O's ioprio in hex (fio's).
 * Files PREFIX_bw.N.log, PREFIX_lat.N.log, PREFIX_clat.N.log, PREFIX_slat.N.log
 * (empty: storbench measures no submission latency) and PREFIX_iops.N.log, N the
 * thread (1 .. numjobs), opened as the user names them (core/safepath), replaced
 * when they exist, as fio does; written through logfile.h (log_entries lines or
 * log_compression bytes at a time, or zlib streams of fio's binary samples in .log.fz
 * files with log_store_compressed). Averaged lines (log_avg_msec) are fio's: latency the
 * mean (log_max_value: the largest) of the window's I/Os; bandwidth (KiB/s) and IOPS the
 * mean (or largest) of the samples taken every bwavgtime / iopsavgtime ms in the window.
 * log_unix_epoch / log_alternate_epoch: times count from that clock's epoch. The
 * histogram log (write_hist_log) is histlog.h's, fed from here so that an I/O pays one
 * test of the worker's log pointer for all of them.
 */
#ifndef SB_IO_IOLOG_H
#define SB_IO_IOLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/log/logfile.h"

enum { SB_IOLOG_BW, SB_IOLOG_LAT, SB_IOLOG_CLAT, SB_IOLOG_IOPS, SB_IOLOG_N };
enum { SB_IOLOG_DIRS = 3 }; /* read, write, trim: fio's ddir column */

/* One direction's averaging state. */
typedef struct sb_iolog_dir {
    uint64_t lat_sum, lat_max, ios;      /* the log window's I/Os */
    uint64_t clat_sum, clat_max;
    uint64_t bw_bytes, iops_ios;         /* the current bwavgtime / iopsavgtime sample */
    double bw_sum, bw_max, iops_sum, iops_max;
    unsigned bw_n, iops_n;               /* samples in the log window */
} sb_iolog_dir;

struct sb_histlog;
typedef struct sb_iolog {
    sb_logfile f[SB_IOLOG_N];    /* fd -1: that log is off */
    struct sb_histlog *hist;     /* write_hist_log; NULL when off */
    bool lines;                  /* a bw, lat or iops log is on (else only the histogram log) */
    bool offset;                 /* log_offset */
    bool binary;                 /* log_store_compressed: fio's binary samples */
    bool log_max;                /* log_max_value */
    uint64_t avg_ns;             /* 0: a line per I/O */
    uint64_t win_end;            /* averaged: the current window's end, ns since t0 */
    uint64_t bw_ns, bw_end, iops_ns, iops_end; /* the sample windows, their ends */
    sb_iolog_dir dir[SB_IOLOG_DIRS];
    int epoch_clock;             /* -1, or the clock whose epoch the times count from */
    bool epoch_set;
    uint64_t epoch_ms;           /* added to every time */
    int err;                     /* the first failure (-errno) */
    /* the next line's prio column, set by the caller per I/O: fio's log_prio value (the
     * I/O's ioprio), else fio's "high priority" flag (1 for an I/O cmdprio picked) */
    uint32_t prio;
    bool prio_hex;               /* fio's log_prio: it is an ioprio value, written 0x%04x */
} sb_iolog;

/* The logs a job asks for, for thread index (0-based; the files say index + 1). NULL
 * *out when it asks for none. 0 or -errno with one line in err. */
struct sb_io_job;
int sb_iolog_open(const struct sb_io_job *job, unsigned index, sb_iolog **out, char *err, size_t errlen);
/* One completed I/O, t_ns after the measurement began: lat_ns from its start, clat_ns from
 * its submission (an asynchronous engine's; else the same), fio's lat and clat. */
void sb_iolog_add(sb_iolog *l, uint64_t t_ns, uint64_t lat_ns, uint64_t clat_ns, int ddir, uint32_t bs,
                  uint64_t offset);
/* The last window and the buffers out; then closed and freed. 0 or the first write's -errno. */
int sb_iolog_close(sb_iolog *l, uint64_t t_ns);
/* fio's binary sample as its .log.fz files hold it (little-endian, fio 3.33's struct
 * io_sample, then the offset with log_offset): its size, and the text line it reads as. */
#define SB_IOLOG_SAMPLE_BYTES 32u
#define SB_IOLOG_SAMPLE_OFFSET_BYTES 40u
#define SB_IOLOG_FLAG_OFFSET 0x80000000u
#define SB_IOLOG_FLAG_PRIO 0x40000000u

#endif
