/*
 * test_option_line — under --quick the option line names every option the user changed
 * (issue 26): a hidden option (fio's runtime and size) given with -o a value other than
 * its default and its quick value appears before "Scale: Quick"; at full scale the seed
 * profile's line gets the override part " (size=64m, runtime=5)", which charts join without
 * (a short run still joins the seed's chart: sb_option_line_base), and every suite's lines
 * stay as they were.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "results/result.h"
#include "workloads/registry.h"

static const char *line_of(sb_config *cfg)
{
    static char line[1024];
    sb_config_describe(cfg, &cfg->workload->measures[0], line, sizeof line);
    return line;
}

static void test_fio_overrides_named(void **state)
{
    (void)state;
    const sb_workload *w = sb_workload_find("fio");
    assert_non_null(w);
    sb_config cfg;
    char err[512], seed[1024];
    sb_config_init(&cfg, w, false);
    strcpy(seed, line_of(&cfg));
    assert_null(strstr(seed, "Runtime"));
    /* the default value given explicitly changes nothing */
    assert_int_equal(sb_config_set(&cfg, "runtime", "20", err, sizeof err), 0);
    assert_string_equal(line_of(&cfg), seed);
    /* at full scale a short run's line names its overrides, in the options' order; the
     * line without them is the seed's (the chart it joins) */
    assert_int_equal(sb_config_set(&cfg, "runtime", "5", err, sizeof err), 0);
    assert_int_equal(sb_config_set(&cfg, "size", "64m", err, sizeof err), 0);
    char want[1100];
    snprintf(want, sizeof want, "%s (size=64m, runtime=5)", seed);
    assert_string_equal(line_of(&cfg), want);
    assert_int_equal(sb_option_line_base(line_of(&cfg)), strlen(seed));
    assert_int_equal(sb_option_line_base(seed), strlen(seed));
    /* a line that merely ends in parentheses has no override part */
    assert_int_equal(sb_option_line_base("Test: Sequential Read (Direct)"), 30);
    assert_int_equal(sb_option_line_base("Mode: A (k=v, x)"), 16);
    assert_int_equal(sb_option_line_base("Mode: A (k=v,x=y)"), 17);
    assert_int_equal(sb_option_line_base("Mode: A (k=v, x=y)"), 7);

    sb_config_init(&cfg, w, true);
    strcpy(seed, line_of(&cfg));
    assert_non_null(strstr(seed, " - Scale: Quick"));
    assert_null(strstr(seed, "Runtime"));
    /* the quick value given explicitly: still just "Scale: Quick" */
    assert_int_equal(sb_config_set(&cfg, "runtime", "3", err, sizeof err), 0);
    assert_string_equal(line_of(&cfg), seed);
    assert_int_equal(sb_config_set(&cfg, "runtime", "5", err, sizeof err), 0);
    assert_int_equal(sb_config_set(&cfg, "size", "64m", err, sizeof err), 0);
    const char *l = line_of(&cfg);
    assert_non_null(strstr(l, "Size: 64m"));
    assert_non_null(strstr(l, "Runtime: 5"));
    assert_non_null(strstr(l, " - Scale: Quick"));
}

/* Every suite item's line is its line without any -o: suites set visible options only. */
static void test_suite_lines_unchanged(void **state)
{
    (void)state;
    for (size_t k = 0; k < sb_suite_count(); k++) {
        const sb_suite *s = sb_suite_at(k);
        for (const sb_suite_item *it = s->items; it->workload; it++) {
            const sb_workload *w = sb_workload_find(it->workload);
            assert_non_null(w);
            sb_config a, b;
            char err[512], copy[512];
            sb_config_init(&a, w, s->quick);
            if (it->options) {
                strcpy(copy, it->options);
                for (char *sv = NULL, *kv = strtok_r(copy, ",", &sv); kv; kv = strtok_r(NULL, ",", &sv)) {
                    char *eq = strchr(kv, '=');
                    assert_non_null(eq);
                    *eq = 0;
                    assert_int_equal(sb_config_set(&a, kv, eq + 1, err, sizeof err), 0);
                }
            }
            b = a;
            memset(b.set, 0, sizeof b.set);
            char la[1024];
            strcpy(la, line_of(&a));
            assert_string_equal(la, line_of(&b));
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fio_overrides_named),
        cmocka_unit_test(test_suite_lines_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
