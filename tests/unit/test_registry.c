/* Unit tests for option resolution and the registry: every test's defaults
 * and --quick values are valid, every suite item resolves, option lines are
 * built as the seed pages show them. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "workloads/registry.h"

static void test_defaults_and_quick_validate(void **state)
{
    (void)state;
    assert_true(sb_workload_count() >= 1);
    for (size_t i = 0; i < sb_workload_count(); i++) {
        const sb_workload *w = sb_workload_at(i);
        assert_non_null(w->name);
        assert_non_null(w->title);
        assert_non_null(w->run);
        assert_true(w->n_measures >= 1);
        assert_true(w->n_options <= SB_MAX_OPTIONS);
        assert_ptr_equal(sb_workload_find(w->name), w);
        for (int quick = 0; quick < 2; quick++) {
            sb_config cfg;
            char err[512] = "";
            sb_config_init(&cfg, w, quick);
            for (size_t o = 0; o < w->n_options; o++) {
                /* Each value set through sb_config_set must be accepted (choices). */
                const char *v = cfg.values[o];
                assert_non_null(v);
                if (sb_config_set(&cfg, w->options[o].key, v, err, sizeof err) != 0)
                    fail_msg("%s: option %s default/quick '%s' rejected: %s", w->name,
                             w->options[o].key, v, err);
            }
            if (sb_config_resolve(&cfg, err, sizeof err) != 0)
                fail_msg("%s (quick=%d): defaults rejected: %s", w->name, quick, err);
        }
    }
}

static void test_suites_resolve(void **state)
{
    (void)state;
    assert_non_null(sb_suite_find("disk"));
    assert_non_null(sb_suite_find("quick"));
    assert_non_null(sb_suite_find("dd"));
    for (size_t i = 0; i < sb_suite_count(); i++) {
        const sb_suite *s = sb_suite_at(i);
        for (const sb_suite_item *it = s->items; it->workload; it++) {
            const sb_workload *w = sb_workload_find(it->workload);
            if (!w)
                fail_msg("suite %s: unknown test %s", s->name, it->workload);
            sb_config cfg;
            char err[512] = "", *copy = it->options ? strdup(it->options) : NULL, *save = NULL;
            sb_config_init(&cfg, w, s->quick);
            for (char *kv = copy ? strtok_r(copy, ",", &save) : NULL; kv; kv = strtok_r(NULL, ",", &save)) {
                char *eq = strchr(kv, '=');
                assert_non_null(eq);
                *eq = 0;
                if (sb_config_set(&cfg, kv, eq + 1, err, sizeof err))
                    fail_msg("suite %s: %s", s->name, err);
            }
            if (sb_config_resolve(&cfg, err, sizeof err))
                fail_msg("suite %s: %s", s->name, err);
            /* copy's pieces are referenced by cfg only within this iteration */
            free(copy);
        }
    }
    assert_null(sb_workload_find("no-such-test"));
    assert_null(sb_suite_find("no-such-suite"));
}

