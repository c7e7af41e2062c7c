/*
 * test_sweep — the matrix of `storbench sweep` (runner/sweep.c): comma lists and ranges
 * (doubling, stepping) normalised to the values the fio test records, the refusals (an
 * empty list or item, a range that does not end, a word range, a duplicate, a value of the
 * wrong kind, a fixed parameter listed), the cells' order, labels and configurations, the
 * cells skipped for their combination, a fio job file as the base, and which cells a result
 * file holds already (resuming).
 */
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

#include "runner/sweep.h"

static char err[1024];

static void assert_values(const sb_sweep *s, int p, const char *joined)
{
    char buf[1024] = "";
    for (size_t i = 0; i < s->axis[p].n; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? "," : "", s->axis[p].values[i]);
    assert_string_equal(buf, joined);
}

static void test_lists_and_ranges(void **state)
{
    (void)state;
    sb_sweep s;
    sb_sweep_init(&s, false);
    assert_int_equal(sb_sweep_set(&s, SB_SWEEP_IODEPTH, "1,2,4..256", err, sizeof err), 0);
    assert_values(&s, SB_SWEEP_IODEPTH, "1,2,4,8,16,32,64,128,256");
    assert_int_equal(sb_sweep_set(&s, SB_SWEEP_BS, "4096,8k..32K,1m", err, sizeof err), 0);
    assert_values(&s, SB_SWEEP_BS, "4k,8k,16k,32k,1m");
    assert_int_equal(sb_sweep_set(&s, SB_SWEEP_RWMIXREAD, "10..90:20", err, sizeof err), 0);
    assert_values(&s, SB_SWEEP_RWMIXREAD, "10,30,50,70,90");
    assert_int_equal(sb_sweep_set(&s, SB_SWEEP_NUMJOBS, "3..20", err, sizeof err), 0);
    assert_values(&s, SB_SWEEP_NUMJOBS, "3,6,12"); /* doubling stops at the end, not past it */
    assert_int_equal(sb_sweep_set(&s, SB_SWEEP_DIRECT, "0,1", err, sizeof err), 0);
    assert_values(&s, SB_SWEEP_DIRECT, "no,yes");
    assert_int_equal(sb_sweep_set(&s, SB_SWEEP_RW, "read,readwrite", err, sizeof err), 0);
    assert_values(&s, SB_SWEEP_RW, "read,rw");
    assert_int_equal(sb_sweep_cells(&s), 9 * 5 * 5 * 3 * 2 * 2);
    /* setting a parameter again replaces its values */
    assert_int_equal(sb_sweep_set(&s, SB_SWEEP_IODEPTH, "8", err, sizeof err), 0);
    assert_values(&s, SB_SWEEP_IODEPTH, "8");
    sb_sweep_free(&s);
}

static void refused(int p, const char *spec, const char *words)
{
    sb_sweep s;
    sb_sweep_init(&s, false);
    err[0] = '\0';
    assert_int_equal(sb_sweep_set(&s, p, spec, err, sizeof err), -EINVAL);
    if (!strstr(err, words))
        fail_msg("'%s': '%s' lacks '%s'", spec, err, words);
    assert_int_equal(s.axis[p].n, 0); /* nothing kept of a refused list */
    sb_sweep_free(&s);
}

static void test_refusals(void **state)
{
    (void)state;
    refused(SB_SWEEP_IODEPTH, "", "iodepth: an empty list");
    refused(SB_SWEEP_IODEPTH, "1,,2", "an empty item");
    refused(SB_SWEEP_IODEPTH, "1,2,", "an empty item");
    refused(SB_SWEEP_IODEPTH, "4..", "does not end");
    refused(SB_SWEEP_IODEPTH, "8..2", "does not end");
    refused(SB_SWEEP_RWMIXREAD, "0..16", "does not end"); /* 0 never doubles */
    refused(SB_SWEEP_RWMIXREAD, "10..90:0", "does not end");
    refused(SB_SWEEP_RW, "read..write", "a range is for numbers and sizes");
    refused(SB_SWEEP_IODEPTH, "1,4,1", "1 is listed twice");
    refused(SB_SWEEP_BS, "4k,4096", "4k is listed twice");
    refused(SB_SWEEP_IODEPTH, "x", "iodepth: 'x' is not a whole number from 1 to 65536");
    refused(SB_SWEEP_IODEPTH, "0", "not a whole number");
    refused(SB_SWEEP_BS, "huge", "not a size");
    refused(SB_SWEEP_DIRECT, "maybe", "not 0 or 1");
    refused(SB_SWEEP_SIZE, "1m,2m", "size takes one value");
    refused(SB_SWEEP_BS, "1..2000:1", "more than 1024 values");
    assert_int_equal(sb_sweep_param_find("qd"), -1);
    assert_int_equal(sb_sweep_param_find("ramp_time"), SB_SWEEP_RAMP);
}

