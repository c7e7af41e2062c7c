/*
 * dbench (private to the dbench workload) — what dbench.c (options, phases, figures),
 * dbench_clients.c (the clients as processes or threads, and the memory they share)
 * and dbench_exec.c (one operation: the client's per-line work and the system calls)
 * share: a client's state and open handles, the state all clients share, and the
 * counters. db_shared and every client's db_stats live in one MAP_SHARED mapping, so
 * that clients forked as processes (client=dbench) and threads (client=light) count
 * and stop the same way. Also the test's resolved parameters, whose durations the device
 * lab's time dilation (scenario/lab_dilate.c) stretches through sb_dbench_dilate().
 */
#ifndef SB_WORKLOADS_DBENCH_H
#define SB_WORKLOADS_DBENCH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/histogram.h"
#include "workloads/dbench/dbench_loadfile.h"
#include "workloads/dbench/dbench_replay.h"
#include "workloads/workload.h"

#define DB_MAX_HANDLES 256
#define DB_POLL_MS 50 /* the driver's checks of the clock and the clients */

/* The options resolved (dbench.c). time and warmup are seconds of the guest's clock, and
 * clock_k scales the other durations on it: the driver's DB_POLL_MS, a timestamped
 * loadfile line's time into the loop; 1, or K under --vm-dilate K (sb_dbench_dilate). */
typedef struct db_params {
    uint64_t clients, seed;
    double time, warmup;
    const char *loadfile; /* NULL = built-in */
    bool light;           /* client=light: no per-line client work */
    unsigned clock_k;
} db_params;

/* The device lab's time dilation: the measured time, the warm-up and clock_k ×k in params,
 * a db_params that sb_config_resolve() filled. */
void sb_dbench_dilate(void *params, unsigned k);

typedef struct db_handle {
    int32_t handle; /* -1 = free */
    int fd;
    uint32_t op;    /* the NTCreateX that opened it, for its path */
} db_handle;

typedef struct db_stats {
    uint64_t count[SB_DBENCH_N_VERBS];
    uint64_t max_ns[SB_DBENCH_N_VERBS];
    uint64_t bytes, read_bytes, write_bytes, unexpected, loops;
    sb_histogram hist;
} db_stats;

/* In the shared mapping: what the driver and every client see. script and dir point into
 * the driver's memory, which a forked client has a copy of at the same address. */
typedef struct db_shared {
    const sb_dbench_script *script;
    const char *dir;
    const char *loadfile; /* NULL: the built-in generator's stream (for messages) */
    atomic_int phase;     /* 0 warm-up, 1 measured, 2 stop */
    unsigned clock_k;     /* db_params.clock_k, for the clients' waits */
    pthread_mutex_t lock; /* process-shared: guards err and errmsg */
    int err;              /* the first failure, a negative errno; 0 = none */
    char errmsg[512];     /* its one line, for the driver to hand to the runner */
} db_shared;

typedef struct db_client {
    db_shared *sh;
    unsigned id;
    char root[4200];    /* <dir>/clients/client<id> */
    db_handle handles[DB_MAX_HANDLES];
    char *buf;
    size_t bufsz;
    db_stats *stats;    /* [2], per phase, in the shared mapping */
    pthread_t thread;   /* client=light */
    pid_t pid;          /* client=dbench: its process; 0 once reaped */
    bool replaying;     /* client=dbench with a loadfile: dbench's per-line work */
    pid_t parent;       /* for the per-line check, read once as dbench's client does */
    sb_dbench_replay replay;
} db_client;

/* What one operation did, for the caller to count if it finished in the same phase. */
typedef struct db_outcome {
    uint64_t read_bytes, write_bytes;
    bool unexpected;
} db_outcome;

/* Executes operation idx of the stream. Returns 0 (done, maybe unexpected) or a negative
 * errno that ends the run (already reported through sb_dbench_fail). */
int sb_dbench_exec(db_client *c, const sb_dbench_op *op, uint32_t idx, db_outcome *s);
/* client=dbench: dbench's per-line client work before operation op; *fresh gets the
 * operation's own buffer (ReadX, WriteX) for the caller to put in place and free after.
 * 0 or a negative errno, reported. */
int sb_dbench_line_work(db_client *c, const sb_dbench_op *op, char **fresh);
/* Ends the run with one line "dbench: OP PATH: error" (the first failure wins). */
void sb_dbench_fail(db_client *c, int err, const char *op, const char *path);
/* Ends the run with the line FMT (the first failure wins); err is an errno of either sign. */
void sb_dbench_report(db_shared *sh, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* dbench_clients.c: the shared mapping (db_shared, then n clients' db_stats[2], zeroed,
 * histograms ready) or NULL; and its release. */
db_shared *sb_dbench_shared_map(unsigned n, db_stats **stats);
void sb_dbench_shared_unmap(db_shared *sh, unsigned n);
/* Starts the n clients running fn, as forked processes (procs) or threads. Returns how
 * many started; a failure to start one is reported and stops the others. */
unsigned sb_dbench_start(db_client *cs, unsigned n, bool procs, void *(*fn)(void *));
/* procs: notices a client process that ended before the stop, which ends the run (one
 * line, unless the client reported its own failure). */
void sb_dbench_poll(db_client *cs, unsigned started, bool procs);
/* Waits for every started client to end (after phase 2). */
void sb_dbench_reap(db_client *cs, unsigned started, bool procs);
/* Closes every handle the client holds. */
void sb_dbench_close_all(db_client *c);

#endif
