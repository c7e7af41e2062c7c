/* Unit tests for core/units: IEC size parsing, durations, and GNU dd formatting. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/units.h"

static void test_parse_size(void **state)
{
    (void)state;
    uint64_t v;
    assert_int_equal(sb_parse_size("512", &v), 0); assert_int_equal(v, 512);
    assert_int_equal(sb_parse_size("4k", &v), 0); assert_int_equal(v, 4096);
    assert_int_equal(sb_parse_size("4K", &v), 0); assert_int_equal(v, 4096);
    assert_int_equal(sb_parse_size("4KB", &v), 0); assert_int_equal(v, 4096);
    assert_int_equal(sb_parse_size("4KiB", &v), 0); assert_int_equal(v, 4096);
    assert_int_equal(sb_parse_size("2048k", &v), 0); assert_int_equal(v, 2097152);
    assert_int_equal(sb_parse_size("1M", &v), 0); assert_int_equal(v, 1048576);
    assert_int_equal(sb_parse_size("2g", &v), 0); assert_int_equal(v, 2147483648ull);
    assert_int_equal(sb_parse_size("8GB", &v), 0); assert_int_equal(v, 8589934592ull);
    assert_int_equal(sb_parse_size("100b", &v), 0); assert_int_equal(v, 100);
    assert_int_equal(sb_parse_size("", &v), -EINVAL);
    assert_int_equal(sb_parse_size("k", &v), -EINVAL);
    assert_int_equal(sb_parse_size("-1", &v), -EINVAL);
    assert_int_equal(sb_parse_size("4x", &v), -EINVAL);
    assert_int_equal(sb_parse_size("4kx", &v), -EINVAL);
    assert_int_equal(sb_parse_size("99999999999999999999", &v), -ERANGE);
    assert_int_equal(sb_parse_size("17000000000P", &v), -ERANGE);
}

static void test_parse_duration_uint_bool(void **state)
{
    (void)state;
    double s;
    assert_int_equal(sb_parse_duration("20", &s), 0); assert_true(s == 20);
    assert_int_equal(sb_parse_duration("5s", &s), 0); assert_true(s == 5);
    assert_int_equal(sb_parse_duration("500ms", &s), 0); assert_true(s == 0.5);
    assert_int_equal(sb_parse_duration("2m", &s), 0); assert_true(s == 120);
    assert_int_equal(sb_parse_duration("1h", &s), 0); assert_true(s == 3600);
    assert_int_equal(sb_parse_duration("2d", &s), 0); assert_true(s == 172800);
    assert_int_equal(sb_parse_duration("2x", &s), -EINVAL);
    assert_int_equal(sb_parse_duration("soon", &s), -EINVAL);
    assert_int_equal(sb_parse_duration("5 s", &s), -EINVAL);
    uint64_t u;
    assert_int_equal(sb_parse_uint("3", 1, 10, &u), 0); assert_int_equal(u, 3);
    assert_int_equal(sb_parse_uint("0", 1, 10, &u), -ERANGE);
    assert_int_equal(sb_parse_uint("11", 1, 10, &u), -ERANGE);
    assert_int_equal(sb_parse_uint("1e3", 1, 10000, &u), -EINVAL);
    int b;
    assert_int_equal(sb_parse_bool("yes", &b), 0); assert_int_equal(b, 1);
    assert_int_equal(sb_parse_bool("Off", &b), 0); assert_int_equal(b, 0);
    assert_int_equal(sb_parse_bool("maybe", &b), -EINVAL);
}

/* The wiki's own dd lines (seed 004) are the reference. */
static void test_dd_line(void **state)
{
    (void)state;
    char buf[256];
    sb_format_dd_line(buf, sizeof buf, 1073741824ull, 3.53208);
    assert_string_equal(buf, "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 3.53208 s, 304 MB/s");
    sb_format_dd_line(buf, sizeof buf, 1073741824ull, 0.280394);
    assert_string_equal(buf, "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 0.280394 s, 3.8 GB/s");
    sb_format_dd_line(buf, sizeof buf, 1073741824ull, 14.604);
    assert_string_equal(buf, "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 14.604 s, 73.5 MB/s");
    sb_format_dd_line(buf, sizeof buf, 1073741824ull, 53.5692);
    assert_string_equal(buf, "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 53.5692 s, 20.0 MB/s");
    sb_format_dd_line(buf, sizeof buf, 1073741824ull, 1.49443);
    assert_string_equal(buf, "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1.49443 s, 718 MB/s");
    sb_format_dd_line(buf, sizeof buf, 2147483648ull, 5.11402);
    assert_string_equal(buf, "2147483648 bytes (2.1 GB, 2.0 GiB) copied, 5.11402 s, 420 MB/s");
    sb_format_dd_line(buf, sizeof buf, 1073741824ull, 100.578);
    assert_string_equal(buf, "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 100.578 s, 10.7 MB/s");
    sb_format_dd_line(buf, sizeof buf, 512, 0.5);
    assert_string_equal(buf, "512 bytes copied, 0.5 s, 1.0 kB/s");
}

static void test_size_short(void **state)
{
    (void)state;
    char buf[32];
    sb_format_size_short(buf, sizeof buf, 4096); assert_string_equal(buf, "4KB");
    sb_format_size_short(buf, sizeof buf, 8ull << 30); assert_string_equal(buf, "8GB");
    sb_format_size_short(buf, sizeof buf, 1000); assert_string_equal(buf, "1000B");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_size),
        cmocka_unit_test(test_parse_duration_uint_bool),
        cmocka_unit_test(test_dd_line),
        cmocka_unit_test(test_size_short),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
