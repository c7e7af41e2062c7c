/*
 * io_output — what `storbench io` prints, assembled apart from the command's parsing
 * (cli/io.c): fio's formats (normal, json, json+, terse; formats/fio_report.h) and
 * storbench's own JSON (storbench-json, docs/io-json.md), several at once as fio's
 * --output-format=json,normal, to standard output or to --output FILE. Every job's
 * figures are collected as it ends (one block per job, per thread without
 * group_reporting, per group with it) and the whole report is written when the last
 * job is done, as fio does: one "jobs" array for a whole job file, one "Run status
 * group" per group, the disks' counters taken over the whole run.
 */
#ifndef SB_CLI_IO_OUTPUT_H
#define SB_CLI_IO_OUTPUT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/io_ranks.h"
#include "io/job.h"
#include "io/options/jobfile.h"

/* The formats (one table, io_output.c): a set of these bits. */
enum {
    SB_IOF_NORMAL = 1u,
    SB_IOF_JSON = 2u,
    SB_IOF_JSONPLUS = 4u,
    SB_IOF_TERSE = 8u,
    SB_IOF_STORBENCH_JSON = 16u,
};

/* "json,normal" into *mask. 0, or -EINVAL with one line in err. */
int sb_io_out_formats(const char *list, unsigned *mask, char *err, size_t errlen);
/* The names of the formats, for --help: "normal | json | ...". */
const char *sb_io_out_format_names(void);

typedef struct sb_io_out sb_io_out;

/* Starts a report in formats (a mask) to path (NULL or "-": standard output). A path
 * whose directory cannot be reached is refused now, before anything runs: NULL with one
 * line in err. global: the options every job got (fio's "global options"), or NULL;
 * several: job files (storbench-json then wraps the jobs in {"jobs": [...]}). */
sb_io_out *sb_io_out_begin(unsigned formats, const char *path, const sb_jobfile_given *global,
                           bool several, char *err, size_t errlen);
/* fio's --terse-version: 2 .. 5 (the terse format's fields; 3 until set). */
void sb_io_out_terse_version(sb_io_out *o, int version);
/* Watches the disk under a job's target (its counters now and at the end). */
void sb_io_out_watch(sb_io_out *o, const sb_io_job *job);
/* Before the jobs of a phase start: the process's context switches and faults now. */
void sb_io_out_phase(sb_io_out *o);
/* One job's result: its blocks (one, or one per thread), in group groupid; error the
 * errno of a failed job (its figures are those measured). given: the job's own options
 * ("job options"). ranks: the MPI ranks' report, or NULL. */
void sb_io_out_job(sb_io_out *o, const sb_io_job *job, const sb_io_result *r, unsigned groupid,
                   int error, const sb_jobfile_given *given, const sb_io_ranks_report *ranks);
/* --status-interval: a report of the figures so far. Between begin and end, the running
 * jobs' snapshots go in with sb_io_out_job() as their results would; end writes every
 * block (the ended jobs' and these), to standard output at once or, with --output FILE,
 * kept to be written before the final report, and drops the snapshots' blocks. 0, or
 * -EIO when the stream failed. */
void sb_io_out_status_begin(sb_io_out *o);
int sb_io_out_status_end(sb_io_out *o);
/* Writes the report and frees o. 0, or -errno with one line in err. */
int sb_io_out_end(sb_io_out *o, char *err, size_t errlen);
/* Frees o without writing anything (a run that failed, an MPI rank other than 0). */
void sb_io_out_discard(sb_io_out *o);

/* fio's --showcmd (io_showcmd.c): the jobs of set as one fio command line. 0. */
int sb_io_showcmd(FILE *out, const sb_jobset *set);
/* io_enghelp.c: fio's --enghelp[=ENGINE[,OPTION]] on out. 0; -ENOENT for an unknown engine,
 * -EINVAL for an option the engine does not read. */
int sb_io_enghelp(FILE *out, const char *what);

/* storbench's JSON of one job (storbench-json; docs/io-json.md). */
json_t *sb_io_storbench_json(const sb_io_job *job, const sb_io_result *r);

#endif
