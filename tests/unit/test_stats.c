/* Unit tests for core/stats: summary statistics and the dynamic run-count rule. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/stats.h"

static void test_summary(void **state)
{
    (void)state;
    double v[] = {2, 4, 4, 4, 5, 5, 7, 9};
    sb_stats s;
    sb_stats_compute(v, 8, &s);
    assert_true(fabs(s.mean - 5) < 1e-12);
    assert_true(fabs(s.sd - sqrt(32.0 / 7)) < 1e-12);
    assert_true(fabs(s.se - sqrt(32.0 / 7) / sqrt(8)) < 1e-12);
    assert_true(fabs(s.rsd_pct - 100 * sqrt(32.0 / 7) / 5) < 1e-9);
    assert_true(s.min == 2 && s.max == 9);
    sb_stats_compute(v, 1, &s);
    assert_true(s.sd == 0 && s.se == 0 && s.mean == 2);
    sb_stats_compute(v, 0, &s);
    assert_int_equal(s.n, 0);
}

static void test_rule_scheduled_and_stable(void **state)
{
    (void)state;
    double v[] = {100, 101, 99, 100, 100, 100, 100, 100, 100, 100};
    assert_true(sb_run_rule_want_more(3, v, 0));
    assert_true(sb_run_rule_want_more(3, v, 2));
    assert_false(sb_run_rule_want_more(3, v, 3)); /* RSD 1 % < 3.5 % */
}

static void test_rule_noisy_adds_up_to_twice(void **state)
{
    (void)state;
    /* Alternating 80/120: RSD stays ~20 %, never converging. */
    double v[9] = {80, 120, 80, 120, 80, 120, 80, 120, 80};
    assert_true(sb_run_rule_want_more(3, v, 3));
    assert_true(sb_run_rule_want_more(3, v, 4));
    assert_true(sb_run_rule_want_more(3, v, 5));
    /* At 2x, the RSD has not halved: stop. */
    assert_false(sb_run_rule_want_more(3, v, 6));
}

static void test_rule_converging_goes_to_three_times(void **state)
{
    (void)state;
    /* A noisy start, then runs that settle: at 2x the RSD (77 %) is below half its value
     * after the scheduled runs (173 %), so runs continue past 2x, but still stop at 3x. */
    double v[9] = {0, 0, 3, 3, 3, 3, 3, 3, 3};
    sb_stats first, six;
    sb_stats_compute(v, 3, &first);
    sb_stats_compute(v, 6, &six);
    assert_true(six.rsd_pct >= SB_RSD_THRESHOLD_PCT);
    assert_true(six.rsd_pct < first.rsd_pct / 2);
    assert_true(sb_run_rule_want_more(3, v, 6));
    assert_false(sb_run_rule_want_more(3, v, 9));
}

static void test_rule_single_run(void **state)
{
    (void)state;
    double v[] = {1, 100};
    assert_false(sb_run_rule_want_more(1, v, 1));
    assert_false(sb_run_rule_want_more(0, v, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_rule_scheduled_and_stable),
        cmocka_unit_test(test_rule_noisy_adds_up_to_twice),
        cmocka_unit_test(test_rule_converging_goes_to_three_times),
        cmocka_unit_test(test_rule_single_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
