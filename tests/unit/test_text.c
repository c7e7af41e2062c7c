/* Unit tests for the text renderer: value formatting, a hand-built page
 * written out in full, bar arithmetic (the largest bar ends at W-1 at every
 * width), and the seed pages: seed 001 re-rendered at 80 columns is the seed
 * byte for byte (plus the final newline the seed file lacks), at 60 and 120
 * it is the golden pages of tests/data/text/ (made by an independent
 * implementation, make-golden.py), and seed 000 re-rendered is the seed up to
 * whitespace. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "seed_files.h"

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

static void assert_text_equal(const char *got, const char *want)
{
    if (strcmp(got, want)) {
        size_t i = 0;
        while (got[i] && got[i] == want[i])
            i++;
        fail_msg("texts differ at byte %zu: got '%.60s' want '%.60s'", i, got + i, want + i);
    }
}

static void test_format_value(void **state)
{
    (void)state;
    char b[64];
    sb_report_format_value(b, sizeof b, 67.63, 2);
    assert_string_equal(b, "67.63");
    sb_report_format_value(b, sizeof b, 6148, 0);
    assert_string_equal(b, "6148");
    sb_report_format_value(b, sizeof b, 102.9, 2);
    assert_string_equal(b, "102.90");
    sb_report_format_value(b, sizeof b, 8393.034, 2);
    assert_string_equal(b, "8393.03");
    sb_report_format_value(b, sizeof b, -1.5, 2);
    assert_string_equal(b, "-1.50");
    sb_report_format_value(b, sizeof b, 0, 0);
    assert_string_equal(b, "0");
}

static void build_small(sb_resultfile *rf)
{
    sb_resultfile_init(rf);
    sb_resultfile_set_title(rf, "Title", "A description.");
    sb_system *s = sb_resultfile_add_system(rf, "Alpha");
    sb_kvlist_add(&s->hardware, "Processor", "P1");
    sb_kvlist_add(&s->hardware, "Memory", "1MB");
    sb_kvlist_add(&s->software, "OS", "O1");
    sb_kvlist_add(&s->storage, "Scheduler", "none"); /* not part of the page */
    s = sb_resultfile_add_system(rf, "Beta Gamma");
    sb_kvlist_add(&s->hardware, "Processor", "P2");
    sb_resultfile_add_system(rf, "Delta");

    sb_result *r = sb_resultfile_get_result(rf, "fio", "Flexible IO Tester", "2.1.13",
                                            "Type: Random Write", "MB/s", SB_HIGHER_IS_BETTER);
    sb_entry *e = sb_result_add_entry(r, "Beta Gamma"); /* entry order is not page order */
    e->mean = 200;
    e->decimals = 2;
    e = sb_result_add_entry(r, "Alpha");
    e->mean = 50.5;
    e->decimals = 2;

    r = sb_resultfile_get_result(rf, "", "Homegrown", "", "", "Seconds", SB_LOWER_IS_BETTER);
    e = sb_result_add_entry(r, "Zeta"); /* names no system: after the others */
    e->mean = 3;
    e->decimals = 0;
    e = sb_result_add_entry(r, "Delta");
    e->mean = 7;
    e->decimals = 0;
    e = sb_result_add_entry(r, "Alpha");
    e->mean = 0;
    e->decimals = 0;
}

/* Worked by hand. Result 1: identifier column 10 + 2, values 6 + 1 wide, so 21 columns come
 * before the bar and W=40 leaves 18: 200 gets 18, 50.5 gets round(4.545) = 5. Result 2:
 * 5 + 2, 1 + 1: 11 columns, 28 left: 7 gets 28, 3 gets round(12) = 12, 0 gets none.
 * The identifier of the page without a figure in a result (Delta in 1, Beta Gamma in 2)
 * follows as "not run" with an empty bar, widening no column (one dot, one space). */
