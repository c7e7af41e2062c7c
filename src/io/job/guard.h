/*
 * guard — what a command checks of an I/O job before anything of it runs, so that no
 * job destroys data the user did not give up (docs/safety.md): --readonly refuses a job
 * that would write, trim or create; every block device a writing or trimming job names
 * goes through the device rules (core/devguard.h) and is claimed for the command's
 * life; an existing file that a trim would punch holes in must have been given up
 * (--destroy-data-on FILE), as fio itself trims no regular file.
 */
#ifndef SB_IO_GUARD_H
#define SB_IO_GUARD_H

#include <stddef.h>

#include "core/devguard.h"
#include "io/job.h"

/* Checks job; with g, claims its block devices in g (the caller releases g when the
 * command ends), without g (a rank of several, where one claim would refuse the others)
 * checks them without the exclusive probe. 0, or a negative errno with one line in err:
 * a refusal, which commands report as bad usage (exit 2). */
int sb_io_guard_job(const sb_io_job *job, sb_devguard *g, char *err, size_t errlen);

#endif
