/*
 * options — the table of sb_io_job's options and the one parser of its values
 * (options.h). An entry says everything the command line, the usage text,
 * the documentation and the workloads need; the job's own defaults stay in
 * sb_io_job_init() (job.c), and tests/unit/test_options.c checks that every
 * entry's shown default parses to what that function sets. What an option
 * means together with others (a batch above the depth, registered files on
 * an engine that has none) is sb_io_job_check()'s, in job.c.
 */
#include "io/options/options.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/cpuset.h"
#include "core/units.h"
#include "io/loop/distribution.h"
#include "io/job.h"
#define SB_IO_OPTIONS_TABLE /* options_fiob_rows.h: its choices */
#include "io/options/sched_rows.h"

#define J(f) SB_OPT_FIELD(sb_io_job, f)

/* ------------------------------------------------------------ entries' own parsers */

static int parse_steady(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                        char *err, size_t errlen)
{
    return sb_ss_parse(v, &((sb_io_job *)base)->steady, err, errlen);
}

static int parse_cpus(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                      char *err, size_t errlen)
{
    sb_io_job *job = base;
    if (sb_cpuset_parse(v, &job->cpus_allowed, err, errlen) < 0)
        return -EINVAL;
    job->cpus_allowed_set = true;
    return 0;
}

/* fio's log_avg_msec: the time-series interval in milliseconds. */
int sb_opt_parse_log_msec(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                          char *err, size_t errlen)
{
    uint64_t ms;
    if (sb_parse_uint(v, 1, 86400000, &ms) < 0) {
        snprintf(err, errlen, "'%s' is not a number of milliseconds (1 .. 86400000)", v);
        return -EINVAL;
    }
    ((sb_io_job *)base)->log_interval_s = (double)ms / 1000;
    return 0;
}

static int parse_verify(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                        char *err, size_t errlen)
{
    if (sb_verify_algo_parse(v, &((sb_io_job *)base)->verify) < 0) {
        snprintf(err, errlen, "unknown algorithm '%s' (crc32c, xxhash, sha256, pattern, crc64, crc32, "
                 "crc16, crc7, md5, sha1, sha224, sha384, sha512, sha3-224 .. sha3-512, meta)", v);
        return -EINVAL;
    }
    return 0;
}

/* fio's rwmixwrite: the reads are the rest. */
static int parse_rwmixwrite(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                            char *err, size_t errlen)
{
    uint64_t u;
    char num[32];
    size_t n = strlen(v);
    if (n && v[n - 1] == '%')
        n--;
    if (n >= sizeof num || (memcpy(num, v, n), num[n] = '\0', sb_parse_uint(num, 0, 100, &u)) < 0) {
        snprintf(err, errlen, "'%s' is not a percentage (0 .. 100)", v);
        return -EINVAL;
    }
    ((sb_io_job *)base)->rwmixread = 100 - (unsigned)u;
    return 0;
}

/* fio's buffered: the opposite of direct. */
static int parse_buffered(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                          char *err, size_t errlen)
{
    int b = 1;
    if (v && sb_parse_bool(v, &b) < 0) {
        snprintf(err, errlen, "'%s' is not 0 or 1", v);
        return -EINVAL;
    }
    ((sb_io_job *)base)->direct = !b;
    return 0;
}

/* fio's filesize: the file's size, and the job's region unless size makes it smaller. */
static int parse_filesize(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                          char *err, size_t errlen)
{
    sb_io_job *job = base;
    uint64_t u;
    if (strchr(v, '-')) {
        snprintf(err, errlen, "'%s': a range of file sizes is not supported", v);
        return -EINVAL;
    }
    if (sb_opt_parse_size(v, ctx ? ctx->kb_base : 0, &u) < 0) {
        snprintf(err, errlen, "'%s' is not a size", v);
        return -EINVAL;
    }
    job->filesize = job->size = u;
    return 0;
}

/* A signed integer in [lo, hi] (nice: -20 .. 19; prio: 0 .. 7). */
static int parse_signed(const char *v, long lo, long hi, int *out, char *err, size_t errlen)
{
    char *end;
    long x = strtol(v, &end, 10);
    if (!*v || *end || x < lo || x > hi) {
        snprintf(err, errlen, "'%s' is not in %ld .. %ld", v, lo, hi);
        return -EINVAL;
    }
    *out = (int)x;
    return 0;
}

static int parse_nice(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                      char *err, size_t errlen)
{
    return parse_signed(v, -20, 19, &((sb_io_job *)base)->nice, err, errlen);
}

static int parse_prio(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                      char *err, size_t errlen)
{
    return parse_signed(v, 0, 7, &((sb_io_job *)base)->prio, err, errlen);
}

/* fio's percentile_list: 99:99.9:99.99, at most SB_IO_MAX_PERCENTILES, each in (0, 100]. */
static int parse_percentiles(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                             char *err, size_t errlen)
{
    sb_io_job *job = base;
    double p[SB_IO_MAX_PERCENTILES];
    unsigned n = 0;
    const char *s = v;
    while (*s) {
        char *end;
        double x = strtod(s, &end);
        if (end == s || (*end && *end != ':') || !(x > 0 && x <= 100) || n == SB_IO_MAX_PERCENTILES) {
            snprintf(err, errlen, "'%s' is not a list of at most %d percentiles (99:99.9)", v,
                     SB_IO_MAX_PERCENTILES);
            return -EINVAL;
        }
        p[n++] = x;
        s = *end ? end + 1 : end;
    }
    if (!n) {
        snprintf(err, errlen, "'%s' is empty", v);
        return -EINVAL;
    }
    memcpy(job->percentiles, p, sizeof p);
    job->n_percentiles = n;
    return 0;
}

/* ------------------------------------------------------------ the table */

