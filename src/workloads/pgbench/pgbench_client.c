/*
 * pgbench_client — the measured part of the pgbench workload: N client connections
 * from M threads for the duration. Each thread drives its connections asynchronously
 * (one statement in flight per connection, poll() over their sockets), sending
 * pgbench 15's built-in script in its query mode (simple, extended, prepared), and a
 * connection that sees the deadline does not start another transaction. The figure
 * is committed transactions per second, timed from the moment every connection is
 * open (excluding connection setup) until the last one finished; each transaction's
 * latency feeds a histogram.
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

#include "core/clock.h"
#include "core/histogram.h"
#include "core/rand.h"
#include "core/startline.h"
#include "workloads/pgbench/pgbench.h"

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
    sb_startline start; /* start_ns; no new transaction at/after end_ns */
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
                if (now >= sh->start.end_ns)
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
    sb_startline_wait(&t->sh->start);
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

/* Connection setup is not measured: every client connects (and in prepared mode
 * prepares the script) before the start line. */
static int connect_clients(sb_run_ctx *ctx, const sb_pg_cluster *cl, const pgb_params *p,
                           pgb_client *clients, const pgb_stmt *stmts, int nstmts)
{
    int rc;
    for (uint64_t i = 0; i < p->clients; i++) {
        if (sb_ctx_interrupted(ctx))
            return sb_ctx_fail(ctx, EINTR, "pgbench: interrupted");
        clients[i].conn = sb_pgbench_connect(cl, "pgbench", ctx->err, sizeof ctx->err);
        if (!clients[i].conn)
            return -EIO;
        if (p->qmode == QM_PREPARED &&
            (rc = prepare_all(clients[i].conn, stmts, nstmts, ctx->err, sizeof ctx->err)) < 0)
            return rc;
    }
    return 0;
}

/* Clients are dealt to threads in contiguous blocks, as pgbench does. */
static void deal_clients(const sb_run_ctx *ctx, const pgb_params *p, pgb_client *clients,
                         pgb_thread *th, pgb_shared *sh, const pgb_stmt *stmts, int nstmts)
{
    for (uint64_t i = 0, first = 0; i < p->threads; i++) {
        pgb_thread *t = &th[i];
        size_t n = (size_t)(p->clients / p->threads + (i < p->clients % p->threads));
        t->sh = sh;
        t->p = p;
        t->stmts = stmts;
        t->nstmts = nstmts;
        t->clients = &clients[first];
        t->n = n;
        t->seed = 0x9b00000000ull + ctx->run_index * 4096u + i;
        sb_hist_init(&t->hist);
        first += n;
    }
}

/* Starts the threads, waits until every one that started is ready, then sets the start
 * line and lets them go. A thread that cannot start stops the others at once (they are
 * still let go, to end and be joined); its error is returned. */
static int start_threads(sb_run_ctx *ctx, const pgb_params *p, pgb_thread *th, pgb_shared *sh)
{
    int rc = 0;
    for (uint64_t i = 0; i < p->threads; i++) {
        int e = pthread_create(&th[i].thread, NULL, bench_thread, &th[i]);
        if (e) {
            rc = sb_ctx_fail(ctx, e, "pgbench: cannot start thread: %s", strerror(e));
            atomic_store(&sh->stop, true);
            break;
        }
        th[i].started = true;
    }
    unsigned started = 0;
    for (uint64_t i = 0; i < p->threads; i++)
        started += th[i].started;
    sb_startline_release(&sh->start, started, (uint64_t)(p->duration * 1e9));
    return rc;
}

/* Progress and interruption until the deadline or a stop, then every thread joined.
 * Returns when the last one finished. */
static uint64_t watch_threads(sb_run_ctx *ctx, const pgb_params *p, pgb_thread *th,
                              pgb_shared *sh, double weight)
{
    for (;;) {
        uint64_t now = sb_now_ns();
        double f = (double)(now - sh->start.start_ns) / (p->duration * 1e9);
        sb_ctx_progress(ctx, weight + (1 - weight) * (f < 1 ? f : 1));
        if (sb_ctx_interrupted(ctx))
            atomic_store(&sh->stop, true);
        if (atomic_load(&sh->stop) || now >= sh->start.end_ns)
            break;
        sb_sleep_ms(50);
    }
    uint64_t finish = sh->start.start_ns;
    for (uint64_t i = 0; i < p->threads; i++) {
        if (!th[i].started)
            continue;
        pthread_join(th[i].thread, NULL);
        if (th[i].finish_ns > finish)
            finish = th[i].finish_ns;
    }
    return finish;
}

/* The threads' figures: transactions per second over the measured time, the count, the
 * client's CPU per transaction and the latency percentiles. */
static int record_figures(sb_run_ctx *ctx, const pgb_params *p, pgb_thread *th, uint64_t start,
                          uint64_t finish, sb_sample *s)
{
    uint64_t committed = 0, cpu_ns = 0;
    for (uint64_t i = 0; i < p->threads; i++) {
        if (th[i].rc < 0 && th[i].rc != -EINTR)
            return sb_ctx_fail(ctx, -th[i].rc, "%s", th[i].err);
        committed += th[i].committed;
        cpu_ns += th[i].cpu_ns;
        if (i)
            sb_hist_merge(&th[0].hist, &th[i].hist);
    }
    double seconds = (double)(finish - start) / 1e9;
    s->value = (double)committed / seconds;
    s->seconds = seconds;
    sb_sample_add(s, "transactions", "", (double)committed);
    /* The client's own CPU per transaction: on a CPU-bound target (tmpfs) it competes
     * with the server for the same cores, so a cheaper client reports more TPS. */
    if (committed)
        sb_sample_add(s, "client_cpu_per_tx", "us", (double)cpu_ns / 1e3 / (double)committed);
    sb_sample_add_latency(s, "lat", &th[0].hist);
    return 0;
}

int sb_pgbench_bench(sb_run_ctx *ctx, const sb_pg_cluster *cl, const pgb_params *p, double weight,
                     sb_sample *s)
{
    int rc = 0;
    pgb_client *clients = calloc(p->clients, sizeof *clients);
    pgb_thread *th = calloc(p->threads, sizeof *th);
    pgb_shared sh;
    memset(&sh, 0, sizeof sh);
    sb_startline_init(&sh.start);
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
    if ((rc = connect_clients(ctx, cl, p, clients, stmts, nstmts)) < 0)
        goto out;
    deal_clients(ctx, p, clients, th, &sh, stmts, nstmts);
    rc = start_threads(ctx, p, th, &sh);
    uint64_t finish = watch_threads(ctx, p, th, &sh, weight);
    if (rc < 0)
        goto out;
    if (sb_ctx_interrupted(ctx)) {
        rc = sb_ctx_fail(ctx, EINTR, "pgbench: interrupted");
        goto out;
    }
    rc = record_figures(ctx, p, th, sh.start.start_ns, finish, s);
out:
    for (uint64_t i = 0; clients && i < p->clients; i++)
        PQfinish(clients[i].conn);
    free(clients);
    free(th);
    sb_startline_destroy(&sh.start);
    return rc;
}
