/*
 * sweep — `storbench sweep [--rw L] [--bs L] [--iodepth L] [--numjobs L] [--ioengine L]
 * [--rwmixread L] [--direct L] [--jobfile FILE] [-t DIR] [-r NAME] ...`: a matrix of I/O
 * jobs, each cell a run of the fio test with its options set (runner/sweep.h), repeated
 * under the runner's rule like any `run fio`, into one result file: one result per cell,
 * its parameters the result's options. Each cell is saved as soon as it is measured (the
 * save of cli/save.h: lock, re-read, merge, atomic replace), so an interruption loses the
 * cell under way only, and the same command run again skips the cells the file holds for
 * the identifier. Everything that can be refused is refused before the first cell: an
 * unknown parameter, a bad list or value, a job file a cell cannot follow, a matrix of
 * more than 10,000 cells without --yes (exit 2, nothing written).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/save.h"
#include "cli/select.h"
#include "core/clock.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/strutil.h"
#include "core/units.h"
#include "core/workdir.h"
#include "runner/runner.h"
#include "runner/sweep.h"
#include "sysinfo/sysinfo.h"

#define SWEEP_MAX_CELLS 10000 /* more asks for --yes */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: storbench sweep [--rw L] [--bs L] [--iodepth L] [--numjobs L] [--ioengine L]\n"
            "                       [--rwmixread L] [--direct L] [--jobfile FILE] [options]\n"
            "\n"
            "Runs a matrix of I/O jobs on the target: a cell per combination of the listed values,\n"
            "each cell the fio test with those options, repeated until its figure is trustworthy\n"
            "(as 'run fio'), into one result file: a result per cell with its parameters as its\n"
            "options. Each cell is saved when measured; the same command run again skips the cells\n"
            "the result file holds for the identifier, so an interrupted sweep goes on.\n"
            "\n"
            "A list L is values and ranges separated by commas: 1,2,4..256 (A..B doubles from A up\n"
            "to B), 10..90:20 (A..B:S adds S), 4k..1m (sizes double too).\n"
            "  --rw L            read, write, randread, randwrite, rw, randrw (default randwrite)\n"
            "  --bs L            block sizes, 512 to 16m (default 4k)\n"
            "  --iodepth L       I/Os in flight, 1 to 65536 (default 64)\n"
            "  --numjobs L       threads, one file each, 1 to 4096 (default 1)\n"
            "  --ioengine L      posixaio, libaio, io_uring, sync, psync, pvsync, mmap (default posixaio)\n"
            "  --rwmixread L     percent of reads of a mixed rw; a cell with another rw is skipped\n"
            "  --direct L        0 or 1: O_DIRECT (default 1)\n"
            "  --size SIZE       each job's file (default 1g)\n"
            "  --runtime SECS    measured seconds (default 20, --quick 3)\n"
            "  --ramp_time SECS  seconds of I/O before measuring (default 5, --quick 1; or --ramp)\n"
            "  --startdelay SECS idle seconds before the job (default 5, --quick 0)\n"
            "  --jobfile FILE    a fio job file of one job: the base of every cell (the options\n"
            "                    above on the command line win over it)\n"
            "\n"
            "  -t, --target DIR        directory to test in (default: $STORBENCH_TARGET or /var/tmp)\n"
            "  -r, --result NAME       result file (a NAME with '/' is a path; default sweep-HOST)\n"
            "  -i, --identifier LABEL  this configuration's name (default: the hostname)\n"
            "  -n, --runs N            scheduled runs per cell (default 3; at --quick 2)\n"
            "      --exact-runs        run exactly --runs times (no dynamic extra runs)\n"
            "  -q, --quick             the fio test's small scale (short runtime and ramp)\n"
            "      --yes               run a matrix of more than 10,000 cells\n"
            "      --title TEXT        the result file's title (when it is created)\n"
            "      --description TEXT  the result file's description (when it is created)\n"
            "      --no-drop-caches    do not drop the page cache between runs\n"
            "      --results-dir DIR   where named result files live\n"
            "  -Q, --quiet             no progress and no per-cell lines\n"
            "  -h, --help              this text\n"
            "\n"
            "Exit status: 0 done, 1 runtime failure, 2 bad usage (nothing written), 130\n"
            "interrupted (the cells saved so far are kept; run the same command to go on).\n");
}

