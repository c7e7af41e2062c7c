/*
 * test_devices_hdd — the HDD model's physics on its virtual clock (devices/model.h):
 * the seek curve through the datasheet's points, the platter's rotational position,
 * streaming at the zone's media rate, sequential small writes far cheaper than random
 * ones, the write cache and what a flush costs, NCQ reordering, and span-gb (the image
 * spread over the disk as a whole-disk filesystem's block groups). Every figure is
 * virtual time computed by the model: nothing here reads a clock.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "devices/internal.h"
#include "devices/model.h"

#define GIB (1ull << 30)
#define T0 1000000000ull /* virtual start: 1 s */

static sb_dev_model *mk(const char *spec, uint64_t size)
{
    char err[256] = "";
    sb_dev_model *m = NULL;
    int rc = sb_dev_model_new(spec, size, &m, err, sizeof err);
    if (rc)
        fail_msg("%s: %s", spec, err);
    return m;
}

static uint64_t lcg(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return *x >> 17;
}

/* The offset at radial position x (0 outer, 1 inner) of a disk whose inner/outer rate
 * ratio is rho: the inverse of the model's geometry. */
static uint64_t off_at_radius(uint64_t cap, double rho, double x)
{
    double r = 1 - x * (1 - rho);
    double f = (1 - r * r) / (1 - rho * rho);
    return (uint64_t)(f * (double)cap);
}

static void test_seek_curve(void **state)
{
    (void)state;
    sb_dev_model *m = mk("hdd-hua723020", 0);
    uint64_t cap = sb_dev_model_capacity(m);
    double rho = 75.0 / 157.0;
    /* monotone in distance */
    uint64_t prev = 0;
    for (int i = 1; i <= 200; i++) {
        uint64_t t = sb_dev_hdd_seek_ns(m, 0, off_at_radius(cap, rho, i / 200.0));
        assert_true(t >= prev);
        prev = t;
    }
    /* full stroke: the datasheet's 15 ms */
    assert_true(fabs(sb_dev_hdd_seek_ns(m, 0, cap - 1) / 1e6 - 15.0) < 0.05);
    /* one cylinder away (8 heads, ~1.2 MB tracks at the rim): track-to-track, 0.5 ms */
    double t2t = sb_dev_hdd_seek_ns(m, 0, 30ull << 20) / 1e6;
    assert_true(t2t >= 0.5 && t2t < 0.6);
    /* the same cylinder: no seek */
    assert_int_equal(sb_dev_hdd_seek_ns(m, 0, 4096), 0);
    /* the average over random pairs of cylinders: the datasheet's 8.2 ms */
    double sum = 0;
    uint64_t x = 7;
    const int n = 20000;
    for (int i = 0; i < n; i++) {
        double a = (lcg(&x) % 1000000) / 1e6, b = (lcg(&x) % 1000000) / 1e6;
        sum += sb_dev_hdd_seek_ns(m, off_at_radius(cap, rho, a), off_at_radius(cap, rho, b)) / 1e6;
    }
    assert_true(fabs(sum / n - 8.2) < 0.15);
    sb_dev_model_free(m);
}

/* Distance of two angles on the circle (revolutions). */
static double circ(double a, double b)
{
    double d = fmod(fabs(a - b), 1.0);
    return d > 0.5 ? 1 - d : d;
}

