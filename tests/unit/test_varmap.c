/* Unit tests for io/loop/varmap: the random map of a job of sizes drawn, checked against a
 * plain array of flags on maps of 1 to 10,000 blocks (word and second-level edges), and
 * filled to the last block the way a pass fills it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "io/loop/varmap.h"

/* the next free block at or after b, wrapping; UINT64_MAX: none */
static uint64_t naive_free_from(const bool *taken, uint64_t n, uint64_t b)
{
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = (b + i) % n;
        if (!taken[k])
            return k;
    }
    return UINT64_MAX;
}

static void test_against_flags(void **state)
{
    (void)state;
    const uint64_t sizes[] = {1, 2, 63, 64, 65, 127, 4095, 4096, 4097, 10000};
    uint64_t seed = 12345;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        uint64_t n = sizes[s];
        sb_varmap m;
        assert_int_equal(sb_varmap_init(&m, n), 0);
        bool *taken = calloc(n, 1);
        assert_non_null(taken);
        uint64_t left = n, ios = 0;
        while (left) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t b = (seed >> 33) % n, want = (seed >> 13) % 17 + 1;
            uint64_t f = sb_varmap_free_from(&m, b);
            assert_true(f == naive_free_from(taken, n, b));
            uint64_t got = sb_varmap_take(&m, f, want), k = 0;
            while (k < want && f + k < n && !taken[f + k])
                taken[f + k++] = true;
            assert_true(got == k && got >= 1);
            left -= got;
            assert_true(m.nfree == left);
            ios++;
        }
        assert_true(sb_varmap_free_from(&m, 0) == UINT64_MAX);
        assert_true(ios <= n);
        sb_varmap_reset(&m);
        assert_true(m.nfree == n && sb_varmap_free_from(&m, n - 1) == n - 1);
        free(taken);
        sb_varmap_free(&m);
    }
}

static void test_limits(void **state)
{
    (void)state;
    sb_varmap m;
    assert_int_equal(sb_varmap_init(&m, 0), 0);
    assert_true(m.nblocks == 0);
    assert_int_equal(sb_varmap_init(&m, SB_VARMAP_MAX_BLOCKS + 1), 0);
    assert_true(m.nblocks == 0); /* too large: no map, offsets drawn without one */
    /* a take stops at the first block taken, and at the map's end */
    assert_int_equal(sb_varmap_init(&m, 100), 0);
    assert_true(sb_varmap_take(&m, 10, 5) == 5);
    assert_true(sb_varmap_take(&m, 7, 10) == 3);
    assert_true(sb_varmap_take(&m, 98, 10) == 2);
    assert_true(sb_varmap_free_from(&m, 10) == 15);
    assert_true(sb_varmap_free_from(&m, 98) == 0);
    sb_varmap_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_flags),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
