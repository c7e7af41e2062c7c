/*
 * io — `storbench io`: one ad-hoc fio-class job from flags, run by the I/O
 * engine (src/io), printed as a readable summary in the manner of fio's, or as
 * JSON (--output-format json, documented in docs/io-json.md; every key carries
 * its unit). Ctrl-C stops the job and prints what was measured so far.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/io_ranks.h"
#include "core/cpuset.h"
#include "cli/io_series.h"
#include "core/histogram.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/ranks.h"
#include "core/units.h"
#include "io/engine.h"
#include "io/job.h"

#define CMD "io"

static void usage(FILE *out)
{
    fputs(
"usage: storbench io [OPTIONS] --filename FILE | --directory DIR\n"
"Runs one fio-class I/O job and prints its throughput and latency.\n\n"
"  --rw MODE            read | write | randread | randwrite | rw | randrw (default read)\n"
"  --bs SIZE            block size, 512 .. 64M (default 4k)\n"
"  --size SIZE          bytes per pass, per file (default 1g)\n"
"  --offset SIZE        start of the region in the file (default 0)\n"
"  --ioengine NAME      psync | sync | posixaio | libaio | io_uring | mmap (default psync)\n"
"  --iodepth N          I/Os in flight, 1 .. 1024 (default 1)\n"
"  --iodepth_batch_submit N        I/Os per submission (default 1: each on its own, as fio)\n"
"  --iodepth_batch_complete_min N  when the queue is full, wait for at least N (default 1)\n"
"  --iodepth_batch_complete_max N  reap at most N per call (default: the min, as fio)\n"
"  --direct[=0|1]       O_DIRECT (default 0)\n"
"  --numjobs N          threads; one file each with --directory, shared with --filename\n"
"  --runtime DURATION   stop after this long (20, 20s, 500ms, 2m)\n"
"  --time_based[=0|1]   repeat passes until --runtime\n"
"  --ramp_time DURATION I/O before measuring starts, not counted\n"
"  --startdelay DURATION idle before the job starts\n"
"  --rwmixread PCT      % reads of rw/randrw (default 50)\n"
"  --fsync N            fdatasync after every N writes\n"
"  --end_fsync[=0|1]    fdatasync at the end, inside the timing\n"
"  --norandommap[=0|1]  random blocks drawn independently (default: each once per pass)\n"
"  --invalidate[=0|1]   drop the file's page cache first (default 1)\n"
"  --registerfiles[=0|1], --fixedbufs[=0|1]  io_uring: registered file / buffers\n"
"                       (default: used when the kernel accepts them; =1 requires them)\n"
"  --randseed N         seed of the offset sequence (default 24301)\n"
"  --cpus_allowed LIST  run the job's threads only on these CPUs (0-3,6; default: every\n"
"                       CPU the process may use, placed by the scheduler, as fio)\n"
"  --cpus_allowed_policy shared|split  all threads on all of them (default), or thread\n"
"                       i on the i-th CPU of the list, round robin\n"
"  --verify ALGO        crc32c | xxhash | sha256 | pattern: every block written carries a\n"
"                       header and checksum and is checked when read back\n"
"  --do_verify[=0|1]    read back and check every written block after the job (default 1)\n"
"  --verify_backlog N   also check every N written blocks while the job runs\n"
"  --verify_only[=0|1]  write nothing: check a file written earlier by the same job\n"
"  --log_interval DURATION  one time-series sample per interval (default 1s, at least\n"
"                       10ms; --log_avg_msec N is the same in milliseconds, as fio)\n"
"  --steadystate CRIT   stop when settled: iops|iops_slope|bw|bw_slope:LIMIT[%%] as fio\n"
"                       (needs --ss_dur), or snia[:bw] (SNIA PTS rounds); makes the job\n"
"                       time based, --runtime its limit (default 1h; snia: 25 rounds)\n"
"  --ss_dur DURATION    the rolling window of 1 s samples (fio's steadystate_duration)\n"
"  --ss_ramp DURATION   measured time before samples are collected for the check\n"
"  --ss_round DURATION  snia: the length of a round (default 1m)\n"
"  --output-format FMT  normal | json\n"
"  --filename FILE      the file (or block device) to use\n"
"  --directory DIR      make one file per job here, removed afterwards\n"
"Under mpirun (storbench-mpi, docs/mpi.md) every rank runs the job:\n"
"  --shared-file        all ranks use one file, rank R at offset + R * size\n"
"                       (default: a directory, or FILE.R, per rank)\n"
"  --stonewall DURATION every rank stops this far into the measured phase\n", out);
}

static bool stop_cb(void *arg) { return sb_interrupted(); }

/* ------------------------------------------------------------ JSON output */

