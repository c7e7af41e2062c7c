/*
 * pgbench_db — the database side of the pgbench workload: connecting to the private
 * cluster, running commands (the long ones interruptible), loading the TPC-B tables
 * as `pgbench -i` does (drop, create, COPY the generated rows, vacuum, primary keys),
 * recording the server's settings, and the check after a Read Write run that every
 * committed transaction left its history row and balances that agree.
 */
#include <errno.h>
#include <libpq-fe.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/pgbench/pgbench.h"

/* ---- small libpq helpers ---- */

static void quiet_notice(void *arg, const char *msg) { (void)arg; (void)msg; }

PGconn *sb_pgbench_connect(const sb_pg_cluster *cl, const char *db, char *err, size_t errlen)
{
    char ci[1400];
    sb_pg_cluster_conninfo(cl, db, ci, sizeof ci);
    PGconn *c = PQconnectdb(ci);
    if (!c || PQstatus(c) != CONNECTION_OK) {
        /* a server that finds its disk full says so in its own words ("could not write
         * init file"): the cause is named first when the cluster's filesystem is full */
        char full[1400];
        sb_pg_full_note(cl->root, full, sizeof full);
        snprintf(err, errlen, "pgbench: cannot connect to the server: %s%s%s", full, full[0] ? "; " : "",
                 c ? PQerrorMessage(c) : "out of memory");
        err[strcspn(err, "\n")] = '\0';
        PQfinish(c);
        return NULL;
    }
    PQsetNoticeProcessor(c, quiet_notice, NULL);
    return c;
}

/* Runs one command; 0, or -EIO with the server's message in err. */
int sb_pgbench_exec(PGconn *c, const char *sql, char *err, size_t errlen)
{
    PGresult *r = PQexec(c, sql);
    ExecStatusType st = PQresultStatus(r);
    int rc = 0;
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        snprintf(err, errlen, "pgbench: %.60s: %s", sql, PQerrorMessage(c));
        err[strcspn(err, "\n")] = '\0';
        rc = -EIO;
    }
    PQclear(r);
    return rc;
}

/* Runs one command that may take minutes at a large scale (VACUUM, index
 * builds) without blocking Ctrl-C: on interrupt the server is asked to cancel
 * it. 0, -EINTR, or -EIO with the server's message in ctx->err. */
int sb_pgbench_exec_interruptible(PGconn *c, sb_run_ctx *ctx, const char *sql)
{
    if (!PQsendQuery(c, sql))
        goto fail;
    bool cancelled = false;
    for (;;) {
        if (!PQconsumeInput(c))
            goto fail;
        if (!PQisBusy(c))
            break;
        struct pollfd pfd = {PQsocket(c), POLLIN, 0};
        poll(&pfd, 1, 100);
        if (!cancelled && sb_ctx_interrupted(ctx)) {
            char e[256];
            PGcancel *k = PQgetCancel(c);
            if (k) {
                PQcancel(k, e, sizeof e);
                PQfreeCancel(k);
            }
            cancelled = true;
        }
    }
    int rc = 0;
    PGresult *r;
    while ((r = PQgetResult(c))) {
        ExecStatusType st = PQresultStatus(r);
        if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK && rc == 0) {
            snprintf(ctx->err, sizeof ctx->err, "pgbench: %.60s: %s", sql,
                     PQresultErrorMessage(r));
            ctx->err[strcspn(ctx->err, "\n")] = '\0';
            rc = -EIO;
        }
        PQclear(r);
    }
    if (cancelled || sb_ctx_interrupted(ctx))
        return sb_ctx_fail(ctx, EINTR, "pgbench: interrupted");
    return rc;
fail:
    snprintf(ctx->err, sizeof ctx->err, "pgbench: %.60s: %s", sql, PQerrorMessage(c));
    ctx->err[strcspn(ctx->err, "\n")] = '\0';
    return -EIO;
}

/* ---- loading (pgbench -i) ---- */

typedef struct pgb_load {
    sb_run_ctx *ctx;
    double weight;        /* share of the run's progress bar */
    uint64_t rows_total, rows_done;
} pgb_load;

/* COPY table FROM STDIN, n rows made by row(). Returns rows the server
 * reports copied, or a negative errno. */
