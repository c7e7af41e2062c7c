/*
 * test_quick_topup — the quick suite adds runs to a noisy figure (issue 26): at --quick a
 * figure whose relative SD is above 10 % after its scheduled runs gets one more at a time,
 * up to twice the scheduled count, while the runner's quick budget (180 s a target,
 * counted across its selections) has room for the next run; a figure still noisy is said
 * in one line; a steady figure, a full-scale run (its own rule), --exact-runs and a spent
 * budget add nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/workdir.h"
#include "runner/runner.h"

static unsigned calls;
static const double *pattern; /* values the runs return, in turn */
static size_t n_pattern;

static int fake_run(sb_run_ctx *ctx, const void *params, sb_sample *s)
{
    (void)ctx;
    s->value = pattern[calls++ % n_pattern];
    s->seconds = 3.0;
    s->valid = true;
    return 0;
}

static const sb_measure fake_measures[] = {{NULL, "MB/s", SB_HIGHER_IS_BETTER}};
static const sb_workload fake = {
    .name = "fake", .title = "Fake", .version = "1", .summary = "test double",
    .measures = fake_measures, .n_measures = 1, .run = fake_run,
};

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/sbtopup-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return sb_remove_tree(dir);
}

/* One selection at --quick (or not); the log in *log (malloc'd). Returns the runs made. */
static unsigned run_one(bool quick, bool dynamic, double spent, char **log)
{
    sb_config cfg;
    sb_config_init(&cfg, &fake, quick);
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    sb_resultfile_add_system(&rf, "me");
    sb_runner r;
    sb_runner_init(&r, dir, "me", &rf);
    r.dynamic = dynamic;
    r.drop_caches = false;
    r.quick_spent_s = spent;
    size_t len;
    r.log = open_memstream(log, &len);
    calls = 0;
    char err[256];
    assert_int_equal(sb_runner_run(&r, &cfg, err, sizeof err), SB_RUN_DONE);
    fclose(r.log);
    assert_int_equal(rf.results[0].entries[0].n_values, calls);
    sb_resultfile_free(&rf);
    return calls;
}

static const double noisy[] = {100, 60, 140}; /* relative SD 40 % whatever the count */
static const double steady[] = {100, 101, 99};
static const double settles[] = {100, 60, 140, 100, 100, 100}; /* 40 % after 3, 24 % after 6 */

static void test_noisy_topped_up_and_said(void **state)
{
    (void)state;
    char *log;
    pattern = noisy, n_pattern = 3;
    assert_int_equal(run_one(true, true, 0, &log), 6);
    assert_non_null(strstr(log, "still noisy: relative SD"));
    assert_non_null(strstr(log, "after 6 runs"));
    free(log);
}

static void test_steady_not_topped_up(void **state)
{
    (void)state;
    char *log;
    pattern = steady, n_pattern = 3;
    assert_int_equal(run_one(true, true, 0, &log), 3);
    assert_null(strstr(log, "still noisy"));
    free(log);
}

/* The budget: with all of it spent there is no room for another run (any run takes
 * more than 0 s, so this holds however fast the fake runs; 0.001 s short of the budget
 * was a timing assumption that a quiet machine broke). */
static void test_budget_spent(void **state)
{
    (void)state;
    char *log;
    pattern = noisy, n_pattern = 3;
    assert_int_equal(run_one(true, true, SB_QUICK_BUDGET_S, &log), 3);
    assert_non_null(strstr(log, "still noisy"));
    assert_non_null(strstr(log, "after 3 runs"));
    free(log);
}

/* --exact-runs (dynamic off) adds nothing, and says nothing. */
static void test_exact_runs(void **state)
{
    (void)state;
    char *log;
    pattern = noisy, n_pattern = 3;
    assert_int_equal(run_one(true, false, 0, &log), 3);
    assert_null(strstr(log, "still noisy"));
    free(log);
}

/* The top-up runs count in the budget: a runner's spent time grows across selections. */
static void test_budget_tracked(void **state)
{
    (void)state;
    pattern = settles, n_pattern = 6;
    sb_config cfg;
    sb_config_init(&cfg, &fake, true);
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    sb_resultfile_add_system(&rf, "me");
    sb_runner r;
    sb_runner_init(&r, dir, "me", &rf);
    r.drop_caches = false;
    r.log = NULL;
    calls = 0;
    char err[256];
    assert_int_equal(sb_runner_run(&r, &cfg, err, sizeof err), SB_RUN_DONE);
    assert_int_equal(calls, 6);
    assert_true(r.quick_spent_s > 0);
    sb_resultfile_free(&rf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_noisy_topped_up_and_said),
        cmocka_unit_test(test_steady_not_topped_up),
        cmocka_unit_test(test_budget_spent),
        cmocka_unit_test(test_exact_runs),
        cmocka_unit_test(test_budget_tracked),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
