/* Unit tests for core/timeseries (intervals from cumulative counters: rates, mean and p99
 * per interval, empty intervals, the partial last one, several threads) and for the
 * bounded series (thinning keeps equal-length points and the totals), and for the text
 * sparkline. Synthetic clocks: nothing here depends on timing. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/timeseries.h"
#include "report/sparkline.h"

#define MS 1000000ull
#define SEC 1000000000ull

/* Records n completions of latency lat_ns each at times spread over [from, to). */
static void feed(sb_tsb *b, sb_histogram *h, uint64_t *bytes, uint64_t from, uint64_t to,
                 unsigned n, uint64_t lat_ns)
{
    const sb_histogram *hl[1] = {h};
    for (unsigned i = 0; i < n; i++) {
        uint64_t now = from + (to - from) * i / n;
        if (sb_tsb_due(b, now))
            sb_tsb_close(b, now, hl, 1, *bytes);
        sb_hist_record(h, lat_ns);
        *bytes += 4096;
    }
}

static void test_intervals_from_counters(void **state)
{
    sb_tsb b;
    sb_histogram *h = malloc(sizeof *h);
    sb_hist_init(h);
    assert_int_equal(sb_tsb_init(&b, 0, SEC), 0);
    uint64_t bytes = 0;
    feed(&b, h, &bytes, 0, SEC, 1000, 100000);           /* second 0: 1000 I/Os of 100 us */
    feed(&b, h, &bytes, SEC, 2 * SEC, 500, 1000000);     /* second 1: 500 of 1 ms */
    /* second 2: nothing; second 3: 99 fast and 1 slow is not enough for a slow p99 ... */
    feed(&b, h, &bytes, 3 * SEC, 3 * SEC + 500 * MS, 200, 50000);
    const sb_histogram *hl[1] = {h};
    sb_tsb_finish(&b, 3 * SEC + 500 * MS, hl, 1, bytes);
    assert_int_equal(sb_tsb_count(&b), 4);
    const sb_tsb *one = &b;
    sb_series *s = malloc(sizeof *s);
    sb_tsb_collect(&one, 1, s);
    assert_int_equal(s->n, 4);
    assert_true(fabs(s->p[0].iops - 1000) < 1e-9);
    assert_true(fabs(s->p[0].bw - 1000 * 4096.0) < 1e-6);
    assert_true(fabs(s->p[0].lat_mean_us - 100) < 1e-6);
    assert_true(fabs(s->p[0].lat_p99_us - 100) < 1);
    assert_true(fabs(s->p[1].iops - 500) < 1e-9);
    assert_true(fabs(s->p[1].lat_p99_us - 1000) < 8);
    assert_true(s->p[2].iops == 0 && s->p[2].lat_mean_us == 0); /* the empty second */
    /* the partial last interval: 200 I/Os in 0.5 s */
    assert_true(fabs(s->p[3].dur - 0.5) < 1e-9);
    assert_true(fabs(s->p[3].iops - 400) < 1e-9);
    assert_true(fabs(s->p[3].t - 3.5) < 1e-9);
    free(s);
    free(h);
    sb_tsb_free(&b);
}

static void test_threads_combined(void **state)
{
    sb_tsb b[2];
    sb_histogram *h = calloc(2, sizeof *h);
    uint64_t bytes[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        sb_hist_init(&h[i]);
        assert_int_equal(sb_tsb_init(&b[i], 0, SEC), 0);
    }
    feed(&b[0], &h[0], &bytes[0], 0, SEC, 100, 10000);   /* fast thread */
    feed(&b[1], &h[1], &bytes[1], 0, SEC, 100, 2000000); /* slow thread */
    const sb_histogram *h0[1] = {&h[0]}, *h1[1] = {&h[1]};
    sb_tsb_close(&b[0], SEC, h0, 1, bytes[0]);
    /* the second thread has not closed its interval yet: not ready */
    const sb_tsb *both[2] = {&b[0], &b[1]};
    bool finished[2] = {false, false};
    sb_series_point p;
    assert_false(sb_tsb_point(both, finished, 2, 0, &p));
    sb_tsb_close(&b[1], SEC, h1, 1, bytes[1]);
    assert_true(sb_tsb_point(both, finished, 2, 0, &p));
    assert_true(fabs(p.iops - 200) < 1e-9);
    assert_true(fabs(p.lat_mean_us - 1005) < 1e-6);
    assert_true(p.lat_p99_us > 1900); /* the larger p99 bounds the combined one */
    for (int i = 0; i < 2; i++)
        sb_tsb_free(&b[i]);
    free(h);
}

static void test_thinning_bounds_and_keeps_totals(void **state)
{
    sb_series *s = malloc(sizeof *s);
    sb_series_init(s, 1);
    double ios = 0;
    size_t total = 5 * SB_SERIES_MAX + 3;
    for (size_t i = 0; i < total; i++) {
        sb_series_point p = {.t = (double)(i + 1), .dur = 1, .iops = (double)(i % 7),
                             .bw = 4096.0 * (double)(i % 7), .lat_mean_us = 10,
                             .lat_p99_us = (double)(i % 50)};
        ios += p.iops;
        sb_series_add(s, &p);
        assert_true(s->n <= SB_SERIES_MAX);
    }
    /* 5115 points: thinned three times, 8 s a point */
    assert_true(fabs(s->interval_s - 8) < 1e-9);
    double sum = 0;
    for (size_t i = 0; i < s->n; i++) {
        sum += s->p[i].iops * s->p[i].dur;
        if (i + 1 < s->n)
            assert_true(fabs(s->p[i].dur - 8) < 1e-9);
        assert_true(s->p[i].lat_p99_us <= 49);
    }
    assert_true(fabs(sum - ios) < 1e-6);
    assert_true(fabs(s->p[s->n - 1].t - (double)total) < 1e-9);
    double lo, mean, hi;
    assert_true(sb_series_range(s, 0, &lo, &mean, &hi));
    assert_true(lo <= mean && mean <= hi);
    free(s);
}

static void test_sparkline(void **state)
{
    char buf[256];
    double up[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    sb_sparkline(buf, sizeof buf, up, 8, 80);
    assert_string_equal(buf, "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588");
    /* 16 values in 4 columns: each the mean of four */
    double two[16] = {0, 0, 0, 0, 9, 9, 9, 9, 0, 0, 0, 0, 9, 9, 9, 9};
    sb_sparkline(buf, sizeof buf, two, 16, 4);
    assert_string_equal(buf, "\u2581\u2588\u2581\u2588");
    double flat[3] = {5, 5, 5};
    sb_sparkline(buf, sizeof buf, flat, 3, 10);
    assert_string_equal(buf, "\u2584\u2584\u2584");
    sb_sparkline(buf, 4, up, 8, 8); /* room for one block only */
    assert_string_equal(buf, "\u2581");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_intervals_from_counters),
        cmocka_unit_test(test_threads_combined),
        cmocka_unit_test(test_thinning_bounds_and_keeps_totals),
        cmocka_unit_test(test_sparkline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
