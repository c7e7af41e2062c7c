/*
 * cache — dropping the page cache between runs (sync + drop_caches) and
 * evicting a single file's pages (posix_fadvise DONTNEED), so that a "cold"
 * read is really cold.
 */
#ifndef SB_CACHE_H
#define SB_CACHE_H

#include <stdbool.h>

/* sync(), then writes 3 to /proc/sys/vm/drop_caches. 0, or -EACCES/-EPERM when not root. */
int sb_drop_caches(void);
/* fdatasync + POSIX_FADV_DONTNEED on the whole file. 0 or -errno. */
int sb_evict_file(int fd);
bool sb_is_root(void);

#endif
