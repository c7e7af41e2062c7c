/* Unit tests for the sums of a report (src/io/report/aggregate.c): a job's block from
 * its result (an asynchronous engine's latency split into fio's clat/slat/lat, a
 * synchronous engine's IO depths), unified_rw_reporting's mixed direction, the
 * disable_* options' figures left out, group_reporting's merge, and a group's "Run
 * status group" figures (bytes, aggregate bandwidth over the longest runtime, least and
 * greatest bandwidth and runtime). Made-up results with known figures, no I/O. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <cmocka.h>

#include "io/report/aggregate.h"

static sb_io_job job;
static sb_io_result res;
static struct rusage ru;

/* A randrw job that did reads and writes: n I/Os of 4 KiB each way in 2 s, each with a
 * latency of lat_ns (issued after slat_ns when slat_ns > 0: an asynchronous engine). */
static void result(uint64_t n, uint64_t lat_ns, uint64_t slat_ns, const char *engine)
{
    sb_io_job_init(&job);
    job.rw = SB_RW_RANDRW;
    memset(&res, 0, sizeof res);
    snprintf(res.engine, sizeof res.engine, "%s", engine);
    res.seconds = 2;
    sb_hist_init(&res.clat_all);
    sb_hist_init(&res.sync.clat);
    for (int d = 0; d < SB_DDIR_N; d++) {
        sb_hist_init(&res.dir[d].clat);
        sb_hist_init(&res.dir[d].slat);
        sb_hist_init(&res.dir[d].clat_issued);
    }
    for (int d = 0; d < 2; d++) {
        res.dir[d].ios = n;
        res.dir[d].bytes = n * 4096;
        for (uint64_t i = 0; i < n; i++) {
            sb_hist_record(&res.dir[d].clat, lat_ns);
            sb_hist_record(&res.clat_all, lat_ns);
            if (slat_ns) {
                sb_hist_record(&res.dir[d].slat, slat_ns);
                sb_hist_record(&res.dir[d].clat_issued, lat_ns - slat_ns);
            }
        }
    }
    memset(&ru, 0, sizeof ru);
}

static void test_sync_engine(void **state)
{
    result(100, 10000, 0, "psync");
    sb_io_agg *a = sb_io_agg_new(&job, &res, -1, 3, 0, &ru, &ru);
    assert_int_equal(a->groupid, 3);
    assert_int_equal(a->dir[SB_DDIR_READ].ios, 100);
    assert_int_equal(a->dir[SB_DDIR_WRITE].bytes, 100 * 4096);
    assert_null(a->dir[SB_DDIR_READ].lat); /* one clat: nothing submitted apart */
    assert_null(a->dir[SB_DDIR_READ].slat);
    assert_int_equal(a->all->count, 200);
    assert_true(a->depth_known); /* one in flight: all at depth 1, submitted one by one */
    assert_int_equal(a->depth_level[0], 200);
    assert_int_equal(a->depth_submit[1], 200);
    assert_int_equal(a->dir[SB_IO_AGG_MIXED].ios, 0); /* no unified_rw_reporting */
    sb_io_agg_free(a);
}

static void test_async_split(void **state)
{
    result(50, 30000, 1000, "libaio");
    sb_io_agg *a = sb_io_agg_new(&job, &res, -1, 0, 0, &ru, &ru);
    const sb_io_agg_dir *r = &a->dir[SB_DDIR_READ];
    assert_non_null(r->lat);
    assert_non_null(r->slat);
    assert_int_equal(r->lat->count, 50);
    /* fio's clat is from the submission: 29 us; lat the whole, 30 us */
    assert_true(r->clat->max < r->lat->max);
    assert_int_equal(a->all->count, 100);
    sb_io_agg_free(a);
}