static void test_cells(void **state)
{
    (void)state;
    sb_sweep s;
    sb_sweep_init(&s, true);
    assert_int_equal(sb_sweep_set(&s, SB_SWEEP_IODEPTH, "1,4", err, sizeof err), 0);
    assert_int_equal(sb_sweep_set(&s, SB_SWEEP_NUMJOBS, "1,2", err, sizeof err), 0);
    assert_int_equal(sb_sweep_set(&s, SB_SWEEP_SIZE, "1m", err, sizeof err), 0);
    assert_int_equal(sb_sweep_set(&s, SB_SWEEP_DIRECT, "0", err, sizeof err), 0);
    assert_int_equal(sb_sweep_cells(&s), 4);
    assert_int_equal(sb_sweep_check_values(&s, err, sizeof err), 0);
    static const char *const labels[] = {"iodepth=1 numjobs=1", "iodepth=1 numjobs=2", "iodepth=4 numjobs=1",
                                         "iodepth=4 numjobs=2"};
    sb_config *cfg = malloc(sizeof *cfg);
    char label[256];
    for (size_t i = 0; i < 4; i++) {
        sb_sweep_cell_label(&s, i, label, sizeof label);
        assert_string_equal(label, labels[i]);
        assert_int_equal(sb_sweep_cell(&s, i, cfg, err, sizeof err), SB_SWEEP_CELL_OK);
        assert_string_equal(cfg->workload->name, "fio");
        assert_true(cfg->quick);
        assert_string_equal(sb_config_get(cfg, "iodepth"), i < 2 ? "1" : "4");
        assert_string_equal(sb_config_get(cfg, "numjobs"), i % 2 ? "2" : "1");
        assert_string_equal(sb_config_get(cfg, "size"), "1m");
        assert_string_equal(sb_config_get(cfg, "direct"), "no");
        assert_string_equal(sb_config_get(cfg, "buffered"), "yes"); /* direct's opposite */
        assert_true(sb_config_is_resolved(cfg));
    }
    free(cfg);
    sb_sweep_free(&s);
}

static void test_skips_and_checks(void **state)
{
    (void)state;
    sb_sweep s;
    sb_sweep_init(&s, false);
    assert_int_equal(sb_sweep_set(&s, SB_SWEEP_RW, "read,randrw", err, sizeof err), 0);
    assert_int_equal(sb_sweep_set(&s, SB_SWEEP_RWMIXREAD, "30", err, sizeof err), 0);
    assert_int_equal(sb_sweep_check_values(&s, err, sizeof err), 0);
    sb_config *cfg = malloc(sizeof *cfg);
    assert_int_equal(sb_sweep_cell(&s, 0, cfg, err, sizeof err), SB_SWEEP_CELL_SKIP);
    assert_string_equal(err, "rwmixread applies to a mixed rw (rw or randrw), not rw=read");
    assert_int_equal(sb_sweep_cell(&s, 1, cfg, err, sizeof err), SB_SWEEP_CELL_OK);
    assert_string_equal(sb_config_get(cfg, "rwmixread"), "30");
    char label[256];
    sb_sweep_cell_label(&s, 1, label, sizeof label);
    assert_string_equal(label, "rw=randrw");
    /* a value no cell could run is refused before any cell: the engine, the Type */
    assert_int_equal(sb_sweep_set(&s, SB_SWEEP_IOENGINE, "psync,nope", err, sizeof err), 0);
    assert_int_equal(sb_sweep_check_values(&s, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "ioengine=nope"));
    assert_int_equal(sb_sweep_set(&s, SB_SWEEP_IOENGINE, "psync", err, sizeof err), 0);
    assert_int_equal(sb_sweep_set(&s, SB_SWEEP_RW, "trimwrite", err, sizeof err), 0);
    assert_int_equal(sb_sweep_check_values(&s, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "rw=trimwrite"));
    free(cfg);
    sb_sweep_free(&s);
    sb_sweep_init(&s, false);
    sb_sweep_cell_label(&s, 0, label, sizeof label);
    assert_string_equal(label, "defaults");
    sb_sweep_free(&s);
}

