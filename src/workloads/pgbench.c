/*
 * pgbench — the seed's "PostgreSQL pgbench" test, with storbench as the
 * client. A private cluster (pg_cluster.c) is created and started in the
 * run's directory; this file loads the TPC-B tables through libpq (COPY, as
 * `pgbench -i` does: drop, create, generate, vacuum, primary keys), then runs
 * N client connections from M threads for the duration. Each thread drives
 * its connections asynchronously (one statement in flight per connection,
 * poll() over their sockets), sending pgbench 15's built-in script in its
 * query mode (simple by default, as pgbench; extended; prepared), and a
 * connection that sees the deadline does not start another transaction. The
 * figure is committed transactions per second, timed from the moment every
 * connection is open (excluding connection setup) until the last one
 * finished; each transaction's latency feeds a histogram.
 *
 * The server's settings are recorded as secondary figures ("pg_*"). After a
 * Read Write run the rows of pgbench_history are counted: one per committed
 * transaction, or the run fails. The cluster is stopped and removed before
 * run() returns, on success, on error and on interrupt.
 */
#include <errno.h>
#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/histogram.h"
#include "core/rand.h"
#include "workloads/pg_cluster.h"
#include "workloads/workload.h"

static const sb_choice scaling_choices[] = {
    {"buffer", "Buffer"},
    {"mostly-ram", "Mostly RAM"},
    {"on-disk", "On-Disk"},
    {NULL, NULL},
};

static const sb_choice test_choices[] = {
    {"single", "Single Thread"},
    {"normal", "Normal Load"},
    {"heavy", "Heavy Contention"},
    {NULL, NULL},
};

static const sb_choice mode_choices[] = {
    {"rw", "Read Write"},
    {"ro", "Read Only"},
    {NULL, NULL},
};

static const sb_choice query_choices[] = {
    {"simple", "Simple"},
    {"extended", "Extended"},
    {"prepared", "Prepared"},
    {NULL, NULL},
};

/* The seed profile ran pgbench without -M, i.e. the simple protocol; the query mode is
 * shown in the option line only when it differs, so the seed's line stays as printed. */
static const sb_option pgbench_options[] = {
    {"scaling", "Scaling", "on-disk", NULL, scaling_choices,
     "scale from RAM: buffer = MB x 0.003, mostly-ram = x 0.03, on-disk = x 0.3", 0},
    {"test", "Test", "normal", NULL, test_choices,
     "single: 1 client; normal: 4N clients, N threads; heavy: 32N clients, 2N threads (N = CPUs)", 0},
    {"mode", "Mode", "rw", NULL, mode_choices,
     "rw: TPC-B-like transaction; ro: select only", 0},
    {"query-mode", "Query Mode", "simple", NULL, query_choices,
     "as pgbench -M: simple (SQL text with the values, pgbench's default), extended "
     "(parameters, parsed each time), prepared (parsed once per connection)", SB_OPT_IF_CHANGED},
    {"scale", "Scale", "auto", "1", NULL,
     "explicit scaling factor (100,000 accounts each); auto = from Scaling", SB_OPT_HIDDEN},
    {"duration", "Duration", "60", "3", NULL, "measured time per run", SB_OPT_HIDDEN},
    {"clients", "Clients", "auto", NULL, NULL, "client connections; auto = from Test", SB_OPT_HIDDEN},
    {"threads", "Threads", "auto", NULL, NULL, "client threads; auto = from Test", SB_OPT_HIDDEN},
};

static const sb_measure pgbench_measures[] = {
    {NULL, "TPS", SB_HIGHER_IS_BETTER},
};

/* ---- parameters ---- */

typedef enum pgb_qmode { QM_SIMPLE, QM_EXTENDED, QM_PREPARED } pgb_qmode;

typedef struct pgb_params {
    uint64_t scale;
    uint64_t clients, threads;
    double duration;
    bool read_only;
    pgb_qmode qmode;
} pgb_params;

static uint64_t ram_mb(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || psize <= 0)
        return 1024;
    return (uint64_t)pages * (uint64_t)psize / (1024 * 1024);
}

static uint64_t auto_scale(const char *scaling)
{
    double f = !strcmp(scaling, "buffer") ? 0.003 : !strcmp(scaling, "mostly-ram") ? 0.03 : 0.3;
    uint64_t s = (uint64_t)((double)ram_mb() * f);
    return s ? s : 1;
}

