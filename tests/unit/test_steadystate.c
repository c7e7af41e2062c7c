/* Unit tests for io/steadystate: parsing of fio's --steadystate syntax, fio's criteria
 * (deviation and least-squares slope, absolute and %, ss_ramp, the window) on synthetic
 * sample streams, and SNIA PTS's determination (range 20 %, slope excursion 10 %, window
 * of 5 rounds, 25 rounds at most). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "io/log/steadystate.h"

static sb_ss_spec spec_of(const char *s, double dur, double ramp)
{
    sb_ss_spec spec = {.dur_s = dur, .ramp_s = ramp, .round_s = 1};
    char err[256];
    assert_int_equal(sb_ss_parse(s, &spec, err, sizeof err), 0);
    assert_int_equal(sb_ss_check(&spec, err, sizeof err), 0);
    return spec;
}

static void test_parse(void **state)
{
    char err[256], d[64];
    sb_ss_spec s = {0};
    assert_int_equal(sb_ss_parse("iops_slope:2%", &s, err, sizeof err), 0);
    assert_int_equal(s.mode, SB_SS_IOPS_SLOPE);
    assert_true(s.pct && s.limit == 2);
    sb_ss_describe(&s, d, sizeof d);
    assert_string_equal(d, "iops_slope:2%");
    assert_int_equal(sb_ss_parse("bw:10m", &s, err, sizeof err), 0);
    assert_true(s.bw && !s.pct && s.limit == 10 * 1048576.0);
    assert_int_equal(sb_ss_parse("iops:500", &s, err, sizeof err), 0);
    assert_true(!s.bw && !s.pct && s.limit == 500);
    assert_int_equal(sb_ss_parse("snia", &s, err, sizeof err), 0);
    assert_true(s.mode == SB_SS_SNIA && !s.bw);
    assert_int_equal(sb_ss_parse("snia:bw", &s, err, sizeof err), 0);
    assert_true(s.bw);
    assert_int_equal(sb_ss_parse("lat:2%", &s, err, sizeof err), 0);
    assert_true(s.mode == SB_SS_LAT && s.lat && s.pct);
    assert_int_equal(sb_ss_parse("lat_slope:0.1%", &s, err, sizeof err), 0);
    assert_true(s.mode == SB_SS_LAT_SLOPE && s.lat);
    assert_int_equal(sb_ss_parse("latency:2%", &s, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "unknown criterion"));
    assert_int_equal(sb_ss_parse("iops", &s, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "needs a limit"));
    assert_int_equal(sb_ss_parse("iops:-1", &s, err, sizeof err), -EINVAL);
    assert_int_equal(sb_ss_parse("iops:x%", &s, err, sizeof err), -EINVAL);
    assert_int_equal(sb_ss_parse("snia:lat", &s, err, sizeof err), -EINVAL);
    sb_ss_spec w = {.mode = SB_SS_IOPS, .dur_s = 1};
    assert_int_equal(sb_ss_check(&w, err, sizeof err), -EINVAL);
}

/* Feeds 1 s samples y[0..n) (IOPS; bandwidth 4 KiB each); the index of the sample that
 * stopped it, or -1. */
static long run(sb_ss_state *st, const double *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (sb_ss_feed(st, (double)(i + 1), 1, y[i], y[i] * 4096))
            return (long)i;
    return -1;
}

static void test_slope(void **state)
{
    /* rising 10 % a second, then flat at 1000 */
    double y[30];
    for (int i = 0; i < 30; i++)
        y[i] = i < 10 ? 100.0 * (i + 1) : 1000;
    sb_ss_spec spec = spec_of("iops_slope:2%", 5, 0);
    sb_ss_state st;
    assert_int_equal(sb_ss_init(&st, &spec), 0);
    long at = run(&st, y, 30);
    /* the first window of 5 samples with a slope under 2 % of its mean: samples 9..13 hold
     * 1000, 1000, ... preceded by 900? 900,1000,1000,1000,1000 has slope 40/s = 4.1 %;
     * 1000 x 5 (samples 9..13) has slope 0. */
    assert_int_equal(at, 13);
    assert_true(st.attained && fabs(st.attained_s - 14) < 1e-9);
    assert_true(fabs(st.criterion) < 2);
    sb_ss_free(&st);

    /* an absolute limit: slope below 50 IOPS/s is reached earlier, within the ramp */
    spec = spec_of("iops_slope:50", 5, 0);
    assert_int_equal(sb_ss_init(&st, &spec), 0);
    double lin[10] = {0, 40, 80, 120, 160, 200, 240, 280, 320, 360};
    assert_int_equal(run(&st, lin, 10), 4); /* slope exactly 40 */
    assert_true(fabs(st.slope - 40) < 1e-9);
    sb_ss_free(&st);
}

