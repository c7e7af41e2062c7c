/* Unit tests for the text-format reader (formats/text_import.c): both seed pages read into the model with every
 * system and every value checked against seed_expected.h; the flattened
 * reading of seed 001 equals its tidy reading; variants of the tidy layout;
 * texts that are not result pages are refused with one line. */
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
#include "seed_expected.h"

#define SEED000 "tests/data/seeds/000_a97674fdc4297efd.txt"
#define SEED001 "tests/data/seeds/001_5b3cf86a040befc6.txt"


static void import_text(const char *text, sb_resultfile *rf)
{
    char err[256] = "";
    sb_resultfile_init(rf);
    int rc = sb_text_import(text, strlen(text), rf, err, sizeof err);
    if (rc)
        fail_msg("import failed: %s", err);
}

/* Every result header and every row of the page, in order, nothing more. */
static void check_results(const sb_resultfile *rf, const exp_result *er, size_t n_er,
                          const exp_row *rows, size_t n_rows)
{
    assert_int_equal(rf->n_results, n_er);
    size_t total = 0;
    for (size_t i = 0; i < n_er; i++) {
        const sb_result *r = &rf->results[i];
        assert_string_equal(r->test, er[i].test);
        assert_string_equal(r->title, er[i].title);
        assert_string_equal(r->version, er[i].version);
        assert_string_equal(r->description, er[i].description);
        assert_string_equal(r->unit, er[i].unit);
        assert_int_equal(r->direction, er[i].direction);
        assert_int_equal(r->n_entries, er[i].n_entries);
        total += r->n_entries;
    }
    assert_int_equal(total, n_rows);
    size_t k = 0;
    for (size_t i = 0; i < n_rows; i++) {
        const sb_result *r = &rf->results[rows[i].result];
        if (i && rows[i].result != rows[i - 1].result)
            k = 0;
        /* entries keep page order */
        const sb_entry *e = &r->entries[k++];
        assert_string_equal(e->identifier, rows[i].identifier);
        char buf[64];
        sb_report_format_value(buf, sizeof buf, e->mean, e->decimals);
        assert_string_equal(buf, rows[i].value);
        assert_true(fabs(e->mean - strtod(rows[i].value, NULL)) < 1e-9);
        const char *dot = strchr(rows[i].value, '.');
        assert_int_equal(e->decimals, dot ? (int)strlen(dot + 1) : 0);
        assert_int_equal(e->n_values, 0);
        assert_true(e->sd == 0 && e->se == 0);
        assert_non_null(sb_resultfile_find_system(rf, e->identifier));
    }
}

