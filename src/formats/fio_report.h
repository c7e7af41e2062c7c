/*
 * fio_report — fio's output formats (normal, json, json+, terse version 3), written from a
 * plain description of what ran: the jobs (or threads, or groups, as fio reports them),
 * their figures per direction, and the disks under them. The formats layer sees neither
 * the I/O engine nor the command line; cli/io_output.c fills this struct from the engine's
 * results and the options as given, and these writers only lay it out, following fio
 * 3.33's stat.c layouts (SB_FIO_SCHEMA) so that readers written for fio's output, and
 * fio's own tools (fio_jsonplus_clat2csv), read storbench's. What storbench does not
 * measure is left out or marked (docs/io.md, "Output formats"), never made up.
 */
#ifndef SB_FORMATS_FIO_REPORT_H
#define SB_FORMATS_FIO_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "core/histogram.h"

/* The fio version whose output layout these writers follow. */
#define SB_FIO_SCHEMA "fio-3.33"

enum { SB_FIO_READ = 0, SB_FIO_WRITE = 1, SB_FIO_TRIM = 2, SB_FIO_NDIR = 3 };
/* unified_rw_reporting's direction: every I/O of the job as one ("mixed"), after the three */
enum { SB_FIO_MIXED = 3, SB_FIO_NDIRS = 4 };
/* unified_rw_reporting: the directions apart (none), only the mixed one, or both */
enum { SB_FIO_UNIFIED_NONE = 0, SB_FIO_UNIFIED_MIXED = 1, SB_FIO_UNIFIED_BOTH = 2 };

/* fio's per-priority latency (cmdprio): the class and level, and the completion latency
 * of the direction's I/Os that had that priority. */
typedef struct sb_fio_prio {
    int cls, level;
    const sb_histogram *clat;
} sb_fio_prio;

/* One direction of one report. */
typedef struct sb_fio_dir {
    uint64_t ios, bytes;
    /* Completion latency, ns (fio's clat: from the submission to completion); NULL or
     * empty: none. slat (from the I/O's start to its submission) and lat (start to
     * completion) are an asynchronous engine's; NULL for a synchronous one, which fio
     * gives no slat and whose lat is its clat (the writers use clat then). */
    const sb_histogram *clat, *slat, *lat;
    /* Bandwidth (bytes/s) and IOPS samples of this direction (fio's, one per bwavgtime /
     * iopsavgtime); n = 0: none. */
    const double *bw_samples, *iops_samples;
    size_t n_samples, n_iops_samples;
    const sb_fio_prio *prios;  /* cmdprio: one per priority seen, n_prios = 0: none */
    size_t n_prios;
    double runtime_s;          /* this direction's runtime (verify's reads add theirs); 0: the job's;
                                * negative: none (fio's 0 ms: bandwidth and IOPS 0) */
} sb_fio_dir;

/* One "key", "value" pair of fio's "job options" / "global options". */
typedef struct sb_fio_opt {
    const char *key, *value;
} sb_fio_opt;

/* One report block: a job, one thread of a job (numjobs without group_reporting), or a
 * group's jobs together (group_reporting). */
typedef struct sb_fio_job {
    char name[64];
    unsigned groupid;
    unsigned jobs;             /* threads the block covers (fio's "jobs=N") */
    int error;                 /* errno of a failed job, else 0 */
    long pid;
    double runtime_s;          /* measured time (the longest thread) */
    double elapsed_s;          /* from start to end, ramp included */
    sb_fio_dir dir[SB_FIO_NDIRS]; /* [SB_FIO_MIXED]: filled under unified_rw_reporting */
    const sb_histogram *lat_all; /* all directions together (fio's latency_ns/us/ms) */
    /* CPU and faults of the process over the job's run (storbench's jobs are threads of
     * one process); usr/sys as % of the job's wall time, as fio's. */
    double usr_pct, sys_pct;
    uint64_t ctx, majf, minf;
    /* fio's IO depth maps as counts: I/Os by the queue's depth at submission (1, 2, 4, 8,
     * 16, 32, >=64), submit and reap calls by the I/Os they carried (0, 4, 8, 16, 32, 64,
     * >=64); depth_known false: not counted (left out). */
    bool depth_known;
    uint64_t depth_level[7], depth_submit[7], depth_complete[7];
    bool no_syncs;             /* the job calls no fsync/fdatasync: fio's "sync" is all 0 */
    const sb_histogram *sync_lat; /* fsync=N / fdatasync=N: each sync's latency, or NULL */
    uint64_t sync_ios;         /* ... of them fsyncs (fio's "sync" total_ios and issued rwts) */
    uint64_t zone_resets;      /* zonemode=zbd's resets (fio's "; N zone resets") */
    /* What the header line names. */
    const char *rw, *engine;
    uint64_t bs_min, bs_max;
    unsigned iodepth;
    /* percentile_list, or none (fio's default list) */
    const double *percentiles;
    unsigned n_percentiles;
    bool clat_percentiles, slat_percentiles, lat_percentiles;
    const sb_fio_opt *opts;    /* the job's own options as given ("job options") */
    size_t n_opts;
    const char *desc;          /* its description= (its own or its [global]'s), or NULL */
    /* fio's continue_on_error: the errors the job went on after, and the first of them
     * (an errno); printed only for jobs that set it, as fio's */
    bool continue_on_error;
    uint64_t total_err;
    int first_error;
    /* fio's latency target line: the target (ns), window (us), percentile and the depth
     * the search ended at (without a target: 0, 0, 100 and iodepth, as fio prints) */
    uint64_t latency_target_ns, latency_window_us;
    double latency_percentile;
    unsigned latency_depth;
    /* fio's reporting options: unified_rw_reporting (SB_FIO_UNIFIED_*), significant_figures
     * (digits of the normal output's IOPS, BW and io=; 0: fio's 4), unit_base=1 (the normal
     * output's bandwidth in bits), disable_lat/clat/slat (those latencies left out) */
    int unified;
    unsigned sig_figs;
    bool bits;
    bool no_lat, no_clat, no_slat;
} sb_fio_job;