static int64_t copy_rows(PGconn *c, pgb_load *ld, const char *table, uint64_t n,
                         int (*row)(char *, size_t, uint64_t, uint64_t), uint64_t scale,
                         char *err, size_t errlen)
{
    char sql[128];
    /* FREEZE: the table was truncated in this transaction, as pgbench does. */
    snprintf(sql, sizeof sql, "COPY %s FROM STDIN (FREEZE ON)", table);
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_COPY_IN) {
        snprintf(err, errlen, "pgbench: %s: %s", sql, PQerrorMessage(c));
        err[strcspn(err, "\n")] = '\0';
        PQclear(r);
        return -EIO;
    }
    PQclear(r);
    enum { BUF = 256 * 1024 };
    char *buf = malloc(BUF);
    if (!buf)
        return -ENOMEM;
    size_t used = 0;
    bool aborted = false;
    for (uint64_t i = 0; i < n; i++) {
        used += (size_t)row(buf + used, BUF - used, i, scale);
        if (BUF - used < 128 || i + 1 == n) {
            if (PQputCopyData(c, buf, (int)used) != 1)
                break;
            used = 0;
            if (sb_ctx_interrupted(ld->ctx)) {
                aborted = true;
                break;
            }
        }
        if ((i & 0xffff) == 0) {
            sb_ctx_progress(ld->ctx, ld->weight * 0.8 * (double)(ld->rows_done + i) /
                                         (double)ld->rows_total);
        }
    }
    free(buf);
    ld->rows_done += n;
    PQputCopyEnd(c, aborted ? "interrupted" : NULL);
    int64_t copied = -EIO;
    while ((r = PQgetResult(c))) {
        if (PQresultStatus(r) == PGRES_COMMAND_OK)
            copied = strtoll(PQcmdTuples(r), NULL, 10);
        else if (!aborted) {
            snprintf(err, errlen, "pgbench: COPY %s: %s", table, PQerrorMessage(c));
            err[strcspn(err, "\n")] = '\0';
        }
        PQclear(r);
    }
    if (aborted) {
        snprintf(err, errlen, "pgbench: interrupted");
        return -EINTR;
    }
    if (copied < 0 && !err[0]) {
        snprintf(err, errlen, "pgbench: COPY %s: %s", table, PQerrorMessage(c));
        err[strcspn(err, "\n")] = '\0';
    }
    return copied;
}

static int branch_row(char *b, size_t len, uint64_t i, uint64_t scale)
{
    (void)scale;
    return snprintf(b, len, "%llu\t0\t\n", (unsigned long long)i + 1);
}

static int teller_row(char *b, size_t len, uint64_t i, uint64_t scale)
{
    (void)scale;
    return snprintf(b, len, "%llu\t%llu\t0\t\n", (unsigned long long)i + 1,
                    (unsigned long long)(i / 10 + 1));
}

static int account_row(char *b, size_t len, uint64_t i, uint64_t scale)
{
    (void)scale;
    return snprintf(b, len, "%llu\t%llu\t0\t\n", (unsigned long long)i + 1,
                    (unsigned long long)(i / 100000 + 1));
}

int sb_pgbench_load(PGconn *c, sb_run_ctx *ctx, const pgb_params *p, double weight,
                    sb_sample *s)
{
    char *err = ctx->err;
    size_t errlen = sizeof ctx->err;
    int rc;
    /* Above 2^31 accounts pgbench switches aid to bigint; so do we. */
    const char *aid_type = p->scale >= 20000 ? "bigint" : "int";
    char create[512];
    snprintf(create, sizeof create,
             "CREATE TABLE pgbench_accounts (aid %s NOT NULL, bid int, abalance int, "
             "filler char(84)) WITH (fillfactor=100)", aid_type);
    char history[256];
    snprintf(history, sizeof history,
             "CREATE TABLE pgbench_history (tid int, bid int, aid %s, delta int, "
             "mtime timestamp, filler char(22))", aid_type);
    const char *ddl[] = {
        "DROP TABLE IF EXISTS pgbench_accounts, pgbench_branches, pgbench_history, "
        "pgbench_tellers",
        history,
        "CREATE TABLE pgbench_tellers (tid int NOT NULL, bid int, tbalance int, "
        "filler char(84)) WITH (fillfactor=100)",
        create,
        "CREATE TABLE pgbench_branches (bid int NOT NULL, bbalance int, filler char(88)) "
        "WITH (fillfactor=100)",
        "BEGIN",
        "TRUNCATE TABLE pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers",
    };
    for (size_t i = 0; i < sizeof ddl / sizeof ddl[0]; i++)
        if ((rc = sb_pgbench_exec_interruptible(c, ctx, ddl[i])) < 0)
            return rc;

    pgb_load ld = {ctx, weight, p->scale * (1 + 10 + 100000), 0};
    struct {
        const char *table, *figure;
        uint64_t n;
        int (*row)(char *, size_t, uint64_t, uint64_t);
    } t[] = {
        {"pgbench_branches", "branches_rows", p->scale, branch_row},
        {"pgbench_tellers", "tellers_rows", p->scale * 10, teller_row},
        {"pgbench_accounts", "accounts_rows", p->scale * 100000, account_row},
    };
    for (size_t i = 0; i < 3; i++) {
        int64_t n = copy_rows(c, &ld, t[i].table, t[i].n, t[i].row, p->scale, err, errlen);
        if (n < 0)
            return (int)n;
        if ((uint64_t)n != t[i].n) {
            snprintf(err, errlen, "pgbench: %s: server copied %lld rows of %llu", t[i].table,
                     (long long)n, (unsigned long long)t[i].n);
            return -EIO;
        }
        sb_sample_add(s, t[i].figure, "", (double)n);
    }
    const char *post[] = {
        "COMMIT",
        "VACUUM ANALYZE pgbench_branches",
        "VACUUM ANALYZE pgbench_tellers",
        "VACUUM ANALYZE pgbench_accounts",
        "VACUUM ANALYZE pgbench_history",
        "ALTER TABLE pgbench_branches ADD PRIMARY KEY (bid)",
        "ALTER TABLE pgbench_tellers ADD PRIMARY KEY (tid)",
        "ALTER TABLE pgbench_accounts ADD PRIMARY KEY (aid)",
        "CHECKPOINT",
    };
    for (size_t i = 0; i < sizeof post / sizeof post[0]; i++) {
        if (sb_ctx_interrupted(ctx))
            return sb_ctx_fail(ctx, EINTR, "pgbench: interrupted");
        if ((rc = sb_pgbench_exec_interruptible(c, ctx, post[i])) < 0)
            return rc;
        sb_ctx_progress(ctx, weight * (0.8 + 0.2 * (double)(i + 1) / (sizeof post / sizeof post[0])));
    }
    return 0;
}

