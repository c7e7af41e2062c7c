/*
 * worker (private to src/io/) — what the three parts of running a job share: the
 * per-thread state (worker), the state all threads of a job share, and one file to
 * prepare. worker.c runs the job (threads, control loop, merging), loop.c is the
 * per-thread hot loop, prepare.c makes and opens the files.
 */
#ifndef SB_IO_WORKER_H
#define SB_IO_WORKER_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/clock.h"
#include "core/rand.h"
#include "core/timeseries.h"
#include "io/engine.h"
#include "io/loop/flow.h"
#include "io/log/iolog.h"
#include "io/job.h"
#include "io/loop/offsets.h"
#include "io/loop/sprandom.h"
#include "io/loop/varmap.h"

#define TICK_NS 50000000ull   /* how often a worker publishes progress */
#define NS 1000000000ull

typedef struct shared {
    atomic_bool stop;
    uint64_t start_ns;         /* written before threads start */
    uint64_t seed;             /* the job's seed, or a new one (randrepeat=0) */
} shared;

/* files.c: one file of a thread that has several (fio's nrfiles, filename=a:b): its
 * descriptor and its offsets while another file is in use. */
typedef struct sb_io_wfile {
    int fd;
    sb_offgen og;
    uint64_t seq_pos, pass_bytes;
    sb_seqpos mixpos;          /* randread:N's positions on it (fio's per-file last_pos) */
    sb_varmap vmap;            /* sizes drawn: its random map (varsize.c) */
    uint64_t size;             /* filesize=LO-HI: its own size (0 = the job's) */
    bool done;                 /* its pass is done: out of the rotation until all are */
} sb_io_wfile;

typedef struct sb_io_fileset {
    unsigned n;                /* the thread's files */
    sb_io_wfile *f;
    int *fds;                  /* [n] their descriptors, for the engine (td.fds) */
    unsigned kind, nr;         /* file_service_type and its :N */
    unsigned cur, left;        /* the file in use (its state is the worker's), I/Os left on it */
    unsigned ndone;
    unsigned *active, nactive, open_max, next_new, rr; /* openfiles: the files in rotation */
    uint64_t pass_bytes, pass_total; /* skewed choice: a pass is size bytes over all files */
    sb_distgen dg;             /* zipf, pareto, normal choice of the file */
    sb_rand rng;
} sb_io_fileset;

#define SB_IO_BS_TABLE 1024    /* block sizes drawn before the run (bsrange, bssplit) */
/* The stack of a job's I/O thread, sized to need rather than glibc's 8 MiB default, so
 * that a job file of a thousand jobs (two threads each) fits in a 4 GB address space
 * as fio's does: the deepest measured over fio's examples on every engine here (verify,
 * offload and logs included) was 15 KiB, so 256 KiB leaves room for libc's own frames.
 * Nothing large lives on it (offload's batch is on the heap). */
#define SB_IO_WORKER_STACK (256u << 10)

struct file_ctx;

