/*
 * Unit tests of fio's random_generator=lfsr (offsets.c), SPRandom (sprandom.c) and
 * cmdprio (cmdprio.c): the LFSR taps give full periods, an lfsr job visits every block
 * once per pass even without the random map, SPRandom writes the physical capacity with
 * every block at least once and regions of falling validity, and cmdprio picks its share.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <errno.h>

#include "io/loop/cmdprio.h"
#include "io/loop/offsets.h"
#include "io/loop/sprandom.h"
#include "io/options/options.h"

/* Every width up to 20: the Galois step from state 1 returns to 1 after 2^bits - 1 steps
 * and not before. */
static void test_lfsr_full_period(void **state)
{
    for (unsigned bits = 2; bits <= 20; bits++) {
        uint64_t taps = sb_offgen_lfsr_taps(bits), s = 1, n = 0;
        assert_true(taps >> (bits - 1) & 1);
        do {
            s = (s >> 1) ^ (-(s & 1) & taps);
            n++;
        } while (s != 1 && n <= (1ull << bits));
        if (n != (1ull << bits) - 1)
            fail_msg("%u bits: period %llu", bits, (unsigned long long)n);
    }
}

static void test_lfsr_each_block_once(void **state)
{
    const uint64_t nb[] = {1, 2, 3, 1000, 4096, 100003};
    for (size_t k = 0; k < sizeof nb / sizeof nb[0]; k++) {
        sb_offgen g;
        sb_offgen_init(&g, nb[k], true, true /* norandommap */, 7 + k);
        sb_offgen_set_lfsr(&g);
        unsigned char *seen = calloc(nb[k], 1);
        for (int pass = 1; pass <= 2; pass++) {
            bool end = false;
            for (uint64_t i = 0; i < nb[k]; i++) {
                uint64_t b = sb_offgen_next(&g, &end);
                assert_true(b < nb[k]);
                assert_int_equal(seen[b], pass - 1);
                seen[b] = (unsigned char)pass;
                assert_int_equal(end, i == nb[k] - 1);
            }
        }
        free(seen);
    }
}

static void test_sprandom(void **state)
{
    sb_spr s;
    char err[256];
    const uint64_t nb = 10000;
    sb_offgen g;
    sb_offgen_init(&g, nb, true, true, 3);
    sb_offgen_set_lfsr(&g);
    assert_int_equal(sb_spr_init(&s, nb, 0.15, 50, 9, err, sizeof err), 0);
    double v[50];
    sb_spr_validity(&s, v);
    /* lowest validity first, rising to 1; the lowest is about the GC block's, 1 - 1/WA */
    for (int i = 1; i < 50; i++)
        assert_true(v[i] >= v[i - 1] - 1e-12);
    double wa = 0.5 / 0.15 + 0.7;
    assert_true(v[0] > 1 - 1 / wa - 0.05 && v[0] < 1 - 1 / wa + 0.2);
    assert_true(v[49] > 0.99);
    unsigned *count = calloc(nb, sizeof *count);
    uint64_t b, writes = 0;
    while (sb_spr_next(&s, &g, &b)) {
        assert_true(b < nb);
        count[b]++;
        writes++;
    }
    uint64_t physical = nb + 1500;
    for (uint64_t i = 0; i < nb; i++)
        assert_true(count[i] >= 1); /* every block had its fresh write */
    /* the physical capacity, within the regions' rounding and the draw of the rewrites */
    assert_true(writes > physical * 95 / 100 && writes <= physical + nb / 50);
    free(count);
    sb_spr_free(&s);
    assert_int_equal(sb_spr_init(&s, 10, 0.15, 100, 9, err, sizeof err), -EINVAL);
}

static void test_cmdprio(void **state)
{
    sb_cmdprio c;
    char err[256];
    memset(&c, 0, sizeof c);
    c.cls[0] = c.cls[1] = c.level[0] = c.level[1] = -1;
    c.pct[0] = 20;
    bool high;
    unsigned hi = 0;
    for (int i = 0; i < 1000; i++)
        if (sb_cmdprio_pick(&c, 0, 4096, i / 10.0, 0x6000, &high) == 0x2000)
            hi += high;
    assert_int_equal(hi, 200); /* r below 20 of 100: class 1 level 0 */
    assert_int_equal(sb_cmdprio_pick(&c, 1, 4096, 5, 0x6000, &high), 0x6000); /* writes: 0 % */
    memset(&c, 0, sizeof c);
    c.cls[0] = c.cls[1] = c.level[0] = c.level[1] = -1;
    assert_int_equal(sb_cmdprio_parse_bssplit("64k/25/1/1:64k/75/3/2:1024k/0,1024k/0", 1024, &c,
                                              err, sizeof err), 0);
    assert_int_equal(c.n[0], 3);
    assert_int_equal(c.n[1], 1);
    assert_int_equal(sb_cmdprio_pick(&c, 0, 65536, 10, 0, &high), sb_ioprio(1, 1, 0));
    assert_int_equal(sb_cmdprio_pick(&c, 0, 65536, 60, 0, &high), sb_ioprio(3, 2, 0));
    assert_int_equal(sb_cmdprio_pick(&c, 0, 1048576, 10, 0x4007, &high), 0x4007);
    assert_false(high);
    assert_int_equal(sb_cmdprio_parse_bssplit("1M/10/2/0/1", 1024, &c, err, sizeof err), 0);
    assert_int_equal(sb_cmdprio_pick(&c, 1, 1048576, 5, 0, &high), sb_ioprio(2, 0, 1));
    assert_int_equal(sb_cmdprio_parse_bssplit("64k/x", 1024, &c, err, sizeof err), -EINVAL);
    int pair[2];
    assert_int_equal(sb_cmdprio_parse_pair("20,30", 0, 100, pair, err, sizeof err), 0);
    assert_true(pair[0] == 20 && pair[1] == 30);
    assert_int_equal(sb_cmdprio_parse_pair("8", 0, 7, pair, err, sizeof err), -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lfsr_full_period),
        cmocka_unit_test(test_lfsr_each_block_once),
        cmocka_unit_test(test_sprandom),
        cmocka_unit_test(test_cmdprio),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
