/*
 * run — the scenario driver (see run.h): each configuration is built on loop
 * devices over fresh image files or on the real devices the user gave up,
 * described, benchmarked under its identifier, handed to the caller to save
 * (so a configuration's figures are kept as soon as it is done), and torn
 * down by replaying its part of the journal, whatever happened. A
 * configuration that fails or is interrupted adds nothing.
 */
#include "scenario/run.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/interrupt.h"
#include "core/journal.h"
#include "core/log.h"
#include "core/strutil.h"
#include "core/units.h"
#include "runner/runner.h"
#include "scenario/layout.h"
#include "scenario/plan.h"
#include "scenario/modeled.h"
#include "scenario/state.h"
#include "scenario/vm.h"
#include "sysinfo/sysinfo.h"

/* Builds, benchmarks and tears down one configuration. Returns 0 (figures in *fresh),
 * -EINTR, or another -errno after printing why. */
static int one_config(const sb_scn_config *c, size_t index, const sb_scn_run_opts *o, sb_state *st,
                      sb_resultfile *fresh, size_t *done)
{
    char err[1024] = "", uerr[1024] = "";
    sb_device devs[SB_SCN_MAX_DEVICES];
    size_t n = 0, mark = st->n;
    int rc = 0;
    sb_modeled md = {.sock = -1};
    FILE *log = o->verbose ? stdout : NULL;
    *done = 0;
    for (size_t i = 0; i < SB_SCN_MAX_DEVICES; i++)
        devs[i].fd = -1;

    if (o->real) {
        for (n = 0; n < c->devices; n++)
            devs[n] = o->real[n];
    } else {
        char (*img)[PATH_MAX] = sb_xcalloc(SB_SCN_MAX_DEVICES, sizeof *img); /* 64 KiB: on the heap */
        for (n = 0; n < c->devices && rc == 0; n++) {
            snprintf(img[n], sizeof img[n], "%s/storbench-scn-%ld-%zu-%zu.img", o->images, (long)getpid(), index,
                     n);
            rc = sb_image_create(st, img[n], o->image_size, err, sizeof err);
        }
        /* Modeled devices: the loop devices go over the guardian's FUSE files instead. */
        if (rc == 0 && sb_modeled_wanted(c))
            rc = sb_modeled_start(&md, c, img, c->devices, o->images, st, err, sizeof err);
        for (n = 0; n < c->devices && rc == 0; n++) {
            char file[PATH_MAX];
            if (md.pid)
                sb_modeled_file(&md, (unsigned)n, file, sizeof file);
            else
                snprintf(file, sizeof file, "%s", img[n]);
            rc = sb_loop_attach(st, file, &devs[n], err, sizeof err);
            if (rc < 0)
                break;
            if (md.pid)
                snprintf(devs[n].model, sizeof devs[n].model, "%s", c->dev[n].model[0] ? c->dev[n].model : "ram");
            if (log)
                fprintf(log, "attached %s to %s\n", devs[n].path, file);
        }
        free(img); /* the journal copied the names, the forked guardian has its own copy */
    }
    sb_layout lay;
    if (rc == 0 && !sb_interrupted())
        rc = sb_layout_build(c, devs, n, o->images, st, &lay, err, sizeof err);
    if (rc == 0 && sb_interrupted())
        rc = -EINTR;
    if (rc == 0) {
        printf("Built on %s, mounted on %s\n", lay.fs_device, lay.mountpoint);
        fflush(stdout);
        sb_system *sys = sb_resultfile_add_system(fresh, c->identifier);
        sb_sysinfo_collect(sys, lay.mountpoint);
        sb_layout_describe(c, devs, n, &lay, sys);
        sb_system_stamp(sys);
        if (lay.not_applicable[0])
            sb_warn("scenario: %s: %s not accepted by this kernel: recorded as not applicable", c->identifier,
                    lay.not_applicable);

        sb_runner runner;
        sb_runner_init(&runner, lay.mountpoint, c->identifier, fresh);
        runner.runs = o->runs;
        runner.dynamic = !o->exact;
        runner.drop_caches = o->drop;
        runner.time_dilate = c->time_dilate > 1 ? c->time_dilate : 1; /* the lab's guest, dilated */
        for (size_t k = 0; k < o->n_tests && rc == 0; k++) {
            char desc[512];
            sb_config_describe(&o->tests[k], NULL, desc, sizeof desc);
            printf("%s (storbench %s)%s%s%s\n", o->tests[k].workload->title, o->tests[k].workload->name,
                   desc[0] ? " [" : "", desc, desc[0] ? "]" : "");
            fflush(stdout);
            int r = sb_runner_run(&runner, &o->tests[k], err, sizeof err);
            if (r == SB_RUN_SKIPPED)
                sb_warn("%s: skipped: %s", o->tests[k].workload->name, err);
            else if (r < 0)
                rc = r;
            else
                (*done)++;
        }
    }
    /* Tear down whatever happened: close our loop devices, then undo the journal. */
    if (!o->real)
        for (size_t i = 0; i < c->devices; i++) /* also one attached whose journal line failed */
            sb_device_release(&devs[i]);
    int urc = sb_state_undo(st, mark, log, uerr, sizeof uerr);
    sb_modeled_end(&md);
    if (rc < 0 && rc != -EINTR)
        sb_error("scenario: %s: %s", c->identifier, err[0] ? err : strerror(-rc));
    if (urc < 0) {
        sb_error("scenario: %s: cleanup: %s (run 'storbench scenario cleanup' once it is free)", c->identifier,
                 uerr);
        if (rc == 0)
            rc = urc;
    }
    return rc;
}