static int get_params(const sb_config *cfg, pgb_params *p, char *err, size_t errlen)
{
    int rc;
    const char *v = sb_config_get(cfg, "scale");
    if (!strcmp(v, "auto"))
        p->scale = auto_scale(sb_config_get(cfg, "scaling"));
    else if ((rc = sb_config_uint(cfg, "scale", 1, 1000000, &p->scale, err, errlen)) < 0)
        return rc;
    if ((rc = sb_config_duration(cfg, "duration", &p->duration, err, errlen)) < 0)
        return rc;
    if (p->duration <= 0) {
        snprintf(err, errlen, "pgbench: duration must be positive");
        return -EINVAL;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t n = cpus > 0 ? (uint64_t)cpus : 1;
    const char *test = sb_config_get(cfg, "test");
    if (!strcmp(test, "single")) {
        p->clients = 1;
        p->threads = 1;
    } else if (!strcmp(test, "heavy")) {
        p->clients = 32 * n;
        p->threads = 2 * n;
    } else {
        p->clients = 4 * n;
        p->threads = n;
    }
    if (strcmp(sb_config_get(cfg, "clients"), "auto") &&
        (rc = sb_config_uint(cfg, "clients", 1, 10000, &p->clients, err, errlen)) < 0)
        return rc;
    if (strcmp(sb_config_get(cfg, "threads"), "auto") &&
        (rc = sb_config_uint(cfg, "threads", 1, 1024, &p->threads, err, errlen)) < 0)
        return rc;
    if (p->threads > p->clients)
        p->threads = p->clients;
    p->read_only = !strcmp(sb_config_get(cfg, "mode"), "ro");
    const char *qm = sb_config_get(cfg, "query-mode");
    p->qmode = !strcmp(qm, "prepared") ? QM_PREPARED : !strcmp(qm, "extended") ? QM_EXTENDED
                                                                              : QM_SIMPLE;
    return 0;
}

/* ---- small libpq helpers ---- */

static void quiet_notice(void *arg, const char *msg) { (void)arg; (void)msg; }

static PGconn *connect_db(const sb_pg_cluster *cl, const char *db, char *err, size_t errlen)
{
    char ci[1400];
    sb_pg_cluster_conninfo(cl, db, ci, sizeof ci);
    PGconn *c = PQconnectdb(ci);
    if (!c || PQstatus(c) != CONNECTION_OK) {
        snprintf(err, errlen, "pgbench: cannot connect to the server: %s",
                 c ? PQerrorMessage(c) : "out of memory");
        err[strcspn(err, "\n")] = '\0';
        PQfinish(c);
        return NULL;
    }
    PQsetNoticeProcessor(c, quiet_notice, NULL);
    return c;
}

/* Runs one command; 0, or -EIO with the server's message in err. */
static int exec_cmd(PGconn *c, const char *sql, char *err, size_t errlen)
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
static int exec_interruptible(PGconn *c, sb_run_ctx *ctx, const char *sql)
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

static int load_tables(PGconn *c, sb_run_ctx *ctx, const pgb_params *p, double weight,
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
        if ((rc = exec_interruptible(c, ctx, ddl[i])) < 0)
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
        if ((rc = exec_interruptible(c, ctx, post[i])) < 0)
            return rc;
        sb_ctx_progress(ctx, weight * (0.8 + 0.2 * (double)(i + 1) / (sizeof post / sizeof post[0])));
    }
    return 0;
}

/* The server settings that shape the result, as "pg_<name>" figures. */
static void record_settings(PGconn *c, sb_sample *s)
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

/* ---- the benchmark ---- */

/* pgbench 15's built-in scripts, statement by statement as pgbench sends them (one at a
 * time, each ending in its semicolon); :name is a variable drawn per transaction:
 * aid uniform in 1..100000 x scale, bid in 1..scale, tid in 1..10 x scale, delta in
 * -5000..5000. Simple mode puts the values into the text; extended and prepared mode
 * replace each :name by $1, $2 ... in order and send the values as parameters. */
