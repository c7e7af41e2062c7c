/* Unit tests for report/csv.c: quoting and the long layout. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/csv.h"
#include "report_fixture.h"

static char *field(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    sb_csv_field(f, s);
    fclose(f);
    return buf;
}

static void test_quoting(void **state)
{
    const char *cases[][2] = {
        {"plain", "plain"},
        {"a,b", "\"a,b\""},
        {"say \"hi\"", "\"say \"\"hi\"\"\""},
        {"two\nlines", "\"two\nlines\""},
        {" lead", "\" lead\""},
        {"", ""},
        /* Formula injection (issue 11 item 6): a leading ', quoted. */
        {"=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\""},
        {"+5", "\"'+5\""},
        {"-cmd", "\"'-cmd\""},
        {"@SUM(A1)", "\"'@SUM(A1)\""},
        {"\tx", "\"'\tx\""},
        {"a=b", "a=b"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = field(cases[i][0]);
        assert_string_equal(got, cases[i][1]);
        free(got);
    }
}

static size_t count_lines(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

static void test_table(void **state)
{
    sb_resultfile rf;
    fixture_build(&rf);
    /* C's fio figure is host-bound: its ram twin made 210.5 (docs/devices.md) */
    for (size_t i = 0; i < rf.n_results; i++) {
        sb_entry *c = sb_result_find_entry(&rf.results[i], "C");
        if (c && !strcmp(rf.results[i].test, "fio") && c->mean > 100 && c->mean < 101) {
            c->host_bound = true;
            c->host_ref = 210.5;
        }
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(sb_report_csv(f, &rf), 0);
    fclose(f);
    const char *header = "test,title,version,description,identifier,measure,unit,direction,"
                         "mean,sd,se,runs,untrusted,origin,source,rsd_pct,noisy,host_bound,host_reference\n";
    assert_int_equal(strncmp(buf, header, strlen(header)), 0);
    /* Headline rows: 3 + 2 + 3; secondary rows: 3 entries x 5 figures. */
    assert_int_equal(count_lines(buf, "\n"), 1 + 8 + 15);
    assert_non_null(strstr(buf, "fio,Flexible IO Tester,2.1.13,Type: Random Write - Block Size: 4KB,"
                                "B <x>,result,MB/s,higher,150,1,0.5773502692,3,no,measured,"
                                "Flexible IO Tester 2.1.13,0.67,no,no,\n"));
    assert_non_null(strstr(buf, "sqlite,SQLite,3.8.10.2,Test Target: Default Test Directory,A,result,"
                                "Seconds,lower,10,"));
    assert_non_null(strstr(buf, ",C,lat_p99.9,us,,270,,,,,measured,Flexible IO Tester 2.1.13,,,,\n"));
    assert_non_null(strstr(buf, ",C,result,MB/s,higher,100.1666667,1.040833,0.6009252126,3,yes,"
                                "measured,Flexible IO Tester 2.1.13,1.04,no,yes,210.5\n"));
    /* Imported: no runs, so no SD or SE (unknown, not zero). */
    assert_non_null(strstr(buf, "\"Test: 1000 Files, 1MB Size\",A,result,Files/s,higher,50,,,0,no,"
                                "imported,FS-Mark 3.3,,,no,\n"));
    free(buf);
    sb_resultfile_free(&rf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quoting),
        cmocka_unit_test(test_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
