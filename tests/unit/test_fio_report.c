/* Unit tests for fio's output writers (src/formats/fio_*.c): fio's number formatting on
 * figures copied from fio 3.33's own output, the latency buckets (fio's boundaries: a
 * value below 2 us counts as "2", 2 us exactly as "4"), the percentile columns, the
 * terse version 3 field count (121 without a disk, 9 more per disk, as fio's), and the
 * JSON's units (bw in KiB/s rounded down, runtime in ms). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "formats/fio_report.h"

static void test_num2str(void **state)
{
    char b[32];
    /* read: IOPS=49.6k, BW=194MiB/s (203MB/s)(1984KiB/10msec): fio's own line */
    sb_fio_num2str(b, sizeof b, 49600, 4, false, "");
    assert_string_equal(b, "49.6k");
    sb_fio_num2str(b, sizeof b, 2652, 4, false, "");
    assert_string_equal(b, "2652");
    sb_fio_num2str(b, sizeof b, 2031616, 4, true, "B");
    assert_string_equal(b, "1984KiB");
    sb_fio_num2str(b, sizeof b, 203161600, 4, true, "B/s");
    assert_string_equal(b, "194MiB/s");
    sb_fio_num2str(b, sizeof b, 203161600, 4, false, "B/s");
    assert_string_equal(b, "203MB/s");
    sb_fio_num2str(b, sizeof b, 10865000, 4, true, "B/s"); /* BW=10.4MiB/s (10.9MB/s) */
    assert_string_equal(b, "10.4MiB/s");
    sb_fio_num2str(b, sizeof b, 10865000, 4, false, "B/s");
    assert_string_equal(b, "10.9MB/s");
    sb_fio_num2str(b, sizeof b, 6815638, 6, false, ""); /* clat max=6815.6k */
    assert_string_equal(b, "6815.6k");
}

static sb_histogram h;

static void test_lat_buckets(void **state)
{
    double ns[10], us[10], ms[12];
    sb_hist_init(&h);
    sb_hist_record(&h, 1);       /* ns "2" */
    sb_hist_record(&h, 1500);    /* us "2" */
    sb_hist_record(&h, 2000);    /* us "4": fio's bounds are exclusive */
    sb_hist_record(&h, 3000000); /* ms "4" */
    sb_fio_lat_buckets(&h, ns, us, ms);
    assert_true(fabs(ns[0] - 25) < 1e-9);
    assert_true(fabs(us[0] - 25) < 1e-9);
    assert_true(fabs(us[1] - 25) < 1e-9);
    assert_true(fabs(ms[1] - 25) < 1e-9);
    double sum = 0;
    for (int i = 0; i < 10; i++)
        sum += ns[i] + us[i];
    for (int i = 0; i < 12; i++)
        sum += ms[i];
    assert_true(fabs(sum - 100) < 1e-9);
}

/* A report of one read job of 256 I/Os of 4 KiB in 0.5 s. */
static sb_fio_job job;
static sb_fio_report rep;
static sb_fio_group grp;

static void one_job(void)
{
    memset(&job, 0, sizeof job);
    snprintf(job.name, sizeof job.name, "t");
    job.jobs = 1;
    job.runtime_s = 0.5;
    job.dir[SB_FIO_READ].ios = 256;
    job.dir[SB_FIO_READ].bytes = 256 * 4096;
    sb_hist_init(&h);
    for (int i = 0; i < 256; i++)
        sb_hist_record(&h, 10000 + (uint64_t)i);
    job.dir[SB_FIO_READ].clat = &h;
    job.lat_all = &h;
    job.clat_percentiles = true;
    job.rw = "randread";
    job.engine = "psync";
    job.bs_min = job.bs_max = 4096;
    job.iodepth = 1;
    job.latency_percentile = 100; /* no latency_target: fio's unset values, depth = iodepth */
    job.latency_depth = 1;
    job.depth_known = true;
    job.depth_level[0] = job.depth_submit[1] = job.depth_complete[1] = 256;
    memset(&rep, 0, sizeof rep);
    rep.jobs = &job;
    rep.n_jobs = 1;
    rep.version = "test";
    /* its group, as io/report/aggregate.c sums it: 1 MiB in 0.5 s */
    memset(&grp, 0, sizeof grp);
    grp.bytes[SB_FIO_READ] = 256 * 4096;
    grp.agg_bw[SB_FIO_READ] = grp.min_bw[SB_FIO_READ] = grp.max_bw[SB_FIO_READ] = 256 * 4096 / 0.5;
    grp.min_run_s[SB_FIO_READ] = grp.max_run_s[SB_FIO_READ] = 0.5;
    rep.groups = &grp;
    rep.n_groups = 1;
}

static size_t fields(const char *line)
{
    size_t n = 1;
    for (const char *p = line; *p && *p != '\n'; p++)
        n += *p == ';';
    return n;
}

static void test_terse_fields(void **state)
{
    one_job();
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    sb_fio_print_terse(f, &rep);
    fclose(f);
    assert_int_equal(fields(buf), 121);
    assert_memory_equal(buf, "3;fio-3.33;t;0;0;1024;2048;512;500;", 35);
    free(buf);
    sb_fio_disk d = {.name = "vda", .ios = {1, 2}, .util_pct = 5};
    rep.disks = &d;
    rep.n_disks = 1;
    f = open_memstream(&buf, &len);
    sb_fio_print_terse(f, &rep);
    fclose(f);
    assert_int_equal(fields(buf), 130);
    free(buf);
}

static void test_json_units(void **state)
{
    one_job();
    json_t *root = sb_fio_json(&rep, true);
    json_t *r = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "read");
    assert_int_equal(json_integer_value(json_object_get(r, "bw_bytes")), 2097152);
    assert_int_equal(json_integer_value(json_object_get(r, "bw")), 2048);
    assert_int_equal(json_integer_value(json_object_get(r, "runtime")), 500);
    assert_true(fabs(json_real_value(json_object_get(r, "iops")) - 512) < 1e-9);
    json_t *clat = json_object_get(r, "clat_ns");
    assert_non_null(json_object_get(json_object_get(clat, "percentile"), "99.000000"));
    json_t *bins = json_object_get(clat, "bins");
    json_int_t n = 0;
    const char *k;
    json_t *v;
    json_object_foreach(bins, k, v)
        n += json_integer_value(v);
    assert_int_equal(n, 256);
    assert_string_equal(json_string_value(json_object_get(root, "fio version")), "fio-3.33 (storbench-test)");
    json_decref(root);
}

static void test_normal_blocks(void **state)
{
    one_job();
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    sb_fio_print_normal(f, &rep, NULL, NULL);
    fclose(f);
    assert_non_null(strstr(buf, "\nt: (groupid=0, jobs=1): err= 0: pid=0: "));
    assert_non_null(strstr(buf, "\n  read: IOPS=512, BW=2048KiB/s (2097kB/s)(1024KiB/500msec)\n"));
    /* 10 us to 10.255 us: the smallest over 2 us but the largest under 100 us: ns */
    assert_non_null(strstr(buf, "\n    clat percentiles (nsec):\n"));
    assert_non_null(strstr(buf, "\nRun status group 0 (all jobs):\n   READ: bw=2048KiB/s (2097kB/s), "));
    assert_null(strstr(buf, "Disk stats"));
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_num2str),
        cmocka_unit_test(test_lat_buckets),
        cmocka_unit_test(test_terse_fields),
        cmocka_unit_test(test_json_units),
        cmocka_unit_test(test_normal_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
