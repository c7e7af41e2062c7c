/*
 * test_ddwiki — the dd wiki page (formats/ddwiki.c): all 15 machine blocks of
 * seed 004 with their 45 figures against the page's text (copied by hand into
 * the table below, not read by the code under test), the option lines
 * against the dd workload's own, the example skipped, damaged blocks refused
 * with their line, and blocks written for --wiki read back to the same figures.
 */
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

#include "core/rand.h"
#include "core/units.h"
#include "formats/ddwiki.h"
#include "results/result.h"
#include "workloads/registry.h"

#define SEED004 "tests/data/seeds/004_b63bb00861e0ff85.txt"
#define GIB 1073741824ull

/* Seed 004, block by block: heading, bytes, seconds and rate as printed (decimal commas
 * kept), and a word of the note where the block has one. */
static const struct {
    const char *ident;
    uint64_t bytes;
    const char *seconds[3], *rate[3], *note;
} page004[] = {
    {"IBM P520, POWER6, PowerVM (with RHEL6), Hitachi Ultrastar 15K300 SAS, 147GB", GIB,
     {"14.604", "16.7439", "0.354082"}, {"73.5 MB/s", "64.1 MB/s", "3.0 GB/s"}, NULL},
    {"USB UAS attached Samsung 850 EVO 500GB SSD, attached to Intel NUC NUC6i7KYK", 2 * GIB,
     {"5,11402", "4,7174", "0,295798"}, {"420 MB/s", "455 MB/s", "7,3 GB/s"}, "encrypted filesystem"},
    {"USB UAS attached Samsung 850 EVO 500GB SSD, attached to Lenovo X1 carbon (2015), LUKS encrypted fs",
     GIB, {"3,23224", "3,14576", "0,151628"}, {"332 MB/s", "341 MB/s", "7,1 GB/s"}, NULL},
    {"Intel NUC Kit NUC6i7KYK / Samsung SM951 256GB (NVMe) - MZVPV256HDGL", GIB,
     {"0,889314", "0,513717", "0,154132"}, {"1,2 GB/s", "2,1 GB/s", "7,0 GB/s"}, "blocksize (32M)"},
    {"Raspberry Pi 3 Model B 1GB. Transcend 32GB microSD Premium 400x Class 10 UHS-I", GIB,
     {"100.578", "47.0731", "49.5828"}, {"10.7 MB/s", "22.8 MB/s", "21.7 MB/s"}, NULL},
    {"Raspberry Pi 4 Model B 4GB. Transcend 8GB microSD Ultimate 600x Class 10 UHS-I", GIB,
     {"53.5692", "25.1142", "1.49443"}, {"20.0 MB/s", "42.8 MB/s", "718 MB/s"}, NULL},
    {"Raspberry Pi 4 Model B 4GB. SanDisk Ultra 32GB USB 3 thumb drive", GIB,
     {"23.8766", "9.29304", "1.56342"}, {"45.0 MB/s", "116 MB/s", "687 MB/s"}, "very hot"},
    {"Raspberry Pi 4 Model B 4GB. Samsung portable SSD T5", GIB,
     {"4.71707", "3.50969", "1.53438"}, {"228 MB/s", "306 MB/s", "700 MB/s"}, NULL},
    {"PC Engines APU with 16GB SSD - SuperSSpeed S328 16GB", GIB,
     {"41.7628", "5.9659", "1.15947"}, {"25.7 MB/s", "180 MB/s", "926 MB/s"}, NULL},
    {"PC Engines APU with 30GB SSD - Kingston SMS200S330G", GIB,
     {"3.51081", "3.0644", "1.44341"}, {"306 MB/s", "350 MB/s", "744 MB/s"}, NULL},
    {"md RAID1 with Crucial/Micron RealSSD C300/C400/m4", GIB,
     {"9.86249", "3.82096", "0.10913"}, {"109 MB/s", "281 MB/s", "9.8 GB/s"}, NULL},
    {"Proliant DL320e G8 hardware raid / P222 controller / RAID 10 4x SATA LFF", GIB,
     {"3.20435", "3.21506", "0.192178"}, {"335 MB/s", "334 MB/s", "5.6 GB/s"}, NULL},
    {"Proliant DL320e G8 v2 hardware raid / P222 controller / RAID 10 4x SAS SFF", GIB,
     {"2.17193", "2.17759", "0.110266"}, {"494 MB/s", "493 MB/s", "9.7 GB/s"}, NULL},
    {"Odroid M1 / Samsung SSD 970 EVO Plus 250GB", 4 * GIB,
     {"3.82946", "2.96632", "2.86754"}, {"1.1 GB/s", "1.4 GB/s", "1.5 GB/s"}, NULL},
    {"Raspberry Pi CM4 8GB mem / KINGSTON SNVS1000G (1TB)", GIB,
     {"3.17625", "2.68052", "0.769217"}, {"338 MB/s", "401 MB/s", "1.4 GB/s"}, NULL},
};
#define N_BLOCKS (sizeof page004 / sizeof page004[0])