static const sb_opt_choice rw_choices[] = {
    {"read", SB_RW_READ}, {"write", SB_RW_WRITE}, {"randread", SB_RW_RANDREAD},
    {"randwrite", SB_RW_RANDWRITE}, {"rw", SB_RW_RW}, {"randrw", SB_RW_RANDRW},
    {"trim", SB_RW_TRIM}, {"randtrim", SB_RW_RANDTRIM}, {"trimwrite", SB_RW_TRIMWRITE},
    {"readwrite", SB_RW_RW}, {NULL, 0},
};
static const sb_opt_choice policy_choices[] = {{"shared", 0}, {"split", 1}, {NULL, 0}};
static const sb_opt_choice rate_process_choices[] = {{"linear", 0}, {"poisson", 1}, {NULL, 0}};
static const sb_opt_choice zonemode_choices[] = {
    {"none", SB_ZONEMODE_NONE}, {"strided", SB_ZONEMODE_STRIDED}, {"zbd", SB_ZONEMODE_ZBD}, {NULL, 0}};
static const sb_opt_choice kb_base_choices[] = {{"1024", 1024}, {"1000", 1000}, {NULL, 0}};

/* bs and bs_max: one RANGE entry writes both (options.h) */
_Static_assert(offsetof(sb_io_job, bs_max) == offsetof(sb_io_job, bs) + sizeof(uint64_t),
               "bs_max must follow bs");
#define J_RANGE(lo) offsetof(sb_io_job, lo), 2 * sizeof(uint64_t)
/* bssplit and bssplit_w: one SPLIT entry writes both (fio's READS,WRITES) */
_Static_assert(offsetof(sb_io_job, bssplit_w) == offsetof(sb_io_job, bssplit) + sizeof(sb_io_bssplit),
               "bssplit_w must follow bssplit");

static const char *const a_rw[] = {"readwrite", NULL};
static const char *const a_time_based[] = {"time-based", NULL};
static const char *const a_runtime[] = {"timeout", NULL};
static const char *const a_ramp[] = {"ramp-time", NULL};
static const char *const a_seed[] = {"seed", NULL};
static const char *const a_batch[] = {"iodepth_batch", NULL};
static const char *const a_cmin[] = {"iodepth_batch_complete", NULL};
static const char *const a_ss[] = {"ss", NULL};
static const char *const a_ss_dur[] = {"steadystate_duration", NULL};
static const char *const a_ss_ramp[] = {"steadystate_ramp_time", NULL};
static const char *const a_bs[] = {"blocksize", NULL};
static const char *const a_bsrange[] = {"blocksize_range", NULL};
static const char *const a_bssplit[] = {"blocksize_split", NULL};
static const char *const a_thread[] = {"use_thread", "threads", NULL};
static const char *const a_rate_min[] = {"ratemin", NULL};
static const char *const a_nrfiles[] = {"nr_files", NULL};
static const char *const a_io_size[] = {"io_limit", NULL};
static const char *const a_fill_device[] = {"fill_fs", NULL};