typedef struct worker {
    const sb_io_job *job;
    shared *sh;
    unsigned index;
    sb_clock clk;              /* the job's clock (clocksource, gtod_cpu: io/run/jobclock.h) */
    /* file op engines (fileops.c): the job's files and which are this thread's (its
     * map[index * per + k]), by name: nothing is opened */
    const struct file_ctx *op_files;
    const unsigned *op_map;
    int fd;
    const char *path;          /* its file's name (unlink_each_loop makes it anew) */
    /* fio's lockfile (lockfile.c): the lock of each of the thread's files (nflock: fs's
     * files, or 1), the engine's table, and the copy of it td.ops then points to, whose
     * queue takes the lock of the I/O's file; flock NULL = none */
    struct sb_io_flock **flock;
    unsigned nflock;
    const sb_engine_ops *flock_real;
    sb_engine_ops flock_ops;
    bool fd_private;           /* the thread has a descriptor table of its own (loop.c) */
    sb_engine_td td;
    bool engine_ready;
    void *bufmem;
    size_t buflen;             /* bufmem's bytes (numa_mem_policy binds them) */
    sb_io_u **freelist;
    unsigned nfree;
    sb_io_u **done;
    sb_io_u **pend;            /* asynchronous engines: queued, not yet submitted (loop.c) */
    sb_offgen og;
    sb_distgen dg;             /* random_distribution other than random (og.dist points here) */
    sb_rand rng;
    uint64_t block_count;
    uint64_t unit;             /* a block index's bytes: bs, or blockalign for random jobs */
    uint64_t unit_w;           /* the writes' own (ba=R,W, bs=R,W; variable sizes); 0 = unit */
    bool pass_done;            /* set when a one-pass job has issued its last block */
    bool invalidate_pending;   /* a time-based pass ended: drop the cache before the next */
    uint64_t writes_since_fsync;
    unsigned sync_every;       /* fsync_every or fdatasync_every: the periodic sync */
    bool sync_data;            /* it is an fdatasync */
    bool sync_pending;         /* the periodic sync is due before the next I/O (fio's order) */
    uint64_t fsyncs;           /* of sync_st's syncs the fsyncs, not fdatasyncs (fio's sync total_ios) */
    unsigned passes;           /* one-pass jobs: passes done (fio's loops) */
    /* Variable block sizes (bsrange, bssplit): sizes drawn before the run, taken in turn;
     * NULL = every I/O is job->bs. Offsets are then in bytes: seq_pos in the pass,
     * pass_bytes issued in a random pass. */
    uint32_t *bs_table;
    uint32_t *bs_table_w;      /* fio's bssplit=READS,WRITES: the writes' sizes; NULL: bs_table */
    uint32_t bs_min, bs_min_w; /* the smallest of each table (a random offset leaves room for it) */
    sb_varmap vmap;            /* a random job's map of blocks taken (varmap.h); nblocks 0: none */
    unsigned bs_next;
    uint64_t seq_pos, pass_bytes;
    uint64_t scramble_n;       /* scramble_buffers: counter written into each block */
    /* rate, rate_iops, thinktime: the earliest time of the next I/O, and its cost */
    bool paced, thought;
    uint64_t next_issue_ns[SB_DDIR_N], think_ns;   /* per direction (fio's rate=R,W) */
    double ns_per_byte[SB_DDIR_N], ns_per_io[SB_DDIR_N];
    /* pace.c: thinktime_blocks' and thinktime_iotime's marks (I/Os issued, the count and
     * the time at the last think), the spin part of a think */
    uint64_t think_issued, think_last_b, think_last_ns, spin_ns;
    uint64_t think_mark;       /* the count when the pending think was found due */
    bool think_marked;
    /* pace.c, from account(): watch = cmdprio's stats, max_latency or latency_target, so
     * the hot path has one test for them; max_lat_ns, lat_target_ns: 0 = none. The
     * latency target's queue-depth search (fio's): depth in use, its bounds, windows met
     * in a row at the top, the window's start and I/Os, the I/Os over the target in it,
     * the final run at the depth found; quiesce: the loop drains before going on. */
    bool watch;
    uint64_t max_lat_ns, lat_target_ns;
    unsigned lat_qd, lat_qd_low, lat_qd_high, lat_stable;
    bool lat_end_run, lat_quiesce;
    unsigned depth_low;        /* iodepth_low below iodepth; 0 = none */
    uint64_t lat_ts, lat_ios, lat_failed;

    uint64_t io_start_ns, ramp_end_ns, end_ns;
    uint64_t next_tick_ns, last_ns;
    sb_io_dir_stats st[SB_DDIR_N];
    sb_io_dir_stats sync_st;   /* fsync=N's syncs: count and latency (fio's "sync") */
    uint64_t bytes_issued;
    uint64_t ios_done;         /* completions, ramp included (CPU per I/O) */
    sb_io_depths depths;       /* asynchronous engines: fio's IO depth maps (job.h) */
    uint64_t finished_ns;      /* when the thread's work ended */
    atomic_uint_fast64_t progress_bytes;
    atomic_uint_fast64_t progress_ios; /* completions, published with progress_bytes */
    atomic_bool finished;
    sb_tsb ts;                 /* the measurement's intervals (sampling.c) */
    int err;
    char errmsg[256];
    sb_verify_thread *vt;      /* verified I/O (verify_run.c); NULL when off */
    /* fio's verify phase inside the job (verify/phase.c): due once the I/Os issued end a
     * write phase (a loop, or vphase_bytes since vphase_mark, the bytes_issued after the
     * last phase; 0: not by bytes); the loops run it when all their I/Os are back */
    bool vphase_due;
    uint64_t vphase_bytes, vphase_mark;
    sb_iolog *log;             /* fio's log files (iolog.h); NULL when off */
    struct sb_io_iolog *iolog; /* write_iolog / read_iolog (io/loop/replay.h); NULL when off */
    /* and its hooks, set by replay.c (called through them: no circle between the two
     * objects): the next I/O in next_io's stead, a sync done */
    bool (*iolog_next)(struct worker *w, sb_io_u *u);
    void (*iolog_sync)(struct worker *w, bool data_only);
    bool no_lat;               /* gtod_reduce: no latency recorded */
    uint64_t rm_next_ns, rm_bytes, rm_ios; /* rate_min, rate_iops_min: the last check, bytes
                                            * and I/Os then (the controller's) */
    /* zonemode=zbd (zbd.h): the thread's zones; NULL when off. zbd_hold: a write waits for
     * completions (the async loop reaps, then places the held block again). */
    struct sb_zbd_thread *zbd;
    bool zbd_hold, zbd_pass_end;
    int zbd_ddir;
    uint64_t zbd_b;
    /* fio's job control (jobctl.c, flow.c): ctl = io_size, number_ios, flow or
     * continue_on_error is set, so the hot path has one test for all of them. */
    bool ctl;
    bool fill;                 /* dedupe_percentage or buffer_compress_percentage */
    sb_flow_member flow;
    uint64_t loop_bytes;       /* io_size: bytes issued in this loop */
    uint64_t ios_issued;       /* number_ios */
    uint64_t total_err;        /* continue_on_error: errors gone on after */
    int first_error;           /* the first of them (an errno) */
    uint64_t ws_seed;          /* dedupe working_set: the seed of its blocks */
    uint64_t dedupe_last;      /* dedupe repeat: the last new block's seed */
    sb_io_job own_job;         /* offset_increment: the job with this thread's offset */
    /* fio's cmdprio (cmdprio.h): whether it picks, the default priority of the other I/Os,
     * the latency per priority (NULL without cmdprio); the high flag of the I/O in hand */
    bool cmdprio;
    uint16_t ioprio_default;
    sb_prio_stats *prio;
    sb_spr *spr;               /* fio's sprandom (sprandom.h): its blocks; NULL when off */
    sb_spr spr_state;
    sb_io_fileset *fs;         /* several files per thread (files.c); NULL = one, w->fd */
    uint64_t fs_size;          /* sizes drawn (bsrange, bssplit) with filesize=LO-HI: the size of
                                * the file in use (files.c), which next_var keeps to; 0 = size */
    bool trim_blk;             /* trims go to a block device (BLKDISCARD; trim.c) */
    bool rare;                 /* fs or trimwrite: next_io's rare paths (one test per I/O) */
    bool seqmix_on;            /* rw=randread:N or percentage_random (offsets.h), under rare */
    /* rw=rw, sequential: each direction walks the region from its own position, wrapping
     * at its end, as fio's (one position per direction); the generator still counts the
     * pass. Under rare. */
    bool dir_seq;
    uint64_t dir_pos[2];
    sb_seqmix seqmix;
    int ddir_fixed;            /* the one direction of a job that has one, else -1 (mixed) */
    bool tw_pending, tw_last;  /* trimwrite: the trimmed block's write is next (the pass's last) */
    uint64_t tw_off;
    uint32_t tw_len;
} worker;

