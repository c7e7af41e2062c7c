/* Unit tests for report/html.c: escaping, latency name detection, the page's structure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/html.h"
#include "report_fixture.h"

static char *render(const sb_resultfile *rf)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(sb_report_html(f, rf), 0);
    fclose(f);
    return buf;
}

static size_t count(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static void test_escape(void **state)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    sb_html_escape(f, "<script>alert('x' & \"y\")</script>\x01");
    fclose(f);
    assert_string_equal(buf, "&lt;script&gt;alert(&#39;x&#39; &amp; &quot;y&quot;)&lt;/script&gt; ");
    free(buf);
}

static void test_latency_names(void **state)
{
    char prefix[32];
    double pct;
    assert_true(sb_latency_percentile("lat_p99.99", prefix, sizeof prefix, &pct));
    assert_string_equal(prefix, "lat");
    assert_true(pct == 99.99);
    assert_true(sb_latency_percentile("insert_lat_p50", prefix, sizeof prefix, &pct));
    assert_string_equal(prefix, "insert_lat");
    assert_true(pct == 50);
    assert_true(sb_latency_percentile("lat_p1", prefix, sizeof prefix, &pct));
    assert_true(pct == 1);
    assert_false(sb_latency_percentile("lat_mean", prefix, sizeof prefix, &pct));
    assert_false(sb_latency_percentile("lat_max", prefix, sizeof prefix, &pct));
    assert_false(sb_latency_percentile("iops", prefix, sizeof prefix, &pct));
    assert_false(sb_latency_percentile("_p50", prefix, sizeof prefix, &pct));
    assert_false(sb_latency_percentile("lat_p", prefix, sizeof prefix, &pct));
    assert_false(sb_latency_percentile("lat_p99x", prefix, sizeof prefix, &pct));
    assert_false(sb_latency_percentile("lat_p200", prefix, sizeof prefix, &pct));
    assert_false(sb_latency_percentile("lat_p1e2", prefix, sizeof prefix, &pct));
    assert_false(sb_latency_percentile("lat_p9.9.9", prefix, sizeof prefix, &pct));
}

static void test_page(void **state)
{
    sb_resultfile rf;
    fixture_build(&rf);
    char *html = render(&rf);
    assert_int_equal(strncmp(html, "<!DOCTYPE html>", 15), 0);
    assert_non_null(strstr(html, "</html>\n"));
    /* Self-contained: nothing fetched from anywhere. */
    assert_null(strstr(html, "src="));
    assert_null(strstr(html, "href=\"http"));
    assert_null(strstr(html, "@import"));
    assert_non_null(strstr(html, "default-src 'none'"));
    /* User strings are escaped everywhere. */
    assert_null(strstr(html, "<x>"));
    assert_null(strstr(html, "<two>"));
    assert_non_null(strstr(html, "<title>Fixture &lt;&amp;&gt; &quot;title&quot;</title>"));
    assert_non_null(strstr(html, "<th scope=\"col\">B &lt;x&gt;</th>"));
    /* The Disk row differs, the Processor and Kernel rows do not. */
    assert_int_equal(count(html, "<tr class=\"differs\">"), 1);
    assert_non_null(strstr(html, "<tr class=\"differs\"><th scope=\"row\">Disk</th>"));
    /* One chart per result, one bar per entry, and an empty "not run" bar for the
     * identifier a result lacks (the 2-entry one). */
    assert_int_equal(count(html, "<svg class=\"chart\""), 3);
    assert_int_equal(count(html, "<rect class=\"bar"), 3 + 2 + 3 + 1);
    assert_int_equal(count(html, "<rect class=\"bar empty\""), 1);
    assert_int_equal(count(html, "<g class=\"not-run\""), 1);
    /* Best marked: B on fio and sqlite (lower is better), A and C tie on fs-mark. */
    assert_int_equal(count(html, "<rect class=\"bar best\""), 4);
    assert_non_null(strstr(html, "&#9733; best 5.00</text>"));
    assert_non_null(strstr(html, "Seconds &lt; Lower Is Better"));
    assert_non_null(strstr(html, "MB/s &gt; Higher Is Better"));
    assert_non_null(strstr(html, "<p class=\"options\">Type: Random Write - Block Size: 4KB</p>"));
    /* Whiskers for the 5 entries with runs, none for imported figures. */
    assert_int_equal(count(html, "<g class=\"whisker\">"), 5);
    /* C's untrusted figure is starred and explained, once. */
    assert_int_equal(count(html, "100.17 *</text>"), 1);
    assert_int_equal(count(html, "* a run was shorter than the 3 s"), 1);
    /* Latency: one chart (fio only), three series of three points. */
    assert_int_equal(count(html, "<svg class=\"latency\""), 1);
    assert_int_equal(count(html, "<g class=\"lat-series\""), 3);
    assert_int_equal(count(html, "<circle "), 9);
    assert_non_null(strstr(html, ">p99.9</text>"));
    /* iops lands in the table of all figures, not in the latency chart. */
    assert_non_null(strstr(html, "<th scope=\"col\">iops (IOPS)</th>"));
    free(html);
    sb_resultfile_free(&rf);
}