static const char *const labels[3] = {"Test: Direct Write", "Test: Direct Read", "Test: Read Cache"};

/* "5,11402" -> 5.11402 */
static double decimal(const char *s)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%s", s);
    char *c = strchr(buf, ',');
    if (c)
        *c = '.';
    return strtod(buf, NULL);
}

static int import_string(const char *text, sb_resultfile *rf, FILE *log, char *err, size_t len)
{
    sb_resultfile_init(rf);
    return sb_import_ddwiki(text, strlen(text), rf, log, err, len);
}

/* The result of identifier's figure m, and the entry; fails the test when there is none. */
static const sb_entry *figure(const sb_resultfile *rf, const char *ident, int m, const sb_result **res)
{
    for (size_t i = 0; i < rf->n_results; i++) {
        const sb_result *r = &rf->results[i];
        size_t n = strlen(labels[m]);
        size_t dl = strlen(r->description);
        if (dl < n || strcmp(r->description + dl - n, labels[m]))
            continue;
        const sb_entry *e = sb_result_find_entry(r, ident);
        if (e) {
            if (res)
                *res = r;
            return e;
        }
    }
    fail_msg("no %s figure for '%s'", labels[m], ident);
    return NULL;
}

static double secondary(const sb_entry *e, const char *name)
{
    for (size_t i = 0; i < e->n_secondary; i++)
        if (!strcmp(e->secondary[i].name, name))
            return e->secondary[i].value;
    fail_msg("no secondary figure '%s'", name);
    return 0;
}

static void test_seed004_all_blocks(void **state)
{
    (void)state;
    size_t len;
    char *text = slurp(SEED004, &len), err[256] = "";
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    int rc = sb_import_ddwiki(text, len, &rf, NULL, err, sizeof err);
    if (rc)
        fail_msg("import: %s", err);
    assert_string_equal(rf.title, "Direct Write Test, simple benchmark with dd");
    assert_int_equal(rf.n_systems, N_BLOCKS);
    /* 1 GiB, 2 GiB and 4 GiB blocks: three charts for each size. */
    assert_int_equal(rf.n_results, 9);
    size_t figures = 0;
    for (size_t b = 0; b < N_BLOCKS; b++) {
        const sb_system *s = &rf.systems[b];
        assert_string_equal(s->identifier, page004[b].ident);
        assert_string_equal(s->tool_version, "imported");
        const char *note = sb_kvlist_get(&s->hardware, "Note");
        if (page004[b].note) {
            assert_non_null(note);
            assert_non_null(strstr(note, page004[b].note));
        } else {
            assert_null(note);
        }
        for (int m = 0; m < 3; m++) {
            const sb_result *r;
            const sb_entry *e = figure(&rf, page004[b].ident, m, &r);
            char want_desc[128], count[24];
            snprintf(count, sizeof count, "%llu", (unsigned long long)(page004[b].bytes / 2097152));
            snprintf(want_desc, sizeof want_desc, "Block Size: 2048k - Count: %s - Data: Zeros - %s",
                     count, labels[m]);
            assert_string_equal(r->description, want_desc);
            assert_string_equal(sb_kvlist_get(&r->options, "count"), count);
            assert_true(e->imported);
            /* The figure, formatted as dd formats a rate, is the page's rate. */
            char got[32], want[32];
            sb_format_si(got, sizeof got, e->mean * 1e6, "B/s");
            snprintf(want, sizeof want, "%s", page004[b].rate[m]);
            char *c = strchr(want, ',');
            if (c)
                *c = '.';
            if (strcmp(got, want))
                fail_msg("%s %s: %s, the page says %s", page004[b].ident, labels[m], got, want);
            /* ... and it is bytes / seconds from the same line, in 10^6 B/s. */
            double sec = decimal(page004[b].seconds[m]);
            assert_true(fabs(e->mean - (double)page004[b].bytes / sec / 1e6) < 1e-9 * e->mean);
            assert_true(secondary(e, "bytes") == (double)page004[b].bytes);
            assert_true(secondary(e, "seconds") == sec);
            figures++;
        }
    }
    assert_int_equal(figures, 45);
    sb_resultfile_free(&rf);
    free(text);
}

