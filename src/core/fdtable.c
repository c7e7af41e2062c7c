/*
 * fdtable — a thread's own descriptor table (see fdtable.h).
 */
#include "core/fdtable.h"

#include <sched.h>
#include <unistd.h>

bool sb_private_fd_table(int keep)
{
    unsigned above = keep >= 3 ? (unsigned)keep + 1 : 3u;
    /* One call gives the thread its table with only the descriptors below `above` copied
     * into it (CLOSE_RANGE_UNSHARE, Linux 5.9), so at no moment does the new table hold
     * the ones above; a kernel without it: unshare, then close. */
    if (close_range(above, ~0u, CLOSE_RANGE_UNSHARE) < 0) {
        if (unshare(CLONE_FILES) < 0)
            return false;
        close_range(above, ~0u, 0);
    }
    if (keep > 3)
        close_range(3, (unsigned)keep - 1, 0);
    return true;
}
