/* Unit tests for where a figure came from: results join on test and options
 * (not on the title, which names what ran), a measured title line is
 * "<product> (storbench <test>)", a chart with figures from several sources
 * marks its rows and ends in a legend, and the importer reads the storbench
 * tag and the legend back (tidy and flattened), and the JSON keeps both. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "report/text.h"
#include "formats/text_import.h"
#include "results/result.h"

static char *render(const sb_resultfile *rf, int width)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(sb_report_text(f, rf, width), 0);
    fclose(f);
    return buf;
}

static void import_text(const char *text, sb_resultfile *rf)
{
    char err[256] = "";
    sb_resultfile_init(rf);
    int rc = sb_text_import(text, strlen(text), rf, err, sizeof err);
    if (rc)
        fail_msg("import failed: %s", err);
}

/* The seed's SQLite figure, as `import` leaves it. */
static sb_result *seed_sqlite(sb_resultfile *rf)
{
    sb_resultfile_add_system(rf, "Seed Disk");
    sb_result *r = sb_resultfile_get_result(rf, "sqlite", "SQLite", "3.8.10.2",
                                            "Test Target: Default Test Directory", "Seconds",
                                            SB_LOWER_IS_BETTER);
    sb_entry *e = sb_result_add_entry(r, "Seed Disk");
    e->mean = 67.63;
    sb_entry_set_source(e, "SQLite 3.8.10.2", true);
    return r;
}

static void test_measured_source(void **state)
{
    (void)state;
    char buf[128];
    sb_measured_source(buf, sizeof buf, "SQLite 3.40.1", "SQLite", "sqlite");
    assert_string_equal(buf, "SQLite 3.40.1 (storbench sqlite)");
    sb_measured_source(buf, sizeof buf, "", "Flexible IO Tester", "fio");
    assert_string_equal(buf, "Flexible IO Tester (storbench fio)");
    sb_measured_source(buf, sizeof buf, NULL, "dd", "dd");
    assert_string_equal(buf, "dd (storbench dd)");
}

static void test_join_on_test_not_title(void **state)
{
    (void)state;
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    sb_result *seed = seed_sqlite(&rf);
    sb_kvlist opts = {0};
    sb_kvlist_add(&opts, "count", "2500");
    /* A measured figure: another title and no version, same test and option line. */
    sb_result *r = sb_resultfile_get_result_opts(&rf, "sqlite", "Another Title", "",
                                                 "Test Target: Default Test Directory", "Seconds",
                                                 SB_LOWER_IS_BETTER, &opts);
    assert_ptr_equal(r, seed);
    assert_int_equal(rf.n_results, 1);
    /* Another option line, unit or direction is another chart. */
    r = sb_resultfile_get_result_opts(&rf, "sqlite", "SQLite", "", "Inserts: 250", "Seconds",
                                      SB_LOWER_IS_BETTER, &opts);
    assert_int_equal(rf.n_results, 2);
    assert_string_equal(sb_kvlist_get(&r->options, "count"), "2500");
    /* Without a test on either side, the title decides. */
    sb_resultfile_get_result(&rf, "", "Homegrown", "1", "", "s", SB_LOWER_IS_BETTER);
    assert_ptr_equal(sb_resultfile_get_result(&rf, "", "Homegrown", "2", "", "s", SB_LOWER_IS_BETTER),
                     &rf.results[2]);
    assert_int_equal(rf.n_results, 3);
    sb_resultfile_get_result(&rf, "", "Other", "1", "", "s", SB_LOWER_IS_BETTER);
    assert_int_equal(rf.n_results, 4);
    sb_kvlist_free(&opts);
    sb_resultfile_free(&rf);
}

static void test_options_must_agree(void **state)
{
    (void)state;
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    sb_kvlist a = {0}, b = {0}, c = {0};
    sb_kvlist_add(&a, "size", "1g");
    sb_kvlist_add(&b, "size", "64m");
    sb_kvlist_add(&c, "size", "1g");
    sb_kvlist_add(&c, "numjobs", "1"); /* a key the first does not know: no conflict */
    sb_result *r = sb_resultfile_get_result_opts(&rf, "fio", "F", "", "Type: Random Write", "MB/s",
                                                 SB_HIGHER_IS_BETTER, &a);
    assert_ptr_not_equal(sb_resultfile_get_result_opts(&rf, "fio", "F", "", "Type: Random Write",
                                                       "MB/s", SB_HIGHER_IS_BETTER, &b),
                         r);
    assert_int_equal(rf.n_results, 2);
    assert_ptr_equal(sb_resultfile_get_result_opts(&rf, "fio", "F", "", "Type: Random Write", "MB/s",
                                                   SB_HIGHER_IS_BETTER, &c),
                     &rf.results[0]);
    sb_kvlist_free(&a);
    sb_kvlist_free(&b);
    sb_kvlist_free(&c);
    sb_resultfile_free(&rf);
}

