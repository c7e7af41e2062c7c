/*
 * test_titles — the table of known result titles (results/titles.c) that the
 * text-format reader uses instead of the workload registry: every registered
 * test's title maps back to that test, and unknown titles map to "".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "results/titles.h"
#include "workloads/registry.h"

static void test_every_registered_test_is_known(void **state)
{
    (void)state;
    for (size_t i = 0; i < sb_workload_count(); i++) {
        const sb_workload *w = sb_workload_at(i);
        if (strcmp(sb_known_title_test(w->title), w->name) != 0)
            fail_msg("registry test %s (\"%s\") is missing from results/titles.c", w->name,
                     w->title);
    }
}

static void test_every_known_title_is_registered(void **state)
{
    (void)state;
    assert_true(sb_known_title_count() >= 1);
    for (size_t i = 0; i < sb_known_title_count(); i++) {
        const char *t = sb_known_title_at(i);
        assert_non_null(t);
        const sb_workload *w = sb_workload_find(sb_known_title_test(t));
        if (!w || strcmp(w->title, t) != 0)
            fail_msg("known title \"%s\" is not the title of a registered test", t);
    }
    assert_null(sb_known_title_at(sb_known_title_count()));
}

static void test_unknown_title(void **state)
{
    (void)state;
    assert_string_equal(sb_known_title_test("Unpacking The Linux Kernel"), "");
    assert_string_equal(sb_known_title_test(NULL), "");
    assert_string_equal(sb_known_title_test("Flexible IO Tester"), "fio");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_registered_test_is_known),
        cmocka_unit_test(test_every_known_title_is_registered),
        cmocka_unit_test(test_unknown_title),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
