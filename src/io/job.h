/*
 * job — the I/O engine's job model: what one fio-class job does (rw mode,
 * block size, size, queue depth, threads, timing, direct or buffered, fsync
 * policy, random map, seed) and what it measured. sb_io_run() runs a job: it
 * prepares the files (prepare.c), starts numjobs worker threads (worker.c, loop.c), each driving
 * one engine (engine.h) through one loop, and merges their statistics.
 *
 * Offsets: sequential jobs walk [offset, offset+size) in bs steps; random jobs
 * visit uniformly chosen bs-aligned blocks, each block exactly once per pass
 * (a seeded permutation, offsets.h) unless norandommap, in which case each
 * block is drawn independently. A pass is size bytes; a time_based job starts
 * a new pass (a new permutation) until runtime ends.
 *
 * Queueing (asynchronous engines), as fio's defaults: every I/O is submitted
 * on its own as soon as a buffer is free (iodepth_batch_submit=1), and
 * completions are reaped only when all iodepth buffers are in flight, one at
 * a time (iodepth_batch_complete_min=1, _max defaults to _min): one out, one
 * in. batch_submit > 1 submits several per syscall instead, which
 * is cheaper per I/O but holds the first I/Os of a batch back until the last
 * is queued (a device sees bursts: 0.77x fio's IOPS on a disk with
 * whole-queue batches).
 */
#ifndef SB_IO_JOB_H
#define SB_IO_JOB_H

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/devguard.h"
#include "core/histogram.h"
#include "io/loop/cmdprio.h"
#include "io/loop/distribution.h"
#include "io/verify/verify.h"
#include "core/timeseries.h"
#include "io/log/steadystate.h"

typedef enum sb_rw {
    SB_RW_READ = 0,
    SB_RW_WRITE,
    SB_RW_RANDREAD,
    SB_RW_RANDWRITE,
    SB_RW_RW,     /* sequential mixed, rwmixread % reads */
    SB_RW_RANDRW, /* random mixed */
    SB_RW_TRIM,      /* fio's trim: sequential discards (trim.c) */
    SB_RW_RANDTRIM,  /* random discards */
    SB_RW_TRIMWRITE, /* sequential: each block trimmed, then written */
} sb_rw;

enum { SB_DDIR_READ = 0, SB_DDIR_WRITE = 1, SB_DDIR_TRIM = 2, SB_DDIR_N = 3 };

/* fio's zonemode values (sb_io_job.zonemode). */
enum { SB_ZONEMODE_NONE = 0, SB_ZONEMODE_STRIDED = 1, SB_ZONEMODE_ZBD = 2 };
#define SB_ZBD_MAX_OPEN_ZONES 4096u /* fio's limit of tracked open zones */

#define SB_IO_MIN_BS 512ull
#define SB_IO_MAX_BS (64ull << 20)
/* one block size (no range or split): up to the most one read or write moves (Linux's
 * MAX_RW_COUNT, 2 GiB - 4 KiB); fio sets no bound, its buffers bound it (run/iomem.c) */
#define SB_IO_MAX_BS_ONE 0x7ffff000ull
#define SB_IO_PAT_MAX_O SB_VERIFY_PAT_MAX_O /* verify_pattern's %o, at most (fio's) */
#define SB_IO_MAX_DEPTH 65536u        /* fio has no bound; the engines and memory set theirs */
#define SB_IO_MAX_OFFLOAD_DEPTH 1024u /* io_submit_mode=offload: one thread per I/O in flight */
#define SB_IO_MAX_JOBS 4096u          /* fio's REAL_MAX_JOBS: threads of a run */
#define SB_IO_MAX_VERIFY_JOBS 65536u  /* verify's block identity keeps a thread in 16 bits, as fio's header */

/* fio's bssplit=4k/50:64k/50: block sizes and their % of the I/Os. */
#define SB_IO_MAX_SPLIT 16
typedef struct sb_io_bssplit {
    unsigned n;
    uint64_t bs[SB_IO_MAX_SPLIT];
    unsigned pct[SB_IO_MAX_SPLIT];
} sb_io_bssplit;

#define SB_IO_MAX_PERCENTILES 20
#define SB_IO_MAX_MERGE 8 /* merge_blktrace_file: traces merged at once */

/* fio's random_generator (options_fiob_rows.h's choices) and numa_mem_policy values. */
enum { SB_RNG_TAUSWORTHE = 0, SB_RNG_LFSR, SB_RNG_TAUSWORTHE64 };
enum { SB_NUMA_MEM_NONE = 0, SB_NUMA_MEM_DEFAULT, SB_NUMA_MEM_PREFER, SB_NUMA_MEM_BIND,
       SB_NUMA_MEM_INTERLEAVE, SB_NUMA_MEM_LOCAL };