enum { V_AID, V_BID, V_TID, V_DELTA, N_VARS };
static const char *const var_names[N_VARS] = {"aid", "bid", "tid", "delta"};

enum { RW_STEPS = 7 };
static const char *const tpcb_script[RW_STEPS] = {
    "BEGIN;",
    "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;",
    "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;",
    "UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;",
    "UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;",
    "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) "
    "VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);",
    "END;",
};
static const char *const select_only_script[1] = {
    "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;",
};

enum { MAX_PARAMS = 8, SQL_MAX = 256 };

/* One statement of the script in the forms the query modes send. */
typedef struct pgb_stmt {
    const char *text;         /* with :name variables (simple mode expands it) */
    char param_sql[SQL_MAX];  /* with $n parameters (extended, prepared) */
    int nparams;
    int param_var[MAX_PARAMS]; /* variable of $1, $2 ... */
} pgb_stmt;

/* The variable named at s (after a ':'), or -1; *len gets the name's length. */
static int var_at(const char *s, size_t *len)
{
    for (int v = 0; v < N_VARS; v++) {
        size_t n = strlen(var_names[v]);
        if (!strncmp(s, var_names[v], n) && !(s[n] == '_' || (s[n] >= 'a' && s[n] <= 'z') ||
                                               (s[n] >= '0' && s[n] <= '9'))) {
            *len = n;
            return v;
        }
    }
    return -1;
}

/* Writes tmpl with every variable replaced: by its value (vals != NULL) or by $n
 * (recording in st which variable each parameter is). Returns the length, or -1 when it
 * does not fit (a programming error: the scripts are fixed). */
static int expand(const char *tmpl, const char (*vals)[24], char *out, size_t len,
                  pgb_stmt *st)
{
    size_t o = 0;
    for (const char *p = tmpl; *p;) {
        size_t n;
        int v = p[0] == ':' ? var_at(p + 1, &n) : -1;
        char num[16];
        const char *put;
        size_t plen;
        if (v < 0) {
            put = p;
            plen = 1;
            p++;
        } else {
            if (vals) {
                put = vals[v];
            } else {
                if (st->nparams == MAX_PARAMS)
                    return -1;
                st->param_var[st->nparams++] = v;
                snprintf(num, sizeof num, "$%d", st->nparams);
                put = num;
            }
            plen = strlen(put);
            p += 1 + n;
        }
        if (o + plen >= len)
            return -1;
        memcpy(out + o, put, plen);
        o += plen;
    }
    out[o] = '\0';
    return (int)o;
}

static int compile_script(const pgb_params *p, pgb_stmt *stmts)
{
    const char *const *script = p->read_only ? select_only_script : tpcb_script;
    int n = p->read_only ? 1 : RW_STEPS;
    for (int i = 0; i < n; i++) {
        memset(&stmts[i], 0, sizeof stmts[i]);
        stmts[i].text = script[i];
        if (expand(script[i], NULL, stmts[i].param_sql, sizeof stmts[i].param_sql,
                   &stmts[i]) < 0)
            return -EINVAL;
    }
    return n;
}

typedef struct pgb_client {
    PGconn *conn;
    int step;            /* next statement of the transaction */
    bool busy;           /* a statement is in flight */
    bool done;
    uint64_t t0;         /* transaction start */
    char vals[N_VARS][24]; /* this transaction's variables, as text */
    char sql[SQL_MAX];   /* simple mode: the statement with its values */
} pgb_client;

typedef struct pgb_shared {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    unsigned ready;
    bool go;
    uint64_t start_ns, end_ns;  /* start line; no new transaction at/after end_ns */
    atomic_bool stop;
} pgb_shared;

typedef struct pgb_thread {
    pthread_t thread;
    bool started;
    pgb_shared *sh;
    const pgb_params *p;
    const pgb_stmt *stmts; /* the script, compiled */
    int nstmts;
    pgb_client *clients;
    size_t n;
    uint64_t seed;
    uint64_t committed;
    uint64_t finish_ns;
    uint64_t cpu_ns;     /* CPU time this client thread used in the measured part */
    sb_histogram hist;
    int rc;
    char err[400];
} pgb_thread;

