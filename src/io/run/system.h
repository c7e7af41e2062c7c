/*
 * system (private to src/io/) — fio's process and system settings around one job
 * (system.c): lockmem's mlocked memory, ioscheduler on the files' devices (restored
 * after), the job's cgroup v2 (the process moved in, then back, the cgroup removed
 * unless cgroup_nodelete) and exec_prerun / exec_postrun. sb_io_sys_begin runs after
 * the files are laid out (as fio's order: cgroup, scheduler, files, prerun), and
 * sb_io_sys_end undoes what begin did on every path out of the job, success or not.
 */
#ifndef SB_IO_RUN_SYSTEM_H
#define SB_IO_RUN_SYSTEM_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "io/job.h"

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
    bool began;
} sb_io_sys;

/* paths: the names of the job's nfiles files. 0, or -errno with one line in err; the caller
 * calls sb_io_sys_end either way, which undoes what was done. */
int sb_io_sys_begin(const sb_io_job *job, const char *const *paths, unsigned nfiles, sb_io_sys *s,
                    char *err, size_t errlen);
/* Undoes begin; runs exec_postrun when begin ran. failed: the job failed (postrun runs
 * all the same, as fio's). */
void sb_io_sys_end(const sb_io_job *job, sb_io_sys *s);

#endif
