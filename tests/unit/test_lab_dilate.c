/*
 * test_lab_dilate — time dilation of the device lab (`--vm-dilate K`,
 * scenario/lab_dilate.h) without booting anything: the table of units (time-like,
 * rates, neither, unknown), which tests may run dilated, the tests' durations stretched
 * in the guest below their options (fio's, fs-mark's and dbench's), a result brought back
 * to the model's time (fio, sqlite, fs-mark and dbench figures)
 * (and one with a unit the table does not know left untouched), the filesystems'
 * timers in the mount options, and the model's clock: every delay a model gives is K
 * times as long in the guest, exactly. tests/vm/test_vm_lab.sh boots a dilated guest.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "devices/model.h"
#include "io/job.h"
#include "results/result.h"
#include "scenario/lab_dilate.h"
#include "workloads/dbench/dbench.h"
#include "workloads/fsmark.h"
#include "workloads/registry.h"

static char err[512];

static void test_units(void **state)
{
    (void)state;
    assert_int_equal(sb_lab_dilate_unit("s"), SB_DIL_TIME);
    assert_int_equal(sb_lab_dilate_unit("us"), SB_DIL_TIME);
    assert_int_equal(sb_lab_dilate_unit("Seconds"), SB_DIL_TIME);
    assert_int_equal(sb_lab_dilate_unit("MB/s"), SB_DIL_RATE);
    assert_int_equal(sb_lab_dilate_unit("IOPS"), SB_DIL_RATE);
    assert_int_equal(sb_lab_dilate_unit("B/s"), SB_DIL_RATE);
    assert_int_equal(sb_lab_dilate_unit("1/s"), SB_DIL_RATE);
    assert_int_equal(sb_lab_dilate_unit("B"), SB_DIL_SAME);
    assert_int_equal(sb_lab_dilate_unit(""), SB_DIL_SAME);
    /* fs-mark's and dbench's */
    assert_int_equal(sb_lab_dilate_unit("Files/s"), SB_DIL_RATE);
    assert_int_equal(sb_lab_dilate_unit("ops/s"), SB_DIL_RATE);
    assert_int_equal(sb_lab_dilate_unit("ms"), SB_DIL_TIME);
    assert_int_equal(sb_lab_dilate_unit("ops"), SB_DIL_SAME);
    assert_int_equal(sb_lab_dilate_unit("files"), SB_DIL_SAME);
    assert_int_equal(sb_lab_dilate_unit("bytes"), SB_DIL_SAME);
    assert_int_equal(sb_lab_dilate_unit("threads"), SB_DIL_SAME);
    assert_int_equal(sb_lab_dilate_unit("dirs"), SB_DIL_SAME);
    assert_int_equal(sb_lab_dilate_unit("Files/min"), SB_DIL_UNKNOWN);
    assert_int_equal(sb_lab_dilate_unit("ops/min"), SB_DIL_UNKNOWN);
    assert_int_equal(sb_lab_dilate_unit(NULL), SB_DIL_UNKNOWN);
}

static sb_config cfg[2];

static void test_refusal_and_tests(void **state)
{
    (void)state;
    sb_config_init(&cfg[0], sb_workload_find("fio"), false);
    sb_config_init(&cfg[1], sb_workload_find("sqlite"), false);
    assert_int_equal(sb_config_set(&cfg[0], "ramp", "500ms", err, sizeof err), 0);
    assert_null(sb_lab_dilate_refusal(&cfg[0]));
    assert_null(sb_lab_dilate_refusal(&cfg[1]));
    sb_config bad;
    sb_config_init(&bad, sb_workload_find("postmark"), false);
    assert_non_null(sb_lab_dilate_refusal(&bad));
    sb_config_init(&bad, sb_workload_find("fio"), false);
    assert_int_equal(sb_config_set(&bad, "steadystate", "iops:5%", err, sizeof err), 0);
    assert_non_null(sb_lab_dilate_refusal(&bad));

    for (size_t i = 0; i < 2; i++)
        assert_int_equal(sb_config_resolve(&cfg[i], err, sizeof err), 0);
    const sb_io_job *job = sb_config_params(&cfg[0]);
    /* K = 1: nothing changes. */
    assert_int_equal(sb_lab_dilate_tests(cfg, 2, 1, err, sizeof err), 0);
    assert_true(job->runtime_s == 20 && job->startdelay_s == 5 && job->ramp_s == 0.5);
    /* K = 8: fio's durations x8 in its resolved job; its options (what the result and its
     * option line say) keep the model's values; sqlite has none. */
    char before[1024], after[1024];
    sb_config_describe(&cfg[0], &cfg[0].workload->measures[0], before, sizeof before);
    assert_int_equal(sb_lab_dilate_tests(cfg, 2, 8, err, sizeof err), 0);
    assert_true(job->runtime_s == 160 && job->startdelay_s == 40 && job->ramp_s == 4);
    assert_true(sb_config_is_resolved(&cfg[0]));
    assert_string_equal(sb_config_get(&cfg[0], "runtime"), "20");
    assert_string_equal(sb_config_get(&cfg[0], "ramp"), "500ms");
    sb_config_describe(&cfg[0], &cfg[0].workload->measures[0], after, sizeof after);
    assert_string_equal(before, after);
    assert_int_equal(sb_lab_dilate_tests(&bad, 1, 8, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "steadystate"));
}

