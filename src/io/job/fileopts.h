/*
 * fileopts (private to src/io/) — fio's options about a job's files that act before or
 * around the run (fileopts.c): opendir and file_append made explicit on the job copy
 * that runs, a filename's parent directories, what is done to each descriptor opened
 * for the run (write_hint, atomic), and pre_read.
 */
#ifndef SB_IO_JOB_FILEOPTS_H
#define SB_IO_JOB_FILEOPTS_H

#include <stddef.h>

#include "io/job.h"

/* The rules of these options (part of sb_io_job_check): 0, or -EINVAL with one line. */
int sb_io_fileopts_check(const sb_io_job *job, char *err, size_t errlen);
/* opendir's files into job->filename; file_append's offset. 0, or -errno with err. */
int sb_io_fileopts_resolve(sb_io_job *job, char *err, size_t errlen);
/* Makes the missing parent directories of path (0700), as fio's. 0 or -errno with err. */
int sb_io_fileopts_parents(const char *path, char *err, size_t errlen);
/* write_hint and atomic on fd opened for the run. 0 or -errno with err. */
int sb_io_fileopts_open(const sb_io_job *job, int fd, const char *path, char *err, size_t errlen);
/* pre_read: the job's region of path read once (into the page cache). 0 or -errno. */
int sb_io_fileopts_pre_read(const sb_io_job *job, const char *path, char *err, size_t errlen);

#endif