typedef struct file_ctx {
    char path[PATH_MAX + 32];
    int fd;                /* buffered descriptor for layout; closed before the run */
    bool created;          /* this run created it (O_EXCL) */
    bool op_free;          /* filecreate, dircreate: the name was free before the run (opfiles.c) */
    dev_t dev;             /* the inode opened, so that only it is ever removed */
    ino_t ino;
    uint64_t known_from;   /* verify: blocks from here on were laid out by this run */
    uint64_t size;         /* filesize=LO-HI: this file's region (files.c); 0 = the job's size */
    sb_verify_table vtab;  /* verify: the file's block table */
    struct sb_zbd_set *zbd; /* zonemode=zbd: the file's zones (zbd.h); NULL when off */
} file_ctx;

/* jobctl.c: fio's job control for the loop (the worker's ctl and buffers parts), off the
 * hot path. sb_io_ctl_setup: before the thread starts (flow joined, offset_increment's
 * job); sb_io_ctl_issued: after an I/O was prepared, true when the thread is done after
 * it (io_size, number_ios); sb_io_ctl_error: an I/O failed with -e, true when the job
 * goes on (continue_on_error; counted and printed); sb_io_fill_write: a write's data
 * (dedupe, compression). */
int sb_io_ctl_setup(worker *w, const sb_io_job *job, char *err, size_t errlen);
bool sb_io_ctl_issued(worker *w, sb_io_u *u);
bool sb_io_ctl_error(worker *w, const sb_io_u *u, int e, uint64_t now);
/* Whether continue_on_error and ignore_error make the job go on after error e of an I/O
 * in direction ddir. */
