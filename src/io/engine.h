/*
 * engine — the ops table every I/O engine implements, in the manner of fio's
 * ioengine_ops. The worker (worker.c, loop.c) owns offsets, timing and statistics; an
 * engine only moves bytes:
 *
 *   init(td)             per-thread setup (io_setup, ring, mapping); td->fd is open
 *   queue(td, u)         prepare one I/O; returns SB_Q_COMPLETED when the I/O is
 *                        already done (synchronous engines: u->result set), or
 *                        SB_Q_QUEUED when it waits for commit(); -errno on failure
 *   commit(td)           submit everything queued since the last commit
 *   getevents(td, min, max, out)  wait until at least min queued I/Os completed,
 *                        return up to max of them in out (each with u->result set);
 *                        out has room for iodepth, and an engine with no kernel
 *                        queue to leave completions in (posixaio) returns all
 *                        it found, as fio's does
 *   fsync(td)            flush written data: fsync, or fdatasync when td->datasync
 *                        (fio's fsync / fdatasync), msync for mmap
 *   cleanup(td)          release what init made
 *
 * u->result is the byte count transferred, or -errno. Engines never allocate
 * or print on the queue/commit/getevents path.
 */
#ifndef SB_IO_ENGINE_H
#define SB_IO_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sb_io_u {
    void *buf;
    uint64_t offset;
    uint32_t len;
    uint8_t ddir;          /* SB_DDIR_READ / SB_DDIR_WRITE */
    unsigned index;        /* position in td->ios, for registered buffers */
    int64_t result;        /* bytes transferred or -errno */
    uint64_t start_ns;     /* submission time (worker) */
    uint16_t ioprio;       /* the I/O's priority (fio's cmdprio: class << 13 | hint << 3 |
                            * level); 0 = the thread's. libaio and io_uring pass it on */
    uint64_t issue_ns;     /* asynchronous engines: when the submitting call returned (loop.c) */
    void *engine_data;     /* per-I/O engine state (aiocb, ...) */
} sb_io_u;

struct sb_engine_ops;

/* One thread's view of the engine. */
typedef struct sb_engine_td {
    const struct sb_engine_ops *ops;
    int fd;
    unsigned iodepth;
    sb_io_u *ios;          /* [iodepth] */
    uint64_t file_size;    /* bytes of the file the job may touch (offset + size) */
    bool direct;
    bool writes;           /* the job writes (mmap maps read-write) */
    bool fixed_files, fixed_bufs;  /* io_uring options; init clears one it could not use */
    bool files_required, bufs_required; /* io_uring: a refused registration is an error */
    bool datasync;         /* the next fsync() is an fdatasync (the worker sets it per call) */
    bool sqpoll, nowait, hipri; /* fio's sqthread_poll, nowait, hipri (SB_ENGINE_RING, _RWF) */
    const struct sb_io_job *job; /* the job: the engine options it reads (.options) */
    /* Several files per thread (io/job/files.c): every one's descriptor, fds[file] being
     * fd (the worker sets both when it changes files); NULL, 0 for a thread of one file.
     * An engine that keeps something per file (a registration, a mapping) makes it for
     * each at init and takes file's at queue, as fio's engines do per fio_file. */
    const int *fds;
    unsigned nfds, file;
    char why[200];         /* init's failure in the engine's words (empty: strerror of its -errno) */
    void *data;            /* engine private */
} sb_engine_td;

enum { SB_Q_COMPLETED = 0, SB_Q_QUEUED = 1 };

/* What an engine can do beyond moving bytes, so that the core asks the engine instead of
 * naming it: the job checks (job.c, job/trim.c, job/files.c, options/parse_sched.c) and the
 * report (cli/io_output.c) read these. */
enum {
    SB_ENGINE_REGISTERS = 1u << 0, /* registers files and buffers (registerfiles, fixedbufs) */
    SB_ENGINE_PRIO = 1u << 1,      /* gives each I/O its own priority (cmdprio) */
    SB_ENGINE_MAPS = 1u << 2,      /* maps each file: no trim, no direct I/O (a warning) */
    SB_ENGINE_RING = 1u << 3,      /* a submission ring: sqthread_poll, nowait, hipri (io_uring) */
    SB_ENGINE_RWF = 1u << 4,       /* per-call RWF_ flags: nowait, hipri (pvsync2) */
    SB_ENGINE_ALLOCATES = 1u << 5, /* a read changes the file too (falloc): opened read-write */
    SB_ENGINE_WRITES_ONLY = 1u << 6, /* has no read (ftruncate): a job that reads is refused */
    SB_ENGINE_NO_DATA = 1u << 7,   /* moves no data (falloc, ftruncate): nothing to verify */
    /* fio's file and directory op engines: no I/O; the job times one file_op per file of the
     * thread (io/loop/fileops.c) and opens nothing */
    SB_ENGINE_FILE_OPS = 1u << 8,
    SB_ENGINE_MAKES_FILES = 1u << 9, /* the op makes the file (filecreate, dircreate): none before */
    SB_ENGINE_DIRS = 1u << 10,     /* the files are directories, made before the run (dirstat, dirdelete) */
    SB_ENGINE_SCSI = 1u << 11,     /* SCSI commands (sg): the file must be /dev/sgN or a SCSI disk */
};

