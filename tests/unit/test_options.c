/* Unit tests for io/options, the table of I/O job options: lookup by name and alias, each
 * value type (with fio's kb_base size rules), bounds and their one-line errors (naming the
 * option as the caller spelled it, never a command-line spelling), the table's own
 * consistency (fields inside the job, sizes that fit the type, no name twice, shown
 * defaults equal to sb_io_job_init's), the checks between options in sb_io_job_check,
 * the generated usage, and the fio workload parsing through the same entries. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "io/engine.h"
#include "io/job.h"
#include "io/options/options.h"
#include "workloads/workload.h"
#include "workloads/catalogue.h"

static sb_io_job job;
static char err[1024];

static int set(const char *name, const char *value)
{
    err[0] = '\0';
    return sb_io_opt_set(&job, name, NULL, value, NULL, err, sizeof err);
}

static void test_find(void **state)
{
    const sb_opt *rw = sb_opt_find(sb_io_options, sb_io_n_options, "rw");
    assert_non_null(rw);
    assert_ptr_equal(sb_opt_find(sb_io_options, sb_io_n_options, "readwrite"), rw);
    assert_string_equal(sb_opt_find(sb_io_options, sb_io_n_options, "seed")->name, "randseed");
    assert_string_equal(sb_opt_find(sb_io_options, sb_io_n_options, "iodepth_batch_complete")->name,
                        "iodepth_batch_complete_min");
    assert_null(sb_opt_find(sb_io_options, sb_io_n_options, "nosuch"));
    assert_null(sb_opt_find(sb_io_options, sb_io_n_options, "--rw"));
    assert_int_equal(sb_io_opt_set(&job, "nosuch", NULL, "1", NULL, err, sizeof err), -ENOENT);
}

static void test_int_and_bounds(void **state)
{
    sb_io_job_init(&job);
    assert_int_equal(set("iodepth", "32"), 0);
    assert_int_equal(job.iodepth, 32);
    assert_int_equal(set("iodepth", "0"), -EINVAL);
    assert_string_equal(err, "iodepth: '0' is not in 1 .. 65536");
    assert_int_equal(set("iodepth", "4096"), 0); /* fio has no bound at 1024 */
    assert_int_equal(set("iodepth", "65537"), -EINVAL);
    assert_int_equal(set("iodepth", "32"), 0);
    assert_int_equal(set("iodepth", "8x"), -EINVAL);
    assert_int_equal(job.iodepth, 32); /* a refused value changes nothing */
    assert_int_equal(set("numjobs", "4096"), 0); /* fio's most threads */
    assert_int_equal(set("numjobs", "4097"), -EINVAL);
    assert_int_equal(set("randseed", "18446744073709551615"), 0); /* a uint64_t field */
    assert_true(job.seed == UINT64_MAX);
    assert_int_equal(set("randseed", "-1"), -EINVAL);
    assert_string_equal(err, "randseed: '-1' is not a number");
    assert_int_equal(set("rwmixread", "101"), -EINVAL);
    /* an alias sets the same field; the error names what the caller says it was given */
    assert_int_equal(sb_io_opt_set(&job, "iodepth", "IO Depth", "0", NULL, err, sizeof err), -EINVAL);
    assert_string_equal(err, "IO Depth: '0' is not in 1 .. 65536");
}