/* The option lines and options are the dd workload's own: a measured run at the same
 * size lands in the same chart. */
static void test_option_lines_are_the_workloads(void **state)
{
    (void)state;
    const sb_workload *w = sb_workload_find("dd");
    assert_non_null(w);
    assert_int_equal(w->n_measures, 3);
    static const char *page = "==== m ====\n<code>\n"
        "Direct write: 4294967296 bytes (4.3 GB, 4.0 GiB) copied, 3.82946 s, 1.1 GB/s\n"
        "Direct read:  4294967296 bytes (4.3 GB, 4.0 GiB) copied, 2.96632 s, 1.4 GB/s\n"
        "Read cache:   4294967296 bytes (4.3 GB, 4.0 GiB) copied, 2.86754 s, 1.5 GB/s\n</code>\n";
    sb_resultfile rf;
    char err[256];
    assert_int_equal(import_string(page, &rf, NULL, err, sizeof err), 0);
    sb_config cfg;
    sb_config_init(&cfg, w, false);
    assert_int_equal(sb_config_set(&cfg, "count", "2048", err, sizeof err), 0);
    assert_int_equal(rf.n_results, 3);
    for (size_t m = 0; m < 3; m++) {
        const sb_result *r = &rf.results[m];
        char desc[1024];
        sb_config_describe(&cfg, &w->measures[m], desc, sizeof desc);
        assert_string_equal(r->description, desc);
        assert_string_equal(r->test, w->name);
        assert_string_equal(r->title, w->title);
        assert_string_equal(r->unit, w->measures[m].unit);
        assert_int_equal(r->direction, w->measures[m].direction);
        assert_int_equal(r->options.n, w->n_options);
        for (size_t i = 0; i < w->n_options; i++)
            assert_string_equal(sb_kvlist_get(&r->options, w->options[i].key), cfg.values[i]);
    }
    sb_resultfile_free(&rf);
}

static void test_example_skipped_verbose(void **state)
{
    (void)state;
    size_t len;
    char *text = slurp(SEED004, &len), err[256] = "", *log = NULL;
    size_t loglen = 0;
    FILE *f = open_memstream(&log, &loglen);
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    assert_int_equal(sb_import_ddwiki(text, len, &rf, f, err, sizeof err), 0);
    fclose(f);
    assert_non_null(strstr(log, "line 4: 'Direct Write Test, simple benchmark with dd': 3 dd lines "
                                "without a 'Direct write:'"));
    assert_non_null(strstr(log, "skipped"));
    assert_non_null(strstr(log, "line 44: 'IBM P520"));
    assert_non_null(strstr(log, "line 125: 'Raspberry Pi CM4"));
    /* Silent without a log. */
    free(log);
    sb_resultfile_free(&rf);
    free(text);
}

static void test_detect(void **state)
{
    (void)state;
    size_t len;
    char *text = slurp(SEED004, &len);
    assert_true(sb_ddwiki_detect(text, len));
    free(text);
    text = slurp("tests/data/seeds/000_a97674fdc4297efd.txt", &len);
    assert_false(sb_ddwiki_detect(text, len));
    free(text);
    text = slurp("tests/data/seeds/001_5b3cf86a040befc6.txt", &len);
    assert_false(sb_ddwiki_detect(text, len));
    free(text);
    assert_false(sb_ddwiki_detect("", 0));
}

/* The seed with line 'line' replaced (1-based); "" deletes nothing but empties it. */
static char *seed_with_line(size_t line, const char *replacement)
{
    size_t len;
    char *text = slurp(SEED004, &len);
    char *out = malloc(len + strlen(replacement) + 2), *o = out;
    size_t l = 1;
    for (const char *p = text; *p; p++) {
        if (l == line) {
            const char *nl = strchr(p, '\n');
            o += sprintf(o, "%s", replacement);
            p = nl ? nl : p + strlen(p) - 1;
            if (!nl)
                break;
        }
        *o++ = *p;
        if (*p == '\n')
            l++;
    }
    *o = '\0';
    free(text);
    return out;
}

static void refused(const char *text, const char *want)
{
    sb_resultfile rf;
    char err[256] = "";
    int rc = import_string(text, &rf, NULL, err, sizeof err);
    sb_resultfile_free(&rf);
    if (rc != -EINVAL)
        fail_msg("not refused (%d), want '%s'", rc, want);
    if (!strstr(err, want))
        fail_msg("refusal '%s' does not say '%s'", err, want);
    assert_null(strchr(err, '\n'));
}

