/* Unit tests for the result model and file: JSON round trip, atomic save,
 * refusal of bad files, merge with and without replace, config describe. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/workdir.h"
#include "results/result.h"

static char dir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/sbunit-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return sb_remove_tree(dir);
}

static void build(sb_resultfile *rf, const char *id, double base)
{
    sb_system *s = sb_resultfile_add_system(rf, id);
    sb_kvlist_add(&s->hardware, "Processor", "Test CPU @ 1.00GHz (2 Cores)");
    sb_kvlist_add(&s->software, "OS", "Debian GNU/Linux 12 (bookworm)");
    sb_kvlist_add(&s->storage, "Mount Options", "rw,relatime");
    sb_result *r = sb_resultfile_get_result(rf, "fio", "Flexible IO Tester", "1.0",
                                            "Type: Random Write", "MB/s", SB_HIGHER_IS_BETTER);
    sb_kvlist_add(&r->options, "rw", "randwrite");
    sb_entry *e = sb_result_add_entry(r, id);
    double v[3] = {base, base + 1.5, base + 3};
    sb_entry_set_values(e, v, 3);
    sb_entry_add_secondary(e, "lat_p99", "us", 123.25);
    r = sb_resultfile_get_result(rf, "postmark", "PostMark", "1.51", "Disk Transaction Performance",
                                 "TPS", SB_HIGHER_IS_BETTER);
    double w[2] = {6148, 6150};
    sb_entry_set_values(sb_result_add_entry(r, id), w, 2);
}

static void test_round_trip(void **state)
{
    (void)state;
    sb_resultfile rf, back;
    sb_resultfile_init(&rf);
    sb_resultfile_set_title(&rf, "Btrfs RAID", "a \"quoted\" description");
    build(&rf, "Single Disk", 77.35);
    char path[300], err[256];
    snprintf(path, sizeof path, "%s/sub/dir/r.json", dir);
    assert_int_equal(sb_resultfile_save(path, &rf, err, sizeof err), 0);
    sb_resultfile_init(&back);
    assert_int_equal(sb_resultfile_load(path, &back, err, sizeof err), 0);
    assert_string_equal(back.title, "Btrfs RAID");
    assert_string_equal(back.description, "a \"quoted\" description");
    assert_int_equal(back.n_systems, 1);
    assert_string_equal(sb_kvlist_get(&back.systems[0].hardware, "Processor"), "Test CPU @ 1.00GHz (2 Cores)");
    assert_string_equal(sb_kvlist_get(&back.systems[0].storage, "Mount Options"), "rw,relatime");
    assert_int_equal(back.n_results, 2);
    sb_result *r = &back.results[0];
    assert_string_equal(r->test, "fio");
    assert_string_equal(r->description, "Type: Random Write");
    assert_string_equal(sb_kvlist_get(&r->options, "rw"), "randwrite");
    assert_int_equal(r->direction, SB_HIGHER_IS_BETTER);
    sb_entry *e = sb_result_find_entry(r, "Single Disk");
    assert_non_null(e);
    assert_int_equal(e->n_values, 3);
    assert_true(fabs(e->mean - 78.85) < 1e-9);
    assert_true(fabs(e->sd - 1.5) < 1e-9);
    assert_true(fabs(e->se - 1.5 / sqrt(3)) < 1e-9);
    assert_int_equal(e->decimals, 2);
    assert_int_equal(e->n_secondary, 1);
    assert_string_equal(e->secondary[0].name, "lat_p99");
    assert_true(e->secondary[0].value == 123.25);
    /* Integer runs print as integers, like PostMark's TPS. */
    assert_int_equal(back.results[1].entries[0].decimals, 0);
    sb_resultfile_free(&back);
    sb_resultfile_free(&rf);
    /* No temporary file is left beside the result. */
    char sub[300];
    snprintf(sub, sizeof sub, "%s/sub/dir", dir);
    DIR *d = opendir(sub);
    struct dirent *de;
    int files = 0;
    while ((de = readdir(d)))
        if (de->d_name[0] != '.')
            files++;
    closedir(d);
    assert_int_equal(files, 1);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static void test_bad_files(void **state)
{
    (void)state;
    sb_resultfile rf;
    char path[300], err[256];
    sb_resultfile_init(&rf);
    snprintf(path, sizeof path, "%s/missing.json", dir);
    assert_int_equal(sb_resultfile_load(path, &rf, err, sizeof err), -ENOENT);
    snprintf(path, sizeof path, "%s/notjson.json", dir);
    write_file(path, "Single Disk ..... 67.63 |=====\n");
    assert_int_equal(sb_resultfile_load(path, &rf, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "not a storbench result file"));
    snprintf(path, sizeof path, "%s/other.json", dir);
    write_file(path, "{\"hello\": 1}");
    assert_int_equal(sb_resultfile_load(path, &rf, err, sizeof err), -EINVAL);
    snprintf(path, sizeof path, "%s/future.json", dir);
    write_file(path, "{\"format\": \"storbench-result\", \"schema_version\": 99, \"systems\": [], \"results\": []}");
    assert_int_equal(sb_resultfile_load(path, &rf, err, sizeof err), -EPROTO);
    assert_non_null(strstr(err, "99"));
    sb_resultfile_free(&rf);
}

