/*
 * dd — `storbench dd DIR [--bs SIZE] [--count N] [--data zero|random]`: one
 * run of the dd workload printed as the wiki (seed 004) prints it, three GNU
 * dd summary lines:
 *   Direct write: 1073741824 bytes (1.1 GB, 1.0 GiB) copied, 3.53208 s, 304 MB/s
 *   Direct read:  ...
 *   Read cache:   ...
 * The test file lives in a private directory under DIR and is removed.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/cache.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/units.h"
#include "core/workdir.h"
#include "workloads/registry.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: storbench dd DIR [--bs SIZE] [--count N] [--data zero|random]\n\n"
                 "Writes COUNT blocks of SIZE with O_DIRECT, reads them back with O_DIRECT, then\n"
                 "reads them through the page cache (after one untimed read that fills it), and\n"
                 "prints each as GNU dd does. Defaults: --bs 2048k --count 512 (1 GiB), zeros.\n");
}

int sb_cmd_dd(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"bs", required_argument, NULL, 'b'},
        {"count", required_argument, NULL, 'c'},
        {"data", required_argument, NULL, 'd'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const sb_workload *w = sb_workload_find("dd");
    sb_config cfg;
    sb_config_init(&cfg, w, false);
    char err[512];
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        const char *key = c == 'b' ? "bs" : c == 'c' ? "count" : c == 'd' ? "data" : NULL;
        if (c == 'h') {
            usage(stdout);
            return SB_EXIT_OK;
        }
        if (!key)
            return sb_bad_option("dd", argv, c);
        if (sb_config_set(&cfg, key, optarg, err, sizeof err) < 0)
            return sb_usage_error("dd", "%s", err);
    }
    if (optind != argc - 1)
        return sb_usage_error("dd", "name one directory to test in (storbench dd DIR)");
    if (w->validate(&cfg, err, sizeof err) < 0)
        return sb_usage_error("dd", "%s", err + (strncmp(err, "dd: ", 4) ? 0 : 4));
    const char *target = argv[optind];
    int rc = sb_target_check(target);
    if (rc < 0)
        return sb_usage_error("dd", "%s: %s", target, strerror(-rc));
    uint64_t avail, need = w->space_needed(&cfg);
    if (sb_free_space(target, &avail) == 0 && need > avail) {
        char n[32], a[32];
        sb_format_si(n, sizeof n, (double)need, "B");
        sb_format_si(a, sizeof a, (double)avail, "B");
        sb_error("dd: %s: No space left on device (needs %s, %s free)", target, n, a);
        return SB_EXIT_RUNTIME;
    }

    sb_interrupt_install();
    char dir[PATH_MAX];
    if ((rc = sb_workdir_create(target, dir, sizeof dir)) < 0) {
        sb_error("dd: %s: %s", target, strerror(-rc));
        return SB_EXIT_RUNTIME;
    }
    sb_sample samples[3];
    memset(samples, 0, sizeof samples);
    sb_progress progress;
    sb_progress_init(&progress);
    sb_progress_begin(&progress, "dd", 1, 1);
    sb_run_ctx ctx = {.dir = dir, .target = target, .cfg = &cfg, .run_count = 1,
                      .is_root = sb_is_root(), .progress = &progress};
    rc = w->run(&ctx, samples);
    sb_progress_end(&progress);
    sb_workdir_remove(dir);
    if (sb_interrupted()) {
        sb_error("dd: interrupted; temporary file removed");
        return SB_EXIT_INTERRUPTED;
    }
    if (rc < 0) {
        sb_error("%s", ctx.err);
        return SB_EXIT_RUNTIME;
    }
    static const char *labels[3] = {"Direct write: ", "Direct read:  ", "Read cache:   "};
    for (int m = 0; m < 3; m++) {
        const sb_figure *bytes_fig = sb_sample_figure(&samples[m], "bytes");
        uint64_t bytes = bytes_fig ? (uint64_t)bytes_fig->value : 0;
        char line[256];
        sb_format_dd_line(line, sizeof line, bytes, samples[m].seconds);
        printf("%s%s\n", labels[m], line);
    }
    return SB_EXIT_OK;
}