json_t *sb_io_lat_json(const sb_histogram *h)
{
    json_t *o = json_object();
    json_t *pct = json_object();
    json_object_set_new(o, "samples", json_integer((json_int_t)h->count));
    json_object_set_new(o, "min", json_integer(h->count ? (json_int_t)h->min : 0));
    json_object_set_new(o, "max", json_integer((json_int_t)h->max));
    json_object_set_new(o, "mean", json_real(sb_hist_mean(h)));
    json_object_set_new(o, "stddev", json_real(sb_hist_stddev(h)));
    for (int i = 0; i < SB_HIST_N_PERCENTILES; i++) {
        char k[16];
        snprintf(k, sizeof k, "p%g", sb_hist_percentiles[i]);
        json_object_set_new(pct, k, json_real(sb_hist_percentile(h, sb_hist_percentiles[i])));
    }
    json_object_set_new(o, "percentiles", pct);
    return o;
}

static json_t *dir_json(const sb_io_result *r, int d, uint64_t ios, uint64_t bytes, const sb_histogram *h)
{
    json_t *o = json_object();
    json_object_set_new(o, "ios", json_integer((json_int_t)ios));
    json_object_set_new(o, "bytes", json_integer((json_int_t)bytes));
    json_object_set_new(o, "iops", json_real(sb_io_result_iops(r, d)));
    json_object_set_new(o, "bw_bytes_per_s", json_real(sb_io_result_bw(r, d)));
    json_object_set_new(o, "lat_ns", sb_io_lat_json(h));
    return o;
}

/* The tool's own cost (job.h): CPU time of the process while the job's threads ran. */
static json_t *cpu_json(const sb_io_result *r)
{
    json_t *o = json_object();
    double n = r->cpu_ios ? (double)r->cpu_ios : 1;
    json_object_set_new(o, "user_s", json_real(r->cpu_user_s));
    json_object_set_new(o, "sys_s", json_real(r->cpu_sys_s));
    json_object_set_new(o, "wall_s", json_real(r->cpu_wall_s));
    json_object_set_new(o, "ios", json_integer((json_int_t)r->cpu_ios));
    json_object_set_new(o, "user_ns_per_io", json_real(r->cpu_ios ? r->cpu_user_s * 1e9 / n : 0));
    json_object_set_new(o, "sys_ns_per_io", json_real(r->cpu_ios ? r->cpu_sys_s * 1e9 / n : 0));
    json_object_set_new(o, "user_pct", json_real(r->cpu_wall_s > 0 ? 100 * r->cpu_user_s / r->cpu_wall_s : 0));
    json_object_set_new(o, "sys_pct", json_real(r->cpu_wall_s > 0 ? 100 * r->cpu_sys_s / r->cpu_wall_s : 0));
    return o;
}