typedef struct sb_io_job {
    char name[64];             /* fio's job name (a job file's section); "" = none */
    sb_rw rw;
    unsigned rwmixread;        /* % of reads for rw/randrw (0..100) */
    uint64_t bs;               /* 1 B .. SB_IO_MAX_BS_ONE (64 MiB in a range or split); with
                                * bs_max or bssplit: the smallest */
    uint64_t bs_max;           /* fio's bsrange (bs=4k-64k): sizes bs .. bs_max, multiples of
                                * bs; 0 or not more than bs = one size. Right after bs: the range
                                * type writes both (options.h) */
    sb_io_bssplit bssplit;     /* fio's bssplit; n = 0: none */
    sb_io_bssplit bssplit_w;   /* fio's bssplit=READS,WRITES: the writes' split (right after
                                * bssplit: the split type writes both); n = 0: as the reads' */
    /* fio's bsrange given after bssplit (the later of the two decides, as fio's callbacks
     * fill the same per-direction min and max): the split's sizes are then aligned down
     * to the range's low end and capped at its high end, each direction's own (fio's
     * get_next_buflen); sb_io_job_resolve maps the splits so and clears it. A bssplit
     * given after a bsrange (or bs=READ,WRITE) takes its min and max from its own sizes. */
    bool bsrange_clamps;
    /* fio's bs=READ,WRITE (and bsrange's): the writes' size or range when the job writes
     * and they differ from the reads' (bs, bs_max); 0 = as the reads'. bs_max_w follows
     * bs_w (one range entry writes both). bs_is_seq_rand: the READ value is for sequential
     * I/Os, the WRITE value for random ones (sb_io_job_resolve picks). bs_unaligned: a
     * range's sizes are any byte count, not multiples of its low end. */
    uint64_t bs_w, bs_max_w;
    bool bs_trim_own;          /* bs=R,W,T gave the trims a size other than the reads': refused
                                * for a job that trims (storbench's trims take the reads') */
    bool bs_is_seq_rand, bs_unaligned;
    uint64_t size;             /* bytes per pass, per file */
    bool size_given;           /* size= was given (fill_device keeps it as its cap, as fio's) */
    bool fill_sized;           /* fill_device under a size= smaller than the room: the job is
                                * that size's, its passes as any job's (jobctl.c) */
    uint64_t filesize;         /* fio's filesize: the file's size; 0 = offset + size */
    unsigned nrfiles;          /* fio's nrfiles: files per thread in directory (0 = 1; files.c) */
    uint64_t offset;           /* start of the region in the file */
    unsigned iodepth;          /* 1..1024 */
    /* Batching of asynchronous engines, fio's iodepth_batch_submit /
     * iodepth_batch_complete_min / _max; 0 = fio's defaults: submit every I/O as
     * it is queued (1), reap when the queue is full, at least 1, at most
     * batch_complete_min. Values above iodepth act as iodepth. */
    unsigned batch_submit;
    unsigned batch_complete_min;
    unsigned batch_complete_max;
    unsigned numjobs;          /* threads */
    double runtime_s;          /* 0 = until size is done (one pass) */
    bool time_based;           /* repeat passes until runtime_s */
    double ramp_s;             /* I/O before the measurement starts, not counted */
    double startdelay_s;       /* idle before the job starts */
    bool direct;               /* O_DIRECT */
    unsigned fsync_every;      /* fsync after every N writes; 0 = never */
    bool end_fsync;            /* fsync when the job's writes are done, inside the timing */
    unsigned fdatasync_every;  /* fdatasync after every N writes (fio's fdatasync); 0 = never */
    bool fsync_on_close;       /* fsync after the job, outside the timing (fio: on close) */
    bool unlink;               /* fio's unlink: remove the file after the job if this run made it */
    /* Device and file safety (core/devguard.h, docs/safety.md): fio's allow_mounted_write
     * (a mounted device may be written), allow_file_create (0: every file must exist), the
     * command's --readonly (nothing is created, written or trimmed) and what the user gave
     * up with --destroy-data-on (a device with data on it, an existing file to trim). */
    bool allow_mounted_write, allow_file_create, readonly;
    sb_devguard_consent consent;
    unsigned kb_base;          /* how sizes are read (options.h): 0 storbench's, 1024 or 1000 fio's */
    unsigned loops;            /* passes of a job that is not time based (fio's loops); 0 = 1 */
    bool randrepeat;           /* the seed as given (fio's default); 0: a new seed each run */
    bool group_reporting;      /* numjobs threads reported together; else each on its own */
    /* fio's reporting options (io/report/aggregate.c sums, formats/fio_*.c lay out) */
    int unified_rw;            /* unified_rw_reporting: 0 none, 1 mixed (one direction of
                                * all I/Os), 2 both (the directions and the mixed one) */
    bool stats;                /* 0: the job is left out of the report, as fio's stats=0 */
    unsigned sig_figs;         /* significant_figures: digits of normal output's IOPS, BW, io */
    unsigned unit_base;        /* 0 auto (bytes), 8 bytes, 1 bits: normal output's bandwidth */
    bool disk_util;            /* the disks under the job's files are reported */
    bool disable_lat, disable_clat, disable_slat; /* those latencies are neither kept nor shown */
    bool disable_bw;           /* disable_bw_measurement: no bandwidth or IOPS samples */
    int gtod_cpu;              /* fio's gtod_cpu: the time thread's CPU (-1: none; io/run/jobclock.h) */
    bool block_error_pct;      /* block_error_percentiles: refused when set (job/check.c) */
    double thinktime_s;        /* idle after every I/O (fio's thinktime, bare number: us) */
    uint64_t rate;             /* bytes/s per thread at most (fio's rate); 0 = no limit */
    uint64_t rate_iops;        /* I/Os per second per thread at most; 0 = no limit */
    bool rate_poisson;         /* fio's rate_process=poisson: exponential gaps of the mean rate */
    uint64_t rate_min;         /* fio's rate_min: bytes/s per thread at least, judged per
                                * second after the first; below it the job fails. 0 = none */
    /* fio's thinktime and rate details (loop/pace.c): thinktime_spin, the part of a think
     * spent spinning on the CPU; thinktime_blocks, I/Os between thinks (0: not given, 1);
     * thinktime_blocks_type, which I/Os count (SB_THINK_COMPLETE, _ISSUE); thinktime_iotime,
     * I/O time between thinks (0: none); rate_ign_think (rate_ignore_thinktime): the
     * rate's schedule moves on by the think instead of catching up after it; rate_cycle_ms,
     * the window rate_min and rate_iops_min are judged on; rate_iops_min: I/Os per second
     * per thread at least (0: none). */
    double thinktime_spin_s;
    unsigned thinktime_blocks;
    int thinktime_blocks_type;
    double thinktime_iotime_s;
    bool rate_ign_think;
    unsigned rate_cycle_ms;
    uint64_t rate_iops_min;
    /* fio's max_latency (a completion slower than it fails the job with ETIMEDOUT; 0:
     * none) and latency target (loop/pace.c): latency_target, the latency latency_percentile
     * % of the I/Os of each latency_window must meet, the queue depth searched for the
     * deepest that does; latency_run: the search goes on for the whole run. 0: none. */
    double max_latency_s;
    double latency_target_s, latency_window_s, latency_percentile;
    bool latency_run;
    /* fio's iodepth_low (0: iodepth): a full queue drains to it before it is filled again;
     * serialize_overlap: an I/O waits for the I/Os in flight it overlaps */
    unsigned iodepth_low;
    bool serialize_overlap;
    int64_t rw_skip;           /* fio's rw=read:SKIP: bytes skipped after each sequential I/O
                                * (negative: backwards); a multiple of bs */
    uint64_t blockalign;       /* fio's blockalign: random offsets' unit; 0 = bs */
    uint64_t blockalign_w;     /* ba=READ,WRITE: the writes' unit; 0 = as the reads' */
    /* fio's rw=randread:N (rw_seq_nr: a new random block every N I/Os; 0 or 1 = each),
     * rw_sequencer (the I/Os between: 0 sequential, 1 identical) and percentage_random
     * (% of those random picks that are random, the rest sequential; 100 = all; each
     * direction's own, as fio's); loop/offsets.h's sb_seqmix */
    unsigned rw_seq_nr;
    int rw_sequencer;
    unsigned pct_random[SB_DDIR_N];
    int zonemode;              /* fio's zonemode: SB_ZONEMODE_* below */
    uint64_t zonesize, zoneskip;
    /* fio's zonemode=zbd (io/zbd.h): zone capacity (0 = the zone size), reads past the
     * write pointer, the open-zone limits (0 = none; ignore_zone_limits: over a device's
     * own), garbage-collection resets (threshold and frequency, 0 .. 1). size=Nz and
     * offset=Nz, offset_increment=Nz count zones (size_zones, offset_zones, offinc_zones;
     * sb_io_job_resolve makes them bytes);
     * zbd_rounded: resolve rounded offset and size to whole zones (given: what they were). */
    uint64_t zonecapacity;
    bool read_beyond_wp, ignore_zone_limits, zbd_rounded;
    unsigned max_open_zones, job_max_open_zones;
    double zone_reset_threshold, zone_reset_frequency;
    unsigned size_zones, offset_zones, offinc_zones;
    /* fio's size=N%: N percent of the file's or device's size (sb_io_files_size_pct makes it
     * bytes once the file is named); 0 = size is in bytes */
    unsigned size_pct;
    /* fio's offset=N%: N + 1 (0 = offset is in bytes), made bytes with size_pct's; the
     * offset is then aligned up to offset_align (0: bs), as fio's */
    unsigned offset_pct;
    /* fio's offset_increment=N%: N + 1 (0 = in bytes): thread i starts i * N % of the file
     * further (made bytes with size_pct's), its offset aligned up as offset=N%'s (offinc_align) */
    unsigned offinc_pct;
    uint64_t offinc_align;
    uint64_t offset_align;
    uint64_t zbd_given_offset, zbd_given_size;
    sb_io_dist dist;           /* fio's random_distribution (distribution.h) */
    bool gtod_reduce;          /* fio's gtod_reduce: no per-I/O latency is recorded */
    /* fio's write_bw_log / write_lat_log / write_iops_log: the prefix of the log files
     * (iolog.h), "" = none; log_offset adds each I/O's offset; log_avg_ms (fio's
     * log_avg_msec, 0 = one line per I/O) averages the lines over that many ms. */
    char bw_log[128], lat_log[128], iops_log[128];
    bool log_offset;
    unsigned log_avg_ms;
    /* fio's other log options (iolog.h, histlog.h, logfile.h): write_hist_log's prefix ("" =
     * none), a line per log_hist_ms (0: none, as fio) of fio's latency bins summed
     * 2^log_hist_coarseness at a time; log_max: an averaged line holds the window's largest
     * value; log_epoch_clock: -1, or the clock whose epoch the lines' times count from
     * (log_unix_epoch: CLOCK_REALTIME; log_alternate_epoch: log_alternate_epoch_clock_id);
     * log_entries: lines held before a write; log_gz: bytes held (and with log_gz_store,
     * deflated as one zlib stream into PREFIX_KIND.N.log.fz) before a write, 0 = 64 KiB;
     * log_gz_cpus: the CPUs a log is deflated on (0 = any); bw_avg_ms, iops_avg_ms: fio's
     * bwavgtime, iopsavgtime, the window of each bandwidth and IOPS sample. */
    char hist_log[128];
    unsigned log_hist_ms, log_hist_coarseness;
    bool log_max, log_unix_epoch, log_alt_epoch, log_gz_store;
    int log_epoch_clock_id;
    unsigned log_entries;
    uint64_t log_gz;
    bool log_gz_cpus_set;
    cpu_set_t log_gz_cpus;
    unsigned bw_avg_ms, iops_avg_ms;
    /* fio's I/O logs (io/log/iolog_write.h, iolog_replay.h; io/loop/replay.c): write_iolog
     * records every I/O issued; read_iolog replays a log or blktrace (a LIST: several traces
     * with merge_blktrace_file, merged into it first), read_iolog_chunked reads it while
     * replaying instead of checking it whole first; replay_no_stall: no pacing by the log's
     * times, replay_time_scale: their percentage (100: as logged); replay_redirect: every
     * I/O to this file; replay_align: offsets down to it (power of 2, 0 none);
     * replay_scale: offsets divided by it; replay_skip: SB_RP_* bits of kinds not replayed;
     * merge_blktrace_scalars / _iters: each trace's time percentage and repetitions. */
    char write_iolog[256], read_iolog[512], replay_redirect[256];
    bool read_iolog_chunked, replay_no_stall;
    unsigned replay_time_scale, replay_align, replay_scale, replay_skip;
    char merge_blktrace_file[256];
    double merge_scalars[SB_IO_MAX_MERGE];
    unsigned merge_iters[SB_IO_MAX_MERGE], n_merge_scalars, n_merge_iters;
    uint64_t replay_bytes;     /* set by replay.c on the run's copy: a thread's bytes to replay
                                * (the progress line's whole), 0 = not known (chunked) */
    int nice;                  /* the threads' nice value (fio's nice) */
    int prio;                  /* best-effort I/O priority 0..7 (fio's prio); -1 = unset */
    bool thread;               /* fio's thread: storbench's jobs are always threads */
    int profile_threads;       /* fio's tiobench profile's threads= in a job: recorded, inert */
    bool zero_buffers;         /* write zeros, not random data */
    bool refill_buffers;       /* new random data before every write */
    bool scramble_buffers;     /* fio's default: the offset into every written block */
    bool clat_percentiles;     /* print the completion latency percentiles (default) */
    unsigned n_percentiles;    /* fio's percentile_list; 0 = storbench's list */
    double percentiles[SB_IO_MAX_PERCENTILES];
    bool invalidate;           /* drop the file's page cache before the run */
    bool norandommap;          /* random blocks drawn independently */
    uint64_t seed;
    char engine[32];           /* "psync", "sync", "posixaio", "libaio", "io_uring", "mmap" */
    /* io_uring: registered file / registered buffers. -1 (the default): used when the
     * kernel accepts them (registration can fail: memlock limit, buffers over 1 GiB),
     * else not; 1: required (a refusal is an error); 0: off, as fio's default. */
    int uring_fixed_files;
    int uring_fixed_bufs;
    /* fio's engine options of a submission ring (io_uring) or of preadv2 (pvsync2):
     * sqthread_poll (a kernel thread polls the ring; io_uring only), nowait (RWF_NOWAIT: an
     * I/O that would block fails with EAGAIN), hipri (polled completion: IORING_SETUP_IOPOLL,
     * RWF_HIPRI; direct I/O on a device that polls) */
    bool uring_sqpoll, io_nowait, io_hipri;
    /* fio's other engine options (fio --enghelp=ENGINE), each read by its engine through
     * sb_engine_td's job and refused with another engine (job/engine_opts.c): */
    int uring_sqpoll_cpu;      /* sqthread_poll_cpu: the polling thread's CPU (IORING_SETUP_SQ_AFF); -1 unset */
    int uring_nonvectored;     /* nonvectored: 0 READV/WRITEV of an iovec; 1 or -1 (fio's default on a
                                * kernel with them) READ/WRITE of the buffer */
    unsigned uring_force_async; /* force_async=N: IOSQE_ASYNC on every Nth I/O (io-wq); 0 off */
    int uring_cmd_type;        /* cmd_type (io_uring_cmd's, NVMe passthrough): set only to be refused */
    bool io_uncached;          /* uncached: RWF_DONTCACHE on buffered I/O (io_uring, pvsync2) */
    int laio_userspace_reap;   /* userspace_reap: 1 reap from the mapped AIO ring, 0 io_getevents
                                * for every reap (fio's default); -1 storbench's: the ring */
    bool mmap_thp;             /* thp: madvise(MADV_HUGEPAGE) on the mapping */
    unsigned hipri_pct;        /* hipri_percentage: RWF_HIPRI on this % of pvsync2's I/Os (hipri) */
    int stat_type;             /* filestat, dirstat: SB_STAT_STAT, _LSTAT, _STATX */
    char donorname[256];       /* e4defrag: the donor file of EXT4_IOC_MOVE_EXT (created, removed) */
    bool e4_inplace;           /* e4defrag: allocate and free the donor's blocks in each I/O */
    bool sg_readfua, sg_writefua; /* sg: FUA on every READ / WRITE command */
    int sg_write_mode;         /* sg: the SCSI command of a write, SB_SG_* */
    unsigned sg_stream_id;     /* sg: the stream of WRITE STREAM(16) */
    int iomem;                 /* fio's mem/iomem: how the I/O buffers are made, SB_IOMEM_* */
    unsigned mem_align;        /* fio's iomem_align: the buffers start this far past a page */
    int fadvise_hint;          /* fio's fadvise_hint: SB_FADVISE_* (default: the job's pattern) */
    bool overwrite;            /* fio's overwrite: a write job's missing bytes are written first */
    bool unique_filename;      /* fio's unique_filename: a client's prefix, only in client/server */
    int clocksource;           /* fio's clocksource: 0 clock_gettime, 1 gettimeofday, 2 cpu (core/clock.h) */
    int open_sync;             /* fio's sync: 0 none, 1 O_SYNC, 2 O_DSYNC on the files */
    bool per_job_logs;         /* fio's per_job_logs: 0 = one log file for the job's threads */
    uint8_t buffer_pat[512];   /* fio's buffer_pattern: every write carries it, repeated */
    unsigned buffer_pat_len;
    /* CPU placement, fio's cpus_allowed / cpus_allowed_policy. Unset (the default, as
     * fio): threads run wherever the scheduler puts them among the CPUs the process
     * may use. Set: every thread on all of cpus_allowed (shared), or thread i on the
     * i-th CPU of the set, round robin (cpus_split). */
    bool cpus_allowed_set;
    bool cpus_split;
    cpu_set_t cpus_allowed;
    int cpus_missing;          /* 1 + the first CPU of cpus_allowed not here: the run fails */
    /* a value fio's --parse-only takes (it reads such values only when the job starts) and
     * its run refuses: wait_for naming no job, numa_mem_policy=1, replay_skip=1. The
     * run fails with this line (exit 1), as fio's; --parse-only takes it, as fio's. */
    char run_fail[128];
    /* Exactly one of these: one shared file, or one file per job in a directory. */
    char filename[PATH_MAX];
    unsigned filename_nr;      /* fio's nr_files when an nrfiles after the files made it fewer than
                                * them: the first that many are the job's (job.c); 0 = all */
    char directory[PATH_MAX];
    bool keep_files;           /* files created in directory are removed unless set (needs dir_private) */
    bool dir_private;          /* directory is the caller's own (mkdtemp): the files go straight in;
                                * else they go in a private directory made inside it (prepare.c) */
    bool verify_pattern;       /* writes carry a per-block pattern (tests check it) */
    /* Verified I/O (verify.h), fio's option names. */
    sb_verify_algo verify;     /* NONE = off */
    bool do_verify;            /* read back and check after the job (default on) */
    unsigned verify_backlog;   /* check every N written blocks while running; 0 = never */
    unsigned verify_backlog_batch; /* fio's: how many a backlog check reads; 0 = verify_backlog */
    uint64_t verify_offset;    /* fio's: the header swapped with the data this far into a block */
    unsigned trim_percentage;  /* fio's: the share of written blocks trimmed while running (verify.h) */
    unsigned trim_backlog;     /* fio's: trim every N written blocks */
    unsigned trim_backlog_batch; /* fio's: how many queued blocks each trim_backlog trims; 0 = N */
    bool trim_verify_zero;     /* fio's: a trimmed block must read back as zeros (else not checked) */
    bool verify_state_save;    /* fio's: a verifying write job leaves its block tables in state files */
    bool experimental_verify;  /* fio's replayed verify: only 0 runs (check.c refuses 1) */
    bool verify_state_load;    /* fio's: a check run takes them: exactly the blocks written are checked */
    bool verify_only;          /* write nothing: check a file an earlier run wrote */
    /* Time series: one sample of IOPS, bandwidth, mean and p99 latency per interval of
     * the measurement (fio's log_avg_msec); 0 = 1 s. At least SB_TS_MIN_INTERVAL_MS. */
    double log_interval_s;
    /* Stop when the job has settled (steadystate.h); mode SB_SS_OFF = never. Checked
     * from the controlling thread on the interval samples. */
    sb_ss_spec steady;

    /* fio's job control (issue 27; jobctl.c, flow.c, buffers.c): how much I/O, where each
     * thread starts, the pace per direction, token flow between jobs, which jobs end
     * together, which errors a job survives, and the data its writes carry. */
    uint64_t io_size;          /* fio's io_size: bytes of I/O per loop per thread; 0 = size */
    uint64_t number_ios;       /* fio's number_ios: at most this many I/Os per thread; 0 = no limit */
    uint64_t offset_increment; /* thread i's region starts at offset + i * this (fio's) */
    uint64_t rate_write;       /* rate's write value (rate itself is the read one); 0 = no limit */
    uint64_t rate_trim;        /* rate's trim value: storbench issues no trims (kept as given) */
    uint64_t rate_iops_write;  /* rate_iops' write value (rate_iops is the read one) */
    unsigned flow;             /* fio's flow weight; 0 = no flow control */
    unsigned flow_id;          /* jobs with the same flow_id share one flow */
    unsigned flow_sleep_us;    /* fio's flow_sleep: the wait when ahead of the weight */
    bool exitall;              /* fio's exitall: when this job ends, exit_what's jobs end too */
    int exit_what;             /* 0 group, 1 stonewall (every job running), 2 all (and later ones) */
    bool exitall_on_error;     /* a job that fails ends every other, and later ones */
    unsigned continue_on_error; /* fio's: bit 0 read, 1 write, 2 verify errors survived */
    int ignore_error[3][8];    /* fio's ignore_error per read, write, verify: errnos survived */
    unsigned n_ignore_error[3]; /* 0: fio's default list, EIO and EILSEQ */
    bool error_dump;           /* print each survived error (fio's error_dump, default on) */
    int fallocate;             /* fio's fallocate for files a write job makes: SB_FALLOC_* */
    uint64_t verify_interval;  /* fio's verify_interval: a header every N bytes; 0 = per block */
    uint8_t verify_pat[512];   /* fio's verify_pattern: the verified blocks' data */
    unsigned verify_pat_len;   /* 0 = none (data from the block's seed) */
    uint16_t verify_pat_o[SB_IO_PAT_MAX_O]; /* where verify_pattern's %o are: the block's offset */
    unsigned verify_pat_no;
    bool fill_device;          /* fio's fill_device: write until the file system is full */
    bool create_serialize;     /* fio's create_serialize: files laid out one after another */
    bool verify_dump;          /* fio's verify_dump: a bad block and what was expected to files */
    const char *aux_path;      /* fio's --aux-path (the command's, outlives the run): verify_dump's
                                * directory; NULL = the working directory */
    bool verify_fatal;         /* fio's verify_fatal: with continue_on_error=verify, end the job at
                                * the first mismatch (0: go on checking, each one counted) */
    unsigned verify_async;     /* fio's verify_async: accepted; the I/O threads check */
    unsigned dedupe_percentage; /* % of written blocks that repeat an earlier one */
    int dedupe_mode;           /* 0 repeat (the last unique block), 1 working_set */
    unsigned dedupe_ws_pct;    /* working_set: the set is this % of the region's blocks */
    bool dedupe_global;        /* the jobs of a run draw the same blocks (one set for all) */
    unsigned compress_pct;     /* fio's buffer_compress_percentage: zeros in each chunk */
    uint64_t compress_chunk;   /* fio's buffer_compress_chunk (512 by default) */
    /* Set by jobrun.c on the copy it runs: true = the other jobs ended this one (exitall). */
    const _Atomic(bool) *stop_ext;
    /* Set by jobrun.c: the flow weight reserved for this job's threads (flow.h), or NULL. */
    _Atomic(unsigned) *flow_reserved;
    /* Set by jobrun.c for the jobs of a phase: held while a job prepares its files, so that
     * two jobs of one file never see it half made (one creates and lays it out, the other
     * finds it whole), as fio lays out every file before any job starts. NULL: alone. */
    pthread_mutex_t *prepare_lock;
    /* Set by jobrun.c for the jobs of a phase: where the job waits, its files laid out, until
     * every job of the phase is ready, as fio starts them together (io/run/gate.h; its index
     * there). NULL: alone. */
    struct sb_io_gate *start_gate;
    size_t gate_index;
    /* fio's io_submit_mode, random_generator, NUMA placement and SPRandom (options_fiob.c;
     * issue 27). submit_offload: a submitter thread issues at the rate while another reaps,
     * so submission does not wait on completions (submit_offload.c). random_generator:
     * SB_RNG_LFSR walks a maximal-length LFSR (offsets.c): every block once per pass, with
     * or without the random map. numa_cpu_nodes: bit N = node N's CPUs (worker_numa.c);
     * numa_mem_mode: SB_NUMA_MEM_*, over numa_mem_nodes. sprandom: fio 3.41's SPRandom
     * preconditioning (sprandom.c), spr_op over-provisioning, spr_num_regions regions. */
    bool submit_offload;
    int random_generator;
    uint64_t numa_cpu_nodes;
    int numa_mem_mode;
    uint64_t numa_mem_nodes;
    bool sprandom;
    double spr_op;
    unsigned spr_num_regions;
    /* fio's per-I/O priorities (cmdprio.h) and the default class; log_prio: the log files'
     * prio column is each I/O's ioprio value (else 1 for a cmdprio pick, 0 otherwise) */
    sb_cmdprio cmdprio;
    int prioclass;             /* fio's prioclass 0 .. 3; -1 = unset (prio alone: best effort) */
    bool log_prio;
    /* Several files per job (files.c), fio's options: which file the next I/O goes to
     * (file_service_type: SB_FSRV_*, with its ":N", I/Os before switching, or its skew),
     * how many are open at once (openfiles, 0 = all), how they are named in directory
     * (filename_format, "" = fio's $jobname.$jobnum.$filenum), and how they are made
     * (create_on_open: not laid out or allocated before the run, even to read; create_fsync: laid-out
     * data fsynced; create_serialize: storbench lays files out one after another always). */
    unsigned file_service;
    unsigned file_service_nr;
    double file_service_skew;
    unsigned openfiles;
    char filename_format[128];
    bool create_on_open, create_fsync; /* create_serialize: with fio's job control above */
    /* fio's file handling (job/fileopts.c): opendir (every regular file under it becomes
     * one of the job's files), file_append (each file's region starts at its end),
     * create_only (files laid out, no I/O), pre_read (the region read into the page cache
     * before the run; no invalidate), unlink_each_loop (files unlinked between loops and
     * made again), write_hint (F_SET_RW_HINT, SB_WHINT_*: -1 unset), sync_file_range
     * (sfr_flags: SYNC_FILE_RANGE_* after every sfr_every writes), filesize_max
     * (filesize=LO-HI: each file's size drawn in [filesize, filesize_max]) */
    char opendir[256];
    int lockfile;              /* fio's lockfile: SB_LOCKFILE_* (a lock per file around each I/O) */
    unsigned write_barrier;    /* fio's write_barrier: refused (only fio's sg engine issues them) */
    bool atomic;               /* fio's atomic: RWF_ATOMIC direct writes where the file system has them */
    uint64_t zonerange;        /* fio's zonerange: a strided zone's span (zonesize of it is used) */
    bool file_append, create_only, pre_read, unlink_each_loop;
    int write_hint;
    unsigned sfr_flags, sfr_every;
    uint64_t filesize_max;
    /* fio's process and system settings (run/system.c): lockmem (bytes mlocked while the
     * job runs), hugepage_size (mem=shmhuge/mmaphuge round to it), ioscheduler (set on
     * the files' devices for the job, restored after), exec_prerun/exec_postrun (run by
     * /bin/sh -c before and after the job; only from the command line or a job file the
     * user named there, never from an include: jobfile.c), cgroup (a cgroup v2
     * made under the caller's for the job, cgroup_weight its io.weight, kept with
     * cgroup_nodelete) */
    uint64_t lockmem, hugepage_size;
    char ioscheduler[16];
    char exec_prerun[256], exec_postrun[256];
    char cgroup[64];
    unsigned cgroup_weight;
    bool cgroup_nodelete;
    int uid, gid;              /* fio's uid/gid: the job's user and group (run/system.c); -1 unset */
    /* fio's slat_percentiles / lat_percentiles: print the submission and total latency
     * percentiles (asynchronous engines time the submission; the "Timing" of docs/io.md) */
    bool slat_percentiles, lat_percentiles;

    /* Called from the controlling thread about 10 times a second; may be NULL. */
    bool (*should_stop)(void *arg); /* true = interrupt the job */
    void (*progress)(void *arg, double fraction);
    void *cb_arg;
} sb_io_job;

