/*
 * pgbench — the seed's "PostgreSQL pgbench" test, with storbench as the
 * client. A private cluster (pg_cluster.c) is created and started in the
 * run's directory; pgbench_db.c loads the TPC-B tables through libpq (COPY, as
 * `pgbench -i` does: drop, create, generate, vacuum, primary keys), then
 * pgbench_client.c runs N client connections from M threads for the duration. Each thread drives
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
 * run() returns, on success, on error and on interrupt. This file holds the
 * options, their resolution into pgb_params (pgbench.h) and run() itself.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "workloads/pgbench/pg_cluster.h"
#include "workloads/pgbench/pgbench.h"
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
     "scale from RAM: buffer = MB x 0.003, mostly-ram = x 0.03, on-disk = x 0.3", 0, .kind = SB_VAL_CHOICE},
    {"test", "Test", "normal", NULL, test_choices,
     "single: 1 client; normal: 4N clients, N threads; heavy: 32N clients, 2N threads (N = CPUs)", 0, .kind = SB_VAL_CHOICE},
    {"mode", "Mode", "rw", NULL, mode_choices,
     "rw: TPC-B-like transaction; ro: select only", 0, .kind = SB_VAL_CHOICE},
    {"query-mode", "Query Mode", "simple", NULL, query_choices,
     "as pgbench -M: simple (SQL text with the values, pgbench's default), extended "
     "(parameters, parsed each time), prepared (parsed once per connection)", SB_OPT_IF_CHANGED, .kind = SB_VAL_CHOICE},
    {"scale", "Scale", "auto", "1", NULL,
     "explicit scaling factor (100,000 accounts each); auto = from Scaling",
     SB_OPT_HIDDEN | SB_OPT_AUTO, .kind = SB_VAL_UINT, .min = 1, .max = 1000000},
    {"duration", "Duration", "60", "3", NULL, "measured time per run", SB_OPT_HIDDEN, .kind = SB_VAL_DURATION},
    {"clients", "Clients", "auto", NULL, NULL, "client connections; auto = from Test",
     SB_OPT_HIDDEN | SB_OPT_AUTO, .kind = SB_VAL_UINT, .min = 1, .max = 10000},
    {"threads", "Threads", "auto", NULL, NULL, "client threads; auto = from Test",
     SB_OPT_HIDDEN | SB_OPT_AUTO, .kind = SB_VAL_UINT, .min = 1, .max = 1024},
};

static const sb_measure pgbench_measures[] = {
    {NULL, "TPS", SB_HIGHER_IS_BETTER},
};

/* ---- parameters (the types are in pgbench.h) ---- */

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

static int pgb_resolve(const sb_config *cfg, void *params, char *err, size_t errlen)
{
    pgb_params *p = params;
    int rc;
    if ((rc = sb_config_check(cfg, err, errlen)) < 0)
        return rc;
    p->scale = sb_config_is_auto(cfg, "scale") ? auto_scale(sb_config_get(cfg, "scaling")) : sb_config_u(cfg, "scale");
    p->duration = sb_config_seconds(cfg, "duration");
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
    if (!sb_config_is_auto(cfg, "clients"))
        p->clients = sb_config_u(cfg, "clients");
    if (!sb_config_is_auto(cfg, "threads"))
        p->threads = sb_config_u(cfg, "threads");
    if (p->threads > p->clients)
        p->threads = p->clients;
    p->read_only = !strcmp(sb_config_get(cfg, "mode"), "ro");
    const char *qm = sb_config_get(cfg, "query-mode");
    p->qmode = !strcmp(qm, "prepared") ? QM_PREPARED : !strcmp(qm, "extended") ? QM_EXTENDED
                                                                              : QM_SIMPLE;
    return 0;
}
static bool ctx_stop(void *arg) { return sb_ctx_interrupted(arg); }

