/*
 * merge — `storbench merge OUT IN... [--replace]`: joins result files of
 * different identifiers into one comparison. When OUT already exists its
 * content is the starting point (so `merge all new` adds new to all); every
 * IN is then added in order. An identifier that is already there is refused
 * unless --replace, which lets the later file's figures win. OUT is locked,
 * re-read, merged into and written atomically (cli/save.h), and only after
 * every input was read and merged, so a failed merge leaves every file as it
 * was and one beside a `run` into OUT loses neither's systems. An IN that is
 * OUT itself is skipped.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/save.h"
#include "core/log.h"
#include "core/strutil.h"
#include "results/result.h"

enum { OPT_REPLACE = 0x2000 };

static void usage(FILE *out)
{
    fprintf(out,
            "usage: storbench merge OUT IN... [--replace] [--results-dir DIR]\n"
            "\n"
            "Joins the systems and figures of every IN into OUT (saved names or files; a file\n"
            "of that name in the current directory is taken before a saved result). If OUT\n"
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

struct inputs {
    char **argv;
    char (*paths)[PATH_MAX]; /* argv[i]'s file, placed before the lock is taken */
    int n;
    const char *results_dir, *out_path;
    bool replace;
    size_t merged, n_systems, n_results;
};

/* Under OUT's lock, with dst the file as it is now: every IN added in order. An input's
 * file may be replaced meanwhile by another command's atomic save: it is read whole, the
 * old or the new, without its lock. */
static int merge_inputs(sb_resultfile *dst, void *arg, char *err, size_t errlen)
{
    struct inputs *in = arg;
    struct stat out_st;
    bool out_exists = stat(in->out_path, &out_st) == 0;
    char why[768];
    for (int i = 0; i < in->n; i++) {
        const char *path = in->paths[i];
        int rc;
        if (out_exists && same_file(path, &out_st))
            continue; /* OUT's content is already the starting point */
        sb_resultfile src;
        sb_resultfile_init(&src);
        rc = sb_resultfile_load(path, &src, why, sizeof why);
        if (rc == 0)
            rc = sb_resultfile_merge(dst, &src, in->replace, why, sizeof why);
        sb_resultfile_free(&src);
        if (rc == -EEXIST)
            snprintf(err, errlen, "%s: %s", in->argv[i], why);
        else if (rc == -ENOENT && !strchr(in->argv[i], '/'))
            snprintf(err, errlen, "no result named '%s' (%s does not exist)", in->argv[i], path);
        else if (rc < 0)
            snprintf(err, errlen, "%s", why);
        if (rc < 0)
            return rc;
        in->merged++;
    }
    in->n_systems = dst->n_systems;
    in->n_results = dst->n_results;
    return 0;
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

    char out_path[PATH_MAX], err[1024];
    int rc = sb_cli_input_path("merge", argv[optind], results_dir, out_path, sizeof out_path);
    if (rc)
        return rc;
    struct inputs in = {.argv = argv + optind + 1, .n = argc - optind - 1, .results_dir = results_dir,
                        .out_path = out_path, .replace = replace};
    in.paths = sb_xrealloc(NULL, (size_t)in.n * sizeof *in.paths);
    for (int i = 0; i < in.n; i++) /* every name placed before the lock is taken */
        if ((rc = sb_cli_input_path("merge", in.argv[i], results_dir, in.paths[i], PATH_MAX))) {
            free(in.paths);
            return rc;
        }
    if ((rc = sb_cli_interrupted_before_save("merge", NULL))) {
        free(in.paths);
        return rc;
    }
    rc = sb_cli_update_result("merge", out_path, merge_inputs, &in, err, sizeof err);
    free(in.paths);
    if (rc < 0) {
        sb_error("merge: %s", err);
        return sb_cli_after_save("merge", SB_EXIT_RUNTIME, out_path);
    }
    printf("merged %zu file%s into %s: %zu systems, %zu results\n", in.merged, in.merged == 1 ? "" : "s",
           out_path, in.n_systems, in.n_results);
    return sb_cli_after_save("merge", SB_EXIT_OK, out_path);
}
