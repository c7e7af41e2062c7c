/*
 * test_devices_spec — device model specs (devices/model.h): the presets and their
 * sources, overrides, the one-line refusals; the scenario file's device-model key
 * (per device, key=value items belonging to the spec before them, refused at parse
 * time); and the real-time queue answering concurrent callers (behaviour only: that
 * every request returns, not how fast).
 */
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "devices/model.h"
#include "scenario/scenario.h"

static void test_presets(void **state)
{
    (void)state;
    size_t n;
    const sb_dev_preset *p = sb_dev_preset_list(&n);
    const char *want[] = {"hdd-hua723020", "ssd-850evo", "ssd-950pro", "ssd-600p", "ram"};
    assert_int_equal(n, 5);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(p[i].name, want[i]);
        assert_true(p[i].source && strlen(p[i].source) > 4);
        assert_true(p[i].summary && strlen(p[i].summary) > 4);
        char err[256] = "";
        assert_int_equal(sb_dev_spec_check(p[i].name, err, sizeof err), 0);
    }
    assert_int_equal(p[0].kind, SB_DEV_KIND_HDD);
    assert_int_equal(p[1].kind, SB_DEV_KIND_SSD);
}

static void refused(const char *spec, const char *words)
{
    char err[256] = "";
    assert_int_equal(sb_dev_spec_check(spec, err, sizeof err), -EINVAL);
    if (!strstr(err, words))
        fail_msg("%s: '%s' does not say '%s'", spec, err, words);
    assert_null(strchr(err, '\n'));
}

static void test_refusals(void **state)
{
    (void)state;
    refused("", "empty");
    refused("nvme", "unknown preset");
    refused("hdd-hua723020,rpm", "not key=value");
    refused("hdd-hua723020,rpm=fast", "not a number");
    refused("hdd-hua723020,rpm=99", "out of range");
    refused("hdd-hua723020,colour=red", "unknown parameter 'colour'");
    refused("ssd-850evo,rpm=5400", "does not apply to an SSD");
    refused("ram,cache-mb=1", "does not apply");
    refused("hdd-hua723020,seek-avg-ms=14.9", "cannot be reached");
    refused("hdd-hua723020,seek-t2t-ms=9", "seeks must grow");
    refused("hdd-hua723020,rate-inner-mbps=200", "above");
    refused("ssd-850evo,units=2.5", "whole number");
    /* an image larger than the modeled device */
    char err[256];
    sb_dev_model *m;
    assert_int_equal(sb_dev_model_new("ssd-850evo", 200000000000ull, &m, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "do not fit"));
    assert_null(m);
}

static void test_overrides(void **state)
{
    (void)state;
    char err[256];
    sb_dev_model *a, *b;
    assert_int_equal(sb_dev_model_new("hdd-hua723020", 1 << 30, &a, err, sizeof err), 0);
    assert_int_equal(sb_dev_model_new("hdd-hua723020,rpm=5400,capacity-gb=500", 1 << 30, &b, err, sizeof err), 0);
    assert_string_equal(sb_dev_model_preset(b), "hdd-hua723020");
    assert_true(sb_dev_model_capacity(b) == 500000000000ull);
    /* 5400 rpm: a revolution is 11.1 ms, so a quarter of 7200's revolution later the
     * angle has moved less */
    uint64_t q = 60000000000ull / 7200 / 4;
    double da = sb_dev_hdd_angle_at(a, q) - sb_dev_hdd_angle_at(a, 0);
    double db = sb_dev_hdd_angle_at(b, q) - sb_dev_hdd_angle_at(b, 0);
    assert_true(da > 0.249 && da < 0.251);
    assert_true(db > 0.187 && db < 0.188);
    sb_dev_model_free(a);
    sb_dev_model_free(b);
}

static void test_scenario_key(void **state)
{
    (void)state;
    static sb_scenario s;
    char err[512] = "";
    const char *text = "[scenario]\n"
                       "device-model = ssd-850evo,cache-mb=2,hdd-hua723020\n"
                       "[Two]\nfilesystem = btrfs\ndevices = 2\n"
                       "[One]\nfilesystem = ext4\ndevice-model = ram\n"
                       "[Plain]\nfilesystem = ext4\n";
    assert_int_equal(sb_scenario_parse(text, "t.ini", &s, err, sizeof err), 0);
    assert_string_equal(s.configs[0].dev[0].model, "ssd-850evo,cache-mb=2");
    assert_string_equal(s.configs[0].dev[1].model, "hdd-hua723020");
    assert_string_equal(s.configs[1].dev[0].model, "ram");
    assert_string_equal(s.configs[2].dev[0].model, "ssd-850evo,cache-mb=2"); /* [scenario]'s first */
    assert_false(s.configs[0].dev_keys); /* not an emulation key of --vm's device-class kind */
    /* a section's own list: one for all, or one per device */
    text = "[A]\nfilesystem = btrfs\ndevices = 2\ndevice-model = ssd-850evo,rpm=7200\n";
    assert_int_equal(sb_scenario_parse(text, "t.ini", &s, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "t.ini:4: device-model: 'ssd-850evo': rpm does not apply to an SSD"));
    text = "[A]\nfilesystem = btrfs\ndevices = 2\ndevice-model = ram,ram,ram\n";
    assert_int_equal(sb_scenario_parse(text, "t.ini", &s, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "lists 3 items for 2 devices"));
    text = "[A]\nfilesystem = ext4\ndevice-model = floppy\n";
    assert_int_equal(sb_scenario_parse(text, "t.ini", &s, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "unknown preset"));
}

