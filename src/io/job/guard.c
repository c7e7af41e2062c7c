/*
 * guard — a job's files against the safety rules before the job runs (guard.h). The
 * names are the job's as given (fio's a:b list); a file that does not exist yet will be
 * the job's own, so only what exists when the command starts is protected.
 */
#include "io/job/guard.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* The --readonly rule: nothing written, trimmed or created. */
static int readonly_rule(const sb_io_job *job, char *err, size_t errlen)
{
    if (sb_io_job_modifies(job)) {
        if (sb_rw_modifies(job->rw))
            snprintf(err, errlen, "rw=%s %s, and --readonly forbids writes and trims", sb_rw_name(job->rw),
                     sb_rw_writes(job->rw) ? "writes" : "trims");
        else
            snprintf(err, errlen, "ioengine=%s changes its files whatever rw says, and --readonly "
                     "forbids it", job->engine);
        return -EROFS;
    }
    if (job->directory[0] && !(job->dir_private && job->keep_files)) {
        snprintf(err, errlen, "directory=%s: the job would create its files there, and --readonly "
                 "creates nothing (name existing files with filename=)", job->directory);
        return -EROFS;
    }
    return 0;
}

/* One named file or device of the job. */
static int one_file(const sb_io_job *job, const char *path, sb_devguard *g, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return 0; /* made by this job: its own */
    if (S_ISBLK(st.st_mode)) {
        if (!sb_io_job_modifies(job))
            return 0;
        const sb_devguard_rules rules = {.allow_mounted = job->allow_mounted_write, .consent = &job->consent};
        return g ? sb_devguard_claim(g, path, &rules, err, errlen)
                 : sb_devguard_check(path, &rules, err, errlen);
    }
    /* zonemode=zbd's trims are zone resets of the emulated zones: nothing is discarded */
    if (S_ISREG(st.st_mode) && sb_rw_trims(job->rw) && job->zonemode != SB_ZONEMODE_ZBD &&
        !sb_devguard_consented(&job->consent, &st)) {
        snprintf(err, errlen, "%s exists and rw=%s would punch holes in it (fio trims no regular file); "
                 "to give its data up, name it with --destroy-data-on %s", path, sb_rw_name(job->rw), path);
        return -EPERM;
    }
    return 0;
}

int sb_io_guard_job(const sb_io_job *job, sb_devguard *g, char *err, size_t errlen)
{
    int r;
    if (job->readonly && (r = readonly_rule(job, err, errlen)) < 0)
        return r;
    for (const char *p = job->filename; *p; p += strlen(p) + 1)
        if ((r = one_file(job, p, g, err, errlen)) < 0)
            return r;
    return 0;
}