/* One configuration in a fresh guest: 0 (figures in *fresh), -EINTR, or -errno after
 * printing why. */
static int vm_config(const sb_scn_config *c, size_t index, const sb_scn_run_opts *o, sb_resultfile *fresh,
                     size_t *done)
{
    char err[1024] = "";
    int rc = sb_vm_run_config(o->vm, c, index, o->file, o->guest_args, o->n_guest_args, o->image_size, fresh,
                              err, sizeof err);
    *done = rc == 0 ? fresh->n_results : 0;
    if (rc < 0 && rc != -EINTR)
        sb_error("scenario: %s: %s", c->identifier, err[0] ? err : strerror(-rc));
    return rc;
}

/* host-bound-check: the configuration again with every device a ram model (its twin, the
 * same tests), and each figure of *fresh marked host-bound when the twin's is within 20 %
 * of it (scenario/modeled.h). Under --vm the twin is built in a guest too (the same kernel,
 * image size and guest options, each disk an nbdkit serving the ram model), so that the
 * emulated CPU that bounds the modeled figures bounds the twin's as well. 0, -EINTR, or
 * -errno after printing why. */
static int host_bound_check(const sb_scn_config *c, size_t index, const sb_scn_run_opts *o, sb_state *st,
                            sb_resultfile *fresh)
{
    sb_scn_config twin;
    if (!sb_modeled_twin(c, &twin))
        return 0;
    printf("\n== %s again on device-model = ram (host-bound-check)\n", c->identifier);
    fflush(stdout);
    sb_resultfile ref;
    sb_resultfile_init(&ref);
    size_t done = 0;
    int rc = o->vm ? vm_config(&twin, index, o, &ref, &done) : one_config(&twin, index, o, st, &ref, &done);
    if (rc == 0) {
        size_t n = sb_modeled_mark(fresh, &ref);
        printf("%s: %zu figure%s host-bound (the ram twin within 20 %%)\n", c->identifier, n, n == 1 ? "" : "s");
    }
    sb_resultfile_free(&ref);
    return rc;
}

/* host-bound-check = busy (the device lab only): each figure of *fresh whose test kept the
 * guest's vCPU busy most of its measured window is marked host-bound, with no twin
 * (scenario/modeled.h). A configuration without a model is all the lab's: left unmarked,
 * as the twin rule leaves it. */
static void host_bound_busy(const sb_scn_config *c, sb_resultfile *fresh)
{
    sb_scn_config twin;
    if (!sb_modeled_twin(c, &twin))
        return;
    size_t n = sb_modeled_mark_busy(fresh);
    printf("%s: %zu figure%s host-bound (the lab's vCPU busy %.1f %% of the measured time or more)\n",
           c->identifier, n, n == 1 ? "" : "s", sb_modeled_busy_threshold());
    fflush(stdout);
}

/* The rule host-bound-check asks for, for a configuration whose figures are *fresh: yes is
 * the busy share where its guest ran in the device lab (every figure then has one: a guest
 * that fell back to KVM under --vm-accel auto has none), else the twin. */
static sb_scn_host_bound hb_rule(const sb_scenario *s, const sb_scn_run_opts *o, const sb_resultfile *fresh)
{
    if (s->host_bound_check != SB_SCN_HB_YES)
        return s->host_bound_check == SB_SCN_HB_BUSY && !o->vm ? SB_SCN_HB_NO : s->host_bound_check;
    bool lab = o->vm && fresh->n_results > 0;
    for (size_t i = 0; i < fresh->n_results; i++)
        for (size_t j = 0; j < fresh->results[i].n_entries; j++)
            lab = lab && fresh->results[i].entries[j].has_cpu_busy;
    return lab ? SB_SCN_HB_BUSY : SB_SCN_HB_TWIN;
}