const sb_opt sb_io_options[] = {
    {"rw", a_rw, SB_OPT_CHOICE, J(rw), 0, 0, "read", "MODE",
     "read | write | randread | randwrite | rw | randrw (rw, randrw: reads and writes mixed, "
     "sequential or random) | trim | randtrim | trimwrite (discards: a hole punched in a file, "
     "BLKDISCARD on a block device; trimwrite trims each block, then writes it); fio's read:SKIP / write:-SKIP skips SKIP bytes after each "
     "sequential I/O (negative: backwards)",
     SB_OPTC_JOB, 0, rw_choices, sb_opt_parse_rw},
    {"name", NULL, SB_OPT_STR, J(name), 0, 0, NULL, "NAME",
     "the job's name, as printed; on the command line --name starts a new job, as fio's",
     SB_OPTC_JOB, 0, NULL, NULL},
    {"rwmixread", NULL, SB_OPT_PCT, J(rwmixread), 0, 100, "50", "PCT",
     "% of reads in rw and randrw jobs", SB_OPTC_JOB, 0, NULL, NULL},
    {"rwmixwrite", NULL, SB_OPT_FUNC, J(rwmixread), 0, 0, "50", "PCT",
     "% of writes in rw and randrw jobs (the reads are the rest)", SB_OPTC_JOB, 0, NULL,
     parse_rwmixwrite},
    {"bs", a_bs, SB_OPT_RANGE, J_RANGE(bs), 0, 0, "4k", "SIZE",
     "block size, 512 .. 64M; LO-HI as bsrange", SB_OPTC_JOB, 0, NULL, NULL},
    {"bsrange", a_bsrange, SB_OPT_RANGE, J_RANGE(bs), 0, 0, NULL, "LO-HI",
     "each I/O's size drawn from LO .. HI in multiples of LO (a table made before the run); "
     "random offsets are then drawn independently", SB_OPTC_JOB, 0, NULL, NULL},
    {"bssplit", a_bssplit, SB_OPT_SPLIT, offsetof(sb_io_job, bssplit), 2 * sizeof(sb_io_bssplit),
     0, 0, NULL, "SPLIT[,SPLIT]",
     "block sizes by share of the I/Os: 4k/50:64k/50; a size without /PCT shares the rest; "
     "READS,WRITES gives the writes their own split, as fio's",
     SB_OPTC_JOB, 0, NULL, NULL},
    {"kb_base", NULL, SB_OPT_CHOICE, J(kb_base), 0, 0, "1024 in job files", "N",
     "fio's size suffixes: 1024 (k, KB = 1024; KiB = 1000, fio's inversion) or 1000 (k, KB = "
     "1000; KiB = 1024); without it the command line reads every suffix as 1024", SB_OPTC_JOB,
     SB_OPTF_DEF_DOC, kb_base_choices, NULL},
    {"size", NULL, SB_OPT_SIZE, J(size), 0, 0, "1g", "SIZE", "bytes per pass, per file; Nz: N "
     "zones (zonesize, or a zoned device's)", SB_OPTC_JOB, SB_OPTF_ZONES, NULL, NULL},
    {"filesize", NULL, SB_OPT_FUNC, J(filesize), 0, 0, NULL, "SIZE",
     "the file's size; also the job's size, which a later size may make smaller",
     SB_OPTC_JOB, 0, NULL, parse_filesize},
    {"nrfiles", a_nrfiles, SB_OPT_INT, J(nrfiles), 1, 0, "1", "N",
     "files per thread in --directory, named as fio's NAME.JOB.FILE; size is divided among "
     "them unless filesize is given", SB_OPTC_JOB, 0, NULL, NULL},
    {"loops", NULL, SB_OPT_INT, J(loops), 1, 0, "1", "N",
     "passes over the region of a job that is not time based", SB_OPTC_JOB, 0, NULL, NULL},
    {"offset", NULL, SB_OPT_SIZE, J(offset), 0, 0, "0", "SIZE", "start of the region in the file; "
     "Nz: N zones", SB_OPTC_JOB, SB_OPTF_ZONES, NULL, NULL},
    {"numjobs", NULL, SB_OPT_INT, J(numjobs), 1, SB_IO_MAX_JOBS, "1", "N",
     "threads; with --directory each has its own file (removed afterwards), with --filename "
     "they share it", SB_OPTC_JOB, 0, NULL, NULL},
    {"filename", NULL, SB_OPT_LIST, J(filename), 0, 0, NULL, "FILE",
     "the file (or block device) to use; it is kept. fio's a:b list (\\: a colon in a name) "
     "names several, which every thread uses, size divided among them", SB_OPTC_JOB, 0, NULL,
     NULL},
    {"directory", NULL, SB_OPT_STR, J(directory), 0, 0, NULL, "DIR",
     "make one file per job here, removed afterwards",
     SB_OPTC_JOB, 0, NULL, NULL},
    {"unlink", NULL, SB_OPT_BOOL, J(unlink), 0, 0, "0", NULL,
     "also remove a --filename file after the job when this run created it (files in "
     "--directory are always removed)", SB_OPTC_JOB, SB_OPTF_SWITCH, NULL, NULL},
    {"thread", a_thread, SB_OPT_BOOL, J(thread), 0, 0, "0", NULL,
     "fio's threads instead of processes: storbench's jobs are always threads, so 0 and 1 "
     "run alike", SB_OPTC_JOB, SB_OPTF_SWITCH, NULL, NULL},
    {"group_reporting", NULL, SB_OPT_BOOL, J(group_reporting), 0, 0, "0", NULL,
     "report the numjobs threads together; without it each is reported on its own, as fio",
     SB_OPTC_JOB, SB_OPTF_SWITCH, NULL, NULL},
    {"percentile_list", NULL, SB_OPT_FUNC, J(percentiles), 0, 0, "storbench's 17", "LIST",
     "the latency percentiles printed: 50:99:99.9", SB_OPTC_JOB, SB_OPTF_DEF_DOC, NULL,
     parse_percentiles},
#include "io/options/files_entries.h"
    {"zero_buffers", NULL, SB_OPT_BOOL, J(zero_buffers), 0, 0, "0", NULL,
     "write zeros instead of random data", SB_OPTC_JOB, SB_OPTF_SWITCH, NULL, NULL},
    {"refill_buffers", NULL, SB_OPT_BOOL, J(refill_buffers), 0, 0, "0", NULL,
     "new random data in the buffer before every write", SB_OPTC_JOB, SB_OPTF_SWITCH, NULL, NULL},
    {"scramble_buffers", NULL, SB_OPT_BOOL, J(scramble_buffers), 0, 0, "1", NULL,
     "write the offset and a counter into every written block, so no two are alike, as fio's "
     "default", SB_OPTC_JOB, SB_OPTF_SWITCH, NULL, NULL},
    {"ioengine", NULL, SB_OPT_STR, J(engine), 0, 0, "psync", "NAME",
     "psync | pvsync | pvsync2 | sync | posixaio | libaio | io_uring | mmap | null",
     SB_OPTC_ENGINE, 0, NULL, NULL},
    {"iodepth", NULL, SB_OPT_INT, J(iodepth), 1, SB_IO_MAX_DEPTH, "1", "N",
     "I/Os in flight; a synchronous engine does 1, with a warning", SB_OPTC_ENGINE, 0, NULL, NULL},
    {"iodepth_batch_submit", a_batch, SB_OPT_INT, J(batch_submit), 1, SB_IO_MAX_DEPTH, "1", "N",
     "asynchronous engines: I/Os per submission; 1 submits each on its own, as fio",
     SB_OPTC_ENGINE, SB_OPTF_DEF_DOC, NULL, NULL},
    {"iodepth_batch_complete_min", a_cmin, SB_OPT_INT, J(batch_complete_min), 1, SB_IO_MAX_DEPTH,
     "1", "N", "when every buffer is in flight, wait for at least N completions, at most "
     "--iodepth", SB_OPTC_ENGINE, SB_OPTF_DEF_DOC, NULL, NULL},
    {"iodepth_batch_complete_max", NULL, SB_OPT_INT, J(batch_complete_max), 1, SB_IO_MAX_DEPTH,
     "the min", "N", "reap at most N completions per call, as fio", SB_OPTC_ENGINE,
     SB_OPTF_DEF_DOC, NULL, NULL},
    {"direct", NULL, SB_OPT_BOOL, J(direct), 0, 0, "0", NULL,
     "O_DIRECT; bs and offset must be multiples of the logical block size", SB_OPTC_ENGINE,
     SB_OPTF_SWITCH, NULL, NULL},
    {"buffered", NULL, SB_OPT_FUNC, J(direct), 0, 0, "1", NULL,
     "through the page cache: the opposite of --direct", SB_OPTC_ENGINE, SB_OPTF_SWITCH, NULL,
     parse_buffered},
    {"registerfiles", NULL, SB_OPT_BOOL, J(uring_fixed_files), 0, 0, "when the kernel accepts it",
     NULL, "io_uring: a registered file; =1 requires it, =0 is fio's default", SB_OPTC_ENGINE,
     SB_OPTF_SWITCH | SB_OPTF_DEF_DOC, NULL, NULL},
    {"fixedbufs", NULL, SB_OPT_BOOL, J(uring_fixed_bufs), 0, 0, "when the kernel accepts them",
     NULL, "io_uring: registered buffers; =1 requires them, =0 is fio's default", SB_OPTC_ENGINE,
     SB_OPTF_SWITCH | SB_OPTF_DEF_DOC, NULL, NULL},
    {"runtime", a_runtime, SB_OPT_DURATION, J(runtime_s), 0, 0, "one pass of --size", "DURATION",
     "stop after this long", SB_OPTC_TIMING, SB_OPTF_DEF_DOC, NULL, NULL},
    {"time_based", a_time_based, SB_OPT_BOOL, J(time_based), 0, 0, "0", NULL,
     "repeat passes until --runtime", SB_OPTC_TIMING, SB_OPTF_SWITCH, NULL, NULL},
    {"ramp_time", a_ramp, SB_OPT_DURATION, J(ramp_s), 0, 0, "0", "DURATION",
     "I/O before measuring starts, not counted", SB_OPTC_TIMING, 0, NULL, NULL},
    {"startdelay", NULL, SB_OPT_DURATION, J(startdelay_s), 0, 0, "0", "DURATION",
     "idle before the job starts", SB_OPTC_TIMING, 0, NULL, NULL},
    {"thinktime", NULL, SB_OPT_DURATION, J(thinktime_s), 0, 0, "0", "DURATION",
     "idle after every I/O, as fio's (a bare number is microseconds)", SB_OPTC_TIMING,
     SB_OPTF_USEC, NULL, NULL},
    {"rate", NULL, SB_OPT_FUNC, J(rate), 0, 0, "0", "SIZE",
     "bytes per second per thread at most (0: no limit); READ,WRITE[,TRIM] each direction's "
     "own, one value every direction's, as fio's", SB_OPTC_TIMING, 0, NULL, sb_opt_parse_rate},
    {"rate_iops", NULL, SB_OPT_FUNC, J(rate_iops), 0, 0, "0", "N",
     "I/Os per second per thread at most (0: no limit); READ,WRITE as rate", SB_OPTC_TIMING, 0,
     NULL, sb_opt_parse_rate_iops},
    {"rate_process", NULL, SB_OPT_CHOICE, J(rate_poisson), 0, 0, "linear", "MODE",
     "linear: rate and rate_iops evenly spaced; poisson: exponentially distributed gaps of the "
     "same mean, as fio's", SB_OPTC_TIMING, 0, rate_process_choices, NULL},
    {"rate_min", a_rate_min, SB_OPT_SIZE, J(rate_min), 0, 0, "0", "SIZE",
     "bytes per second per thread at least, judged each second after the first; a thread "
     "below it fails the job (exit 1), as fio's", SB_OPTC_TIMING, 0, NULL, NULL},
    {"gtod_reduce", NULL, SB_OPT_BOOL, J(gtod_reduce), 0, 0, "0", NULL,
     "record no per-I/O latency (fio's: fewer clock reads); no percentiles are printed",
     SB_OPTC_TIMING, SB_OPTF_SWITCH, NULL, NULL},
    {"fsync", NULL, SB_OPT_INT, J(fsync_every), 0, UINT32_MAX, "0", "N",
     "fsync after every N writes (0: never)", SB_OPTC_SYNC, 0, NULL, NULL},
    {"fdatasync", NULL, SB_OPT_INT, J(fdatasync_every), 0, UINT32_MAX, "0", "N",
     "fdatasync after every N writes (0: never); not with fsync", SB_OPTC_SYNC, 0, NULL, NULL},
    {"end_fsync", NULL, SB_OPT_BOOL, J(end_fsync), 0, 0, "0", NULL,
     "fsync at the end, inside the timing", SB_OPTC_SYNC, SB_OPTF_SWITCH, NULL, NULL},
    {"fsync_on_close", NULL, SB_OPT_BOOL, J(fsync_on_close), 0, 0, "0", NULL,
     "fsync when the job is done, outside the timing", SB_OPTC_SYNC, SB_OPTF_SWITCH, NULL, NULL},
    {"invalidate", NULL, SB_OPT_BOOL, J(invalidate), 0, 0, "1", NULL,
     "drop the file's page cache first, and before every pass of a time-based job",
     SB_OPTC_SYNC, SB_OPTF_SWITCH, NULL, NULL},
    {"norandommap", NULL, SB_OPT_BOOL, J(norandommap), 0, 0, "0", NULL,
     "random blocks drawn independently, not each block once per pass", SB_OPTC_OFFSETS,
     SB_OPTF_SWITCH, NULL, NULL},
    {"randseed", a_seed, SB_OPT_INT, J(seed), 0, 0, "24301", "N",
     "seed of the offsets and mix decisions", SB_OPTC_OFFSETS, 0, NULL, NULL},
    {"randrepeat", NULL, SB_OPT_BOOL, J(randrepeat), 0, 0, "1", NULL,
     "the same offsets every run (the seed as given); 0: a new seed each run",
     SB_OPTC_OFFSETS, SB_OPTF_SWITCH, NULL, NULL},
    {"random_distribution", NULL, SB_OPT_FUNC, J(dist), 0, 0, "random", "DIST",
     "random (uniform) | zipf:THETA | pareto:H | normal:DEV% | zoned:PCT/SIZE%:... | "
     "zoned_abs:PCT/SIZE:... | sequence:B,B,... (these block indices in turn, see "
     "random_sequence_stride); other than random each offset is drawn on its own (no random "
     "map) and the hot blocks are spread over the file, as fio's", SB_OPTC_OFFSETS,
     SB_OPTF_DEF_DOC, NULL, sb_opt_parse_distribution},
    {"zonemode", NULL, SB_OPT_CHOICE, J(zonemode), 0, 0, "none", "MODE",
     "strided: a sequential job does zonesize bytes, skips zoneskip bytes, and so on to the "
     "region's end; zbd: zones with write pointers, written only at them (a zoned block "
     "device's, or emulated on a file or other device), as fio's", SB_OPTC_OFFSETS, 0,
     zonemode_choices, NULL},
    {"zonesize", NULL, SB_OPT_SIZE, J(zonesize), 0, 0, NULL, "SIZE",
     "zonemode=strided: the bytes done in each zone; zbd: the zone size (a zoned device's "
     "own when not given)", SB_OPTC_OFFSETS, 0, NULL, NULL},
    {"zoneskip", NULL, SB_OPT_SIZE, J(zoneskip), 0, 0, "0", "SIZE",
     "zonemode=strided: the bytes skipped after each zone", SB_OPTC_OFFSETS, 0, NULL, NULL},
    /* zonemode=zbd (io/zbd.h) */
    {"zonecapacity", NULL, SB_OPT_SIZE, J(zonecapacity), 0, 0, "zonesize", "SIZE",
     "zonemode=zbd, emulated zones: the writable part of each zone", SB_OPTC_OFFSETS,
     SB_OPTF_DEF_DOC, NULL, NULL},
    {"read_beyond_wp", NULL, SB_OPT_BOOL, J(read_beyond_wp), 0, 0, "0", NULL,
     "zonemode=zbd: reads may go past a zone's write pointer (else only written data is read)",
     SB_OPTC_OFFSETS, SB_OPTF_SWITCH, NULL, NULL},
    {"max_open_zones", NULL, SB_OPT_INT, J(max_open_zones), 0, SB_ZBD_MAX_OPEN_ZONES, "0", "N",
     "zonemode=zbd: zones written at once, for all jobs on the file (0: no limit, or a "
     "host-managed device's)", SB_OPTC_OFFSETS, 0, NULL, NULL},
    {"job_max_open_zones", NULL, SB_OPT_INT, J(job_max_open_zones), 0, SB_ZBD_MAX_OPEN_ZONES, "0", "N",
     "zonemode=zbd: zones one thread writes at once (needs max_open_zones or the device's)",
     SB_OPTC_OFFSETS, 0, NULL, NULL},
    {"ignore_zone_limits", NULL, SB_OPT_BOOL, J(ignore_zone_limits), 0, 0, "0", NULL,
     "zonemode=zbd: max_open_zones may exceed the device's limit", SB_OPTC_OFFSETS,
     SB_OPTF_SWITCH, NULL, NULL},
    {"zone_reset_threshold", NULL, SB_OPT_FUNC, J(zone_reset_threshold), 0, 0, "0", "FRACTION",
     "zonemode=zbd: with zone_reset_frequency, resets start once this share of the region "
     "holds data", SB_OPTC_OFFSETS, 0, NULL, sb_opt_parse_fraction},
    {"zone_reset_frequency", NULL, SB_OPT_FUNC, J(zone_reset_frequency), 0, 0, "0", "FRACTION",
     "zonemode=zbd: past the threshold, a write's zone is reset first every 1/FRACTION writes "
     "(garbage collection)", SB_OPTC_OFFSETS, 0, NULL, sb_opt_parse_fraction},
    {"blockalign", NULL, SB_OPT_SIZE, J(blockalign), 0, SB_IO_MAX_BS, "bs", "SIZE",
     "random offsets are multiples of this (fio's blockalign)", SB_OPTC_OFFSETS,
     SB_OPTF_DEF_DOC, NULL, NULL},
    {"cpus_allowed", NULL, SB_OPT_FUNC, J(cpus_allowed), 0, 0, "every CPU the process may use",
     "LIST", "run the job's threads only on these CPUs: 0-3,6, as fio and taskset -c",
     SB_OPTC_CPU, SB_OPTF_DEF_DOC, NULL, parse_cpus},
    {"cpus_allowed_policy", NULL, SB_OPT_CHOICE, J(cpus_split), 0, 0, "shared", "POLICY",
     "shared: every thread on all of the list; split: thread i on the i-th CPU, round robin",
     SB_OPTC_CPU, 0, policy_choices, NULL},
    {"nice", NULL, SB_OPT_FUNC, J(nice), 0, 0, "0", "N",
     "the job's threads' nice value, -20 .. 19", SB_OPTC_CPU, 0, NULL, parse_nice},
    {"prio", NULL, SB_OPT_FUNC, J(prio), 0, 0, "unset", "N",
     "the threads' best-effort I/O priority, 0 (highest) .. 7", SB_OPTC_CPU, SB_OPTF_DEF_DOC,
     NULL, parse_prio},
    {"verify", NULL, SB_OPT_FUNC, J(verify), 0, 0, NULL, "ALGO",
     "crc32c | xxhash | sha256 | pattern: every block written carries a header and checksum "
     "and is checked when read back", SB_OPTC_VERIFY, 0, NULL, parse_verify},
    {"do_verify", NULL, SB_OPT_BOOL, J(do_verify), 0, 0, "1", NULL,
     "with --verify: read back and check every written block after the job", SB_OPTC_VERIFY,
     SB_OPTF_SWITCH, NULL, NULL},
    {"verify_backlog", NULL, SB_OPT_INT, J(verify_backlog), 0, 1u << 20, "0", "N",
     "with --verify: also check the last N written blocks after every N writes", SB_OPTC_VERIFY,
     0, NULL, NULL},
    {"verify_only", NULL, SB_OPT_BOOL, J(verify_only), 0, 0, "0", NULL,
     "with --verify and --filename: write nothing, check a file an earlier run of the same job "
     "wrote", SB_OPTC_VERIFY, SB_OPTF_SWITCH, NULL, NULL},
    {"log_interval", NULL, SB_OPT_DURATION, J(log_interval_s), 0.01, 86400, "1s", "DURATION",
     "one time-series sample (IOPS, bandwidth, mean and p99 latency) per interval",
     SB_OPTC_SERIES, SB_OPTF_DEF_DOC, NULL, NULL},
    {"log_avg_msec", NULL, SB_OPT_FUNC, J(log_avg_ms), 0, 0, "0", "N",
     "the same in milliseconds, as fio; it also averages the log files' lines over N ms "
     "(0: a line per I/O, as fio)", SB_OPTC_SERIES, 0, NULL, sb_opt_parse_log_avg},
    {"write_bw_log", NULL, SB_OPT_FUNC, J(bw_log), 0, 0, "the job's name", "PREFIX",
     "fio's bandwidth log: PREFIX_bw.N.log per thread N, lines 'msec, KiB/s, ddir, bs, prio'",
     SB_OPTC_SERIES, SB_OPTF_SWITCH | SB_OPTF_DEF_DOC, NULL, sb_opt_parse_log_prefix},
    {"write_lat_log", NULL, SB_OPT_FUNC, J(lat_log), 0, 0, "the job's name", "PREFIX",
     "fio's latency logs: PREFIX_lat.N.log and PREFIX_clat.N.log (ns; storbench's latency "
     "is fio's lat, and PREFIX_slat.N.log is empty: submission latency is not logged)",
     SB_OPTC_SERIES, SB_OPTF_SWITCH | SB_OPTF_DEF_DOC, NULL, sb_opt_parse_log_prefix},
    {"write_iops_log", NULL, SB_OPT_FUNC, J(iops_log), 0, 0, "the job's name", "PREFIX",
     "fio's IOPS log: PREFIX_iops.N.log", SB_OPTC_SERIES, SB_OPTF_SWITCH | SB_OPTF_DEF_DOC,
     NULL, sb_opt_parse_log_prefix},
    {"log_offset", NULL, SB_OPT_BOOL, J(log_offset), 0, 0, "0", NULL,
     "the log lines carry each I/O's offset (a column before prio), as fio", SB_OPTC_SERIES,
     SB_OPTF_SWITCH, NULL, NULL},
    {"steadystate", a_ss, SB_OPT_FUNC, J(steady), 0, 0, NULL, "CRIT",
     "stop when settled: iops|iops_slope|bw|bw_slope:LIMIT[%] as fio (needs --ss_dur), or "
     "snia[:bw] for SNIA PTS rounds; makes the job time based, --runtime its limit: 1h by "
     "default, 25 rounds for snia", SB_OPTC_SERIES, 0, NULL, parse_steady},
    {"ss_dur", a_ss_dur, SB_OPT_DURATION, J(steady.dur_s), 0, 0, NULL, "DURATION",
     "the rolling window of 1 s samples fio's criteria judge, 2 s .. 1 day", SB_OPTC_SERIES, 0,
     NULL, NULL},
    {"ss_ramp", a_ss_ramp, SB_OPT_DURATION, J(steady.ramp_s), 0, 0, "0", "DURATION",
     "measured time before samples are collected for the check", SB_OPTC_SERIES, 0, NULL, NULL},
    {"ss_round", NULL, SB_OPT_DURATION, J(steady.round_s), 1, 0, "1m", "DURATION",
     "snia: the length of a round", SB_OPTC_SERIES, SB_OPTF_DEF_DOC, NULL, NULL},
#include "io/options/jobctl_entries.h"
    SB_IO_OPTIONS_FIOB /* options_fiob_rows.h */
};
const size_t sb_io_n_options = sizeof sb_io_options / sizeof sb_io_options[0];

