/*
 * iolog_write — fio's write_iolog: every I/O a thread issues, as fio 3.33 writes it, a
 * version 3 log ("fio version 3 iolog", then "USEC FILE add", "USEC FILE open", a line
 * "USEC FILE read|write|trim OFFSET LENGTH" per I/O, "USEC FILE sync|datasync OFFSET 0"
 * per sync, "USEC FILE close"; USEC the microseconds since the log was opened). Not the
 * bw/lat/iops logs of iolog.h. The file is opened as the user names it (core/safepath)
 * and appended to, as fio's (several threads' logs follow one another); each thread keeps
 * its lines in a buffer of its own and writes it whole (O_APPEND), 64 KiB at a time.
 */
#ifndef SB_IO_IOLOG_WRITE_H
#define SB_IO_IOLOG_WRITE_H

#include <stddef.h>
#include <stdint.h>

typedef struct sb_iolog_w {
    int fd;
    uint64_t t0_ns;            /* the log's start */
    char file[256];            /* the file the I/Os go to, as the log names it */
    char *buf;
    size_t len;
    int err;                   /* the first write error (-errno) */
} sb_iolog_w;

/* Opens path for the I/O of file, writes the header and the file's add and open lines.
 * 0 or -errno with one line in err (*out NULL). */
int sb_iolog_w_open(const char *path, const char *file, sb_iolog_w **out, char *err, size_t errlen);
/* One operation: kind is SB_RP_* (iolog_replay.h). */
void sb_iolog_w_op(sb_iolog_w *l, int kind, uint64_t offset, uint32_t len);
/* The close line, the buffer out, closed and freed. 0 or the first write's -errno. */
int sb_iolog_w_close(sb_iolog_w *l);

#endif
