/*
 * merge — `storbench merge OUT IN... [--replace]`: joins result files of
 * different identifiers into one comparison. When OUT already exists its
 * content is the starting point (so `merge all new` adds new to all); every
 * IN is then added in order. An identifier that is already there is refused
 * unless --replace, which lets the later file's figures win. OUT is written
 * atomically and only after every input was read and merged, so a failed
 * merge leaves every file as it was. An IN that is OUT itself is skipped.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "core/log.h"
#include "results/result.h"

enum { OPT_REPLACE = 0x2000 };

static void usage(FILE *out)
{
    fprintf(out,
            "usage: storbench merge OUT IN... [--replace] [--results-dir DIR]\n"
            "\n"
            "Joins the systems and figures of every IN into OUT (names or paths). If OUT\n"
            "exists its content is kept and the inputs are added to it. An identifier that\n"
            "is already present is refused unless --replace (then the later one wins).\n"
            "\n"
            "      --replace         let a later file's identifier replace an earlier one\n"
            "      --results-dir DIR where named result files live\n"
            "  -h, --help            this help\n");
}

static bool same_file(const char *a, const struct stat *sb)
{
    struct stat sa;
    return stat(a, &sa) == 0 && sa.st_dev == sb->st_dev && sa.st_ino == sb->st_ino;
}

int sb_cmd_merge(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"replace", no_argument, NULL, OPT_REPLACE},
        {"results-dir", required_argument, NULL, SB_OPT_RESULTS_DIR},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool replace = false;
    const char *results_dir = NULL;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_REPLACE: replace = true; break;
        case SB_OPT_RESULTS_DIR: results_dir = optarg; break;
        case 'h': usage(stdout); return SB_EXIT_OK;
        default: return sb_bad_option("merge", argv, c);
        }
    }
    if (argc - optind < 2)
        return sb_usage_error("merge", "name the output and at least one input (storbench merge OUT IN...)");

    char out_path[PATH_MAX], path[PATH_MAX], err[512];
    int rc = sb_cli_result_path("merge", argv[optind], results_dir, out_path, sizeof out_path);
    if (rc)
        return rc;
    sb_resultfile dst, src;
    sb_resultfile_init(&dst);
    struct stat out_st;
    bool out_exists = stat(out_path, &out_st) == 0;
    if (out_exists && (rc = sb_resultfile_load(out_path, &dst, err, sizeof err)) < 0) {
        sb_error("merge: %s", err);
        goto fail;
    }
    size_t merged = 0;
    for (int i = optind + 1; i < argc; i++) {
        if ((rc = sb_cli_result_path("merge", argv[i], results_dir, path, sizeof path))) {
            sb_resultfile_free(&dst);
            return rc;
        }
        if (out_exists && same_file(path, &out_st))
            continue; /* OUT's content is already the starting point */
        sb_resultfile_init(&src);
        rc = sb_resultfile_load(path, &src, err, sizeof err);
        if (rc == 0)
            rc = sb_resultfile_merge(&dst, &src, replace, err, sizeof err);
        sb_resultfile_free(&src);
        if (rc < 0) {
            if (rc == -EEXIST)
                sb_error("merge: %s: %s", argv[i], err);
            else if (rc == -ENOENT && !strchr(argv[i], '/'))
                sb_error("merge: no result named '%s' (%s does not exist)", argv[i], path);
            else
                sb_error("merge: %s", err);
            goto fail;
        }
        merged++;
    }
    if ((rc = sb_resultfile_save(out_path, &dst, err, sizeof err)) < 0) {
        sb_error("merge: %s", err);
        goto fail;
    }
    printf("merged %zu file%s into %s: %zu systems, %zu results\n", merged, merged == 1 ? "" : "s",
           out_path, dst.n_systems, dst.n_results);
    sb_resultfile_free(&dst);
    return SB_EXIT_OK;
fail:
    sb_resultfile_free(&dst);
    return SB_EXIT_RUNTIME;
}