static void test_sizes(void **state)
{
    sb_io_job_init(&job);
    assert_int_equal(set("bs", "16k"), 0);
    assert_int_equal(job.bs, 16384);
    assert_int_equal(set("size", "16MiB"), 0); /* storbench's sizes: every suffix IEC */
    assert_int_equal(job.size, 16ull << 20);
    assert_int_equal(set("size", "4 k"), -EINVAL);
    assert_string_equal(err, "size: '4 k' is not a size");
    uint64_t v;
    /* fio's kb_base=1024 (its default): k, KB are 1024, KiB/MiB are powers of 1000 */
    assert_int_equal(sb_opt_parse_size("16m", 1024, &v), 0);
    assert_true(v == 16ull << 20);
    assert_int_equal(sb_opt_parse_size("16MB", 1024, &v), 0);
    assert_true(v == 16ull << 20);
    assert_int_equal(sb_opt_parse_size("16MiB", 1024, &v), 0);
    assert_true(v == 16000000);
    assert_int_equal(sb_opt_parse_size("4kib", 1024, &v), 0);
    assert_true(v == 4000);
    /* kb_base=1000: the reverse */
    assert_int_equal(sb_opt_parse_size("16k", 1000, &v), 0);
    assert_true(v == 16000);
    assert_int_equal(sb_opt_parse_size("16KiB", 1000, &v), 0);
    assert_true(v == 16384);
    assert_int_equal(sb_opt_parse_size("512", 1024, &v), 0);
    assert_true(v == 512);
    assert_int_equal(sb_opt_parse_size("512b", 1024, &v), 0);
    assert_true(v == 512);
    assert_int_equal(sb_opt_parse_size("1x", 1024, &v), -EINVAL);
    assert_int_equal(sb_opt_parse_size("1kx", 1024, &v), -EINVAL);
    assert_int_equal(sb_opt_parse_size("k", 1024, &v), -EINVAL);
    assert_int_equal(sb_opt_parse_size("99999999p", 1024, &v), -ERANGE);
    /* the context reaches the entry's parser */
    sb_opt_ctx fio = {1024};
    assert_int_equal(sb_io_opt_set(&job, "size", NULL, "16MiB", &fio, err, sizeof err), 0);
    assert_int_equal(job.size, 16000000);
}

static void test_durations(void **state)
{
    sb_io_job_init(&job);
    assert_int_equal(set("runtime", "500ms"), 0);
    assert_true(job.runtime_s == 0.5);
    assert_int_equal(set("ramp_time", "2m"), 0);
    assert_true(job.ramp_s == 120);
    assert_int_equal(set("runtime", "soon"), -EINVAL);
    assert_non_null(strstr(err, "runtime: 'soon' is not a duration"));
    /* bounds: the time series' interval is 10 ms .. 1 day, 0 is not "the default" */
    assert_int_equal(set("log_interval", "10ms"), 0);
    assert_true(job.log_interval_s > 0.0099 && job.log_interval_s < 0.0101);
    assert_int_equal(set("log_interval", "0"), -EINVAL);
    assert_non_null(strstr(err, "log_interval: '0'"));
    assert_int_equal(set("log_interval", "2d"), -EINVAL);
    assert_int_equal(set("log_avg_msec", "250"), 0);
    assert_true(job.log_interval_s == 0.25);
    assert_int_equal(job.log_avg_ms, 250);
    /* fio's default 0: a log line per I/O; the series keeps its interval */
    assert_int_equal(set("log_avg_msec", "0"), 0);
    assert_int_equal(job.log_avg_ms, 0);
    assert_true(job.log_interval_s == 0.25);
    assert_int_equal(set("log_avg_msec", "86400001"), -EINVAL);
    /* a SNIA round is at least a second */
    assert_int_equal(set("ss_round", "0"), -EINVAL);
    assert_non_null(strstr(err, "ss_round: '0'"));
    assert_int_equal(set("ss_round", "30s"), 0);
    assert_true(job.steady.round_s == 30);
    assert_int_equal(set("steadystate_duration", "10"), 0); /* alias of ss_dur, nested field */
    assert_true(job.steady.dur_s == 10);
}

static void test_bools_choices_strings(void **state)
{
    sb_io_job_init(&job);
    assert_int_equal(set("direct", NULL), 0); /* a switch given bare */
    assert_true(job.direct);
    assert_int_equal(set("direct", "off"), 0);
    assert_false(job.direct);
    assert_int_equal(set("direct", "yes"), 0);
    assert_true(job.direct);
    assert_int_equal(set("direct", "maybe"), -EINVAL);
    assert_string_equal(err, "direct: 'maybe' is not 0 or 1");
    assert_int_equal(set("registerfiles", "0"), 0); /* an int field: -1 (auto), 0, 1 */
    assert_int_equal(job.uring_fixed_files, 0);
    assert_int_equal(set("registerfiles", NULL), 0);
    assert_int_equal(job.uring_fixed_files, 1);
    assert_int_equal(set("rw", "randrw"), 0);
    assert_int_equal(job.rw, SB_RW_RANDRW);
    assert_int_equal(set("readwrite", "readwrite"), 0);
    assert_int_equal(job.rw, SB_RW_RW);
    assert_int_equal(set("rw", "sideways"), -EINVAL);
    assert_non_null(strstr(err, "rw: 'sideways' is not one of read, write, randread"));
    assert_int_equal(set("cpus_allowed_policy", "split"), 0);
    assert_true(job.cpus_split);
    assert_int_equal(set("rw", NULL), -EINVAL);
    assert_string_equal(err, "rw: needs a value");
    assert_int_equal(set("ioengine", "libaio"), 0);
    assert_string_equal(job.engine, "libaio");
    char longname[64];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    assert_int_equal(set("ioengine", longname), -EINVAL);
    assert_non_null(strstr(err, "ioengine: too long"));
    assert_string_equal(job.engine, "libaio");
}

