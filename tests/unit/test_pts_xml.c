/*
 * test_pts_xml — the PTS result file reader and writer (formats/pts_xml*.c) on
 * small inline documents: systems and their "Key: value" lines, a figure with its
 * runs (SD and count), a repeated identifier (the first kept), results that cannot
 * be read (skipped, or refused under strict), malformed XML with its line, the
 * export read back to the same figures; and the profile map every pts/ name uses.
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

#include "formats/kvline.h"
#include "formats/pts_xml.h"
#include "workloads/registry.h"

static const char doc[] =
    "<?xml version=\"1.0\"?>\n"
    "<PhoronixTestSuite>\n"
    "  <Generated><Title>t1</Title><Description>d1</Description></Generated>\n"
    "  <System><Identifier>A</Identifier><Hardware>Processor: X, 2 x Y, Memory: 8GB</Hardware>\n"
    "    <Software>OS: Debian 12</Software><TimeStamp>2025-01-30 13:21:52</TimeStamp>\n"
    "    <JSON>{\"cpu-microcode\":\"0x42e\"}</JSON></System>\n"
    "  <Result><Identifier>pts/fio-2.1.0</Identifier><Title>Flexible IO Tester</Title>\n"
    "    <AppVersion>3.25</AppVersion><Arguments>--rw=randread</Arguments>\n"
    "    <Description>Type: Random Read</Description><Scale>MB/s</Scale>\n"
    "    <Proportion>HIB</Proportion><DisplayFormat>BAR_GRAPH</DisplayFormat><Data>\n"
    "      <Entry><Identifier>A</Identifier><Value>2.00</Value><RawString>1:2:3</RawString>\n"
    "        <JSON>{\"min\":\"1\",\"max\":\"3\"}</JSON></Entry>\n"
    "      <Entry><Identifier>A</Identifier><Value>9</Value><RawString>9</RawString></Entry>\n"
    "  </Data></Result>\n"
    "  <Result><Identifier>pts/x-1.0.0</Identifier><Title>X</Title><Description>bad</Description>\n"
    "    <Scale>s</Scale><Proportion>LIB</Proportion><Data>\n"
    "      <Entry><Identifier>A</Identifier><Value>n/a</Value><RawString></RawString></Entry>\n"
    "  </Data></Result>\n"
    "  <Result><Identifier></Identifier><Title>X</Title><Description>Test Install Size</Description>\n"
    "    <Scale>Bytes</Scale><Proportion>LIB</Proportion><Data>\n"
    "      <Entry><Identifier>B</Identifier><Value>128444</Value><RawString></RawString></Entry>\n"
    "  </Data></Result>\n"
    "</PhoronixTestSuite>\n";

static void test_reads_systems_results_and_skips(void **state)
{
    (void)state;
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    char err[256] = "";
    size_t skipped = 0;
    assert_true(sb_pts_xml_detect(doc, strlen(doc)));
    assert_int_equal(sb_pts_xml_read(doc, strlen(doc), "doc", false, &rf, &skipped, err, sizeof err), 0);
    /* the second entry of A, the entry that is no number and its result */
    assert_int_equal(skipped, 3);
    assert_string_equal(rf.title, "t1");
    assert_int_equal(rf.n_systems, 2); /* B has no <System>: an empty description */
    assert_string_equal(sb_kvlist_get(&rf.systems[0].hardware, "Processor"), "X, 2 x Y");
    assert_string_equal(sb_kvlist_get(&rf.systems[0].hardware, "Memory"), "8GB");
    assert_string_equal(rf.systems[0].timestamp, "2025-01-30T13:21:52");
    assert_int_equal(rf.n_results, 2);
    sb_result *r = &rf.results[0];
    assert_string_equal(r->test, "fio"); /* pts/fio is storbench's fio */
    assert_string_equal(r->version, "3.25");
    assert_string_equal(r->unit, "MB/s");
    assert_int_equal(r->n_entries, 1);
    sb_entry *e = &r->entries[0];
    assert_true(e->imported);
    assert_int_equal(e->n_values, 3);
    assert_true(e->mean == 2.0 && e->sd == 1.0);
    assert_int_equal(e->decimals, 2);
    assert_int_equal(e->n_secondary, 2); /* min and max from <JSON> */
    assert_non_null(strstr(r->extra, "pts/fio-2.1.0"));
    r = &rf.results[1];
    assert_string_equal(r->test, ""); /* an outside result */
    assert_int_equal(r->direction, SB_LOWER_IS_BETTER);
    assert_true(r->entries[0].mean == 128444 && r->entries[0].n_values == 0);
    sb_resultfile_free(&rf);
}

