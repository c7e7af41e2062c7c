/* Unit tests for sb_resultfile_merge_figures(), the per-figure rule `run` saves with
 * (docs/result-format.md, "Adding to an identifier"): a new test joins an identifier the file
 * has, the same test again is refused and changes nothing, replace replaces that figure alone
 * in its place and keeps the identifier's other tests and the other identifiers. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "results/result.h"

/* One identifier's figure for one test at one option line. */
static void figure(sb_resultfile *rf, const char *ident, const char *test, const char *desc, double v)
{
    if (!sb_resultfile_find_system(rf, ident))
        sb_resultfile_add_system(rf, ident);
    sb_result *r = sb_resultfile_get_result(rf, test, test, "", desc, "MB/s", SB_HIGHER_IS_BETTER);
    sb_entry *e = sb_result_find_entry(r, ident);
    sb_entry_set_values(e ? e : sb_result_add_entry(r, ident), &v, 1);
}

static double value_of(const sb_resultfile *rf, const char *ident, const char *desc)
{
    for (size_t i = 0; i < rf->n_results; i++)
        if (!strcmp(rf->results[i].description, desc)) {
            sb_entry *e = sb_result_find_entry(&rf->results[i], ident);
            return e ? e->mean : -1;
        }
    return -1;
}

static void test_add_refuse_replace(void **state)
{
    (void)state;
    char err[512];
    sb_resultfile dst, run;
    sb_resultfile_init(&dst);
    figure(&dst, "A", "dd", "Data: Zeros", 10);
    figure(&dst, "B", "dd", "Data: Zeros", 20);

    /* a new test (other options) joins A without replace */
    sb_resultfile_init(&run);
    figure(&run, "A", "dd", "Data: Random", 30);
    assert_int_equal(sb_resultfile_merge_figures(&dst, &run, false, err, sizeof err), 0);
    assert_int_equal(dst.n_systems, 2);
    assert_int_equal(dst.n_results, 2);
    assert_true(value_of(&dst, "A", "Data: Zeros") == 10);
    assert_true(value_of(&dst, "A", "Data: Random") == 30);

    /* the same test again: refused, naming it, and nothing changes */
    sb_resultfile_free(&run);
    sb_resultfile_init(&run);
    figure(&run, "A", "dd", "Data: Random", 31);
    figure(&run, "A", "fio", "Seq", 5); /* a new one beside it is not half-saved */
    assert_int_equal(sb_resultfile_merge_figures(&dst, &run, false, err, sizeof err), -EEXIST);
    assert_non_null(strstr(err, "'A'"));
    assert_non_null(strstr(err, "Data: Random"));
    assert_int_equal(dst.n_results, 2);
    assert_true(value_of(&dst, "A", "Data: Random") == 30);

    /* replace: that figure alone, in its place; A's other test and B are kept */
    assert_int_equal(sb_resultfile_merge_figures(&dst, &run, true, err, sizeof err), 0);
    assert_int_equal(dst.n_results, 3);
    assert_true(value_of(&dst, "A", "Data: Random") == 31);
    assert_true(value_of(&dst, "A", "Data: Zeros") == 10);
    assert_true(value_of(&dst, "B", "Data: Zeros") == 20);
    assert_true(value_of(&dst, "A", "Seq") == 5);
    assert_string_equal(dst.systems[0].identifier, "A");
    assert_int_equal(dst.results[1].n_entries, 1);
    sb_resultfile_free(&run);

    /* a new identifier is added as before */
    sb_resultfile_init(&run);
    figure(&run, "C", "dd", "Data: Zeros", 40);
    assert_int_equal(sb_resultfile_merge_figures(&dst, &run, false, err, sizeof err), 0);
    assert_int_equal(dst.n_systems, 3);
    assert_int_equal(dst.results[0].n_entries, 3);
    sb_resultfile_free(&run);
    sb_resultfile_free(&dst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_refuse_replace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