/* fio's mem/iomem (run/iomem.c) and fadvise_hint (run/worker.c). */
enum { SB_IOMEM_MALLOC = 0, SB_IOMEM_SHM, SB_IOMEM_SHMHUGE, SB_IOMEM_MMAP, SB_IOMEM_MMAPHUGE,
       SB_IOMEM_MMAPSHARED };
enum { SB_FADVISE_NONE = 0, SB_FADVISE_PATTERN, SB_FADVISE_RANDOM, SB_FADVISE_SEQUENTIAL };

/* fio's thinktime_blocks_type (loop/pace.c): completed or issued I/Os count. */
enum { SB_THINK_COMPLETE = 0, SB_THINK_ISSUE };
/* fio's lockfile and write_hint (job/fileopts.c) */
enum { SB_LOCKFILE_NONE = 0, SB_LOCKFILE_EXCLUSIVE, SB_LOCKFILE_READWRITE };

/* fio's fallocate: how a write job's new file gets its size (prepare.c). */
enum { SB_FALLOC_NATIVE = 0, SB_FALLOC_NONE, SB_FALLOC_KEEP };

/* Per data direction. */
typedef struct sb_io_dir_stats {
    uint64_t ios;
    uint64_t bytes;
    sb_histogram clat;         /* completion latency, ns: submission to completion */
    /* Asynchronous engines only (empty for synchronous ones): fio's slat, from the I/O's
     * start to the return of the call that submitted it, and fio's clat, from there to
     * completion; clat above is then fio's lat (docs/io.md "Timing"). */
    sb_histogram slat, clat_issued;
} sb_io_dir_stats;

