/*
 * safepath — resolving a user-named path the way the kernel does with
 * fs.protected_symlinks=1, whatever the machine's setting: a symlink in a sticky
 * world-writable directory (/tmp, /var/tmp, /dev/shm) is followed only when its
 * owner is the caller (euid) or the directory's owner. Without the rule another
 * local user could plant "/tmp/report.html -> /etc/shadow" and have root's
 * `show -o /tmp/report.html` replace the victim. storbench applies it itself
 * because the sysctl is off on some machines (and inside some containers).
 *
 * The walk goes component by component from a directory descriptor (fstatat with
 * AT_SYMLINK_NOFOLLOW, openat with O_NOFOLLOW), so what is checked is what is then
 * used: the caller gets a descriptor of the directory holding the final component
 * and that component's name, never a symlink, and works relative to it (openat,
 * renameat). A symlink swapped in after the walk makes the final O_NOFOLLOW open
 * fail instead of being followed.
 */
#ifndef SB_SAFEPATH_H
#define SB_SAFEPATH_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Where a path lands: the directory holding its final component and that name. */
typedef struct sb_path_at {
    int dirfd;             /* O_PATH descriptor of the directory, -1 when not open */
    char base[NAME_MAX + 1];
    char dir[PATH_MAX];    /* the directory's path, symlinks resolved (for messages) */
    bool refused;          /* the walk stopped at a symlink the rule does not follow */
} sb_path_at;

#define SB_PATH_MKDIRS 1u  /* create missing directories on the way (mode 0755) */

/* Whether a symlink owned by link_uid, in the directory whose stat is dir, may be
 * followed by this process (the kernel's may_follow_link rule). */
bool sb_symlink_followable(const struct stat *dir, uid_t link_uid);

/* Resolves path, following symlinks (at most 40) under the rule above, up to its final
 * component, which exists as a non-symlink or does not exist (a dangling link gives the
 * name it points to). 0, or -errno with one line "PATH: why" in err (-EACCES with
 * at->refused set when the rule refused a link). sb_path_at_close() releases at. */
int sb_path_resolve(const char *path, unsigned flags, sb_path_at *at, char *err, size_t errlen);
void sb_path_at_close(sb_path_at *at);

/* open(path, flags, mode) with the walk above; O_NOFOLLOW is added for the final
 * component. 0 with *fd set, or -errno with one line in err. */
int sb_open_resolved(const char *path, int flags, mode_t mode, int *fd, char *err, size_t errlen);

#endif