static json_t *result_json(const sb_io_job *job, const sb_io_result *r)
{
    json_t *root = json_object(), *j = json_object();
    json_object_set_new(root, "storbench_version", json_string(STORBENCH_VERSION));
    json_object_set_new(root, "format_version", json_integer(1));
    json_object_set_new(j, "rw", json_string(sb_rw_name(job->rw)));
    json_object_set_new(j, "ioengine", json_string(r->engine));
    if (!strcmp(r->engine, "io_uring")) {
        /* as ran: by default each is used when the kernel accepts it */
        json_object_set_new(j, "registerfiles", json_boolean(r->uring_fixed_files));
        json_object_set_new(j, "fixedbufs", json_boolean(r->uring_fixed_bufs));
    }
    json_object_set_new(j, "bs_bytes", json_integer((json_int_t)job->bs));
    json_object_set_new(j, "size_bytes", json_integer((json_int_t)job->size));
    json_object_set_new(j, "offset_bytes", json_integer((json_int_t)job->offset));
    json_object_set_new(j, "iodepth", json_integer(job->iodepth));
    json_object_set_new(j, "effective_iodepth", json_integer(r->effective_iodepth));
    {
        /* the batching that ran: defaults resolved, clamped to the depth as the worker does */
        unsigned d = r->effective_iodepth, b = job->batch_submit ? job->batch_submit : 1;
        unsigned cmin = job->batch_complete_min ? job->batch_complete_min : 1;
        unsigned cmax = job->batch_complete_max ? job->batch_complete_max : cmin;
        json_object_set_new(j, "iodepth_batch_submit", json_integer(b < d ? b : d));
        json_object_set_new(j, "iodepth_batch_complete_min", json_integer(cmin < d ? cmin : d));
        json_object_set_new(j, "iodepth_batch_complete_max", json_integer(cmax < d ? cmax : d));
    }
    json_object_set_new(j, "numjobs", json_integer(job->numjobs));
    json_object_set_new(j, "direct", json_boolean(job->direct));
    json_object_set_new(j, "runtime_s", json_real(job->runtime_s));
    json_object_set_new(j, "time_based", json_boolean(job->time_based));
    json_object_set_new(j, "ramp_time_s", json_real(job->ramp_s));
    json_object_set_new(j, "startdelay_s", json_real(job->startdelay_s));
    json_object_set_new(j, "rwmixread_pct", json_integer(job->rwmixread));
    json_object_set_new(j, "fsync_every", json_integer(job->fsync_every));
    json_object_set_new(j, "end_fsync", json_boolean(job->end_fsync));
    json_object_set_new(j, "norandommap", json_boolean(job->norandommap));
    json_object_set_new(j, "randseed", json_integer((json_int_t)job->seed));
    if (job->cpus_allowed_set) {
        char list[256];
        sb_cpuset_format(&job->cpus_allowed, list, sizeof list);
        json_object_set_new(j, "cpus_allowed", json_string(list));
        json_object_set_new(j, "cpus_allowed_policy", json_string(job->cpus_split ? "split" : "shared"));
    }
    json_object_set_new(j, job->filename[0] ? "filename" : "directory",
                        json_string(job->filename[0] ? job->filename : job->directory));
    if (job->verify) {
        json_object_set_new(j, "verify", json_string(sb_verify_algo_name(job->verify)));
        json_object_set_new(j, "do_verify", json_boolean(job->do_verify));
        json_object_set_new(j, "verify_backlog", json_integer(job->verify_backlog));
        json_object_set_new(j, "verify_only", json_boolean(job->verify_only));
    }
    json_object_set_new(root, "job", j);
    json_object_set_new(root, "elapsed_s", json_real(r->seconds));
    json_object_set_new(root, "interrupted", json_boolean(r->interrupted));
    json_object_set_new(root, "read", dir_json(r, SB_DDIR_READ, r->dir[0].ios, r->dir[0].bytes, &r->dir[0].clat));
    json_object_set_new(root, "write", dir_json(r, SB_DDIR_WRITE, r->dir[1].ios, r->dir[1].bytes, &r->dir[1].clat));
    json_object_set_new(root, "total", dir_json(r, -1, r->dir[0].ios + r->dir[1].ios,
                                                r->dir[0].bytes + r->dir[1].bytes, &r->clat_all));
    json_t *ps = json_object(), *bw = json_array(), *iops = json_array();
    for (size_t i = 0; i < r->n_seconds; i++) {
        json_array_append_new(bw, json_real(r->bw_bytes_per_s[i]));
        json_array_append_new(iops, json_real(r->iops[i]));
    }
    json_object_set_new(ps, "bw_bytes_per_s", bw);
    json_object_set_new(ps, "iops", iops);
    json_object_set_new(root, "per_second", ps);
    json_object_set_new(root, "cpu", cpu_json(r));
    if (job->verify) {
        const sb_verify_stats *v = &r->verify;
        json_t *o = json_object();
        json_object_set_new(o, "algorithm", json_string(sb_verify_algo_name(job->verify)));
        json_object_set_new(o, "blocks_checked", json_integer((json_int_t)v->blocks_checked));
        json_object_set_new(o, "bytes_checked", json_integer((json_int_t)v->bytes_checked));
        json_object_set_new(o, "errors", json_integer((json_int_t)v->errors));
        json_object_set_new(o, "first_bad_offset_bytes",
                            v->errors ? json_integer((json_int_t)v->first_bad_offset) : json_null());
        json_object_set_new(o, "writes_moved", json_integer((json_int_t)v->writes_moved));
        json_object_set_new(o, "reads_unchecked", json_integer((json_int_t)v->reads_unchecked));
        json_object_set_new(root, "verify", o);
    }
    json_object_set_new(root, "series", sb_io_series_json(r));
    json_t *ss = sb_io_steady_json(r);
    if (ss)
        json_object_set_new(root, "steadystate", ss);
    return root;
}

