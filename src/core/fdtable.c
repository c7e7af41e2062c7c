/*
 * fdtable — a thread's own descriptor table (see fdtable.h).
 */
#include "core/fdtable.h"

#include <sched.h>
#include <unistd.h>

bool sb_private_fd_table(int keep)
{
    if (unshare(CLONE_FILES) < 0)
        return false;
    if (keep > 3)
        close_range(3, (unsigned)keep - 1, 0);
    close_range(keep >= 3 ? (unsigned)keep + 1 : 3u, ~0u, 0);
    return true;
}
