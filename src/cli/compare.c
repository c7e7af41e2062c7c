/*
 * compare — `storbench compare NAME|FILE... [--base LABEL]`: every identifier
 * of one result file, or of several joined into one comparison, against a
 * base identifier, per test and as a geometric mean (the computation and its
 * definitions are in src/report/compare.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/inputs.h"
#include "core/log.h"
#include "core/output.h"
#include "report/compare.h"
#include "report/overview.h"
#include "results/result.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: storbench compare NAME|FILE... [options]\n"
            "\n"
            "Compares every identifier of the result files (saved names or files; a file of\n"
            "that name in the current directory is read before a saved result) with a base\n"
            "identifier. Several files are joined into one comparison: a test that only some\n"
            "have is listed with the others' rows 'not run', and an identifier an earlier file\n"
            "has already is shown as 'ID (NAME)'. Per test the\n"
            "relative difference, signed so that positive is better than the base (for Lower Is\n"
            "Better tests the ratio is base/value), marked '~' when it lies inside the combined\n"
            "standard error and '?' when a spread is unknown (imported figures, single runs);\n"
            "then per identifier the geometric mean of the ratios over the tests it shares\n"
            "with the base. It starts with the overview: per identifier the geometric mean\n"
            "over all results, the results it wins and those it lacks, and the results too\n"
            "noisy to rank (a figure's relative SD above 10 %%).\n"
            "\n"
            "  -b, --base LABEL        the identifier to compare with (default: the first one)\n"
            "      --results-dir DIR   where named result files live\n"
            "  -h, --help              this text\n"
            "\n"
            "Exit status: 0 done, 1 a file cannot be read or holds no identifiers, 2 bad usage\n"
            "(or a --base the file does not hold).\n");
}

int sb_cmd_compare(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"base", required_argument, NULL, 'b'},
        {"results-dir", required_argument, NULL, SB_OPT_RESULTS_DIR},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *base = NULL, *results_dir = NULL;
    optind = 1;
    opterr = 0; /* one line of our own instead of getopt's */
    int c;
    while ((c = getopt_long(argc, argv, ":b:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'b': base = optarg; break;
        case SB_OPT_RESULTS_DIR: results_dir = optarg; break;
        case 'h': usage(stdout); return SB_EXIT_OK;
        default: return sb_bad_option("compare", argv, c);
        }
    }
    if (optind >= argc)
        return sb_usage_error("compare", "name a result file (storbench compare NAME|FILE...)");
    char err[512];
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    int rc = sb_cli_load_inputs("compare", argv + optind, argc - optind, results_dir, &rf);
    if (rc) {
        sb_resultfile_free(&rf);
        return rc;
    }
    sb_comparison cmp;
    rc = sb_compare(&rf, base, &cmp, err, sizeof err);
    if (rc < 0) {
        size_t n_ids = rf.n_systems;
        sb_resultfile_free(&rf);
        /* An identifier the file lacks is a bad argument (2); a file that holds none is
         * what the file is, with or without --base (1). */
        if (rc == -ENOENT && base && n_ids > 0)
            return sb_usage_error("compare", "%s", err);
        sb_error("compare: %s", err);
        return SB_EXIT_RUNTIME;
    }
    sb_resultfile_make_printable(&rf); /* no ESC or BEL from an identifier on the terminal */
    sb_overview ov;
    if (sb_overview_compute(&rf, base, &ov, err, sizeof err) == 0) {
        sb_overview_text(stdout, &rf, &ov);
        putchar('\n');
        sb_overview_free(&ov);
    }
    rc = sb_report_compare(stdout, &rf, &cmp);
    sb_comparison_free(&cmp);
    sb_resultfile_free(&rf);
    if (rc == -EIO && sb_output_stdout_error()) /* stdio says EIO; the failed write said why */
        rc = -sb_output_stdout_error();
    if (rc < 0) {
        sb_error("compare: cannot write the report: %s", strerror(-rc));
        return SB_EXIT_RUNTIME;
    }
    return SB_EXIT_OK;
}
