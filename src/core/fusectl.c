/*
 * fusectl — see fusectl.h: write "1" to the connection's abort file, mounting
 * fusectl first where nobody has (a fresh machine, a new mount namespace).
 */
#include "core/fusectl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mount.h>
#include <unistd.h>

int sb_fusectl_abort(unsigned long conn)
{
    char p[96];
    snprintf(p, sizeof p, SB_FUSECTL "/%lu/abort", conn);
    int fd = open(p, O_WRONLY | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT && mount("fusectl", SB_FUSECTL, "fusectl", 0, NULL) == 0)
        fd = open(p, O_WRONLY | O_CLOEXEC); /* fusectl was not mounted: now it is */
    if (fd < 0)
        return -errno;
    int rc = write(fd, "1", 1) == 1 ? 0 : -errno;
    close(fd);
    return rc;
}
