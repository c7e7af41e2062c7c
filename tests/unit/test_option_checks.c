/* Unit tests for where option values are checked: every test with a free-form option has a
 * validate function, so that a bad value is refused before anything is built or measured
 * (exit 2), not by run() (exit 1 after the work directory was made: sqlite's count=0 was,
 * issue 24); and sqlite's bounds. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "workloads/registry.h"

static void test_free_form_options_are_validated(void **state)
{
    (void)state;
    for (size_t i = 0; i < sb_workload_count(); i++) {
        const sb_workload *w = sb_workload_at(i);
        for (size_t o = 0; o < w->n_options; o++)
            if (!w->options[o].choices && !w->resolve)
                fail_msg("%s: option %s is free-form but the test has no resolve()", w->name,
                         w->options[o].key);
    }
}

static int sqlite_count(const char *v, char *err, size_t errlen)
{
    const sb_workload *w = sb_workload_find("sqlite");
    assert_non_null(w);
    assert_non_null(w->resolve);
    sb_config cfg;
    sb_config_init(&cfg, w, false);
    assert_int_equal(sb_config_set(&cfg, "count", v, err, errlen), 0);
    return sb_config_resolve(&cfg, err, errlen);
}

static void test_sqlite_count_bounds(void **state)
{
    (void)state;
    char err[256];
    static const char *const bad[] = {"0", "-1", "32768", "40000", "1e3", "", "x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        assert_int_equal(sqlite_count(bad[i], err, sizeof err), -EINVAL);
        assert_non_null(strstr(err, "count="));
    }
    assert_int_equal(sqlite_count("1", err, sizeof err), 0);
    assert_int_equal(sqlite_count("32767", err, sizeof err), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_free_form_options_are_validated),
        cmocka_unit_test(test_sqlite_count_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