/* fio's IO depth maps, counted by asynchronous engines: I/Os by the depth the queue had
 * when they were submitted (buckets 1, 2, 4, 8, 16, 32, >=64: from that up), and submit and
 * reap calls by the I/Os they carried (0, 1-4, 5-8, 9-16, 17-32, 33-64, >64). */
#define SB_IO_DEPTH_BUCKETS 7
typedef struct sb_io_depths {
    uint64_t level[SB_IO_DEPTH_BUCKETS];
    uint64_t submit[SB_IO_DEPTH_BUCKETS];
    uint64_t complete[SB_IO_DEPTH_BUCKETS];
} sb_io_depths;

typedef struct sb_io_result {
    double seconds;            /* measured interval (after ramp), longest job */
    uint64_t start_ns, end_ns; /* that interval on sb_now_ns(): first ramp end, last completion */
    /* The CPUs' busy time in the measured window and the window (times the CPUs), when
     * core/cpubusy.h is enabled (the device lab's guest); 0 and 0 otherwise. */
    uint64_t cpu_busy_ns, cpu_window_ns;
    sb_io_dir_stats dir[SB_DDIR_N];
    sb_histogram clat_all;     /* both directions */
    /* fsync=N / fdatasync=N: the syncs issued among the writes and how long each took
     * (ios and clat; fio's "sync"); end_fsync's and fsync_on_close's are not counted, as fio's */
    sb_io_dir_stats sync;
    /* verify's reads, which fio reports among the job's reads: verify_backlog's checks
     * during the job and the read-back after it, with a read runtime of its own: their
     * reads (malloc'd; NULL: none) and the read-back's seconds. Only fio's formats add them
     * to the read figures (io/report/aggregate.c). */
    sb_io_dir_stats *verify_read;
    double verify_read_s;
    /* ... and the verify phases inside the job (loops, time based: verify/phase.c), the
     * longest thread's: part of `seconds`, the read runtime's and not the write's, as fio's */
    double verify_phase_s;
    /* ... and each thread's own, when threads[] are reported one by one ([numjobs], calloc'd;
     * NULL: none): fio's threads each read back their own writes */
    sb_verify_thread_reads *verify_threads;
    /* Per-second samples of the whole job (all threads), after the ramp: the first hour,
     * when the log interval divides a second (else none). */
    size_t n_seconds;
    double *bw_bytes_per_s;    /* [n_seconds], malloc'd */
    double *iops;              /* [n_seconds] */
    /* fio's bandwidth and IOPS samples (the report's bw and iops min, max, mean, stdev and
     * samples): one per bwavgtime / iopsavgtime of the whole job, as rates per second, when
     * the log interval divides that window (and it is not 1 s); else NULL, and the
     * per-second samples above are the report's. */
    size_t n_bw_win, n_iops_win;
    double *bw_win, *iops_win;
    /* The measurement over time (all threads), one point per log interval, thinned
     * beyond SB_SERIES_MAX points; malloc'd, NULL when nothing was measured. */
    sb_series *series;
    /* The steady-state check (job->steady): its window or rounds, and whether and when
     * it was attained (the job then stopped). */
    sb_ss_state steady;
    char engine[32];
    unsigned effective_iodepth;
    bool interrupted;
    /* The tool's own cost: CPU time of the whole process (every job thread and the
     * kernel workers that belong to it, such as io_uring's io-wq) from the moment the
     * threads start until the last has ended, and the I/Os completed in that time
     * (ramp included), so cpu_*_s / cpu_ios is the CPU per I/O. */
    double cpu_user_s, cpu_sys_s;
    double cpu_wall_s;         /* the same interval, wall clock */
    uint64_t cpu_ios;
    bool uring_fixed_files, uring_fixed_bufs; /* io_uring: what the threads used */
    sb_io_depths depths;       /* asynchronous engines (ramp included); zero for synchronous ones */
    sb_verify_stats verify;    /* filled when job->verify is set */
    uint64_t zone_resets;      /* zonemode=zbd: zones the job reset (fio's "N zone resets") */
    unsigned latency_depth;    /* latency_target: the depth its search ended at (the last
                                * thread's, as fio's); 0 = none */
    uint64_t sync_fsyncs;      /* of sync's, the fsyncs (fio's sync total_ios counts only those) */
    /* Without group_reporting and with numjobs > 1: each thread's own figures, as fio
     * reports each of numjobs (dir, clat_all, seconds, cpu_ios filled); else NULL. */
    struct sb_io_result *threads;
    unsigned n_threads;
    /* continue_on_error (jobctl.c): the errors the threads went on after, the first's errno */
    uint64_t total_err;
    int first_error;
    /* cmdprio: the latency of each priority per direction, all threads (malloc'd; NULL
     * without cmdprio) */
    sb_prio_stats *prio;
} sb_io_result;