static sb_resultfile mixed(void)
{
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    sb_resultfile_set_title(&rf, "T", "D");
    sb_result *r = seed_sqlite(&rf);
    sb_resultfile_add_system(&rf, "Here");
    sb_entry *e = sb_result_add_entry(r, "Here");
    double v[] = {30.5, 31.5, 29.5};
    sb_entry_set_values(e, v, 3);
    sb_entry_set_source(e, "SQLite 3.40.1 (storbench sqlite)", false);
    return rf;
}

static const char mixed_page[] =
    "T\nD\n\n\n"
    "Seed Disk: \n\n\t\n\n\t\n\n"
    "Here: \n\n\t\n\n\t\n"
    "\n\n"
    "SQLite\n"
    "Test Target: Default Test Directory\n"
    "Seconds < Lower Is Better\n"
    "Seed Disk [1] . 67.63 |========================================================\n"
    "Here [2] ...... 30.50 |=========================\n"
    "    SE +/- 0.58, N = 3\n" /* 3 runs: SD 1, SE 0.577 (issue 26) */
    "[1] imported: SQLite 3.8.10.2\n"
    "[2] measured: SQLite 3.40.1 (storbench sqlite)\n";

static void test_mixed_chart(void **state)
{
    (void)state;
    sb_resultfile rf = mixed();
    char *got = render(&rf, 80);
    assert_string_equal(got, mixed_page);
    free(got);
    /* One source: the title line is that source, no marks, no legend. */
    sb_entry_set_source(&rf.results[0].entries[1], "SQLite 3.8.10.2", true);
    got = render(&rf, 80);
    assert_non_null(strstr(got, "\n\n\nSQLite 3.8.10.2\nTest Target"));
    assert_null(strstr(got, "[1]"));
    free(got);
    /* The same source, but one imported and one measured: still marked. */
    sb_entry_set_source(&rf.results[0].entries[1], "SQLite 3.8.10.2", false);
    got = render(&rf, 80);
    assert_non_null(strstr(got, "[1] imported: SQLite 3.8.10.2\n[2] measured: SQLite 3.8.10.2\n"));
    free(got);
    char line[128];
    sb_result_title_line(&rf.results[0], line, sizeof line);
    assert_string_equal(line, "SQLite");
    sb_resultfile_free(&rf);
}

static void test_import_legend(void **state)
{
    (void)state;
    sb_resultfile rf;
    import_text(mixed_page, &rf);
    assert_int_equal(rf.n_systems, 2);
    assert_string_equal(rf.systems[1].identifier, "Here");
    assert_int_equal(rf.n_results, 1);
    const sb_result *r = &rf.results[0];
    assert_string_equal(r->test, "sqlite");
    assert_int_equal(r->n_entries, 2);
    assert_string_equal(r->entries[0].identifier, "Seed Disk");
    assert_string_equal(r->entries[0].source, "SQLite 3.8.10.2");
    assert_true(r->entries[0].imported);
    assert_string_equal(r->entries[1].identifier, "Here");
    assert_string_equal(r->entries[1].source, "SQLite 3.40.1 (storbench sqlite)");
    assert_true(r->entries[1].imported); /* read from a page: imported, whatever it was */
    sb_resultfile_free(&rf);

    /* A marked chart with a row the legend does not explain is refused. */
    char err[256] = "";
    const char *bad = "T\nD\n\n\nSQLite\nSeconds < Lower Is Better\nA [1] . 1.00 |=\nB . 2.00 |==\n"
                      "[1] imported: SQLite 3.8.10.2\n";
    sb_resultfile_init(&rf);
    assert_int_not_equal(sb_text_import(bad, strlen(bad), &rf, err, sizeof err), 0);
    assert_non_null(strstr(err, "legend"));
    sb_resultfile_free(&rf);
    /* A row after the legend too. */
    const char *late = "T\nD\n\n\nSQLite\nSeconds < Lower Is Better\nA [1] . 1.00 |=\n"
                       "[1] imported: SQLite 3.8.10.2\nB [1] . 2.00 |==\n";
    sb_resultfile_init(&rf);
    assert_int_not_equal(sb_text_import(late, strlen(late), &rf, err, sizeof err), 0);
    sb_resultfile_free(&rf);
}