static void test_merge(void **state)
{
    (void)state;
    sb_resultfile a, b;
    char err[256];
    sb_resultfile_init(&a);
    sb_resultfile_init(&b);
    build(&a, "Single Disk", 77.35);
    build(&b, "RAID0", 76.97);
    assert_int_equal(sb_resultfile_merge(&a, &b, false, err, sizeof err), 0);
    assert_int_equal(a.n_systems, 2);
    assert_int_equal(a.n_results, 2);
    assert_int_equal(a.results[0].n_entries, 2);
    /* The same identifier again is refused, and nothing changes. */
    assert_int_equal(sb_resultfile_merge(&a, &b, false, err, sizeof err), -EEXIST);
    assert_non_null(strstr(err, "RAID0"));
    assert_int_equal(a.n_systems, 2);
    /* ... unless replace, which keeps the identifier's place. */
    sb_resultfile c;
    sb_resultfile_init(&c);
    build(&c, "Single Disk", 50);
    assert_int_equal(sb_resultfile_merge(&a, &c, true, err, sizeof err), 0);
    assert_string_equal(a.systems[0].identifier, "Single Disk");
    assert_string_equal(a.results[0].entries[1].identifier, "Single Disk");
    assert_true(a.results[0].entries[1].mean == 51.5);
    sb_resultfile_free(&c);
    assert_int_equal(sb_resultfile_merge(&a, &b, true, err, sizeof err), 0);
    assert_int_equal(a.n_systems, 2);
    assert_int_equal(a.results[0].n_entries, 2);
    sb_resultfile_remove_identifier(&a, "Single Disk");
    assert_int_equal(a.n_systems, 1);
    assert_int_equal(a.results[0].n_entries, 1);
    assert_string_equal(a.results[0].entries[0].identifier, "RAID0");
    sb_resultfile_remove_identifier(&a, "RAID0");
    assert_int_equal(a.n_results, 0);
    sb_resultfile_free(&a);
    sb_resultfile_free(&b);
}

static void test_result_path(void **state)
{
    (void)state;
    char p[512];
    setenv("XDG_DATA_HOME", "/x/data", 1);
    assert_int_equal(sb_result_path("cmp", NULL, p, sizeof p), 0);
    assert_string_equal(p, "/x/data/storbench/results/cmp.json");
    assert_int_equal(sb_result_path("cmp", "/r", p, sizeof p), 0);
    assert_string_equal(p, "/r/cmp.json");
    assert_int_equal(sb_result_path("./here.json", NULL, p, sizeof p), 0);
    assert_string_equal(p, "./here.json");
    unsetenv("XDG_DATA_HOME");
    setenv("HOME", "/home/u", 1);
    assert_int_equal(sb_result_path("cmp.json", NULL, p, sizeof p), 0);
    assert_string_equal(p, "/home/u/.local/share/storbench/results/cmp.json");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_result_path),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
