/*
 * fdtable — give the calling thread a descriptor table of its own, as a
 * forked process has (fio's job processes, fs_mark's and dbench's children).
 *
 * Why: while threads share one table, every read, write and fsync looks its
 * descriptor up with a reference taken and dropped (fdget's atomic path), and
 * every open and close takes the shared table's lock; with a private table the
 * kernel uses its shortcut for an unshared table. That is CPU per call, so it
 * shows on CPU-bound targets (tmpfs): 1.5 % of a 4 KiB psync run (issue 16),
 * and fs-mark's four workers, which open, write 64 chunks, fsync and close
 * each file (docs/fidelity.md).
 *
 * Cost: one or two close_range calls per thread, the first with
 * CLOSE_RANGE_UNSHARE (unshare(CLONE_FILES) where the kernel lacks it). The
 * thread's table keeps only 0-2 and `keep`: the rest is closed in the copy
 * (never in the process's table), because the kernel frees a thread's table
 * only after pthread_join has returned, and it must not keep open what
 * storbench closes and expects gone (a pipe's write end, a file on a file
 * system about to be unmounted).
 *
 * The rule that comes with it: a thread with its own table calls no library
 * that keeps descriptors of its own (MPI above all: its progress engine would
 * poll an eventfd that is not in the table, and a socket it opened would land
 * in the wrong one). The process's table and the library's own threads are
 * untouched, so only calls made from this thread matter; storbench-mpi
 * answers such threads from flags and calls MPI on the main thread only
 * (src/mpi/ranks_mpi.c).
 */
#ifndef SB_FDTABLE_H
#define SB_FDTABLE_H

#include <stdbool.h>

/* Gives this thread a table of its own holding 0, 1, 2 and `keep` (-1: none); false when
 * the kernel refused (seccomp), and then the shared table works the same, a little slower.
 * A descriptor the thread opens afterwards is in its own table only. */
bool sb_private_fd_table(int keep);

#endif
