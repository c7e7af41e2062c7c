/*
 * resultfile — the one way a command changes a result file that others may
 * be changing too (docs/result-format.md, "Concurrent writers"): take the
 * file's lock (core/lock.h), read the file as it is now, let the command
 * merge its systems and figures into that, save it atomically, let the lock
 * go. A command measures, parses or reads its inputs before, without the
 * lock, so that a run that measured for an hour holds the lock for the few
 * milliseconds of its save. Loading and saving themselves are in result.h.
 */
#ifndef SB_RESULTFILE_H
#define SB_RESULTFILE_H

#include <stddef.h>

#include "core/lock.h"
#include "results/result.h"

/* Merges the command's data into now, the file as it is under the lock (empty when the
 * file does not exist). 0, or -errno with one line in err: nothing is saved. */
typedef int (*sb_resultfile_merge_fn)(sb_resultfile *now, void *arg, char *err, size_t errlen);

/* Lock, re-read, fn, atomic save, unlock. w bounds and announces the wait (NULL: the
 * default bound, nothing said). 0, or -errno with one line in err and the file as it was.
 * STORBENCH_TEST_SAVE_DELAY_MS (tests only, docs/result-format.md) sleeps that long
 * between the merge and the save, with the lock held, to widen the window a test aims at. */
int sb_resultfile_update(const char *path, const sb_lock_wait *w, sb_resultfile_merge_fn fn,
                         void *arg, char *err, size_t errlen);

#endif