static void test_saved(void **state)
{
    (void)state;
    sb_sweep s;
    sb_sweep_init(&s, false);
    assert_int_equal(sb_sweep_set(&s, SB_SWEEP_IODEPTH, "1,4", err, sizeof err), 0);
    sb_config *cfg = malloc(sizeof *cfg);
    assert_int_equal(sb_sweep_cell(&s, 0, cfg, err, sizeof err), SB_SWEEP_CELL_OK);
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    sb_kvlist opts = {0};
    for (size_t i = 0; i < cfg->workload->n_options; i++)
        sb_kvlist_add(&opts, cfg->workload->options[i].key, cfg->values[i]);
    sb_result *r = sb_resultfile_add_result(&rf, "fio", "Flexible IO Tester", "", "d", "MB/s",
                                            SB_HIGHER_IS_BETTER, &opts);
    sb_result_add_entry(r, "ssd");
    assert_true(sb_sweep_saved(&rf, cfg, "ssd"));
    assert_false(sb_sweep_saved(&rf, cfg, "hdd")); /* another identifier's figure */
    assert_int_equal(sb_sweep_cell(&s, 1, cfg, err, sizeof err), SB_SWEEP_CELL_OK);
    assert_false(sb_sweep_saved(&rf, cfg, "ssd")); /* iodepth 4 is not saved */
    sb_kvlist_free(&opts);
    sb_resultfile_free(&rf);
    free(cfg);
    sb_sweep_free(&s);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_jobfile(void **state)
{
    (void)state;
    char path[] = "/tmp/sbsweep.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    sb_sweep s;
    sb_sweep_init(&s, false);
    write_file(path, "[global]\nbs=8k\nioengine=psync\ntime_based\n[cell]\nrw=randread\niodepth=8\nbuffered=1\n");
    assert_int_equal(sb_sweep_set(&s, SB_SWEEP_IODEPTH, "1,2", err, sizeof err), 0);
    assert_int_equal(sb_sweep_jobfile(&s, path, err, sizeof err), 0);
    assert_values(&s, SB_SWEEP_BS, "8k");
    assert_values(&s, SB_SWEEP_RW, "randread");
    assert_values(&s, SB_SWEEP_IOENGINE, "psync");
    assert_values(&s, SB_SWEEP_DIRECT, "no");
    assert_values(&s, SB_SWEEP_IODEPTH, "1,2"); /* the command line wins */
    sb_sweep_free(&s);

    sb_sweep_init(&s, false);
    write_file(path, "[a]\nrw=read\nrandom_distribution=zipf:1.2\n");
    assert_int_equal(sb_sweep_jobfile(&s, path, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "'random_distribution' cannot be set in a sweep's cells"));
    write_file(path, "[a]\nrw=read\n[b]\nrw=write\n");
    assert_int_equal(sb_sweep_jobfile(&s, path, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "has 2 jobs"));
    write_file(path, "[a]\nnosuchoption=1\n");
    assert_true(sb_sweep_jobfile(&s, path, err, sizeof err) < 0);
    assert_non_null(strstr(err, "nosuchoption"));
    sb_sweep_free(&s);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lists_and_ranges), cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_cells),            cmocka_unit_test(test_skips_and_checks),
        cmocka_unit_test(test_saved),            cmocka_unit_test(test_jobfile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