bool sb_io_ctl_survives(const sb_io_job *job, int ddir, int e);
void sb_io_fill_write(worker *w, sb_io_u *u);
/* loop/varsize.c: a variable-size job's next I/O — u->len set, its offset returned, and
 * *pass_end when the pass's size is done; or SB_IO_VAR_CUT: no I/O, the file's pass ended
 * before it (randread:N's sequential I/O found no size that fits before the end, fio's
 * fill_io_u failing), and the caller goes on with the next file or pass. */
#define SB_IO_VAR_CUT UINT64_MAX
uint64_t sb_io_next_var(worker *w, sb_io_u *u, bool *pass_end);
/* jobctl.c: fio's fill_device: *out becomes a copy of job whose size is the room on the
 * file system of its file (or dir) plus what the file holds, from offset, in whole
 * blocks. 0, or -errno with one line in err. */
int sb_io_ctl_fill_job(const sb_io_job *job, const char *dir, sb_io_job **out, char *err, size_t errlen);
/* jobctl.c: the job each file is laid out for (offset_increment moves thread i's region;
 * one shared file holds every thread's). */
void sb_io_ctl_file_job(const sb_io_job *job, unsigned file, unsigned nfiles, sb_io_job *out);
/* jobctl.c: where thread i's region starts: offset + i * offset_increment, aligned up when
 * offset_increment was a percentage (offinc_align), as fio's get_start_offset. */
uint64_t sb_io_ctl_thread_offset(const sb_io_job *job, unsigned i);

/* worker_numa.c, in the worker's thread: numa_cpu_nodes and numa_mem_policy for it and its
 * buffers (buflen bytes at bufmem). 0, or -errno with w->err and w->errmsg set. */
int sb_io_numa_apply(worker *w, size_t buflen);
/* worker_draw.c: the job's largest block size; a thread's block-size table (0, or
 * -ENOMEM) and its block sequence, from the job's options and the seed. */
uint64_t sb_io_job_max_bs(const sb_io_job *job);
int sb_io_worker_bs_table(worker *w, const sb_io_job *job);
void sb_io_worker_offsets(worker *w, const sb_io_job *job, uint64_t seed);
/* submit_offload.c: the job's I/O under io_submit_mode=offload, from the worker's thread;
 * and what it uses of loop.c: the next I/O (false: none left), the rate's wait, and one
 * completion seen at now (accounted, its buffer back on the free list). */
void sb_io_loop_offload(worker *w);
/* loop.c, for worker_thread.c: the loop of a synchronous engine and of an asynchronous
 * one (worker_thread.c chooses, beside submit_offload.c's), sleeping until t (woken early
 * when stopped), and whether the job was stopped. */
void sb_io_loop_sync(worker *w);
void sb_io_loop_async(worker *w);
/* fileops.c: the loop of the file and directory op engines (SB_ENGINE_FILE_OPS) */
void sb_io_loop_fileops(worker *w);
void sb_io_sleep_until(worker *w, uint64_t t);
bool sb_io_stopped(worker *w);
/* syncs.c: every file's fsync (end_fsync, fsync_on_close), the periodic sync due before
 * the next I/O (timed), and the cache drop that starts a time-based pass cold */