typedef struct sb_engine_ops {
    const char *name;
    const char *const *aliases; /* fio's other spellings, NULL-terminated; or NULL */
    /* fio's engine options it reads (fio --enghelp=NAME), NULL-terminated; or NULL. Another
     * engine's option set in a job is refused (io/job/engine_opts.c) */
    const char *const *options;
    unsigned rank;              /* where it comes in lists ("engines that work here") */
    unsigned caps;              /* SB_ENGINE_* */
    const char *description;
    bool sync;             /* completes at queue(); iodepth is 1 */
    /* Every use of td->fd is a syscall of the worker thread itself (no helper thread
     * gets the descriptor's number), so the worker may give itself a descriptor table
     * of its own (loop.c). Not posixaio: glibc's AIO threads outlive a job and serve
     * the next one with whatever table they were created in. */
    bool fd_own_thread;
    /* 0 when this kernel/library can run the engine, else -errno (cheap, no files). */
    int (*probe)(void);
    int (*init)(sb_engine_td *td);
    int (*queue)(sb_engine_td *td, sb_io_u *u);
    int (*commit)(sb_engine_td *td);
    int (*getevents)(sb_engine_td *td, unsigned min, unsigned max, sb_io_u **out);
    int (*fsync)(sb_engine_td *td);
    void (*cleanup)(sb_engine_td *td);
    /* SB_ENGINE_FILE_OPS: the one timed operation on the file or directory path; 0 or -errno */
    int (*file_op)(sb_engine_td *td, const char *path);
} sb_engine_ops;

/* Each engine (one file of io/engines/) registers its ops table with this line at file
 * scope; the core finds it by name and never names an engine. The pointers are gathered by
 * the linker into one section, so the engine objects are linked into every program
 * directly (the Makefile's ENGINE_OBJS), never left in the archive. */
#define SB_ENGINE_REGISTER(ops)                                                              \
    static const sb_engine_ops *const sb_engine_reg_##ops                                  \
        __attribute__((used, section("sb_engines"), aligned(sizeof(void *)))) = &ops

/* The engines' own ops tables, for the tests that drive one engine directly. */
extern const sb_engine_ops sb_engine_sync, sb_engine_psync, sb_engine_posixaio,
    sb_engine_libaio, sb_engine_io_uring, sb_engine_mmap, sb_engine_pvsync, sb_engine_pvsync2,
    sb_engine_null;

/* By name or alias; NULL when unknown. */
const sb_engine_ops *sb_engine_find(const char *name);
/* The registered engines, in rank order. */
size_t sb_engine_count(void);
const sb_engine_ops *sb_engine_at(size_t i);
/* Whether the engine called name has every capability of caps (false when unknown). */
bool sb_engine_can(const char *name, unsigned caps);
/* "psync, sync, posixaio, libaio, io_uring, mmap" restricted to those whose probe passes. */
void sb_engine_list_working(char *buf, size_t len);
/* 0 when this kernel can run ops (its probe passes), else its -errno with "<prefix>I/O
 * engine NAME does not work on this kernel (why); engines that work here: ..." in err:
 * the one refusal every caller of the engine (worker, fio, diskmark) gives. */
int sb_engine_check_works(const sb_engine_ops *ops, const char *prefix, char *err, size_t errlen);

/* fsync(td->fd), or fdatasync when td->datasync: the fsync op of every engine but mmap. */
int sb_engine_fsync_fd(sb_engine_td *td);
/* The init of an engine that keeps nothing per thread, and the cleanup of one whose init
 * keeps one allocation in td->data, or nothing (data NULL): free it. */
int sb_engine_init_none(sb_engine_td *td);
void sb_engine_cleanup_free(sb_engine_td *td);
/* filestat's and dirstat's op: the stat call the job's stat_type names (job.h's SB_STAT_*:
 * 1 stat, 2 lstat, 3 statx) of path. */
int sb_engine_stat_path(int type, const char *path);

#endif