static void test_rotation(void **state)
{
    (void)state;
    sb_dev_model *m = mk("hdd-hua723020,cmd-us=0", GIB);
    double rev = 60e9 / 7200;
    /* the platter turns once per revolution */
    assert_true(circ(sb_dev_hdd_angle_at(m, T0), sb_dev_hdd_angle_at(m, T0 + (uint64_t)rev)) < 1e-6);
    assert_true(circ(sb_dev_hdd_angle_at(m, T0 + (uint64_t)(rev / 4)), sb_dev_hdd_angle_at(m, T0) + 0.25) < 1e-6);
    /* one track further on (a revolution of media), the same angle */
    assert_true(circ(sb_dev_hdd_angle_of(m, 4096), sb_dev_hdd_angle_of(m, 4096 + 1570000000ull / 7200 * 60 / 10)) <
                1e-3);
    /* a read of a sector on the head's track, issued when the sector is under the head,
     * waits for no rotation; issued just after it passed, for almost a whole one */
    uint64_t off = 256 * 1024;
    double a = sb_dev_hdd_angle_of(m, off);
    double now = sb_dev_hdd_angle_at(m, T0);
    uint64_t at = T0 + (uint64_t)(fmod(a - now + 2, 1.0) * rev);
    uint64_t fast = sb_dev_model_service(m, SB_DEV_READ, off, 4096, at) - at;
    sb_dev_model_free(m);
    m = mk("hdd-hua723020,cmd-us=0", GIB);
    uint64_t late = at + (uint64_t)(rev / 100);
    uint64_t slow = sb_dev_model_service(m, SB_DEV_READ, off, 4096, late) - late;
    assert_true(fast < 100000);                        /* 4 KiB at 157 MB/s: 26 us */
    assert_true(slow > (uint64_t)(0.95 * rev) && slow < (uint64_t)(1.01 * rev));
    sb_dev_model_free(m);
}

/* Reads len-byte requests back to back from off; bytes per second. */
static double stream(sb_dev_model *m, uint64_t off, uint64_t len, int n)
{
    uint64_t t = T0, start = 0;
    for (int i = 0; i < n; i++) {
        t = sb_dev_model_service(m, SB_DEV_READ, off + (uint64_t)i * len, len, t);
        if (i == 0)
            start = t; /* after the first positioning */
    }
    return (double)(n - 1) * (double)len / ((double)(t - start) / 1e9);
}

static void test_streaming_zones(void **state)
{
    (void)state;
    sb_dev_model *m = mk("hdd-hua723020", 0);
    uint64_t cap = sb_dev_model_capacity(m);
    double outer = stream(m, 0, 1 << 20, 200);
    sb_dev_model_free(m);
    m = mk("hdd-hua723020", 0);
    double inner = stream(m, cap - (300ull << 20), 1 << 20, 200);
    assert_true(fabs(outer / 157e6 - 1) < 0.03);
    assert_true(fabs(inner / 75e6 - 1) < 0.03);
    /* the media rate falls from the rim inwards */
    double prev = 1e12;
    for (int i = 0; i <= 10; i++) {
        double r = sb_dev_hdd_media_rate(m, cap / 10 * (uint64_t)i - (i ? 1 : 0));
        assert_true(r < prev);
        prev = r;
    }
    sb_dev_model_free(m);
}

/* n 4 KiB writes at QD1 (each when the one before completes), then a flush: seconds. */
static double writes_4k(const char *spec, int sequential, int n)
{
    sb_dev_model *m = mk(spec, GIB);
    uint64_t t = T0, x = 11;
    for (int i = 0; i < n; i++) {
        uint64_t off = sequential ? (uint64_t)i * 4096 : (lcg(&x) % (GIB / 4096)) * 4096;
        t = sb_dev_model_service(m, SB_DEV_WRITE, off, 4096, t);
    }
    t = sb_dev_model_service(m, SB_DEV_FLUSH, 0, 0, t);
    assert_int_equal(sb_dev_model_dirty_bytes(m), 0);
    sb_dev_model_free(m);
    return (double)(t - T0) / 1e9;
}

static void test_sequential_writes_cheaper_than_random(void **state)
{
    (void)state;
    double seq = writes_4k("hdd-hua723020", 1, 20000), rnd = writes_4k("hdd-hua723020", 0, 20000);
    print_message("seq %.3f s, random %.3f s\n", seq, rnd);
    assert_true(rnd > 5 * seq);
    /* without the cache every write pays its positioning, sequential or not */
    double seq_wt = writes_4k("hdd-hua723020,wce=0", 1, 500);
    assert_true(seq_wt > 500 * 0.9 * (60.0 / 7200)); /* each waits ~ a revolution */
}

