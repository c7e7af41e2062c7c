/*
 * Tests of the sqlite workload at a tiny insert count: a run produces a time
 * and its secondary figures, the rows really reach the database while it
 * runs, the database is gone afterwards, parallel copies and WAL work, and an
 * interrupt stops it with -EINTR.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#define SCRATCH_TEMPLATE "/var/tmp/sb-sqlite-test.XXXXXX"
#include "scratch_dir.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/interrupt.h"
#include "core/workdir.h"
#include "workloads/workload.h"

extern const sb_workload sb_wl_sqlite;



static int run_with(const char *count, const char *journal, const char *copies, sb_sample *s,
                    sb_run_ctx *ctx, sb_config *cfg)
{
    char err[256];
    sb_config_init(cfg, &sb_wl_sqlite, false);
    assert_int_equal(sb_config_set(cfg, "count", count, err, sizeof err), 0);
    assert_int_equal(sb_config_set(cfg, "journal", journal, err, sizeof err), 0);
    assert_int_equal(sb_config_set(cfg, "copies", copies, err, sizeof err), 0);
    assert_int_equal(sb_config_resolve(cfg, err, sizeof err), 0);
    memset(ctx, 0, sizeof *ctx);
    ctx->dir = dir;
    ctx->target = "/var/tmp";
    ctx->cfg = cfg;
    ctx->run_count = 1;
    memset(s, 0, sizeof *s);
    return sb_wl_sqlite.run(ctx, sb_config_params(cfg), s);
}

static void test_tiny_run(void **state)
{
    (void)state;
    sb_sample s;
    sb_run_ctx ctx;
    sb_config cfg;
    assert_int_equal(run_with("20", "delete", "1", &s, &ctx, &cfg), 0);
    assert_true(s.valid);
    assert_true(s.value > 0);
    const sb_figure *f = sb_sample_figure(&s, "transactions");
    assert_non_null(f);
    assert_true(f->value == 60); /* 20 INSERTs x 3 passes */
    f = sb_sample_figure(&s, "sqlite_version_number");
    assert_non_null(f);
    assert_true(f->value == sqlite3_libversion_number());
    assert_non_null(sb_sample_figure(&s, "lat_p99"));
    assert_int_equal(entries(dir), 0); /* database and journal removed */
}

static void test_copies_wal(void **state)
{
    (void)state;
    sb_sample s;
    sb_run_ctx ctx;
    sb_config cfg;
    assert_int_equal(run_with("10", "wal", "8", &s, &ctx, &cfg), 0);
    const sb_figure *f = sb_sample_figure(&s, "transactions");
    assert_non_null(f);
    assert_true(f->value == 240);
    assert_int_equal(entries(dir), 0);
}

struct bg {
    sb_sample s;
    sb_run_ctx ctx;
    sb_config cfg;
    int rc;
};

static void *bg_run(void *arg)
{
    struct bg *b = arg;
    b->rc = run_with("20000", "delete", "1", &b->s, &b->ctx, &b->cfg);
    return NULL;
}

/* Reads the row count of the database being written; -1 if not readable yet. */
static long rows_now(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/sqlite-0.db", dir);
    if (access(path, F_OK) != 0)
        return -1;
    sqlite3 *db;
    long n = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
        sqlite3_stmt *st;
        sqlite3_busy_timeout(db, 1000);
        if (sqlite3_prepare_v2(db, "SELECT count(*) FROM pts1", -1, &st, NULL) == SQLITE_OK) {
            if (sqlite3_step(st) == SQLITE_ROW)
                n = sqlite3_column_int64(st, 0);
            sqlite3_finalize(st);
        }
    }
    sqlite3_close(db);
    return n;
}

static void test_rows_present_then_interrupt(void **state)
{
    (void)state;
    struct bg b;
    pthread_t t;
    sb_interrupt_install();
    assert_int_equal(pthread_create(&t, NULL, bg_run, &b), 0);
    long n = -1;
    for (int i = 0; i < 400 && n <= 0; i++) {
        struct timespec ts = {0, 25 * 1000000L};
        nanosleep(&ts, NULL);
        n = rows_now();
    }
    raise(SIGINT);
    pthread_join(t, NULL);
    assert_true(n > 0);
    assert_int_equal(b.rc, -EINTR);
    assert_false(b.s.valid);
    assert_int_equal(entries(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tiny_run, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copies_wal, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rows_present_then_interrupt, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
