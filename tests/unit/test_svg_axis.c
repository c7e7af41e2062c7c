/*
 * test_svg_axis — the scale behind every `storbench plot` chart (report/svg_axis.h):
 * when an axis turns logarithmic, where its ticks fall, how numbers are written on it,
 * and which figure a metric names.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "report/svg_axis.h"

static void test_linear_below_two_decades(void **state)
{
    (void)state;
    sb_svg_scale s;
    sb_svg_scale_init(&s, 2, 199, true, 0, 100); /* max / min < 100 */
    assert_false(s.log);
    assert_true(s.lo == 0 && s.hi == 200);
    double t[16];
    size_t n = sb_svg_scale_ticks(&s, t, 16);
    assert_int_equal(n, 5); /* 0 50 100 150 200 */
    assert_true(t[0] == 0 && t[1] == 50 && t[4] == 200);
    assert_true(fabs(sb_svg_scale_at(&s, 100) - 50) < 1e-9);
    assert_true(sb_svg_scale_at(&s, 1e9) == 100); /* clamped */
}

static void test_log_from_two_decades(void **state)
{
    (void)state;
    sb_svg_scale s;
    sb_svg_scale_init(&s, 3.5, 500, true, 100, 0); /* vertical: grows upwards */
    assert_true(s.log);
    assert_true(s.lo == 1 && s.hi == 1000);
    double t[16];
    assert_int_equal(sb_svg_scale_ticks(&s, t, 16), 4); /* 1 10 100 1000 */
    assert_true(t[3] == 1000);
    assert_true(fabs(sb_svg_scale_at(&s, 10) - (100 - 100.0 / 3)) < 1e-9);
    sb_svg_scale_init(&s, 3.5, 500, false, 0, 100); /* not allowed: linear */
    assert_false(s.log);
    sb_svg_scale_init(&s, 0, 500, true, 0, 100); /* nothing positive below: linear */
    assert_false(s.log);
}

static void test_numbers(void **state)
{
    (void)state;
    char b[32];
    sb_svg_format_number(b, sizeof b, 0);
    assert_string_equal(b, "0");
    sb_svg_format_number(b, sizeof b, 250);
    assert_string_equal(b, "250");
    sb_svg_format_number(b, sizeof b, 1500);
    assert_string_equal(b, "1.5k");
    sb_svg_format_number(b, sizeof b, 12800);
    assert_string_equal(b, "12.8k");
    sb_svg_format_number(b, sizeof b, 3.2e6);
    assert_string_equal(b, "3.2M");
    sb_svg_format_number(b, sizeof b, 2.5);
    assert_string_equal(b, "2.5");
    sb_svg_format_number(b, sizeof b, 0.005);
    assert_string_equal(b, "0.005");
}

static void test_metric(void **state)
{
    (void)state;
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    sb_result *r = sb_resultfile_get_result(&rf, "fio", "Flexible IO Tester", "", "Type: Random Read",
                                            "MB/s", SB_HIGHER_IS_BETTER);
    sb_entry *e = sb_result_add_entry(r, "nvme");
    e->mean = 80;
    sb_entry_add_secondary(e, "iops", "IOPS", 20000);
    double v;
    const char *unit;
    assert_true(sb_svg_metric(r, e, SB_SVG_METRIC_VALUE, &v, &unit));
    assert_true(v == 80);
    assert_string_equal(unit, "MB/s");
    assert_true(sb_svg_metric(r, e, "iops", &v, &unit));
    assert_true(v == 20000);
    assert_string_equal(unit, "IOPS");
    assert_false(sb_svg_metric(r, e, "lat_p99", &v, &unit));
    assert_true(sb_svg_result_has_metric(r, "iops"));
    assert_false(sb_svg_result_has_metric(r, "lat_p99"));
    char names[128];
    sb_svg_metric_names(&rf, names, sizeof names);
    assert_string_equal(names, "value, iops");
    sb_resultfile_free(&rf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear_below_two_decades),
        cmocka_unit_test(test_log_from_two_decades),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_metric),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
