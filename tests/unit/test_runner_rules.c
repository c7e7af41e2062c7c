/*
 * test_runner_rules — the runner with a scripted workload (no I/O): the run-count
 * rule as the runner applies it (exact runs, added runs while the spread is
 * high, none when it is low), top-ups of runs without a figure and the limit
 * on them, a workload error, a skipped test, an interrupt mid-selection, the
 * free-space refusal, and that every run's directory is fresh and removed.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#define SCRATCH_TEMPLATE "/tmp/sbrunrules.XXXXXX"
#include "scratch_dir.h"

#include "core/interrupt.h"
#include "core/stats.h"
#include "runner/runner.h"

/* ---- the scripted workload ---- */

#define MAX_CALLS 64
static struct {
    double values[MAX_CALLS]; /* figure of call k (cycled through n_values) */
    size_t n_values;
    int invalid_from, invalid_to; /* calls [from, to) produce no figure */
    int fail_at;                  /* this call returns -EIO with a message */
    int notsup_at;                /* this call returns -ENOTSUP */
    int interrupt_at;             /* this call raises SIGINT and stops */
    uint64_t space;               /* space_needed() */
    unsigned calls;
    char dirs[MAX_CALLS][4096];   /* ctx->dir of each call */
    bool dir_was_empty[MAX_CALLS];
} script;

static void script_reset(const double *values, size_t n)
{
    memset(&script, 0, sizeof script);
    memcpy(script.values, values, n * sizeof *values);
    script.n_values = n;
    script.invalid_from = script.invalid_to = -1;
    script.fail_at = script.notsup_at = script.interrupt_at = -1;
}

static int fake_run(sb_run_ctx *ctx, const void *params, sb_sample *samples)
{
    int k = (int)script.calls++;
    snprintf(script.dirs[k], sizeof script.dirs[k], "%s", ctx->dir);
    script.dir_was_empty[k] = entries(ctx->dir) == 0;
    /* something to clean up */
    char p[4200];
    snprintf(p, sizeof p, "%s/scratch", ctx->dir);
    FILE *f = fopen(p, "w");
    if (f)
        fclose(f);
    if (k == script.fail_at)
        return sb_ctx_fail(ctx, EIO, "fake: disk on fire");
    if (k == script.notsup_at)
        return sb_ctx_fail(ctx, ENOTSUP, "fake: needs a server");
    if (k == script.interrupt_at) {
        raise(SIGINT);
        return sb_ctx_interrupted(ctx) ? -EINTR : 0;
    }
    samples[0].valid = !(k >= script.invalid_from && k < script.invalid_to);
    samples[0].value = script.values[(size_t)k % script.n_values];
    samples[0].seconds = 5;
    sb_sample_add(&samples[0], "ops", "ops", 2 * samples[0].value);
    return 0;
}

static uint64_t fake_space(const void *params)
{
    (void)params;
    return script.space;
}

static const sb_measure fake_measures[] = {{NULL, "MB/s", SB_HIGHER_IS_BETTER}};
static const sb_workload fake = {
    .name = "fake",
    .title = "Fake Test",
    .version = "1.0",
    .summary = "scripted",
    .measures = fake_measures,
    .n_measures = 1,
    .space_needed = fake_space,
    .run = fake_run,
};

/* Runs the fake test once through the runner; the figures land in rf under "sys". */
static int run_fake(sb_resultfile *rf, unsigned runs, bool dynamic, char *err, size_t errlen)
{
    sb_config cfg;
    sb_config_init(&cfg, &fake, false);
    sb_runner r;
    sb_runner_init(&r, dir, "sys", rf);
    r.runs = runs;
    r.dynamic = dynamic;
    r.drop_caches = false;
    r.log = NULL;
    return sb_runner_run(&r, &cfg, err, errlen);
}

static const sb_entry *only_entry(const sb_resultfile *rf)
{
    assert_int_equal(rf->n_results, 1);
    assert_int_equal(rf->results[0].n_entries, 1);
    return &rf->results[0].entries[0];
}

/* ---- tests ---- */

static void test_exact_runs(void **state)
{
    (void)state;
    const double v[] = {100, 50};
    script_reset(v, 2);
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    char err[512] = "";
    assert_int_equal(run_fake(&rf, 3, false, err, sizeof err), SB_RUN_DONE);
    assert_int_equal(script.calls, 3); /* a wide spread, but --exact-runs */
    const sb_entry *e = only_entry(&rf);
    assert_int_equal(e->n_values, 3);
    assert_true(e->mean > 83.33 && e->mean < 83.34);
    assert_int_equal(e->n_secondary, 1);
    assert_string_equal(e->secondary[0].name, "ops");
    assert_true(e->secondary[0].value > 166.66 && e->secondary[0].value < 166.67);
    sb_resultfile_free(&rf);
}

static void test_rule_stops_when_steady(void **state)
{
    (void)state;
    const double v[] = {100, 101, 100};
    script_reset(v, 3);
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    char err[512];
    assert_int_equal(run_fake(&rf, 3, true, err, sizeof err), SB_RUN_DONE);
    assert_int_equal(script.calls, 3);
    assert_int_equal(only_entry(&rf)->n_values, 3);
    sb_resultfile_free(&rf);
}

static void test_rule_adds_runs_up_to_twice(void **state)
{
    (void)state;
    /* RSD stays ~35 %: runs are added up to 2x; beyond that only if it halved (it did not). */
    const double v[] = {100, 50};
    script_reset(v, 2);
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    char err[512];
    assert_int_equal(run_fake(&rf, 3, true, err, sizeof err), SB_RUN_DONE);
    assert_int_equal(script.calls, 6);
    assert_int_equal(only_entry(&rf)->n_values, 6);
    sb_resultfile_free(&rf);
}

