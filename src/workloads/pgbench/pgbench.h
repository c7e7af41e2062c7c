/*
 * pgbench (private to the pgbench workload) — what its three files share: the
 * parameters of a run (pgbench.c resolves them), the database side
 * (pgbench_db.c: connecting, commands, loading the tables as `pgbench -i` does, the
 * server's settings, the history check) and the benchmark clients
 * (pgbench_client.c).
 */
#ifndef SB_WORKLOADS_PGBENCH_H
#define SB_WORKLOADS_PGBENCH_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workloads/pgbench/pg_cluster.h"
#include "workloads/workload.h"

typedef enum pgb_qmode { QM_SIMPLE, QM_EXTENDED, QM_PREPARED } pgb_qmode;

typedef struct pgb_params {
    uint64_t scale;
    uint64_t clients, threads;
    double duration;
    bool read_only;
    pgb_qmode qmode;
} pgb_params;

/* ---- pgbench_db.c ---- */
/* A connection to database db of the cluster; NULL with one line in err. */
PGconn *sb_pgbench_connect(const sb_pg_cluster *cl, const char *db, char *err, size_t errlen);
/* Runs one command; 0, or -EIO with the server's message in err. */
int sb_pgbench_exec(PGconn *c, const char *sql, char *err, size_t errlen);
/* Runs one command that may take minutes (VACUUM, index builds), cancelled on Ctrl-C.
 * 0, -EINTR, or -EIO with the server's message in ctx->err. */
int sb_pgbench_exec_interruptible(PGconn *c, sb_run_ctx *ctx, const char *sql);
/* Creates and fills the TPC-B tables (pgbench -i); weight is loading's share of the
 * progress bar. Row counts become figures of s. */
int sb_pgbench_load(PGconn *c, sb_run_ctx *ctx, const pgb_params *p, double weight, sb_sample *s);
/* The server settings that shape the result, as "pg_<name>" figures. */
void sb_pgbench_record_settings(PGconn *c, sb_sample *s);
/* After a Read Write run: one history row per committed transaction, balances agree. */
int sb_pgbench_check_history(PGconn *c, sb_run_ctx *ctx, sb_sample *s);

/* ---- pgbench_client.c ---- */
/* The measured part: p->clients connections from p->threads threads for p->duration;
 * transactions per second into s. */
int sb_pgbench_bench(sb_run_ctx *ctx, const sb_pg_cluster *cl, const pgb_params *p, double weight,
                     sb_sample *s);

#endif