static int send_step(pgb_thread *t, pgb_client *c)
{
    const pgb_stmt *st = &t->stmts[c->step];
    const char *params[MAX_PARAMS];
    for (int i = 0; i < st->nparams; i++)
        params[i] = c->vals[st->param_var[i]];
    int ok;
    switch (t->p->qmode) {
    case QM_SIMPLE:
        if (expand(st->text, (const char (*)[24])c->vals, c->sql, sizeof c->sql, NULL) < 0) {
            snprintf(t->err, sizeof t->err, "pgbench: statement too long: %s", st->text);
            return -EINVAL;
        }
        ok = PQsendQuery(c->conn, c->sql);
        break;
    case QM_EXTENDED:
        ok = PQsendQueryParams(c->conn, st->param_sql, st->nparams, NULL,
                               st->nparams ? params : NULL, NULL, NULL, 0);
        break;
    default: {
        char name[16];
        snprintf(name, sizeof name, "P%d", c->step);
        ok = PQsendQueryPrepared(c->conn, name, st->nparams, st->nparams ? params : NULL,
                                 NULL, NULL, 0);
        break;
    }
    }
    if (!ok) {
        snprintf(t->err, sizeof t->err, "pgbench: send: %s", PQerrorMessage(c->conn));
        t->err[strcspn(t->err, "\n")] = '\0';
        return -EIO;
    }
    c->busy = true;
    return 0;
}

static int start_xact(pgb_thread *t, pgb_client *c, sb_rand *r)
{
    uint64_t s = t->p->scale;
    c->step = 0;
    c->t0 = sb_now_ns();
    snprintf(c->vals[V_AID], sizeof c->vals[V_AID], "%llu",
             (unsigned long long)(1 + sb_rand_below(r, 100000 * s)));
    if (!t->p->read_only) { /* select-only needs only aid */
        snprintf(c->vals[V_BID], sizeof c->vals[V_BID], "%llu",
                 (unsigned long long)(1 + sb_rand_below(r, s)));
        snprintf(c->vals[V_TID], sizeof c->vals[V_TID], "%llu",
                 (unsigned long long)(1 + sb_rand_below(r, 10 * s)));
        snprintf(c->vals[V_DELTA], sizeof c->vals[V_DELTA], "%lld",
                 (long long)sb_rand_below(r, 10001) - 5000);
    }
    return send_step(t, c);
}

/* Collects what arrived for c; sends its next statement when one finished. */
static int advance(pgb_thread *t, pgb_client *c)
{
    if (!PQconsumeInput(c->conn)) {
        snprintf(t->err, sizeof t->err, "pgbench: %s", PQerrorMessage(c->conn));
        t->err[strcspn(t->err, "\n")] = '\0';
        return -EIO;
    }
    while (!PQisBusy(c->conn)) {
        PGresult *r = PQgetResult(c->conn);
        if (!r) {
            /* The statement is complete. */
            c->busy = false;
            if (c->step == t->nstmts - 1) {
                sb_hist_record(&t->hist, sb_now_ns() - c->t0);
                t->committed++;
                return 0;
            }
            c->step++;
            return send_step(t, c);
        }
        ExecStatusType st = PQresultStatus(r);
        if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
            snprintf(t->err, sizeof t->err, "pgbench: %s", PQresultErrorMessage(r));
            t->err[strcspn(t->err, "\n")] = '\0';
            PQclear(r);
            return -EIO;
        }
        PQclear(r);
    }
    return 0;
}