static void test_import_storbench_tag(void **state)
{
    (void)state;
    static const char page[] =
        "T\nD\n\n\n"
        "Box: \n\n\tProcessor: X\n\n\tOS: Y\n\n\n"
        "SQLite 3.40.1 (storbench sqlite)\n"
        "Test Target: Default Test Directory\n"
        "Seconds < Lower Is Better\n"
        "Box . 3.00 |====\n\n\n"
        "Flexible IO Tester (storbench fio)\n"
        "Type: Random Write\n"
        "MB/s > Higher Is Better\n"
        "Box . 70.00 |====\n";
    for (int flat = 0; flat < 2; flat++) {
        sb_resultfile rf;
        char text[sizeof page];
        memcpy(text, page, sizeof page);
        if (flat) { /* every run of whitespace becomes one space, as on seed 000 */
            char *o = text;
            for (const char *p = page; *p; p++) {
                if (*p == ' ' || *p == '\n' || *p == '\t') {
                    if (o > text && o[-1] != ' ')
                        *o++ = ' ';
                } else {
                    *o++ = *p;
                }
            }
            *o = 0;
        }
        import_text(text, &rf);
        assert_int_equal(rf.n_results, 2);
        assert_string_equal(rf.results[0].test, "sqlite");
        assert_string_equal(rf.results[0].title, "SQLite");
        assert_string_equal(rf.results[0].version, "3.40.1");
        assert_string_equal(rf.results[0].description, "Test Target: Default Test Directory");
        assert_string_equal(rf.results[0].entries[0].source, "SQLite 3.40.1 (storbench sqlite)");
        assert_string_equal(rf.results[1].test, "fio");
        assert_string_equal(rf.results[1].title, "Flexible IO Tester");
        assert_string_equal(rf.results[1].version, "");
        assert_string_equal(rf.results[1].description, "Type: Random Write");
        assert_string_equal(rf.results[1].entries[0].source, "Flexible IO Tester (storbench fio)");
        sb_resultfile_free(&rf);
    }
    /* A tag naming no storbench test is part of the title. */
    sb_resultfile rf;
    import_text("T\nD\n\n\nThing 2.0 (storbench nosuch)\nX > Higher Is Better\nA . 1.00 |=\n", &rf);
    assert_string_equal(rf.results[0].test, "");
    assert_string_equal(rf.results[0].title, "Thing 2.0 (storbench nosuch)");
    sb_resultfile_free(&rf);
}

static void test_json_keeps_sources(void **state)
{
    (void)state;
    char dir[] = "/tmp/sbsrc-XXXXXX", path[64], err[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/r.json", dir);
    sb_resultfile rf = mixed(), back;
    assert_int_equal(sb_resultfile_save(path, &rf, err, sizeof err), 0);
    sb_resultfile_init(&back);
    assert_int_equal(sb_resultfile_load(path, &back, err, sizeof err), 0);
    const sb_result *r = &back.results[0];
    assert_true(r->entries[0].imported);
    assert_string_equal(r->entries[0].source, "SQLite 3.8.10.2");
    assert_false(r->entries[1].imported);
    assert_string_equal(r->entries[1].source, "SQLite 3.40.1 (storbench sqlite)");
    char *a = render(&rf, 80), *b = render(&back, 80);
    assert_string_equal(a, b);
    free(a);
    free(b);
    sb_resultfile_free(&rf);
    sb_resultfile_free(&back);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_measured_source),
        cmocka_unit_test(test_join_on_test_not_title),
        cmocka_unit_test(test_options_must_agree),
        cmocka_unit_test(test_mixed_chart),
        cmocka_unit_test(test_import_legend),
        cmocka_unit_test(test_import_storbench_tag),
        cmocka_unit_test(test_json_keeps_sources),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
