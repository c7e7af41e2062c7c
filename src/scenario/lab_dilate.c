/*
 * lab_dilate — time dilation's tables and scaling (see lab_dilate.h). The tables are
 * what makes the rescaling honest: a unit is time-like, a rate or neither only because
 * this file says so, and a test runs dilated only when every figure it can produce has
 * such a unit and its durations are listed here; anything else is refused rather than
 * guessed at.
 */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "scenario/lab_dilate.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/log.h"
#include "io/job.h"
#include "workloads/dbench/dbench.h"
#include "workloads/fsmark.h"

/* Every unit a dilated test's figures carry, and which way each goes (docs/scenarios.md,
 * "Time dilation"). fio: MB/s, IOPS, B/s, B, s, us (latencies); sqlite: Seconds, 1/s, us,
 * "" (counts, the library's version number); dd: MB/s, B, s; fs-mark: Files/s, us (a file's
 * create to close), files, bytes, threads, dirs, "" (whether the data was random); dbench:
 * MB/s, ops/s, ms (the longest operations), us (latencies), ops, bytes. */
static const struct {
    const char *unit;
    sb_dil_kind kind;
} units[] = {
    {"s", SB_DIL_TIME},      {"Seconds", SB_DIL_TIME}, {"ms", SB_DIL_TIME},   {"us", SB_DIL_TIME},
    {"ns", SB_DIL_TIME},     {"MB/s", SB_DIL_RATE},    {"B/s", SB_DIL_RATE},  {"KB/s", SB_DIL_RATE},
    {"MiB/s", SB_DIL_RATE},  {"IOPS", SB_DIL_RATE},    {"1/s", SB_DIL_RATE},  {"Files/s", SB_DIL_RATE},
    {"TPS", SB_DIL_RATE},    {"B", SB_DIL_SAME},       {"", SB_DIL_SAME},     {"%", SB_DIL_SAME},
    {"ops/s", SB_DIL_RATE},  {"ops", SB_DIL_SAME},     {"files", SB_DIL_SAME}, {"bytes", SB_DIL_SAME},
    {"threads", SB_DIL_SAME}, {"dirs", SB_DIL_SAME},
};

/* fio's durations, in its resolved job: the wait before it, the ramp and the measured time. */
static void fio_stretch(void *params, unsigned k)
{
    sb_io_job *job = params;
    job->startdelay_s *= k;
    job->ramp_s *= k;
    job->runtime_s *= k;
}

/* The tests that run dilated, and how their durations are stretched (NULL: they have none).
 * fs-mark: its sub-directory period (fs_mark's 180 s) and the driver's 100 ms wake-ups;
 * dbench: its measured time, its warm-up, the driver's 50 ms wake-ups and a loadfile's
 * timestamps. A test not here is refused: its figures or its own timers (pgbench's,
 * compilebench's, postmark's ...) were not gone through. */
static const struct {
    const char *test;
    void (*stretch)(void *params, unsigned k);
} tests[] = {
    {"fio", fio_stretch},
    {"sqlite", NULL},
    {"dd", NULL},
    {"fs-mark", sb_fsmark_dilate},
    {"dbench", sb_dbench_dilate},
};

sb_dil_kind sb_lab_dilate_unit(const char *unit)
{
    for (size_t i = 0; unit && i < sizeof units / sizeof units[0]; i++)
        if (!strcmp(units[i].unit, unit))
            return units[i].kind;
    return SB_DIL_UNKNOWN;
}

/* The test's row of the table, or -1. */
static int test_row(const char *test)
{
    for (size_t i = 0; test && i < sizeof tests / sizeof tests[0]; i++)
        if (!strcmp(tests[i].test, test))
            return (int)i;
    return -1;
}

const char *sb_lab_dilate_refusal(const sb_config *cfg)
{
    const sb_workload *w = cfg->workload;
    if (test_row(w->name) < 0)
        return "its figures and durations are not in the dilation table (fio, sqlite, dd, fs-mark and dbench are)";
    for (size_t m = 0; m < w->n_measures; m++)
        if (sb_lab_dilate_unit(w->measures[m].unit) == SB_DIL_UNKNOWN)
            return "a measure's unit is not in the dilation table";
    /* Steady state's limits are absolute rates and windows of the guest's clock. */
    const char *ss = sb_config_get(cfg, "steadystate");
    if (ss && strcmp(ss, "off"))
        return "steadystate's limits are rates and windows the dilation does not scale";
    return NULL;
}