static void test_runner_stops_where_the_rule_says(void **state)
{
    (void)state;
    /* A spread that shrinks: the runner must stop at the first count the rule (core/stats.h)
     * declines, whatever that is. */
    const double v[] = {100, 70, 130, 100, 95, 105, 100, 99, 101};
    script_reset(v, 9);
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    char err[512];
    assert_int_equal(run_fake(&rf, 3, true, err, sizeof err), SB_RUN_DONE);
    assert_true(script.calls >= 3 && script.calls <= 9);
    assert_false(sb_run_rule_want_more(3, v, script.calls));
    for (unsigned n = 3; n < script.calls; n++)
        assert_true(sb_run_rule_want_more(3, v, n));
    assert_int_equal(only_entry(&rf)->n_values, script.calls);
    sb_resultfile_free(&rf);
}

static void test_invalid_run_is_topped_up(void **state)
{
    (void)state;
    const double v[] = {100};
    script_reset(v, 1);
    script.invalid_from = 1;
    script.invalid_to = 2;
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    char err[512];
    assert_int_equal(run_fake(&rf, 3, false, err, sizeof err), SB_RUN_DONE);
    assert_int_equal(script.calls, 4); /* 3 figures from 4 runs */
    assert_int_equal(only_entry(&rf)->n_values, 3);
    sb_resultfile_free(&rf);
}

static void test_top_ups_are_limited(void **state)
{
    (void)state;
    const double v[] = {100};
    script_reset(v, 1);
    script.invalid_from = 0;
    script.invalid_to = MAX_CALLS;
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    char err[512] = "";
    assert_int_equal(run_fake(&rf, 3, true, err, sizeof err), -EIO);
    assert_int_equal(script.calls, 4); /* at most as many extra runs as scheduled */
    assert_non_null(strstr(err, "fake: 4 runs produced no figure"));
    assert_int_equal(rf.n_results, 0);
    sb_resultfile_free(&rf);
}

static void test_workload_error_ends_selection(void **state)
{
    (void)state;
    const double v[] = {100};
    script_reset(v, 1);
    script.fail_at = 1;
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    char err[512] = "";
    assert_int_equal(run_fake(&rf, 3, true, err, sizeof err), -EIO);
    assert_int_equal(script.calls, 2);
    assert_string_equal(err, "fake: disk on fire");
    assert_int_equal(rf.n_results, 0); /* nothing recorded from a failed selection */
    assert_int_equal(entries(dir), 0);
    sb_resultfile_free(&rf);
}

static void test_not_supported_is_skipped(void **state)
{
    (void)state;
    const double v[] = {100};
    script_reset(v, 1);
    script.notsup_at = 0;
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    char err[512] = "";
    assert_int_equal(run_fake(&rf, 3, true, err, sizeof err), SB_RUN_SKIPPED);
    assert_string_equal(err, "fake: needs a server");
    assert_int_equal(rf.n_results, 0);
    sb_resultfile_free(&rf);
}

static void test_interrupt_stops_and_cleans_up(void **state)
{
    (void)state;
    const double v[] = {100};
    script_reset(v, 1);
    script.interrupt_at = 1;
    sb_interrupt_install();
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    char err[512];
    assert_int_equal(run_fake(&rf, 3, true, err, sizeof err), -EINTR);
    assert_int_equal(script.calls, 2);
    assert_int_equal(rf.n_results, 0);
    assert_int_equal(entries(dir), 0); /* the interrupted run's directory is gone too */
    sb_interrupt_reset();
    signal(SIGINT, SIG_DFL);
    sb_resultfile_free(&rf);
}

static void test_each_run_gets_a_fresh_directory(void **state)
{
    (void)state;
    const double v[] = {100};
    script_reset(v, 1);
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    char err[512];
    assert_int_equal(run_fake(&rf, 3, false, err, sizeof err), SB_RUN_DONE);
    for (unsigned k = 0; k < script.calls; k++) {
        assert_true(script.dir_was_empty[k]);
        assert_int_equal(strncmp(script.dirs[k], dir, strlen(dir)), 0); /* inside the target */
        assert_int_not_equal(access(script.dirs[k], F_OK), 0);          /* and removed */
        for (unsigned j = 0; j < k; j++)
            assert_string_not_equal(script.dirs[k], script.dirs[j]);
    }
    assert_int_equal(entries(dir), 0);
    sb_resultfile_free(&rf);
}

static void test_refused_without_space(void **state)
{
    (void)state;
    const double v[] = {100};
    script_reset(v, 1);
    script.space = UINT64_MAX / 4;
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    char err[512] = "";
    assert_int_equal(run_fake(&rf, 3, true, err, sizeof err), -ENOSPC);
    assert_int_equal(script.calls, 0);
    assert_non_null(strstr(err, "No space left on device"));
    sb_resultfile_free(&rf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_exact_runs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rule_stops_when_steady, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rule_adds_runs_up_to_twice, setup, teardown),
        cmocka_unit_test_setup_teardown(test_runner_stops_where_the_rule_says, setup, teardown),
        cmocka_unit_test_setup_teardown(test_invalid_run_is_topped_up, setup, teardown),
        cmocka_unit_test_setup_teardown(test_top_ups_are_limited, setup, teardown),
        cmocka_unit_test_setup_teardown(test_workload_error_ends_selection, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_supported_is_skipped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interrupt_stops_and_cleans_up, setup, teardown),
        cmocka_unit_test_setup_teardown(test_each_run_gets_a_fresh_directory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refused_without_space, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