static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int thread_loop(pgb_thread *t)
{
    pgb_shared *sh = t->sh;
    uint64_t cpu0 = thread_cpu_ns();
    sb_rand r;
    sb_rand_seed(&r, t->seed);
    struct pollfd *pfd = calloc(t->n, sizeof *pfd);
    size_t *who = calloc(t->n, sizeof *who);
    if (!pfd || !who) {
        free(pfd);
        free(who);
        snprintf(t->err, sizeof t->err, "pgbench: out of memory");
        return -ENOMEM;
    }
    int rc = 0;
    for (;;) {
        if (atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
            rc = -EINTR;
            break;
        }
        uint64_t now = sb_now_ns();
        size_t np = 0;
        for (size_t i = 0; i < t->n; i++) {
            pgb_client *c = &t->clients[i];
            if (!c->busy && !c->done) {
                if (now >= sh->end_ns)
                    c->done = true;
                else if ((rc = start_xact(t, c, &r)) < 0)
                    goto out;
            }
            if (c->busy) {
                pfd[np].fd = PQsocket(c->conn);
                pfd[np].events = POLLIN;
                who[np++] = i;
            }
        }
        if (np == 0)
            break;
        int k = poll(pfd, np, 100);
        if (k < 0 && errno != EINTR) {
            rc = -errno;
            snprintf(t->err, sizeof t->err, "pgbench: poll: %s", strerror(errno));
            goto out;
        }
        for (size_t j = 0; k > 0 && j < np; j++) {
            if (!pfd[j].revents)
                continue;
            if ((rc = advance(t, &t->clients[who[j]])) < 0)
                goto out;
        }
    }
out:
    t->finish_ns = sb_now_ns();
    t->cpu_ns = thread_cpu_ns() - cpu0;
    free(pfd);
    free(who);
    if (rc < 0 && rc != -EINTR)
        atomic_store(&sh->stop, true);
    return rc;
}

static void *bench_thread(void *arg)
{
    pgb_thread *t = arg;
    pgb_shared *sh = t->sh;
    pthread_mutex_lock(&sh->lock);
    sh->ready++;
    pthread_cond_broadcast(&sh->cond);
    while (!sh->go)
        pthread_cond_wait(&sh->cond, &sh->lock);
    pthread_mutex_unlock(&sh->lock);
    t->rc = thread_loop(t);
    return NULL;
}