static const char small_w40[] =
    "Title\n"
    "A description.\n"
    "\n"
    "\n"
    "Alpha: \n"
    "\n"
    "\tProcessor: P1, Memory: 1MB\n"
    "\n"
    "\tOS: O1\n"
    "\n"
    "Beta Gamma: \n"
    "\n"
    "\tProcessor: P2\n"
    "\n"
    "\t\n"
    "\n"
    "Delta: \n"
    "\n"
    "\t\n"
    "\n"
    "\t\n"
    "\n"
    "\n"
    "Flexible IO Tester 2.1.13\n"
    "Type: Random Write\n"
    "MB/s > Higher Is Better\n"
    "Alpha ...... 50.50  |=====\n"
    "Beta Gamma . 200.00 |==================\n"
    "Delta ...... not run |\n"
    "\n"
    "\n"
    "Homegrown\n"
    "Seconds < Lower Is Better\n"
    "Alpha . 0 |\n"
    "Delta . 7 |============================\n"
    "Zeta .. 3 |============\n"
    "Beta Gamma . not run |\n";

static void test_small_page(void **state)
{
    (void)state;
    sb_resultfile rf;
    build_small(&rf);
    char *got = render(&rf, 40);
    assert_text_equal(got, small_w40);
    free(got);

    /* Too narrow for result 1's bars (21 + 1 > 20): its rows stay, bars vanish; result 2
     * has 20 - 11 - 1 = 8 columns left. */
    got = render(&rf, 20);
    assert_non_null(strstr(got, "Beta Gamma . 200.00 |\n"));
    assert_non_null(strstr(got, "Alpha ...... 50.50  |\n"));
    assert_non_null(strstr(got, "Delta . 7 |========\n"));
    free(got);
    sb_resultfile_free(&rf);
}

static void test_single_result(void **state)
{
    (void)state;
    sb_resultfile rf;
    build_small(&rf);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(sb_report_text_result(f, &rf.results[1], 40), 0);
    fclose(f);
    /* Without a page, rows come in entry order. */
    assert_text_equal(buf, "Homegrown\n"
                           "Seconds < Lower Is Better\n"
                           "Zeta .. 3 |============\n"
                           "Delta . 7 |============================\n"
                           "Alpha . 0 |\n");
    free(buf);
    sb_resultfile_free(&rf);
}

/* Non-ASCII identifiers line up by characters, not bytes. */
static void test_utf8_identifiers(void **state)
{
    (void)state;
    sb_result r = {0};
    r.title = "T";
    r.version = "1.0";
    r.description = "";
    r.unit = "MB/s";
    sb_entry e[2] = {{0}};
    e[0].identifier = "Große Platte";
    e[0].mean = 10;
    e[0].decimals = 2;
    e[1].identifier = "Small Disk!!";
    e[1].mean = 5;
    e[1].decimals = 2;
    r.entries = e;
    r.n_entries = 2;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(sb_report_text_result(f, &r, 40), 0);
    fclose(f);
    /* 12 characters each: both get " ." */
    assert_non_null(strstr(buf, "Große Platte . 10.00 |"));
    assert_non_null(strstr(buf, "Small Disk!! . 5.00  |"));
    free(buf);
}

/* At every width the largest bar of every result ends at column W-1 and every other bar is
 * round(value / max * room). */