static double factor_of(sb_dil_kind kind, unsigned k)
{
    return kind == SB_DIL_TIME ? 1.0 / k : kind == SB_DIL_RATE ? (double)k : 1.0;
}

/* Whether rf can be scaled whole: every unit and test known. 0 or -EINVAL with err. */
static int dilate_check(const sb_resultfile *rf, char *err, size_t errlen)
{
    for (size_t i = 0; i < rf->n_results; i++) {
        const sb_result *r = &rf->results[i];
        if (test_row(r->test) < 0 || sb_lab_dilate_unit(r->unit) == SB_DIL_UNKNOWN) {
            snprintf(err, errlen, "--vm-dilate: cannot scale the figures of test '%s' (unit '%s') back to the "
                     "model's time", r->test, r->unit);
            return -EINVAL;
        }
        for (size_t e = 0; e < r->n_entries; e++)
            for (size_t s = 0; s < r->entries[e].n_secondary; s++)
                if (sb_lab_dilate_unit(r->entries[e].secondary[s].unit) == SB_DIL_UNKNOWN) {
                    snprintf(err, errlen, "--vm-dilate: cannot scale %s's figure %s (unit '%s') back to the model's time",
                             r->test, r->entries[e].secondary[s].name, r->entries[e].secondary[s].unit);
                    return -EINVAL;
                }
    }
    return 0;
}

static void dilate_series(sb_series *s, unsigned k)
{
    s->interval_s /= k;
    for (size_t i = 0; i < s->n; i++) {
        sb_series_point *p = &s->p[i];
        p->t /= k, p->dur /= k;
        p->iops *= k, p->bw *= k;
        p->lat_mean_us /= k, p->lat_p99_us /= k;
    }
}

static void dilate_entry(sb_entry *e, double f, unsigned k)
{
    e->mean *= f, e->sd *= f, e->se *= f, e->host_ref *= f;
    for (size_t v = 0; v < e->n_values; v++) {
        e->values[v] *= f;
        if (e->values[v] != floor(e->values[v]))
            e->decimals = 2; /* whole runs ÷K need not stay whole: the page prints them */
    }
    if (e->mean != floor(e->mean))
        e->decimals = 2;
    for (size_t s = 0; s < e->n_secondary; s++)
        e->secondary[s].value *= factor_of(sb_lab_dilate_unit(e->secondary[s].unit), k);
    if (e->series)
        dilate_series(e->series, k);
    e->ss_at_s /= k;
}

int sb_lab_dilate_result(sb_resultfile *rf, unsigned k, char *err, size_t errlen)
{
    if (k <= 1)
        return 0;
    int rc = dilate_check(rf, err, errlen);
    for (size_t i = 0; rc == 0 && i < rf->n_results; i++) {
        sb_result *r = &rf->results[i];
        double f = factor_of(sb_lab_dilate_unit(r->unit), k);
        for (size_t e = 0; e < r->n_entries; e++)
            dilate_entry(&r->entries[e], f, k);
    }
    return rc;
}

int sb_lab_dilate_tests(sb_config *cfg, size_t n, unsigned k, char *err, size_t errlen)
{
    for (size_t i = 0; k > 1 && i < n; i++) {
        const char *why = sb_lab_dilate_refusal(&cfg[i]);
        if (why || !sb_config_is_resolved(&cfg[i])) {
            snprintf(err, errlen, "--vm-dilate: %s: %s", cfg[i].workload->name, why ? why : "not resolved");
            return -EINVAL;
        }
        int row = test_row(cfg[i].workload->name);
        /* The params are the config's own bytes, resolved once before anything runs. */
        if (tests[row].stretch)
            tests[row].stretch(cfg[i].params, k);
    }
    return 0;
}