static void test_cache_and_flush(void **state)
{
    (void)state;
    sb_dev_model *m = mk("hdd-hua723020", GIB);
    uint64_t t = T0, x = 5;
    /* 1000 random writes fit the 64 MiB cache: each answered at link speed */
    for (int i = 0; i < 1000; i++) {
        uint64_t c = sb_dev_model_service(m, SB_DEV_WRITE, (lcg(&x) % (GIB / 4096)) * 4096, 4096, t);
        assert_true(c - t < 200000);
        t = c;
    }
    uint64_t held = sb_dev_model_dirty_bytes(m);
    assert_true(held > 0 && held <= 1000 * 4096);
    /* the flush costs the media work it holds: a positioning per extent still held */
    uint64_t f = sb_dev_model_service(m, SB_DEV_FLUSH, 0, 0, t);
    assert_true((double)(f - t) > (double)held / 4096 * 0.5e6);
    assert_int_equal(sb_dev_model_dirty_bytes(m), 0);
    /* a flush of an empty cache is only the command */
    uint64_t g = sb_dev_model_service(m, SB_DEV_FLUSH, 0, 0, f);
    assert_true(g - f < 1000000);
    /* idle time destages: after a second of nothing, the cache is empty */
    t = g;
    for (int i = 0; i < 50; i++)
        t = sb_dev_model_service(m, SB_DEV_WRITE, (lcg(&x) % (GIB / 4096)) * 4096, 4096, t);
    assert_true(sb_dev_model_dirty_bytes(m) > 0);
    sb_dev_model_service(m, SB_DEV_READ, 0, 4096, t + 2000000000ull);
    assert_int_equal(sb_dev_model_dirty_bytes(m), 0);
    sb_dev_model_free(m);
}

/* 512 random reads, `depth` outstanding, the next started by shortest positioning
 * among those waiting (what the queue does): seconds of virtual time. */
static double ncq(unsigned depth)
{
    sb_dev_model *m = mk("hdd-hua723020", 0);
    uint64_t cap = sb_dev_model_capacity(m);
    uint64_t pend[32], x = 3, t = T0;
    unsigned np = 0, issued = 0;
    const unsigned total = 512;
    while (issued < total || np) {
        while (np < depth && issued < total) {
            pend[np++] = (lcg(&x) % (cap / 4096)) * 4096;
            issued++;
        }
        unsigned best = 0;
        uint64_t bp = UINT64_MAX;
        for (unsigned i = 0; i < np; i++) {
            uint64_t p = sb_dev_model_position_ns(m, SB_DEV_READ, pend[i], t);
            if (p < bp) {
                bp = p;
                best = i;
            }
        }
        t = sb_dev_model_service(m, SB_DEV_READ, pend[best], 4096, t);
        pend[best] = pend[--np];
    }
    sb_dev_model_free(m);
    return (double)(t - T0) / 1e9;
}

static void test_ncq_reordering(void **state)
{
    (void)state;
    double qd1 = ncq(1), qd32 = ncq(32);
    print_message("qd1 %.3f s, qd32 %.3f s\n", qd1, qd32);
    /* QD1 over the whole disk: an average seek (8.2 ms) and half a revolution (4.2 ms) */
    assert_true(qd1 / 512 > 0.0115 && qd1 / 512 < 0.0135);
    assert_true(qd32 < 0.6 * qd1);
}

#define PIECE (128ull << 20)

/* span-gb: the image's 128 MiB pieces spread evenly over the span; inside a piece nothing
 * changes, between pieces the arm moves as far as the pieces lie apart on the disk. */
