/*
 * fileio — reading and writing whole small files: the one whole-file reader
 * (result pages, scenario files, /proc and /sys text) and the one-line
 * sysfs/proc attribute reader and writer; and positioned reads and writes of a
 * whole buffer.
 */
#ifndef SB_FILEIO_H
#define SB_FILEIO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Reads all of f into a NUL-terminated buffer (*out, caller frees; *len bytes, may be NULL).
 * More than max bytes is -EFBIG, or, when truncate is set, the first max bytes. 0, -EFBIG,
 * -ENOMEM or -errno of the read. */
int sb_read_stream(FILE *f, size_t max, int truncate, char **out, size_t *len);
/* The same for the file at path (opened close-on-exec). */
int sb_read_file(const char *path, size_t max, int truncate, char **out, size_t *len);
/* A small text file such as a sysfs attribute into out (len bytes), trailing blanks
 * removed. 0 or -errno. */
int sb_read_text(const char *path, char *out, size_t len);
/* Writes text to an existing file (a sysfs control file) in one write. 0 or -errno. */
int sb_write_text(const char *path, const char *text);
/* pwrite / pread of all n bytes at off, going on after EINTR and short transfers.
 * 0, or -errno (-EIO: a write that moves nothing; -ENODATA: the end of the file). */
int sb_pwrite_all(int fd, const void *buf, size_t n, uint64_t off);
int sb_pread_all(int fd, void *buf, size_t n, uint64_t off);

#endif