/* Sets key=value×K in a comma-separated option list, or adds key=dflt×K when absent. */
static void scale_option(char *opts, size_t len, const char *key, unsigned long dflt, unsigned k)
{
    char out[512] = "", buf[512], item[96];
    unsigned long v = dflt;
    snprintf(buf, sizeof buf, "%s", opts);
    size_t kl = strlen(key);
    for (char *save = NULL, *o = strtok_r(buf, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
        if (!strncmp(o, key, kl) && o[kl] == '=') {
            v = strtoul(o + kl + 1, NULL, 10);
            continue; /* written again, scaled, at the end */
        }
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s", out[0] ? "," : "", o);
    }
    snprintf(item, sizeof item, "%s=%lu", key, v * k);
    snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s", out[0] ? "," : "", item);
    snprintf(opts, len, "%s", out);
}

void sb_lab_dilate_config(sb_scn_config *c, unsigned k)
{
    c->time_dilate = k;
    if (k <= 1)
        return;
    /* The kernel's defaults: ext4 and btrfs commit every 5 and 30 s; jbd2 waits at most
     * 15,000 us for more handles before a synchronous commit (ext4's max_batch_time). */
    if (!strcmp(c->filesystem, "ext4")) {
        scale_option(c->mount_options, sizeof c->mount_options, "commit", 5, k);
        scale_option(c->mount_options, sizeof c->mount_options, "max_batch_time", 15000, k);
    } else if (!strcmp(c->filesystem, "btrfs")) {
        scale_option(c->mount_options, sizeof c->mount_options, "commit", 30, k);
    }
}

/* path's number × mul ÷ div (at least lo, at most hi when hi), written back; what was done
 * goes to done. 0 or -errno. */
static int scale_file(const char *path, const char *name, unsigned long mul, unsigned long div, unsigned long lo,
                      unsigned long hi, char *done, size_t len)
{
    char text[64];
    int rc = sb_read_text(path, text, sizeof text);
    if (rc < 0)
        return rc;
    unsigned long v = strtoul(text, NULL, 10), w = v * mul / div;
    w = w < lo ? lo : hi && w > hi ? hi : w;
    snprintf(text, sizeof text, "%lu\n", w);
    if ((rc = sb_write_text(path, text)) < 0)
        return rc;
    if (done)
        snprintf(done + strlen(done), len - strlen(done), "%s%s %lu->%lu%s", done[0] ? ", " : "", name, v, w,
                 hi && v * mul / div > hi ? " (the kernel's most)" : "");
    return 0;
}

int sb_lab_dilate_sysctl(unsigned k, char *done, size_t len)
{
    done[0] = 0;
    if (k <= 1)
        return 0;
    int rc = scale_file("/proc/sys/vm/dirty_expire_centisecs", "vm.dirty_expire_centisecs", k, 1, 0, 0, done, len);
    if (rc == 0)
        rc = scale_file("/proc/sys/vm/dirty_writeback_centisecs", "vm.dirty_writeback_centisecs", k, 1, 0, 0, done,
                        len);
    return rc;
}

void sb_lab_dilate_bcache(const char *backing_name, const char *cset_uuid, unsigned k)
{
    if (k <= 1)
        return;
    /* Seconds and microseconds of the guest's clock ×K; writeback_rate_minimum is a rate
     * (sectors a second) ÷K. The kernel clamps writeback_rate_update_seconds to 1..60. */
    static const struct {
        const char *name;
        bool cset, rate;
        unsigned long hi;
    } knobs[] = {
        {"writeback_rate_update_seconds", false, false, 60}, {"writeback_delay", false, false, 0},
        {"writeback_rate_minimum", false, true, 0},          {"congested_read_threshold_us", true, false, 0},
        {"congested_write_threshold_us", true, false, 0},   {"journal_delay_ms", true, false, 0},
    };
    char done[1024] = "";
    for (size_t i = 0; i < sizeof knobs / sizeof knobs[0]; i++) {
        char path[512];
        if (knobs[i].cset)
            snprintf(path, sizeof path, "/sys/fs/bcache/%s/%s", cset_uuid, knobs[i].name);
        else
            snprintf(path, sizeof path, "/sys/block/%s/bcache/%s", backing_name, knobs[i].name);
        int rc = scale_file(path, knobs[i].name, knobs[i].rate ? 1 : k, knobs[i].rate ? k : 1, knobs[i].rate ? 1 : 0,
                            knobs[i].hi, done, sizeof done);
        if (rc < 0)
            sb_warn("scenario: --vm-dilate: bcache's %s not scaled: %s", knobs[i].name, strerror(-rc));
    }
    printf("storbench-vm: dilated x%u: bcache %s\n", k, done);
    fflush(stdout);
}

uint64_t sb_lab_model_service(sb_dev_model *m, unsigned k, sb_dev_op op, uint64_t off, uint64_t len,
                              uint64_t guest_ns)
{
    return sb_dev_model_service(m, op, off, len, guest_ns / k) * k;
}

uint64_t sb_lab_model_position(const sb_dev_model *m, unsigned k, sb_dev_op op, uint64_t off, uint64_t guest_ns)
{
    return sb_dev_model_position_ns(m, op, off, guest_ns / k) * k;
}

uint64_t sb_lab_model_ready(const sb_dev_model *m, unsigned k, uint64_t guest_ns)
{
    return sb_dev_model_ready_ns(m, guest_ns / k) * k;
}
