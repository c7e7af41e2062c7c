/*
 * logfile — the sink every fio-style log file of a thread writes into (iolog.c, histlog.c):
 * the file opened as fio names it, and a buffer written out whole lines (or whole binary
 * samples) at a time, after `max_lines` of them or when the next one would not fit, so that
 * logging costs a write(2) per thousand I/Os or so and bounded memory. With fio's
 * log_store_compressed each buffer is deflated as one zlib stream (fio's "chunk"), the
 * streams following each other in PREFIX_KIND.N.log.fz, which `fio --inflate-log` and
 * `storbench io --inflate-log` read; with log_compression_cpus the thread deflates on those
 * CPUs only (its affinity is set for the deflate and put back).
 */
#ifndef SB_IO_LOGFILE_H
#define SB_IO_LOGFILE_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct sb_logfile {
    int fd;                  /* -1: this log is off */
    char *buf;
    size_t len, cap;
    unsigned lines, max_lines;
    bool deflate;            /* log_store_compressed */
    bool pin;                /* deflate on `cpus` */
    cpu_set_t cpus;
    int err;                 /* the first failure, -errno (or -EIO for zlib's) */
} sb_logfile;

struct sb_io_job;
/* PREFIX_KIND.N.log (N = index + 1; ".log.fz" when the job stores its logs compressed), or
 * with per_job_logs=0 PREFIX_KIND.log shared by the job's threads, with a buffer of `cap`
 * bytes (the job's log_compression when set). 0 or -errno with one line in err; f->fd
 * stays -1 on failure. */
int sb_logfile_open(sb_logfile *f, const struct sb_io_job *job, const char *prefix, const char *kind,
                    unsigned index, size_t cap, char *err, size_t errlen);
/* Room for a line (or sample) of up to n bytes (n <= cap), the buffer written out first
 * when it lacks it; NULL when the log is off. sb_logfile_put counts the n bytes used. */
char *sb_logfile_room(sb_logfile *f, size_t n);
void sb_logfile_put(sb_logfile *f, size_t n);
/* The buffer out, the file closed, the buffer freed. 0 or the first failure's -errno. */
int sb_logfile_close(sb_logfile *f);

#endif
