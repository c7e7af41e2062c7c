/* Unit tests of the resolve-once contract (docs/architecture.md, "Adding a test"): a
 * workload's options are resolved by sb_config_resolve(), once, into its params struct,
 * and the runner hands that struct to space_needed, estimate_seconds and every run
 * without resolving again; a configuration that was not resolved, or was changed since,
 * is refused before anything runs; a bad value is one line from resolve. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/workdir.h"
#include "runner/runner.h"
#include "workloads/registry.h"

typedef struct counted_params {
    uint64_t n;
    unsigned serial; /* which resolve filled it */
} counted_params;

static unsigned resolves, runs, spaces, estimates;
static unsigned seen_serial; /* the serial every entry saw; ~0u once two differ */

static void saw(const counted_params *p)
{
    if (seen_serial && seen_serial != p->serial)
        seen_serial = ~0u;
    else
        seen_serial = p->serial;
}

static int counted_resolve(const sb_config *cfg, void *params, char *err, size_t errlen)
{
    counted_params *p = params;
    int rc = sb_config_check(cfg, err, errlen);
    if (rc < 0)
        return rc;
    p->n = sb_config_u(cfg, "n");
    p->serial = ++resolves;
    return 0;
}

static uint64_t counted_space(const void *params)
{
    spaces++;
    saw(params);
    return 1;
}

static double counted_estimate(const void *params)
{
    estimates++;
    saw(params);
    return 1;
}

static int counted_run(sb_run_ctx *ctx, const void *params, sb_sample *s)
{
    const counted_params *p = params;
    runs++;
    saw(p);
    s->value = (double)p->n;
    s->seconds = 5;
    s->valid = true;
    return 0;
}

static const sb_option counted_options[] = {
    {"n", "N", "7", NULL, NULL, "a number", 0, .kind = SB_VAL_UINT, .min = 1, .max = 100},
};
static const sb_measure counted_measures[] = {{NULL, "ops/s", SB_HIGHER_IS_BETTER}};
static const sb_workload counted = {
    .name = "counted",
    .title = "Counted",
    .summary = "test double",
    .options = counted_options,
    .n_options = 1,
    .measures = counted_measures,
    .n_measures = 1,
    .params_size = sizeof(counted_params),
    .resolve = counted_resolve,
    .space_needed = counted_space,
    .estimate_seconds = counted_estimate,
    .run = counted_run,
};

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/sbresolve-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return sb_remove_tree(dir);
}

/* Runs cfg 3 times exactly through the runner; the runner's return. */
static int run3(const sb_config *cfg, sb_resultfile *rf, char *err, size_t errlen)
{
    sb_runner r;
    sb_resultfile_init(rf);
    sb_resultfile_add_system(rf, "me");
    sb_runner_init(&r, dir, "me", rf);
    r.runs = 3;
    r.dynamic = false;
    r.drop_caches = false;
    r.log = NULL;
    return sb_runner_run(&r, cfg, err, errlen);
}

static void test_resolved_once_for_every_run(void **state)
{
    (void)state;
    static sb_config cfg;
    char err[256];
    resolves = runs = spaces = estimates = seen_serial = 0;
    sb_config_init(&cfg, &counted, false);
    assert_int_equal(sb_config_set(&cfg, "n", "5", err, sizeof err), 0);
    assert_false(sb_config_is_resolved(&cfg));
    assert_int_equal(sb_config_resolve(&cfg, err, sizeof err), 0);
    assert_true(sb_config_is_resolved(&cfg));
    assert_int_equal(resolves, 1);
    sb_resultfile rf;
    assert_int_equal(run3(&cfg, &rf, err, sizeof err), SB_RUN_DONE);
    assert_int_equal(resolves, 1); /* the runner never resolves again */
    assert_int_equal(runs, 3);
    assert_true(spaces >= 1 && estimates >= 1);
    assert_int_equal(seen_serial, 1); /* every entry saw the struct of that one resolve */
    assert_int_equal(rf.results[0].entries[0].n_values, 3);
    assert_true(rf.results[0].entries[0].values[0] == 5.0);
    sb_resultfile_free(&rf);
}