enum {
    OPT_PARAM = 0x200, /* + the parameter's index (runner/sweep.h) */
    OPT_JOBFILE = 0x300, OPT_YES, OPT_EXACT, OPT_TITLE, OPT_DESC, OPT_NO_DROP,
};

typedef struct sweep_args {
    sb_sweep sw;
    const char *target, *result, *identifier, *results_dir, *title, *description, *jobfile;
    unsigned runs;
    bool exact, yes, drop, quiet;
} sweep_args;

static FILE *chat_to;
static void chat(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void chat(const char *fmt, ...)
{
    if (!chat_to)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(chat_to, fmt, ap);
    va_end(ap);
    fflush(chat_to);
}

/* The options: the parameters' rows first, named as the sweep names them. */
static void longopts_fill(struct option *o)
{
    size_t k = 0;
    for (int p = 0; p < SB_SWEEP_N_PARAMS; p++)
        o[k++] = (struct option){sb_sweep_param_name(p), required_argument, NULL, OPT_PARAM + p};
    static const struct option rest[] = {
        {"ramp", required_argument, NULL, OPT_PARAM + SB_SWEEP_RAMP},
        {"jobfile", required_argument, NULL, OPT_JOBFILE},
        {"target", required_argument, NULL, 't'},
        {"result", required_argument, NULL, 'r'},
        {"identifier", required_argument, NULL, 'i'},
        {"runs", required_argument, NULL, 'n'},
        {"exact-runs", no_argument, NULL, OPT_EXACT},
        {"quick", no_argument, NULL, 'q'},
        {"yes", no_argument, NULL, OPT_YES},
        {"title", required_argument, NULL, OPT_TITLE},
        {"description", required_argument, NULL, OPT_DESC},
        {"no-drop-caches", no_argument, NULL, OPT_NO_DROP},
        {"results-dir", required_argument, NULL, SB_OPT_RESULTS_DIR},
        {"quiet", no_argument, NULL, 'Q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memcpy(o + k, rest, sizeof rest);
}

/* The parameters are parsed after the scan, once --quick is known. -1 after --help. */
static int parse(int argc, char **argv, sweep_args *a, const char **given)
{
    struct option longopts[SB_SWEEP_N_PARAMS + 17];
    longopts_fill(longopts);
    optind = 1;
    opterr = 0;
    int c;
    bool quick = false;
    while ((c = getopt_long(argc, argv, ":t:r:i:n:qQh", longopts, NULL)) != -1) {
        if (c >= OPT_PARAM && c < OPT_PARAM + SB_SWEEP_N_PARAMS) {
            given[c - OPT_PARAM] = optarg;
            continue;
        }
        switch (c) {
        case OPT_JOBFILE: a->jobfile = optarg; break;
        case 't': a->target = optarg; break;
        case 'r': a->result = optarg; break;
        case 'i': a->identifier = optarg; break;
        case 'n':
            if (sb_runs_arg("sweep", optarg, &a->runs))
                return SB_EXIT_USAGE;
            break;
        case OPT_EXACT: a->exact = true; break;
        case 'q': quick = true; break;
        case OPT_YES: a->yes = true; break;
        case OPT_TITLE: a->title = optarg; break;
        case OPT_DESC: a->description = optarg; break;
        case OPT_NO_DROP: a->drop = false; break;
        case SB_OPT_RESULTS_DIR: a->results_dir = optarg; break;
        case 'Q': a->quiet = true; break;
        case 'h': usage(stdout); return -1;
        default: return sb_bad_option("sweep", argv, c);
        }
    }
    if (optind < argc)
        return sb_usage_error("sweep", "unexpected argument '%s' (the parameters are options: --iodepth 1,4)",
                              argv[optind]);
    bool any = a->jobfile != NULL;
    for (int p = 0; p < SB_SWEEP_N_LISTED; p++)
        any = any || given[p];
    if (!any) /* a sweep of nothing would be one run of the fio test at its defaults: say what */
        return sb_usage_error("sweep", "name what to sweep: --rw, --bs, --iodepth, --numjobs, --ioengine, "
                                       "--rwmixread or --direct (a list each), or --jobfile");
    if (a->identifier && !*a->identifier)
        return sb_usage_error("sweep", "--identifier must not be empty");
    if (sb_check_utf8_arg("sweep", "--identifier", a->identifier) ||
        sb_check_utf8_arg("sweep", "--title", a->title) ||
        sb_check_utf8_arg("sweep", "--description", a->description))
        return SB_EXIT_USAGE;
    sb_sweep_init(&a->sw, quick);
    return 0;
}

/* The matrix from the given lists and the job file, checked: 0 or SB_EXIT_USAGE. */
static int build_matrix(sweep_args *a, const char **given)
{
    char err[1024];
    for (int p = 0; p < SB_SWEEP_N_PARAMS; p++)
        if (given[p] && sb_sweep_set(&a->sw, p, given[p], err, sizeof err) < 0)
            return sb_usage_error("sweep", "%s", err);
    if (a->jobfile && sb_sweep_jobfile(&a->sw, a->jobfile, err, sizeof err) < 0)
        return sb_usage_error("sweep", "%s", err);
    size_t n = sb_sweep_cells(&a->sw);
    if (n > SWEEP_MAX_CELLS && !a->yes)
        return sb_usage_error("sweep", "the matrix has %s cells, more than %d: say --yes to run it",
                              n == SIZE_MAX ? "too many" : "so many", SWEEP_MAX_CELLS);
    if (sb_sweep_check_values(&a->sw, err, sizeof err) < 0)
        return sb_usage_error("sweep", "%s", err);
    return 0;
}

typedef struct cell_plan {
    size_t n, to_run, saved, skipped;
    unsigned char *state; /* per cell: 0 to run, 1 saved, 2 skipped */
    double estimate_s;    /* of one cell to run (the fio test's estimate x its runs) */
    char first_skip[1024];
} cell_plan;

/* A line per skipped cell, once it is known that others run (else one line says all are). */
static void say_skipped(const sweep_args *a, const cell_plan *pl, sb_config *cfg)
{
    char err[1024], label[512];
    for (size_t i = 0; i < pl->n; i++)
        if (pl->state[i] == 2) {
            sb_sweep_cell(&a->sw, i, cfg, err, sizeof err);
            sb_sweep_cell_label(&a->sw, i, label, sizeof label);
            sb_warn("sweep: skipped %s: %s", label, err);
        }
}

/* Which cells run, which the file holds, which make no sense. */
static void plan_cells(const sweep_args *a, const sb_resultfile *existing, const char *identifier,
                       sb_config *cfg, cell_plan *pl)
{
    pl->n = sb_sweep_cells(&a->sw);
    pl->state = sb_xrealloc(NULL, pl->n ? pl->n : 1);
    char err[1024], label[512];
    for (size_t i = 0; i < pl->n; i++) {
        int rc = sb_sweep_cell(&a->sw, i, cfg, err, sizeof err);
        if (rc == SB_SWEEP_CELL_SKIP) {
            if (!pl->skipped) {
                sb_sweep_cell_label(&a->sw, i, label, sizeof label);
                snprintf(pl->first_skip, sizeof pl->first_skip, "%.300s: %.700s", label, err);
            }
            pl->state[i] = 2;
            pl->skipped++;
        } else if (sb_sweep_saved(existing, cfg, identifier)) {
            pl->state[i] = 1;
            pl->saved++;
        } else {
            pl->state[i] = 0;
            if (!pl->to_run++) {
                unsigned runs = a->runs ? a->runs : a->sw.quick && cfg->workload->quick_runs
                                                         ? cfg->workload->quick_runs : SB_DEFAULT_RUNS;
                pl->estimate_s = cfg->workload->estimate_seconds(sb_config_params(cfg)) * runs;
            }
        }
    }
}

static void clock_text(char *buf, size_t len, double s)
{
    long t = s < 0 ? 0 : (long)(s + 0.5);
    snprintf(buf, len, "%02ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

typedef struct sweep_state {
    char path[PATH_MAX];
    const char *identifier;
    sb_resultfile base; /* the system description, copied into each cell's figures */
    size_t done;
    double spent_s;     /* seconds of the cells measured so far */
} sweep_state;

/* Measures cell i and saves it. SB_EXIT_OK, SB_EXIT_INTERRUPTED or SB_EXIT_RUNTIME. */
static int run_cell(const sweep_args *a, sweep_state *st, const sb_config *cfg, sb_runner *runner)
{
    char err[1024];
    sb_resultfile fresh;
    sb_resultfile_init(&fresh);
    sb_resultfile_merge(&fresh, &st->base, false, err, sizeof err);
    runner->out = &fresh;
    uint64_t t0 = sb_now_ns();
    int rc = sb_runner_run(runner, cfg, err, sizeof err), code = SB_EXIT_OK;
    if (rc == -EINTR || (rc >= 0 && sb_interrupted())) {
        sb_error("sweep: interrupted (signal %d); %zu cell%s saved in %s: the same command goes on from there",
                 sb_interrupt_signal(), st->done, st->done == 1 ? "" : "s", st->path);
        code = SB_EXIT_INTERRUPTED;
    } else if (rc == SB_RUN_SKIPPED) {
        sb_warn("sweep: skipped: %s", err);
    } else if (rc < 0) {
        sb_error("sweep: %s", err);
        code = SB_EXIT_RUNTIME;
    } else if (sb_result_merge_save("sweep", st->path, a->result, &fresh, false, a->title, a->description,
                                    err, sizeof err) < 0) {
        sb_error("sweep: %s", err);
        code = SB_EXIT_RUNTIME;
    } else {
        st->done++;
        char what[PATH_MAX + 300];
        snprintf(what, sizeof what, "%zu cell%s as '%s' in %s", st->done, st->done == 1 ? "" : "s",
                 st->identifier, st->path);
        code = sb_cli_after_save("sweep", SB_EXIT_OK, what);
    }
    st->spent_s += (double)(sb_now_ns() - t0) / 1e9;
    sb_resultfile_free(&fresh);
    return code;
}

/* Every cell to run, in order, with the matrix's progress line before each. */
static int run_cells(const sweep_args *a, sweep_state *st, const cell_plan *pl, const char *target)
{
    sb_config *cfg = sb_xrealloc(NULL, sizeof *cfg);
    sb_runner runner;
    sb_runner_init(&runner, target, st->identifier, NULL);
    runner.runs = a->runs;
    runner.dynamic = !a->exact;
    runner.drop_caches = a->drop;
    runner.log = chat_to;
    runner.progress.enabled = runner.progress.enabled && !a->quiet;
    int code = SB_EXIT_OK;
    size_t k = 0;
    char err[1024], label[512], eta[32], spent[32];
    for (size_t i = 0; i < pl->n && code == SB_EXIT_OK; i++) {
        if (pl->state[i])
            continue;
        sb_sweep_cell(&a->sw, i, cfg, err, sizeof err); /* planned: it resolves */
        sb_sweep_cell_label(&a->sw, i, label, sizeof label);
        /* the ETA of the whole matrix: the cells left at the mean length of those measured, or
         * at the fio test's own estimate before the first */
        double per = k ? st->spent_s / (double)k : pl->estimate_s;
        clock_text(eta, sizeof eta, per * (double)(pl->to_run - k));
        clock_text(spent, sizeof spent, st->spent_s);
        chat("sweep: cell %zu of %zu: %s  (%s elapsed, matrix ETA %s)\n", k + 1, pl->to_run, label, spent, eta);
        code = run_cell(a, st, cfg, &runner);
        k++;
    }
    free(cfg);
    return code;
}

/* The target's real path (0), or the usage line. */
static int resolve_target(const char *target, char *real)
{
    int rc = sb_target_check(target);
    if (rc == 0 && !realpath(target, real))
        rc = -errno;
    return rc < 0 ? sb_usage_error("sweep", "target %s: %s", target, strerror(-rc)) : 0;
}

/* The result file's path and what it holds now (missing: empty). 0 or the exit code. */
static int open_result(sweep_args *a, char *path, sb_resultfile *existing, char *auto_name, size_t len)
{
    char host[256];
    if (gethostname(host, sizeof host) < 0 || !host[0])
        snprintf(host, sizeof host, "this system");
    host[sizeof host - 1] = '\0';
    if (!a->result) {
        snprintf(auto_name, len, "sweep-%s", host);
        for (char *p = auto_name; *p; p++)
            *p = *p == '/' ? '-' : *p;
        a->result = auto_name;
    }
    int rc = sb_cli_result_path("sweep", a->result, a->results_dir, path, PATH_MAX);
    if (rc)
        return rc;
    char err[1024];
    rc = sb_resultfile_load(path, existing, err, sizeof err);
    if (rc < 0 && rc != -ENOENT) {
        sb_error("sweep: %s", err);
        return SB_EXIT_RUNTIME;
    }
    return 0;
}

static int sweep_main(sweep_args *a, const char **given)
{
    int rc = build_matrix(a, given);
    char target_real[PATH_MAX], auto_name[300], host[256];
    if (rc || (rc = resolve_target(a->target, target_real)))
        return rc;
    sweep_state st = {.identifier = a->identifier};
    if (!st.identifier) {
        if (gethostname(host, sizeof host) < 0 || !host[0])
            snprintf(host, sizeof host, "this system");
        host[sizeof host - 1] = '\0';
        st.identifier = host;
    }
    sb_resultfile existing;
    sb_resultfile_init(&existing);
    if ((rc = open_result(a, st.path, &existing, auto_name, sizeof auto_name))) {
        sb_resultfile_free(&existing);
        return rc;
    }
    cell_plan pl = {0};
    sb_config *cfg = sb_xrealloc(NULL, sizeof *cfg);
    plan_cells(a, &existing, st.identifier, cfg, &pl);
    sb_resultfile_free(&existing);
    if (!pl.to_run && !pl.saved) {
        free(cfg);
        free(pl.state);
        return sb_usage_error("sweep", "every cell of the matrix is skipped: %s", pl.first_skip);
    }
    say_skipped(a, &pl, cfg);
    free(cfg);
    if (!pl.to_run) {
        free(pl.state);
        chat("sweep: all %zu cells are saved as '%s' in %s already\n", pl.saved, st.identifier, st.path);
        return SB_EXIT_OK;
    }
    if (pl.saved)
        chat("sweep: %zu of %zu cells are saved as '%s' in %s already: running the other %zu\n", pl.saved,
             pl.n - pl.skipped, st.identifier, st.path, pl.to_run);
    sb_resultfile_init(&st.base);
    sb_system *sys = sb_resultfile_add_system(&st.base, st.identifier);
    sb_sysinfo_collect(sys, target_real);
    sb_system_stamp(sys);
    rc = run_cells(a, &st, &pl, target_real);
    if (rc == SB_EXIT_OK)
        chat("sweep: %zu cell%s measured and saved as '%s' in %s\n", st.done, st.done == 1 ? "" : "s",
             st.identifier, st.path);
    sb_resultfile_free(&st.base);
    free(pl.state);
    return rc;
}

int sb_cmd_sweep(int argc, char **argv)
{
    sweep_args a = {.target = getenv("STORBENCH_TARGET"), .drop = true};
    if (!a.target || !*a.target)
        a.target = "/var/tmp";
    const char *given[SB_SWEEP_N_PARAMS] = {0};
    int rc = parse(argc, argv, &a, given);
    if (rc)
        return rc < 0 ? SB_EXIT_OK : rc;
    chat_to = a.quiet ? NULL : stdout;
    sb_interrupt_install();
    rc = sweep_main(&a, given);
    sb_sweep_free(&a.sw);
    return rc;
}
