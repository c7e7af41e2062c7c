/*
 * test_modeled_host_bound — scenario/modeled_ref.c: a modeled configuration's ram twin
 * (every device "ram", the rest unchanged; none for a configuration without a model or
 * with ram alone), the 20 % rule in either direction, and the marking of figures by their
 * twin's: the same test, option line, unit and identifier only; and the lab's rule without a
 * twin (host-bound-check = busy): a vCPU busy 1/1.2 of the window or more marks the figure.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "scenario/modeled.h"

static void test_twin(void **state)
{
    (void)state;
    sb_scn_config c, t;
    memset(&c, 0, sizeof c);
    snprintf(c.identifier, sizeof c.identifier, "2-Disk RAID0");
    snprintf(c.filesystem, sizeof c.filesystem, "btrfs");
    c.devices = 2;
    assert_int_equal(sb_modeled_twin(&c, &t), 0); /* no model: nothing to compare with */
    snprintf(c.dev[0].model, sizeof c.dev[0].model, "ram");
    snprintf(c.dev[1].model, sizeof c.dev[1].model, "ram");
    assert_int_equal(sb_modeled_twin(&c, &t), 0); /* ram already */
    snprintf(c.dev[1].model, sizeof c.dev[1].model, "ssd-850evo,cache-mb=2");
    assert_int_equal(sb_modeled_twin(&c, &t), 1);
    assert_string_equal(t.dev[0].model, "ram");
    assert_string_equal(t.dev[1].model, "ram");
    assert_string_equal(t.identifier, "2-Disk RAID0");
    assert_string_equal(t.filesystem, "btrfs");
    assert_int_equal(t.devices, 2);
}

static void test_rule(void **state)
{
    (void)state;
    /* higher is better: ram must beat the model by 20 % for the figure to be the model's */
    assert_true(sb_modeled_host_bound(100, 119, SB_HIGHER_IS_BETTER));
    assert_false(sb_modeled_host_bound(100, 121, SB_HIGHER_IS_BETTER));
    assert_true(sb_modeled_host_bound(100, 60, SB_HIGHER_IS_BETTER)); /* ram slower: the host's noise */
    /* lower is better (seconds) */
    assert_true(sb_modeled_host_bound(10, 8.5, SB_LOWER_IS_BETTER));
    assert_false(sb_modeled_host_bound(10, 8, SB_LOWER_IS_BETTER));
    assert_false(sb_modeled_host_bound(0, 8, SB_LOWER_IS_BETTER)); /* no figure */
}

static sb_result *res(sb_resultfile *rf, const char *test, const char *desc)
{
    return sb_resultfile_add_result(rf, test, test, "", desc, "MB/s", SB_HIGHER_IS_BETTER, NULL);
}

static void test_mark(void **state)
{
    (void)state;
    sb_resultfile fresh, ref;
    sb_resultfile_init(&fresh);
    sb_resultfile_init(&ref);
    sb_resultfile_add_system(&fresh, "A");
    sb_resultfile_add_system(&ref, "A");
    /* (results move as the array grows: take each by index once all are there) */
    res(&fresh, "fio", "Type: Random Write");
    res(&fresh, "fio", "Type: Sequential Write");
    res(&fresh, "dd", "Type: write");
    for (size_t i = 0; i < 3; i++)
        sb_result_add_entry(&fresh.results[i], "A")->mean = 100;
    res(&ref, "fio", "Type: Random Write");
    res(&ref, "fio", "Type: Sequential Write");
    sb_result_add_entry(&ref.results[0], "A")->mean = 110; /* within 20 %: host-bound */
    sb_result_add_entry(&ref.results[1], "A")->mean = 400; /* the model bounds it */
    /* dd has no twin figure: left unmarked */
    assert_int_equal(sb_modeled_mark(&fresh, &ref), 1);
    assert_true(sb_result_find_entry(&fresh.results[0], "A")->host_bound);
    assert_true(sb_result_find_entry(&fresh.results[0], "A")->host_ref == 110);
    assert_false(sb_result_find_entry(&fresh.results[1], "A")->host_bound);
    assert_false(sb_result_find_entry(&fresh.results[2], "A")->host_bound);
    sb_resultfile_free(&fresh);
    sb_resultfile_free(&ref);
}

static void test_busy_rule(void **state)
{
    (void)state;
    /* the twin rule's bound: a twin could at best be 1 / busy share faster, 1.2 at 83.3 % */
    assert_true(sb_modeled_busy_threshold() > 83.33 && sb_modeled_busy_threshold() < 83.34);
    assert_true(sb_modeled_busy_bound(100));
    assert_true(sb_modeled_busy_bound(83.34));
    assert_false(sb_modeled_busy_bound(83.3));
    assert_false(sb_modeled_busy_bound(20)); /* a disk-bound test: the vCPU mostly idle */
    assert_false(sb_modeled_busy_bound(NAN));
}

static void test_mark_busy(void **state)
{
    (void)state;
    sb_resultfile fresh;
    sb_resultfile_init(&fresh);
    sb_resultfile_add_system(&fresh, "A");
    sb_resultfile_add_system(&fresh, "B");
    res(&fresh, "fio", "Type: Random Write");
    res(&fresh, "sqlite", "");
    /* (entries move as the array grows: take each once all are there) */
    sb_result_add_entry(&fresh.results[0], "A");
    sb_result_add_entry(&fresh.results[0], "B");
    sb_result_add_entry(&fresh.results[1], "A");
    sb_entry *a = sb_result_find_entry(&fresh.results[0], "A");
    sb_entry *b = sb_result_find_entry(&fresh.results[0], "B");
    sb_entry *s = sb_result_find_entry(&fresh.results[1], "A");
    a->mean = b->mean = s->mean = 10;
    sb_entry_set_cpu_busy(a, 97.5); /* CPU-bound: marked */
    sb_entry_set_cpu_busy(b, 12.0); /* waits for the model: not */
    /* s has no share (not measured in the lab): left alone */
    assert_int_equal(sb_modeled_mark_busy(&fresh), 1);
    a = sb_result_find_entry(&fresh.results[0], "A");
    assert_true(a->host_bound);
    assert_true(isnan(a->host_ref)); /* no twin's figure */
    assert_false(sb_result_find_entry(&fresh.results[0], "B")->host_bound);
    assert_false(sb_result_find_entry(&fresh.results[1], "A")->host_bound);
    sb_resultfile_free(&fresh);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_twin),
        cmocka_unit_test(test_rule),
        cmocka_unit_test(test_mark),
        cmocka_unit_test(test_busy_rule),
        cmocka_unit_test(test_mark_busy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