/* A job with fio's defaults: read, 4 KiB, iodepth 1, 1 job, psync, buffered,
 * invalidate on, seed fixed. */
void sb_io_job_init(sb_io_job *job);

/* "randwrite" -> SB_RW_RANDWRITE; -EINVAL for an unknown name. */
int sb_rw_parse(const char *s, sb_rw *out);
const char *sb_rw_name(sb_rw rw);
/* fio's file_service_type (files.c) */
enum { SB_FSRV_ROUNDROBIN = 0, SB_FSRV_RANDOM, SB_FSRV_SEQUENTIAL, SB_FSRV_ZIPF, SB_FSRV_PARETO,
       SB_FSRV_NORMAL };

static inline bool sb_rw_is_random(sb_rw rw)
{
    return rw == SB_RW_RANDREAD || rw == SB_RW_RANDWRITE || rw == SB_RW_RANDRW || rw == SB_RW_RANDTRIM;
}
static inline bool sb_rw_reads(sb_rw rw)
{
    return rw == SB_RW_READ || rw == SB_RW_RANDREAD || rw == SB_RW_RW || rw == SB_RW_RANDRW;
}
static inline bool sb_rw_writes(sb_rw rw)
{
    return rw == SB_RW_WRITE || rw == SB_RW_RANDWRITE || rw == SB_RW_RW || rw == SB_RW_RANDRW ||
           rw == SB_RW_TRIMWRITE;
}
static inline bool sb_rw_trims(sb_rw rw)
{
    return rw == SB_RW_TRIM || rw == SB_RW_RANDTRIM || rw == SB_RW_TRIMWRITE;
}
/* percentage_random leaves some of the job's own directions' offsets sequential */
static inline bool sb_io_job_pct_mixed(const sb_io_job *job)
{
    return (sb_rw_reads(job->rw) && job->pct_random[0] < 100) ||
           (sb_rw_writes(job->rw) && job->pct_random[1] < 100) ||
           (sb_rw_trims(job->rw) && job->pct_random[2] < 100);
}
/* The job changes the file (a read-write descriptor): it writes or trims. */
static inline bool sb_rw_modifies(sb_rw rw) { return sb_rw_writes(rw) || sb_rw_trims(rw); }
/* filestat's stat_type, sg's sg_write_mode */
enum { SB_STAT_STAT = 1, SB_STAT_LSTAT, SB_STAT_STATX };
enum { SB_SG_WRITE = 1, SB_SG_WRITE_VERIFY, SB_SG_WRITE_SAME, SB_SG_WRITE_SAME_NDOB, SB_SG_WRITE_STREAM,
       SB_SG_VERIFY_00, SB_SG_VERIFY_01, SB_SG_VERIFY_11 };