void sb_io_fsync(worker *w);
void sb_io_periodic_sync(worker *w);
void sb_io_invalidate_region(worker *w);
bool sb_io_next(worker *w, sb_io_u *u);
/* pace.c: the wait before a paced I/O of len bytes in direction ddir (rate, rate_iops,
 * thinktime and its options), returning the clock after it; whether a rate-limited
 * direction is ahead of its schedule; whether a think is due before the next I/O (the
 * async loop drains first, as fio's quiesce); the latency watch of one completion
 * (cmdprio's stats, max_latency, latency_target) and the latency target's window check
 * (now: the clock); whether u overlaps an I/O in flight (serialize_overlap). */
uint64_t sb_io_pace(worker *w, int ddir, uint32_t len, uint64_t now);
bool sb_io_rate_ahead(worker *w);
bool sb_io_think_due(worker *w, uint64_t now);
void sb_io_watch(worker *w, const sb_io_u *u, uint64_t lat_ns, uint64_t now);
/* before the thread starts: the fields above from the job, for a queue of depth I/Os */
void sb_io_watch_setup(worker *w, const sb_io_job *job, unsigned depth);
bool sb_io_overlaps(const worker *w, const sb_io_u *u);
void sb_io_complete_one(worker *w, sb_io_u *u, uint64_t now);
/* files.c: several files per job (fio's nrfiles, filename=a:b, file_service_type). The
 * files per thread; the per-file size into job->size (a copy of the caller's job); the
 * checks; the names (map[thread * per + k] indexes files); a thread's descriptors and
 * their offsets; the choice before each I/O; whether the I/O ended the pass over all. */
unsigned sb_io_files_per_thread(const sb_io_job *job);
void sb_io_files_resolve(sb_io_job *job);
int sb_io_files_name(const sb_io_job *job, const char *dir, file_ctx *files, unsigned *nfiles,
                     unsigned *map, char *err, size_t errlen);
int sb_io_files_open(struct worker *w, const sb_io_job *job, const file_ctx *files, const unsigned *map,
                     char *err, size_t errlen);
void sb_io_files_close(struct worker *w);
/* files.c: fio's filesize=LO-HI, each file's size into files[i].size (seed: the job's). */
void sb_io_files_sizes(const sb_io_job *job, file_ctx *files, unsigned nfiles, uint64_t seed);
void sb_io_files_pick(struct worker *w);
bool sb_io_files_pass_end(struct worker *w, bool file_end, uint32_t len);

/* trim.c: one trim (a hole punched in a file, BLKDISCARD on a block device): len or
 * -errno; and, when a file is opened for the run, whether it is a block device and, for
 * a trim job, whether it discards (-EOPNOTSUPP with one line when not). */
int64_t sb_io_trim(int fd, bool blkdev, uint64_t off, uint32_t len);
int64_t sb_io_trim_u(const worker *w, const sb_io_u *u); /* u's: a zone reset under zbd */
int sb_io_trim_probe(const sb_io_job *job, int fd, const char *path, bool *blkdev, char *err,
                     size_t errlen);

/* lockfile.c: fio's lockfile for w (after its engine and its files are set up): its queue
 * goes through the lock of the I/O's file, shared by every thread on that file. 0 or
 * -errno with err; and the references given back (before the worker goes). */
int sb_io_flock_attach(worker *w, char *err, size_t errlen);
void sb_io_flock_detach(worker *w);

/* The time on the job's clock, from the worker's own thread (loop.c reads it through an
 * instance per clock instead). */
static inline uint64_t sb_io_now(worker *w)
{
    return sb_clock_read(&w->clk);
}

/* loop.c: the thread function (arg is a worker set up by worker.c). */
void *sb_io_worker_main(void *arg);

/* prepare.c: creates/extends/checks one file so that [0, offset+size) exists. */
int sb_io_prepare_file(const sb_io_job *job, file_ctx *f, char *err, size_t errlen);
/* prepare.c: the directory the job's files go in: job->directory when the caller made it
 * its own (dir_private), else a private directory made in it (*made; core/workdir.h);
 * "" for a --filename job. 0 or -errno with one line in err. */