static void check_kv(const sb_kvlist *l, size_t n, const char *const *keys)
{
    assert_int_equal(l->n, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(l->items[i].key, keys[i]);
}

static const char *const hw_keys[] = {"Processor", "Motherboard", "Chipset", "Memory", "Disk",
                                      "Graphics",  "Audio",       "Monitor", "Network"};
static const char *const sw_keys[] = {"OS",             "Kernel",   "Desktop",
                                      "Display Server", "Display Driver", "OpenGL",
                                      "Compiler",       "File-System",    "Screen Resolution"};

static void test_seed001(void **state)
{
    (void)state;
    sb_resultfile rf;
    import_file(SEED001, &rf);
    assert_string_equal(rf.title, "Btrfs RAID Samsung Linux 4.4");
    assert_string_equal(rf.description,
                        "Btrfs RAID 0 and RAID 1 benchmarks on Samsung 850 SSDs with the Linux 4.4 "
                        "kernel and also with various Btrfs mount options. Tests by Michael Larabel "
                        "for a future article on Phoronix.com.");
    static const char *const ids[] = {"Single Disk", "2-Disk RAID0", "2-Disk RAID1",
                                      "2-Disk RAID1 + LZO", "2-Disk RAID1 + LZO + Nobarrier",
                                      "2-Disk RAID1 + LZO + Nobarrier + Noatime"};
    assert_int_equal(rf.n_systems, 6);
    for (size_t i = 0; i < 6; i++) {
        const sb_system *s = &rf.systems[i];
        assert_string_equal(s->identifier, ids[i]);
        check_kv(&s->hardware, 9, hw_keys);
        check_kv(&s->software, 9, sw_keys);
        assert_int_equal(s->storage.n, 0);
        assert_string_equal(s->tool_version, "imported");
        assert_string_equal(s->timestamp, "");
        assert_string_equal(sb_kvlist_get(&s->hardware, "Processor"),
                            "Intel Core i7-5960X @ 3.50GHz (16 Cores)");
        assert_string_equal(sb_kvlist_get(&s->hardware, "Disk"),
                            "2 x 120GB Samsung SSD 850 + 240GB OCZ VERTEX3");
        assert_string_equal(sb_kvlist_get(&s->hardware, "Graphics"),
                            "MSI AMD Radeon R7 370 / R9 270/370 OEM 4096MB");
        assert_string_equal(sb_kvlist_get(&s->hardware, "Network"), "Intel Connection");
        assert_string_equal(sb_kvlist_get(&s->software, "OS"), "Ubuntu 15.10");
        assert_string_equal(sb_kvlist_get(&s->software, "Kernel"),
                            "4.4.0-rc2-phoronix (x86_64) 20151123");
        assert_string_equal(sb_kvlist_get(&s->software, "OpenGL"),
                            "4.1 Mesa 11.1.0-devel (padoka PPA) Gallium 0.4");
        assert_string_equal(sb_kvlist_get(&s->software, "File-System"), "btrfs");
        assert_string_equal(sb_kvlist_get(&s->software, "Screen Resolution"), "3840x2160");
    }
    check_results(&rf, seed001_results, sizeof seed001_results / sizeof seed001_results[0],
                  seed001_rows, sizeof seed001_rows / sizeof seed001_rows[0]);
    /* spot values */
    assert_true(fabs(sb_result_find_entry(&rf.results[0], "Single Disk")->mean - 67.63) < 1e-9);
    const sb_entry *pm = sb_result_find_entry(&rf.results[10], "2-Disk RAID1 + LZO + Nobarrier");
    assert_int_equal(pm->decimals, 0);
    assert_true(pm->mean == 5639);
    sb_resultfile_free(&rf);
}

static void test_seed000(void **state)
{
    (void)state;
    sb_resultfile rf;
    import_file(SEED000, &rf);
    /* Flattening joined title and description; the split is a heuristic (text-format.md). */
    assert_string_equal(rf.title, "BCache Linux 4.8 HDD + SSD Disk Test");
    assert_string_equal(rf.description,
                        "SSD abd benchmarks by Michael Larabel for a future article. Linux 4.8 "
                        "BCache tests were done with Samsung 850 EVO SSD + Hitachi HDD");
    static const char *const ids[] = {
        "Samsung 950 PRO 256GB",  "Intel SSDPEKKW256G7 256GB",       "OCZ Trion TR150 120GB",
        "Corsair Force LX 256GB", "PNY CS1211 120GB",                "Samsung 850 EVO 120GB",
        "Intel SSDSC2BW12 120GB", "Hitachi HUA72302 2TB",            "BCache - Writethrough + Discard",
        "Bcache - Writeback + Discard", "BCache - Writearound + Discard", "BCache - Writethrough",
        "BCache - Writeback",     "SAMSUNG MZ7LN256"};
    assert_int_equal(rf.n_systems, 14);
    for (size_t i = 0; i < 14; i++) {
        const sb_system *s = &rf.systems[i];
        assert_string_equal(s->identifier, ids[i]);
        assert_string_equal(s->tool_version, "imported");
        if (i < 13) {
            check_kv(&s->hardware, 9, hw_keys);
            assert_string_equal(sb_kvlist_get(&s->hardware, "Processor"),
                                "Intel Xeon E3-1280 v5 @ 4.00GHz (8 Cores)");
            assert_string_equal(sb_kvlist_get(&s->hardware, "Network"), "Intel Connection");
            assert_string_equal(sb_kvlist_get(&s->software, "Compiler"), "GCC 5.4.0 20160609");
            assert_string_equal(sb_kvlist_get(&s->software, "Screen Resolution"), "3840x2160");
        }
        check_kv(&s->software, 9, sw_keys);
    }
    assert_string_equal(sb_kvlist_get(&rf.systems[0].hardware, "Disk"), "Samsung SSD 950 PRO 256GB");
    assert_string_equal(sb_kvlist_get(&rf.systems[8].hardware, "Disk"),
                        "120GB Samsung SSD 850 + 2000GB Hitachi HUA72302 + 256GB INTEL SSDPEKKW256G7");
    /* The laptop: no Monitor, its own values; its Screen Resolution ends where the first
     * result's title begins. */
    const sb_system *last = &rf.systems[13];
    static const char *const hw13[] = {"Processor", "Motherboard", "Chipset", "Memory",
                                       "Disk",      "Graphics",    "Audio",   "Network"};
    check_kv(&last->hardware, 8, hw13);
    assert_string_equal(sb_kvlist_get(&last->hardware, "Network"),
                        "Intel Connection + Intel Wireless 7265");
    assert_string_equal(sb_kvlist_get(&last->software, "Kernel"), "4.8.0-26-generic (x86_64)");
    assert_string_equal(sb_kvlist_get(&last->software, "Screen Resolution"), "1366x768");
    check_results(&rf, seed000_results, sizeof seed000_results / sizeof seed000_results[0],
                  seed000_rows, sizeof seed000_rows / sizeof seed000_rows[0]);
    /* SQLite has no row for the first system. */
    assert_null(sb_result_find_entry(&rf.results[2], "Samsung 950 PRO 256GB"));
    assert_true(fabs(sb_result_find_entry(&rf.results[2], "BCache - Writethrough")->mean - 580.75) < 1e-9);
    sb_resultfile_free(&rf);
}

static void assert_same_kv(const sb_kvlist *a, const sb_kvlist *b)
{
    assert_int_equal(a->n, b->n);
    for (size_t i = 0; i < a->n; i++) {
        assert_string_equal(a->items[i].key, b->items[i].key);
        assert_string_equal(a->items[i].value, b->items[i].value);
    }
}

static void assert_same_model(const sb_resultfile *a, const sb_resultfile *b)
{
    assert_string_equal(a->title, b->title);
    assert_string_equal(a->description, b->description);
    assert_int_equal(a->n_systems, b->n_systems);
    for (size_t i = 0; i < a->n_systems; i++) {
        assert_string_equal(a->systems[i].identifier, b->systems[i].identifier);
        assert_same_kv(&a->systems[i].hardware, &b->systems[i].hardware);
        assert_same_kv(&a->systems[i].software, &b->systems[i].software);
    }
    assert_int_equal(a->n_results, b->n_results);
    for (size_t i = 0; i < a->n_results; i++) {
        const sb_result *x = &a->results[i], *y = &b->results[i];
        assert_string_equal(x->test, y->test);
        assert_string_equal(x->title, y->title);
        assert_string_equal(x->version, y->version);
        assert_string_equal(x->description, y->description);
        assert_string_equal(x->unit, y->unit);
        assert_int_equal(x->direction, y->direction);
        assert_int_equal(x->n_entries, y->n_entries);
        for (size_t k = 0; k < x->n_entries; k++) {
            assert_string_equal(x->entries[k].identifier, y->entries[k].identifier);
            assert_true(x->entries[k].mean == y->entries[k].mean);
            assert_int_equal(x->entries[k].decimals, y->entries[k].decimals);
        }
    }
}

/* Seed 001 with its whitespace flattened reads into the same model as the tidy page. */
static void test_flattened_equals_tidy(void **state)
{
    (void)state;
    size_t len;
    char *text = slurp(SEED001, &len);
    char *flat = malloc(len + 1);
    size_t j = 0;
    for (size_t i = 0; i < len; i++) {
        bool ws = text[i] == ' ' || text[i] == '\n' || text[i] == '\t';
        if (ws && j && flat[j - 1] == ' ')
            continue;
        flat[j++] = ws ? ' ' : text[i];
    }
    flat[j] = '\0';
    assert_null(strchr(flat, '\n'));
    sb_resultfile tidy, flattened;
    import_file(SEED001, &tidy);
    import_text(flat, &flattened);
    assert_same_model(&tidy, &flattened);
    sb_resultfile_free(&tidy);
    sb_resultfile_free(&flattened);
    free(text);
    free(flat);
}

/* What the renderer writes, the importer reads back unchanged. */
static void test_round_trip(void **state)
{
    (void)state;
    sb_resultfile a, b;
    import_file(SEED000, &a);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(sb_report_text(f, &a, 100), 0);
    fclose(f);
    import_text(buf, &b);
    assert_same_model(&a, &b);
    sb_resultfile_free(&a);
    sb_resultfile_free(&b);
    free(buf);
}

/* Round trip of a page with the awkward parts: systems with empty descriptions, a figure
 * for an identifier with no system, a zero, integers, no version, no option line. */
static void test_round_trip_small(void **state)
{
    (void)state;
    sb_resultfile a, b;
    sb_resultfile_init(&a);
    sb_resultfile_set_title(&a, "Title", "");
    sb_system *s = sb_resultfile_add_system(&a, "Alpha");
    sb_kvlist_add(&s->hardware, "Processor", "P1, with a comma");
    sb_kvlist_add(&s->software, "OS", "O1");
    s = sb_resultfile_add_system(&a, "Beta Gamma");
    sb_kvlist_add(&s->hardware, "Processor", "P2");
    sb_resultfile_add_system(&a, "Delta");
    sb_result *r = sb_resultfile_get_result(&a, "", "Homegrown", "", "", "Seconds", SB_LOWER_IS_BETTER);
    sb_entry *e = sb_result_add_entry(r, "Alpha");
    e->mean = 0;
    e->decimals = 0;
    e = sb_result_add_entry(r, "Delta");
    e->mean = 7;
    e->decimals = 0;
    r = sb_resultfile_get_result(&a, "fio", "Flexible IO Tester", "2.1.13", "Type: Random Write",
                                 "MB/s", SB_HIGHER_IS_BETTER);
    e = sb_result_add_entry(r, "Beta Gamma");
    e->mean = 200.25;
    for (int width = 20; width <= 120; width += 50) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        assert_int_equal(sb_report_text(f, &a, width), 0);
        fclose(f);
        import_text(buf, &b);
        assert_same_model(&a, &b);
        for (size_t i = 0; i < b.n_systems; i++)
            assert_string_equal(b.systems[i].tool_version, "imported");
        sb_resultfile_free(&b);
        free(buf);
    }
    sb_resultfile_free(&a);
}