/* Prepared mode: every statement of the script, named P0, P1 ... as pgbench does. */
static int prepare_all(PGconn *c, const pgb_stmt *stmts, int n, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "P%d", i);
        PGresult *r = PQprepare(c, name, stmts[i].param_sql, 0, NULL);
        int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        if (!ok) {
            snprintf(err, errlen, "pgbench: prepare: %s", PQerrorMessage(c));
            err[strcspn(err, "\n")] = '\0';
        }
        PQclear(r);
        if (!ok)
            return -EIO;
    }
    return 0;
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int bench(sb_run_ctx *ctx, const sb_pg_cluster *cl, const pgb_params *p, double weight,
                 sb_sample *s)
{
    int rc = 0;
    pgb_client *clients = calloc(p->clients, sizeof *clients);
    pgb_thread *th = calloc(p->threads, sizeof *th);
    pgb_shared sh;
    memset(&sh, 0, sizeof sh);
    pthread_mutex_init(&sh.lock, NULL);
    pthread_cond_init(&sh.cond, NULL);
    atomic_init(&sh.stop, false);
    if (!clients || !th) {
        rc = sb_ctx_fail(ctx, ENOMEM, "pgbench: out of memory");
        goto out;
    }
    pgb_stmt stmts[RW_STEPS];
    int nstmts = compile_script(p, stmts);
    if (nstmts < 0) {
        rc = sb_ctx_fail(ctx, EINVAL, "pgbench: a script statement does not fit");
        goto out;
    }
    /* Connection setup is not measured: connect (and in prepared mode prepare) first. */
    for (uint64_t i = 0; i < p->clients; i++) {
        if (sb_ctx_interrupted(ctx)) {
            rc = sb_ctx_fail(ctx, EINTR, "pgbench: interrupted");
            goto out;
        }
        clients[i].conn = connect_db(cl, "pgbench", ctx->err, sizeof ctx->err);
        if (!clients[i].conn) {
            rc = -EIO;
            goto out;
        }
        if (p->qmode == QM_PREPARED &&
            (rc = prepare_all(clients[i].conn, stmts, nstmts, ctx->err, sizeof ctx->err)) < 0)
            goto out;
    }
    /* Clients are dealt to threads in contiguous blocks, as pgbench does. */
    for (uint64_t i = 0, first = 0; i < p->threads; i++) {
        pgb_thread *t = &th[i];
        size_t n = (size_t)(p->clients / p->threads + (i < p->clients % p->threads));
        t->sh = &sh;
        t->p = p;
        t->stmts = stmts;
        t->nstmts = nstmts;
        t->clients = &clients[first];
        t->n = n;
        t->seed = 0x9b00000000ull + ctx->run_index * 4096u + i;
        sb_hist_init(&t->hist);
        first += n;
    }
    for (uint64_t i = 0; i < p->threads; i++) {
        int e = pthread_create(&th[i].thread, NULL, bench_thread, &th[i]);
        if (e) {
            rc = sb_ctx_fail(ctx, e, "pgbench: cannot start thread: %s", strerror(e));
            atomic_store(&sh.stop, true);
            break;
        }
        th[i].started = true;
    }
    unsigned started = 0;
    for (uint64_t i = 0; i < p->threads; i++)
        started += th[i].started;
    pthread_mutex_lock(&sh.lock);
    while (sh.ready < started)
        pthread_cond_wait(&sh.cond, &sh.lock);
    sh.start_ns = sb_now_ns();
    sh.end_ns = sh.start_ns + (uint64_t)(p->duration * 1e9);
    sh.go = true;
    pthread_cond_broadcast(&sh.cond);
    pthread_mutex_unlock(&sh.lock);

    for (;;) {
        uint64_t now = sb_now_ns();
        double f = (double)(now - sh.start_ns) / (p->duration * 1e9);
        sb_ctx_progress(ctx, weight + (1 - weight) * (f < 1 ? f : 1));
        if (sb_ctx_interrupted(ctx))
            atomic_store(&sh.stop, true);
        if (atomic_load(&sh.stop) || now >= sh.end_ns)
            break;
        sleep_ms(50);
    }
    uint64_t finish = sh.start_ns;
    for (uint64_t i = 0; i < p->threads; i++) {
        if (!th[i].started)
            continue;
        pthread_join(th[i].thread, NULL);
        if (th[i].finish_ns > finish)
            finish = th[i].finish_ns;
    }
    if (rc < 0)
        goto out;
    if (sb_ctx_interrupted(ctx)) {
        rc = sb_ctx_fail(ctx, EINTR, "pgbench: interrupted");
        goto out;
    }
    uint64_t committed = 0, cpu_ns = 0;
    for (uint64_t i = 0; i < p->threads; i++) {
        if (th[i].rc < 0 && th[i].rc != -EINTR) {
            rc = sb_ctx_fail(ctx, -th[i].rc, "%s", th[i].err);
            goto out;
        }
        committed += th[i].committed;
        cpu_ns += th[i].cpu_ns;
        if (i)
            sb_hist_merge(&th[0].hist, &th[i].hist);
    }
    double seconds = (double)(finish - sh.start_ns) / 1e9;
    s->value = (double)committed / seconds;
    s->seconds = seconds;
    sb_sample_add(s, "transactions", "", (double)committed);
    /* The client's own CPU per transaction: on a CPU-bound target (tmpfs) it competes
     * with the server for the same cores, so a cheaper client reports more TPS. */
    if (committed)
        sb_sample_add(s, "client_cpu_per_tx", "us", (double)cpu_ns / 1e3 / (double)committed);
    sb_sample_add_latency(s, "lat", &th[0].hist);
out:
    for (uint64_t i = 0; clients && i < p->clients; i++)
        PQfinish(clients[i].conn);
    free(clients);
    free(th);
    pthread_cond_destroy(&sh.cond);
    pthread_mutex_destroy(&sh.lock);
    return rc;
}

/* After a Read Write run every committed transaction left one history row, and the deltas
 * it added to its teller and its branch are the ones it recorded in the history (the
 * TPC-B balance rule; the accounts are not summed, a full scan at large scales). */
static int check_history(PGconn *c, sb_run_ctx *ctx, sb_sample *s)
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

static bool ctx_stop(void *arg) { return sb_ctx_interrupted(arg); }