static void test_strict_refuses_with_the_line(void **state)
{
    (void)state;
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    char err[256] = "";
    assert_int_equal(sb_pts_xml_read(doc, strlen(doc), "doc", true, &rf, NULL, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "line 13:"));
    sb_resultfile_free(&rf);
}

static void test_malformed_xml_names_its_line(void **state)
{
    (void)state;
    static const char bad[] = "<?xml version=\"1.0\"?>\n<PhoronixTestSuite>\n<Result>\n<Title>x</Tit>\n";
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    char err[256] = "";
    assert_true(sb_pts_xml_detect(bad, strlen(bad)));
    assert_int_equal(sb_pts_xml_read(bad, strlen(bad), "bad", false, &rf, NULL, err, sizeof err), -EBADMSG);
    assert_non_null(strstr(err, "line 4: malformed XML"));
    assert_false(sb_pts_xml_detect("Processor: x\n", 13));
    assert_false(sb_pts_xml_detect("<html></html>", 13));
    sb_resultfile_free(&rf);
}

static void test_export_reads_back_to_the_same_figures(void **state)
{
    (void)state;
    sb_resultfile a, b;
    sb_resultfile_init(&a);
    sb_resultfile_init(&b);
    char err[256] = "", *buf = NULL;
    size_t len = 0;
    assert_int_equal(sb_pts_xml_read(doc, strlen(doc), "doc", false, &a, NULL, err, sizeof err), 0);
    /* a measured figure too: a run of many digits */
    sb_entry *m = sb_result_add_entry(&a.results[1], "A");
    double runs[] = {0.1 + 0.2, 1e-7 / 3, 12345.678901234};
    sb_entry_set_values(m, runs, 3);
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(sb_pts_xml_write(f, &a), 0);
    fclose(f);
    assert_int_equal(sb_pts_xml_read(buf, len, "export", true, &b, NULL, err, sizeof err), 0);
    assert_int_equal(b.n_results, a.n_results);
    for (size_t i = 0; i < a.n_results; i++) {
        assert_int_equal(b.results[i].n_entries, a.results[i].n_entries);
        assert_string_equal(b.results[i].description, a.results[i].description);
        for (size_t k = 0; k < a.results[i].n_entries; k++) {
            const sb_entry *x = &a.results[i].entries[k], *y = &b.results[i].entries[k];
            assert_true(x->mean == y->mean && x->sd == y->sd);
            assert_int_equal(x->n_values, y->n_values);
            for (size_t v = 0; v < x->n_values; v++)
                assert_true(x->values[v] == y->values[v]);
        }
    }
    assert_non_null(strstr(buf, "<Identifier>pts/fio-2.1.0</Identifier>"));
    free(buf);
    sb_resultfile_free(&a);
    sb_resultfile_free(&b);
}

static void test_kvline_and_profiles(void **state)
{
    (void)state;
    sb_kvlist l = {0};
    sb_kvline_parse("Processor: 2 x Intel, 4 Cores, Disk: 256GB, plain", &l);
    assert_int_equal(l.n, 2);
    assert_string_equal(sb_kvlist_get(&l, "Processor"), "2 x Intel, 4 Cores");
    assert_string_equal(sb_kvlist_get(&l, "Disk"), "256GB, plain");
    char *s = sb_kvline_format(&l);
    assert_string_equal(s, "Processor: 2 x Intel, 4 Cores, Disk: 256GB, plain");
    free(s);
    sb_kvlist_free(&l);
    assert_string_equal(sb_pts_profile_test("pts/fio"), "fio");
    assert_string_equal(sb_pts_profile_test("pts/fs-mark-3.3.0"), "fs-mark");
    assert_null(sb_pts_profile_test("pts/fio-x"));
    assert_null(sb_pts_profile_test("pts/fiox"));
    assert_null(sb_pts_profile_test("fio"));
    for (size_t i = 0; i < sb_pts_profile_count(); i++) {
        const char *test;
        sb_pts_profile_at(i, &test);
        if (!sb_workload_find(test))
            fail_msg("the PTS profile map names '%s', which is no registered test", test);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads_systems_results_and_skips),
        cmocka_unit_test(test_strict_refuses_with_the_line),
        cmocka_unit_test(test_malformed_xml_names_its_line),
        cmocka_unit_test(test_export_reads_back_to_the_same_figures),
        cmocka_unit_test(test_kvline_and_profiles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