static void test_functions(void **state)
{
    sb_io_job_init(&job);
    assert_int_equal(set("steadystate", "iops_slope:2%"), 0);
    assert_int_equal(job.steady.mode, SB_SS_IOPS_SLOPE);
    assert_true(job.steady.pct && job.steady.limit == 2);
    assert_int_equal(set("ss", "lat:2%"), 0); /* fio's lat criterion (mean latency) */
    assert_true(job.steady.mode == SB_SS_LAT && job.steady.lat && job.steady.pct);
    assert_int_equal(set("ss", "latency:2%"), -EINVAL);
    assert_non_null(strstr(err, "steadystate: unknown criterion 'latency'"));
    assert_int_equal(set("steadystate", "iops"), -EINVAL);
    assert_non_null(strstr(err, "steadystate: iops needs a limit"));
    assert_int_equal(set("verify", "crc32c"), 0);
    assert_int_equal(job.verify, SB_VERIFY_CRC32C);
    assert_int_equal(set("verify", "md5"), 0); /* fio's other algorithms (verify_algos.c) */
    assert_int_equal(job.verify, SB_VERIFY_MD5);
    assert_int_equal(set("verify", "crc99"), -EINVAL);
    assert_non_null(strstr(err, "verify: unknown algorithm 'crc99'"));
    /* fio's per-direction rate, continue_on_error's classes, ignore_error's lists */
    assert_int_equal(set("rate", "1m,2k"), 0);
    assert_true(job.rate == 1048576 && job.rate_write == 2048 && job.rate_trim == 2048); /* the last, as fio's */
    assert_int_equal(set("rate", "1m-2k"), 0); /* fio splits at '-' too */
    assert_true(job.rate == 1048576 && job.rate_write == 2048);
    assert_int_equal(set("percentage_random", "100:0"), 0);
    assert_true(job.pct_random[0] == 100 && job.pct_random[1] == 0 && job.pct_random[2] == 0);
    assert_int_equal(set("bs", "4k-16k"), 0);
    assert_true(job.bs == 4096 && job.bs_max == 0 && job.bs_w == 16384);
    assert_int_equal(set("rate", "300"), 0);
    assert_true(job.rate == 300 && job.rate_write == 300 && job.rate_trim == 300);
    assert_int_equal(set("rate", "1,2,3,4"), -EINVAL);
    assert_int_equal(set("continue_on_error", "io"), 0);
    assert_int_equal(job.continue_on_error, 3);
    assert_int_equal(set("continue_on_error", "some"), -EINVAL);
    assert_int_equal(set("ignore_error", ",ENOSPC:5"), 0);
    assert_true(job.n_ignore_error[0] == 0 && job.n_ignore_error[1] == 2 &&
                job.ignore_error[1][0] == ENOSPC && job.ignore_error[1][1] == 5);
    assert_int_equal(set("ignore_error", "ENOPE"), -EINVAL);
    assert_int_equal(set("verify_pattern", "0xaa55"), 0);
    assert_true(job.verify_pat_len == 2 && job.verify_pat[0] == 0xaa && job.verify_pat[1] == 0x55);
    assert_int_equal(set("cpus_allowed", "0"), 0);
    assert_true(job.cpus_allowed_set && CPU_ISSET(0, &job.cpus_allowed));
    assert_int_equal(set("cpus_allowed", "3-1"), -EINVAL);
    assert_non_null(strstr(err, "cpus_allowed: "));
}