typedef struct {
    sb_dev_queue *q;
    int i, rc;
} worker_arg;

static void *worker(void *arg)
{
    worker_arg *w = arg;
    w->rc = 0;
    for (int k = 0; k < 20 && w->rc == 0; k++)
        w->rc = sb_dev_queue_io(w->q, k % 5 == 4 ? SB_DEV_FLUSH : SB_DEV_WRITE,
                                (uint64_t)(w->i * 1000 + k) * 4096, 4096);
    return NULL;
}

/* A modeled 850 EVO of 1 GiB behind a queue of NCQ's 32 tags (flags: SB_DEV_QUEUE_*). */
static sb_dev_queue *new_ssd_queue(sb_dev_model **m, unsigned flags)
{
    char err[256];
    assert_int_equal(sb_dev_model_new("ssd-850evo", 1 << 30, m, err, sizeof err), 0);
    sb_dev_queue *q = sb_dev_queue_new(*m, 32, flags);
    assert_non_null(q);
    return q;
}

static void test_queue_answers_everyone(void **state)
{
    (void)state;
    sb_dev_model *m;
    sb_dev_queue *q = new_ssd_queue(&m, 0);
    pthread_t t[8];
    worker_arg a[8];
    for (int i = 0; i < 8; i++) {
        a[i] = (worker_arg){q, i, -1};
        pthread_create(&t[i], NULL, worker, &a[i]);
    }
    for (int i = 0; i < 8; i++) {
        pthread_join(t[i], NULL);
        assert_int_equal(a[i].rc, 0);
    }
    sb_dev_queue_free(q);
    sb_dev_model_free(m);
}

/* The queue never answers before the modeled completion, whether its caller sleeps or
 * spins the end of the wait (a lone caller spins): a QD1 4 KiB write on the 850 EVO is
 * modeled at 25 us (controller, link, firmware path), a read at 100 us. */
static void test_queue_never_answers_early(void **state)
{
    (void)state;
    sb_dev_model *m;
    sb_dev_queue *q = new_ssd_queue(&m, 0);
    for (int k = 0; k < 200; k++) {
        int rd = k % 2;
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        assert_int_equal(sb_dev_queue_io(q, rd ? SB_DEV_READ : SB_DEV_WRITE, (uint64_t)k << 20, 4096), 0);
        clock_gettime(CLOCK_MONOTONIC, &b);
        double us = (double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_nsec - a.tv_nsec) / 1e3;
        assert_true(us >= (rd ? 99.0 : 24.0));
    }
    sb_dev_queue_free(q);
    sb_dev_model_free(m);
}

/* A queue made for a guest in virtual time (SB_DEV_QUEUE_SLEEP) never spins, and still
 * never answers early; the same requests on the default queue spin the end of their waits
 * wherever there are two CPUs or more (a lone caller always has a spinner's place). */
static void test_queue_sleep_never_spins(void **state)
{
    (void)state;
    for (unsigned flags = 0; flags <= SB_DEV_QUEUE_SLEEP; flags += SB_DEV_QUEUE_SLEEP) {
        sb_dev_model *m;
        sb_dev_queue *q = new_ssd_queue(&m, flags);
        for (int k = 0; k < 50; k++) {
            struct timespec a, b;
            clock_gettime(CLOCK_MONOTONIC, &a);
            assert_int_equal(sb_dev_queue_io(q, SB_DEV_READ, (uint64_t)k << 20, 4096), 0);
            clock_gettime(CLOCK_MONOTONIC, &b);
            assert_true((double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_nsec - a.tv_nsec) / 1e3 >= 99.0);
        }
        if (flags & SB_DEV_QUEUE_SLEEP)
            assert_int_equal(sb_dev_queue_spun(q), 0);
        else if (sysconf(_SC_NPROCESSORS_ONLN) >= 2)
            assert_true(sb_dev_queue_spun(q) > 0);
        sb_dev_queue_free(q);
        sb_dev_model_free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_presets),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_overrides),
        cmocka_unit_test(test_scenario_key),
        cmocka_unit_test(test_queue_answers_everyone),
        cmocka_unit_test(test_queue_never_answers_early),
        cmocka_unit_test(test_queue_sleep_never_spins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
