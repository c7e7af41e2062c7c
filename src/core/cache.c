/*
 * cache — page cache control. Dropping all caches needs root; evicting one
 * file's pages works for anyone who can open it.
 */
#include "core/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

bool sb_is_root(void) { return geteuid() == 0; }

int sb_drop_caches(void)
{
    sync();
    int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    int rc = write(fd, "3\n", 2) == 2 ? 0 : -errno;
    close(fd);
    return rc;
}

int sb_evict_file(int fd)
{
    if (fdatasync(fd) < 0 && errno != EINVAL)
        return -errno;
    int rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    return -rc;
}