/* ------------------------------------------------------------ text output */

static void fmt_count(char *buf, size_t len, double v)
{
    if (v >= 1e6)
        snprintf(buf, len, "%.2fM", v / 1e6);
    else if (v >= 1e4)
        snprintf(buf, len, "%.1fk", v / 1e3);
    else
        snprintf(buf, len, "%.0f", v);
}

static void print_dir(const char *name, const sb_io_result *r, int d)
{
    const sb_histogram *h = &r->dir[d].clat;
    char iops[32], bwi[32], bws[32], tot[32];
    fmt_count(iops, sizeof iops, sb_io_result_iops(r, d));
    sb_format_iec(bwi, sizeof bwi, sb_io_result_bw(r, d), "B/s");
    sb_format_si(bws, sizeof bws, sb_io_result_bw(r, d), "B/s");
    sb_format_iec(tot, sizeof tot, (double)r->dir[d].bytes, "B");
    printf("  %s: IOPS=%s, BW=%s (%s), %s in %.2f s\n", name, iops, bwi, bws, tot, r->seconds);
    double scale = h->max >= 10000000 ? 1e6 : h->max >= 10000 ? 1e3 : 1;
    const char *unit = scale == 1e6 ? "ms" : scale == 1e3 ? "us" : "ns";
    printf("    clat (%s): min=%.2f, max=%.2f, mean=%.2f, stddev=%.2f\n", unit,
           (double)h->min / scale, (double)h->max / scale, sb_hist_mean(h) / scale,
           sb_hist_stddev(h) / scale);
    printf("    clat percentiles (%s):\n", unit);
    for (int i = 0; i < SB_HIST_N_PERCENTILES; i++) {
        printf("%s%6.2fth=[%.2f]%s", i % 4 == 0 ? "     |" : " ", sb_hist_percentiles[i],
               sb_hist_percentile(h, sb_hist_percentiles[i]) / scale,
               i % 4 == 3 || i == SB_HIST_N_PERCENTILES - 1 ? "\n" : ",");
    }
}

static void print_summary(const sb_io_job *job, const sb_io_result *r)
{
    char bs[32], size[32];
    sb_format_iec(bs, sizeof bs, (double)job->bs, "B");
    sb_format_iec(size, sizeof size, (double)job->size, "B");
    printf("storbench io: rw=%s, bs=%s, size=%s, ioengine=%s, iodepth=%u, numjobs=%u, %s%s\n",
           sb_rw_name(job->rw), bs, size, r->engine, r->effective_iodepth, job->numjobs,
           job->direct ? "direct" : "buffered", r->interrupted ? " (interrupted)" : "");
    if (r->dir[SB_DDIR_READ].ios)
        print_dir("read", r, SB_DDIR_READ);
    if (r->dir[SB_DDIR_WRITE].ios)
        print_dir("write", r, SB_DDIR_WRITE);
    if (!r->dir[0].ios && !r->dir[1].ios)
        printf("  no I/O completed in the measured interval\n");
    sb_io_print_series(stdout, r);
    sb_io_print_steady(stdout, r);
    if (r->cpu_ios)
        printf("  cpu: user=%.2fs, sys=%.2fs; per I/O: user=%.0f ns, sys=%.0f ns (%" PRIu64 " I/Os, ramp "
               "included)\n", r->cpu_user_s, r->cpu_sys_s, r->cpu_user_s * 1e9 / (double)r->cpu_ios,
               r->cpu_sys_s * 1e9 / (double)r->cpu_ios, r->cpu_ios);
    if (job->verify) {
        const sb_verify_stats *v = &r->verify;
        char by[32];
        sb_format_iec(by, sizeof by, (double)v->bytes_checked, "B");
        printf("  verify (%s): %" PRIu64 " blocks (%s) checked, %" PRIu64 " errors", sb_verify_algo_name(job->verify),
               v->blocks_checked, by, v->errors);
        if (v->errors)
            printf(", first at offset %" PRIu64, v->first_bad_offset);
        printf("; %" PRIu64 " writes moved off a busy block, %" PRIu64 " reads unchecked\n",
               v->writes_moved, v->reads_unchecked);
    }
}

/* ------------------------------------------------------------ options */

