/* Unit tests for the runner's 3-second rule with a fake workload: at full scale
 * a wall-clock run shorter than 3 s is flagged, never repeated; at --quick the
 * short work is repeated until the repetitions measured 3 s and the run's
 * figure is their mean (not flagged); a test that is not wall-clock timed is
 * neither; the source of a measured figure names what ran; a workload's own quick
 * run count applies at --quick only, and never over the user's --runs; in the device lab
 * (core/cpubusy.h enabled) each figure gets its runs' CPU busy share, the workload's own
 * window's when it measured one, else the whole run's; none when disabled; in a lab guest
 * dilated by K (sb_runner.time_dilate) the 3-second rule and the pooling count the
 * figures' time, the guest's seconds ÷K. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/cpubusy.h"
#include "core/workdir.h"
#include "runner/runner.h"

static unsigned calls;
static double run_seconds;
static bool own_window; /* the fake measures its own window's CPU busy time: 1 s of 4 */

static int fake_run(sb_run_ctx *ctx, const void *params, sb_sample *s)
{
    calls++;
    s->value = (double)calls; /* 1, 2, 3 ... : a pooled run reports their mean */
    s->seconds = run_seconds;
    s->valid = true;
    sb_sample_add(s, "ops", "", 10.0 * calls);
    snprintf(ctx->software, sizeof ctx->software, "Fake 1.2.3");
    if (own_window) {
        s->cpu_busy_ns = 1000000000ull;
        s->cpu_window_ns = 4000000000ull;
    }
    return 0;
}

static const sb_option fake_options[] = {
    {"n", "N", "100", "10", NULL, "work", SB_OPT_HIDDEN, .kind = SB_VAL_TEXT},
};
static const sb_measure fake_measures[] = {{NULL, "ops/s", SB_HIGHER_IS_BETTER}};

static sb_workload fake = {
    .name = "fake",
    .title = "Fake",
    .version = "9.9",
    .summary = "test double",
    .options = fake_options,
    .n_options = 1,
    .measures = fake_measures,
    .n_measures = 1,
    .flags = SB_WL_WALL_CLOCK,
    .run = fake_run,
};

static char dir[64];
static bool dynamic_rule; /* the run-count rule on (sb_runner.dynamic) */

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/sbrunner-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return sb_remove_tree(dir);
}

/* Runs the fake with 3 scheduled runs (exactly, unless dynamic_rule) and returns its
 * one entry. */
static unsigned user_runs; /* sb_runner.runs: 0 = not given */
static unsigned time_dilate = 1; /* sb_runner.time_dilate */

static const sb_entry *run3(sb_resultfile *rf, bool quick, double secs)
{
    sb_config cfg;
    sb_config_init(&cfg, &fake, quick);
    sb_runner r;
    sb_resultfile_init(rf);
    sb_resultfile_add_system(rf, "me");
    sb_runner_init(&r, dir, "me", rf);
    r.runs = user_runs;
    r.dynamic = dynamic_rule;
    r.drop_caches = false;
    r.log = NULL;
    r.time_dilate = time_dilate;
    calls = 0;
    run_seconds = secs;
    char err[256];
    assert_int_equal(sb_runner_run(&r, &cfg, err, sizeof err), SB_RUN_DONE);
    assert_int_equal(rf->n_results, 1);
    assert_int_equal(rf->results[0].n_entries, 1);
    return &rf->results[0].entries[0];
}

static void test_full_scale_short_run_flagged(void **state)
{
    (void)state;
    sb_resultfile rf;
    const sb_entry *e = run3(&rf, false, 1.0);
    assert_int_equal(calls, 3);
    assert_true(e->untrusted);
    assert_int_equal(e->n_values, 3);
    assert_true(e->values[0] == 1 && e->values[2] == 3);
    assert_string_equal(e->source, "Fake 1.2.3 (storbench fake)");
    assert_false(e->imported);
    assert_string_equal(rf.results[0].version, ""); /* never the profile's 9.9 */
    sb_resultfile_free(&rf);
}

static void test_quick_short_work_pooled(void **state)
{
    (void)state;
    sb_resultfile rf;
    /* 1.0 s of work: three repetitions per run make its 3 s. */
    const sb_entry *e = run3(&rf, true, 1.0);
    assert_int_equal(calls, 9);
    assert_false(e->untrusted);
    assert_int_equal(e->n_values, 3);
    assert_true(e->values[0] == 2.0 && e->values[1] == 5.0 && e->values[2] == 8.0);
    const sb_secondary *rep = NULL, *ops = NULL;
    for (size_t i = 0; i < e->n_secondary; i++) {
        if (!strcmp(e->secondary[i].name, "repetitions"))
            rep = &e->secondary[i];
        if (!strcmp(e->secondary[i].name, "ops"))
            ops = &e->secondary[i];
    }
    assert_non_null(rep);
    assert_true(rep->value == 3.0);
    assert_non_null(ops);
    assert_true(ops->value == 50.0); /* mean over runs of the mean over repetitions */
    sb_resultfile_free(&rf);

    /* 0.7 s: five repetitions (3.5 s); 3 s or more: never repeated. */
    e = run3(&rf, true, 0.7);
    assert_int_equal(calls, 15);
    assert_false(e->untrusted);
    sb_resultfile_free(&rf);
    e = run3(&rf, true, 3.0);
    assert_int_equal(calls, 3);
    assert_false(e->untrusted);
    sb_resultfile_free(&rf);
}

