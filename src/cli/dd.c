/*
 * dd — `storbench dd DIR [--bs SIZE] [--count N] [--data zero|random]
 * [--wiki "Machine description"]`: one run of the dd workload printed as the
 * wiki (seed 004) prints it, three GNU dd summary lines:
 *   Direct write: 1073741824 bytes (1.1 GB, 1.0 GiB) copied, 3.53208 s, 304 MB/s
 *   Direct read:  ...
 *   Read cache:   ...
 * With --wiki, as a block to paste into the page (formats/ddwiki.c): its
 * heading and the three lines in <code>, which `storbench import` reads back.
 * The test file lives in a private directory under DIR and is removed.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/cache.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/units.h"
#include "core/workdir.h"
#include "formats/ddwiki.h"
#include "workloads/registry.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: storbench dd DIR [--bs SIZE] [--count N] [--data zero|random] [--wiki TEXT]\n\n"
                 "Writes COUNT blocks of SIZE with O_DIRECT, reads them back with O_DIRECT, then\n"
                 "reads them through the page cache (after one untimed read that fills it), and\n"
                 "prints each as GNU dd does. Defaults: --bs 2048k --count 512 (1 GiB), zeros.\n\n"
                 "  --wiki TEXT   print a block for the dd wiki page instead: the heading\n"
                 "                ==== TEXT ==== and the three lines in <code> (the wiki's\n"
                 "                test: --bs 2048k and zeros; any --count)\n");
}

/* --wiki: a heading that reads back as itself, and the wiki's own test. A page's block
 * does not say its block size or data, and `import` reads it as bs=2048k of zeros (the
 * page's command): a run with other settings would be filed under the wrong options. */
static int check_wiki(const sb_config *cfg, const char *heading)
{
    const char *problem = sb_ddwiki_heading_problem(heading);
    if (problem)
        return sb_usage_error("dd", "--wiki: the machine description %s", problem);
    if (sb_check_utf8_arg("dd", "--wiki", heading))
        return SB_EXIT_USAGE;
    uint64_t bs = sb_config_u(cfg, "bs"); /* 0 when it is not a size: dd's check says so */
    if (bs && bs != 2048 * 1024)
        return sb_usage_error("dd", "--wiki prints the wiki's test, bs=2048k: the page's blocks "
                              "do not say their block size (drop --bs %s)", sb_config_get(cfg, "bs"));
    if (strcmp(sb_config_get(cfg, "data"), "zero"))
        return sb_usage_error("dd", "--wiki prints the wiki's test, which writes zeros: the "
                              "page's blocks do not say their data (drop --data %s)",
                              sb_config_get(cfg, "data"));
    return 0;
}

/* The workload's messages start with "dd: ", which sb_usage_error() adds itself. */
static const char *unprefixed(const char *err)
{
    return strncmp(err, "dd: ", 4) ? err : err + 4;
}

int sb_cmd_dd(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"bs", required_argument, NULL, 'b'},
        {"count", required_argument, NULL, 'c'},
        {"data", required_argument, NULL, 'd'},
        {"wiki", required_argument, NULL, 'w'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const sb_workload *w = sb_workload_find("dd");
    sb_config cfg;
    sb_config_init(&cfg, w, false);
    char err[512];
    const char *wiki = NULL;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        const char *key = c == 'b' ? "bs" : c == 'c' ? "count" : c == 'd' ? "data" : NULL;
        if (c == 'h') {
            usage(stdout);
            return SB_EXIT_OK;
        }
        if (c == 'w') {
            wiki = optarg;
            continue;
        }
        if (!key)
            return sb_bad_option("dd", argv, c);
        if (sb_config_set(&cfg, key, optarg, err, sizeof err) < 0)
            return sb_usage_error("dd", "%s", unprefixed(err));
    }
    if (optind != argc - 1)
        return sb_usage_error("dd", "name one directory to test in (storbench dd DIR)");
    int rc;
    if (sb_config_resolve(&cfg, err, sizeof err) < 0)
        return sb_usage_error("dd", "%s", unprefixed(err));
    if (wiki && (rc = check_wiki(&cfg, wiki)))
        return rc;
    const char *target = argv[optind];
    rc = sb_target_check(target);
    if (rc < 0)
        return sb_usage_error("dd", "%s: %s", target, strerror(-rc));
    uint64_t avail, need = w->space_needed(sb_config_params(&cfg));
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
    rc = w->run(&ctx, sb_config_params(&cfg), samples);
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
    uint64_t bytes[3];
    double seconds[3];
    for (int m = 0; m < 3; m++) {
        const sb_figure *bytes_fig = sb_sample_figure(&samples[m], "bytes");
        bytes[m] = bytes_fig ? (uint64_t)bytes_fig->value : 0;
        seconds[m] = samples[m].seconds;
    }
    if (wiki)
        sb_ddwiki_block(stdout, wiki, bytes, seconds);
    else
        sb_ddwiki_lines(stdout, bytes, seconds);
    return SB_EXIT_OK;
}