/* One disk's /sys/block/NAME/stat difference over the run, as fio's disk_util. */
typedef struct sb_fio_disk {
    char name[64];
    uint64_t ios[2], merges[2], ticks[2], in_queue;
    double util_pct;           /* io_ticks over the elapsed time */
} sb_fio_disk;

/* A group's figures per direction for "Run status group": bytes, the aggregate bandwidth
 * (bytes over the longest runtime), the jobs' least and greatest bandwidth and runtime. */
typedef struct sb_fio_group {
    unsigned id;
    uint64_t bytes[SB_FIO_NDIRS];
    double agg_bw[SB_FIO_NDIRS], min_bw[SB_FIO_NDIRS], max_bw[SB_FIO_NDIRS];
    double min_run_s[SB_FIO_NDIRS], max_run_s[SB_FIO_NDIRS];
} sb_fio_group;
typedef struct sb_fio_report {
    const sb_fio_job *jobs;
    size_t n_jobs;
    const sb_fio_opt *global_opts;
    size_t n_global;
    const sb_fio_disk *disks;
    size_t n_disks;
    time_t when;               /* the report's timestamp */
    uint64_t when_ms;
    const char *version;       /* storbench's, named beside SB_FIO_SCHEMA */
    int terse_version;         /* fio's --terse-version: 2 .. 5 (0: 3) */
    bool header_done;          /* normal's job lines are printed already (before other formats) */
    const sb_fio_group *groups; /* one per groupid the jobs name */
    size_t n_groups;
} sb_fio_report;

/* ---- shared by the writers (fio_report.c) ---- */

/* fio's default percentile list (the 17 of sb_hist_percentiles). */
void sb_fio_percentiles(const sb_fio_job *j, const double **p, unsigned *n);
/* The share (%) of d's I/Os, or all of them, whose latency falls in each of fio's buckets:
 * ns[10] ("2" .. "1000" ns), us[10], ms[12] ("2" .. "2000", ">=2000"). */
void sb_fio_lat_buckets(const sb_histogram *h, double ns[10], double us[10], double ms[12]);
extern const char *const sb_fio_lat_labels[12];
/* min, max, mean, standard deviation of n samples; false when n = 0. */
bool sb_fio_sample_stats(const double *v, size_t n, double *min, double *max, double *mean, double *dev);
/* fio's num2str: num in at most maxlen digits, scaled by 1000 (or 1024 with pow2) with a
 * prefix (k, M ... or Ki, Mi ...), then unit. */
void sb_fio_num2str(char *buf, size_t len, double num, int maxlen, bool pow2, const char *unit);
/* Group groupid of report r (all 0 when r has none such). */
void sb_fio_group_of(const sb_fio_report *r, unsigned groupid, sb_fio_group *g);
double sb_fio_bw(const sb_fio_job *j, int d);   /* bytes/s over the direction's runtime */
double sb_fio_dir_runtime(const sb_fio_job *j, int d); /* its own, else the job's (s) */
/* counts[7] as % of their sum (0 when the sum is 0). */
void sb_fio_shares(const uint64_t *counts, double *pct);
double sb_fio_iops(const sb_fio_job *j, int d);
/* The directions job j reports, in fio's order, into d[4]: read, write, trim without
 * unified_rw_reporting; mixed alone with mixed; all four with both. Their count. */
int sb_fio_dirs(const sb_fio_job *j, int d[SB_FIO_NDIRS]);

/* ---- the writers ---- */

/* fio's JSON (fio_json.c); plus: json+ (clat_ns "bins"). The caller owns the result. */
json_t *sb_fio_json(const sb_fio_report *r, bool plus);
/* fio's terse format, versions 2 to 5 (fio_terse.c): one line per job. */
void sb_fio_print_terse(FILE *out, const sb_fio_report *r);
/* fio's normal output (fio_normal.c): the job header lines, one block per job, the
 * "Run status group" lines and "Disk stats". extra(out, i, arg), when given, adds
 * storbench's own lines at the end of job i's block. */
void sb_fio_print_normal(FILE *out, const sb_fio_report *r,
                         void (*extra)(FILE *out, size_t i, void *arg), void *arg);
/* Its job lines alone ("Starting N threads"), which fio prints as the jobs start, so before
 * the other formats when there are several; then set header_done for sb_fio_print_normal. */
void sb_fio_print_normal_header(FILE *out, const sb_fio_report *r);

#endif