static void test_empty(void **state)
{
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    char *html = render(&rf);
    assert_non_null(strstr(html, "<title>storbench results</title>"));
    assert_non_null(strstr(html, "No results yet."));
    free(html);
    sb_resultfile_free(&rf);
}

static void test_log_scale(void **state)
{
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    sb_resultfile_add_system(&rf, "only");
    sb_result *r = sb_resultfile_get_result(&rf, "x", "X", "1", "", "ops/s", SB_HIGHER_IS_BETTER);
    sb_entry *e = sb_result_add_entry(r, "only");
    sb_entry_set_values(e, (double[]){1, 2}, 2);
    sb_entry_add_secondary(e, "insert_lat_p50", "us", 12);
    sb_entry_add_secondary(e, "insert_lat_p99.99", "us", 4000);
    char *html = render(&rf);
    assert_non_null(strstr(html, "insert_lat: latency percentiles (us, lower is better, log scale)"));
    assert_non_null(strstr(html, ">10000 us</text>"));
    assert_non_null(strstr(html, ">10 us</text>"));
    /* Two percentiles: upright labels. */
    assert_null(strstr(html, "rotate("));
    free(html);
    /* Eight: slanted, each label once. */
    const char *more[] = {"insert_lat_p1", "insert_lat_p10", "insert_lat_p90", "insert_lat_p95",
                          "insert_lat_p99", "insert_lat_p99.9"};
    for (int i = 0; i < 6; i++)
        sb_entry_add_secondary(e, more[i], "us", 100.0 + i);
    html = render(&rf);
    assert_int_equal(count(html, "transform=\"rotate(-45)\""), 8);
    assert_int_equal(count(html, "<circle "), 8);
    /* No "differs" highlighting with a single system. */
    assert_null(strstr(html, "<tr class=\"differs\">"));
    free(html);
    sb_resultfile_free(&rf);
}

static void test_run_rows(void **state)
{
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    const char *stamps[] = {"2026-11-30T04:00:00Z", "2026-11-30T05:00:00Z"};
    const char *ids[] = {"one", "two"};
    for (int i = 0; i < 2; i++) {
        sb_system *s = sb_resultfile_add_system(&rf, ids[i]);
        sb_kvlist_add(&s->hardware, "Disk", "same");
        free(s->timestamp);
        s->timestamp = strdup(stamps[i]);
        free(s->tool_version);
        s->tool_version = strdup(i ? "0.2.0" : "0.1.0");
    }
    char *html = render(&rf);
    /* Times always differ: shown, never marked. A different storbench version is marked. */
    assert_non_null(strstr(html, "<tr><th scope=\"row\">Time</th><td>2026-11-30T04:00:00Z</td>"));
    assert_int_equal(count(html, "<tr class=\"differs\">"), 1);
    assert_non_null(strstr(html, "<tr class=\"differs\"><th scope=\"row\">storbench</th>"));
    free(html);
    sb_resultfile_free(&rf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_latency_names),
        cmocka_unit_test(test_page),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_log_scale),
        cmocka_unit_test(test_run_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