static void test_mixed(void **state)
{
    result(100, 10000, 0, "psync");
    job.unified_rw = 1;
    sb_io_agg *a = sb_io_agg_new(&job, &res, -1, 0, 0, &ru, &ru);
    const sb_io_agg_dir *m = &a->dir[SB_IO_AGG_MIXED];
    assert_int_equal(m->ios, 200);
    assert_int_equal(m->bytes, 200 * 4096);
    assert_int_equal(m->clat->count, 200);
    assert_int_equal(a->dir[SB_DDIR_READ].ios, 100); /* the directions stay (for both) */
    sb_io_agg_group g;
    const sb_io_agg *one[] = {a};
    sb_io_agg_group_of(one, 1, 0, &g);
    assert_int_equal(g.bytes[SB_IO_AGG_MIXED], 200 * 4096);
    assert_true(g.agg_bw[SB_IO_AGG_MIXED] == 200 * 4096 / 2.0);
    sb_io_agg_free(a);
}

static void test_disable(void **state)
{
    result(10, 10000, 0, "psync");
    job.disable_clat = true;
    job.disable_bw = true;
    double bw[3] = {1, 2, 3};
    res.bw_bytes_per_s = res.iops = bw;
    res.n_seconds = 3;
    job.rw = SB_RW_RANDREAD; /* one direction: its samples would be the job's */
    sb_io_agg *a = sb_io_agg_new(&job, &res, -1, 0, 0, &ru, &ru);
    assert_int_equal(a->dir[SB_DDIR_READ].n_samples, 0);
    assert_int_equal(a->all->count, 0); /* the buckets are of the clat not kept */
    sb_io_agg_free(a);
    job.disable_clat = job.disable_bw = false;
    a = sb_io_agg_new(&job, &res, -1, 0, 0, &ru, &ru);
    assert_int_equal(a->dir[SB_DDIR_READ].n_samples, 3);
    assert_int_equal(a->all->count, 20);
    sb_io_agg_free(a);
}

static void test_group(void **state)
{
    result(100, 10000, 0, "psync");
    job.group_reporting = true;
    sb_io_agg *a = sb_io_agg_new(&job, &res, -1, 1, 0, &ru, &ru);
    res.seconds = 4;
    res.dir[SB_DDIR_READ].bytes *= 3;
    sb_io_agg *b = sb_io_agg_new(&job, &res, -1, 1, 5, &ru, &ru);
    const sb_io_agg *both[] = {a, b};
    sb_io_agg_group g;
    sb_io_agg_group_of(both, 2, 1, &g);
    /* reads: 400 KiB in 2 s (200 KiB/s) and 1200 KiB in 4 s (300 KiB/s) */
    assert_int_equal(g.bytes[SB_DDIR_READ], 4 * 100 * 4096);
    assert_true(g.min_bw[SB_DDIR_READ] == 100 * 4096 / 2.0);
    assert_true(g.max_bw[SB_DDIR_READ] == 300 * 4096 / 4.0);
    assert_true(g.agg_bw[SB_DDIR_READ] == 400 * 4096 / 4.0);
    assert_true(g.min_run_s[SB_DDIR_READ] == 2 && g.max_run_s[SB_DDIR_READ] == 4);
    assert_int_equal(g.bytes[SB_DDIR_TRIM], 0);
    assert_true(sb_io_agg_joins(a, b));
    sb_io_agg_merge(a, b);
    assert_int_equal(a->jobs, 2);
    assert_int_equal(a->dir[SB_DDIR_READ].ios, 200);
    assert_int_equal(a->dir[SB_DDIR_READ].clat->count, 200);
    assert_true(a->runtime_s == 4);
    assert_int_equal(a->error, 5); /* the first job's error, else a later one's */
    b->groupid = 2;
    assert_false(sb_io_agg_joins(a, b));
    sb_io_agg_free(a);
    sb_io_agg_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sync_engine),
        cmocka_unit_test(test_async_split),
        cmocka_unit_test(test_mixed),
        cmocka_unit_test(test_disable),
        cmocka_unit_test(test_group),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
