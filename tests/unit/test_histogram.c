/* Unit tests for core/histogram: percentiles within 1 % of exact ones over a
 * wide range of magnitudes, merge, and edge cases. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "core/histogram.h"
#include "core/rand.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double exact_percentile(const uint64_t *sorted, size_t n, double p)
{
    size_t rank = (size_t)ceil(p / 100.0 * (double)n);
    if (rank < 1) rank = 1;
    return (double)sorted[rank - 1];
}

static void check_against_exact(uint64_t *data, size_t n)
{
    sb_histogram *h = malloc(sizeof *h);
    sb_hist_init(h);
    for (size_t i = 0; i < n; i++)
        sb_hist_record(h, data[i]);
    qsort(data, n, sizeof *data, cmp_u64);
    for (int i = 0; i < SB_HIST_N_PERCENTILES; i++) {
        double p = sb_hist_percentiles[i];
        double want = exact_percentile(data, n, p), got = sb_hist_percentile(h, p);
        assert_true(fabs(got - want) <= want * 0.01 + 0.5);
    }
    assert_int_equal(h->count, n);
    assert_true(sb_hist_percentile(h, 100) == (double)data[n - 1]);
    assert_true(sb_hist_percentile(h, 0) == (double)data[0]);
    free(h);
}

static void test_lognormal_wide_range(void **state)
{
    (void)state;
    sb_rand r;
    sb_rand_seed(&r, 42);
    size_t n = 200000;
    uint64_t *d = malloc(n * sizeof *d);
    /* Log-uniform from 1 ns to about 2 hours. */
    for (size_t i = 0; i < n; i++)
        d[i] = (uint64_t)exp(sb_rand_double(&r) * log(7.2e12)) + 1;
    check_against_exact(d, n);
    free(d);
}

static void test_narrow_microseconds(void **state)
{
    (void)state;
    sb_rand r;
    sb_rand_seed(&r, 7);
    size_t n = 100000;
    uint64_t *d = malloc(n * sizeof *d);
    for (size_t i = 0; i < n; i++)
        d[i] = 20000 + sb_rand_below(&r, 5000);
    check_against_exact(d, n);
    free(d);
}

static void test_one_hour_and_small_values(void **state)
{
    (void)state;
    sb_histogram *h = malloc(sizeof *h);
    sb_hist_init(h);
    sb_hist_record(h, 3600ull * 1000000000ull);
    assert_true(fabs(sb_hist_percentile(h, 50) - 3.6e12) < 3.6e12 * 0.01);
    sb_hist_init(h);
    for (uint64_t v = 1; v <= 100; v++)
        sb_hist_record(h, v);
    assert_true(sb_hist_percentile(h, 50) == 50);
    assert_true(sb_hist_percentile(h, 99) == 99);
    assert_true(fabs(sb_hist_mean(h) - 50.5) < 1e-9);
    assert_true(fabs(sb_hist_stddev(h) - 29.011491975882016) < 1e-6);
    free(h);
}

static void test_merge_and_empty(void **state)
{
    (void)state;
    sb_histogram *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    sb_hist_init(a);
    sb_hist_init(b);
    assert_true(sb_hist_percentile(a, 50) == 0);
    assert_true(sb_hist_mean(a) == 0);
    for (int i = 0; i < 1000; i++)
        sb_hist_record(a, 1000);
    for (int i = 0; i < 1000; i++)
        sb_hist_record(b, 1000000);
    sb_hist_merge(a, b);
    assert_int_equal(a->count, 2000);
    assert_int_equal(a->min, 1000);
    assert_int_equal(a->max, 1000000);
    assert_true(fabs(sb_hist_percentile(a, 40) - 1000) <= 10);
    assert_true(fabs(sb_hist_percentile(a, 60) - 1000000) <= 10000);
    free(a);
    free(b);
}

/* sb_hist_clear_sparse leaves every byte zero, whatever page (or none) held data, and a
 * merge into a calloc'd copy equals the original: the figures and every bucket. */
static void test_clear_sparse(void **state)
{
    (void)state;
    size_t n = 3 * 4096 + 100;
    unsigned char *m = malloc(n + 1);
    assert_non_null(m);
    unsigned char *p = m + 1; /* not page-aligned: the first and last chunks are partial */
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(i % 3 == 0 ? 0 : i);
    p[4096 * 2] = 0; /* a page whose data starts late */
    sb_hist_clear_sparse(p, n);
    size_t nonzero = 0;
    for (size_t i = 0; i < n; i++)
        nonzero += p[i] != 0;
    assert_int_equal(nonzero, 0);
    free(m);

    sb_histogram *h = malloc(sizeof *h), *c = calloc(1, sizeof *c);
    assert_non_null(h);
    assert_non_null(c);
    sb_hist_init(h);
    for (uint64_t v = 1; v < 5000000; v = v * 3 + 1)
        sb_hist_record(h, v);
    sb_hist_init_zeroed(c);
    sb_hist_merge(c, h);
    assert_int_equal(c->count, h->count);
    assert_int_equal(c->min, h->min);
    assert_int_equal(c->max, h->max);
    assert_memory_equal(c->buckets, h->buckets, sizeof h->buckets);
    free(h);
    free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lognormal_wide_range),
        cmocka_unit_test(test_narrow_microseconds),
        cmocka_unit_test(test_one_hour_and_small_values),
        cmocka_unit_test(test_merge_and_empty),
        cmocka_unit_test(test_clear_sparse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