/* The job changes its files: its rw modifies, or its engine changes a file even on a read
 * (falloc allocates; io/engine.h's SB_ENGINE_ALLOCATES). The device rules and the open ask this. */
bool sb_io_job_modifies(const sb_io_job *job);

/* What options mean together, made explicit after parsing: a bssplit's smallest size
 * becomes bs (its offsets' unit). */
void sb_io_job_resolve(sb_io_job *job);

/* Checks the job's values on their own (ranges, combinations). 0 or -EINVAL with one line
 * in err. Warnings (iodepth > 1 on a synchronous engine) go to warn (empty when none). */
/* fio's size=N% made bytes from the job's first file or device (which must exist then):
 * 0, or -EINVAL with one line in err. sb_io_run does it when the job starts. */
int sb_io_files_size_pct(sb_io_job *job, char *err, size_t errlen);
int sb_io_job_check(const sb_io_job *job, char *err, size_t errlen, char *warn, size_t warnlen);
/* The verify rules of a job for depth I/Os in flight per thread, part of the check above
 * (defined in verify_run.c). Declared here, not in worker.h, so that job.c need not
 * include worker.h, which includes this header: no include circle. */
int sb_io_verify_check(const sb_io_job *job, unsigned depth, char *err, size_t errlen);
/* verify's block: the unit every I/O size of the job is made of (bs for a job of one
 * size; with bsrange, bssplit or bs=READ,WRITE their greatest common divisor), each
 * written with a header of its own, as fio's verify_interval of the smallest size. */
