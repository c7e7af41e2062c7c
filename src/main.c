/*
 * main — the subcommand table and dispatch; the signal handling every
 * command starts with; and the final check that what a command printed on
 * standard output was written. Each command's
 * implementation is in src/cli/<command>.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/save.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/output.h"
#include "core/ranks.h"

static const sb_command commands[] = {
    {"run", "run tests or suites on a target and add the figures to a result file", sb_cmd_run},
    {"sweep", "run a matrix of I/O jobs (rw, bs, iodepth, numjobs ...) into one result file, resumable", sb_cmd_sweep},
    {"list", "list tests, their options and defaults, and suites", sb_cmd_list},
    {"show", "render a result file: seed text, json, html with charts, csv", sb_cmd_show},
    {"compare", "every identifier against a base: differences, significance, geometric mean", sb_cmd_compare},
    {"merge", "join result files of different identifiers into one", sb_cmd_merge},
    {"plot", "draw result files as an SVG or PNG chart: bars, lines, heat map", sb_cmd_plot},
    {"import", "read a result page (seed text format, or the dd wiki page) into a result file", sb_cmd_import},
    {"sysinfo", "describe this machine and the storage behind a target", sb_cmd_sysinfo},
    {"scenario", "build storage configurations (btrfs RAID, mount options, bcache) and compare them", sb_cmd_scenario},
    {"dd", "the dd direct write / direct read / read cache test, printed like dd", sb_cmd_dd},
    {"io", "run one fio-class I/O job (rw, bs, iodepth, engine ...) and print its figures", sb_cmd_io},
    {"ior", "IOR's data phases with IOR's flags (-t -b -s -F -C -e -w -r), on MPI ranks", sb_cmd_ior},
    {"io500", "IO500's phases in IO500's order from its ini file, the score, a result file", sb_cmd_io500},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
    fprintf(out, "usage: storbench COMMAND [OPTIONS]\n       storbench --help | --version\n\ncommands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'storbench COMMAND --help' describes a command's options.\n");
}

/* A command that printed its output has not succeeded until the output is written: with
 * stdout on a full disk or a closed pipe, say so, naming the errno of the write that failed
 * (core/output.h), and fail (exit 1) instead of exit 0. A result file saved before is
 * safe: say that too, so that nobody runs an hour again for a lost page of output. A
 * signal the command did not answer itself (it had nothing to stop) still ends in 130. */
static int finish(const char *cmd, int rc)
{
    int e = sb_output_stdout_error();
    if (e && rc == SB_EXIT_OK) { /* a command that failed has said why already */
        const char *saved = sb_cli_saved();
        sb_error("%s%scannot write to standard output: %s%s%s%s", cmd ? cmd : "", cmd ? ": " : "",
                 strerror(e), *saved ? " (the result was saved in " : "", saved, *saved ? ")" : "");
        rc = SB_EXIT_RUNTIME;
    }
    if (sb_interrupted() && rc != SB_EXIT_INTERRUPTED) {
        sb_error("%s%sinterrupted (signal %d)", cmd ? cmd : "", cmd ? ": " : "", sb_interrupt_signal());
        rc = SB_EXIT_INTERRUPTED;
    }
    return rc;
}

int main(int argc, char **argv)
{
    /* First, before anything can take time: a signal from now on is answered (exit 130
     * with a line saying so), SIGPIPE no longer kills, and stdout records its errors. */
    sb_signals_init();
    sb_output_track_stdout();
    /* under mpirun: storbench-mpi (docs/mpi.md) */
    int rc = sb_ranks_start(&argc, &argv);
    if (rc >= 0)
        return rc;
    if (argc < 2) {
        usage(stderr);
        return SB_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return finish(NULL, SB_EXIT_OK);
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("storbench %s\n", STORBENCH_VERSION);
        return finish(NULL, SB_EXIT_OK);
    }
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (!strcmp(argv[1], commands[i].name))
            return finish(commands[i].name, commands[i].main(argc - 1, argv + 1));
    sb_error("unknown command '%s' (try 'storbench --help')", argv[1]);
    return SB_EXIT_USAGE;
}