static void test_not_wall_clock(void **state)
{
    (void)state;
    fake.flags = 0;
    sb_resultfile rf;
    const sb_entry *e = run3(&rf, true, 0.1);
    assert_int_equal(calls, 3);
    assert_false(e->untrusted);
    sb_resultfile_free(&rf);
    fake.flags = SB_WL_WALL_CLOCK;
}

/* The fake's values 1, 2, 3 ... spread far beyond 3.5 %: at full scale the run rule adds
 * runs; at --quick only the quick top-up does, for a figure above 10 % relative SD, up to
 * twice the scheduled runs (test_quick_topup.c has the rest of that rule). */
static void test_quick_no_extra_runs(void **state)
{
    (void)state;
    sb_resultfile rf;
    dynamic_rule = true;
    const sb_entry *e = run3(&rf, false, 3.0);
    assert_true(calls > 3);
    assert_true(e->n_values > 3);
    sb_resultfile_free(&rf);
    e = run3(&rf, true, 3.0);
    assert_int_equal(calls, 6);
    assert_int_equal(e->n_values, 6);
    sb_resultfile_free(&rf);
    dynamic_rule = false;
}

/* Work that measures almost nothing stops pooling at 1,000 repetitions and is flagged. */
static void test_quick_repetition_bound(void **state)
{
    (void)state;
    sb_resultfile rf;
    const sb_entry *e = run3(&rf, true, 0.001);
    assert_int_equal(calls, 3 * 1000);
    assert_true(e->untrusted);
    sb_resultfile_free(&rf);
}

/* quick_runs = 2: two runs at --quick, the default three at full scale, and what the user
 * asked for (--runs 4) in both. */
static void test_workload_quick_runs(void **state)
{
    (void)state;
    sb_resultfile rf;
    fake.quick_runs = 2;
    const sb_entry *e = run3(&rf, true, 3.0);
    assert_int_equal(calls, 2);
    assert_int_equal(e->n_values, 2);
    sb_resultfile_free(&rf);
    e = run3(&rf, false, 3.0);
    assert_int_equal(calls, 3);
    sb_resultfile_free(&rf);
    user_runs = 4;
    e = run3(&rf, true, 3.0);
    assert_int_equal(calls, 4);
    assert_int_equal(e->n_values, 4);
    sb_resultfile_free(&rf);
    user_runs = 0;
    fake.quick_runs = 0;
}

/* Dilated x4: 8 s of the guest's clock are 2 s of the figures' time, short; 12 s are 3. */
static void test_dilated_seconds(void **state)
{
    (void)state;
    sb_resultfile rf;
    const sb_entry *e = run3(&rf, false, 8.0);
    assert_false(e->untrusted); /* undilated, 8 s is long enough */
    sb_resultfile_free(&rf);
    time_dilate = 4;
    e = run3(&rf, false, 8.0);
    assert_int_equal(calls, 3);
    assert_true(e->untrusted);
    sb_resultfile_free(&rf);
    e = run3(&rf, false, 12.0);
    assert_false(e->untrusted);
    sb_resultfile_free(&rf);
    /* --quick: 8 s of the guest's a repetition, 2 of the figures': two make a run. */
    e = run3(&rf, true, 8.0);
    assert_int_equal(calls, 6);
    assert_false(e->untrusted);
    sb_resultfile_free(&rf);
    time_dilate = 1;
    e = run3(&rf, true, 8.0);
    assert_int_equal(calls, 3);
    sb_resultfile_free(&rf);
}

static void test_cpu_busy(void **state)
{
    (void)state;
    sb_resultfile rf;
    const sb_entry *e = run3(&rf, false, 4.0);
    assert_false(e->has_cpu_busy); /* off outside the lab */
    sb_resultfile_free(&rf);
    sb_cpubusy_enable(true);
    e = run3(&rf, false, 4.0); /* the whole run: this host's share, whatever it is */
    assert_true(e->has_cpu_busy);
    assert_true(e->cpu_busy_pct >= 0 && e->cpu_busy_pct <= 100);
    sb_resultfile_free(&rf);
    own_window = true;
    e = run3(&rf, false, 4.0); /* the workload's own windows: 3 s busy of 12 */
    assert_true(e->has_cpu_busy);
    assert_true(e->cpu_busy_pct == 25);
    sb_resultfile_free(&rf);
    own_window = false;
    sb_cpubusy_enable(false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_scale_short_run_flagged),
        cmocka_unit_test(test_quick_short_work_pooled),
        cmocka_unit_test(test_not_wall_clock),
        cmocka_unit_test(test_quick_no_extra_runs),
        cmocka_unit_test(test_quick_repetition_bound),
        cmocka_unit_test(test_workload_quick_runs),
        cmocka_unit_test(test_cpu_busy),
        cmocka_unit_test(test_dilated_seconds),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
