/*
 * profile — fio's built-in profiles (fio's --profile NAME): job sets fio generates from
 * a few options of their own instead of a job file. tiobench (fio's profiles/tiobench.c,
 * after tiotest): four jobs, one after another (stonewall), on the same four files
 * .fio.tio.1 .. .4 in one directory, with sync I/O, direct, end_fsync after the writes:
 * seqwrite, randwrite, seqread, randread. Its options say the block size (block, bytes),
 * loops (numruns), directory (dir) and threads per job (threads); without them fio's:
 * 4096, 1, ./, 1, and a size of 4 KiB per MiB of memory (fio's 4*1024*$mb_memory bytes).
 *
 * The job options given on the command line win over the profile's own (--size, --bs,
 * --directory, ...): fio 3.33 sets the profile's after them, so there they are silently
 * overridden, and its block/numruns/dir/threads go into a struct its generator never
 * reads (both checked against fio 3.33: docs/io.md "Profiles"). fio's act profile is
 * refused: it grades latencies through per-I/O hooks storbench has no place for.
 */
#ifndef SB_IO_OPTIONS_PROFILE_H
#define SB_IO_OPTIONS_PROFILE_H

#include <limits.h>
#include <stddef.h>

#include "io/options/jobfile.h"

typedef struct sb_io_profile {
    char name[16];             /* --profile NAME; "" = none */
    unsigned block;            /* tiobench's block: the block size in bytes (0: fio's 4096) */
    unsigned numruns;          /* tiobench's numruns: loops (0: 1) */
    unsigned threads;          /* tiobench's threads: numjobs (0: 1) */
    char dir[PATH_MAX];        /* tiobench's dir: the directory ("": fio's ./) */
} sb_io_profile;

/* The profile's jobs appended to set, each starting from dflt (the command line's
 * defaults), whose given options (cmdline) stay as given. 0; -EINVAL with one line in err
 * (no such profile, act). */
int sb_io_profile_add(const sb_io_profile *p, const sb_io_job *dflt, const sb_jobfile_given *cmdline,
                      sb_jobset *set, char *err, size_t errlen);

#endif