static void test_deviation_and_ramp(void **state)
{
    double y[12] = {10, 500, 990, 1010, 1000, 995, 1005, 1000, 2000, 1000, 1000, 1000};
    sb_ss_spec spec = spec_of("iops:2%", 4, 0);
    sb_ss_state st;
    assert_int_equal(sb_ss_init(&st, &spec), 0);
    /* window 990,1010,1000,995: mean 998.75, max deviation 11.25 = 1.13 % */
    assert_int_equal(run(&st, y, 12), 5);
    assert_true(fabs(st.deviation - 11.25) < 1e-9);
    sb_ss_free(&st);
    /* with ss_ramp 6 s the first six samples are not collected: the spike at 9 s keeps it
     * from being steady until it has left the window */
    spec = spec_of("iops:2%", 3, 6);
    assert_int_equal(sb_ss_init(&st, &spec), 0);
    assert_int_equal(run(&st, y, 12), 11);
    sb_ss_free(&st);
    /* bandwidth: the same samples in bytes/s, absolute limit 100 KiB/s */
    spec = spec_of("bw:100k", 4, 0);
    assert_int_equal(sb_ss_init(&st, &spec), 0);
    assert_int_equal(run(&st, y, 12), 5);
    sb_ss_free(&st);
    /* never steady: alternating */
    double alt[20];
    for (int i = 0; i < 20; i++)
        alt[i] = i % 2 ? 100 : 200;
    spec = spec_of("iops:5%", 4, 0);
    assert_int_equal(sb_ss_init(&st, &spec), 0);
    assert_int_equal(run(&st, alt, 20), -1);
    assert_false(st.attained);
    sb_ss_free(&st);
}

/* fio's lat with ss_interval: samples are the mean latency of 2 s each; the IOPS swing
 * wildly, the latency does not, so lat settles where iops would not. */
static void test_lat_interval(void **state)
{
    sb_ss_spec spec = spec_of("lat:5%", 6, 0);
    spec.interval_s = 2;
    sb_ss_state st;
    assert_int_equal(sb_ss_init(&st, &spec), 0);
    assert_int_equal(st.window, 3); /* 6 s of 2 s samples */
    bool done = false;
    int i;
    for (i = 1; i <= 12 && !done; i++) {
        double ios = i % 2 ? 100 : 900; /* 1 s intervals: IOPS 100, 900, ... */
        done = sb_ss_feed_lat(&st, i, 1, ios, ios * 4096, ios * 250000.0 * (1 + 0.01 * (i % 3)));
    }
    assert_true(done && st.attained);
    assert_int_equal(i - 1, 6); /* the third 2 s sample fills the window */
    assert_true(fabs(st.mean - 250000 * 1.01) < 0.02 * 250000);
    sb_ss_free(&st);
    /* lat_slope: a latency growing 10 % per sample is not steady at 1 % */
    spec = spec_of("lat_slope:1%", 6, 0);
    spec.interval_s = 2;
    assert_int_equal(sb_ss_init(&st, &spec), 0);
    for (i = 1; i <= 12; i++)
        assert_false(sb_ss_feed_lat(&st, i, 1, 100, 409600, 100 * 1e5 * (1 + 0.05 * i)));
    sb_ss_free(&st);
}

static void test_sub_second_intervals_gathered(void **state)
{
    sb_ss_spec spec = spec_of("iops:1%", 2, 0);
    sb_ss_state st;
    assert_int_equal(sb_ss_init(&st, &spec), 0);
    /* 250 ms intervals of 25 I/Os: 100 IOPS a second, steady after two seconds */
    for (int i = 1; i <= 7; i++)
        assert_false(sb_ss_feed(&st, i * 0.25, 0.25, 25, 25 * 4096.0));
    assert_true(sb_ss_feed(&st, 2.0, 0.25, 25, 25 * 4096.0));
    assert_true(fabs(st.mean - 100) < 1e-9);
    sb_ss_free(&st);
}

static void test_snia(void **state)
{
    sb_ss_spec spec = spec_of("snia", 0, 0);
    spec.round_s = 2;
    sb_ss_state st;
    assert_int_equal(sb_ss_init(&st, &spec), 0);
    /* rounds (IOPS): falling from 5000 (the write cliff) to about 1000 */
    double rounds[10] = {5000, 4000, 2500, 1500, 1100, 1000, 1050, 980, 1020, 1000};
    size_t stopped = 0;
    for (size_t r = 0; r < 10 && !stopped; r++)
        for (int half = 0; half < 2; half++) /* two 1 s intervals a round */
            if (sb_ss_feed(&st, 2.0 * r + half + 1, 1, rounds[r], rounds[r] * 4096)) {
                stopped = r + 1;
                break;
            }
    /* window 5..9 (1-based): 1100,1000,1050,980,1020: range 120 <= 20 % of 1030,
     * slope -18/round -> excursion 72 <= 103 */
    assert_int_equal(stopped, 9);
    assert_true(st.attained);
    assert_int_equal(st.n_rounds, 9);
    const sb_ss_round *R = &st.rounds[8];
    assert_true(R->evaluated && R->steady);
    assert_true(fabs(R->avg - 1030) < 1e-9);
    assert_true(fabs(R->range - 120) < 1e-9);
    assert_true(fabs(R->range_allowed - 206) < 1e-9);
    assert_true(fabs(R->excursion - 72) < 1e-9);
    /* round 8's window (4..8: 1500 .. 980) was not steady */
    assert_true(st.rounds[7].evaluated && !st.rounds[7].steady);
    assert_false(st.rounds[3].evaluated);
    sb_ss_free(&st);

    /* never steady: 25 rounds then it stops, NOT ACHIEVED */
    assert_int_equal(sb_ss_init(&st, &spec), 0);
    size_t r = 0;
    for (; r < 100; r++)
        if (sb_ss_feed(&st, 2.0 * (r + 1), 2, r % 2 ? 100 : 300, 0))
            break;
    assert_int_equal(r + 1, SB_SS_SNIA_MAX_ROUNDS);
    assert_true(st.finished && !st.attained);
    sb_ss_free(&st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_slope),
        cmocka_unit_test(test_deviation_and_ramp),
        cmocka_unit_test(test_sub_second_intervals_gathered),
        cmocka_unit_test(test_lat_interval),
        cmocka_unit_test(test_snia),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