static void test_tidy_variants(void **state)
{
    (void)state;
    sb_resultfile rf;
    /* CRLF line ends, a result without option line, a row naming an unlisted system,
     * a result without version, integer values. */
    import_text("My Title\r\nMy description.\r\n\r\n\r\nBox A: \r\n\r\n\tProcessor: X (2 Cores), "
                "Memory: 1024MB\r\n\r\n\tOS: Debian 12, Kernel: 6.1.0 (x86_64)\r\n\r\n\r\n"
                "Dbench 4.0\r\nMB/s > Higher Is Better\r\nBox A . 12.50 |=====\r\n"
                "Box B . 3.1   |=\r\n\r\n\r\nHomegrown Test\r\nMode: Fast\r\n"
                "Seconds < Lower Is Better\r\nBox B . 7 |==\r\n",
                &rf);
    assert_string_equal(rf.title, "My Title");
    assert_string_equal(rf.description, "My description.");
    assert_int_equal(rf.n_systems, 2);
    assert_string_equal(rf.systems[0].identifier, "Box A");
    assert_string_equal(sb_kvlist_get(&rf.systems[0].hardware, "Memory"), "1024MB");
    assert_string_equal(sb_kvlist_get(&rf.systems[0].software, "Kernel"), "6.1.0 (x86_64)");
    assert_string_equal(rf.systems[1].identifier, "Box B");
    assert_int_equal(rf.systems[1].hardware.n, 0);
    assert_int_equal(rf.n_results, 2);
    assert_string_equal(rf.results[0].test, "dbench");
    assert_string_equal(rf.results[0].description, "");
    assert_int_equal(rf.results[0].n_entries, 2);
    assert_true(rf.results[0].entries[1].mean == 3.1);
    assert_int_equal(rf.results[0].entries[1].decimals, 1);
    assert_string_equal(rf.results[1].test, "");
    assert_string_equal(rf.results[1].title, "Homegrown Test");
    assert_string_equal(rf.results[1].version, "");
    assert_string_equal(rf.results[1].description, "Mode: Fast");
    assert_int_equal(rf.results[1].direction, SB_LOWER_IS_BETTER);
    assert_int_equal(rf.results[1].entries[0].decimals, 0);
    assert_true(rf.results[1].entries[0].mean == 7);
    sb_resultfile_free(&rf);
}