static sb_config fsd[2];

/* fs-mark and dbench run dilated: their durations on the guest's clock x8 in their
 * resolved params (fs_mark's 180-s sub-directory period, the drivers' wake-ups, dbench's
 * time and warm-up), their options and option lines unchanged. */
static void test_fs_tests(void **state)
{
    (void)state;
    sb_config_init(&fsd[0], sb_workload_find("fs-mark"), false);
    sb_config_init(&fsd[1], sb_workload_find("dbench"), false);
    assert_int_equal(sb_config_set(&fsd[0], "test", "4000-files-32-dirs", err, sizeof err), 0);
    assert_int_equal(sb_config_set(&fsd[1], "time", "5", err, sizeof err), 0);
    assert_int_equal(sb_config_set(&fsd[1], "warmup", "2", err, sizeof err), 0);
    assert_int_equal(sb_config_set(&fsd[1], "loadfile", "builtin", err, sizeof err), 0);
    assert_null(sb_lab_dilate_refusal(&fsd[0]));
    assert_null(sb_lab_dilate_refusal(&fsd[1]));
    for (size_t i = 0; i < 2; i++)
        assert_int_equal(sb_config_resolve(&fsd[i], err, sizeof err), 0);
    const fsm_params *fp = sb_config_params(&fsd[0]);
    const db_params *dp = sb_config_params(&fsd[1]);
    assert_true(fp->dir_period_s == 180 && fp->poll_ns == 100000000ull && fp->files == 4000 && fp->dirs == 32);
    assert_true(dp->time == 5 && dp->warmup == 2 && dp->clock_k == 1);
    assert_int_equal(sb_lab_dilate_tests(fsd, 2, 1, err, sizeof err), 0);
    assert_true(fp->dir_period_s == 180 && dp->time == 5 && dp->clock_k == 1);
    char before[2][1024], after[1024];
    for (size_t i = 0; i < 2; i++)
        sb_config_describe(&fsd[i], &fsd[i].workload->measures[0], before[i], sizeof before[i]);
    double eta = fsd[1].workload->estimate_seconds(dp);
    assert_int_equal(sb_lab_dilate_tests(fsd, 2, 8, err, sizeof err), 0);
    assert_true(fp->dir_period_s == 1440 && fp->poll_ns == 800000000ull);
    assert_true(fp->files == 4000 && fp->dirs == 32 && fp->size == 1048576 && fp->threads == 1);
    assert_true(dp->time == 40 && dp->warmup == 16 && dp->clock_k == 8 && dp->clients == 6);
    assert_true(fsd[1].workload->estimate_seconds(dp) == 8 * eta - 7); /* the guest's 56 s + 1 */
    for (size_t i = 0; i < 2; i++) {
        assert_true(sb_config_is_resolved(&fsd[i]));
        sb_config_describe(&fsd[i], &fsd[i].workload->measures[0], after, sizeof after);
        assert_string_equal(before[i], after);
    }
    assert_string_equal(sb_config_get(&fsd[1], "time"), "5");
    assert_string_equal(sb_config_get(&fsd[1], "warmup"), "2");
}

static sb_series series;

/* A guest's result: fio (a rate headline, time-like and neutral secondaries, a series) and
 * sqlite (seconds), as a guest dilated x8 would leave them. */
static void guest_result(sb_resultfile *rf, const char *fio_unit)
{
    sb_resultfile_init(rf);
    sb_kvlist opts = {0};
    sb_kvlist_add(&opts, "runtime", "20");
    sb_kvlist_add(&opts, "startdelay", "5");
    sb_kvlist_add(&opts, "type", "randwrite");
    sb_result *r = sb_resultfile_get_result_opts(rf, "fio", "Flexible IO Tester", "", "Type: Random Write",
                                                 fio_unit, SB_HIGHER_IS_BETTER, &opts);
    sb_kvlist_free(&opts);
    sb_entry *e = sb_result_add_entry(r, "SSD");
    double v[] = {10, 12};
    sb_entry_set_values(e, v, 2);
    sb_entry_add_secondary(e, "iops", "IOPS", 2560);
    sb_entry_add_secondary(e, "lat_mean", "us", 800);
    sb_entry_add_secondary(e, "bytes", "B", 1000);
    sb_entry_add_secondary(e, "seconds", "s", 160);
    sb_series_init(&series, 1.0);
    sb_series_point p = {.t = 1, .dur = 1, .iops = 2560, .bw = 1e6, .lat_mean_us = 800, .lat_p99_us = 1600};
    sb_series_add(&series, &p);
    sb_entry_set_series(e, &series, 0);
    r = sb_resultfile_get_result(rf, "sqlite", "SQLite", "", "Inserts: 250", "Seconds", SB_LOWER_IS_BETTER);
    e = sb_result_add_entry(r, "SSD");
    double s[] = {80, 80};
    sb_entry_set_values(e, s, 2);
}