/* ------------------------------------------------------------ lookup and parsing */

const sb_opt *sb_opt_find(const sb_opt *table, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(table[i].name, name))
            return &table[i];
        for (const char *const *a = table[i].aliases; a && *a; a++)
            if (!strcmp(*a, name))
                return &table[i];
    }
    return NULL;
}

/* fio's size rules (kb_base 1024 or 1000; options.h): a number, then an optional suffix
 * k, m, g, t, p with an optional b, or the IEC ki, mi … with an optional b. */
static int parse_size_fio(const char *s, unsigned kb_base, uint64_t *out)
{
    if (!isdigit((unsigned char)*s))
        return -EINVAL;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno == ERANGE)
        return -ERANGE;
    static const char units[] = "kmgtp";
    const char *u = *end ? strchr(units, tolower((unsigned char)*end)) : NULL;
    if (*end && (tolower((unsigned char)*end) == 'b' ? end[1] != '\0' : !u))
        return -EINVAL;
    if (!u) {
        *out = v;
        return 0;
    }
    const char *rest = end + 1;
    bool iec = tolower((unsigned char)*rest) == 'i';
    if (iec)
        rest++;
    if (*rest && strcasecmp(rest, "b"))
        return -EINVAL;
    /* kb_base=1024: the plain suffix is 1024, the IEC one 1000; kb_base=1000: the reverse */
    uint64_t base = (kb_base == 1000) == iec ? 1024 : 1000;
    uint64_t r = v;
    for (int i = 0; i <= (int)(u - units); i++) {
        if (r > UINT64_MAX / base)
            return -ERANGE;
        r *= base;
    }
    *out = r;
    return 0;
}

