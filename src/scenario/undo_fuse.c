/*
 * undo_fuse — taking apart the modeled devices' FUSE mount (SB_ST_FUSE, see
 * modeled.h). Found in /proc/self/mountinfo, not by stat(): a FUSE mount whose server
 * is gone answers stat with ENOTCONN. A plain unmount first (its server, alive, then
 * ends quietly); when that is refused for a while (a loop device still releasing it),
 * the connection is aborted through fusectl, so that nothing can wait on it any more,
 * and the mount is detached.
 */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "scenario/undo.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/fusectl.h"

/* mountinfo escapes blanks and backslashes as \ooo. */
static void unescape(char *s)
{
    char *w = s;
    for (char *r = s; *r; r++) {
        if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' && r[3] >= '0' &&
            r[3] <= '7') {
            *w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
            r += 3;
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
}

/* The FUSE mount on path: its device minor (the fusectl connection), or -1. */
static long fuse_minor(const char *path)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f)
        return -1;
    char line[8192];
    long minor = -1;
    while (minor < 0 && fgets(line, sizeof line, f)) {
        unsigned maj, min;
        char mp[PATH_MAX], *dash = strstr(line, " - ");
        if (!dash || sscanf(line, "%*u %*u %u:%u %*s %4095s", &maj, &min, mp) != 3)
            continue;
        unescape(mp);
        if (!strcmp(mp, path) && !strncmp(dash + 3, "fuse", 4))
            minor = min;
    }
    fclose(f);
    return minor;
}

int sb_undo_fuse(const char *mountpoint, FILE *log, char *err, size_t errlen)
{
    long minor = fuse_minor(mountpoint);
    if (minor < 0)
        return 0;
    for (int i = 0; i < 100; i++) {
        if (umount2(mountpoint, UMOUNT_NOFOLLOW) == 0 || errno == EINVAL || errno == ENOENT) {
            if (log)
                fprintf(log, "unmounted the modeled devices on %s\n", mountpoint);
            return 0;
        }
        if (errno != EBUSY && errno != EINTR)
            break;
        sb_sleep_ms(20);
    }
    (void)sb_fusectl_abort((unsigned long)minor); /* gone already: its server has exited */
    if (umount2(mountpoint, MNT_DETACH | UMOUNT_NOFOLLOW) == 0 || errno == EINVAL || errno == ENOENT) {
        if (log)
            fprintf(log, "aborted and detached the modeled devices on %s\n", mountpoint);
        return 0;
    }
    int e = errno;
    snprintf(err, errlen, "cannot unmount the modeled devices on %s: %s", mountpoint, strerror(e));
    return -e;
}
