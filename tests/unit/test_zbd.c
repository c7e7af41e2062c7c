/* Unit tests for zonemode=zbd (io/zbd.h): the kernel's zone report converted to bytes
 * (sb_zbd_blk_zone: sectors, capacity only when the report says so, read-only and offline
 * zones unusable) — the part of the zoned-device path that runs without a zoned device;
 * and the options: size=Nz / offset=Nz made bytes by resolve, fio's rounding of a
 * writer's region to whole zones, the zone checks. */
#include <errno.h>
#include <linux/blkzoned.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "io/job.h"
#include "io/options/options.h"
#include "io/job/zbd.h"

static void test_report_zone(void **state)
{
    (void)state;
    struct blk_zone z = {.start = 2048, .len = 1024, .wp = 2100, .type = BLK_ZONE_TYPE_SEQWRITE_REQ,
                         .cond = BLK_ZONE_COND_IMP_OPEN, .capacity = 1000};
    sb_zbd_report r;
    sb_zbd_blk_zone(&z, BLK_ZONE_REP_CAPACITY, &r);
    assert_int_equal(r.start, 2048ull * 512);
    assert_int_equal(r.len, 1024ull * 512);
    assert_int_equal(r.wp, 2100ull * 512);
    assert_int_equal(r.capacity, 1000ull * 512);
    assert_int_equal(r.type, SB_ZBD_TYPE_SWR);
    assert_int_equal(r.cond, SB_ZBD_COND_IMP_OPEN);
    sb_zbd_blk_zone(&z, 0, &r); /* a kernel without capacities: the whole zone */
    assert_int_equal(r.capacity, 1024ull * 512);
    z.cond = BLK_ZONE_COND_READONLY;
    sb_zbd_blk_zone(&z, BLK_ZONE_REP_CAPACITY, &r);
    assert_int_equal(r.cond, SB_ZBD_COND_OFFLINE);
    assert_int_equal(r.wp, r.start);
    z.cond = BLK_ZONE_COND_FULL;
    sb_zbd_blk_zone(&z, BLK_ZONE_REP_CAPACITY, &r);
    assert_int_equal(r.cond, SB_ZBD_COND_FULL);
}

static void set(sb_io_job *job, const char *name, const char *v)
{
    char err[256];
    sb_opt_ctx ctx = {.kb_base = 1024};
    assert_int_equal(sb_io_opt_set(job, name, name, v, &ctx, err, sizeof err), 0);
}

static void test_zone_counts(void **state)
{
    (void)state;
    static sb_io_job job;
    char err[256], warn[256] = "";
    sb_io_job_init(&job);
    strcpy(job.filename, "/nonexistent");
    set(&job, "size", "8z");
    set(&job, "offset", "3z");
    set(&job, "zonesize", "256k");
    set(&job, "zonemode", "zbd");
    set(&job, "rw", "randwrite");
    sb_io_job_resolve(&job);
    assert_int_equal(job.size, 8ull << 18);
    assert_int_equal(job.offset, 3ull << 18);
    assert_int_equal(sb_io_zbd_check(&job, err, sizeof err, warn, sizeof warn), 0);
    assert_string_equal(warn, "");
    set(&job, "size", "1m"); /* bytes again: the count is gone */
    assert_int_equal(job.size_zones, 0);
    /* a writer's region becomes whole zones: offset up, end down (fio) */
    set(&job, "offset", "100k");
    set(&job, "size", "1100k");
    sb_io_job_resolve(&job);
    assert_int_equal(job.offset, 256ull << 10);
    assert_int_equal(job.size, 768ull << 10);
    assert_int_equal(sb_io_zbd_check(&job, err, sizeof err, warn, sizeof warn), 0);
    assert_non_null(strstr(warn, "rounded to whole zones"));
    /* a sequential reader keeps its region */
    sb_io_job_init(&job);
    strcpy(job.filename, "/nonexistent");
    set(&job, "zonemode", "zbd");
    set(&job, "zonesize", "256k");
    set(&job, "offset", "100k");
    sb_io_job_resolve(&job);
    assert_int_equal(job.offset, 100ull << 10);
    assert_false(job.zbd_rounded);
}

static void test_zone_checks(void **state)
{
    (void)state;
    static sb_io_job job;
    char err[256];
    sb_io_job_init(&job);
    strcpy(job.filename, "/nonexistent");
    set(&job, "size", "4z");
    assert_int_equal(sb_io_zbd_check(&job, err, sizeof err, NULL, 0), -EINVAL);
    assert_non_null(strstr(err, "counts zones"));
    set(&job, "size", "1m");
    set(&job, "zonemode", "zbd");
    /* no zones known (not a zoned device, no zonesize): taken, as fio's --parse-only; the
     * run fails before any I/O, as fio's ("the zone size is mandatory") */
    assert_int_equal(sb_io_zbd_check(&job, err, sizeof err, NULL, 0), 0);
    sb_io_zbd_resolve(&job);
    assert_non_null(strstr(job.run_fail, "not a zoned device"));
    job.run_fail[0] = '\0';
    set(&job, "zonesize", "256k");
    assert_int_equal(sb_io_zbd_check(&job, err, sizeof err, NULL, 0), 0);
    set(&job, "verify", "crc32c");
    assert_int_equal(sb_io_zbd_check(&job, err, sizeof err, NULL, 0), -EINVAL);
    char e2[256];
    sb_opt_ctx ctx = {.kb_base = 1024};
    assert_int_equal(sb_io_opt_set(&job, "zone_reset_threshold", "zone_reset_threshold", "1.5", &ctx, e2,
                                   sizeof e2), -EINVAL);
    assert_int_equal(sb_io_opt_set(&job, "size", "size", "0z", &ctx, e2, sizeof e2), -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report_zone),
        cmocka_unit_test(test_zone_counts),
        cmocka_unit_test(test_zone_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
