/*
 * test_devices_ssd — the SSD model's physics on its virtual clock (devices/model.h):
 * the datasheet's queue-depth-1 latencies, parallel flash units, the host link's
 * bandwidth, flush and discard costs, the SLC cache running out; and the ram model,
 * which answers at once. Nothing here reads a clock.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "devices/model.h"

#define GIB (1ull << 30)
#define T0 1000000000ull

static sb_dev_model *mk(const char *spec)
{
    char err[256] = "";
    sb_dev_model *m = NULL;
    if (sb_dev_model_new(spec, GIB, &m, err, sizeof err))
        fail_msg("%s: %s", spec, err);
    return m;
}

static void test_qd1_latency_is_the_datasheets(void **state)
{
    (void)state;
    /* 850 EVO: 10,000 IOPS 4K random read at QD1, 40,000 write */
    sb_dev_model *m = mk("ssd-850evo");
    uint64_t r = sb_dev_model_service(m, SB_DEV_READ, 123 * 4096, 4096, T0) - T0;
    uint64_t w = sb_dev_model_service(m, SB_DEV_WRITE, 7 * 4096, 4096, T0 + 1000000) - (T0 + 1000000);
    assert_true(fabs(r / 100000.0 - 1) < 0.03);
    assert_true(fabs(w / 25000.0 - 1) < 0.03);
    sb_dev_model_free(m);
}

static void test_parallel_units(void **state)
{
    (void)state;
    /* 64 random 4K reads all submitted at once finish far sooner than one after another */
    sb_dev_model *m = mk("ssd-850evo");
    uint64_t end = 0;
    for (int i = 0; i < 64; i++) {
        uint64_t c = sb_dev_model_service(m, SB_DEV_READ, (uint64_t)(i * 7919 % 65536) * 16384, 4096, T0);
        end = c > end ? c : end;
    }
    sb_dev_model_free(m);
    m = mk("ssd-850evo");
    uint64_t t = T0;
    for (int i = 0; i < 64; i++)
        t = sb_dev_model_service(m, SB_DEV_READ, (uint64_t)(i * 7919 % 65536) * 16384, 4096, t);
    sb_dev_model_free(m);
    assert_true((double)(end - T0) < 0.35 * (double)(t - T0));
    /* one unit: no overlap left beyond the controller's pipelining */
    m = mk("ssd-850evo,units=1");
    end = 0;
    for (int i = 0; i < 64; i++) {
        uint64_t c = sb_dev_model_service(m, SB_DEV_READ, (uint64_t)i * 16384, 4096, T0);
        end = c > end ? c : end;
    }
    assert_true((double)(end - T0) > 64 * 75e3);
    sb_dev_model_free(m);
}

static void test_link_bandwidth(void **state)
{
    (void)state;
    /* sequential 1 MiB reads back to back: the 540 MB/s of the SATA link */
    sb_dev_model *m = mk("ssd-850evo");
    uint64_t t = T0;
    for (int i = 0; i < 200; i++)
        t = sb_dev_model_service(m, SB_DEV_READ, (uint64_t)i << 20, 1 << 20, t);
    double mbps = 200.0 * 1048576 / ((double)(t - T0) / 1e9) / 1e6;
    assert_true(mbps > 0.95 * 540 && mbps <= 540);
    sb_dev_model_free(m);
    /* and writes at the datasheet's 520 MB/s, the rate the units program the SLC cache */
    m = mk("ssd-850evo");
    t = T0;
    for (int i = 0; i < 200; i++)
        t = sb_dev_model_service(m, SB_DEV_WRITE, (uint64_t)i << 20, 1 << 20, t);
    t = sb_dev_model_service(m, SB_DEV_FLUSH, 0, 0, t);
    mbps = 200.0 * 1048576 / ((double)(t - T0) / 1e9) / 1e6;
    assert_true(fabs(mbps / 520 - 1) < 0.05);
    sb_dev_model_free(m);
}

