/*
 * atomicfile — replacing a file's content so that nothing is lost: a crash,
 * a full disk or a write error leaves the old content intact. Used for result
 * files and for `show -o`.
 *
 *  - A symlink is followed (up to 40 links): the link stays a link, the file
 *    it points to gets the new content, written beside it. A link in a sticky
 *    world-writable directory is followed only when it is the caller's or the
 *    directory owner's (core/safepath.h): another one is refused, -EACCES.
 *  - A regular file (or a new one) is written to a temporary file in the same
 *    directory, fsynced, renamed over it and the directory fsynced. An
 *    existing file keeps its mode and (when allowed) its owner and group.
 *  - Anything else (a device such as /dev/null, a FIFO, a socket) cannot be
 *    replaced by a rename without destroying it: it is written in place.
 *
 * Write errors keep their errno (ENOSPC stays ENOSPC, not EIO): the FILE*
 * handed to the writer records the first failing write(2).
 */
#ifndef SB_ATOMICFILE_H
#define SB_ATOMICFILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* Writes the content to out; returns 0 or -errno. */
typedef int (*sb_atomic_writer)(FILE *out, void *ctx);

/* 0, or -errno with one line "PATH: what went wrong" in err. new_mode is the mode of a file
 * that did not exist (umask applied). make_dirs creates missing parent directories. */
int sb_atomic_write(const char *path, mode_t new_mode, int make_dirs, sb_atomic_writer fn,
                    void *ctx, char *err, size_t errlen);

/* The path a write to path lands on: symlinks followed under the same rule (a dangling
 * link gives where it points). 0 or -errno (-ELOOP after 40 links, -EACCES for a link
 * the rule refuses). */
int sb_resolve_symlinks(const char *path, char *out, size_t len);

/* A FILE* on fd that records the first write error: *werr = errno of the failing write(2).
 * Closing the FILE closes fd. */
FILE *sb_fdopen_tracked(int fd, int *werr);

#endif