int sb_opt_parse_size(const char *s, unsigned kb_base, uint64_t *out)
{
    if (!s)
        return -EINVAL;
    return kb_base ? parse_size_fio(s, kb_base, out) : sb_parse_size(s, out);
}

/* Stores v into an integer field of 1, 4 or 8 bytes (bool, unsigned/int/enum, uint64_t). */
static void store_int(void *p, size_t size, uint64_t v)
{
    if (size == 1)
        *(uint8_t *)p = (uint8_t)v;
    else if (size == 4)
        *(uint32_t *)p = (uint32_t)v;
    else
        *(uint64_t *)p = v;
}

static int parse_choice(const sb_opt *o, void *field, const char *v, char *why, size_t len)
{
    for (const sb_opt_choice *c = o->choices; c && c->name; c++)
        if (!strcmp(c->name, v)) {
            store_int(field, o->size, (uint64_t)(int64_t)c->value);
            return 0;
        }
    int n = snprintf(why, len, "'%s' is not one of ", v);
    for (const sb_opt_choice *c = o->choices; c && c->name && n >= 0 && (size_t)n < len; c++)
        n += snprintf(why + n, len - (size_t)n, "%s%s", c == o->choices ? "" : ", ", c->name);
    return -EINVAL;
}

static int parse_duration(const sb_opt *o, void *field, const char *v, char *why, size_t len)
{
    double s;
    /* fio's thinktime: a bare number is microseconds */
    if ((o->flags & SB_OPTF_USEC) && *v && strspn(v, "0123456789.") == strlen(v))
        s = strtod(v, NULL) / 1e6;
    else if (sb_parse_duration(v, &s) < 0) {
        snprintf(why, len, "'%s' is not a duration (20, 20s, 500ms, 2m)", v);
        return -EINVAL;
    }
    if ((o->flags & SB_OPTF_POSITIVE) && s <= 0) {
        snprintf(why, len, "'%s' is not a duration above 0", v);
        return -EINVAL;
    }
    /* 1e-9: "10ms" parses to 0.01 within rounding, and must pass a bound of 0.01 */
    if ((o->min > 0 && s < o->min - 1e-9) || (o->max > 0 && s > o->max + 1e-9)) {
        if (o->max > 0)
            snprintf(why, len, "'%s' is not in %g s .. %g s", v, o->min, o->max);
        else
            snprintf(why, len, "'%s' is less than %g s", v, o->min);
        return -EINVAL;
    }
    *(double *)field = s;
    return 0;
}

