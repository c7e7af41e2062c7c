/*
 * fs_common — small file-system helpers shared by the file-system workloads
 * (fs-mark, postmark, compilebench, dbench): whole-buffer writes and reads
 * that survive short transfers and EINTR, random file names, and a recursive
 * remove that reports the first path it could not delete. Kept apart from
 * core/ because only these four tests use them.
 */
#ifndef SB_FS_COMMON_H
#define SB_FS_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/rand.h"

/* Writes len bytes (at off when off >= 0, else at the file position). 0 or -errno;
 * a write that makes no progress is -EIO. */
int sb_fs_write_all(int fd, const void *buf, size_t len, off_t off);
/* Reads up to len bytes; *got is what was read before EOF. 0 or -errno. */
int sb_fs_read_all(int fd, void *buf, size_t len, off_t off, size_t *got);
/* Fills name[0..len) with characters from [0-9A-Za-z] and NUL-terminates it (name has len+1). */
void sb_fs_random_name(sb_rand *r, char *name, size_t len);
/* Removes everything below dir (not dir itself). 0 or -errno of the first failure; the
 * failing path goes to failed (may be NULL). */
int sb_fs_empty_dir(const char *dir, char *failed, size_t failedlen);

#endif