static void test_flush_costs_the_pending_program(void **state)
{
    (void)state;
    sb_dev_model *m = mk("ssd-850evo");
    uint64_t t = sb_dev_model_service(m, SB_DEV_WRITE, 0, 4096, T0);
    uint64_t f = sb_dev_model_service(m, SB_DEV_FLUSH, 0, 0, t);
    assert_true(f - t >= 252000); /* the partial page is programmed: a page program */
    uint64_t g = sb_dev_model_service(m, SB_DEV_FLUSH, 0, 0, f);
    assert_true(g - f < 50000); /* nothing held: only the command */
    /* write-through (wce=0): the write itself waits for the program */
    sb_dev_model_free(m);
    m = mk("ssd-850evo,wce=0");
    t = sb_dev_model_service(m, SB_DEV_WRITE, 0, 4096, T0);
    assert_true(t - T0 >= 252000);
    sb_dev_model_free(m);
}

static uint64_t commits(const sb_dev_model *m)
{
    sb_dev_stats st;
    sb_dev_model_stats(m, &st);
    return st.commits;
}

static void test_flush_commits_the_ftl(void **state)
{
    (void)state;
    /* 4 KiB writes at QD1 with the write cache off (wce=0): about 340 a second, as the
     * O_DSYNC journal test measured the 850 EVO with hdparm -W 0 (docs/devices.md): each
     * write programs its page and commits the FTL (wt-commit-us) before its answer */
    sb_dev_model *m = mk("ssd-850evo,wce=0");
    uint64_t t = T0;
    for (int i = 0; i < 100; i++)
        t = sb_dev_model_service(m, SB_DEV_WRITE, (uint64_t)i * 4096, 4096, t);
    double per_s = 100 / ((double)(t - T0) / 1e9);
    assert_true(fabs(per_s / 340 - 1) < 0.05);
    assert_int_equal(commits(m), 100);
    /* nothing is held after a write-through write: a FLUSH costs the command alone */
    uint64_t g = sb_dev_model_service(m, SB_DEV_FLUSH, 0, 0, t);
    assert_true(g - t < 50000);
    sb_dev_model_free(m);
    /* the write cache on (the preset): write + FLUSH at QD1 costs the same, the FLUSH
     * committing what the write-through write committed */
    m = mk("ssd-850evo");
    t = T0;
    for (int i = 0; i < 100; i++) {
        t = sb_dev_model_service(m, SB_DEV_WRITE, (uint64_t)i * 4096, 4096, t);
        t = sb_dev_model_service(m, SB_DEV_FLUSH, 0, 0, t);
    }
    per_s = 100 / ((double)(t - T0) / 1e9);
    assert_true(fabs(per_s / 340 - 1) < 0.05);
    assert_int_equal(commits(m), 100);
    /* a FLUSH with nothing written since the last one commits nothing */
    g = sb_dev_model_service(m, SB_DEV_FLUSH, 0, 0, t);
    assert_true(g - t < 50000);
    /* the commit holds the controller: a read behind it waits for it */
    t = sb_dev_model_service(m, SB_DEV_WRITE, 0, 4096, g);
    uint64_t f = sb_dev_model_service(m, SB_DEV_FLUSH, 0, 0, t);
    uint64_t r = sb_dev_model_service(m, SB_DEV_READ, 1 << 20, 4096, t + 1000);
    assert_true(r >= f - 50000);
    sb_dev_model_free(m);
    /* flush-us=0: a FLUSH costs the pending program only */
    m = mk("ssd-850evo,flush-us=0");
    t = sb_dev_model_service(m, SB_DEV_WRITE, 0, 4096, T0);
    f = sb_dev_model_service(m, SB_DEV_FLUSH, 0, 0, t);
    assert_true(f - t >= 252000 && f - t < 300000);
    assert_int_equal(commits(m), 0);
    sb_dev_model_free(m);
}