/* Whether a device of some configuration has a device-model. */
static bool uses_models(const sb_scenario *s)
{
    for (size_t i = 0; i < s->n; i++)
        for (unsigned d = 0; d < s->configs[i].devices; d++)
            if (s->configs[i].dev[d].model[0])
                return true;
    return false;
}

/* What killed runs left (their journals say what they made) goes before we make more;
 * one line says so, or which command to run when it cannot all be undone now. */
static void cleanup_killed_runs(bool verbose)
{
    unsigned found = 0, busy = 0;
    char err[1024] = "";
    int rc = sb_state_cleanup(verbose ? stdout : NULL, &found, &busy, err, sizeof err);
    if (rc < 0)
        sb_warn("scenario: could not undo all that a killed run left: %s (run 'storbench scenario cleanup' "
                "once it is free)", err);
    else if (found)
        sb_warn("scenario: removed what %u killed run%s left (the mounts, loop devices and images %s journal%s "
                "in %s named)", found, found == 1 ? "" : "s", found == 1 ? "its" : "their", found == 1 ? "" : "s",
                sb_journal_dir());
}

int sb_scn_run(const sb_scenario *s, const sb_scn_run_opts *o, size_t *saved, size_t *failed)
{
    char err[1024];
    *saved = *failed = 0;
    sb_state st = {.fd = -1};
    /* Under --vm nothing is made on the host but files in a private directory, and the
     * nbdkit of modeled disks (device-model), which is journaled. */
    bool journal = !o->vm || uses_models(s);
    if (journal)
        cleanup_killed_runs(o->verbose);
    if (journal && sb_state_open(&st, err, sizeof err) < 0) {
        sb_error("scenario: %s", err);
        sb_state_close(&st);
        return SB_EXIT_RUNTIME;
    }
    if (o->vm)
        o->vm->st = journal ? &st : NULL;
    sb_interrupt_install();
    int exit_code = SB_EXIT_OK;
    for (size_t i = 0; i < s->n; i++) {
        const sb_scn_config *cfg = &s->configs[i];
        char line[1024];
        sb_scn_plan_line(cfg, line, sizeof line);
        printf("\n== [%zu/%zu] %s: %s\n", i + 1, s->n, cfg->identifier, line);
        fflush(stdout);
        sb_resultfile fresh;
        sb_resultfile_init(&fresh);
        size_t done = 0;
        int rc = o->vm ? vm_config(cfg, i, o, &fresh, &done) : one_config(cfg, i, o, &st, &fresh, &done);
        sb_scn_host_bound hb = rc == 0 && done && !o->real && !sb_interrupted() ? hb_rule(s, o, &fresh) : SB_SCN_HB_NO;
        if (hb == SB_SCN_HB_TWIN)
            rc = host_bound_check(cfg, i, o, &st, &fresh);
        else if (hb == SB_SCN_HB_BUSY)
            host_bound_busy(cfg, &fresh);
        if (rc == -EINTR || sb_interrupted()) {
            sb_error("scenario: interrupted (signal %d) during '%s'; it was torn down, %zu configuration%s "
                     "saved before it", sb_interrupt_signal(), cfg->identifier, *saved, *saved == 1 ? "" : "s");
            exit_code = SB_EXIT_INTERRUPTED;
            sb_resultfile_free(&fresh);
            break;
        }
        if (rc == 0 && done == 0) {
            sb_error("scenario: %s: no test produced a figure", cfg->identifier);
            rc = -EIO;
        }
        if (rc == 0) {
            if (o->save(o->save_arg, cfg, &fresh) < 0)
                rc = -EIO;
            else
                (*saved)++;
        }
        if (rc == 0 && sb_interrupted()) { /* during the save, which was finished: stop here */
            sb_error("scenario: interrupted (signal %d) after saving '%s'; %zu configuration%s saved, "
                     "the rest not built", sb_interrupt_signal(), cfg->identifier, *saved, *saved == 1 ? "" : "s");
            exit_code = SB_EXIT_INTERRUPTED;
            sb_resultfile_free(&fresh);
            break;
        }
        if (rc < 0) {
            (*failed)++;
            exit_code = SB_EXIT_RUNTIME;
        }
        sb_resultfile_free(&fresh);
    }
    if (o->vm)
        o->vm->st = NULL;
    if (journal)
        sb_state_close(&st);
    return exit_code;
}
