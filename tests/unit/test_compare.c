/* Unit tests for report/compare.c: ratios, signs, significance, geometric mean, the text. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/compare.h"
#include "report_fixture.h"

static void test_cells(void **state)
{
    sb_resultfile rf;
    fixture_build(&rf);
    sb_comparison c;
    char err[256];
    assert_int_equal(sb_compare(&rf, NULL, &c, err, sizeof err), 0);
    assert_int_equal(c.base, 0);
    /* fio, higher is better: B is 1.5x A, outside the spread. */
    const sb_compare_cell *x = sb_compare_cell_at(&c, 0, 1);
    assert_true(x->present);
    assert_true(fabs(x->ratio - 1.5) < 1e-9);
    assert_true(fabs(x->diff - 0.5) < 1e-9);
    assert_int_equal(x->sig, SB_SIG_YES);
    /* C is within the combined SE of A. */
    x = sb_compare_cell_at(&c, 0, 2);
    assert_int_equal(x->sig, SB_SIG_NO);
    assert_true(x->diff > 0);
    /* sqlite, lower is better: half the seconds is twice as good, positive. */
    x = sb_compare_cell_at(&c, 1, 1);
    assert_true(fabs(x->ratio - 2.0) < 1e-9);
    assert_int_equal(x->sig, SB_SIG_YES);
    /* C has no sqlite figure. */
    assert_false(sb_compare_cell_at(&c, 1, 2)->present);
    /* Imported means: spread unknown, worse is negative. */
    x = sb_compare_cell_at(&c, 2, 1);
    assert_true(fabs(x->diff + 0.5) < 1e-9);
    assert_int_equal(x->sig, SB_SIG_UNKNOWN);
    /* The base against itself. */
    x = sb_compare_cell_at(&c, 0, 0);
    assert_true(fabs(x->diff) < 1e-12);
    assert_int_equal(x->sig, SB_SIG_NO);

    const sb_compare_summary *s = &c.summary[1];
    assert_int_equal(s->n_common, 3);
    assert_true(fabs(s->geomean - cbrt(1.5 * 2.0 * 0.5)) < 1e-9);
    assert_int_equal(s->n_better, 2);
    assert_int_equal(s->n_worse, 0);
    assert_int_equal(s->n_unknown, 1);
    s = &c.summary[2];
    assert_int_equal(s->n_common, 2);
    assert_int_equal(s->n_same, 1);
    sb_comparison_free(&c);
    sb_resultfile_free(&rf);
}

static void test_base_choice(void **state)
{
    sb_resultfile rf;
    fixture_build(&rf);
    sb_comparison c;
    char err[256];
    assert_int_equal(sb_compare(&rf, "B <x>", &c, err, sizeof err), 0);
    assert_int_equal(c.base, 1);
    /* A against B on sqlite: twice the seconds, half as good: -50%. */
    const sb_compare_cell *x = sb_compare_cell_at(&c, 1, 0);
    assert_true(fabs(x->diff + 0.5) < 1e-9);
    assert_true(fabs(c.summary[0].geomean - 1.0 / cbrt(1.5)) < 1e-9);
    sb_comparison_free(&c);
    assert_int_equal(sb_compare(&rf, "nobody", &c, err, sizeof err), -ENOENT);
    assert_non_null(strstr(err, "nobody"));
    sb_resultfile_free(&rf);

    sb_resultfile empty;
    sb_resultfile_init(&empty);
    assert_int_equal(sb_compare(&empty, NULL, &c, err, sizeof err), -ENOENT);
    sb_resultfile_free(&empty);
}

static void test_text(void **state)
{
    sb_resultfile rf;
    fixture_build(&rf);
    sb_comparison c;
    char err[256];
    assert_int_equal(sb_compare(&rf, NULL, &c, err, sizeof err), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(sb_report_compare(f, &rf, &c), 0);
    fclose(f);
    assert_non_null(strstr(buf, "Compared with: A"));
    assert_non_null(strstr(buf, "Seconds < Lower Is Better"));
    assert_non_null(strstr(buf, "B <x> .    150  +50.0%\n"));
    assert_non_null(strstr(buf, "B <x> .  5.00  +100.0%\n"));
    assert_non_null(strstr(buf, "C ..... 100.17  +0.2% ~\n"));
    assert_non_null(strstr(buf, "B <x> . 25.00  -50.0% ?\n"));
    assert_non_null(strstr(buf, "A .....    100  base\n"));
    assert_non_null(strstr(buf, "B <x> . +14.5% (x1.14) over 3 tests: 2 better, 0 worse, 0 not significant, 1 unknown\n"));
    free(buf);
    sb_comparison_free(&c);
    sb_resultfile_free(&rf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cells),
        cmocka_unit_test(test_base_choice),
        cmocka_unit_test(test_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