uint64_t sb_io_verify_unit(const sb_io_job *job);
/* zonemode=zbd's part of resolve and check (defined in zbd.c; declared here for the
 * same reason): the zone counts of size=Nz / offset=Nz made bytes, a zoned device's
 * zone size when none is given, the region rounded to whole zones as fio's; and the
 * check of the zone options (warn: the rounding). */
void sb_io_zbd_resolve(sb_io_job *job);
int sb_io_zbd_check(const sb_io_job *job, char *err, size_t errlen, char *warn, size_t warnlen);
/* The rules of io_submit_mode, random_generator, numa_* and sprandom (options_fiob.c),
 * part of the check above. */
int sb_io_job_check_fiob(const sb_io_job *job, char *err, size_t errlen);
/* The rules of several files per job (files.c), part of the check too, declared here for
 * the same reason. */
int sb_io_files_check(const sb_io_job *job, char *err, size_t errlen);
/* The rules of trim jobs (trim.c), the same way. */
int sb_io_trim_check(const sb_io_job *job, char *err, size_t errlen);
/* The engine options of fio's --enghelp against the job's engine (job/engine_opts.c): an
 * option of another engine, or one that needs another (sqthread_poll_cpu, hipri_percentage),
 * is refused with one line. */
int sb_io_engine_opts_check(const sb_io_job *job, char *err, size_t errlen);

