/*
 * guard — a job's files against the safety rules before the job runs (guard.h). The
 * names are the job's as given (fio's a:b list); a file that does not exist yet will be
 * the job's own, so only what exists when the command starts is protected.
 */
#include "io/job/guard.h"

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "io/engine.h"

#define SG_CHAR_MAJOR 21 /* linux/major.h's SCSI_GENERIC_MAJOR */

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
    /* read_iolog: the log names the file (io/loop/replay.c checks the job again with it) */
    if (job->directory[0] && !job->read_iolog[0] && !(job->dir_private && job->keep_files)) {
        snprintf(err, errlen, "directory=%s: the job would create its files there, and --readonly "
                 "creates nothing (name existing files with filename=)", job->directory);
        return -EROFS;
    }
    return 0;
}

/* The sg engine's target: /dev/sgN or a SCSI disk (SB_ENGINE_SCSI), named, never made. */
static int scsi_refusal(const char *path, char *err, size_t errlen)
{
    glob_t gl;
    bool none = glob("/dev/sg[0-9]*", 0, NULL, &gl) != 0;
    if (!none)
        globfree(&gl);
    snprintf(err, errlen, "ioengine=sg needs a SCSI generic device (/dev/sgN) or a SCSI disk, and %s is "
             "not one%s", path, none ? " (this machine has no /dev/sg* device)" : "");
    return -ENODEV;
}

/* /dev/sgN's disk, /dev/sdX (sysfs: the device's block/ directory), for the device rules. */
static int sg_disk(const struct stat *st, char *disk, size_t len)
{
    char dir[96];
    snprintf(dir, sizeof dir, "/sys/dev/char/%u:%u/device/block", major(st->st_rdev), minor(st->st_rdev));
    DIR *d = opendir(dir);
    struct dirent *e;
    int r = -ENOENT;
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.') {
            snprintf(disk, len, "/dev/%s", e->d_name);
            r = 0;
            break;
        }
    if (d)
        closedir(d);
    return r;
}

static int scsi_target(const sb_io_job *job, const char *path, sb_devguard *g, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) < 0 || !(S_ISBLK(st.st_mode) || (S_ISCHR(st.st_mode) && major(st.st_rdev) ==
                                                                                SG_CHAR_MAJOR)))
        return scsi_refusal(path, err, errlen);
    if (S_ISBLK(st.st_mode) || !sb_io_job_modifies(job))
        return 1; /* a disk: the rules of any block device below */
    char disk[300];
    if (sg_disk(&st, disk, sizeof disk) < 0) {
        snprintf(err, errlen, "rw=%s on %s: no disk behind it for the device rules to check (sg writes "
                 "only to a SCSI device that is a disk)", sb_rw_name(job->rw), path);
        return -EPERM;
    }
    const sb_devguard_rules rules = {.allow_mounted = job->allow_mounted_write, .consent = &job->consent};
    return g ? sb_devguard_claim(g, disk, &rules, err, errlen) : sb_devguard_check(disk, &rules, err, errlen);
}

/* One named file or device of the job. */
static int one_file(const sb_io_job *job, const char *path, sb_devguard *g, char *err, size_t errlen)
{
    struct stat st;
    int r;
    if (sb_engine_can(job->engine, SB_ENGINE_SCSI) && (r = scsi_target(job, path, g, err, errlen)) <= 0)
        return r;
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
    if (sb_engine_can(job->engine, SB_ENGINE_SCSI) && !job->filename[0])
        return scsi_refusal(job->directory, err, errlen);
    for (const char *p = job->filename; *p; p += strlen(p) + 1)
        if ((r = one_file(job, p, g, err, errlen)) < 0)
            return r;
    return 0;
}
