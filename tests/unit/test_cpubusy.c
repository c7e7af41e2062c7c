/*
 * test_cpubusy — core/cpubusy.c: /proc/stat's cpu lines read (idle + iowait of the "cpu"
 * line, the cpuN lines counted), a window's busy time (the window less the idle, times the
 * CPUs; nothing from a failed reading or a window that did not advance), and the window's
 * edges: read once each, at the first poll at or after it, the caller's nap shortened to
 * end on the next edge, nothing read when disabled.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/cpubusy.h"

static void test_parse(void **state)
{
    (void)state;
    uint64_t idle = 0;
    unsigned n = 0;
    const char *one = "cpu  100 2 30 400 50 6 7 0 0 0\ncpu0 100 2 30 400 50 6 7 0 0 0\nintr 1 2 3\n";
    assert_int_equal(sb_cpubusy_parse(one, &idle, &n), 0);
    assert_int_equal(idle, 450); /* idle + iowait */
    assert_int_equal(n, 1);
    const char *two = "cpu  1 1 1 10 0 0 0 0 0 0\ncpu0 1 1 1 5 0 0 0 0 0 0\ncpu1 0 0 0 5 0 0 0 0 0 0\nctxt 9\n";
    assert_int_equal(sb_cpubusy_parse(two, &idle, &n), 0);
    assert_int_equal(idle, 10);
    assert_int_equal(n, 2);
    assert_int_equal(sb_cpubusy_parse("intr 1 2\n", &idle, &n), -EINVAL);
    assert_int_equal(sb_cpubusy_parse("cpu  1 2 x\n", &idle, &n), -EINVAL);
}

static void test_between(void **state)
{
    (void)state;
    uint64_t busy, window;
    sb_cpubusy a = {.at_ns = 1000000000, .idle_ns = 5000000000, .ncpu = 1, .ok = true};
    sb_cpubusy b = {.at_ns = 21000000000, .idle_ns = 7000000000, .ncpu = 1, .ok = true};
    sb_cpubusy_between(&a, &b, &busy, &window); /* 20 s, 2 s of it idle */
    assert_int_equal(window, 20000000000ull);
    assert_int_equal(busy, 18000000000ull);
    b.idle_ns = 26000000000; /* the 10 ms ticks' rounding past the window: none busy */
    sb_cpubusy_between(&a, &b, &busy, &window);
    assert_int_equal(busy, 0);
    a.ncpu = b.ncpu = 2; /* two CPUs: the window counts twice */
    b.idle_ns = 25000000000;
    sb_cpubusy_between(&a, &b, &busy, &window);
    assert_int_equal(window, 40000000000ull);
    assert_int_equal(busy, 20000000000ull);
    b.ok = false; /* a failed reading: nothing */
    sb_cpubusy_between(&a, &b, &busy, &window);
    assert_int_equal(window, 0);
    assert_int_equal(busy, 0);
    b.ok = true;
    b.at_ns = a.at_ns; /* no time: nothing */
    sb_cpubusy_between(&a, &b, &busy, &window);
    assert_int_equal(window, 0);
}

static void test_window(void **state)
{
    (void)state;
    uint64_t busy = 1, window = 1;
    sb_cpubusy_enable(false);
    sb_cpubusy_window w = sb_cpubusy_window_at(1000, 1.0, 2.0); /* edges 1 s and 3 s after 1000 ns */
    assert_int_equal(w.from_ns, 1000001000ull);
    assert_int_equal(w.to_ns, 3000001000ull);
    assert_true(sb_cpubusy_window_poll(&w, 3000) == INT64_MAX); /* disabled: nothing read */
    assert_int_equal(w.a.at_ns, 0);
    sb_cpubusy_window_end(&w, &busy, &window);
    assert_int_equal(window, 0);

    sb_cpubusy_enable(true);
    sb_cpubusy now;
    sb_cpubusy_now(&now); /* this machine's /proc/stat */
    assert_true(now.ok && now.ncpu >= 1 && now.at_ns != 0);
    w = sb_cpubusy_window_at(1000, 1.0, 2.0);
    assert_int_equal(sb_cpubusy_window_nap(&w, 1000000500ull, 100000000L), 500); /* to the first edge */
    assert_int_equal(w.a.at_ns, 0);
    assert_int_equal(sb_cpubusy_window_nap(&w, 1000000500ull, 100), 100); /* a shorter nap stays */
    assert_int_equal(sb_cpubusy_window_poll(&w, 1000001000ull), 2000000000); /* read at the edge; to the next */
    uint64_t first = w.a.at_ns;
    assert_true(first != 0);
    assert_int_equal(sb_cpubusy_window_poll(&w, 2000001000ull), 1000000000); /* not read again */
    assert_true(w.a.at_ns == first);
    assert_true(sb_cpubusy_window_poll(&w, 3000001100ull) == INT64_MAX); /* the end read: none left */
    assert_true(w.b.at_ns != 0);
    assert_int_equal(sb_cpubusy_window_nap(&w, 4000000000ull, 100000000L), 100000000L);

    w = sb_cpubusy_window_at(1000, 0, 0); /* no length: the end is read at the loop's end */
    assert_true(sb_cpubusy_window_poll(&w, 1000) == INT64_MAX);
    assert_true(w.a.at_ns != 0 && w.b.at_ns == 0);
    sb_cpubusy_window_end(&w, &busy, &window);
    assert_true(w.b.at_ns != 0);
    sb_cpubusy_enable(false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_between),
        cmocka_unit_test(test_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