enum {
    O_RW = 0x100, O_BS, O_SIZE, O_OFFSET, O_ENGINE, O_DEPTH, O_DIRECT, O_NUMJOBS, O_RUNTIME,
    O_TIMEBASED, O_RAMP, O_STARTDELAY, O_MIX, O_FSYNC, O_ENDFSYNC, O_NORANDMAP, O_INVALIDATE,
    O_REGFILES, O_FIXEDBUFS, O_SEED, O_FORMAT, O_FILENAME, O_DIRECTORY, O_BATCH, O_BATCH_CMIN,
    O_BATCH_CMAX, O_VERIFY, O_DO_VERIFY, O_VERIFY_BACKLOG, O_VERIFY_ONLY, O_SHARED, O_STONEWALL,
    O_CPUS, O_CPUS_POLICY, O_LOGINT, O_LOGMSEC, O_SS, O_SSDUR, O_SSRAMP, O_SSROUND, O_HELP,
};

static int opt_bool(const char *name, const char *arg, bool *out)
{
    int v = 1;
    if (arg && sb_parse_bool(arg, &v) < 0)
        return sb_usage_error(CMD, "--%s: '%s' is not 0 or 1", name, arg);
    *out = v;
    return 0;
}

/* The time-series and steady-state options: 0 or the usage error. */
static int series_option(sb_io_job *job, int c, const char *name)
{
    uint64_t v;
    char err[256];
    double s;
    if (c == O_LOGINT || c == O_SSDUR || c == O_SSRAMP || c == O_SSROUND) {
        if (sb_parse_duration(optarg, &s) < 0 || s < 0)
            return sb_usage_error(CMD, "--%s: '%s' is not a duration", name, optarg);
        *(c == O_LOGINT ? &job->log_interval_s : c == O_SSDUR ? &job->steady.dur_s
          : c == O_SSRAMP ? &job->steady.ramp_s : &job->steady.round_s) = s;
    } else if (c == O_LOGMSEC) {
        if (sb_parse_uint(optarg, 1, 86400000, &v) < 0)
            return sb_usage_error(CMD, "--log_avg_msec: '%s' is not a number of milliseconds", optarg);
        job->log_interval_s = (double)v / 1000;
    } else if (sb_ss_parse(optarg, &job->steady, err, sizeof err) < 0) {
        return sb_usage_error(CMD, "%s", err);
    }
    return 0;
}

/* Applies one parsed option c (long name `name`, value optarg) to job: 0; -1 after printing
 * the help; SB_EXIT_USAGE after printing why not. */
