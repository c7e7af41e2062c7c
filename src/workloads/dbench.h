/*
 * dbench (private to the dbench workload) — what dbench.c (options, client threads,
 * phases, figures) and dbench_exec.c (one operation: the client's per-line work and
 * the system calls) share: a client's state and open handles, the state all clients
 * share, and the counters.
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
#include "workloads/dbench_loadfile.h"
#include "workloads/dbench_replay.h"
#include "workloads/workload.h"

#define DB_MAX_HANDLES 256

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

typedef struct db_shared {
    sb_run_ctx *ctx;
    const sb_dbench_script *script;
    const char *dir;
    atomic_int phase;   /* 0 warm-up, 1 measured, 2 stop */
    pthread_mutex_t lock;
    int err;
} db_shared;

typedef struct db_client {
    db_shared *sh;
    unsigned id;
    char root[4200];    /* <dir>/clients/client<id> */
    db_handle handles[DB_MAX_HANDLES];
    char *buf;
    size_t bufsz;
    db_stats stats[2];  /* per phase */
    pthread_t thread;
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
/* Closes every handle the client holds. */
void sb_dbench_close_all(db_client *c);

#endif