/* Runs the job. 0, or -errno with one line in err (bad input the filesystem reveals:
 * O_DIRECT refused, bs not a multiple of the logical block size, no space, short file,
 * engine missing). On success result is filled; free it with sb_io_result_free(). An
 * interrupted job returns 0 with result->interrupted set. */
int sb_io_run(const sb_io_job *job, sb_io_result *result, char *err, size_t errlen);
/* result as a job that did nothing: zero, its histograms empty (live figures, a rank
 * that did not run a job). */
void sb_io_result_empty(sb_io_result *result);
void sb_io_result_free(sb_io_result *result);

/* The data a verify_pattern job writes at offset (len a multiple of 8): a function of
 * the byte offset and the seed only, so that any reader can check it. */
void sb_io_pattern_fill(void *buf, uint64_t offset, uint32_t len, uint64_t seed);
/* Whether buf holds that pattern; the first differing offset in *bad when not (verify.c). */
bool sb_io_pattern_check(const void *buf, uint64_t offset, uint32_t len, uint64_t seed, uint64_t *bad);

/* Convenience figures. */
double sb_io_result_iops(const sb_io_result *r, int ddir /* -1 = both */);
double sb_io_result_bw(const sb_io_result *r, int ddir /* bytes/s; -1 = both */);

/* How many names a LIST field holds (filename=a:b: NUL-separated, the first is the field
 * itself as a string). Here, not in io/options.h, so that job.c needs no include of the
 * table that includes job.h. */
static inline unsigned sb_opt_list_count(const char *field)
{
    unsigned n = 0;
    for (const char *p = field; *p; p += __builtin_strlen(p) + 1)
        n++;
    return n;
}

#endif