static void test_span(void **state)
{
    (void)state;
    sb_dev_model *plain = mk("hdd-hua723020", 2 * GIB), *wide = mk("hdd-hua723020,span-gb=2000", 2 * GIB);
    uint64_t cap = sb_dev_model_capacity(wide);
    /* piece 0 stays at the start; piece 15 (the last) ends at the span's end */
    assert_int_equal(sb_dev_hdd_disk_offset(wide, 4096), 4096);
    uint64_t last = sb_dev_hdd_disk_offset(wide, 15 * PIECE);
    assert_true(last + PIECE <= 2000000000000ull && last + PIECE > 1999000000000ull);
    /* pieces evenly spaced, in order, bytes inside a piece contiguous */
    uint64_t d1 = sb_dev_hdd_disk_offset(wide, PIECE), d2 = sb_dev_hdd_disk_offset(wide, 2 * PIECE);
    assert_int_equal(d2 - d1, d1);
    assert_int_equal(sb_dev_hdd_disk_offset(wide, PIECE + 12345), d1 + 12345);
    /* inside piece 0: the same seeks and media rate as the plain image */
    assert_int_equal(sb_dev_hdd_seek_ns(wide, 0, 100ull << 20), sb_dev_hdd_seek_ns(plain, 0, 100ull << 20));
    assert_true(sb_dev_hdd_media_rate(wide, 4096) == sb_dev_hdd_media_rate(plain, 4096));
    /* the first to the last piece: nearly a full stroke (15 ms) instead of a short seek */
    double full = sb_dev_hdd_seek_ns(wide, 0, 15 * PIECE) / 1e6, near = sb_dev_hdd_seek_ns(plain, 0, 15 * PIECE) / 1e6;
    assert_true(full > 14.0 && full <= 15.0);
    assert_true(near < 2.0);
    /* the middle piece (a journal's place): about half the stroke's distance, more than the average seek */
    assert_true(sb_dev_hdd_seek_ns(wide, 0, 8 * PIECE) / 1e6 > 8.2);
    /* the last piece is on inner tracks: a lower media rate there */
    assert_true(sb_dev_hdd_media_rate(wide, 15 * PIECE) < 0.6 * sb_dev_hdd_media_rate(plain, 15 * PIECE));
    assert_true(sb_dev_hdd_disk_offset(wide, 15 * PIECE) < cap);
    sb_dev_model_free(plain);
    sb_dev_model_free(wide);
    /* a span beyond the disk is refused; one the image does not exceed leaves it in place */
    char err[256] = "";
    assert_true(sb_dev_model_new("hdd-hua723020,span-gb=3000", GIB, NULL, err, sizeof err) < 0);
    assert_non_null(strstr(err, "span-gb"));
    sb_dev_model *small = mk("hdd-hua723020,span-gb=1", 2 * GIB);
    assert_int_equal(sb_dev_hdd_disk_offset(small, 15 * PIECE), 15 * PIECE);
    sb_dev_model_free(small);
}

/* What a filesystem commit does (data block, flush, journal block, flush, as an fsync
 * does): with the journal's piece far from the data's, each flush pays a long seek. */
static void test_span_flush_bound(void **state)
{
    (void)state;
    double took[2];
    for (int w = 0; w < 2; w++) {
        sb_dev_model *m = mk(w ? "hdd-hua723020,span-gb=2000" : "hdd-hua723020", 2 * GIB);
        uint64_t t = T0, x = 3;
        for (int i = 0; i < 100; i++) {
            uint64_t data = PIECE + (lcg(&x) % (PIECE / 4096)) * 4096, journal = 8 * PIECE + (uint64_t)i * 8192;
            t = sb_dev_model_service(m, SB_DEV_WRITE, data, 4096, t);
            t = sb_dev_model_service(m, SB_DEV_FLUSH, 0, 0, t);
            t = sb_dev_model_service(m, SB_DEV_WRITE, journal, 8192, t);
            t = sb_dev_model_service(m, SB_DEV_FLUSH, 0, 0, t);
        }
        took[w] = (t - T0) / 1e6 / 100; /* ms per commit */
        sb_dev_model_free(m);
    }
    /* plain: two short seeks and rotations (~ a revolution, 8.3 ms, each at most);
     * spread: two seeks of about half the stroke more */
    assert_true(took[1] > took[0] + 2 * 6.0);
    assert_true(took[0] < 2 * 8.4 + 2 * 2.0);
}