/* fs-mark's and dbench's figures as a guest dilated x8 leaves them: every secondary
 * figure's unit as the workloads write them (fsmark.c, dbench.c, sb_sample_add_latency). */
static void guest_fs_result(sb_resultfile *rf)
{
    sb_resultfile_init(rf);
    sb_result *r = sb_resultfile_get_result(rf, "fs-mark", "FS-Mark", "", "Test: Custom", "Files/s",
                                            SB_HIGHER_IS_BETTER);
    sb_entry *e = sb_result_add_entry(r, "RAID1");
    double v[] = {7.5};
    sb_entry_set_values(e, v, 1);
    sb_entry_add_secondary(e, "files_created", "files", 100);
    sb_entry_add_secondary(e, "bytes_written", "bytes", 104857600);
    sb_entry_add_secondary(e, "workers", "threads", 1);
    sb_entry_add_secondary(e, "sub_dirs_used", "dirs", 1);
    sb_entry_add_secondary(e, "random_data", "", 0);
    sb_entry_add_secondary(e, "lat_mean", "us", 120000);
    r = sb_resultfile_get_result(rf, "dbench", "Dbench", "", "Client Count: 6", "MB/s", SB_HIGHER_IS_BETTER);
    e = sb_result_add_entry(r, "RAID1");
    double d[] = {12.5};
    sb_entry_set_values(e, d, 1);
    sb_entry_add_secondary(e, "operations", "ops", 40000);
    sb_entry_add_secondary(e, "ops_per_sec", "ops/s", 1000);
    sb_entry_add_secondary(e, "bytes_read", "bytes", 3e8);
    sb_entry_add_secondary(e, "max_latency", "ms", 800);
    sb_entry_add_secondary(e, "lat_p99", "us", 4000);
}

static void test_result(void **state)
{
    (void)state;
    sb_resultfile rf;
    guest_result(&rf, "MB/s");
    assert_int_equal(sb_lab_dilate_result(&rf, 1, err, sizeof err), 0);
    assert_true(rf.results[0].entries[0].mean == 11);
    assert_int_equal(sb_lab_dilate_result(&rf, 8, err, sizeof err), 0);
    const sb_entry *e = &rf.results[0].entries[0];
    assert_true(e->mean == 88 && e->values[0] == 80 && e->values[1] == 96);
    assert_true(e->sd > 11.3 && e->sd < 11.32); /* sqrt(2) x 8 */
    assert_true(e->secondary[0].value == 2560 * 8);
    assert_true(e->secondary[1].value == 100);
    assert_true(e->secondary[2].value == 1000);
    assert_true(e->secondary[3].value == 20);
    assert_true(e->series->interval_s == 0.125 && e->series->p[0].t == 0.125 && e->series->p[0].dur == 0.125);
    assert_true(e->series->p[0].iops == 2560 * 8 && e->series->p[0].bw == 8e6);
    assert_true(e->series->p[0].lat_mean_us == 100 && e->series->p[0].lat_p99_us == 200);
    assert_string_equal(sb_kvlist_get(&rf.results[0].options, "runtime"), "20");
    assert_string_equal(sb_kvlist_get(&rf.results[0].options, "startdelay"), "5");
    assert_string_equal(sb_kvlist_get(&rf.results[0].options, "type"), "randwrite");
    assert_true(rf.results[1].entries[0].mean == 10);
    sb_resultfile_free(&rf);

    /* fs-mark: files/s x8, a file's time /8, counts and sizes as they were; dbench: MB/s and
     * operations a second x8, the longest operation and the latencies /8, counts unchanged
     * (so operations / ops_per_sec is the model's 5 s, not the guest's 40). */
    guest_fs_result(&rf);
    assert_int_equal(sb_lab_dilate_result(&rf, 8, err, sizeof err), 0);
    e = &rf.results[0].entries[0];
    assert_true(e->mean == 60 && e->values[0] == 60);
    assert_true(e->secondary[0].value == 100 && e->secondary[1].value == 104857600 && e->secondary[2].value == 1);
    assert_true(e->secondary[3].value == 1 && e->secondary[4].value == 0);
    assert_true(e->secondary[5].value == 15000);
    e = &rf.results[1].entries[0];
    assert_true(e->mean == 100);
    assert_true(e->secondary[0].value == 40000 && e->secondary[1].value == 8000 && e->secondary[2].value == 3e8);
    assert_true(e->secondary[3].value == 100 && e->secondary[4].value == 500);
    assert_true(e->secondary[0].value / e->secondary[1].value == 5);
    sb_resultfile_free(&rf);

    /* A unit the table does not know: refused, and nothing half scaled. */
    guest_result(&rf, "Files/min");
    assert_int_equal(sb_lab_dilate_result(&rf, 8, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "Files/min"));
    assert_true(rf.results[0].entries[0].mean == 11 && rf.results[1].entries[0].mean == 80);
    sb_resultfile_free(&rf);
}