static void refused_seed(size_t line, const char *replacement, const char *want)
{
    char *t = seed_with_line(line, replacement);
    refused(t, want);
    free(t);
}

static void test_damaged_blocks(void **state)
{
    (void)state;
    /* The rate does not follow from bytes and seconds (3.0 -> 3.5 GB/s). */
    refused_seed(47, "Read cache:   1073741824 bytes (1.1 GB) copied, 0.354082 s, 3.5 GB/s",
                 "line 47: Read cache: 1073741824 bytes in 0.354082 s are 3032.5 MB/s, not the printed 3.5 GB/s");
    /* One digit of the seconds wrong. */
    refused_seed(54, "Direct read:  2147483648 bytes (2,1 GB, 2,0 GiB) copied, 4,1174 s, 455 MB/s",
                 "line 54: Direct read:");
    /* The size in parentheses is not the byte count. */
    refused_seed(73, "Direct write: 1073741824 bytes (2.1 GB) copied, 100.578 s, 10.7 MB/s</code>",
                 "line 73: Direct write: 1073741824 bytes are not 2.1 GB");
    /* Cut short. */
    refused_seed(100, "Direct read:  1073741824 bytes (1.1 GB) copied, 3.0644 s, 35",
                 "line 100: Direct read: not a dd summary");
    refused_seed(100, "Direct read:  1073741824 bytes (1.1 GB) cop", "line 100: Direct read: not a dd summary");
    /* A line missing: the block's heading is named. */
    refused_seed(110, "", "line 108: the block of 'Proliant DL320e G8 hardware raid");
    refused_seed(110, "", "has no 'Direct read:' line");
    /* A line twice. */
    refused_seed(110, "Direct write: 1073741824 bytes (1.1 GB) copied, 3.20435 s, 335 MB/s",
                 "line 110: a second 'Direct write:' line in the block of 'Proliant");
    /* Something in <code> that dd does not print. */
    refused_seed(127, "Direct read: see below", "line 127: Direct read: not a dd summary");
    refused_seed(128, "Read cache was not measured", "line 125: the block of 'Raspberry Pi CM4");
    refused_seed(126, "<code>Direct write: 1073741824 bytes (1.1 GB, 1.0 GiB) copied, 3.17625 s, 338 MB/s\n42",
                 "line 127: in the block of 'Raspberry Pi CM4 8GB mem / KINGSTON SNVS1000G (1TB)': '42' is no dd output");
    /* An unlabelled dd line inside a machine block. */
    refused_seed(80, "Read cache:   1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1.49443 s, 718 MB/s\n"
                 "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1.49443 s, 718 MB/s</code>",
                 "line 81: in the block of 'Raspberry Pi 4 Model B 4GB. Transcend");
    /* Two blocks, one machine. */
    refused_seed(88, "====Raspberry Pi 4 Model B 4GB. SanDisk Ultra 32GB USB 3 thumb drive====",
                 "line 88: a second block of 'Raspberry Pi 4 Model B 4GB. SanDisk");
    /* Not a whole number of 2048k blocks. */
    refused("==== x ====\n<code>\n"
            "Direct write: 1000000000 bytes (1.0 GB, 954 MiB) copied, 2 s, 500 MB/s\n"
            "Direct read:  1000000000 bytes (1.0 GB, 954 MiB) copied, 2 s, 500 MB/s\n"
            "Read cache:   1000000000 bytes (1.0 GB, 954 MiB) copied, 1 s, 1.0 GB/s\n</code>\n",
            "line 3: Direct write: 1000000000 bytes are not a whole number of the wiki's 2048k blocks");
    /* Zero seconds, an empty heading, lines before any heading, no machine at all. */
    refused("==== x ====\nDirect write: 2097152 bytes (2.1 MB, 2.0 MiB) copied, 0 s, Infinity B/s\n",
            "line 2: Direct write: not a dd summary");
    refused("==== x ====\nDirect write: 2097152 bytes (2.1 MB, 2.0 MiB) copied, 0.0 s, 1 GB/s\n",
            "line 2: Direct write: 2097152 bytes in 0 s is no rate");
    refused("====  ====\nDirect write: 2097152 bytes (2.1 MB, 2.0 MiB) copied, 0.01 s, 210 MB/s\n",
            "line 1: a block with an empty heading");
    refused("Direct write: 2097152 bytes (2.1 MB, 2.0 MiB) copied, 0.01 s, 210 MB/s\n",
            "line 1: a 'Direct write:' line before any '==== heading ===='");
    refused("==== x ====\nnothing\n", "not a dd wiki page: no '==== heading ====' followed by");
    refused("==== x ====\n\xff\n", "line 2: byte 0xff is not UTF-8");
    refused("==== x ====\nDirect write: 99999999999999999999999 bytes", "line 2: Direct write: the byte count is out of range");
}