/* fio's a-b: both sizes by the same kb_base rules; one size alone is a range of one. */
static int parse_range(const sb_opt *o, void *field, const char *v, const sb_opt_ctx *ctx,
                       char *why, size_t len)
{
    char lo_s[64];
    const char *dash = strchr(v, '-');
    uint64_t lo, hi;
    unsigned kb = ctx ? ctx->kb_base : 0;
    size_t n = dash ? (size_t)(dash - v) : strlen(v);
    if (strchr(v, ',')) {
        snprintf(why, len, "'%s': separate read,write values are not supported", v);
        return -EINVAL;
    }
    if (n >= sizeof lo_s || (memcpy(lo_s, v, n), lo_s[n] = '\0', sb_opt_parse_size(lo_s, kb, &lo) < 0) ||
        (dash ? sb_opt_parse_size(dash + 1, kb, &hi) : (hi = lo, 0)) < 0) {
        snprintf(why, len, "'%s' is not a size or a range of sizes (4k-64k)", v);
        return -EINVAL;
    }
    if (hi < lo) {
        snprintf(why, len, "'%s': the range ends below its start", v);
        return -EINVAL;
    }
    if ((o->min > 0 && (double)lo < o->min) || (o->max > 0 && (double)hi > o->max)) {
        snprintf(why, len, "'%s' is not in %.0f .. %.0f bytes", v, o->min, o->max);
        return -EINVAL;
    }
    ((uint64_t *)field)[0] = lo;
    ((uint64_t *)field)[1] = dash ? hi : 0; /* one size: no range (code that sets bs alone agrees) */
    return 0;
}