/* The flattened layout's heuristics (docs/text-format.md), on pages made for them. */
static void test_flattened_heuristics(void **state)
{
    (void)state;
    sb_resultfile rf;
    /* The last value has several words; the first result's title is not a storbench one but
     * comes again later, which marks where the value ends. */
    import_text("Page Title Some description here. Box A: Processor: P1, Memory: 1MB OS: Deb 12, "
                "Compiler: GCC 12.2.0 20220819 Foo Bench 2.0 Mode: A MB/s > Higher Is Better "
                "Box A . 1.00 |== Foo Bench 2.0 Mode: B Frames Per Second < Lower Is Better "
                "Box A . 2 |====",
                &rf);
    assert_string_equal(rf.title, "Page Title");
    assert_string_equal(rf.description, "Some description here.");
    assert_int_equal(rf.n_systems, 1);
    assert_string_equal(sb_kvlist_get(&rf.systems[0].hardware, "Memory"), "1MB");
    assert_string_equal(sb_kvlist_get(&rf.systems[0].software, "OS"), "Deb 12");
    assert_string_equal(sb_kvlist_get(&rf.systems[0].software, "Compiler"), "GCC 12.2.0 20220819");
    assert_int_equal(rf.n_results, 2);
    assert_string_equal(rf.results[0].title, "Foo Bench");
    assert_string_equal(rf.results[0].version, "2.0");
    assert_string_equal(rf.results[0].description, "Mode: A");
    assert_string_equal(rf.results[0].unit, "MB/s");
    assert_string_equal(rf.results[0].test, "");
    assert_string_equal(rf.results[1].description, "Mode: B");
    assert_string_equal(rf.results[1].unit, "Frames Per Second");
    assert_int_equal(rf.results[1].direction, SB_LOWER_IS_BETTER);
    assert_int_equal(rf.results[1].entries[0].decimals, 0);
    sb_resultfile_free(&rf);

    /* Unknown title seen once: the last value is taken as one word. */
    import_text("T D. Box A: Processor: P1 OS: Deb 12, File-System: ext4 Bar Mark 1.5 Size: 4KB "
                "MB/s > Higher Is Better Box A . 1.00 |=",
                &rf);
    assert_string_equal(sb_kvlist_get(&rf.systems[0].software, "File-System"), "ext4");
    assert_string_equal(rf.results[0].title, "Bar Mark");
    assert_string_equal(rf.results[0].version, "1.5");
    assert_string_equal(rf.results[0].description, "Size: 4KB");
    sb_resultfile_free(&rf);

    /* No system list: the header starts one word before the first version; a row's
     * identifier becomes a system. */
    import_text("Only Title Baz 1.0 Opt: x TPS > Higher Is Better Box Z . 5.50 |=", &rf);
    assert_string_equal(rf.title, "Only Title");
    assert_string_equal(rf.description, "");
    assert_int_equal(rf.n_systems, 1);
    assert_string_equal(rf.systems[0].identifier, "Box Z");
    assert_string_equal(rf.results[0].title, "Baz");
    assert_string_equal(rf.results[0].description, "Opt: x");
    sb_resultfile_free(&rf);

    /* A storbench test's title maps to its test name. */
    import_text("T\nD\n\n\nFS-Mark 3.3\nTest: 1000 Files, 1MB Size\nFiles/s > Higher Is Better\n"
                "A . 1.00 |=\n", &rf);
    assert_string_equal(rf.results[0].test, "fs-mark");
    sb_resultfile_free(&rf);
}