static int pgbench_run(sb_run_ctx *ctx, const void *params, sb_sample *samples)
{
    const pgb_params *p = params;
    sb_sample *s = &samples[0];
    int rc;

    sb_pg_cluster cl;
    PGconn *c = NULL;
    rc = sb_pg_cluster_create(&cl, ctx->dir, ctx->err, sizeof ctx->err);
    if (rc < 0)
        goto out;

    char maxconn[48];
    snprintf(maxconn, sizeof maxconn, "max_connections=%llu",
             (unsigned long long)(p->clients + 10 > 100 ? p->clients + 10 : 100));
    const char *settings[] = {"autovacuum=off", maxconn, NULL};
    rc = sb_pg_cluster_start(&cl, settings, ctx_stop, ctx, ctx->err, sizeof ctx->err);
    if (rc < 0)
        goto out;

    c = sb_pgbench_connect(&cl, "postgres", ctx->err, sizeof ctx->err);
    if (!c) {
        rc = -EIO;
        goto out;
    }
    if ((rc = sb_pgbench_exec(c, "CREATE DATABASE pgbench", ctx->err, sizeof ctx->err)) < 0)
        goto out;
    PQfinish(c);
    c = sb_pgbench_connect(&cl, "pgbench", ctx->err, sizeof ctx->err);
    if (!c) {
        rc = -EIO;
        goto out;
    }
    /* The result's title names the server that ran ("15.10 (Debian ...)" -> "15.10"). */
    const char *sv = PQparameterStatus(c, "server_version");
    snprintf(ctx->software, sizeof ctx->software, "PostgreSQL %.*s", sv ? (int)strcspn(sv, " ") : 0,
             sv ? sv : "");

    /* The progress bar: loading's estimated share, then the measured part. */
    double load_s = (double)p->scale * 0.4 + 2;
    double weight = load_s / (load_s + p->duration);
    uint64_t t0 = sb_now_ns();
    if ((rc = sb_pgbench_load(c, ctx, p, weight, s)) < 0)
        goto out;
    double loaded_s = (double)(sb_now_ns() - t0) / 1e9;

    /* As pgbench does before its timed part (unless -n, in either mode): vacuum the small
     * tables and empty the history. */
    const char *prerun[] = {"VACUUM pgbench_branches", "VACUUM pgbench_tellers",
                            "TRUNCATE pgbench_history"};
    for (size_t i = 0; i < sizeof prerun / sizeof prerun[0]; i++)
        if ((rc = sb_pgbench_exec_interruptible(c, ctx, prerun[i])) < 0)
            goto out;
    if ((rc = sb_pgbench_bench(ctx, &cl, p, weight, s)) < 0)
        goto out;
    if (!p->read_only && (rc = sb_pgbench_check_history(c, ctx, s)) < 0)
        goto out;

    sb_sample_add(s, "scale", "", (double)p->scale);
    sb_sample_add(s, "clients", "", (double)p->clients);
    sb_sample_add(s, "threads", "", (double)p->threads);
    sb_sample_add(s, "duration", "s", p->duration);
    sb_sample_add(s, "load_seconds", "s", loaded_s);
    sb_pgbench_record_settings(c, s);
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

static uint64_t pgbench_space_needed(const void *params)
{
    const pgb_params *p = params;
    /* ~15 MiB of tables and indexes per scale unit, plus WAL and the
     * cluster's own ~40 MiB. */
    return p->scale * (16ull << 20) + (1ull << 30);
}

static double pgbench_estimate_seconds(const void *params)
{
    const pgb_params *p = params;
    return 3 + (double)p->scale * 0.4 + p->duration;
}

/* The server binaries are a property of the machine: without them run() skips. */
static int pgbench_available(const void *params, const char *target, char *why, size_t whylen)
{
    char bindir[512];
    if (sb_pg_find_bindir(bindir, sizeof bindir) == 0)
        return 0;
    snprintf(why, whylen, "no PostgreSQL server binaries (install the Debian package postgresql)");
    return -ENOTSUP;
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
    .params_size = sizeof(pgb_params),
    .resolve = pgb_resolve,
    .space_needed = pgbench_space_needed,
    .estimate_seconds = pgbench_estimate_seconds,
    .run = pgbench_run,
    .available = pgbench_available,
};
