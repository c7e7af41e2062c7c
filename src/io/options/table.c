/*
 * table — the one table of sb_io_job's options (options.h), whole: every option fio's
 * job files and `storbench io`'s command line take, one row each, in usage order, with
 * its name (fio's spelling), aliases, value type, the job field it sets, bounds, the
 * default as shown, the usage text and its category. The same rows parse command lines,
 * job files and the fio and diskmark tests' keys (parse.c), and print usage, --cmdhelp
 * and the option lists of the man page and docs/io.md (doc.c). Data only: the entries'
 * own parsers are in the parse_*.c files beside it, by the options they read. The job's
 * defaults stay in sb_io_job_init() (job.c); tests/unit/test_options.c checks that each
 * row's shown default parses to what that function sets. What options mean together is
 * job/check.c's.
 *
 * A data table stays whole whatever its length (scripts/check-structure exempts files
 * named table.c, which hold no function).
 */
#include <stddef.h>
#include <stdint.h>

#include "io/job.h"
#include "io/options/options.h"

/* A field of the job as a row's .off and .size */
#define J(f) .off = offsetof(sb_io_job, f), .size = sizeof(((sb_io_job *)0)->f)
/* bs and bs_max: one RANGE entry writes both (options.h) */
#define J_RANGE(lo) .off = offsetof(sb_io_job, lo), .size = 2 * sizeof(uint64_t)
/* bs and bs_max: one RANGE entry writes both (options.h) */
_Static_assert(offsetof(sb_io_job, bs_max) == offsetof(sb_io_job, bs) + sizeof(uint64_t),
               "bs_max must follow bs");
/* bssplit and bssplit_w: one SPLIT entry writes both (fio's READS,WRITES) */
_Static_assert(offsetof(sb_io_job, bssplit_w) == offsetof(sb_io_job, bssplit) + sizeof(sb_io_bssplit),
               "bssplit_w must follow bssplit");
/* bs_w and bs_max_w: bs=READ,WRITE's writes' range (parse_fio.c) */
_Static_assert(offsetof(sb_io_job, bs_max_w) == offsetof(sb_io_job, bs_w) + sizeof(uint64_t),
               "bs_max_w must follow bs_w");

/* ------------------------------------------------------------ choices */

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
static const sb_opt_choice sb_opt_submit_mode_choices[] = {{"inline", 0}, {"offload", 1}, {NULL, 0}};
static const sb_opt_choice sb_opt_rng_choices[] = {
    {"tausworthe", 0}, {"lfsr", 1}, {"tausworthe64", 2}, {NULL, 0}, /* SB_RNG_* (job.h) */
};
static const char *const sb_opt_a_ss_interval[] = {"ss_interval", NULL};
static const sb_opt_choice sb_opt_exit_what_choices[] = {{"group", 0}, {"stonewall", 1}, {"all", 2}, {NULL, 0}};
static const sb_opt_choice sb_opt_fallocate_choices[] = {
    {"native", SB_FALLOC_NATIVE}, {"posix", SB_FALLOC_NATIVE}, {"keep", SB_FALLOC_KEEP},
    {"none", SB_FALLOC_NONE}, {"0", SB_FALLOC_NONE}, {"1", SB_FALLOC_NATIVE}, {NULL, 0},
};
static const sb_opt_choice sb_opt_think_type_choices[] = {
    {"complete", SB_THINK_COMPLETE}, {"issue", SB_THINK_ISSUE}, {NULL, 0}};
static const char *const sb_opt_a_rate_cycle[] = {"ratecycle", NULL};
static const char *const sb_opt_a_bs_unaligned[] = {"blocksize_unaligned", NULL};
static const sb_opt_choice sb_opt_rw_seq_choices[] = {{"sequential", 0}, {"identical", 1}, {NULL, 0}};
static const sb_opt_choice sb_opt_lockfile_choices[] = {
    {"none", SB_LOCKFILE_NONE}, {"exclusive", SB_LOCKFILE_EXCLUSIVE},
    {"readwrite", SB_LOCKFILE_READWRITE}, {NULL, 0}};
/* fio's write_hint names and the kernel's RWH_WRITE_LIFE_* values they set */
static const sb_opt_choice sb_opt_write_hint_choices[] = {
    {"none", 1}, {"short", 2}, {"medium", 3}, {"long", 4}, {"extreme", 5}, {NULL, 0}};
static const char *const sb_opt_a_hugepage[] = {"hugepage_size", NULL};
static const sb_opt_choice sb_opt_dedupe_mode_choices[] = {{"repeat", 0}, {"working_set", 1}, {NULL, 0}};

static const sb_opt_choice mem_choices[] = {
    {"malloc", SB_IOMEM_MALLOC}, {"shm", SB_IOMEM_SHM}, {"shmhuge", SB_IOMEM_SHMHUGE},
    {"mmap", SB_IOMEM_MMAP}, {"mmaphuge", SB_IOMEM_MMAPHUGE}, {"mmapshared", SB_IOMEM_MMAPSHARED},
    {NULL, 0}};
static const sb_opt_choice fadvise_choices[] = {
    {"0", SB_FADVISE_NONE}, {"1", SB_FADVISE_PATTERN}, {"random", SB_FADVISE_RANDOM},
    {"sequential", SB_FADVISE_SEQUENTIAL}, {NULL, 0}};
static const sb_opt_choice sync_choices[] = {
    {"0", 0}, {"none", 0}, {"1", 1}, {"sync", 1}, {"dsync", 2}, {NULL, 0}};
static const sb_opt_choice clocksource_choices[] = {
    {"clock_gettime", 0}, {"gettimeofday", 1}, {"cpu", 2}, {NULL, 0}};
static const sb_opt_choice nonvectored_choices[] = {{"-1", -1}, {"0", 0}, {"1", 1}, {NULL, 0}};
static const sb_opt_choice cmd_type_choices[] = {{"nvme", 1}, {NULL, 0}};
static const sb_opt_choice stat_type_choices[] = {
    {"stat", SB_STAT_STAT}, {"lstat", SB_STAT_LSTAT}, {"statx", SB_STAT_STATX}, {NULL, 0}};
static const sb_opt_choice sg_write_mode_choices[] = {
    {"write", SB_SG_WRITE}, {"write_and_verify", SB_SG_WRITE_VERIFY}, {"verify", SB_SG_WRITE_VERIFY},
    {"write_same", SB_SG_WRITE_SAME}, {"same", SB_SG_WRITE_SAME}, {"write_same_ndob", SB_SG_WRITE_SAME_NDOB},
    {"verify_bytchk_00", SB_SG_VERIFY_00}, {"verify_bytchk_01", SB_SG_VERIFY_01},
    {"verify_bytchk_11", SB_SG_VERIFY_11}, {"write_stream", SB_SG_WRITE_STREAM}, {NULL, 0}};
static const sb_opt_choice unified_rw_choices[] = { /* fio's reporting options */
    {"none", 0}, {"0", 0}, {"mixed", 1}, {"1", 1}, {"both", 2}, {"2", 2}, {NULL, 0}};
static const sb_opt_choice unit_base_choices[] = {{"0", 0}, {"8", 8}, {"1", 1}, {NULL, 0}};

/* ------------------------------------------------------------ aliases */

static const char *const a_rw[] = {"readwrite", NULL};
static const char *const a_disable_bw[] = {"disable_bw", NULL};
static const char *const a_time_based[] = {"time-based", NULL};
static const char *const a_runtime[] = {"timeout", NULL};
static const char *const a_ramp[] = {"ramp-time", NULL};
static const char *const a_seed[] = {"seed", NULL};
static const char *const a_batch[] = {"iodepth_batch_submit", NULL};
static const char *const a_cmin[] = {"iodepth_batch_complete", NULL};
static const char *const a_ss[] = {"ss", NULL};
static const char *const a_ss_dur[] = {"ss_dur", NULL};
static const char *const a_ss_ramp[] = {"ss_ramp", NULL};
static const char *const a_bs[] = {"blocksize", NULL};
static const char *const a_bsrange[] = {"blocksize_range", NULL};
static const char *const a_bssplit[] = {"blocksize_split", NULL};
static const char *const a_thread[] = {"use_thread", NULL};
static const char *const a_rate_min[] = {"ratemin", NULL};
static const char *const a_blockalign[] = {"blockalign", NULL};
static const char *const a_mem[] = {"iomem", NULL};
static const char *const a_mem_align[] = {"mem_align", NULL};
static const char *const a_nrfiles[] = {"nr_files", NULL};
static const char *const a_io_size[] = {"io_limit", NULL};
static const char *const a_fill_device[] = {"fill_fs", NULL};

/* ------------------------------------------------------------ the table */