static void expect_refused(const char *text, const char *word)
{
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    char err[256] = "";
    int rc = sb_text_import(text, strlen(text), &rf, err, sizeof err);
    if (rc != -EINVAL)
        fail_msg("accepted (%d) '%.40s'", rc, text);
    assert_true(err[0] != '\0');
    assert_null(strchr(err, '\n'));
    if (word && !strstr(err, word))
        fail_msg("error '%s' does not mention '%s'", err, word);
    sb_resultfile_free(&rf);
}

static void test_not_a_page(void **state)
{
    (void)state;
    expect_refused("", "not a result page");
    expect_refused("{\"format\": \"storbench-result\", \"schema_version\": 1}\n", "not a result page");
    expect_refused("Just some prose.\nNothing here.\n\n\nAt all.\n", "not a result page");
    expect_refused("#!/bin/sh\necho hello\n", "not a result page");
    /* a result and then junk where rows should continue */
    expect_refused("T\nD\n\n\nDbench 4.0\nMB/s > Higher Is Better\nA . 1.00 |=\nnot a row\n", NULL);
    /* two rows for one identifier */
    expect_refused("T\nD\n\n\nDbench 4.0\nMB/s > Higher Is Better\nA . 1.00 |=\nA . 2.00 |==\n",
                   "two rows");
    /* a flattened page with trailing text after the last row */
    expect_refused("T D A: Processor: X, OS: Y Dbench 4.0 MB/s > Higher Is Better A . 1.00 |= trailing",
                   "after the last result");
    char nul[] = "T\nD\n\n\nA: \0\n";
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    char err[128];
    assert_int_equal(sb_text_import(nul, sizeof nul - 1, &rf, err, sizeof err), -EINVAL);
    sb_resultfile_free(&rf);
}

