/*
 * jobfile — fio's job files, the io layer's input language, read as fio's own parser
 * (init.c, __parse_jobs_ini) reads them: [sections], a [global] section whose options
 * every later job starts from, `key=value` or a bare `key` (a switch) per line, `;`
 * and `#` comments (also after a value), `include FILE` inside a section (relative to
 * the including file when not found as given; no sections inside), `${VAR}` from the
 * environment (unset: empty) and fio's `$ncpus`, `$pagesize`, `$mb_memory` with
 * integer arithmetic (`size=8*$mb_memory`) in values. Every option goes through the
 * one option table (options.h), sizes by fio's kb_base (1024 unless the section says
 * otherwise); fio's job-order keys are the reader's own: stonewall, new_group,
 * wait_for (and description, which only describes). An option storbench does not
 * have is refused with its place: "FILE:LINE: unknown option 'xyz'".
 *
 * The same job list takes the command line's jobs (`--name NAME` starts one, as fio),
 * so both are applied by sb_jobfile_apply().
 */
#ifndef SB_IO_JOBFILE_H
#define SB_IO_JOBFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "io/job.h"

/* Options as given, in order, "key\0value\0" pairs (a bare switch's value is ""): what
 * fio's JSON prints as "job options" and "global options" (cli/io_output.c). */
typedef struct sb_jobfile_given {
    char buf[4096];
    size_t len;
    /* fio's description= in force: the section's own, else its [global]'s (fio's options
     * inherit from [global], and its JSON "desc", "Description  :" line and terse field
     * print it); at most 255 bytes, as fio keeps */
    char description[256];
} sb_jobfile_given;
/* Appends key=value (value NULL: a switch). false when full (then left out, never cut). */
bool sb_jobfile_given_add(sb_jobfile_given *g, const char *key, const char *value);

typedef struct sb_jobfile_job {
    sb_io_job job;
    sb_jobfile_given given;    /* the section's own options (not its [global]'s) */
    bool stonewall;            /* wait for every earlier job first (fio's stonewall) */
    bool new_group;            /* starts a new reporting group */
    char wait_for[64];         /* fio's wait_for=NAME: start after that job ended */
    unsigned group;            /* reporting group (0, 1, ...), set by sb_jobset_order() */
    unsigned phase;            /* jobs of one phase run at once, phases one after another */
    char where[300];           /* FILE:LINE of the section, for messages */
} sb_jobfile_job;

typedef struct sb_jobset {
    sb_jobfile_job **jobs;     /* each malloc'd (a job is large: paths) */
    size_t n, cap;
    sb_jobfile_given global;   /* the job files' [global] options as given */
} sb_jobset;

/* Appends a job that starts as a copy of from, called name. NULL when out of memory. */
sb_jobfile_job *sb_jobset_add(sb_jobset *set, const sb_io_job *from, const char *name,
                              const char *where);
void sb_jobset_free(sb_jobset *set);

/* One option into j: the reader's own keys, else the option table's entry (sizes read by
 * kb_base, as ctx_kb says: 0 for storbench's command line). 0; -ENOENT when key is no
 * option at all ("unknown option 'key'" in err); -EINVAL with the entry's line. */
int sb_jobfile_apply(sb_jobfile_job *j, const char *key, const char *value, unsigned ctx_kb,
                     char *err, size_t errlen);

/* Reads path into set: each job section a job starting from defaults, then the file's
 * [global] as far as it has come, then its own lines. sections (n of them, or none): only
 * the jobs so named, as fio's --section. stonewall: the file's first job waits for all
 * before (fio separates job files so). 0, or -errno with "FILE:LINE: why" in err. */
int sb_jobfile_read(const char *path, const sb_io_job *defaults, const char *const *sections,
                    size_t nsections, bool stonewall, sb_jobset *set, char *err, size_t errlen);

/* The jobs' groups and phases from stonewall, new_group and wait_for (a wait_for naming a
 * job of the current phase starts a new phase: a barrier, stricter than fio's, which
 * waits for that one job only). A wait_for naming no earlier job sets that job's
 * run_fail (job.h): its run fails, as fio's. */
int sb_jobset_order(sb_jobset *set, char *err, size_t errlen);

/* $ncpus, $pagesize, $mb_memory and ${VAR} in value, into out; then, when a $ keyword was
 * replaced, integer arithmetic (+ - * / and parentheses) as fio's. 0 or -EINVAL. */
int sb_jobfile_expand(const char *value, char *out, size_t outlen);

#endif