int sb_io_files_dir(const sb_io_job *job, char *dir, size_t len, bool *made, char *err, size_t errlen);
/* prepare.c: the private directories made (a list: fio's directory=A:B makes one in each;
 * each name ends in NUL, the list in another) removed. */
void sb_io_files_dir_remove(const char *dirs);
/* prepare.c: removes what the job created: its files in a directory unless keep_files,
 * a --filename only when the run failed, then the directory if made. */
void sb_io_remove_created(const sb_io_job *job, const file_ctx *files, unsigned nfiles, const char *dir,
                          bool made, bool failed);
/* opfiles.c: a file op engine's name before the run (none there for filecreate and
 * dircreate; a directory made for dirstat and dirdelete), and after it what the engine
 * made, marked the job's own (created) so that it goes with the job's files. */
int sb_io_prepare_opfile(const sb_io_job *job, file_ctx *f, char *err, size_t errlen);
void sb_io_opfiles_adopt(const sb_io_job *job, file_ctx *files, unsigned n);
/* prepare.c: opens path for the job's I/O (O_DIRECT and its alignment checked). */
int sb_io_open_for_io(const sb_io_job *job, const char *path, int *fdp, char *err, size_t errlen);
/* prepare.c: fio's unlink_each_loop, from the worker's thread between two loops: its file
 * unlinked, made anew (O_EXCL) and opened for the run; a failure stops the job (w->err). */
void sb_io_reloop_file(worker *w);

/* verify_run.c: the tables and per-thread state before the threads start; after they
 * end, the read-back and the figures (returns r, or the read-back's error); and freeing
 * it all. The verify rules of a job (job.c's check) are declared in job.h. */
/* verify/sizes.c: the rules of a verified job of several sizes (0 or -EINVAL with the
 * line), and a thread's tables when it has several files (after its files are open). */
int sb_io_verify_check_units(const sb_io_job *job, unsigned depth, char *err, size_t errlen);
int sb_io_verify_thread_files(worker *w, file_ctx *files);
/* verify_run.c: the block format of a job (its algorithm, seed, verify_interval and
 * verify_pattern) for blocks of bs bytes. 0 or -ENOMEM (fmt then freed by the caller). */
int sb_io_verify_fmt_init(sb_verify_fmt *fmt, const sb_io_job *job, uint32_t bs);
int sb_io_verify_setup(const sb_io_job *job, sb_verify_fmt *fmt, file_ctx *files, unsigned nfiles,
                       worker **ws, char *err, size_t errlen);
int sb_io_verify_finish(const sb_io_job *job, const sb_verify_fmt *fmt, file_ctx *files,
                        unsigned nfiles, worker **ws, sb_io_result *res, int r, char *err, size_t errlen);
void sb_io_verify_free(sb_verify_fmt *fmt, file_ctx *files, unsigned nfiles, worker **ws, unsigned n);
/* verify/phase.c, from the worker's thread with none of its I/Os in flight: fio's verify
 * phase (w->vphase_due), this thread's writes since the last one read back and checked; a
 * mismatch or a failed read is the worker's error (or counted: continue_on_error=verify). */
void sb_io_verify_phase(worker *w);
/* ... marked due, for this thread's writes so far (the loops run it once theirs are back) */
void sb_io_verify_phase_due(worker *w);
/* verify/phase.c: a check of the thread's failed with r (-EILSEQ: a mismatch, v->msg): under
 * continue_on_error=verify counted, and true (go on) unless verify_fatal ends the job; else
 * the worker's error, and the job stops. */
bool sb_io_verify_failed(worker *w, int r);
/* sampling.c: the log interval of the job in ns (1 s when unset). */
uint64_t sb_io_log_interval_ns(const sb_io_job *job);
/* sampling.c, from the controlling thread: feeds the intervals every worker has closed
 * since *next to the steady-state check; true when the job should stop. */
bool sb_io_steady_poll(worker *const *ws, unsigned n, sb_ss_state *ss, size_t *next);
/* sampling.c, after the threads ended: the workers' intervals as res->series. */
int sb_io_series_collect(worker *const *ws, unsigned n, sb_io_result *res);

#endif