static void test_950pro_write_flush_is_the_slog_benchmarks(void **state)
{
    (void)state;
    /* FreeBSD's diskinfo -S (ZFS SLOG pattern: a 4 KiB write at a random offset, then a
     * cache flush, one at a time) measured a Samsung 950 PRO at 2,090.7 us a write + flush
     * with its write cache on (docs/devices.md): the preset's FLUSH commits the FTL after the
     * padded page program, so write + FLUSH at QD1 takes that time, one commit each */
    sb_dev_model *m = mk("ssd-950pro");
    uint64_t t = T0;
    for (int i = 0; i < 200; i++) {
        t = sb_dev_model_service(m, SB_DEV_WRITE, (uint64_t)(i * 7919 % 65536) * 4096, 4096, t);
        t = sb_dev_model_service(m, SB_DEV_FLUSH, 0, 0, t);
    }
    double us_each = (double)(t - T0) / 200 / 1e3;
    assert_true(fabs(us_each / 2090.7 - 1) < 0.01);
    assert_int_equal(commits(m), 200);
    sb_dev_model_free(m);
    /* without the commit (flush-us=0, the preset before the measurement was found) the same
     * loop costs the write and the page program only, a sixth of it */
    m = mk("ssd-950pro,flush-us=0");
    t = T0;
    for (int i = 0; i < 200; i++) {
        t = sb_dev_model_service(m, SB_DEV_WRITE, (uint64_t)(i * 7919 % 65536) * 4096, 4096, t);
        t = sb_dev_model_service(m, SB_DEV_FLUSH, 0, 0, t);
    }
    assert_true((double)(t - T0) / 200 / 1e3 < 400);
    assert_int_equal(commits(m), 0);
    sb_dev_model_free(m);
}

static void test_discard_drains_the_queue(void **state)
{
    (void)state;
    sb_dev_model *m = mk("ssd-850evo");
    uint64_t last = 0;
    for (int i = 0; i < 64; i++)
        last = sb_dev_model_service(m, SB_DEV_WRITE, (uint64_t)i * 65536, 65536, T0);
    (void)last;
    uint64_t d = sb_dev_model_service(m, SB_DEV_DISCARD, 0, 1 << 20, T0 + 1000);
    /* non-queued TRIM: after every program the 4 MiB left in flight, plus its own time */
    assert_true(d - T0 > 4.0 * 1048576 / 520e6 * 1e9);
    sb_dev_model_free(m);
}

static void test_slc_cache_runs_out(void **state)
{
    (void)state;
    /* 10 MB of SLC cache, then the 150 MB/s the 120 GB model sustains after TurboWrite */
    sb_dev_model *m = mk("ssd-850evo,slc-gb=0.01");
    uint64_t t = T0, mid = 0;
    for (int i = 0; i < 60; i++) {
        t = sb_dev_model_service(m, SB_DEV_WRITE, (uint64_t)i << 20, 1 << 20, t);
        if (i == 29)
            mid = t;
    }
    t = sb_dev_model_service(m, SB_DEV_FLUSH, 0, 0, t);
    double late = 30.0 * 1048576 / ((double)(t - mid) / 1e9) / 1e6;
    assert_true(fabs(late / 150 - 1) < 0.05);
    sb_dev_model_free(m);
}

/* MB/s of n back-to-back 1 MiB writes from t, with the FLUSH that puts them on the flash. */
static double write_mbps(sb_dev_model *m, int n, uint64_t *t)
{
    uint64_t s = *t;
    for (int i = 0; i < n; i++)
        *t = sb_dev_model_service(m, SB_DEV_WRITE, (uint64_t)i << 20, 1 << 20, *t);
    *t = sb_dev_model_service(m, SB_DEV_FLUSH, 0, 0, *t);
    return n * 1048576.0 / ((double)(*t - s) / 1e9) / 1e6;
}