const sb_opt sb_io_options[] = {
    {.name = "rw", .aliases = a_rw, .type = SB_OPT_CHOICE, J(rw), .def = "read", .arg = "MODE",
     .help = "read | write | randread | randwrite | rw | randrw (rw, randrw: reads and writes mixed, "
             "sequential or random) | trim | randtrim | trimwrite (discards: a hole punched in a file, "
             "BLKDISCARD on a block device; trimwrite trims each block, then writes it); fio's read:SKIP / write:-SKIP skips SKIP bytes after each "
             "sequential I/O (negative: backwards)",
     .category = SB_OPTC_JOB, .choices = rw_choices, .parse = sb_opt_parse_rw},
    {.name = "name", .type = SB_OPT_STR, J(name), .arg = "NAME",
     .help = "the job's name, as printed; on the command line --name starts a new job, as fio's",
     .category = SB_OPTC_JOB},
    {.name = "rwmixread", .type = SB_OPT_PCT, J(rwmixread), .max = 100, .def = "50", .arg = "PCT",
     .help = "% of reads in rw and randrw jobs",
     .category = SB_OPTC_JOB},
    {.name = "rwmixwrite", .type = SB_OPT_FUNC, J(rwmixread), .def = "50", .arg = "PCT",
     .help = "% of writes in rw and randrw jobs (the reads are the rest)",
     .category = SB_OPTC_JOB, .parse = sb_opt_parse_rwmixwrite},
    {.name = "bs", .aliases = a_bs, .type = SB_OPT_RANGE, J_RANGE(bs), .def = "4k", .arg = "SIZE",
     .help = "block size, 1 .. 64M (direct=1: whole logical blocks); READ,WRITE: each direction's own, "
             "and as fio reads them READ-WRITE and READ:WRITE too (a range of sizes is bsrange's)",
     .category = SB_OPTC_JOB, .parse = sb_opt_parse_bs_dirs},
    {.name = "bsrange", .aliases = a_bsrange, .type = SB_OPT_RANGE, J_RANGE(bs), .arg = "LO-HI",
     .help = "each I/O's size drawn from LO .. HI in multiples of LO (a table made before the run); "
             "a random offset is drawn first, then a size that fits after it, and with the random map a block taken moves it to the next free "
             "one and the I/O stops at the next taken (each block once a pass), as fio's; READ,WRITE: each direction's own",
     .category = SB_OPTC_JOB, .parse = sb_opt_parse_bs_dirs},
    /* bs's per-direction details (parse_fio.c, run/worker.c's size tables) */
    {.name = "bs_is_seq_rand", .type = SB_OPT_BOOL, J(bs_is_seq_rand), .def = "0",
     .help = "bs=SEQ,RAND: the first value is for sequential I/Os, the second for random ones, "
             "whatever their direction",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH},
    {.name = "bs_unaligned", .aliases = sb_opt_a_bs_unaligned, .type = SB_OPT_BOOL, J(bs_unaligned),
     .def = "0",
     .help = "bsrange's sizes are any byte count from LO to HI, not multiples of LO (buffered I/O: "
             "direct I/O refuses them); bssplit's stay as given, not rounded down to the smallest's "
             "multiples",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH | SB_OPTF_SET},
    {.name = "bssplit", .aliases = a_bssplit, .type = SB_OPT_SPLIT,
     .off = offsetof(sb_io_job, bssplit), .size = 2 * sizeof(sb_io_bssplit),
     .arg = "SPLIT[,SPLIT]",
     .help = "block sizes by share of the I/Os: 4k/50:64k/50; a size without /PCT shares the rest; "
             "READS,WRITES gives the writes their own split, as fio's",
     .category = SB_OPTC_JOB, .parse = sb_opt_parse_bssplit},
    {.name = "kb_base", .type = SB_OPT_CHOICE, J(kb_base), .def = "1024 in job files", .arg = "N",
     .help = "fio's size suffixes: 1024 (k, KB = 1024; KiB = 1000, fio's inversion) or 1000 (k, KB = "
             "1000; KiB = 1024); without it the command line reads every suffix as 1024",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_DEF_DOC, .choices = kb_base_choices},
    {.name = "size", .type = SB_OPT_SIZE, J(size), .def = "1g", .arg = "SIZE",
     .help = "bytes per pass, per file; Nz: N "
             "zones (zonesize, or a zoned device's)",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_ZONES, .parse = sb_opt_parse_zoned_size},
    {.name = "filesize", .type = SB_OPT_FUNC, J(filesize), .arg = "SIZE",
     .help = "the file's size; also the job's size, which a later size may make smaller; LO-HI: "
             "each file's size drawn in the range, as fio's",
     .category = SB_OPTC_JOB, .parse = sb_opt_parse_filesize},
    {.name = "nrfiles", .aliases = a_nrfiles, .type = SB_OPT_INT, J(nrfiles), .min = 1, .def = "1",
     .arg = "N",
     .help = "files per thread in --directory, named as fio's NAME.JOB.FILE; size is divided among "
             "them unless filesize is given",
     .category = SB_OPTC_JOB, .parse = sb_opt_parse_nrfiles},
    {.name = "loops", .type = SB_OPT_INT, J(loops), .min = 1, .def = "1", .arg = "N",
     .help = "passes over the region of a job that is not time based",
     .category = SB_OPTC_JOB},
    {.name = "offset", .type = SB_OPT_SIZE, J(offset), .def = "0", .arg = "SIZE",
     .help = "start of the region in the file; "
             "Nz: N zones; N%: N % of the file's size (rounded up to offset_align)",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_ZONES, .parse = sb_opt_parse_zoned_size},
    {.name = "numjobs", .type = SB_OPT_INT, J(numjobs), .min = 1, .max = SB_IO_MAX_JOBS,
     .def = "1", .arg = "N",
     .help = "threads; with --directory each has its own file (removed afterwards), with --filename "
             "they share it",
     .category = SB_OPTC_JOB},
    {.name = "filename", .type = SB_OPT_LIST, J(filename), .arg = "FILE",
     .help = "the file (or block device) to use; it is kept. fio's a:b list (\\: a colon in a name) "
             "names several, which every thread uses, size divided among them; each filename adds "
             "to the job's files (a job starts with its [global]'s), as fio's",
     .category = SB_OPTC_JOB, .parse = sb_opt_parse_filename},
    {.name = "directory", .type = SB_OPT_STR, J(directory), .arg = "DIR",
     .help = "make one file per job here, removed afterwards; A:B spreads the threads' files over "
             "the directories, as fio's",
     .category = SB_OPTC_JOB},
    {.name = "unlink", .type = SB_OPT_BOOL, J(unlink), .def = "0",
     .help = "also remove a --filename file after the job when this run created it (files in "
             "--directory are always removed)",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH},
    {.name = "threads", .type = SB_OPT_INT, J(profile_threads), .min = 0, .def = "0", .arg = "N",
     .help = "fio's tiobench profile's thread count (--profile=tiobench --threads N); in a job it "
             "changes nothing, in fio as here (a warning says so): `thread` is the threads switch",
     .category = SB_OPTC_JOB},
    {.name = "thread", .aliases = a_thread, .type = SB_OPT_BOOL, J(thread), .def = "0",
     .help = "fio's threads instead of processes: storbench's jobs are always threads, so 0 and 1 "
             "run alike",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH | SB_OPTF_SET},
    {.name = "group_reporting", .type = SB_OPT_BOOL, J(group_reporting), .def = "0",
     .help = "report the numjobs threads together; without it each is reported on its own, as fio",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH | SB_OPTF_SET},
    {.name = "unified_rw_reporting", .type = SB_OPT_CHOICE, J(unified_rw), .def = "none",
     .arg = "MODE",
     .help = "none (0): reads, writes and trims reported apart; mixed (1): as one \"mixed\" "
             "direction; both (2): apart and mixed, as fio",
     .category = SB_OPTC_JOB, .choices = unified_rw_choices},
    {.name = "stats", .type = SB_OPT_BOOL, J(stats), .def = "1",
     .help = "0: the job runs but is left out of the report (and of its group's figures), as fio",
     .category = SB_OPTC_JOB},
    {.name = "significant_figures", .type = SB_OPT_INT, J(sig_figs), .min = 1, .max = 10, .def = "4",
     .arg = "N",
     .help = "digits of the IOPS, bandwidth and io= figures of the normal output, as fio",
     .category = SB_OPTC_JOB},
    {.name = "unit_base", .type = SB_OPT_CHOICE, J(unit_base), .def = "0", .arg = "N",
     .help = "the normal output's bandwidth in bits (1) or bytes (8; 0: bytes), as fio",
     .category = SB_OPTC_JOB, .choices = unit_base_choices},
    {.name = "disk_util", .type = SB_OPT_BOOL, J(disk_util), .def = "1",
     .help = "report what the disks under the job's files did (/sys/block/*/stat over the run): "
             "normal output's \"Disk stats\", JSON's disk_util; 0: not",
     .category = SB_OPTC_JOB},
    {.name = "disable_lat", .type = SB_OPT_BOOL, J(disable_lat), .def = "0",
     .help = "no total latency (lat) in the report, as fio",
     .category = SB_OPTC_JOB},
    {.name = "disable_clat", .type = SB_OPT_BOOL, J(disable_clat), .def = "0",
     .help = "no completion latency (clat), its percentiles and buckets in the report, as fio",
     .category = SB_OPTC_JOB},
    {.name = "disable_slat", .type = SB_OPT_BOOL, J(disable_slat), .def = "0",
     .help = "no submission latency (slat) in the report, as fio",
     .category = SB_OPTC_JOB},
    {.name = "disable_bw_measurement", .aliases = a_disable_bw, .type = SB_OPT_BOOL, J(disable_bw),
     .def = "0",
     .help = "no bandwidth and IOPS samples (bw_*, iops_* over time) in the report, as fio",
     .category = SB_OPTC_JOB},
    {.name = "gtod_cpu", .type = SB_OPT_FUNC, J(gtod_cpu), .def = "not given", .arg = "CPU",
     .help = "a thread pinned to CPU reads gettimeofday without pause into a time the job threads "
             "read instead of a clock (microseconds), as fio's; with cpus_allowed the job leaves "
             "that CPU to it",
     .category = SB_OPTC_TIMING, .flags = SB_OPTF_DEF_DOC, .parse = sb_opt_parse_gtod_cpu},
    {.name = "block_error_percentiles", .type = SB_OPT_BOOL, J(block_error_pct), .def = "0",
     .help = "refused when 1: fio's histogram of trims until a block fails needs a device that "
             "wears out and reports it, which storbench does not count",
     .category = SB_OPTC_JOB},
    {.name = "percentile_list", .type = SB_OPT_FUNC, J(percentiles), .def = "storbench's 17",
     .arg = "LIST",
     .help = "the latency percentiles printed: 50:99:99.9",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_DEF_DOC, .parse = sb_opt_parse_percentiles},
    {.name = "file_service_type", .type = SB_OPT_FUNC, J(file_service), .def = "roundrobin",
     .arg = "TYPE",
     .help = "with several files, which one the next I/O goes to: roundrobin | random | sequential "
             "(:N I/Os before switching) | zipf | pareto | normal (:SKEW), as fio's",
     .category = SB_OPTC_JOB, .parse = sb_opt_parse_file_service},
    {.name = "openfiles", .type = SB_OPT_INT, J(openfiles), .min = 1, .def = "nrfiles", .arg = "N",
     .help = "with several files, serve at most N at a time (the next comes in when one is done)",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_DEF_DOC},
    {.name = "filename_format", .type = SB_OPT_STR, J(filename_format),
     .def = "$jobname.$jobnum.$filenum", .arg = "FMT",
     .help = "the names of the files made in --directory ($jobname, $jobnum, $filenum); names "
             "that come out alike are one file, shared",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_DEF_DOC},
    {.name = "create_on_open", .type = SB_OPT_BOOL, J(create_on_open), .def = "0",
     .help = "a new file is neither allocated nor laid out before the run: the writes extend it, reads find holes or its end",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH},
    {.name = "create_fsync", .type = SB_OPT_BOOL, J(create_fsync), .def = "1",
     .help = "fsync a file after laying it out",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH},
    /* fio's file handling (job/fileopts.c) and process settings (run/system.c) */
    {.name = "opendir", .type = SB_OPT_STR, J(opendir), .arg = "DIR",
     .help = "every regular file under DIR (recursively, symlinks not followed) is one of the job's "
             "files, as fio's; they must exist and are kept; without size= each is done over its own size",
     .category = SB_OPTC_JOB},
    {.name = "file_append", .type = SB_OPT_BOOL, J(file_append), .def = "0",
     .help = "each file's region starts at its end (offset = the file's size), as fio's",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH},
    {.name = "create_only", .type = SB_OPT_BOOL, J(create_only), .def = "0",
     .help = "lay out (create) the files and stop: no I/O is done, as fio's",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH},
    {.name = "pre_read", .type = SB_OPT_BOOL, J(pre_read), .def = "0",
     .help = "read each file's region into the page cache before the run (invalidate is then off), "
             "as fio's",
     .category = SB_OPTC_SYNC, .flags = SB_OPTF_SWITCH},
    {.name = "unlink_each_loop", .type = SB_OPT_BOOL, J(unlink_each_loop), .def = "0",
     .help = "with loops: unlink each thread's file after each loop and make it anew for the next, "
             "as fio's (write jobs, synchronous engines, one file per thread)",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH},
    {.name = "lockfile", .type = SB_OPT_CHOICE, J(lockfile), .def = "none", .arg = "MODE",
     .help = "a lock per file, shared by the threads on it, around each I/O's submission, as fio's: "
             "none, exclusive (one I/O at a time on the file), readwrite (reads share, a write is "
             "alone)",
     .category = SB_OPTC_JOB, .choices = sb_opt_lockfile_choices},
    {.name = "write_hint", .type = SB_OPT_CHOICE, J(write_hint), .def = "unset", .arg = "HINT",
     .help = "the files' write lifetime hint (fcntl F_SET_RW_HINT): none, short, medium, long, "
             "extreme, as fio's",
     .category = SB_OPTC_SYNC, .flags = SB_OPTF_DEF_DOC, .choices = sb_opt_write_hint_choices},
    {.name = "sync_file_range", .type = SB_OPT_FUNC, J(sfr_flags), .arg = "FLAGS[:N]",
     .help = "sync_file_range(2) on the written range after every N writes (1 by default): "
             "wait_before, write, wait_after joined by ',', as fio's",
     .category = SB_OPTC_SYNC, .parse = sb_opt_parse_sync_file_range},
    {.name = "write_barrier", .type = SB_OPT_INT, J(write_barrier), .def = "0", .arg = "N",
     .help = "fio's barrier every N writes, which only its sg engine issues: refused when set",
     .category = SB_OPTC_SYNC},
    {.name = "atomic", .type = SB_OPT_BOOL, J(atomic), .def = "0",
     .help = "direct writes with RWF_ATOMIC where the kernel and file system offer atomic writes "
             "(statx), else refused with the reason",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_SWITCH},
    {.name = "zonerange", .type = SB_OPT_SIZE, J(zonerange), .def = "zonesize", .arg = "SIZE",
     .help = "zonemode=strided: a zone's span; zonesize bytes of each are used, then zoneskip is "
             "skipped, as fio's",
     .category = SB_OPTC_OFFSETS, .flags = SB_OPTF_DEF_DOC},
    {.name = "lockmem", .type = SB_OPT_SIZE, J(lockmem), .def = "0", .arg = "SIZE",
     .help = "mlock this much memory while the job runs (less for the page cache), as fio's",
     .category = SB_OPTC_CPU},
    {.name = "cpumask", .type = SB_OPT_FUNC, J(cpus_allowed), .arg = "MASK",
     .help = "cpus_allowed as a bit mask (0x5: CPUs 0 and 2), as fio's",
     .category = SB_OPTC_CPU, .parse = sb_opt_parse_cpumask},
    {.name = "hugepage-size", .aliases = sb_opt_a_hugepage, .type = SB_OPT_SIZE, J(hugepage_size),
     .def = "2m", .arg = "SIZE",
     .help = "mem=shmhuge and mmaphuge: buffers are rounded up to this, as fio's",
     .category = SB_OPTC_ENGINE},
    {.name = "ioscheduler", .type = SB_OPT_STR, J(ioscheduler), .arg = "NAME",
     .help = "set the I/O scheduler of the files' devices (/sys/block/DEV/queue/scheduler) for the "
             "job and restore it after; a file with no block device under it is refused",
     .category = SB_OPTC_CPU},
    {.name = "exec_prerun", .type = SB_OPT_STR, J(exec_prerun), .arg = "CMD",
     .help = "run CMD with /bin/sh -c before the job, its output in JOBNAME.prerun.txt, as fio's; "
             "only from the command line or a job file named there (never an included one)",
     .category = SB_OPTC_JOB},
    {.name = "exec_postrun", .type = SB_OPT_STR, J(exec_postrun), .arg = "CMD",
     .help = "run CMD after the job, its output in JOBNAME.postrun.txt (as exec_prerun)",
     .category = SB_OPTC_JOB},
    {.name = "cgroup", .type = SB_OPT_STR, J(cgroup), .arg = "NAME",
     .help = "run the job in cgroup v2 NAME made under the caller's, removed after; refused when "
             "cgroup2 is not writable",
     .category = SB_OPTC_CPU},
    {.name = "cgroup_weight", .type = SB_OPT_INT, J(cgroup_weight), .min = 100, .max = 1000,
     .def = "unset", .arg = "N",
     .help = "the cgroup's io.weight, 100 .. 1000 as fio's (the io controller must be enabled "
             "above it)",
     .category = SB_OPTC_CPU, .flags = SB_OPTF_DEF_DOC},
    {.name = "cgroup_nodelete", .type = SB_OPT_BOOL, J(cgroup_nodelete), .def = "0",
     .help = "keep the cgroup after the job",
     .category = SB_OPTC_CPU, .flags = SB_OPTF_SWITCH},
    {.name = "uid", .type = SB_OPT_FUNC, J(uid), .def = "unset", .arg = "UID",
     .help = "run the job as this user: root only; its files are made and its I/O done with these "
             "ids (the job's threads' effective ids; root's again after), as fio's",
     .category = SB_OPTC_CPU, .flags = SB_OPTF_DEF_DOC, .parse = sb_opt_parse_id},
    {.name = "gid", .type = SB_OPT_FUNC, J(gid), .def = "unset", .arg = "GID",
     .help = "run the job with this group (root only; set before uid, as fio's)",
     .category = SB_OPTC_CPU, .flags = SB_OPTF_DEF_DOC, .parse = sb_opt_parse_id},
    {.name = "overwrite", .type = SB_OPT_BOOL, J(overwrite), .def = "0",
     .help = "1: a write job's missing bytes are written (laid out) before the run, so that its "
             "writes overwrite data, as fio's; 0: allocated only",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH},
    {.name = "unique_filename", .type = SB_OPT_BOOL, J(unique_filename), .def = "1",
     .help = "fio prefixes a client's files with its address in client/server mode; storbench "
             "has no client/server mode, so, as fio run alone, no name changes",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH},
    {.name = "fadvise_hint", .type = SB_OPT_CHOICE, J(fadvise_hint), .def = "1", .arg = "HINT",
     .help = "posix_fadvise on each file before the run, as fio's: 1 by the job's pattern "
             "(FADV_RANDOM or FADV_SEQUENTIAL), random, sequential, or 0: none",
     .category = SB_OPTC_SYNC, .choices = fadvise_choices},
    {.name = "sync", .type = SB_OPT_CHOICE, J(open_sync), .def = "none", .arg = "MODE",
     .help = "open the files for synchronous writes, as fio's: sync (1: O_SYNC), dsync "
             "(O_DSYNC), none (0)",
     .category = SB_OPTC_SYNC, .choices = sync_choices},
    {.name = "mem", .aliases = a_mem, .type = SB_OPT_CHOICE, J(iomem), .def = "malloc", .arg = "TYPE",
     .help = "how the I/O buffers are made, as fio's: malloc, shm (a private System V segment, "
             "removed at once), shmhuge, mmap (anonymous), mmaphuge (MAP_HUGETLB), mmapshared",
     .category = SB_OPTC_ENGINE, .choices = mem_choices},
    {.name = "iomem_align", .aliases = a_mem_align, .type = SB_OPT_INT, J(mem_align), .def = "0",
     .max = 1 << 20, .arg = "BYTES",
     .help = "the I/O buffers start this many bytes past a page boundary, as fio's (each slot's "
             "then max bs further on); direct=1 needs it a multiple of the logical block size",
     .category = SB_OPTC_ENGINE},
    {.name = "clocksource", .type = SB_OPT_FUNC, J(clocksource), .def = "clock_gettime",
     .arg = "SOURCE",
     .help = "the clock the job's I/O is timed with, as fio's: clock_gettime (CLOCK_MONOTONIC), "
             "gettimeofday (whole microseconds) or cpu (the TSC, its rate calibrated against "
             "CLOCK_MONOTONIC; a warning where it is not invariant)",
     .category = SB_OPTC_TIMING, .choices = clocksource_choices, .parse = sb_opt_parse_clocksource},
    {.name = "sqthread_poll", .type = SB_OPT_BOOL, J(uring_sqpoll), .def = "0",
     .help = "io_uring: a kernel thread polls the submission ring (IORING_SETUP_SQPOLL), as fio's",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_SWITCH},
    {.name = "nowait", .type = SB_OPT_BOOL, J(io_nowait), .def = "0",
     .help = "io_uring, libaio, pvsync2: RWF_NOWAIT on each I/O; one that would block fails with "
             "EAGAIN",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_SWITCH},
    {.name = "hipri", .type = SB_OPT_BOOL, J(io_hipri), .def = "0",
     .help = "io_uring (IORING_SETUP_IOPOLL), pvsync2 (RWF_HIPRI), sg (SGV4_FLAG_HIPRI): polled "
             "completions; direct I/O on a device that polls",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_SWITCH},
    /* fio's other engine options (fio --enghelp=ENGINE), refused with another engine */
    {.name = "sqthread_poll_cpu", .type = SB_OPT_INT, J(uring_sqpoll_cpu), .min = 0, .max = CPU_SETSIZE - 1,
     .def = "unset", .arg = "CPU",
     .help = "io_uring with sqthread_poll: the polling thread on this CPU (IORING_SETUP_SQ_AFF)",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_DEF_DOC},
    {.name = "nonvectored", .type = SB_OPT_CHOICE, J(uring_nonvectored), .def = "-1", .arg = "N",
     .choices = nonvectored_choices,
     .help = "io_uring: 0 reads and writes an iovec (IORING_OP_READV/WRITEV); 1, or -1 as fio's "
             "default on a kernel that has them, the buffer (IORING_OP_READ/WRITE)",
     .category = SB_OPTC_ENGINE},
    {.name = "force_async", .type = SB_OPT_INT, J(uring_force_async), .def = "0", .arg = "N",
     .help = "io_uring: every Nth I/O with IOSQE_ASYNC, run by an io-wq worker thread",
     .category = SB_OPTC_ENGINE},
    {.name = "cmd_type", .type = SB_OPT_CHOICE, J(uring_cmd_type), .def = "unset", .arg = "TYPE",
     .help = "fio's io_uring_cmd engine's (NVMe passthrough), which storbench has not: refused",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_DEF_DOC, .choices = cmd_type_choices},
    {.name = "uncached", .type = SB_OPT_BOOL, J(io_uncached), .def = "0",
     .help = "io_uring, pvsync2: buffered I/O with RWF_DONTCACHE (its pages leave the cache once "
             "done; Linux 6.14)",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_SWITCH},
    {.name = "userspace_reap", .type = SB_OPT_BOOL, J(laio_userspace_reap), .def = "the ring",
     .help = "libaio: 1 takes completions from the mapped AIO ring (storbench's default), 0 asks "
             "io_getevents for every reap (fio's default)",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_SWITCH | SB_OPTF_DEF_DOC},
    {.name = "thp", .type = SB_OPT_BOOL, J(mmap_thp), .def = "0",
     .help = "mmap: madvise(MADV_HUGEPAGE) on the mapping (transparent huge pages)",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_SWITCH},
    {.name = "hipri_percentage", .type = SB_OPT_INT, J(hipri_pct), .max = 100, .def = "100", .arg = "PCT",
     .help = "pvsync2 with hipri: RWF_HIPRI on this % of the I/Os, drawn at random",
     .category = SB_OPTC_ENGINE},
    {.name = "stat_type", .type = SB_OPT_CHOICE, J(stat_type), .def = "stat", .arg = "CALL",
     .help = "filestat, dirstat: the call each file's stat is: stat, lstat or statx",
     .category = SB_OPTC_ENGINE, .choices = stat_type_choices},
    {.name = "donorname", .type = SB_OPT_STR, J(donorname), .arg = "FILE",
     .help = "e4defrag: the donor file whose blocks EXT4_IOC_MOVE_EXT swaps in (created by the "
             "job, in its directory when it has one; removed after)",
     .category = SB_OPTC_ENGINE},
    {.name = "inplace", .type = SB_OPT_BOOL, J(e4_inplace), .def = "0",
     .help = "e4defrag: allocate the donor's blocks in each I/O and free them after, not once",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_SWITCH},
    {.name = "readfua", .type = SB_OPT_BOOL, J(sg_readfua), .def = "0",
     .help = "sg: FUA (force unit access) on every READ command",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_SWITCH},
    {.name = "writefua", .type = SB_OPT_BOOL, J(sg_writefua), .def = "0",
     .help = "sg: FUA (force unit access) on every WRITE command",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_SWITCH},
    {.name = "sg_write_mode", .type = SB_OPT_CHOICE, J(sg_write_mode), .def = "write", .arg = "MODE",
     .help = "sg: the command of a write: write, write_and_verify (verify), write_same (same), "
             "write_same_ndob, verify_bytchk_00, _01, _11, write_stream",
     .category = SB_OPTC_ENGINE, .choices = sg_write_mode_choices},
    {.name = "stream_id", .type = SB_OPT_INT, J(sg_stream_id), .max = 65535, .def = "0", .arg = "ID",
     .help = "sg with sg_write_mode=write_stream: the stream of WRITE STREAM(16)",
     .category = SB_OPTC_ENGINE},
    {.name = "allow_file_create", .type = SB_OPT_BOOL, J(allow_file_create), .def = "1",
     .help = "0: create no file; every file the job names must exist (as fio's)",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH},
    {.name = "allow_mounted_write", .type = SB_OPT_BOOL, J(allow_mounted_write), .def = "0",
     .help = "1: write or trim a block device even while it (or a partition of it) is mounted, as "
             "fio's; the other device rules stay (docs/safety.md)",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH},
    {.name = "clat_percentiles", .type = SB_OPT_BOOL, J(clat_percentiles), .def = "1",
     .help = "print completion latency percentiles",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH},
    {.name = "slat_percentiles", .type = SB_OPT_BOOL, J(slat_percentiles), .def = "0",
     .help = "print submission latency percentiles (asynchronous engines: synchronous ones have no "
             "submission latency, as fio's)",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH},
    {.name = "lat_percentiles", .type = SB_OPT_BOOL, J(lat_percentiles), .def = "0",
     .help = "print total latency percentiles (submission and completion)",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH},
    {.name = "zero_buffers", .type = SB_OPT_BOOL, J(zero_buffers), .def = "0",
     .help = "write zeros instead of random data",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH | SB_OPTF_SET},
    {.name = "refill_buffers", .type = SB_OPT_BOOL, J(refill_buffers), .def = "0",
     .help = "new random data in the buffer before every write",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH | SB_OPTF_SET},
    {.name = "buffer_pattern", .type = SB_OPT_FUNC, J(buffer_pat), .arg = "PATTERN",
     .help = "every write carries PATTERN (fio's: 0xHEX, decimal numbers and \"strings\" one "
             "after another, e.g. 0xff\"abcd\"-12), repeated, and nothing else (no scramble), as fio's",
     .category = SB_OPTC_JOB, .parse = sb_opt_parse_buffer_pattern},
    {.name = "scramble_buffers", .type = SB_OPT_BOOL, J(scramble_buffers), .def = "1",
     .help = "write the offset and a counter into every written block, so no two are alike, as fio's "
             "default",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH},
    {.name = "ioengine", .type = SB_OPT_STR, J(engine), .def = "psync", .arg = "NAME",
     .help = "psync | pvsync | pvsync2 | sync | vsync | posixaio | libaio | io_uring | mmap | null | "
             "splice | falloc | ftruncate | e4defrag | sg | filecreate | filestat | filedelete | dircreate | dirstat | "
             "dirdelete",
     .category = SB_OPTC_ENGINE},
    {.name = "iodepth", .type = SB_OPT_INT, J(iodepth), .min = 1, .max = SB_IO_MAX_DEPTH,
     .def = "1", .arg = "N",
     .help = "I/Os in flight; a synchronous engine does 1, with a warning",
     .category = SB_OPTC_ENGINE},
    {.name = "iodepth_batch", .aliases = a_batch, .type = SB_OPT_INT, J(batch_submit),
     .min = 1, .max = SB_IO_MAX_DEPTH, .def = "1", .arg = "N",
     .help = "asynchronous engines: I/Os per submission; 1 submits each on its own, as fio",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_DEF_DOC},
    {.name = "iodepth_batch_complete_min", .aliases = a_cmin, .type = SB_OPT_INT,
     J(batch_complete_min), .min = 1, .max = SB_IO_MAX_DEPTH, .def = "1", .arg = "N",
     .help = "when every buffer is in flight, wait for at least N completions, at most "
             "--iodepth",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_DEF_DOC},
    {.name = "iodepth_batch_complete_max", .type = SB_OPT_INT, J(batch_complete_max), .min = 1,
     .max = SB_IO_MAX_DEPTH, .def = "the min", .arg = "N",
     .help = "reap at most N completions per call, as fio",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_DEF_DOC},
    {.name = "direct", .type = SB_OPT_BOOL, J(direct), .def = "0",
     .help = "O_DIRECT; bs and offset must be multiples of the logical block size",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_SWITCH},
    {.name = "buffered", .type = SB_OPT_FUNC, J(direct), .def = "1",
     .help = "through the page cache: the opposite of --direct",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_SWITCH, .parse = sb_opt_parse_buffered},
    {.name = "registerfiles", .type = SB_OPT_BOOL, J(uring_fixed_files),
     .def = "when the kernel accepts it",
     .help = "io_uring: a registered file; =1 requires it, =0 is fio's default",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_SWITCH | SB_OPTF_DEF_DOC},
    {.name = "fixedbufs", .type = SB_OPT_BOOL, J(uring_fixed_bufs),
     .def = "when the kernel accepts them",
     .help = "io_uring: registered buffers; =1 requires them, =0 is fio's default",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_SWITCH | SB_OPTF_DEF_DOC},
    {.name = "runtime", .aliases = a_runtime, .type = SB_OPT_DURATION, J(runtime_s),
     .def = "one pass of --size", .arg = "DURATION",
     .help = "stop after this long",
     .category = SB_OPTC_TIMING, .flags = SB_OPTF_DEF_DOC},
    {.name = "time_based", .aliases = a_time_based, .type = SB_OPT_BOOL, J(time_based), .def = "0",
     .help = "repeat passes until --runtime",
     .category = SB_OPTC_TIMING, .flags = SB_OPTF_SWITCH | SB_OPTF_SET},
    {.name = "ramp_time", .aliases = a_ramp, .type = SB_OPT_DURATION, J(ramp_s), .def = "0",
     .arg = "DURATION",
     .help = "I/O before measuring starts, not counted",
     .category = SB_OPTC_TIMING},
    {.name = "startdelay", .type = SB_OPT_DURATION, J(startdelay_s), .def = "0", .arg = "DURATION",
     .help = "idle before the job starts",
     .category = SB_OPTC_TIMING},
    {.name = "thinktime", .type = SB_OPT_DURATION, J(thinktime_s), .def = "0", .arg = "DURATION",
     .help = "idle after every I/O, as fio's (a bare number is microseconds)",
     .category = SB_OPTC_TIMING, .flags = SB_OPTF_USEC},
    {.name = "rate", .type = SB_OPT_FUNC, J(rate), .def = "0", .arg = "SIZE",
     .help = "bytes per second per thread at most (0: no limit); READ,WRITE[,TRIM] each direction's "
             "own, one value every direction's, as fio's",
     .category = SB_OPTC_TIMING, .parse = sb_opt_parse_rate},
    {.name = "rate_iops", .type = SB_OPT_FUNC, J(rate_iops), .def = "0", .arg = "N",
     .help = "I/Os per second per thread at most (0: no limit); READ,WRITE as rate",
     .category = SB_OPTC_TIMING, .parse = sb_opt_parse_rate_iops},
    {.name = "rate_process", .type = SB_OPT_CHOICE, J(rate_poisson), .def = "linear",
     .arg = "MODE",
     .help = "linear: rate and rate_iops evenly spaced; poisson: exponentially distributed gaps of the "
             "same mean, as fio's",
     .category = SB_OPTC_TIMING, .choices = rate_process_choices},
    {.name = "rate_min", .aliases = a_rate_min, .type = SB_OPT_SIZE, J(rate_min), .def = "0",
     .arg = "SIZE",
     .help = "bytes per second per thread at least, judged each second after the first; a thread "
             "below it fails the job (exit 1), as fio's",
     .category = SB_OPTC_TIMING},
    /* thinktime's and rate's details, max_latency, the latency target, the queue's refill
     * (loop/pace.c, loop.c) */
    {.name = "thinktime_spin", .type = SB_OPT_DURATION, J(thinktime_spin_s), .def = "0",
     .arg = "DURATION",
     .help = "the first part of each thinktime spent spinning on the CPU, the rest asleep (a bare "
             "number is microseconds); at most thinktime",
     .category = SB_OPTC_TIMING, .flags = SB_OPTF_USEC},
    {.name = "thinktime_blocks", .type = SB_OPT_INT, J(thinktime_blocks), .min = 1, .def = "1",
     .arg = "N",
     .help = "thinktime after every N I/Os, not after each",
     .category = SB_OPTC_TIMING, .flags = SB_OPTF_DEF_DOC},
    {.name = "thinktime_blocks_type", .type = SB_OPT_CHOICE, J(thinktime_blocks_type),
     .def = "complete", .arg = "TYPE",
     .help = "complete: thinktime_blocks counts completed I/Os; issue: issued ones (they differ "
             "with iodepth above 1)",
     .category = SB_OPTC_TIMING, .choices = sb_opt_think_type_choices},
    {.name = "thinktime_iotime", .type = SB_OPT_DURATION, J(thinktime_iotime_s), .def = "0",
     .arg = "DURATION",
     .help = "thinktime after this much I/O time (a bare number is seconds); with thinktime_blocks, "
             "after whichever comes first",
     .category = SB_OPTC_TIMING},
    {.name = "rate_ignore_thinktime", .type = SB_OPT_BOOL, J(rate_ign_think), .def = "0",
     .help = "the rate's schedule moves on by each thinktime instead of catching up after it",
     .category = SB_OPTC_TIMING, .flags = SB_OPTF_SWITCH},
    {.name = "rate_cycle", .aliases = sb_opt_a_rate_cycle, .type = SB_OPT_INT, J(rate_cycle_ms),
     .min = 1, .max = UINT32_MAX, .def = "1000", .arg = "MS",
     .help = "the window, in milliseconds, rate_min and rate_iops_min are judged on",
     .category = SB_OPTC_TIMING},
    {.name = "rate_iops_min", .type = SB_OPT_INT, J(rate_iops_min), .max = UINT32_MAX, .def = "0",
     .arg = "N",
     .help = "I/Os per second per thread at least, judged as rate_min (which wins when both are "
             "given); below it the job fails (exit 1), as fio's",
     .category = SB_OPTC_TIMING},
    {.name = "max_latency", .type = SB_OPT_DURATION, J(max_latency_s), .def = "0",
     .arg = "DURATION",
     .help = "a completion slower than this fails the job with ETIMEDOUT (exit 1; a bare number is "
             "microseconds; 0: no limit)",
     .category = SB_OPTC_TIMING, .flags = SB_OPTF_USEC},
    {.name = "latency_target", .type = SB_OPT_DURATION, J(latency_target_s), .def = "0",
     .arg = "DURATION",
     .help = "search for the deepest queue, up to iodepth, whose I/Os meet this latency (a bare "
             "number is microseconds), as fio's: the job then runs one more latency_window at that "
             "depth, which is what it reports, and ends; not met at depth 1: ETIMEDOUT (exit 1)",
     .category = SB_OPTC_TIMING, .flags = SB_OPTF_USEC},
    {.name = "latency_window", .type = SB_OPT_DURATION, J(latency_window_s), .def = "0",
     .arg = "DURATION",
     .help = "latency_target: the time each depth is judged on (a bare number is microseconds)",
     .category = SB_OPTC_TIMING, .flags = SB_OPTF_USEC},
    {.name = "latency_percentile", .type = SB_OPT_FUNC, J(latency_percentile), .def = "100",
     .arg = "PCT",
     .help = "latency_target: the % of a window's I/Os that must meet it (below 100: judged at the "
             "window's end; 100: the first I/O over it makes the queue shallower)",
     .category = SB_OPTC_TIMING, .parse = sb_opt_parse_pct_float},
    {.name = "latency_run", .type = SB_OPT_BOOL, J(latency_run), .def = "0",
     .help = "latency_target: go on adjusting the depth for the whole run instead of ending",
     .category = SB_OPTC_TIMING, .flags = SB_OPTF_SWITCH},
    {.name = "iodepth_low", .type = SB_OPT_INT, J(iodepth_low), .max = SB_IO_MAX_DEPTH,
     .def = "iodepth", .arg = "N",
     .help = "a full queue is reaped down to N I/Os before it is filled again (asynchronous engines)",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_DEF_DOC},
    {.name = "serialize_overlap", .type = SB_OPT_BOOL, J(serialize_overlap), .def = "0",
     .help = "an I/O waits for the I/Os in flight whose bytes it overlaps (asynchronous engines)",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_SWITCH},
    {.name = "gtod_reduce", .type = SB_OPT_BOOL, J(gtod_reduce), .def = "0",
     .help = "record no per-I/O latency (fio's: fewer clock reads); no percentiles are printed",
     .category = SB_OPTC_TIMING, .flags = SB_OPTF_SWITCH},
    {.name = "fsync", .type = SB_OPT_INT, J(fsync_every), .max = UINT32_MAX, .def = "0",
     .arg = "N",
     .help = "fsync after every N writes (0: never)",
     .category = SB_OPTC_SYNC},
    {.name = "fdatasync", .type = SB_OPT_INT, J(fdatasync_every), .max = UINT32_MAX, .def = "0",
     .arg = "N",
     .help = "fdatasync after every N writes (0: never); not with fsync",
     .category = SB_OPTC_SYNC},
    {.name = "end_fsync", .type = SB_OPT_BOOL, J(end_fsync), .def = "0",
     .help = "fsync at the end, inside the timing",
     .category = SB_OPTC_SYNC, .flags = SB_OPTF_SWITCH},
    {.name = "fsync_on_close", .type = SB_OPT_BOOL, J(fsync_on_close), .def = "0",
     .help = "fsync when the job is done, outside the timing",
     .category = SB_OPTC_SYNC, .flags = SB_OPTF_SWITCH},
    {.name = "invalidate", .type = SB_OPT_BOOL, J(invalidate), .def = "1",
     .help = "drop the file's page cache first, and before every pass of a time-based job",
     .category = SB_OPTC_SYNC, .flags = SB_OPTF_SWITCH},
    {.name = "norandommap", .type = SB_OPT_BOOL, J(norandommap), .def = "0",
     .help = "random blocks drawn independently, not each block once per pass",
     .category = SB_OPTC_OFFSETS, .flags = SB_OPTF_SWITCH | SB_OPTF_SET},
    {.name = "randseed", .aliases = a_seed, .type = SB_OPT_INT, J(seed), .def = "24301",
     .arg = "N",
     .help = "seed of the offsets and mix decisions",
     .category = SB_OPTC_OFFSETS},
    {.name = "randrepeat", .type = SB_OPT_BOOL, J(randrepeat), .def = "1",
     .help = "the same offsets every run (the seed as given); 0: a new seed each run",
     .category = SB_OPTC_OFFSETS, .flags = SB_OPTF_SWITCH},
    {.name = "allrandrepeat", .type = SB_OPT_FUNC, J(randrepeat), .def = "0",
     .help = "1: every random generator repeats run to run, as fio's; storbench's all derive "
             "from the one seed, so this is randrepeat=1 (0 leaves randrepeat as it is)",
     .category = SB_OPTC_OFFSETS, .flags = SB_OPTF_SWITCH, .parse = sb_opt_parse_allrandrepeat},
    {.name = "random_distribution", .type = SB_OPT_FUNC, J(dist), .def = "random", .arg = "DIST",
     .help = "random (uniform) | zipf:THETA | pareto:H | normal:DEV% | zoned:PCT/SIZE%:... | "
             "zoned_abs:PCT/SIZE:... | sequence:B,B,... (these block indices in turn, see "
             "random_sequence_stride); other than random each offset is drawn on its own (no random "
             "map) and the hot blocks are spread over the file, as fio's",
     .category = SB_OPTC_OFFSETS, .flags = SB_OPTF_DEF_DOC, .parse = sb_opt_parse_distribution},
    {.name = "zonemode", .type = SB_OPT_CHOICE, J(zonemode), .def = "none", .arg = "MODE",
     .help = "strided: a sequential job does zonesize bytes, skips zoneskip bytes, and so on to the "
             "region's end; zbd: zones with write pointers, written only at them (a zoned block "
             "device's, or emulated on a file or other device), as fio's",
     .category = SB_OPTC_OFFSETS, .choices = zonemode_choices},
    {.name = "zonesize", .type = SB_OPT_SIZE, J(zonesize), .arg = "SIZE",
     .help = "zonemode=strided: the bytes done in each zone; zbd: the zone size (a zoned device's "
             "own when not given)",
     .category = SB_OPTC_OFFSETS},
    {.name = "zoneskip", .type = SB_OPT_SIZE, J(zoneskip), .def = "0", .arg = "SIZE",
     .help = "zonemode=strided: the bytes skipped after each zone",
     .category = SB_OPTC_OFFSETS},
    /* zonemode=zbd (io/zbd.h) */
    {.name = "zonecapacity", .type = SB_OPT_SIZE, J(zonecapacity), .def = "zonesize",
     .arg = "SIZE",
     .help = "zonemode=zbd, emulated zones: the writable part of each zone",
     .category = SB_OPTC_OFFSETS, .flags = SB_OPTF_DEF_DOC},
    {.name = "read_beyond_wp", .type = SB_OPT_BOOL, J(read_beyond_wp), .def = "0",
     .help = "zonemode=zbd: reads may go past a zone's write pointer (else only written data is read)",
     .category = SB_OPTC_OFFSETS, .flags = SB_OPTF_SWITCH},
    {.name = "max_open_zones", .type = SB_OPT_INT, J(max_open_zones), .max = SB_ZBD_MAX_OPEN_ZONES,
     .def = "0", .arg = "N",
     .help = "zonemode=zbd: zones written at once, for all jobs on the file (0: no limit, or a "
             "host-managed device's)",
     .category = SB_OPTC_OFFSETS},
    {.name = "job_max_open_zones", .type = SB_OPT_INT, J(job_max_open_zones),
     .max = SB_ZBD_MAX_OPEN_ZONES, .def = "0", .arg = "N",
     .help = "zonemode=zbd: zones one thread writes at once (needs max_open_zones or the device's)",
     .category = SB_OPTC_OFFSETS},
    {.name = "ignore_zone_limits", .type = SB_OPT_BOOL, J(ignore_zone_limits), .def = "0",
     .help = "zonemode=zbd: max_open_zones may exceed the device's limit",
     .category = SB_OPTC_OFFSETS, .flags = SB_OPTF_SWITCH},
    {.name = "zone_reset_threshold", .type = SB_OPT_FUNC, J(zone_reset_threshold), .def = "0",
     .arg = "FRACTION",
     .help = "zonemode=zbd: with zone_reset_frequency, resets start once this share of the region "
             "holds data",
     .category = SB_OPTC_OFFSETS, .parse = sb_opt_parse_fraction},
    {.name = "zone_reset_frequency", .type = SB_OPT_FUNC, J(zone_reset_frequency), .def = "0",
     .arg = "FRACTION",
     .help = "zonemode=zbd: past the threshold, a write's zone is reset first every 1/FRACTION writes "
             "(garbage collection)",
     .category = SB_OPTC_OFFSETS, .parse = sb_opt_parse_fraction},
    {.name = "ba", .aliases = a_blockalign, .type = SB_OPT_SIZE, J(blockalign), .max = SB_IO_MAX_BS, .def = "bs",
     .arg = "SIZE",
     .help = "random offsets are multiples of this, any size from 1 byte (fio's blockalign); as "
             "fio's, it turns the random map off (offsets drawn independently); READ,WRITE: each "
             "direction's own",
     .category = SB_OPTC_OFFSETS, .flags = SB_OPTF_DEF_DOC, .parse = sb_opt_parse_bs_dirs},
    /* random and sequential offsets mixed (loop/offsets.h's sb_seqmix) */
    {.name = "rw_sequencer", .type = SB_OPT_CHOICE, J(rw_sequencer), .def = "sequential",
     .arg = "MODE",
     .help = "with rw=randread:N, the N - 1 I/Os after each random one: sequential (the next "
             "blocks) or identical (the same block again), as fio's",
     .category = SB_OPTC_OFFSETS, .choices = sb_opt_rw_seq_choices},
    {.name = "percentage_random", .type = SB_OPT_FUNC, J(pct_random), .max = 100, .def = "100",
     .arg = "PCT",
     .help = "random jobs: % of the I/Os at a random block, the others at the block after the "
             "last (sequential), as fio's; READ,WRITE[,TRIM]: each direction's own",
     .category = SB_OPTC_OFFSETS, .parse = sb_opt_parse_pct_dirs},
    {.name = "offset_align", .type = SB_OPT_SIZE, J(offset_align), .max = SB_IO_MAX_BS, .def = "0",
     .arg = "SIZE",
     .help = "offset=N%: the offset is rounded up to a multiple of this (0: of bs), as fio's",
     .category = SB_OPTC_OFFSETS},
    {.name = "cpus_allowed", .type = SB_OPT_FUNC, J(cpus_allowed),
     .def = "every CPU the process may use", .arg = "LIST",
     .help = "run the job's threads only on these CPUs: 0-3,6, as fio and taskset -c",
     .category = SB_OPTC_CPU, .flags = SB_OPTF_DEF_DOC, .parse = sb_opt_parse_cpus},
    {.name = "cpus_allowed_policy", .type = SB_OPT_CHOICE, J(cpus_split), .def = "shared",
     .arg = "POLICY",
     .help = "shared: every thread on all of the list; split: thread i on the i-th CPU, round robin",
     .category = SB_OPTC_CPU, .choices = policy_choices},
    {.name = "nice", .type = SB_OPT_FUNC, J(nice), .def = "0", .arg = "N",
     .help = "the job's threads' nice value, -20 .. 19",
     .category = SB_OPTC_CPU, .parse = sb_opt_parse_nice},
    {.name = "prio", .type = SB_OPT_FUNC, J(prio), .def = "unset", .arg = "N",
     .help = "the threads' best-effort I/O priority, 0 (highest) .. 7",
     .category = SB_OPTC_CPU, .flags = SB_OPTF_DEF_DOC, .parse = sb_opt_parse_prio},
    {.name = "verify", .type = SB_OPT_FUNC, J(verify), .arg = "ALGO",
     .help = "crc32c | xxhash | sha256 | pattern: every block written carries a header and checksum "
             "and is checked when read back",
     .category = SB_OPTC_VERIFY, .parse = sb_opt_parse_verify},
    {.name = "do_verify", .type = SB_OPT_BOOL, J(do_verify), .def = "1",
     .help = "with --verify: read back and check every written block after the job",
     .category = SB_OPTC_VERIFY, .flags = SB_OPTF_SWITCH},
    {.name = "verify_backlog", .type = SB_OPT_INT, J(verify_backlog), .max = 1u << 20, .def = "0",
     .arg = "N",
     .help = "with --verify: also check the last N written blocks after every N writes",
     .category = SB_OPTC_VERIFY},
    {.name = "verify_offset", .type = SB_OPT_SIZE, J(verify_offset), .max = SB_IO_MAX_BS, .def = "0",
     .arg = "SIZE",
     .help = "the header is swapped with the data SIZE bytes into the block (or verify_interval's "
             "piece) before the write and back before the check, as fio's; at least the header's 96 "
             "bytes and room for it",
     .category = SB_OPTC_VERIFY},
    {.name = "trim_percentage", .type = SB_OPT_PCT, J(trim_percentage), .def = "0", .arg = "PCT",
     .help = "with verify and trim_backlog: this share of the written blocks is trimmed while the job "
             "runs, then checked as zeros (trim_verify_zero), as fio's",
     .category = SB_OPTC_VERIFY},
    {.name = "trim_backlog", .type = SB_OPT_INT, J(trim_backlog), .max = 1u << 20, .def = "0",
     .arg = "N",
     .help = "trim_percentage's trims start whenever the written blocks are a multiple of N",
     .category = SB_OPTC_VERIFY},
    {.name = "trim_backlog_batch", .type = SB_OPT_INT, J(trim_backlog_batch), .max = 1u << 20,
     .def = "trim_backlog", .arg = "N",
     .help = "how many queued blocks each of trim_backlog's turns trims, the oldest first",
     .category = SB_OPTC_VERIFY, .flags = SB_OPTF_DEF_DOC},
    {.name = "trim_verify_zero", .type = SB_OPT_BOOL, J(trim_verify_zero), .def = "1",
     .help = "a block trim_percentage trimmed must read back as zeros; 0: it is not checked, as fio's",
     .category = SB_OPTC_VERIFY, .flags = SB_OPTF_SWITCH},
    {.name = "verify_state_save", .type = SB_OPT_BOOL, J(verify_state_save), .def = "0",
     .help = "a verifying write job leaves each file's block table (the write each block last "
             "received) in local-NAME-INDEX-verify.state, in the working directory or --aux-path; "
             "storbench's own format; fio's default 1 leaves one after every such job, storbench's 0 "
             "only when asked",
     .category = SB_OPTC_VERIFY, .flags = SB_OPTF_SWITCH},
    {.name = "verify_state_load", .type = SB_OPT_BOOL, J(verify_state_load), .def = "0",
     .help = "a check (verify_only, or a read job) takes that file: exactly the blocks that run "
             "completed are checked, each against its last write, so a run cut short is checked as "
             "far as it went, as fio's",
     .category = SB_OPTC_VERIFY, .flags = SB_OPTF_SWITCH},
    {.name = "experimental_verify", .type = SB_OPT_BOOL, J(experimental_verify), .def = "0",
     .help = "fio's replay of the write phase instead of its recorded list: 0 runs; 1 is refused "
             "(storbench's block table records each block's last write, so nothing is replayed)",
     .category = SB_OPTC_VERIFY, .flags = SB_OPTF_SWITCH},
    {.name = "verify_backlog_batch", .type = SB_OPT_INT, J(verify_backlog_batch), .max = 1u << 20,
     .def = "verify_backlog", .arg = "N",
     .help = "how many written blocks a verify_backlog check reads, the oldest first: fewer leaves "
             "the rest waiting, more goes on with blocks written after, as fio's",
     .category = SB_OPTC_VERIFY, .flags = SB_OPTF_DEF_DOC},
    {.name = "verify_only", .type = SB_OPT_BOOL, J(verify_only), .def = "0",
     .help = "with --verify and --filename: write nothing, check a file an earlier run of the same job "
             "wrote",
     .category = SB_OPTC_VERIFY, .flags = SB_OPTF_SWITCH | SB_OPTF_SET},
    {.name = "log_interval", .type = SB_OPT_DURATION, J(log_interval_s), .min = 0.01, .max = 86400,
     .def = "1s", .arg = "DURATION",
     .help = "one time-series sample (IOPS, bandwidth, mean and p99 latency) per interval",
     .category = SB_OPTC_SERIES, .flags = SB_OPTF_DEF_DOC},
    {.name = "log_avg_msec", .type = SB_OPT_FUNC, J(log_avg_ms), .def = "0", .arg = "N",
     .help = "the same in milliseconds, as fio; it also averages the log files' lines over N ms "
             "(0: a line per I/O, as fio)",
     .category = SB_OPTC_SERIES, .parse = sb_opt_parse_log_avg},
    {.name = "per_job_logs", .type = SB_OPT_BOOL, J(per_job_logs), .def = "1",
     .help = "0: the job's threads write one log file of each kind (PREFIX_KIND.log, their lines "
             "together) instead of one per thread (PREFIX_KIND.N.log), as fio's",
     .category = SB_OPTC_SERIES, .flags = SB_OPTF_SWITCH},
    {.name = "write_bw_log", .type = SB_OPT_FUNC, J(bw_log), .def = "the job's name",
     .arg = "PREFIX",
     .help = "fio's bandwidth log: PREFIX_bw.N.log per thread N, lines 'msec, KiB/s, ddir, bs, prio'",
     .category = SB_OPTC_SERIES, .flags = SB_OPTF_SWITCH | SB_OPTF_DEF_DOC,
     .parse = sb_opt_parse_log_prefix},
    {.name = "write_lat_log", .type = SB_OPT_FUNC, J(lat_log), .def = "the job's name",
     .arg = "PREFIX",
     .help = "fio's latency logs: PREFIX_lat.N.log (ns from the I/O's start, fio's lat) and "
             "PREFIX_clat.N.log (from its submission, fio's clat: the same with a synchronous "
             "engine); PREFIX_slat.N.log is empty: submission latency is not logged",
     .category = SB_OPTC_SERIES, .flags = SB_OPTF_SWITCH | SB_OPTF_DEF_DOC,
     .parse = sb_opt_parse_log_prefix},
    {.name = "write_iops_log", .type = SB_OPT_FUNC, J(iops_log), .def = "the job's name",
     .arg = "PREFIX",
     .help = "fio's IOPS log: PREFIX_iops.N.log",
     .category = SB_OPTC_SERIES, .flags = SB_OPTF_SWITCH | SB_OPTF_DEF_DOC,
     .parse = sb_opt_parse_log_prefix},
    {.name = "log_offset", .type = SB_OPT_BOOL, J(log_offset), .def = "0",
     .help = "the log lines carry each I/O's offset (a column before prio), as fio",
     .category = SB_OPTC_SERIES, .flags = SB_OPTF_SWITCH},
    {.name = "write_hist_log", .type = SB_OPT_FUNC, J(hist_log), .def = "the job's name",
     .arg = "PREFIX",
     .help = "fio's latency histogram log: PREFIX_clat_hist.N.log, a line 'msec, ddir, bs, bin...' "
             "per log_hist_msec per direction, the I/Os of that window in fio's 1856 bins",
     .category = SB_OPTC_SERIES, .flags = SB_OPTF_SWITCH | SB_OPTF_DEF_DOC,
     .parse = sb_opt_parse_log_prefix},
    {.name = "log_hist_msec", .type = SB_OPT_INT, J(log_hist_ms), .max = 86400000, .def = "0",
     .arg = "N",
     .help = "the histogram log's window in ms (0: no lines, as fio)",
     .category = SB_OPTC_SERIES},
    {.name = "log_hist_coarseness", .type = SB_OPT_INT, J(log_hist_coarseness), .max = 6, .def = "0",
     .arg = "N",
     .help = "the histogram log's columns each sum 2^N of fio's bins (1856 .. 29 columns)",
     .category = SB_OPTC_SERIES},
    {.name = "log_max_value", .type = SB_OPT_BOOL, J(log_max), .def = "0",
     .help = "with log_avg_msec: a line holds the window's largest value, not its mean, as fio",
     .category = SB_OPTC_SERIES, .flags = SB_OPTF_SWITCH},
    {.name = "log_unix_epoch", .type = SB_OPT_BOOL, J(log_unix_epoch), .def = "0",
     .help = "the log lines' times are ms since the Unix epoch, not since the job began",
     .category = SB_OPTC_SERIES, .flags = SB_OPTF_SWITCH},
    {.name = "log_alternate_epoch", .type = SB_OPT_BOOL, J(log_alt_epoch), .def = "0",
     .help = "the log lines' times are ms since the epoch of log_alternate_epoch_clock_id",
     .category = SB_OPTC_SERIES, .flags = SB_OPTF_SWITCH},
    {.name = "log_alternate_epoch_clock_id", .type = SB_OPT_INT, J(log_epoch_clock_id), .max = 11,
     .def = "0", .arg = "ID",
     .help = "with log_unix_epoch or log_alternate_epoch: the clock_gettime clock (0 realtime, 1 "
             "monotonic, 7 boottime, ...) whose epoch the times count from",
     .category = SB_OPTC_SERIES},
    {.name = "log_entries", .type = SB_OPT_INT, J(log_entries), .min = 1024, .max = 1u << 30,
     .def = "1024", .arg = "N",
     .help = "a log's lines are written N at a time (fio: its first block of N entries)",
     .category = SB_OPTC_SERIES},
    {.name = "log_compression", .type = SB_OPT_SIZE, J(log_gz), .max = 512u << 20,
     .def = "0", .arg = "SIZE",
     .help = "1k .. 512m (0: off): a log is written SIZE bytes at a time; with log_store_compressed each SIZE bytes of "
             "fio's binary samples are one zlib stream of PREFIX_KIND.N.log.fz",
     .category = SB_OPTC_SERIES},
    {.name = "log_compression_cpus", .type = SB_OPT_FUNC, J(log_gz_cpus), .arg = "LIST",
     .help = "with log_compression: the CPUs a log is deflated on (0-3,6)",
     .category = SB_OPTC_SERIES, .parse = sb_opt_parse_log_cpus},
    {.name = "log_store_compressed", .type = SB_OPT_BOOL, J(log_gz_store), .def = "0",
     .help = "the logs are stored zlib-compressed as fio's .fz files ('storbench io "
             "--inflate-log=FILE' prints one)",
     .category = SB_OPTC_SERIES, .flags = SB_OPTF_SWITCH},
    {.name = "bwavgtime", .type = SB_OPT_INT, J(bw_avg_ms), .min = 1, .max = 86400000, .def = "500",
     .arg = "MS",
     .help = "the window of each bandwidth sample, as fio: the report's bw min/max/avg/stdev/samples "
             "(when log_interval divides it; else one a second) and an averaged bandwidth log's lines",
     .category = SB_OPTC_SERIES},
    {.name = "iopsavgtime", .type = SB_OPT_INT, J(iops_avg_ms), .min = 1, .max = 86400000, .def = "500",
     .arg = "MS",
     .help = "the window of each IOPS sample, as fio: the report's iops min/max/avg/stdev/samples "
             "(when log_interval divides it; else one a second) and an averaged IOPS log's lines",
     .category = SB_OPTC_SERIES},
    {.name = "write_iolog", .type = SB_OPT_STR, J(write_iolog), .arg = "FILE",
     .help = "record every I/O issued in fio's iolog (version 3, as fio 3.33 writes it; appended "
             "to FILE as fio's), for read_iolog",
     .category = SB_OPTC_JOB},
    {.name = "read_iolog", .type = SB_OPT_LIST, J(read_iolog), .arg = "FILE",
     .help = "replay an iolog (fio's versions 2 and 3) or a blktrace binary trace: its I/Os, "
             "offsets and sizes, paced by its times; the file is the log's (replay_redirect); "
             "FILE:FILE... with merge_blktrace_file",
     .category = SB_OPTC_JOB},
    {.name = "read_iolog_chunked", .type = SB_OPT_BOOL, J(read_iolog_chunked), .def = "0",
     .help = "read the log while replaying (I/O sizes up to bs); 0: the whole log is checked "
             "before any I/O (a bad line refuses the job); both read it a line at a time",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH},
    {.name = "replay_no_stall", .type = SB_OPT_BOOL, J(replay_no_stall), .def = "0",
     .help = "replay as fast as possible, not at the times of a version 3 log or blktrace",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH},
    {.name = "replay_time_scale", .type = SB_OPT_INT, J(replay_time_scale), .min = 1, .max = 1000000,
     .def = "100", .arg = "PCT",
     .help = "the log's time between I/Os as a percentage: 200 replays twice as fast, as fio",
     .category = SB_OPTC_JOB},
    {.name = "replay_redirect", .type = SB_OPT_STR, J(replay_redirect), .arg = "FILE",
     .help = "send every replayed I/O to FILE, whatever file or device the log names",
     .category = SB_OPTC_JOB},
    {.name = "replay_align", .type = SB_OPT_FUNC, J(replay_align), .def = "0", .arg = "SIZE",
     .help = "replayed offsets rounded down to a multiple of SIZE (a power of 2; a blktrace's "
             "sizes rounded up to it)",
     .category = SB_OPTC_JOB, .parse = sb_opt_parse_replay_align},
    {.name = "replay_scale", .type = SB_OPT_INT, J(replay_scale), .min = 1, .max = 1u << 30, .def = "1",
     .arg = "N", .help = "replayed offsets divided by N",
     .category = SB_OPTC_JOB},
    {.name = "replay_skip", .type = SB_OPT_FUNC, J(replay_skip), .arg = "KINDS",
     .help = "do not replay these kinds of I/O: read,write,trim,sync",
     .category = SB_OPTC_JOB, .parse = sb_opt_parse_replay_skip},
    {.name = "merge_blktrace_file", .type = SB_OPT_STR, J(merge_blktrace_file), .arg = "FILE",
     .help = "merge the blktraces of read_iolog=A:B... into FILE by their times, then replay FILE",
     .category = SB_OPTC_JOB},
    {.name = "merge_blktrace_scalars", .type = SB_OPT_FUNC, J(merge_scalars), .arg = "PCT:PCT...",
     .help = "with merge_blktrace_file: each trace's times as a percentage (50: twice as fast)",
     .category = SB_OPTC_JOB, .parse = sb_opt_parse_merge_scalars},
    {.name = "merge_blktrace_iters", .type = SB_OPT_FUNC, J(merge_iters), .arg = "N:N...",
     .help = "with merge_blktrace_file: how many times each trace is replayed, one after another",
     .category = SB_OPTC_JOB, .parse = sb_opt_parse_merge_iters},
    {.name = "steadystate", .aliases = a_ss, .type = SB_OPT_FUNC, J(steady), .arg = "CRIT",
     .help = "stop when settled: iops|iops_slope|bw|bw_slope:LIMIT[%] as fio (needs --ss_dur), or "
             "snia[:bw] for SNIA PTS rounds; makes the job time based, --runtime its limit: 1h by "
             "default, 25 rounds for snia",
     .category = SB_OPTC_SERIES, .parse = sb_opt_parse_steady},
    {.name = "steadystate_duration", .aliases = a_ss_dur, .type = SB_OPT_DURATION, J(steady.dur_s),
     .arg = "DURATION",
     .help = "the rolling window of 1 s samples fio's criteria judge, 2 s .. 1 day",
     .category = SB_OPTC_SERIES},
    {.name = "steadystate_ramp_time", .aliases = a_ss_ramp, .type = SB_OPT_DURATION, J(steady.ramp_s),
     .def = "0", .arg = "DURATION",
     .help = "measured time before samples are collected for the check",
     .category = SB_OPTC_SERIES},
    {.name = "ss_round", .type = SB_OPT_DURATION, J(steady.round_s), .min = 1, .def = "1m",
     .arg = "DURATION",
     .help = "snia: the length of a round",
     .category = SB_OPTC_SERIES, .flags = SB_OPTF_DEF_DOC},
    {.name = "io_size", .aliases = a_io_size, .type = SB_OPT_SIZE, J(io_size), .def = "size",
     .arg = "SIZE",
     .help = "bytes of I/O per thread (per loop), independent of size: less stops early, more goes "
             "round the region again, as fio's",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_DEF_DOC},
    {.name = "number_ios", .type = SB_OPT_INT, J(number_ios), .def = "0", .arg = "N",
     .help = "stop a thread after N I/Os if nothing else stopped it first (0: no limit)",
     .category = SB_OPTC_JOB},
    {.name = "offset_increment", .type = SB_OPT_SIZE, J(offset_increment), .def = "0",
     .arg = "SIZE",
     .help = "thread N of numjobs starts at offset + N * SIZE (N from 0), as fio's; P%: P % of the "
             "file's size, each thread's offset aligned up to offset_align (bs)",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_ZONES, .parse = sb_opt_parse_zoned_size},
    {.name = "flow", .type = SB_OPT_INT, J(flow), .max = 1u << 20, .def = "0", .arg = "N",
     .help = "weight in token-based flow control: the threads of the jobs with the same flow_id do "
             "I/Os in the ratio of their weights (0: no flow control)",
     .category = SB_OPTC_TIMING},
    {.name = "flow_id", .type = SB_OPT_INT, J(flow_id), .max = UINT32_MAX, .def = "0", .arg = "N",
     .help = "the flow a job's weight counts in",
     .category = SB_OPTC_TIMING},
    {.name = "flow_sleep", .type = SB_OPT_INT, J(flow_sleep_us), .max = 60000000, .def = "0",
     .arg = "USEC",
     .help = "when ahead of its weight, drain the queue and wait this many microseconds (0: retry at "
             "once)",
     .category = SB_OPTC_TIMING},
    {.name = "exitall", .type = SB_OPT_BOOL, J(exitall), .def = "0",
     .help = "when this job ends, end the jobs exit_what names",
     .category = SB_OPTC_TIMING, .flags = SB_OPTF_SWITCH | SB_OPTF_SET},
    {.name = "exit_what", .type = SB_OPT_CHOICE, J(exit_what), .def = "group", .arg = "WHAT",
     .help = "exitall ends: group (the jobs of its reporting group), stonewall (every job running) or "
             "all (every job running, and later ones end at once)",
     .category = SB_OPTC_TIMING, .choices = sb_opt_exit_what_choices},
    {.name = "exitall_on_error", .type = SB_OPT_BOOL, J(exitall_on_error), .def = "0",
     .help = "when this job fails, end every other job (later ones end at once)",
     .category = SB_OPTC_TIMING, .flags = SB_OPTF_SWITCH | SB_OPTF_SET},
    {.name = "continue_on_error", .type = SB_OPT_FUNC, J(continue_on_error), .def = "none",
     .arg = "WHAT",
     .help = "none | read | write | io | verify | all (0, 1): go on after such an error that "
             "ignore_error lists (EIO, EILSEQ by default); the errors are counted (total_err, "
             "first_error)",
     .category = SB_OPTC_JOB, .parse = sb_opt_parse_continue},
    {.name = "ignore_error", .type = SB_OPT_FUNC, J(ignore_error), .def = "EIO:EILSEQ",
     .arg = "LISTS",
     .help = "READ,WRITE,VERIFY lists of errors continue_on_error survives: ENOSPC:EIO or numbers; "
             "an empty list keeps the default",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_DEF_DOC, .parse = sb_opt_parse_ignore_error},
    {.name = "error_dump", .type = SB_OPT_BOOL, J(error_dump), .def = "1",
     .help = "print every error a job goes on after (0: only the one that stops it)",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH},
    {.name = "dedupe_percentage", .type = SB_OPT_PCT, J(dedupe_percentage), .max = 100, .def = "0",
     .arg = "PCT",
     .help = "% of written blocks that repeat an earlier block's data (deduplicable)",
     .category = SB_OPTC_JOB},
    {.name = "dedupe_mode", .type = SB_OPT_CHOICE, J(dedupe_mode), .def = "repeat", .arg = "MODE",
     .help = "repeat: a repeated block is the last new one; working_set: one of a set of "
             "dedupe_working_set_percentage of the region's blocks",
     .category = SB_OPTC_JOB, .choices = sb_opt_dedupe_mode_choices},
    {.name = "dedupe_working_set_percentage", .type = SB_OPT_PCT, J(dedupe_ws_pct), .max = 100,
     .def = "5", .arg = "PCT",
     .help = "working_set: the set's size in % of the region",
     .category = SB_OPTC_JOB},
    {.name = "dedupe_global", .type = SB_OPT_BOOL, J(dedupe_global), .def = "0",
     .help = "working_set: every job of the run draws from the same set, so blocks repeat across jobs",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH},
    {.name = "buffer_compress_percentage", .type = SB_OPT_PCT, J(compress_pct), .max = 100,
     .def = "0", .arg = "PCT",
     .help = "written data that compresses by about PCT %: each chunk random for the rest, then zeros",
     .category = SB_OPTC_JOB},
    {.name = "buffer_compress_chunk", .type = SB_OPT_SIZE, J(compress_chunk), .min = 1,
     .max = SB_IO_MAX_BS, .def = "512", .arg = "SIZE",
     .help = "the chunk buffer_compress_percentage applies to",
     .category = SB_OPTC_JOB},
    {.name = "random_sequence_stride", .type = SB_OPT_BOOL, J(dist.seq_stride), .def = "0",
     .help = "random_distribution=sequence: 0 repeats the blocks as given; 1 moves them on by the "
             "sequence's length each cycle (a strided block group), as fio's",
     .category = SB_OPTC_OFFSETS, .flags = SB_OPTF_SWITCH},
    {.name = "verify_interval", .type = SB_OPT_SIZE, J(verify_interval), .max = SB_IO_MAX_BS,
     .def = "bs", .arg = "SIZE",
     .help = "with verify: a header (and checksum) every SIZE bytes of a block instead of one per "
             "block; divides bs, a multiple of 64, at least 128",
     .category = SB_OPTC_VERIFY, .flags = SB_OPTF_DEF_DOC},
    {.name = "verify_pattern", .type = SB_OPT_FUNC, J(verify_pat), .arg = "PATTERN",
     .help = "the verified blocks' data, over and over under each header: fio's 0xHEX, decimal "
             "numbers, \"strings\" and %o (the block's offset, 8 bytes) one after another, e.g. "
             "0xff%o\"abcd\"-12; without verify it sets verify=pattern, as fio's",
     .category = SB_OPTC_VERIFY, .parse = sb_opt_parse_verify_pattern},
    {.name = "verify_dump", .type = SB_OPT_BOOL, J(verify_dump), .def = "0",
     .help = "on a mismatch, write the block as read and as expected to FILE.OFFSET.received and "
             ".expected in the working directory, as fio's",
     .category = SB_OPTC_VERIFY, .flags = SB_OPTF_SWITCH},
    {.name = "verify_fatal", .type = SB_OPT_BOOL, J(verify_fatal), .def = "0",
     .help = "with continue_on_error=verify: 1 ends the job at the first mismatch, 0 goes on checking "
             "(each mismatch counted in total_err); without it a mismatch always fails the job, as fio's",
     .category = SB_OPTC_VERIFY, .flags = SB_OPTF_SWITCH},
    {.name = "verify_async", .type = SB_OPT_INT, J(verify_async), .max = 1024, .def = "0",
     .arg = "N",
     .help = "fio's verify threads: storbench checks in the I/O threads, so any N runs alike",
     .category = SB_OPTC_VERIFY},
    {.name = "fill_device", .aliases = a_fill_device, .type = SB_OPT_BOOL, J(fill_device),
     .def = "0",
     .help = "a sequential write job's region is the room left on the file system (the file's own "
             "size included); it writes until that is full and the ENOSPC that ends it is no error",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH},
    {.name = "create_serialize", .type = SB_OPT_BOOL, J(create_serialize), .def = "1",
     .help = "fio's: lay out the files one after another. storbench always does (each job lays out "
             "its files before its threads start), so 0 and 1 run alike",
     .category = SB_OPTC_JOB, .flags = SB_OPTF_SWITCH},
    {.name = "fallocate", .type = SB_OPT_CHOICE, J(fallocate), .def = "native", .arg = "MODE",
     .help = "how a write job's new file gets its size: native or posix (allocated; sparse where the "
             "file system cannot), keep (allocated with FALLOC_FL_KEEP_SIZE, then sized) or none "
             "(sparse), as fio's",
     .category = SB_OPTC_JOB, .choices = sb_opt_fallocate_choices},
    {.name = "io_submit_mode", .type = SB_OPT_CHOICE, J(submit_offload), .def = "inline",
     .arg = "MODE",
     .help = "inline: the job's thread submits and reaps (ahead of rate_iops/rate it waits for what is "
             "in flight, as fio's); offload: it paces and hands each I/O to one of iodepth submit "
             "threads with engines of their own, so submission keeps the rate whatever the "
             "completions, as fio's offload",
     .category = SB_OPTC_ENGINE, .choices = sb_opt_submit_mode_choices},
    {.name = "random_generator", .type = SB_OPT_CHOICE, J(random_generator), .def = "tausworthe",
     .arg = "GEN",
     .help = "tausworthe | tausworthe64: storbench's generator (a seeded permutation with the random "
             "map); lfsr: a maximal-length LFSR, every block once per pass even with norandommap, as "
             "fio's",
     .category = SB_OPTC_OFFSETS, .choices = sb_opt_rng_choices},
    {.name = "numa_cpu_nodes", .type = SB_OPT_FUNC, J(numa_cpu_nodes), .def = "unset",
     .arg = "NODES",
     .help = "run the job's threads on the CPUs of these NUMA nodes (0-1,3; from "
             "/sys/devices/system/node/nodeN/cpulist); a node this machine lacks is refused",
     .category = SB_OPTC_CPU, .flags = SB_OPTF_DEF_DOC, .parse = sb_opt_parse_numa_cpus},
    {.name = "numa_mem_policy", .type = SB_OPT_FUNC, J(numa_mem_mode), .def = "unset",
     .arg = "POLICY",
     .help = "the threads' memory policy (set_mempolicy): default | prefer:N | bind:NODES | "
             "interleave:NODES | local, as fio's",
     .category = SB_OPTC_CPU, .flags = SB_OPTF_DEF_DOC, .parse = sb_opt_parse_numa_mem},
    {.name = "sprandom", .type = SB_OPT_BOOL, J(sprandom), .def = "0",
     .help = "fio 3.41's SPRandom SSD preconditioning: a randwrite job writes the physical capacity "
             "(size x (1 + spr_op)) once, in spr_num_regions regions whose invalid blocks follow the "
             "steady-state distribution; sets random_generator=lfsr and norandommap",
     .category = SB_OPTC_OFFSETS, .flags = SB_OPTF_SWITCH},
    {.name = "spr_op", .type = SB_OPT_FUNC, J(spr_op), .def = "0.15", .arg = "RATIO",
     .help = "sprandom: the over-provisioning ratio, 0 .. 1 exclusive",
     .category = SB_OPTC_OFFSETS, .parse = sb_opt_parse_spr_op},
    {.name = "spr_num_regions", .type = SB_OPT_INT, J(spr_num_regions), .min = 1, .max = 1000000,
     .def = "100", .arg = "N",
     .help = "sprandom: the number of regions",
     .category = SB_OPTC_OFFSETS},
    {.name = "steadystate_check_interval", .aliases = sb_opt_a_ss_interval,
     .type = SB_OPT_DURATION, J(steady.interval_s), .def = "1s", .arg = "DURATION",
     .help = "the length of one steady-state sample: ss_dur / this many "
             "samples make the window, as fio's ss_interval",
     .category = SB_OPTC_SERIES, .flags = SB_OPTF_POSITIVE},
    {.name = "prioclass", .type = SB_OPT_FUNC, J(prioclass), .def = "unset", .arg = "N",
     .help = "the threads' I/O priority class: 1 realtime, 2 best effort, 3 idle (with prio its "
             "level); also the priority of the I/Os cmdprio does not pick",
     .category = SB_OPTC_CPU, .flags = SB_OPTF_DEF_DOC, .parse = sb_opt_parse_prioclass},
    {.name = "cmdprio_percentage", .type = SB_OPT_FUNC, J(cmdprio.pct), .def = "0",
     .arg = "PCT[,PCT]",
     .help = "libaio, io_uring: this % of the I/Os (reads,writes) carry the priority cmdprio_class/"
             "cmdprio; the latency of each priority is reported apart, as fio's",
     .category = SB_OPTC_ENGINE, .parse = sb_opt_parse_cmdprio},
    {.name = "cmdprio_class", .type = SB_OPT_FUNC, J(cmdprio.cls), .def = "1", .arg = "N[,N]",
     .help = "the class of the I/Os cmdprio picks: 1 realtime, 2 best effort, 3 idle",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_DEF_DOC, .parse = sb_opt_parse_cmdprio},
    {.name = "cmdprio", .type = SB_OPT_FUNC, J(cmdprio.level), .def = "0", .arg = "N[,N]",
     .help = "the level of the I/Os cmdprio picks, 0 (highest) .. 7",
     .category = SB_OPTC_ENGINE, .flags = SB_OPTF_DEF_DOC, .parse = sb_opt_parse_cmdprio},
    {.name = "cmdprio_bssplit", .type = SB_OPT_FUNC, J(cmdprio.n), .arg = "SPLIT[,SPLIT]",
     .help = "libaio, io_uring: per block size, the share of its I/Os with a priority: "
             "BS/PCT[/CLASS/LEVEL[/HINT]]:..., for reads[,writes]; not with cmdprio_percentage",
     .category = SB_OPTC_ENGINE, .parse = sb_opt_parse_cmdprio},
    {.name = "log_prio", .type = SB_OPT_BOOL, J(log_prio), .def = "0",
     .help = "the log files' prio column is each I/O's priority value (0x2000: class 1 level 0), as "
             "fio's; else 1 for an I/O cmdprio picked",
     .category = SB_OPTC_SERIES, .flags = SB_OPTF_SWITCH},
};
const size_t sb_io_n_options = sizeof sb_io_options / sizeof sb_io_options[0];