static int io_option(sb_io_job *job, sb_io_ranks_opts *ro, bool *json, int c, const char *name,
                     char **argv)
{
    uint64_t v;
    int rc;
    switch (c) {
    case O_RW:
        if (sb_rw_parse(optarg, &job->rw) < 0)
            return sb_usage_error(CMD, "--rw: unknown mode '%s' (read, write, randread, randwrite, rw, randrw)", optarg);
        break;
    case O_BS: case O_SIZE: case O_OFFSET:
        if (sb_parse_size(optarg, &v) < 0)
            return sb_usage_error(CMD, "--%s: '%s' is not a size", name, optarg);
        *(c == O_BS ? &job->bs : c == O_SIZE ? &job->size : &job->offset) = v;
        break;
    case O_ENGINE:
        snprintf(job->engine, sizeof job->engine, "%s", optarg);
        break;
    case O_DEPTH:
        if (sb_parse_uint(optarg, 1, SB_IO_MAX_DEPTH, &v) < 0)
            return sb_usage_error(CMD, "--iodepth: '%s' is not in 1 .. %u", optarg, SB_IO_MAX_DEPTH);
        job->iodepth = (unsigned)v;
        break;
    case O_BATCH: case O_BATCH_CMIN: case O_BATCH_CMAX:
        if (sb_parse_uint(optarg, 1, SB_IO_MAX_DEPTH, &v) < 0)
            return sb_usage_error(CMD, "--%s: '%s' is not in 1 .. %u", name, optarg, SB_IO_MAX_DEPTH);
        *(c == O_BATCH ? &job->batch_submit : c == O_BATCH_CMIN ? &job->batch_complete_min
                                                               : &job->batch_complete_max) = (unsigned)v;
        break;
    case O_NUMJOBS:
        if (sb_parse_uint(optarg, 1, SB_IO_MAX_JOBS, &v) < 0)
            return sb_usage_error(CMD, "--numjobs: '%s' is not in 1 .. %u", optarg, SB_IO_MAX_JOBS);
        job->numjobs = (unsigned)v;
        break;
    case O_MIX:
        if (sb_parse_uint(optarg, 0, 100, &v) < 0)
            return sb_usage_error(CMD, "--rwmixread: '%s' is not a percentage", optarg);
        job->rwmixread = (unsigned)v;
        break;
    case O_FSYNC:
        if (sb_parse_uint(optarg, 0, UINT32_MAX, &v) < 0)
            return sb_usage_error(CMD, "--fsync: '%s' is not a count", optarg);
        job->fsync_every = (unsigned)v;
        break;
    case O_SEED:
        if (sb_parse_uint(optarg, 0, UINT64_MAX, &v) < 0)
            return sb_usage_error(CMD, "--randseed: '%s' is not a number", optarg);
        job->seed = v;
        break;
    case O_RUNTIME: case O_RAMP: case O_STARTDELAY: case O_STONEWALL: {
        double s;
        if (sb_parse_duration(optarg, &s) < 0 || s < 0 || (c == O_STONEWALL && s <= 0))
            return sb_usage_error(CMD, "--%s: '%s' is not a duration", name, optarg);
        *(c == O_RUNTIME ? &job->runtime_s : c == O_RAMP ? &job->ramp_s
          : c == O_STONEWALL ? &ro->stonewall_s : &job->startdelay_s) = s;
        break;
    }
    case O_LOGMSEC: case O_SS: case O_LOGINT: case O_SSDUR: case O_SSRAMP: case O_SSROUND:
        return series_option(job, c, name);
    case O_SHARED: ro->shared_file = true; break;
    case O_DIRECT: if ((rc = opt_bool(name, optarg, &job->direct))) return rc; break;
    case O_TIMEBASED: if ((rc = opt_bool(name, optarg, &job->time_based))) return rc; break;
    case O_ENDFSYNC: if ((rc = opt_bool(name, optarg, &job->end_fsync))) return rc; break;
    case O_NORANDMAP: if ((rc = opt_bool(name, optarg, &job->norandommap))) return rc; break;
    case O_INVALIDATE: if ((rc = opt_bool(name, optarg, &job->invalidate))) return rc; break;
    case O_REGFILES: case O_FIXEDBUFS: {
        bool on = true;
        if ((rc = opt_bool(name, optarg, &on)))
            return rc;
        *(c == O_REGFILES ? &job->uring_fixed_files : &job->uring_fixed_bufs) = on;
        break;
    }
    case O_VERIFY:
        if (sb_verify_algo_parse(optarg, &job->verify) < 0)
            return sb_usage_error(CMD, "--verify: unknown algorithm '%s' (crc32c, xxhash, sha256, pattern)", optarg);
        break;
    case O_DO_VERIFY: if ((rc = opt_bool(name, optarg, &job->do_verify))) return rc; break;
    case O_VERIFY_ONLY: if ((rc = opt_bool(name, optarg, &job->verify_only))) return rc; break;
    case O_VERIFY_BACKLOG:
        if (sb_parse_uint(optarg, 0, 1u << 20, &v) < 0)
            return sb_usage_error(CMD, "--verify_backlog: '%s' is not a count (0 .. 1048576)", optarg);
        job->verify_backlog = (unsigned)v;
        break;
    case O_FORMAT:
        if (!strcmp(optarg, "json"))
            *json = true;
        else if (!strcmp(optarg, "normal") || !strcmp(optarg, "text"))
            *json = false;
        else
            return sb_usage_error(CMD, "--output-format: '%s' is not normal or json", optarg);
        break;
    case O_FILENAME: case O_DIRECTORY: {
        char *dst = c == O_FILENAME ? job->filename : job->directory;
        if (strlen(optarg) >= sizeof job->filename)
            return sb_usage_error(CMD, "--%s: path too long", name);
        strcpy(dst, optarg);
        break;
    }
    case O_CPUS: {
        char why[300];
        if (sb_cpuset_parse(optarg, &job->cpus_allowed, why, sizeof why) < 0)
            return sb_usage_error(CMD, "--cpus_allowed: %s", why);
        job->cpus_allowed_set = true;
        break;
    }
    case O_CPUS_POLICY:
        if (strcmp(optarg, "shared") && strcmp(optarg, "split"))
            return sb_usage_error(CMD, "--cpus_allowed_policy: '%s' is not shared or split", optarg);
        job->cpus_split = !strcmp(optarg, "split");
        break;
    case 'h': case O_HELP:
        usage(stdout);
        return -1;
    default:
        return sb_bad_option(CMD, argv, c);
    }
    return 0;
}

