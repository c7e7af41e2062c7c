/*
 * histlog — fio's completion latency histogram log (write_hist_log, log_hist_msec,
 * log_hist_coarseness), in fio 3.33's layout so that fio's own readers
 * (fiologparser_hist.py, fio-histo-log-pctiles.py) take it:
 *     msec, ddir, bs, bin0, bin1, ..., binM
 * one line per direction every log_hist_msec ms (the first window starts at the
 * direction's first I/O; a line is written by the first I/O at or past the window's end,
 * and its bs is that I/O's; the last, unfinished window is not written, as fio), holding
 * the counts of the I/Os completed since the direction's previous line in fio's 1856 bins
 * (29 groups of 64: values below 128 ns one bin each, then each power of two in 64 equal
 * bins), 2^log_hist_coarseness bins summed per column. storbench's own histogram
 * (core/histogram.h) has another layout, so the log keeps fio's bins of its own: 2 x 1856
 * counters per thread, touched only when the log is asked for. Files
 * PREFIX_clat_hist.N.log (logfile.h); log_hist_msec=0 writes no line, as fio.
 */
#ifndef SB_IO_HISTLOG_H
#define SB_IO_HISTLOG_H

#include <stddef.h>
#include <stdint.h>

#define SB_HISTLOG_BINS 1856u  /* fio's FIO_IO_U_PLAT_NR: 29 groups of 64 */

/* fio's bin of a latency of v ns. */
static inline unsigned sb_histlog_bin(uint64_t v)
{
    if (v < 128)
        return (unsigned)v;
    unsigned msb = 63u - (unsigned)__builtin_clzll(v);
    unsigned drop = msb - 6;                    /* bits below the 7 that pick the bin */
    unsigned bin = ((drop + 1) << 6) + (unsigned)((v >> drop) & 63);
    return bin < SB_HISTLOG_BINS ? bin : SB_HISTLOG_BINS - 1;
}
/* The lowest value of fio's bin (the inverse of sb_histlog_bin). */
uint64_t sb_histlog_bin_low(unsigned bin);

typedef struct sb_histlog sb_histlog;
struct sb_io_job;
/* The job's histogram log for thread index. 0 or -errno with one line in err. */
int sb_histlog_open(const struct sb_io_job *job, unsigned index, sb_histlog **out, char *err,
                    size_t errlen);
/* One completed I/O at t_ms (the log's time: ms since the measurement began, or since the
 * epoch the job asked for). */
void sb_histlog_add(sb_histlog *h, uint64_t t_ms, uint64_t lat_ns, int ddir, uint32_t bs);
/* Closed and freed (NULL: nothing). 0 or the first write's -errno. */
int sb_histlog_close(sb_histlog *h);

#endif