/* PTS's result-file-to-text (docs/text-format.md, "A result that cannot be read"): its
 * warnings before the page, a test that gave no figure (title and option line alone, or
 * with its scale line), a second row of one identifier. Tolerant: each skipped and
 * counted, the rest read; strict (sb_text_import): the page refused at the first. */
static void test_tolerant(void **state)
{
    (void)state;
    const char *page = "\nNo Internet Connectivity\n\nRes Title\nA description.\n\n\nBox: \n\n"
                       "\tProcessor: P1\n\n\tOS: Deb\n\n\n"
                       "Foo 1.0\nAlgorithm: A\n\n\n"                           /* no scale, no rows */
                       "Foo 1.0\n\nSeconds < Lower Is Better\n\n\n"              /* no rows */
                       "Foo 1.0\nTest Install Size\nBytes < Lower Is Better\n"
                       "Box . 100 |==========\nBox . 101 |==========\n\n\n"       /* a second row */
                       "Foo 1.0\nAlgorithm: B\nMB/s > Higher Is Better\nBox . 2.50 |=====\n";
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    char err[512] = "";
    sb_text_import_opts o = {.strict = false};
    assert_int_equal(sb_text_import_ex(page, strlen(page), &rf, &o, err, sizeof err), 0);
    assert_int_equal(o.skipped, 4); /* the leading line, two results, one row */
    assert_string_equal(rf.title, "Res Title");
    assert_string_equal(rf.description, "A description.");
    assert_int_equal(rf.n_systems, 1);
    assert_int_equal(rf.n_results, 2);
    assert_string_equal(rf.results[0].description, "Test Install Size");
    assert_int_equal(rf.results[0].n_entries, 1);
    assert_true(rf.results[0].entries[0].mean == 100); /* the first row is kept */
    assert_string_equal(rf.results[1].description, "Algorithm: B");
    assert_true(rf.results[1].entries[0].mean == 2.5);
    sb_resultfile_free(&rf);

    /* strict: refused at the first, with its line */
    sb_resultfile_init(&rf);
    assert_int_equal(sb_text_import(page, strlen(page), &rf, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "line 2: lines 2 to 3, before the page's title 'Res Title' (line 4)"));
    sb_resultfile_free(&rf);
    const char *rest = strstr(page, "Res Title");
    sb_resultfile_init(&rf);
    assert_int_equal(sb_text_import(rest, strlen(rest), &rf, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "line 12: result 'Foo 1.0: Algorithm: A' has no"));
    sb_resultfile_free(&rf);

    /* the last result without rows is where a page cut short shows: refused even when
     * tolerant; so is a damaged value */
    const char *none = "T\nD\n\n\nFoo 1.0\nOpt: a\n\n\nFoo 1.0\n\nSeconds < Lower Is Better\n";
    sb_resultfile_init(&rf);
    o = (sb_text_import_opts){.strict = false};
    assert_int_equal(sb_text_import_ex(none, strlen(none), &rf, &o, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "line 9: result 'Foo 1.0' has no rows"));
    sb_resultfile_free(&rf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed001),
        cmocka_unit_test(test_seed000),
        cmocka_unit_test(test_flattened_equals_tidy),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_round_trip_small),
        cmocka_unit_test(test_tidy_variants),
        cmocka_unit_test(test_flattened_heuristics),
        cmocka_unit_test(test_not_a_page),
        cmocka_unit_test(test_tolerant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
