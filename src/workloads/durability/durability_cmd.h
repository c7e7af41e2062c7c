/*
 * durability_cmd — running an outside command and unmounting, for every part of the
 * durability test (durability_cmd.c).
 */
#ifndef SB_WORKLOADS_DURABILITY_CMD_H
#define SB_WORKLOADS_DURABILITY_CMD_H

#include <stddef.h>

/* Runs argv (stdin, stdout from/to /dev/null); 0 when it exits 0, else -EIO with its
 * first line of stderr (or how it ended) in err. */
int dur_run(const char *const argv[], char *err, size_t errlen);
/* Unmounts path, lazily if it is busy, and waits until it is gone. */
void dur_umount(const char *path);

#endif