/* No library error carries a command-line spelling: the callers add theirs. */
static void test_errors_name_options_plainly(void **state)
{
    static const char *bad[][2] = {
        {"iodepth", "0"}, {"bs", "x"}, {"runtime", "x"}, {"direct", "x"}, {"rw", "x"},
        {"steadystate", "x"}, {"steadystate", "iops:x"}, {"steadystate", "snia:x"},
        {"verify", "x"}, {"ss_round", "0"}, {"log_avg_msec", "x"}, {"cpus_allowed", "x"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sb_io_job_init(&job);
        assert_int_equal(set(bad[i][0], bad[i][1]), -EINVAL);
        assert_null(strstr(err, "--"));
        assert_int_equal(strncmp(err, sb_opt_find(sb_io_options, sb_io_n_options, bad[i][0])->name,
                                 strlen(sb_opt_find(sb_io_options, sb_io_n_options, bad[i][0])->name)), 0);
        assert_null(strchr(err, '\n'));
    }
    sb_ss_spec s = {.mode = SB_SS_SNIA, .round_s = 0.5};
    assert_int_equal(sb_ss_check(&s, err, sizeof err), -EINVAL);
    assert_null(strstr(err, "--"));
}

/* The table itself: every field inside the job and of the type's size, every name once,
 * and each shown default (unless described) what sb_io_job_init() sets. */
static void test_table(void **state)
{
    static sb_io_job init, parsed;
    sb_io_job_init(&init);
    for (size_t i = 0; i < sb_io_n_options; i++) {
        const sb_opt *o = &sb_io_options[i];
        assert_non_null(o->name);
        assert_non_null(o->help);
        assert_true(o->category < SB_OPTC_N);
        assert_true(o->off + o->size <= sizeof(sb_io_job));
        switch (o->type) {
        case SB_OPT_BOOL: case SB_OPT_CHOICE: assert_true(o->size == 1 || o->size == 4); break;
        case SB_OPT_INT: assert_true(o->size == 4 || o->size == 8); break;
        case SB_OPT_SIZE: case SB_OPT_DURATION: assert_int_equal(o->size, 8); break;
        case SB_OPT_STR: assert_true(o->size > 1); break;
        case SB_OPT_FUNC: assert_non_null(o->parse); break;
        case SB_OPT_RANGE: assert_int_equal(o->size, 16); break;
        case SB_OPT_SPLIT: /* one split, or fio's READS,WRITES into two */
            assert_true(o->size == sizeof(sb_io_bssplit) || o->size == 2 * sizeof(sb_io_bssplit));
            break;
        case SB_OPT_PCT: assert_true(o->size == 4); break;
        case SB_OPT_LIST: assert_true(o->size > 2); break;
        }
        if (o->type == SB_OPT_CHOICE)
            assert_non_null(o->choices);
        /* no name or alias twice: each finds its own entry */
        assert_ptr_equal(sb_opt_find(sb_io_options, sb_io_n_options, o->name), o);
        for (const char *const *a = o->aliases; a && *a; a++)
            assert_ptr_equal(sb_opt_find(sb_io_options, sb_io_n_options, *a), o);
        if (!o->def || (o->flags & SB_OPTF_DEF_DOC))
            continue;
        parsed = init;
        assert_int_equal(sb_opt_parse(o, &parsed, NULL, o->def, NULL, err, sizeof err), 0);
        parsed.size_given = init.size_given; /* it records that a size was given, as here */
        if (memcmp(&parsed, &init, sizeof init)) {
            print_message("%s: the shown default '%s' is not sb_io_job_init's\n", o->name, o->def);
            fail();
        }
    }
}

/* Between options: sb_io_job_check's refusals. */
static void test_job_checks(void **state)
{
    char warn[256];
    sb_io_job_init(&job);
    strcpy(job.directory, ".");
    strcpy(job.engine, "libaio");
    job.iodepth = 4;
    job.batch_complete_min = 4;
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), 0);
    job.batch_complete_min = 5;
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), -EINVAL);
    assert_non_null(strstr(err, "iodepth_batch_complete_min 5 is more than iodepth 4"));
    job.batch_complete_min = 0;
    strcpy(job.engine, "psync");
    job.uring_fixed_files = 1;
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), -EINVAL);
    assert_non_null(strstr(err, "registerfiles=1: only the io_uring engine"));
    job.uring_fixed_files = 0;
    job.uring_fixed_bufs = 1;
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), -EINVAL);
    assert_non_null(strstr(err, "fixedbufs=1"));
    job.uring_fixed_bufs = -1; /* the default is no requirement: fine anywhere */
    job.uring_fixed_files = -1;
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), 0);
    strcpy(job.engine, "io_uring");
    job.uring_fixed_files = job.uring_fixed_bufs = 1;
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), 0);
}