/* The server settings that shape the result, as "pg_<name>" figures. */
void sb_pgbench_record_settings(PGconn *c, sb_sample *s)
{
    PGresult *r = PQexec(c,
        "SELECT name, setting, coalesce(unit, '') FROM pg_settings WHERE name IN "
        "('server_version_num', 'shared_buffers', 'max_connections', 'autovacuum', 'fsync', "
        "'synchronous_commit', 'full_page_writes', 'wal_level', 'wal_buffers', "
        "'max_wal_size', 'checkpoint_timeout', 'wal_sync_method') ORDER BY name");
    if (PQresultStatus(r) == PGRES_TUPLES_OK) {
        for (int i = 0; i < PQntuples(r); i++) {
            const char *name = PQgetvalue(r, i, 0), *set = PQgetvalue(r, i, 1);
            const char *unit = PQgetvalue(r, i, 2);
            char fname[32], funit[16] = "";
            double v;
            snprintf(fname, sizeof fname, "pg_%s", name);
            if (!strcmp(set, "on") || !strcmp(set, "off"))
                v = !strcmp(set, "on");
            else if (!strcmp(name, "wal_level"))
                v = !strcmp(set, "minimal") ? 0 : !strcmp(set, "replica") ? 1 : 2;
            else if (!strcmp(name, "wal_sync_method"))
                /* 0 fsync, 1 fdatasync, 2 open_sync, 3 open_datasync, 4 fsync_writethrough */
                v = !strcmp(set, "fsync") ? 0 : !strcmp(set, "fdatasync") ? 1
                  : !strcmp(set, "open_sync") ? 2 : !strcmp(set, "open_datasync") ? 3 : 4;
            else {
                v = atof(set);
                /* Sizes in pages (8kB) or MB become MiB; times stay in s. */
                if (!strcmp(unit, "8kB")) {
                    v = v * 8192 / 1048576;
                    snprintf(funit, sizeof funit, "MiB");
                } else if (!strcmp(unit, "MB")) {
                    snprintf(funit, sizeof funit, "MiB");
                } else if (!strcmp(unit, "s")) {
                    snprintf(funit, sizeof funit, "s");
                }
            }
            sb_sample_add(s, fname, funit, v);
        }
    }
    PQclear(r);
}

/* After a Read Write run every committed transaction left one history row, and the deltas
 * it added to its teller and its branch are the ones it recorded in the history (the
 * TPC-B balance rule; the accounts are not summed, a full scan at large scales). */
int sb_pgbench_check_history(PGconn *c, sb_run_ctx *ctx, sb_sample *s)
{
    PGresult *r = PQexec(c, "SELECT count(*), coalesce(sum(delta), 0), "
                            "(SELECT sum(tbalance) FROM pgbench_tellers), "
                            "(SELECT sum(bbalance) FROM pgbench_branches) FROM pgbench_history");
    int rc = 0;
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        rc = sb_ctx_fail(ctx, EIO, "pgbench: counting history: %s", PQerrorMessage(c));
        ctx->err[strcspn(ctx->err, "\n")] = '\0';
    } else {
        double rows = atof(PQgetvalue(r, 0, 0));
        sb_sample_add(s, "history_rows", "", rows);
        const sb_figure *f = sb_sample_figure(s, "transactions");
        double tx = f ? f->value : 0;
        const char *hsum = PQgetvalue(r, 0, 1), *tsum = PQgetvalue(r, 0, 2);
        const char *bsum = PQgetvalue(r, 0, 3);
        if (rows != tx)
            rc = sb_ctx_fail(ctx, EIO, "pgbench: %.0f transactions committed but %.0f "
                             "history rows found", tx, rows);
        else if (strcmp(hsum, tsum) || strcmp(hsum, bsum))
            rc = sb_ctx_fail(ctx, EIO, "pgbench: balances disagree: history %s, tellers %s, "
                             "branches %s", hsum, tsum, bsum);
    }
    PQclear(r);
    return rc;
}
