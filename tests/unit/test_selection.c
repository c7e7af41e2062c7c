/*
 * test_selection — what `run` and `scenario run` share (runner/selection.c):
 * test and suite names with inline options, --option assignments (to every
 * test that has the key, or TEST:KEY=VALUE to one test), validation, and the
 * merge-and-save of fresh figures into a result file with its default title.
 * Refusals return -EINVAL with their one line in err.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define SCRATCH_TEMPLATE "/tmp/sbselect.XXXXXX"
#include "scratch_dir.h"

#include "cli/save.h"
#include "core/log.h"
#include "runner/selection.h"
#include "sysinfo/sysinfo.h"
#include "workloads/registry.h"

static sb_selection sel;
static char err[512];

/* sb_selection_add modifies its name: give it a copy. */
static int add(const char *name, bool quick)
{
    static char bufs[16][128];
    static int next;
    char *b = bufs[next++ % 16];
    snprintf(b, 128, "%s", name);
    return sb_selection_add(&sel, b, quick, err, sizeof err);
}

static int set(const char *assignment)
{
    static char bufs[16][128];
    static int next;
    char *b = bufs[next++ % 16];
    snprintf(b, 128, "%s", assignment);
    char *list[1] = {b};
    return sb_selection_set_options(&sel, list, 1, err, sizeof err);
}

static void test_single_test_with_inline_options(void **state)
{
    (void)state;
    sel.n = 0;
    assert_int_equal(add("dd:count=8,bs=1M", false), 0);
    assert_int_equal(sel.n, 1);
    assert_string_equal(sel.cfg[0].workload->name, "dd");
    assert_string_equal(sb_config_get(&sel.cfg[0], "count"), "8");
    assert_string_equal(sb_config_get(&sel.cfg[0], "bs"), "1M");
    assert_string_equal(sb_config_get(&sel.cfg[0], "data"), "zero"); /* default kept */
    assert_false(sel.cfg[0].quick);
    assert_int_equal(sb_selection_validate(&sel, err, sizeof err), 0);
}

static void test_quick_values(void **state)
{
    (void)state;
    sel.n = 0;
    assert_int_equal(add("dd", true), 0);
    assert_true(sel.cfg[0].quick);
    const sb_workload *dd = sel.cfg[0].workload;
    for (size_t o = 0; o < dd->n_options; o++) /* every option at its declared --quick value */
        assert_string_equal(sb_config_get(&sel.cfg[0], dd->options[o].key),
                            dd->options[o].quick ? dd->options[o].quick : dd->options[o].def);
}

static void test_suite_expands_to_its_items(void **state)
{
    (void)state;
    const sb_suite *quick = sb_suite_find("quick");
    assert_non_null(quick);
    size_t n_items = 0;
    while (quick->items[n_items].workload)
        n_items++;
    sel.n = 0;
    assert_int_equal(add("quick", false), 0);
    assert_int_equal(sel.n, n_items);
    for (size_t i = 0; i < sel.n; i++) {
        assert_string_equal(sel.cfg[i].workload->name, quick->items[i].workload);
        assert_true(sel.cfg[i].quick); /* a quick suite runs its items at --quick scale */
    }
    assert_int_equal(sb_selection_validate(&sel, err, sizeof err), 0);
}

static void test_refusals(void **state)
{
    (void)state;
    sel.n = 0;
    assert_int_equal(add("no-such-test", false), -EINVAL);
    assert_string_equal(err, "unknown test or suite 'no-such-test' (see 'storbench list')");
    assert_int_equal(add("quick:count=1", false), -EINVAL); /* a suite takes --option */
    assert_int_equal(add("dd:count", false), -EINVAL);      /* not KEY=VALUE */
    assert_int_equal(add("dd:nokey=1", false), -EINVAL);
    assert_int_equal(add("dd:data=maybe", false), -EINVAL); /* not among the choices */
}

static void test_option_applies_to_tests_that_have_it(void **state)
{
    (void)state;
    sel.n = 0;
    assert_int_equal(add("dd", false), 0);
    assert_int_equal(add("fio", false), 0);
    assert_int_equal(set("count=4"), 0); /* dd has it, fio does not: fine */
    assert_string_equal(sb_config_get(&sel.cfg[0], "count"), "4");
    assert_int_equal(set("nosuchkey=1"), -EINVAL); /* no selected test has it */
    assert_int_equal(set("count"), -EINVAL);       /* not KEY=VALUE */
}

static void test_option_for_one_test(void **state)
{
    (void)state;
    sel.n = 0;
    assert_int_equal(add("dd", false), 0);
    assert_int_equal(add("dd", false), 0);
    assert_int_equal(add("fio", false), 0);
    assert_int_equal(set("dd:count=2,bs=4k"), 0);
    assert_string_equal(sb_config_get(&sel.cfg[0], "count"), "2");
    assert_string_equal(sb_config_get(&sel.cfg[1], "bs"), "4k");
    assert_int_equal(set("fio:type=read"), 0);
    assert_string_equal(sb_config_get(&sel.cfg[2], "type"), "read");
    assert_string_equal(sb_config_get(&sel.cfg[0], "count"), "2"); /* dd untouched */
    assert_int_equal(set("nosuch:count=1"), -EINVAL);
    assert_int_equal(set("iozone:test=read"), -EINVAL); /* not selected */
}

static void test_validate_refuses_bad_values(void **state)
{
    (void)state;
    sel.n = 0;
    assert_int_equal(add("dd:bs=1000", false), 0); /* set, but not a multiple of 512 */
    assert_int_equal(sb_selection_validate(&sel, err, sizeof err), -EINVAL);
}

static void test_merge_save_default_title(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/page.json", dir);
    sb_resultfile fresh, back;
    sb_resultfile_init(&fresh);
    sb_resultfile_init(&back);
    sb_system *sys = sb_resultfile_add_system(&fresh, "box");
    sb_system_stamp(sys);
    sb_result *r = sb_resultfile_get_result(&fresh, "dd", "dd", "", "Test: Direct Write", "MB/s",
                                            SB_HIGHER_IS_BETTER);
    const double v[] = {10, 12};
    sb_entry_set_values(sb_result_add_entry(r, "box"), v, 2);
    assert_int_equal(sb_result_merge_save("test", path, "some/where/page.json", &fresh, false, NULL,
                                          NULL, err, sizeof err),
                     0);
    assert_int_equal(sb_resultfile_load(path, &back, err, sizeof err), 0);
    assert_string_equal(back.title, "page"); /* the name without directories and .json */
    assert_int_equal(back.n_systems, 1);
    assert_int_equal(back.n_results, 1);
    /* the same identifier again is refused without replace (the file as it is now has it),
     * and the file kept */
    assert_true(sb_result_merge_save("test", path, "page", &fresh, false, NULL, NULL, err,
                                     sizeof err) < 0);
    assert_true(sb_result_merge_save("test", path, "page", &fresh, true, NULL, NULL, err,
                                     sizeof err) == 0);
    assert_int_equal(entries(dir), 1); /* the page only: no temporary or lock file left */
    sb_resultfile_free(&fresh);
    sb_resultfile_free(&back);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_test_with_inline_options),
        cmocka_unit_test(test_quick_values),
        cmocka_unit_test(test_suite_expands_to_its_items),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_option_applies_to_tests_that_have_it),
        cmocka_unit_test(test_option_for_one_test),
        cmocka_unit_test(test_validate_refuses_bad_values),
        cmocka_unit_test_setup_teardown(test_merge_save_default_title, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
