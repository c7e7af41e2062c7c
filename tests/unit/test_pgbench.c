/*
 * Tests of the pgbench workload and its private cluster, at scale 1 for a
 * couple of seconds: the tables hold the right row counts, every committed
 * transaction left one history row (and balances that agree), in each query
 * mode; no postgres process is left and the cluster directory is gone; an
 * interrupted run leaves nothing behind; with no server binaries the run is
 * skipped (-ENOTSUP) naming the package; the query mode joins the option line
 * only when changed. Skipped (but for the option line and the skip) when
 * PostgreSQL is not installed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#define SCRATCH_TEMPLATE "/var/tmp/sb-pgbench-test.XXXXXX"
#include "scratch_dir.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/interrupt.h"
#include "core/workdir.h"
#include "workloads/pgbench/pg_cluster.h"
#include "workloads/workload.h"

extern const sb_workload sb_wl_pgbench;


/* Number of live processes of a cluster under our directory. Every server
 * process works in the cluster's data directory (the postmaster chdirs there
 * and its children inherit it), which stays visible in /proc/PID/cwd even
 * after the directory is deleted; command lines and environments do not
 * help, as backends overwrite both with their process title. */
static int postgres_processes(void)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    int n = 0;
    char want[300];
    snprintf(want, sizeof want, "%s/", dir);
    while (d && (e = readdir(d))) {
        char p[300], cwd[4096];
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(p, sizeof p, "/proc/%s/cwd", e->d_name);
        ssize_t len = readlink(p, cwd, sizeof cwd - 1);
        if (len <= 0)
            continue;
        cwd[len] = '\0';
        if (!strncmp(cwd, want, strlen(want)))
            n++;
    }
    if (d)
        closedir(d);
    return n;
}


static void config_qm(sb_config *cfg, const char *mode, const char *duration, const char *qm)
{
    char err[256];
    sb_config_init(cfg, &sb_wl_pgbench, true);
    assert_int_equal(sb_config_set(cfg, "query-mode", qm, err, sizeof err), 0);
    assert_int_equal(sb_config_set(cfg, "scale", "1", err, sizeof err), 0);
    assert_int_equal(sb_config_set(cfg, "duration", duration, err, sizeof err), 0);
    assert_int_equal(sb_config_set(cfg, "mode", mode, err, sizeof err), 0);
    assert_int_equal(sb_config_set(cfg, "clients", "4", err, sizeof err), 0);
    assert_int_equal(sb_config_set(cfg, "threads", "2", err, sizeof err), 0);
}

static void config(sb_config *cfg, const char *mode, const char *duration)
{
    config_qm(cfg, mode, duration, "simple");
}

static void init_ctx(sb_run_ctx *ctx, const sb_config *cfg)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->dir = dir;
    ctx->target = "/var/tmp";
    ctx->cfg = cfg;
    ctx->run_count = 1;
    ctx->is_root = geteuid() == 0;
}

/* One run of the workload in mode for duration seconds; prints the error line of a failed
 * run (a skip is expected by the test that asks for it). */
static int run_pgbench_qm(const char *mode, const char *duration, const char *qm, sb_config *cfg,
                          sb_run_ctx *ctx, sb_sample *s)
{
    config_qm(cfg, mode, duration, qm);
    char err[256];
    assert_int_equal(sb_config_resolve(cfg, err, sizeof err), 0);
    init_ctx(ctx, cfg);
    memset(s, 0, sizeof *s);
    int rc = sb_wl_pgbench.run(ctx, sb_config_params(cfg), s);
    if (rc && rc != -ENOTSUP)
        print_error("run: %s\n", ctx->err);
    return rc;
}

static int run_pgbench(const char *mode, const char *duration, sb_config *cfg, sb_run_ctx *ctx,
                       sb_sample *s)
{
    return run_pgbench_qm(mode, duration, "simple", cfg, ctx, s);
}

static void test_read_write_scale1(void **state)
{
    (void)state;
    sb_config cfg;
    sb_run_ctx ctx;
    sb_sample s;
    int rc = run_pgbench("rw", "2", &cfg, &ctx, &s);
    assert_int_equal(rc, 0);
    assert_true(s.valid);
    assert_true(s.value > 0);
    const sb_figure *f;
    assert_non_null(f = sb_sample_figure(&s, "branches_rows"));
    assert_true(f->value == 1);
    assert_non_null(f = sb_sample_figure(&s, "tellers_rows"));
    assert_true(f->value == 10);
    assert_non_null(f = sb_sample_figure(&s, "accounts_rows"));
    assert_true(f->value == 100000);
    const sb_figure *tx = sb_sample_figure(&s, "transactions"), *hist = sb_sample_figure(&s, "history_rows");
    assert_non_null(tx);
    assert_non_null(hist);
    assert_true(tx->value > 0);
    assert_true(tx->value == hist->value);
    assert_non_null(f = sb_sample_figure(&s, "pg_autovacuum"));
    assert_true(f->value == 0);
    assert_non_null(sb_sample_figure(&s, "lat_p99"));
    assert_non_null(f = sb_sample_figure(&s, "client_cpu_per_tx"));
    assert_true(f->value > 0);
    assert_non_null(sb_sample_figure(&s, "pg_server_version_num"));
    assert_int_equal(postgres_processes(), 0);
    assert_int_equal(entries(dir), 0); /* cluster directory removed */
}

static void test_read_only(void **state)
{
    (void)state;
    sb_config cfg;
    sb_run_ctx ctx;
    sb_sample s;
    int rc = run_pgbench("ro", "1", &cfg, &ctx, &s);
    assert_int_equal(rc, 0);
    assert_true(s.value > 0);
    assert_null(sb_sample_figure(&s, "history_rows"));
    assert_int_equal(postgres_processes(), 0);
    assert_int_equal(entries(dir), 0);
}

