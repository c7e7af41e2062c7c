/* Unit tests for the I/O engine's time series and steady-state stop (src/io/log/sampling.c,
 * the hooks in loop.c and worker.c): the intervals of a real job add up to its totals,
 * with several threads too; per_second groups sub-second intervals; a criterion that any
 * window meets stops a long job as soon as its window is full and says so; one that can
 * never be met runs to the end and says it was not attained; SNIA mode fills its rounds.
 * Behaviour only: no assertion depends on how fast this machine is. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define SCRATCH_TEMPLATE "/var/tmp/sbiots.XXXXXX"
#include "scratch_dir.h"

#include "io/job.h"

static sb_io_job job;
static sb_io_result res;

static void base_job(double runtime, double interval)
{
    sb_io_job_init(&job);
    job.rw = SB_RW_RANDWRITE;
    job.size = 1 << 20;
    job.runtime_s = runtime;
    job.time_based = true;
    job.log_interval_s = interval;
    snprintf(job.directory, sizeof job.directory, "%s", dir);
}

static void check_sums(const sb_io_result *r)
{
    assert_non_null(r->series);
    double ios = 0, bytes = 0;
    for (size_t i = 0; i < r->series->n; i++) {
        const sb_series_point *p = &r->series->p[i];
        ios += p->iops * p->dur;
        bytes += p->bw * p->dur;
        if (i + 1 < r->series->n)
            assert_true(fabs(p->dur - r->series->interval_s) < 1e-6);
        if (p->iops > 0) /* within what the whole job saw */
            assert_true(p->lat_p99_us > 0 && p->lat_mean_us > 0 &&
                        p->lat_p99_us <= (double)r->clat_all.max / 1e3 * 1.01);
    }
    double total = (double)(r->dir[0].ios + r->dir[1].ios);
    assert_true(fabs(ios - total) < 0.5 + total * 1e-9);
    assert_true(fabs(bytes - (double)(r->dir[0].bytes + r->dir[1].bytes)) < 4096);
    /* the last point ends where the measurement ended */
    assert_true(fabs(r->series->p[r->series->n - 1].t - r->seconds) < 1e-3);
}

static void test_series_adds_up(void **state)
{
    char err[256];
    base_job(1.2, 0.1);
    assert_int_equal(sb_io_run(&job, &res, err, sizeof err), 0);
    check_sums(&res);
    assert_true(fabs(res.series->interval_s - 0.1) < 1e-9);
    assert_true(res.series->n >= 11); /* 11 or 12 full intervals (a short last one joins the 11th) */
    /* per_second groups ten 100 ms intervals into each whole second */
    assert_int_equal(res.n_seconds, 1);
    double first = 0;
    for (size_t i = 0; i < 10; i++)
        first += res.series->p[i].iops * res.series->p[i].dur;
    assert_true(fabs(res.iops[0] - first) < 0.5);
    sb_io_result_free(&res);
    assert_int_equal(entries(dir), 0);
}

static void test_threads(void **state)
{
    char err[256];
    base_job(0.5, 0.05);
    job.numjobs = 3;
    assert_int_equal(sb_io_run(&job, &res, err, sizeof err), 0);
    check_sums(&res);
    sb_io_result_free(&res);
}

static void test_steady_stops_early(void **state)
{
    char err[256];
    base_job(600, 0);
    /* any window is within a million percent of its mean: attained once 2 s are in */
    assert_int_equal(sb_ss_parse("iops:1000000%", &job.steady, err, sizeof err), 0);
    job.steady.dur_s = 2;
    assert_int_equal(sb_io_run(&job, &res, err, sizeof err), 0);
    assert_true(res.steady.attained);
    assert_false(res.interrupted);
    assert_true(res.steady.attained_s >= 2 - 1e-9 && res.steady.attained_s < 3 + 1e-9);
    assert_true(res.seconds < 600);
    assert_int_equal(res.steady.n_samples, 2);
    sb_io_result_free(&res);
}

static void test_steady_not_attained(void **state)
{
    char err[256];
    base_job(1.5, 0);
    /* a window of 5 s never fills in 1.5 s */
    assert_int_equal(sb_ss_parse("iops_slope:50%", &job.steady, err, sizeof err), 0);
    job.steady.dur_s = 5;
    assert_int_equal(sb_io_run(&job, &res, err, sizeof err), 0);
    assert_false(res.steady.attained);
    assert_false(res.steady.full);
    assert_int_equal(res.steady.n_samples, 1); /* one whole second collected, the job ran on */
    sb_io_result_free(&res);
}

static void test_snia_rounds(void **state)
{
    char err[256];
    base_job(2.5, 0.25);
    assert_int_equal(sb_ss_parse("snia", &job.steady, err, sizeof err), 0);
    job.steady.round_s = 1;
    assert_int_equal(sb_io_run(&job, &res, err, sizeof err), 0);
    assert_int_equal(res.steady.n_rounds, 2); /* two full rounds; the half is not one */
    assert_false(res.steady.attained);
    assert_true(res.steady.rounds[0].value > 0);
    assert_false(res.steady.rounds[1].evaluated);
    sb_io_result_free(&res);
    /* bad durations are refused by the job check */
    base_job(1, 0);
    job.log_interval_s = 0.001;
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, NULL, 0), -EINVAL);
    assert_non_null(strstr(err, "log interval"));
    base_job(1, 0);
    assert_int_equal(sb_ss_parse("bw_slope:1%", &job.steady, err, sizeof err), 0);
    job.steady.dur_s = 1;
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, NULL, 0), -EINVAL);
    assert_non_null(strstr(err, "ss_dur"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_series_adds_up),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_steady_stops_early),
        cmocka_unit_test(test_steady_not_attained),
        cmocka_unit_test(test_snia_rounds),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