static void test_unresolved_refused(void **state)
{
    (void)state;
    static sb_config cfg;
    char err[256] = "";
    resolves = runs = 0;
    sb_config_init(&cfg, &counted, false);
    sb_resultfile rf;
    assert_int_equal(run3(&cfg, &rf, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "not resolved"));
    sb_resultfile_free(&rf);
    /* a value set after resolving makes the params stale: refused too */
    assert_int_equal(sb_config_resolve(&cfg, err, sizeof err), 0);
    assert_int_equal(sb_config_set(&cfg, "n", "9", err, sizeof err), 0);
    assert_false(sb_config_is_resolved(&cfg));
    assert_int_equal(run3(&cfg, &rf, err, sizeof err), -EINVAL);
    sb_resultfile_free(&rf);
    assert_int_equal(runs, 0);
    assert_int_equal(resolves, 1);
}

/* A bad value is refused by the one resolve, in one line naming the option; fio's job
 * keys (kind IO) are parsed there, by their io option entries. */
static void test_bad_value_one_line(void **state)
{
    (void)state;
    static sb_config cfg;
    char err[256];
    resolves = 0;
    sb_config_init(&cfg, &counted, false);
    assert_int_equal(sb_config_set(&cfg, "n", "x", err, sizeof err), 0);
    assert_int_equal(sb_config_resolve(&cfg, err, sizeof err), -EINVAL);
    assert_string_equal(err, "counted: n=x is not a whole number from 1 to 100");
    assert_false(sb_config_is_resolved(&cfg));
    assert_int_equal(resolves, 0);
    const sb_workload *fio = sb_workload_find("fio");
    assert_non_null(fio);
    sb_config_init(&cfg, fio, false);
    assert_int_equal(sb_config_set(&cfg, "iodepth", "0", err, sizeof err), 0);
    assert_int_equal(sb_config_resolve(&cfg, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "iodepth"));
    assert_null(strchr(err, '\n'));
}

/* Every registered test refuses, in its resolve, a value that is not what its option's kind
 * says (io500 once took stonewall-time=x as 0 seconds): a typed option without choices set
 * to "x" is refused by sb_config_set or by sb_config_resolve, in one line naming the key. */
static void test_every_workload_checks_kinds(void **state)
{
    (void)state;
    for (size_t i = 0; i < sb_workload_count(); i++) {
        const sb_workload *w = sb_workload_at(i);
        for (size_t o = 0; o < w->n_options; o++) {
            const sb_option *opt = &w->options[o];
            if (opt->choices || opt->kind == SB_VAL_TEXT || opt->kind == SB_VAL_CHOICE)
                continue;
            static sb_config cfg;
            char err[512] = "";
            sb_config_init(&cfg, w, false);
            if (sb_config_set(&cfg, opt->key, "x", err, sizeof err) < 0)
                continue;
            if (sb_config_resolve(&cfg, err, sizeof err) != -EINVAL)
                fail_msg("%s: %s=x was not refused", w->name, opt->key);
            if (!strstr(err, opt->key) || strchr(err, '\n'))
                fail_msg("%s: %s=x: '%s' is not one line naming it", w->name, opt->key, err);
        }
    }
}

/* Every registered test with options resolves, and its params fit the configuration. */
static void test_every_workload_resolves(void **state)
{
    (void)state;
    for (size_t i = 0; i < sb_workload_count(); i++) {
        const sb_workload *w = sb_workload_at(i);
        if (w->n_options)
            assert_non_null(w->resolve);
        assert_true(w->params_size <= SB_PARAMS_MAX);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resolved_once_for_every_run),
        cmocka_unit_test(test_unresolved_refused),
        cmocka_unit_test(test_bad_value_one_line),
        cmocka_unit_test(test_every_workload_checks_kinds),
        cmocka_unit_test(test_every_workload_resolves),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