static void print_json(json_t *root)
{
    char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    if (s)
        puts(s);
    free(s);
    json_decref(root);
}

/* Under storbench-mpi, or with --shared-file or --stonewall: the job on every rank
 * (cli/io_ranks.c); the figures above summed over the ranks, then the ranks' own. */
static int run_on_ranks(const sb_io_job *job, const sb_io_ranks_opts *ro, bool json)
{
    static sb_io_result res;
    static sb_io_ranks_report rep;
    char err[1024];
    int rc = sb_io_ranks_run(job, ro, &res, &rep, err, sizeof err);
    if (rc < 0) {
        sb_error("%s: %s", CMD, err);
        return rc == -EINTR ? SB_EXIT_INTERRUPTED : rc == -EINVAL ? SB_EXIT_USAGE : SB_EXIT_RUNTIME;
    }
    if (sb_ranks()->rank == 0) {
        if (json) {
            json_t *root = result_json(job, &res);
            json_object_set_new(root, "ranks", sb_io_ranks_json(&rep));
            print_json(root);
        } else {
            print_summary(job, &res);
            sb_io_ranks_print(&rep);
        }
    }
    sb_io_result_free(&res);
    return SB_EXIT_OK;
}

/* A steady-state job runs until it is steady: time based, its runtime the limit (fio's
 * documentation advises time_based with steadystate). SNIA mode's limit is its 25 rounds.
 * 0 or the usage error. */
static int steady_defaults(sb_io_job *job)
{
    sb_ss_spec *ss = &job->steady;
    if (ss->mode == SB_SS_OFF) {
        if (ss->dur_s > 0 || ss->ramp_s > 0 || ss->round_s > 0)
            return sb_usage_error(CMD, "--ss_dur, --ss_ramp and --ss_round need --steadystate");
        return 0;
    }
    if (ss->mode == SB_SS_SNIA) {
        if (ss->dur_s > 0)
            return sb_usage_error(CMD, "--ss_dur is for fio's criteria; snia's window is 5 rounds "
                                       "of --ss_round");
        if (ss->round_s == 0)
            ss->round_s = 60;
    } else {
        if (ss->round_s > 0)
            return sb_usage_error(CMD, "--ss_round is for --steadystate=snia");
        if (ss->dur_s == 0)
            return sb_usage_error(CMD, "--steadystate needs --ss_dur (the window, as fio's "
                                       "steadystate_duration)");
    }
    if (job->runtime_s == 0)
        job->runtime_s = ss->mode == SB_SS_SNIA ? ss->ramp_s + SB_SS_SNIA_MAX_ROUNDS * ss->round_s + 1
                                                : 3600;
    job->time_based = true;
    return 0;
}