static int pgbench_run(sb_run_ctx *ctx, sb_sample *samples)
{
    pgb_params p;
    sb_sample *s = &samples[0];
    int rc = get_params(ctx->cfg, &p, ctx->err, sizeof ctx->err);
    if (rc < 0)
        return rc;

    sb_pg_cluster cl;
    PGconn *c = NULL;
    rc = sb_pg_cluster_create(&cl, ctx->dir, ctx->err, sizeof ctx->err);
    if (rc < 0)
        goto out;

    char maxconn[48];
    snprintf(maxconn, sizeof maxconn, "max_connections=%llu",
             (unsigned long long)(p.clients + 10 > 100 ? p.clients + 10 : 100));
    const char *settings[] = {"autovacuum=off", maxconn, NULL};
    rc = sb_pg_cluster_start(&cl, settings, ctx_stop, ctx, ctx->err, sizeof ctx->err);
    if (rc < 0)
        goto out;

    c = connect_db(&cl, "postgres", ctx->err, sizeof ctx->err);
    if (!c) {
        rc = -EIO;
        goto out;
    }
    if ((rc = exec_cmd(c, "CREATE DATABASE pgbench", ctx->err, sizeof ctx->err)) < 0)
        goto out;
    PQfinish(c);
    c = connect_db(&cl, "pgbench", ctx->err, sizeof ctx->err);
    if (!c) {
        rc = -EIO;
        goto out;
    }
    /* The result's title names the server that ran ("15.10 (Debian ...)" -> "15.10"). */
    const char *sv = PQparameterStatus(c, "server_version");
    snprintf(ctx->software, sizeof ctx->software, "PostgreSQL %.*s", sv ? (int)strcspn(sv, " ") : 0,
             sv ? sv : "");

    /* The progress bar: loading's estimated share, then the measured part. */
    double load_s = (double)p.scale * 0.4 + 2;
    double weight = load_s / (load_s + p.duration);
    uint64_t t0 = sb_now_ns();
    if ((rc = load_tables(c, ctx, &p, weight, s)) < 0)
        goto out;
    double loaded_s = (double)(sb_now_ns() - t0) / 1e9;

    /* As pgbench does before its timed part (unless -n, in either mode): vacuum the small
     * tables and empty the history. */
    const char *prerun[] = {"VACUUM pgbench_branches", "VACUUM pgbench_tellers",
                            "TRUNCATE pgbench_history"};
    for (size_t i = 0; i < sizeof prerun / sizeof prerun[0]; i++)
        if ((rc = exec_interruptible(c, ctx, prerun[i])) < 0)
            goto out;
    if ((rc = bench(ctx, &cl, &p, weight, s)) < 0)
        goto out;
    if (!p.read_only && (rc = check_history(c, ctx, s)) < 0)
        goto out;

    sb_sample_add(s, "scale", "", (double)p.scale);
    sb_sample_add(s, "clients", "", (double)p.clients);
    sb_sample_add(s, "threads", "", (double)p.threads);
    sb_sample_add(s, "duration", "s", p.duration);
    sb_sample_add(s, "load_seconds", "s", loaded_s);
    record_settings(c, s);
    s->valid = true;
    rc = 0;
out:
    PQfinish(c);
    /* Stop the server and remove the cluster in every case. */
    int r = sb_pg_cluster_destroy(&cl);
    if (r < 0 && rc == 0)
        rc = sb_ctx_fail(ctx, r, "pgbench: stopping the PostgreSQL server: %s", strerror(-r));
    if (rc < 0)
        s->valid = false;
    return rc;
}

static int pgbench_validate(const sb_config *cfg, char *err, size_t errlen)
{
    pgb_params p;
    return get_params(cfg, &p, err, errlen);
}

static uint64_t pgbench_space_needed(const sb_config *cfg)
{
    pgb_params p;
    char err[256];
    if (get_params(cfg, &p, err, sizeof err) < 0)
        return 0;
    /* ~15 MiB of tables and indexes per scale unit, plus WAL and the
     * cluster's own ~40 MiB. */
    return p.scale * (16ull << 20) + (1ull << 30);
}

static double pgbench_estimate_seconds(const sb_config *cfg)
{
    pgb_params p;
    char err[256];
    if (get_params(cfg, &p, err, sizeof err) < 0)
        return 0;
    return 3 + (double)p.scale * 0.4 + p.duration;
}

const sb_workload sb_wl_pgbench = {
    .name = "pgbench",
    .title = "PostgreSQL pgbench",
    .version = "9.4.3",
    .summary = "TPC-B-like transactions on a private PostgreSQL cluster (TPS)",
    .options = pgbench_options,
    .n_options = sizeof pgbench_options / sizeof pgbench_options[0],
    .measures = pgbench_measures,
    .n_measures = 1,
    .flags = 0,
    .validate = pgbench_validate,
    .space_needed = pgbench_space_needed,
    .estimate_seconds = pgbench_estimate_seconds,
    .run = pgbench_run,
};