static void test_bar_arithmetic(void **state)
{
    (void)state;
    sb_resultfile rf;
    import_file("tests/data/seeds/001_5b3cf86a040befc6.txt", &rf);
    for (int w = 40; w <= 200; w += 7) {
        char *page = render(&rf, w);
        for (size_t i = 0; i < rf.n_results; i++) {
            const sb_result *r = &rf.results[i];
            double max = 0;
            for (size_t k = 0; k < r->n_entries; k++)
                max = fmax(max, r->entries[k].mean);
            for (size_t k = 0; k < r->n_entries; k++) {
                const sb_entry *e = &r->entries[k];
                char val[64], needle[256];
                sb_report_format_value(val, sizeof val, e->mean, e->decimals);
                snprintf(needle, sizeof needle, "\n%s .", e->identifier);
                /* find this result's row: after the result's option line */
                const char *sec = strstr(page, r->description);
                assert_non_null(sec);
                const char *row = strstr(sec, needle);
                assert_non_null(row);
                row++;
                const char *bar = strchr(row, '|');
                const char *end = strchr(row, '\n');
                size_t used = (size_t)(bar - row) + 1;
                size_t bars = (size_t)(end - bar) - 1;
                long room = w - (long)used - 1;
                if (room < 0)
                    room = 0;
                assert_int_equal(bars, lround(e->mean / max * room));
                if (e->mean == max && room > 0)
                    assert_int_equal((size_t)(end - row), (size_t)w - 1);
            }
        }
        free(page);
    }
    sb_resultfile_free(&rf);
}

static void test_seed001_golden(void **state)
{
    (void)state;
    sb_resultfile rf;
    import_file("tests/data/seeds/001_5b3cf86a040befc6.txt", &rf);
    size_t len;
    char *seed = slurp("tests/data/seeds/001_5b3cf86a040befc6.txt", &len);
    /* The seed file has no final newline; the page storbench writes ends with one. */
    assert_true(len > 0 && seed[len - 1] != '\n');
    seed[len] = '\n';
    seed[len + 1] = '\0';
    char *got = render(&rf, 80);
    assert_text_equal(got, seed);
    free(got);
    free(seed);

    static const struct {
        int width;
        const char *file;
    } golden[] = {{60, "tests/data/text/001_w60.txt"}, {120, "tests/data/text/001_w120.txt"}};
    for (size_t i = 0; i < 2; i++) {
        char *want = slurp(golden[i].file, &len);
        got = render(&rf, golden[i].width);
        assert_text_equal(got, want);
        free(got);
        free(want);
    }
    sb_resultfile_free(&rf);
}

/* Whitespace runs become one space; trailing whitespace goes. */
static void squeeze(char *s)
{
    size_t j = 0;
    for (size_t i = 0; s[i]; i++) {
        bool ws = s[i] == ' ' || s[i] == '\n' || s[i] == '\t';
        if (ws && (j == 0 || s[j - 1] == ' '))
            continue;
        s[j++] = ws ? ' ' : s[i];
    }
    while (j && s[j - 1] == ' ')
        j--;
    s[j] = '\0';
}

static void test_seed000_flattened(void **state)
{
    (void)state;
    sb_resultfile rf;
    import_file("tests/data/seeds/000_a97674fdc4297efd.txt", &rf);
    size_t len;
    char *seed = slurp("tests/data/seeds/000_a97674fdc4297efd.txt", &len);
    char *got = render(&rf, 80);
    /* The rendering is multi-line; flattened, it is the seed with one row more: the seed
     * prints no row for the one configuration without an SQLite figure, the rendering
     * says "not run" beside an empty bar (a row that widens no column). */
    assert_true(strchr(got, '\t') != NULL);
    static const char not_run[] = "Samsung 950 PRO 256GB ........... not run |\n";
    char *row = strstr(got, not_run);
    assert_non_null(row);
    memmove(row, row + strlen(not_run), strlen(row + strlen(not_run)) + 1);
    assert_null(strstr(got, "not run"));
    squeeze(got);
    squeeze(seed);
    assert_text_equal(got, seed);
    free(got);
    free(seed);
    sb_resultfile_free(&rf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_value),
        cmocka_unit_test(test_small_page),
        cmocka_unit_test(test_single_result),
        cmocka_unit_test(test_utf8_identifiers),
        cmocka_unit_test(test_bar_arithmetic),
        cmocka_unit_test(test_seed001_golden),
        cmocka_unit_test(test_seed000_flattened),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