/* fio's bssplit: SIZE/PCT:SIZE/PCT...; entries without a PCT share what the others leave,
 * as fio does; the percentages must come to 100. */
static int parse_split(const sb_opt *o, void *field, const char *v, const sb_opt_ctx *ctx,
                       char *why, size_t len)
{
    sb_io_bssplit sp = {0};
    char buf[512], *save = NULL;
    unsigned given = 0, bare = 0;
    const char *comma = strchr(v, ',');
    /* fio's READS,WRITES: an entry with room for two splits parses each on its own */
    if (comma && o->size >= 2 * sizeof sp && !strchr(comma + 1, ',')) {
        char first[512];
        if ((size_t)(comma - v) >= sizeof first) {
            snprintf(why, len, "'%s' is too long", v);
            return -EINVAL;
        }
        memcpy(first, v, (size_t)(comma - v));
        first[comma - v] = '\0';
        sb_opt one = *o;
        one.size = sizeof sp;
        if (parse_split(&one, field, first, ctx, why, len) < 0 ||
            parse_split(&one, (sb_io_bssplit *)field + 1, comma + 1, ctx, why, len) < 0)
            return -EINVAL;
        return 0;
    }
    if (strlen(v) >= sizeof buf || comma) {
        snprintf(why, len, "'%s' is not a split of one direction (4k/50:64k/50)", v);
        return -EINVAL;
    }
    strcpy(buf, v);
    for (char *e = strtok_r(buf, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
        char *slash = strchr(e, '/');
        uint64_t pct = 0;
        if (slash)
            *slash = '\0';
        if (sp.n == SB_IO_MAX_SPLIT) {
            snprintf(why, len, "'%s': at most %d sizes", v, SB_IO_MAX_SPLIT);
            return -EINVAL;
        }
        if (sb_opt_parse_size(e, ctx ? ctx->kb_base : 0, &sp.bs[sp.n]) < 0 ||
            (slash && sb_parse_uint(slash + 1, 0, 100, &pct) < 0)) {
            snprintf(why, len, "'%s' is not a split (SIZE/PCT:SIZE/PCT, such as 4k/50:64k/50)", v);
            return -EINVAL;
        }
        if ((o->min > 0 && (double)sp.bs[sp.n] < o->min) || (o->max > 0 && (double)sp.bs[sp.n] > o->max)) {
            snprintf(why, len, "'%s': %s is not in %.0f .. %.0f bytes", v, e, o->min, o->max);
            return -EINVAL;
        }
        sp.pct[sp.n] = slash ? (unsigned)pct : UINT32_MAX;
        given += slash ? (unsigned)pct : 0;
        bare += !slash;
        sp.n++;
    }
    if (!sp.n || given > 100 || (!bare && given != 100)) {
        snprintf(why, len, "'%s': the percentages come to %u, not 100", v, given);
        return -EINVAL;
    }
    unsigned left = 100 - given;
    for (unsigned i = 0; i < sp.n; i++)
        if (sp.pct[i] == UINT32_MAX) {
            sp.pct[i] = left / bare + (left % bare > 0 ? 1 : 0);
            left -= sp.pct[i];
            bare--;
        }
    *(sb_io_bssplit *)field = sp;
    if (o->size >= 2 * sizeof sp) /* one split: the writes' too */
        ((sb_io_bssplit *)field)[1].n = 0;
    return 0;
}

/* fio's file list: a:b is two names, \: a colon inside one. */
static int parse_list(const sb_opt *o, void *field, const char *v, char *why, size_t len)
{
    char *out = field;
    size_t n = 0;
    for (const char *p = v; *p; p++) {
        char c = *p;
        if (c == '\\' && p[1] == ':')
            c = *++p;
        else if (c == ':')
            c = '\0';
        if (n + 2 >= o->size) {
            snprintf(why, len, "too long (at most %zu bytes)", o->size - 2);
            return -EINVAL;
        }
        if (c == '\0' && (n == 0 || out[n - 1] == '\0')) {
            snprintf(why, len, "'%s' has an empty name", v);
            return -EINVAL;
        }
        out[n++] = c;
    }
    if (n && out[n - 1] == '\0') {
        snprintf(why, len, "'%s' has an empty name", v);
        return -EINVAL;
    }
    out[n] = out[n + 1] = '\0';
    return 0;
}

static int parse_value(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                       char *why, size_t len)
{
    void *field = (char *)base + o->off;
    uint64_t u;
    int b = 1;
    switch (o->type) {
    case SB_OPT_STR:
        if (strlen(v) >= o->size) {
            snprintf(why, len, "too long (at most %zu bytes)", o->size - 1);
            return -EINVAL;
        }
        memcpy(field, v, strlen(v) + 1);
        return 0;
    case SB_OPT_INT: {
        /* max 0: no upper bound */
        int rc = sb_parse_uint(v, (uint64_t)o->min, o->max == 0 ? UINT64_MAX : (uint64_t)o->max, &u);
        if (rc < 0) {
            if (o->max == 0 && o->min == 0)
                snprintf(why, len, "'%s' is not a number", v);
            else if (o->max == 0)
                snprintf(why, len, "'%s' is not a number of at least %.0f", v, o->min);
            else
                snprintf(why, len, "'%s' is not in %.0f .. %.0f", v, o->min, o->max);
            return -EINVAL;
        }
        store_int(field, o->size, u);
        return 0;
    }
    case SB_OPT_BOOL:
        if (v && sb_parse_bool(v, &b) < 0) {
            snprintf(why, len, "'%s' is not 0 or 1", v);
            return -EINVAL;
        }
        store_int(field, o->size, (uint64_t)b);
        return 0;
    case SB_OPT_SIZE:
        if (o->flags & SB_OPTF_ZONES) /* size=8z, offset=8z (options_zbd.c) */
            return sb_opt_parse_zoned_size(o, base, v, ctx, why, len);
        if (sb_opt_parse_size(v, ctx ? ctx->kb_base : 0, &u) < 0) {
            snprintf(why, len, "'%s' is not a size", v);
            return -EINVAL;
        }
        if ((o->min > 0 && (double)u < o->min) || (o->max > 0 && (double)u > o->max)) {
            snprintf(why, len, "'%s' is not in %.0f .. %.0f bytes", v, o->min, o->max);
            return -EINVAL;
        }
        *(uint64_t *)field = u;
        return 0;
    case SB_OPT_DURATION:
        return parse_duration(o, field, v, why, len);
    case SB_OPT_CHOICE: /* a choice with more syntax has its own parser (rw's :SKIP) */
        return o->parse ? o->parse(o, base, v, ctx, why, len) : parse_choice(o, field, v, why, len);
    case SB_OPT_FUNC:
        return o->parse(o, base, v, ctx, why, len);
    case SB_OPT_RANGE:
        return parse_range(o, field, v, ctx, why, len);
    case SB_OPT_SPLIT:
        return parse_split(o, field, v, ctx, why, len);
    case SB_OPT_LIST:
        return parse_list(o, field, v, why, len);
    case SB_OPT_PCT: {
        char num[32];
        size_t n = strlen(v);
        if (n && v[n - 1] == '%')
            n--;
        if (n >= sizeof num || (memcpy(num, v, n), num[n] = '\0', sb_parse_uint(num, 0, 100, &u)) < 0) {
            snprintf(why, len, "'%s' is not a percentage (0 .. 100)", v);
            return -EINVAL;
        }
        store_int(field, o->size, u);
        return 0;
    }
    }
    snprintf(why, len, "an option of unknown type");
    return -EINVAL;
}

int sb_opt_parse(const sb_opt *o, void *base, const char *as, const char *value,
                 const sb_opt_ctx *ctx, char *err, size_t errlen)
{
    char why[768];
    if (!as)
        as = o->name;
    if (!value && o->type != SB_OPT_BOOL) {
        if (!(o->flags & SB_OPTF_SWITCH) || !o->def) {
            snprintf(err, errlen, "%s: needs a value", as);
            return -EINVAL;
        }
        value = o->def; /* a switch of another type given bare: its default */
    }
    why[0] = '\0';
    if (parse_value(o, base, value, ctx, why, sizeof why) < 0) {
        snprintf(err, errlen, "%s: %s", as, why[0] ? why : "bad value");
        return -EINVAL;
    }
    return 0;
}

int sb_io_opt_set(void *job, const char *name, const char *key, const char *value,
                  const sb_opt_ctx *ctx, char *err, size_t errlen)
{
    const sb_opt *o = sb_opt_find(sb_io_options, sb_io_n_options, name);
    if (!o) {
        snprintf(err, errlen, "%s: not an I/O job option", name);
        return -ENOENT;
    }
    return sb_opt_parse(o, job, key, value, ctx, err, errlen);
}