/* Extended and prepared mode run the same transaction: every one committed left its
 * history row and balances that agree (checked by the run itself, which fails otherwise). */
static void query_mode(const char *mode, const char *qm)
{
    sb_config cfg;
    sb_run_ctx ctx;
    sb_sample s;
    int rc = run_pgbench_qm(mode, "1", qm, &cfg, &ctx, &s);
    assert_int_equal(rc, 0);
    assert_true(s.valid);
    assert_true(s.value > 0);
    const sb_figure *tx = sb_sample_figure(&s, "transactions");
    assert_non_null(tx);
    assert_true(tx->value > 0);
    if (!strcmp(mode, "rw")) {
        const sb_figure *hist = sb_sample_figure(&s, "history_rows");
        assert_non_null(hist);
        assert_true(tx->value == hist->value);
    }
    assert_int_equal(postgres_processes(), 0);
    assert_int_equal(entries(dir), 0);
}

static void test_extended_mode(void **state)
{
    (void)state;
    query_mode("rw", "extended");
}

static void test_prepared_mode(void **state)
{
    (void)state;
    query_mode("rw", "prepared");
    query_mode("ro", "prepared");
}

/* The seed's line is kept by default; another query mode shows; a bad one is refused. */
static void test_option_line(void **state)
{
    (void)state;
    sb_config cfg;
    char err[256], line[512];
    sb_config_init(&cfg, &sb_wl_pgbench, false);
    assert_string_equal(sb_config_get(&cfg, "query-mode"), "simple");
    sb_config_describe(&cfg, &sb_wl_pgbench.measures[0], line, sizeof line);
    assert_string_equal(line, "Scaling: On-Disk - Test: Normal Load - Mode: Read Write");
    assert_int_equal(sb_config_set(&cfg, "query-mode", "prepared", err, sizeof err), 0);
    sb_config_describe(&cfg, &sb_wl_pgbench.measures[0], line, sizeof line);
    assert_string_equal(line, "Scaling: On-Disk - Test: Normal Load - Mode: Read Write - "
                              "Query Mode: Prepared");
    assert_true(sb_config_set(&cfg, "query-mode", "pipeline", err, sizeof err) < 0);
    assert_non_null(strstr(err, "query-mode"));
}

struct bg {
    sb_config cfg;
    sb_run_ctx ctx;
    sb_sample s;
    int rc;
};

static void *bg_run(void *arg)
{
    struct bg *b = arg;
    b->rc = sb_wl_pgbench.run(&b->ctx, sb_config_params(&b->cfg), &b->s);
    return NULL;
}

static void interrupt_after(const char *scale, long ms)
{
    struct bg b;
    memset(&b, 0, sizeof b);
    config(&b.cfg, "rw", "60");
    char err[256];
    assert_int_equal(sb_config_set(&b.cfg, "scale", scale, err, sizeof err), 0);
    assert_int_equal(sb_config_resolve(&b.cfg, err, sizeof err), 0);
    init_ctx(&b.ctx, &b.cfg);
    sb_interrupt_install();
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, bg_run, &b), 0);
    /* Wait until the server runs (its socket exists), then a bit into the
     * load or the benchmark, and press Ctrl-C. */
    char sock[400];
    snprintf(sock, sizeof sock, "%s/pgsql/.s.PGSQL.%d", dir, SB_PG_PORT);
    int seen = 0;
    for (int i = 0; i < 600 && !seen; i++) {
        struct timespec ts = {0, 25 * 1000000L};
        nanosleep(&ts, NULL);
        seen = access(sock, F_OK) == 0;
    }
    assert_true(seen);
    /* The detector sees the live server, so its 0 below means something. */
    assert_true(postgres_processes() > 0);
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
    raise(SIGINT);
    pthread_join(t, NULL);
    assert_int_equal(b.rc, -EINTR);
    assert_false(b.s.valid);
    assert_int_equal(postgres_processes(), 0);
    assert_int_equal(entries(dir), 0);
}

/* Scale 1 loads in a fraction of a second: 1 s later the clients run. */
static void test_interrupt_leaves_nothing(void **state)
{
    (void)state;
    interrupt_after("1", 1000);
}

/* Scale 20 takes seconds to load: the interrupt lands in COPY or VACUUM. */
static void test_interrupt_during_load(void **state)
{
    (void)state;
    interrupt_after("20", 300);
}

static void test_skipped_without_binaries(void **state)
{
    (void)state;
    sb_config cfg;
    sb_run_ctx ctx;
    sb_sample s;
    setenv("STORBENCH_PG_BINDIR", "/nonexistent", 1);
    int rc = run_pgbench("rw", "1", &cfg, &ctx, &s);
    unsetenv("STORBENCH_PG_BINDIR");
    assert_int_equal(rc, -ENOTSUP);
    assert_non_null(strstr(ctx.err, "postgresql"));
    assert_null(strchr(ctx.err, '\n'));
    assert_int_equal(entries(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_option_line),
        cmocka_unit_test_setup_teardown(test_skipped_without_binaries, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_write_scale1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_extended_mode, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prepared_mode, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interrupt_leaves_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interrupt_during_load, setup, teardown),
    };
    char bindir[512];
    if (sb_pg_find_bindir(bindir, sizeof bindir) < 0) {
        /* Without a server only the skip test can run. */
        print_message("PostgreSQL server not installed: only the skip test runs\n");
        const struct CMUnitTest skip_only[] = {
            cmocka_unit_test(test_option_line),
            cmocka_unit_test_setup_teardown(test_skipped_without_binaries, setup, teardown),
        };
        return cmocka_run_group_tests(skip_only, NULL, NULL);
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}