int sb_cmd_io(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"rw", required_argument, NULL, O_RW},
        {"readwrite", required_argument, NULL, O_RW},
        {"bs", required_argument, NULL, O_BS},
        {"size", required_argument, NULL, O_SIZE},
        {"offset", required_argument, NULL, O_OFFSET},
        {"ioengine", required_argument, NULL, O_ENGINE},
        {"iodepth", required_argument, NULL, O_DEPTH},
        {"direct", optional_argument, NULL, O_DIRECT},
        {"numjobs", required_argument, NULL, O_NUMJOBS},
        {"runtime", required_argument, NULL, O_RUNTIME},
        {"time_based", optional_argument, NULL, O_TIMEBASED},
        {"time-based", optional_argument, NULL, O_TIMEBASED},
        {"ramp_time", required_argument, NULL, O_RAMP},
        {"ramp-time", required_argument, NULL, O_RAMP},
        {"startdelay", required_argument, NULL, O_STARTDELAY},
        {"rwmixread", required_argument, NULL, O_MIX},
        {"fsync", required_argument, NULL, O_FSYNC},
        {"end_fsync", optional_argument, NULL, O_ENDFSYNC},
        {"norandommap", optional_argument, NULL, O_NORANDMAP},
        {"invalidate", optional_argument, NULL, O_INVALIDATE},
        {"registerfiles", optional_argument, NULL, O_REGFILES},
        {"fixedbufs", optional_argument, NULL, O_FIXEDBUFS},
        {"randseed", required_argument, NULL, O_SEED},
        {"seed", required_argument, NULL, O_SEED},
        {"output-format", required_argument, NULL, O_FORMAT},
        {"filename", required_argument, NULL, O_FILENAME},
        {"directory", required_argument, NULL, O_DIRECTORY},
        {"iodepth_batch_submit", required_argument, NULL, O_BATCH},
        {"iodepth_batch", required_argument, NULL, O_BATCH},
        {"iodepth_batch_complete_min", required_argument, NULL, O_BATCH_CMIN},
        {"iodepth_batch_complete", required_argument, NULL, O_BATCH_CMIN},
        {"iodepth_batch_complete_max", required_argument, NULL, O_BATCH_CMAX},
        {"verify", required_argument, NULL, O_VERIFY},
        {"do_verify", optional_argument, NULL, O_DO_VERIFY},
        {"verify_backlog", required_argument, NULL, O_VERIFY_BACKLOG},
        {"verify_only", optional_argument, NULL, O_VERIFY_ONLY},
        {"shared-file", no_argument, NULL, O_SHARED},
        {"stonewall", required_argument, NULL, O_STONEWALL},
        {"cpus_allowed", required_argument, NULL, O_CPUS},
        {"cpus_allowed_policy", required_argument, NULL, O_CPUS_POLICY},
        {"log_interval", required_argument, NULL, O_LOGINT},
        {"log_avg_msec", required_argument, NULL, O_LOGMSEC},
        {"steadystate", required_argument, NULL, O_SS},
        {"ss", required_argument, NULL, O_SS},
        {"ss_dur", required_argument, NULL, O_SSDUR},
        {"steadystate_duration", required_argument, NULL, O_SSDUR},
        {"ss_ramp", required_argument, NULL, O_SSRAMP},
        {"steadystate_ramp_time", required_argument, NULL, O_SSRAMP},
        {"ss_round", required_argument, NULL, O_SSROUND},
        {"help", no_argument, NULL, O_HELP},
        {NULL, 0, NULL, 0},
    };
    sb_io_ranks_opts ranks = {false, 0};
    static sb_io_job job; /* large (paths); not on the stack */
    sb_io_job_init(&job);
    bool json = false;
    int c, rc;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        const char *name = "";
        for (const struct option *o = longopts; o->name; o++)
            if (o->val == c) {
                name = o->name;
                break;
            }
        if ((rc = io_option(&job, &ranks, &json, c, name, argv)) != 0)
            return rc < 0 ? SB_EXIT_OK : rc;
    }
    if (optind < argc)
        return sb_usage_error(CMD, "unexpected argument '%s'", argv[optind]);
    if (!job.filename[0] && !job.directory[0])
        return sb_usage_error(CMD, "name a --filename FILE or a --directory DIR");
    if (job.filename[0] && job.directory[0])
        return sb_usage_error(CMD, "give --filename or --directory, not both");
    if ((rc = steady_defaults(&job)) != 0)
        return rc;
    char err[1024], warn[256];
    if (sb_io_job_check(&job, err, sizeof err, warn, sizeof warn) < 0)
        return sb_usage_error(CMD, "%s", err);
    if (warn[0])
        sb_warn("%s: %s", CMD, warn);

    sb_interrupt_install();
    if (sb_ranks_active() || ranks.shared_file || ranks.stonewall_s > 0)
        return run_on_ranks(&job, &ranks, json);
    job.should_stop = stop_cb;
    static sb_io_result res;
    rc = sb_io_run(&job, &res, err, sizeof err);
    /* A verify mismatch still prints what was measured and checked (the verify
     * section names the first bad offset), after the one line that says why. */
    bool mismatch = rc == -EILSEQ && job.verify;
    if (mismatch)
        sb_error("%s: verify: %s", CMD, err);
    else if (rc < 0) {
        sb_error("%s: %s", CMD, err);
        return rc == -EINVAL ? SB_EXIT_USAGE : SB_EXIT_RUNTIME;
    }
    if (json) {
        print_json(result_json(&job, &res));
    } else {
        print_summary(&job, &res);
    }
    bool interrupted = res.interrupted;
    sb_io_result_free(&res);
    return mismatch ? SB_EXIT_RUNTIME : interrupted ? SB_EXIT_INTERRUPTED : SB_EXIT_OK;
}