/* The destage choice as a scan of every extent makes it (the model's rule, hdd_cache.c):
 * the window is every extent that arrived no later than the 32nd oldest (all when fewer);
 * among them, by offset, the first with the shortest positioning. Its index. */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static size_t scan_choice(const sb_dev_model *m, uint64_t now)
{
    uint64_t *ats = malloc(m->ndirty * sizeof *ats);
    for (size_t i = 0; i < m->ndirty; i++)
        ats[i] = m->dirty[i].at;
    qsort(ats, m->ndirty, sizeof *ats, cmp_u64);
    uint64_t edge = ats[(m->ndirty < 32 ? m->ndirty : 32) - 1], best_t = UINT64_MAX;
    free(ats);
    size_t best = 0;
    for (size_t i = 0; i < m->ndirty; i++) {
        if (m->dirty[i].at > edge)
            continue;
        uint64_t t = sb_dev_hdd_reach(m, 1, m->dirty[i].off, now > m->dirty[i].at ? now : m->dirty[i].at);
        if (t < best_t) {
            best_t = t;
            best = i;
        }
    }
    return best;
}

/* The age index holds exactly the extents' (at, off), oldest first. */
static void check_age_index(const sb_dev_model *m)
{
    assert_int_equal(m->nage, m->ndirty);
    const sb_dev_age *a = m->age;
    for (size_t k = 0; k < m->nage; k++) {
        if (k)
            assert_true(a[k - 1].at < a[k].at || (a[k - 1].at == a[k].at && a[k - 1].off < a[k].off));
        size_t lo = 0, hi = m->ndirty; /* the extents are sorted by offset */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (m->dirty[mid].off < a[k].off)
                lo = mid + 1;
            else
                hi = mid;
        }
        assert_true(lo < m->ndirty);
        assert_int_equal(m->dirty[lo].off, a[k].off);
        assert_int_equal(m->dirty[lo].at, a[k].at);
    }
}

/* Extents added (touching and overlapping ones merge), cut by discards, with arrival times
 * out of order as the queue's completions can be, and taken one by one: every take is the
 * scan's choice, and the cache drains to nothing. */
static void test_destage_choice_is_the_scans(void **state)
{
    (void)state;
    sb_dev_model *m = mk("hdd-hua723020", GIB);
    uint64_t x = 11, now = T0;
    for (int round = 0; round < 24; round++) {
        int adds = 50 + (int)(lcg(&x) % 400);
        for (int i = 0; i < adds; i++) {
            uint64_t off = (lcg(&x) % 2048) * 4096, len = (1 + lcg(&x) % 4) * 4096;
            uint64_t at = now + lcg(&x) % 50000000; /* up to 50 ms after now, in no order */
            if (lcg(&x) % 16 == 0)
                at = now + 1000; /* equal arrivals: ties at the window's edge */
            sb_dev_cache_add(m, off, len, at);
            if (lcg(&x) % 8 == 0)
                sb_dev_cache_drop(m, (lcg(&x) % 2048) * 4096 + 512, (1 + lcg(&x) % 6) * 2048);
        }
        check_age_index(m);
        int takes = (int)(lcg(&x) % (m->ndirty + 1));
        if (round == 23)
            takes = (int)m->ndirty;
        for (int i = 0; i < takes; i++) {
            size_t want = scan_choice(m, now);
            sb_dev_extent w = m->dirty[want], got;
            assert_int_equal(sb_dev_cache_take(m, now, &got), 1);
            assert_int_equal(got.off, w.off);
            assert_int_equal(got.len, w.len);
            assert_int_equal(got.at, w.at);
            m->head_off = got.off + got.len; /* where a destage leaves the head */
            now += 1 + lcg(&x) % 3000000;
        }
        check_age_index(m);
    }
    assert_int_equal(m->ndirty, 0);
    assert_int_equal(sb_dev_model_dirty_bytes(m), 0);
    sb_dev_extent none;
    assert_int_equal(sb_dev_cache_take(m, now, &none), 0);
    sb_dev_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seek_curve),
        cmocka_unit_test(test_rotation),
        cmocka_unit_test(test_streaming_zones),
        cmocka_unit_test(test_sequential_writes_cheaper_than_random),
        cmocka_unit_test(test_cache_and_flush),
        cmocka_unit_test(test_ncq_reordering),
        cmocka_unit_test(test_span),
        cmocka_unit_test(test_span_flush_bound),
        cmocka_unit_test(test_destage_choice_is_the_scans),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