static void test_config(void **state)
{
    (void)state;
    sb_scn_config c;
    memset(&c, 0, sizeof c);
    snprintf(c.filesystem, sizeof c.filesystem, "ext4");
    snprintf(c.mount_options, sizeof c.mount_options, "noatime");
    sb_lab_dilate_config(&c, 1);
    assert_string_equal(c.mount_options, "noatime");
    sb_lab_dilate_config(&c, 8);
    assert_string_equal(c.mount_options, "noatime,commit=40,max_batch_time=120000");
    assert_int_equal(c.time_dilate, 8);
    snprintf(c.mount_options, sizeof c.mount_options, "commit=10,noatime");
    sb_lab_dilate_config(&c, 4);
    assert_string_equal(c.mount_options, "noatime,commit=40,max_batch_time=60000");
    snprintf(c.filesystem, sizeof c.filesystem, "btrfs");
    snprintf(c.mount_options, sizeof c.mount_options, "compress=lzo");
    sb_lab_dilate_config(&c, 8);
    assert_string_equal(c.mount_options, "compress=lzo,commit=240");
    snprintf(c.filesystem, sizeof c.filesystem, "xfs");
    snprintf(c.mount_options, sizeof c.mount_options, "noatime");
    sb_lab_dilate_config(&c, 8);
    assert_string_equal(c.mount_options, "noatime");
}

/* Two fresh models of one spec are in the same state: the dilated one, asked at K times the
 * time, answers K times the undilated one's, to the nanosecond. */
static void model_pair(const char *spec, unsigned k)
{
    sb_dev_model *a, *b;
    assert_int_equal(sb_dev_model_new(spec, 256ull << 20, &a, err, sizeof err), 0);
    assert_int_equal(sb_dev_model_new(spec, 256ull << 20, &b, err, sizeof err), 0);
    uint64_t t = 1000000000ull;
    for (int i = 0; i < 50; i++) {
        uint64_t off = (uint64_t)(i * 7919 % 60000) * 4096;
        sb_dev_op op = i % 5 == 4 ? SB_DEV_FLUSH : i % 2 ? SB_DEV_WRITE : SB_DEV_READ;
        uint64_t len = op == SB_DEV_FLUSH ? 0 : 4096;
        assert_true(sb_lab_model_position(b, k, op, off, t * k) == sb_dev_model_position_ns(a, op, off, t) * k);
        assert_true(sb_lab_model_ready(b, k, t * k) == sb_dev_model_ready_ns(a, t) * k);
        uint64_t da = sb_dev_model_service(a, op, off, len, t);
        uint64_t db = sb_lab_model_service(b, k, op, off, len, t * k);
        assert_true(db == da * k);
        assert_true(db - t * k == (da - t) * k); /* each delay xK */
        t = i % 3 ? da : t + 37000;
    }
    sb_dev_model_free(a);
    sb_dev_model_free(b);
}

static void test_model_clock(void **state)
{
    (void)state;
    model_pair("ssd-850evo,read-us=20000", 4);
    model_pair("ssd-850evo", 8);
    model_pair("hdd-hua723020", 8);
    model_pair("hdd-hua723020", 1);
    /* The lab's QD1 read of tests/vm/test_vm_lab.sh: 20,025 us in the model, x4 in the guest. */
    sb_dev_model *m;
    assert_int_equal(sb_dev_model_new("ssd-850evo,read-us=20000", 256ull << 20, &m, err, sizeof err), 0);
    uint64_t now = 4000000000ull, done = sb_lab_model_service(m, 4, SB_DEV_READ, 0, 4096, now);
    assert_true(done - now > 4 * 20000000ull && done - now < 4 * 20100000ull);
    sb_dev_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_refusal_and_tests),
        cmocka_unit_test(test_fs_tests),
        cmocka_unit_test(test_result),
        cmocka_unit_test(test_config),
        cmocka_unit_test(test_model_clock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
