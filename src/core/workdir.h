/*
 * workdir — private scratch directories on the target and their removal.
 *
 * Every measured run happens in a fresh directory "<target>/storbench-<pid>-XXXXXX"
 * that is removed afterwards, on error, and on Ctrl-C (the interrupt module
 * calls sb_workdir_cleanup_all()). Paths registered here are removed by
 * sb_workdir_cleanup_all() even if the code that made them never returns.
 * A run killed outright (SIGKILL, a crash) cannot clean up: the next
 * sb_workdir_create() on the same target removes every such directory whose
 * process is gone (sb_workdir_remove_stale).
 */
#ifndef SB_WORKDIR_H
#define SB_WORKDIR_H

#include <stddef.h>
#include <stdint.h>

/* Checks that target is an existing, writable directory. 0 or -errno. */
int sb_target_check(const char *target);
/* Creates and registers a private directory under target. 0 or -errno. */
int sb_workdir_create(const char *target, char *out, size_t outlen);
/* Removes "storbench-<pid>-XXXXXX" directories in target that belong to this user and whose
 * process no longer exists. Returns how many, or -errno when target cannot be read. */
int sb_workdir_remove_stale(const char *target);
/* Removes a registered directory tree and unregisters it. 0 or -errno. */
int sb_workdir_remove(const char *path);
/* Recursively removes path (file or tree), not following symlinks. 0 or -errno. */
int sb_remove_tree(const char *path);
/* Removes every directory still registered (signal/exit path). */
void sb_workdir_cleanup_all(void);
/* Free bytes available to an unprivileged user on the filesystem of path. */
int sb_free_space(const char *path, uint64_t *bytes_free);

#endif