static void test_preconditioned_buffer_writes_at_tlc_rate(void **state)
{
    (void)state;
    /* slc-fill=1: the buffer a long write filled; from the first byte, the 150 MB/s the
     * 120 GB model sustains beyond TurboWrite, every byte programmed straight to TLC */
    sb_dev_model *m = mk("ssd-850evo,slc-fill=1");
    uint64_t t = T0;
    double mbps = write_mbps(m, 40, &t);
    assert_true(fabs(mbps / 150 - 1) < 0.05);
    sb_dev_stats st;
    sb_dev_model_stats(m, &st);
    assert_int_equal(st.slc_bytes, 0);
    assert_true(st.tlc_bytes >= 40ull << 20);
    assert_int_equal(st.ops[SB_DEV_WRITE], 40);
    assert_int_equal(st.bytes[SB_DEV_WRITE], 40ull << 20);
    assert_int_equal(st.commits, 1);
    sb_dev_model_free(m);
    /* half full: the first half of the buffer's room at the SLC rate */
    m = mk("ssd-850evo,slc-gb=0.2,slc-fill=0.5");
    t = T0;
    mbps = write_mbps(m, 90, &t);
    assert_true(fabs(mbps / 520 - 1) < 0.05);
    sb_dev_model_free(m);
}

static void test_buffer_drains_in_idle_time(void **state)
{
    (void)state;
    /* 100 MB of buffer, full; idle time empties it at the TLC rate once the drive has been
     * idle for slc-idle-ms (1 s): 4 s idle moves 3 s x 150 MB/s, more than it holds */
    sb_dev_model *m = mk("ssd-850evo,slc-gb=0.1,slc-fill=1");
    uint64_t t = T0;
    assert_true(fabs(write_mbps(m, 10, &t) / 150 - 1) < 0.05);
    t += 4000000000ull;
    assert_true(fabs(write_mbps(m, 60, &t) / 520 - 1) < 0.05);
    sb_dev_stats st;
    sb_dev_model_stats(m, &st);
    assert_true(st.drained_bytes >= 100000000ull - (16u << 10));
    /* 40 MiB more fill it again; a pause shorter than slc-idle-ms drains nothing */
    write_mbps(m, 40, &t);
    t += 900000000ull;
    uint64_t before = st.drained_bytes;
    assert_true(fabs(write_mbps(m, 10, &t) / 150 - 1) < 0.05);
    sb_dev_model_stats(m, &st);
    assert_int_equal(st.drained_bytes, before);
    sb_dev_model_free(m);
    /* an idle drive (not preconditioned) keeps 520 MB/s over many short bursts that each
     * fit in the room idle time left, though their sum is far beyond the buffer */
    m = mk("ssd-850evo,slc-gb=0.1");
    t = T0;
    for (int i = 0; i < 5; i++) {
        assert_true(fabs(write_mbps(m, 60, &t) / 520 - 1) < 0.05);
        t += 2000000000ull;
    }
    sb_dev_model_free(m);
}

static void test_ram_is_instant(void **state)
{
    (void)state;
    sb_dev_model *m = mk("ram");
    assert_int_equal(sb_dev_model_service(m, SB_DEV_WRITE, 0, 1 << 20, T0), T0);
    assert_int_equal(sb_dev_model_service(m, SB_DEV_FLUSH, 0, 0, T0 + 5), T0 + 5);
    assert_int_equal(sb_dev_model_kind(m), SB_DEV_KIND_RAM);
    sb_dev_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qd1_latency_is_the_datasheets),
        cmocka_unit_test(test_parallel_units),
        cmocka_unit_test(test_link_bandwidth),
        cmocka_unit_test(test_flush_costs_the_pending_program),
        cmocka_unit_test(test_flush_commits_the_ftl),
        cmocka_unit_test(test_950pro_write_flush_is_the_slog_benchmarks),
        cmocka_unit_test(test_discard_drains_the_queue),
        cmocka_unit_test(test_slc_cache_runs_out),
        cmocka_unit_test(test_preconditioned_buffer_writes_at_tlc_rate),
        cmocka_unit_test(test_buffer_drains_in_idle_time),
        cmocka_unit_test(test_ram_is_instant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