/* Variants the seed does not have: a <code> with a language, headings of other levels,
 * kB/s and TB/s, seconds in %g's exponent form, upper-case labels. */
static void test_variants(void **state)
{
    (void)state;
    static const char *page =
        "=== A ===\n"
        "<code bash>\n"
        "$ dd if=/dev/zero of=tstfile bs=2048k count=1 oflag=direct\n"
        "1+0 records in\n1+0 records out\n"
        "DIRECT WRITE : 2097152 bytes (2.1 MB, 2.0 MiB) copied, 1e-05 s, 210 GB/s\n"
        "Direct read: 2097152 bytes (2.1 MB) copied, 20.9715 s, 100 kB/s\n"
        "Read cache: 2097152 bytes (2.1 MB, 2.0 MiB) copied, 2.09715e-06 s, 1.0 TB/s\n"
        "real\t0m0.003s\n"
        "</code>\n";
    sb_resultfile rf;
    char err[256] = "";
    if (import_string(page, &rf, NULL, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(rf.n_systems, 1);
    assert_string_equal(rf.systems[0].identifier, "A");
    assert_true(fabs(figure(&rf, "A", 0, NULL)->mean - 209715.2) < 1e-6);
    assert_true(fabs(figure(&rf, "A", 1, NULL)->mean - 0.1) < 1e-6);
    assert_true(fabs(figure(&rf, "A", 2, NULL)->mean - 1e6) < 1);
    assert_string_equal(rf.title, "dd");
    sb_resultfile_free(&rf);
}

/* What `storbench dd --wiki` prints reads back to the same figures, whatever the seconds
 * (the printed seconds have six digits, the rate two or three: both roundings allowed). */
static void test_wiki_block_round_trip(void **state)
{
    (void)state;
    sb_rand r;
    sb_rand_seed(&r, 17);
    for (int round = 0; round < 2000; round++) {
        uint64_t bytes[3];
        double seconds[3];
        uint64_t count = 1 + sb_rand_next(&r) % 4096;
        for (int m = 0; m < 3; m++) {
            bytes[m] = count * 2097152;
            /* 10 µs .. 1000 s, spread over the decades */
            seconds[m] = pow(10, -5 + 8 * ((double)(sb_rand_next(&r) >> 11) / 9007199254740992.0));
        }
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        sb_ddwiki_block(f, "Test machine, ext4 / NVMe", bytes, seconds);
        fclose(f);
        if (round == 0) {
            assert_non_null(strstr(text, "==== Test machine, ext4 / NVMe ====\n<code>Direct write: "));
            assert_non_null(strstr(text, "\nDirect read:  "));
            assert_non_null(strstr(text, "\nRead cache:   "));
            assert_non_null(strstr(text, " s, "));
            assert_int_equal(strcmp(text + len - 8, "</code>\n"), 0);
        }
        sb_resultfile rf;
        char err[256] = "";
        if (import_string(text, &rf, NULL, err, sizeof err))
            fail_msg("round %d: %s\n%s", round, err, text);
        for (int m = 0; m < 3; m++) {
            const sb_entry *e = figure(&rf, "Test machine, ext4 / NVMe", m, NULL);
            double want = (double)bytes[m] / seconds[m] / 1e6;
            /* the seconds are printed to six significant digits */
            if (fabs(e->mean - want) > 6e-6 * want)
                fail_msg("round %d: %.6f MB/s read back, %.6f written", round, e->mean, want);
        }
        sb_resultfile_free(&rf);
        free(text);
    }
}

static void test_heading_problems(void **state)
{
    (void)state;
    assert_null(sb_ddwiki_heading_problem("Raspberry Pi 4 / SSD, ext4"));
    assert_non_null(sb_ddwiki_heading_problem(""));
    assert_non_null(sb_ddwiki_heading_problem("a\nb"));
    assert_non_null(sb_ddwiki_heading_problem(" a"));
    assert_non_null(sb_ddwiki_heading_problem("a="));
    assert_non_null(sb_ddwiki_heading_problem("=a"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed004_all_blocks),
        cmocka_unit_test(test_option_lines_are_the_workloads),
        cmocka_unit_test(test_example_skipped_verbose),
        cmocka_unit_test(test_detect),
        cmocka_unit_test(test_damaged_blocks),
        cmocka_unit_test(test_variants),
        cmocka_unit_test(test_wiki_block_round_trip),
        cmocka_unit_test(test_heading_problems),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
