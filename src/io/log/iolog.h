/*
 * iolog — fio's per-thread log files (write_bw_log, write_lat_log, write_iops_log)
 * in fio 3.33's format, one line per I/O or, with log_avg_msec=N, one per data
 * direction per N ms:
 *     msec, value, ddir, bs, prio            (log_offset=1: msec, value, ddir, bs, offset, prio)
 * msec since the measurement began (after the ramp); value: latency in ns (lat and
 * clat logs, the same figure: storbench times an I/O from its submission to its
 * completion, which is fio's clat and, with no submission latency, its lat), KiB/s
 * as fio counts it (bytes per millisecond) for bw, I/Os for iops (1 per line, or
 * per second when averaged); ddir 0 read, 1 write; bs 0 in averaged lines; prio 0, or
 * with cmdprio 1 for an I/O it picked, or with log_prio each I/O's ioprio in hex (fio's).
 * Files PREFIX_bw.N.log, PREFIX_lat.N.log, PREFIX_clat.N.log, PREFIX_slat.N.log
 * (empty: storbench measures no submission latency) and PREFIX_iops.N.log, N the
 * thread (1 .. numjobs), opened as the user names them (core/safepath), replaced
 * when they exist, as fio does. The lines are kept in a buffer of the thread's and
 * written 64 KiB at a time: a write(2) per ~2,000 I/Os, only when logging.
 */
#ifndef SB_IO_IOLOG_H
#define SB_IO_IOLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { SB_IOLOG_BW, SB_IOLOG_LAT, SB_IOLOG_CLAT, SB_IOLOG_IOPS, SB_IOLOG_N };

typedef struct sb_iolog {
    int fd[SB_IOLOG_N];          /* -1: that log is off */
    char *buf[SB_IOLOG_N];
    size_t len[SB_IOLOG_N];
    bool offset;                 /* log_offset */
    uint64_t avg_ns;             /* 0: a line per I/O */
    uint64_t win_end;            /* averaged: the current window's end, ns since t0 */
    uint64_t lat_sum[2], ios[2], bytes[2];
    int err;                     /* the first write error (-errno) */
    uint32_t prio;               /* the next line's prio column (the caller sets it per I/O) */
    bool prio_hex;               /* fio's log_prio: it is an ioprio value, written 0x%x */
} sb_iolog;

/* The logs a job asks for, for thread index (0-based; the files say index + 1). NULL
 * *out when it asks for none. 0 or -errno with one line in err. */
struct sb_io_job;
int sb_iolog_open(const struct sb_io_job *job, unsigned index, sb_iolog **out, char *err, size_t errlen);
/* One completed I/O, t_ns after the measurement began. */
void sb_iolog_add(sb_iolog *l, uint64_t t_ns, uint64_t lat_ns, int ddir, uint32_t bs, uint64_t offset);
/* The last window and the buffers out; then closed and freed. 0 or the first write's -errno. */
int sb_iolog_close(sb_iolog *l, uint64_t t_ns);

#endif