static void test_usage_and_docs(void **state)
{
    const sb_opt *tables[] = {sb_io_options};
    size_t ns[] = {sb_io_n_options};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    sb_opt_print_usage(f, tables, ns, 1, 96);
    fclose(f);
    assert_non_null(strstr(buf, "LIMIT[%]"));
    assert_null(strstr(buf, "%%"));
    assert_non_null(strstr(buf, "  --direct[=0|1] "));
    assert_non_null(strstr(buf, "alias --readwrite"));
    for (size_t i = 0; i < sb_io_n_options; i++) {
        char want[96];
        snprintf(want, sizeof want, "  --%s", sb_io_options[i].name);
        assert_non_null(strstr(buf, want));
    }
    for (char *line = buf; *line;) { /* wrapped to the width */
        size_t n = strcspn(line, "\n");
        assert_true(n <= 96);
        line += n + (line[n] != '\0');
    }
    free(buf);
    f = open_memstream(&buf, &len);
    sb_opt_print_roff(f, tables, ns, 1);
    fclose(f);
    assert_non_null(strstr(buf, ".TP\n\\fB\\-\\-rw\\fR \\fIMODE\\fR, \\fB\\-\\-readwrite\\fR"));
    assert_null(strstr(buf, "\n.T\n")); /* no stray request */
    free(buf);
    f = open_memstream(&buf, &len);
    assert_int_equal(sb_opt_print_cmdhelp(f, tables, ns, 1, "bs"), 0);
    assert_int_equal(sb_opt_print_cmdhelp(f, tables, ns, 1, "nosuch"), -ENOENT);
    fclose(f);
    assert_non_null(strstr(buf, "type: size"));
    free(buf);
}

/* The fio workload parses its job options through the same entries. */
static void test_fio_workload(void **state)
{
    sb_config cfg;
    sb_config_init(&cfg, &sb_wl_fio, false);
    assert_int_equal(sb_config_set(&cfg, "numjobs", "100", err, sizeof err), 0);
    assert_int_equal(sb_config_resolve(&cfg, err, sizeof err), 0); /* io's bound, 1 .. 4096 */
    assert_int_equal(sb_config_set(&cfg, "iodepth", "0", err, sizeof err), 0);
    assert_int_equal(sb_config_resolve(&cfg, err, sizeof err), -EINVAL);
    assert_string_equal(err, "fio: iodepth: '0' is not in 1 .. 65536");
    sb_config_init(&cfg, &sb_wl_fio, false);
    assert_int_equal(sb_config_set(&cfg, "runtime", "0", err, sizeof err), 0);
    assert_int_equal(sb_config_resolve(&cfg, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "runtime"));
    sb_config_init(&cfg, &sb_wl_fio, false);
    assert_int_equal(sb_config_set(&cfg, "ramp", "x", err, sizeof err), 0);
    assert_int_equal(sb_config_resolve(&cfg, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "fio: ramp: 'x' is not a duration"));
    sb_config_init(&cfg, &sb_wl_fio, false);
    assert_int_equal(sb_config_set(&cfg, "steadystate", "iops:x", err, sizeof err), 0);
    assert_int_equal(sb_config_set(&cfg, "ss_dur", "5", err, sizeof err), 0);
    assert_int_equal(sb_config_resolve(&cfg, err, sizeof err), -EINVAL);
    assert_string_equal(err, "fio: steadystate: limit 'x' is not a positive number or a percentage (2%)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_int_and_bounds),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_durations),
        cmocka_unit_test(test_bools_choices_strings),
        cmocka_unit_test(test_functions),
        cmocka_unit_test(test_errors_name_options_plainly),
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_job_checks),
        cmocka_unit_test(test_usage_and_docs),
        cmocka_unit_test(test_fio_workload),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