static void test_config_describe_and_errors(void **state)
{
    (void)state;
    const sb_workload *w = sb_workload_find("dd");
    assert_non_null(w);
    sb_config cfg;
    char err[512], line[512];
    sb_config_init(&cfg, w, false);
    assert_string_equal(sb_config_get(&cfg, "bs"), "2048k");
    assert_null(sb_config_get(&cfg, "nope"));
    assert_int_equal(sb_config_set(&cfg, "nope", "1", err, sizeof err), -ENOENT);
    assert_int_equal(sb_config_set(&cfg, "data", "ones", err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "zero, random"));
    assert_int_equal(sb_config_set(&cfg, "data", "random", err, sizeof err), 0);
    assert_string_equal(sb_config_display(&cfg, "data"), "Random");
    sb_config_describe(&cfg, &w->measures[0], line, sizeof line);
    assert_string_equal(line, "Block Size: 2048k - Count: 512 - Data: Random - Test: Direct Write");
    assert_int_equal(sb_config_check(&cfg, err, sizeof err), 0);
    assert_int_equal(sb_config_u(&cfg, "bs"), 2097152); /* parsed once, when set */
    assert_int_equal(sb_config_u(&cfg, "count"), 512);
    sb_config_set(&cfg, "count", "many", err, sizeof err);
    assert_int_equal(sb_config_check(&cfg, err, sizeof err), -EINVAL);
    assert_string_equal(err, "dd: count=many is not a whole number from 1 to 4294967296");
    /* a value among choices is parsed by its kind too (iozone's record-size is a size) */
    const sb_workload *ioz = sb_workload_find("iozone");
    sb_config iz;
    sb_config_init(&iz, ioz, false);
    assert_int_equal(sb_config_set(&iz, "record-size", "64k", err, sizeof err), 0);
    assert_int_equal(sb_config_u(&iz, "record-size"), 65536);
    sb_config_init(&cfg, w, true);
    assert_string_equal(sb_config_get(&cfg, "count"), "512");
    assert_string_equal(sb_config_get(&cfg, "bs"), "2048k"); /* quick is the seed's 1 GiB */
}

/* Options flagged SB_OPT_IF_CHANGED join the option line only when changed: sqlite's line
 * is the seed's by default. */
static void test_describe_if_changed(void **state)
{
    (void)state;
    const sb_workload *w = sb_workload_find("sqlite");
    assert_non_null(w);
    sb_config cfg;
    char err[512], line[512];
    sb_config_init(&cfg, w, false);
    sb_config_describe(&cfg, &w->measures[0], line, sizeof line);
    assert_string_equal(line, "Test Target: Default Test Directory");
    assert_int_equal(sb_config_set(&cfg, "journal", "wal", err, sizeof err), 0);
    sb_config_describe(&cfg, &w->measures[0], line, sizeof line);
    assert_string_equal(line, "Test Target: Default Test Directory - Journal Mode: WAL");
    sb_config_init(&cfg, w, true);
    sb_config_describe(&cfg, &w->measures[0], line, sizeof line);
    assert_string_equal(line, "Test Target: Default Test Directory - Inserts: 250 - Scale: Quick");
}

/* dbench's default stream is the seed's (client.txt): its line is the seed's, and any
 * other stream names itself. */
static void test_dbench_loadfile_line(void **state)
{
    (void)state;
    const sb_workload *w = sb_workload_find("dbench");
    assert_non_null(w);
    sb_config cfg;
    char err[512], line[512];
    sb_config_init(&cfg, w, false);
    assert_string_equal(sb_config_get(&cfg, "loadfile"), "/usr/share/dbench/client.txt");
    sb_config_describe(&cfg, &w->measures[0], line, sizeof line);
    assert_string_equal(line, "Client Count: 6");
    assert_int_equal(sb_config_set(&cfg, "loadfile", "builtin", err, sizeof err), 0);
    sb_config_describe(&cfg, &w->measures[0], line, sizeof line);
    assert_string_equal(line, "Client Count: 6 - Loadfile: builtin");
    assert_int_equal(sb_config_resolve(&cfg, err, sizeof err), 0);
    assert_int_equal(sb_config_set(&cfg, "seed", "7", err, sizeof err), 0);
    sb_config_describe(&cfg, &w->measures[0], line, sizeof line);
    assert_string_equal(line, "Client Count: 6 - Loadfile: builtin - Seed: 7");
    assert_int_equal(sb_config_resolve(&cfg, err, sizeof err), 0);
    /* The seed only steers the generator: with a loadfile it is refused. */
    sb_config_init(&cfg, w, false);
    assert_int_equal(sb_config_set(&cfg, "seed", "7", err, sizeof err), 0);
    assert_int_equal(sb_config_resolve(&cfg, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "loadfile=builtin"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_and_quick_validate),
        cmocka_unit_test(test_suites_resolve),
        cmocka_unit_test(test_config_describe_and_errors),
        cmocka_unit_test(test_describe_if_changed),
        cmocka_unit_test(test_dbench_loadfile_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
