/*
 * system (private to src/io/) — fio's process and system settings around one job
 * (system.c): lockmem's mlocked memory, ioscheduler on the files' devices (restored
 * after), the job's cgroup v2 (the process moved in, then back, the cgroup removed
 * unless cgroup_nodelete) and exec_prerun / exec_postrun. sb_io_sys_begin runs before
 * the files are laid out and sb_io_sys_prerun after (fio's order: cgroup, scheduler,
 * files, prerun), and sb_io_sys_end undoes what begin did on every path out of the
 * job, success or not. uid/gid: the job's controlling thread takes the job's user and group (the ones fio's
 * worker sets) before the files are made, and root's back after.
 */
#ifndef SB_IO_RUN_SYSTEM_H
#define SB_IO_RUN_SYSTEM_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "io/job.h"
#include "io/run/sysundo.h"

#define SB_IO_SYS_MAX_DEVS 16

typedef struct sb_io_sys {
    void *locked;              /* lockmem: the mapping, mlocked */
    size_t locked_len;
    unsigned ndev;             /* ioscheduler: each device's file and its scheduler before */
    char sched_path[SB_IO_SYS_MAX_DEVS][96];
    char sched_old[SB_IO_SYS_MAX_DEVS][32];
    char cg_dir[PATH_MAX];     /* cgroup: the one made ("" none), the caller's before */
    char cg_from[PATH_MAX];
    bool cg_made, cg_moved;
    bool dropped;              /* uid/gid: the effective ids are the job's */
    gid_t egid;
    sb_io_undo undo;           /* the scheduler and cgroup changes, journaled before */
    bool began;
} sb_io_sys;

/* Before the files are made: the cgroup, the scheduler of the devices under paths (the
 * job's file names, or its directory), lockmem, then uid/gid (dir_made: the private
 * directories made for the job's files, a list as sb_io_files_dir's, given to the job's
 * user). 0, or -errno with one
 * line in err; the caller calls sb_io_sys_end either way, which undoes what was done. */
int sb_io_sys_begin(const sb_io_job *job, const char *const *paths, unsigned npaths, const char *dir_made,
                    sb_io_sys *s, char *err, size_t errlen);
/* exec_prerun, once the files are laid out. 0, or -errno with err. */
int sb_io_sys_prerun(const sb_io_job *job, sb_io_sys *s, char *err, size_t errlen);
/* Undoes begin, after exec_postrun (as the job's user) when begin ran. */
void sb_io_sys_end(const sb_io_job *job, sb_io_sys *s);

#endif
