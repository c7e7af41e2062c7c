/*
 * run — `storbench run TEST|SUITE... [--target DIR] [--result NAME --identifier LABEL]`.
 *
 * Everything that can be refused is refused before the first test starts:
 * unknown tests, suites and option values, a bad target, a result file that
 * cannot be read, a figure the identifier already has for the same test and
 * options without --replace (a new test joins the identifier's others). The new
 * figures are collected in memory and merged into the result file once, at
 * the end, with an atomic replace under the file's lock (cli/save.h), into
 * the file as it is then: what other commands saved while this one measured
 * is kept. A failed run, or one interrupted before the save, leaves the file
 * exactly as it was; one interrupted during the save finishes it and says so.
 * Without --result (and $TEST_RESULTS_NAME, as PTS reads it) the figures go to
 * a new result named after the date and host, unless --no-save.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/run.h"
#include "cli/common.h"
#include "cli/select.h"
#include "runner/run_ranks.h"
#include "runner/selection.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/strutil.h"
#include "core/units.h"
#include "core/workdir.h"
#include "sysinfo/sysinfo.h"
#include "cli/save.h"
#include "core/ranks.h"
#include "report/cdm_table.h"
#include "runner/preflight.h"
#include "runner/runner.h"


static void usage(FILE *out)
{
    fprintf(out,
            "usage: storbench run TEST|SUITE... [options]\n"
            "\n"
            "Runs each test (or every test of each suite) on the target directory, repeating it\n"
            "until the figure is trustworthy, and adds the figures to a result file.\n"
            "\n"
            "  -t, --target DIR        directory to test in (default: $STORBENCH_TARGET or /var/tmp)\n"
            "  -r, --result NAME       result file to add this system to (a NAME with '/' is a path;\n"
            "                          default: $TEST_RESULTS_NAME, else a new result named after\n"
            "                          the date and host, YYYY-MM-DD-HHMM-HOST)\n"
            "  -i, --identifier LABEL  this configuration's name in the comparison (default:\n"
            "                          $TEST_RESULTS_IDENTIFIER, else the hostname)\n"
            "      --no-save           save nothing (the figures on stdout only)\n"
            "  -n, --runs N            scheduled runs per test (default 3; at --quick 3, dbench and fio 2);\n"
            "                          the run rule may add more, not at --quick\n"
            "      --exact-runs        run exactly --runs times (no dynamic extra runs)\n"
            "  -q, --quick             the documented small scale of every test\n"
            "  -o, --option KEY=VALUE  set a test option (repeatable; see 'storbench list')\n"
            "                          TEST:KEY=VALUE,KEY=VALUE sets options of one test only\n"
            "      --replace           measure again a test the identifier already has (same\n"
            "                          options): that figure is replaced, its other tests kept\n"
            "      --title TEXT        the result file's title (when it is created)\n"
            "      --description TEXT  the result file's description (when it is created;\n"
            "                          default: $TEST_RESULTS_DESCRIPTION)\n"
            "      --no-drop-caches    do not drop the page cache between runs\n"
            "      --results-dir DIR   where named result files live\n"
            "      --require-all       refuse to start (exit 1, with the reasons) when a selected\n"
            "                          test cannot run here, and stop when one is skipped;\n"
            "                          without it such a test is skipped with a warning\n"
            "  -Q, --quiet             no progress line and no per-test lines (errors and\n"
            "                          warnings still go to stderr)\n"
            "  -f, --format FORMAT     text (default) or json: the measured figures as a result\n"
            "                          file's JSON on stdout, the per-test lines on stderr\n"
            "  -v, --verbose           say more\n"
            "  -h, --help              this text\n"
            "\n"
            "Suites: 'storbench list'. Exit status: 0 done, 1 runtime failure, 2 bad usage,\n"
            "130 interrupted (before the save the result file is left as it was; a save\n"
            "under way is finished, and said so).\n");
}

/* Where the per-test lines go: stdout, stderr under --format json (stdout is the
 * JSON), nowhere under --quiet. */
static FILE *run_chat;

static void chat(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void chat(const char *fmt, ...)
{
    if (!run_chat)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(run_chat, fmt, ap);
    va_end(ap);
    fflush(run_chat);
}

static void default_identifier(char *buf, size_t len)
{
    if (gethostname(buf, len) < 0 || !buf[0])
        snprintf(buf, len, "this system");
    buf[len - 1] = 0;
}

/* The texts the result file will store: an identifier only with a result file and never
 * empty, everything valid UTF-8 — refused now, not after the benchmark, when the save could
 * not store them. 0 or SB_EXIT_USAGE. */
static int check_texts(const char *identifier, const char *result, const char *title, const char *description,
                       char **assignments, size_t n_assign)
{
    if (identifier && !*identifier)
        return sb_usage_error("run", "--identifier must not be empty");
    if (sb_check_utf8_arg("run", "--result", result))
        return SB_EXIT_USAGE;
    if (sb_check_utf8_arg("run", "--identifier", identifier) ||
        sb_check_utf8_arg("run", "--title", title) ||
        sb_check_utf8_arg("run", "--description", description))
        return SB_EXIT_USAGE;
    for (size_t i = 0; i < n_assign; i++)
        if (sb_check_utf8_arg("run", "--option", assignments[i]))
            return SB_EXIT_USAGE;
    return 0;
}

/* The name of the result a run without --result saves into, as PTS names one ("Y-m-d-Hi",
 * local time) with the host added: "2026-12-01-2104-build1". The host keeps letters, digits,
 * '.', '_' and '-' (lowercased, as PTS lowercases a new save name); others become '-'. */
static void default_result(char *buf, size_t len)
{
    char host[256];
    default_identifier(host, sizeof host);
    for (char *p = host; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        *p = (ch < 128 && (isalnum(ch) || ch == '.' || ch == '_' || ch == '-')) ? (char)tolower(ch) : '-';
    }
    time_t now = time(NULL);
    struct tm tm;
    char stamp[32] = "result";
    if (localtime_r(&now, &tm))
        strftime(stamp, sizeof stamp, "%Y-%m-%d-%H%M", &tm);
    snprintf(buf, len, "%s-%s", stamp, host);
}

/* Loads the result file NAME (a missing one is empty) into existing and settles the
 * identifier (--identifier, else the host name), refusing a figure the identifier already
 * has for a selected test with the same options unless replace. Without a result file only
 * the identifier is set. 0, or SB_EXIT_USAGE / SB_EXIT_RUNTIME after printing why. */
/* The save makes a lock and a temporary file beside the result file: a directory that
 * cannot take them (read-only, not ours) is refused now, before hours of measurement,
 * not at the save. A directory still to be made is judged by its nearest existing
 * ancestor, where the save would make it. */
static int check_result_dir(const char *path)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    for (;;) {
        char *slash = strrchr(dir, '/');
        if (!slash)
            snprintf(dir, sizeof dir, ".");
        else if (slash == dir)
            dir[1] = '\0';
        else
            *slash = '\0';
        if (access(dir, F_OK) == 0 || !slash || slash == dir)
            break;
    }
    if (access(dir, W_OK | X_OK) < 0) {
        sb_error("run: %s: cannot save there: %s: %s", path, dir, strerror(errno));
        return SB_EXIT_RUNTIME;
    }
    return 0;
}

static int open_result(const char *result, const char *results_dir, const sb_selection *sel,
                       bool replace, const char **identifier, char *ident_buf, size_t ident_len,
                       char *path, sb_resultfile *existing)
{
    if (!result) {
        if (!*identifier) {
            default_identifier(ident_buf, ident_len);
            *identifier = ident_buf;
        }
        return 0;
    }
    int rc;
    char err[1024];
    if ((rc = sb_cli_result_path("run", result, results_dir, path, PATH_MAX)) ||
        (rc = check_result_dir(path)))
        return rc;
    rc = sb_resultfile_load(path, existing, err, sizeof err);
    if (rc < 0 && rc != -ENOENT) {
        sb_error("run: %s", err);
        return SB_EXIT_RUNTIME;
    }
    if (!*identifier) {
        default_identifier(ident_buf, ident_len);
        *identifier = ident_buf;
    }
    /* the save's own rule (sb_resultfile_merge_figures), on what the run will add */
    sb_resultfile probe;
    sb_resultfile_init(&probe);
    sb_selection_probe(sel, *identifier, &probe);
    rc = sb_resultfile_merge_figures(existing, &probe, replace, err, sizeof err);
    sb_resultfile_free(&probe);
    if (rc < 0) {
        sb_error("run: %s: %s", path, err);
        return SB_EXIT_RUNTIME;
    }
    return 0;
}

/* Runs every selected test in turn; a skipped one is a warning (an error with require_all),
 * a failure or an interrupt stops. SB_EXIT_OK, SB_EXIT_RUNTIME or SB_EXIT_INTERRUPTED;
 * *done counts figures made. */
static int run_selection(sb_runner *runner, const sb_selection *sel, bool to_file, bool require_all,
                         size_t *done)
{
    char err[1024];
    int exit_code = SB_EXIT_OK;
    for (size_t k = 0; k < sel->n && exit_code == SB_EXIT_OK; k++) {
        char desc[512];
        sb_config_describe(&sel->cfg[k], NULL, desc, sizeof desc);
        chat("%s (storbench %s)%s%s%s\n", sel->cfg[k].workload->title, sel->cfg[k].workload->name,
             desc[0] ? " [" : "", desc, desc[0] ? "]" : "");
        int rc = sb_runner_run(runner, &sel->cfg[k], err, sizeof err);
        if (rc == SB_RUN_SKIPPED && require_all) {
            sb_error("run: %s: cannot run here (--require-all): %s", sel->cfg[k].workload->name, err);
            exit_code = SB_EXIT_RUNTIME;
        } else if (rc == SB_RUN_SKIPPED) {
            sb_warn("%s: skipped: %s", sel->cfg[k].workload->name, err);
        } else if (rc == -EINTR) {
            sb_error("run: interrupted (signal %d); temporary files removed, %s", sb_interrupt_signal(),
                     to_file ? "result file unchanged" : "nothing saved");
            exit_code = SB_EXIT_INTERRUPTED;
        } else if (rc < 0) {
            sb_error("%s", err);
            exit_code = SB_EXIT_RUNTIME;
        } else {
            (*done)++;
        }
    }
    return exit_code;
}

/* Merges the fresh figures into the result file as it is now (re-read under its lock) with
 * one atomic save. A signal before it saves nothing; one during it is reported after it.
 * SB_EXIT_OK, SB_EXIT_INTERRUPTED, or SB_EXIT_RUNTIME after printing why. */
static int save_figures(char *path, const char *result, bool named, const char *results_dir,
                        const sb_resultfile *fresh, bool replace, const char *title,
                        const char *description, const char *identifier, size_t done)
{
    char err[1024], what[PATH_MAX + 300];
    if (done == 0 && !named) /* every test skipped (each said why): no result of its own to make */
        return SB_EXIT_OK;
    if (done == 0) {
        sb_error("run: no test produced a figure; %s unchanged", path);
        return SB_EXIT_RUNTIME;
    }
    int rc = sb_cli_interrupted_before_save("run", named ? path : NULL);
    if (rc)
        return rc;
    rc = SB_EXIT_OK;
    /* without --result: a result file of its own (another run of this minute has the name:
     * the next free suffix), never merged into another run's */
    if (named ? sb_result_merge_save("run", path, result, fresh, replace, title, description, err,
                                     sizeof err) < 0
              : sb_result_save_new("run", results_dir, result, fresh, title, description, path,
                                   PATH_MAX, err, sizeof err) < 0) {
        sb_error("run: %s", err);
        rc = SB_EXIT_RUNTIME;
    } else {
        chat("Saved %zu test%s as '%s' in %s\n", done, done == 1 ? "" : "s", identifier, path);
    }
    snprintf(what, sizeof what, "'%s' in %s", identifier, path);
    return sb_cli_after_save("run", rc, what);
}

/* PTS's environment (docs/pts.md, "A PTS user's habits"): $TEST_RESULTS_NAME,
 * $TEST_RESULTS_IDENTIFIER and $TEST_RESULTS_DESCRIPTION stand for --result, --identifier and
 * --description when those are not given (an empty one is not set). Without a result name
 * and without --no-save, *result is a new default one (default_result) in auto_name.
 * 0, or SB_EXIT_USAGE for --no-save with --result or --replace. */
static int pts_defaults(const char **result, const char **identifier, const char **description,
                        bool no_save, bool replace, char *auto_name, size_t len)
{
    if (no_save && (*result || replace))
        return sb_usage_error("run", "--no-save and %s contradict each other",
                              *result ? "--result" : "--replace");
    const char *env;
    if (!*result && !no_save && (env = getenv("TEST_RESULTS_NAME")) && *env)
        *result = env;
    if (!*identifier && (env = getenv("TEST_RESULTS_IDENTIFIER")) && *env)
        *identifier = env;
    if (!*description && (env = getenv("TEST_RESULTS_DESCRIPTION")) && *env)
        *description = env;
    if (!*result && !no_save) {
        default_result(auto_name, len);
        *result = auto_name;
    }
    return 0;
}

/* The options of `run`. */
enum { OPT_REPLACE = 0x100, OPT_TITLE, OPT_DESC, OPT_NO_DROP, OPT_EXACT, OPT_REQUIRE_ALL, OPT_NO_SAVE };
static const struct option run_longopts[] = {
    {"target", required_argument, NULL, 't'},
    {"result", required_argument, NULL, 'r'},
    {"identifier", required_argument, NULL, 'i'},
    {"runs", required_argument, NULL, 'n'},
    {"quick", no_argument, NULL, 'q'},
    {"option", required_argument, NULL, 'o'},
    {"replace", no_argument, NULL, OPT_REPLACE},
    {"no-save", no_argument, NULL, OPT_NO_SAVE},
    {"title", required_argument, NULL, OPT_TITLE},
    {"description", required_argument, NULL, OPT_DESC},
    {"no-drop-caches", no_argument, NULL, OPT_NO_DROP},
    {"exact-runs", no_argument, NULL, OPT_EXACT},
    {"results-dir", required_argument, NULL, SB_OPT_RESULTS_DIR},
    {"require-all", no_argument, NULL, OPT_REQUIRE_ALL},
    {"quiet", no_argument, NULL, 'Q'},
    {"format", required_argument, NULL, 'f'},
    {"verbose", no_argument, NULL, 'v'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* The target must exist and be a directory we can use (under MPI, on every host): 0 with
 * its real path in real, or SB_EXIT_USAGE after printing why. */
static int resolve_target(const char *target, char *real)
{
    int rc = sb_target_check(target);
    if (rc == 0 && !realpath(target, real))
        rc = -errno;
    if (sb_ranks_active()) { /* a target one host lacks stops every rank */
        char msg[PATH_MAX + 64];
        snprintf(msg, sizeof msg, "target %s: %s", target, strerror(-rc));
        if (sb_run_ranks_verdict(rc < 0 ? SB_EXIT_USAGE : 0, msg))
            return SB_EXIT_USAGE;
    }
    if (rc < 0)
        return sb_usage_error("run", "target %s: %s", target, strerror(-rc));
    return 0;
}

/* Under MPI: every selected test runs on ranks, else the usage line. */
static int ranks_check(const sb_selection *sel)
{
    char why[512];
    return sb_run_ranks_check(sel, why, sizeof why) < 0 ? sb_usage_error("run", "%s", why) : 0;
}

/* --require-all: every selection's preflight, before anything is measured. 0, or
 * SB_EXIT_RUNTIME after one line per test that cannot run here. */
static int require_runnable(const sb_selection *sel, const char *target)
{
    size_t missing = 0;
    char first[1200] = "";
    for (size_t k = 0; k < sel->n; k++) {
        char why[1024];
        if (sb_preflight(&sel->cfg[k], target, why, sizeof why) < 0) {
            if (!missing)
                snprintf(first, sizeof first, "%s: cannot run here (--require-all): %s",
                         sel->cfg[k].workload->name, why);
            if (!sb_ranks_active())
                sb_error("run: %s: cannot run here: %s", sel->cfg[k].workload->name, why);
            missing++;
        }
    }
    /* under MPI, one host that lacks a tool stops every rank, with that rank's line (a rank
     * returning alone would leave the others waiting for it) */
    if (sb_ranks_active())
        return sb_run_ranks_verdict(missing ? SB_EXIT_RUNTIME : 0, first) ? SB_EXIT_RUNTIME : 0;
    if (missing)
        sb_error("run: %zu of %zu selected tests cannot run here (--require-all); nothing measured "
                 "('storbench list --check' says why; without --require-all they are skipped)",
                 missing, sel->n);
    return missing ? SB_EXIT_RUNTIME : 0;
}

/* --format: 0 with *json set, or SB_EXIT_USAGE. */
static int format_arg(const char *arg, bool *json)
{
    if (strcmp(arg, "text") && strcmp(arg, "json"))
        return sb_usage_error("run", "unknown format '%s' (text or json)", arg);
    *json = !strcmp(arg, "json");
    return 0;
}

/* --format json: the fresh figures, in the result file's schema, on stdout. */
static int print_figures_json(const sb_resultfile *fresh)
{
    char *text = sb_resultfile_to_json(fresh);
    if (!text) {
        sb_error("run: out of memory");
        return SB_EXIT_RUNTIME;
    }
    printf("%s\n", text);
    free(text);
    return fflush(stdout) == 0 ? SB_EXIT_OK : SB_EXIT_RUNTIME;
}

void sb_run_opts_init(sb_run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->target = getenv("STORBENCH_TARGET");
    if (!o->target || !*o->target)
        o->target = "/var/tmp";
    o->drop = true;
}

void sb_run_opts_free(sb_run_opts *o)
{
    free(o->names);
    o->names = NULL;
    o->n_names = 0;
}

int sb_run_opts_parse(sb_run_opts *o, int argc, char **argv)
{
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":t:r:i:n:qo:Qf:vh", run_longopts, NULL)) != -1) {
        switch (c) {
        case 't': o->target = optarg; break;
        case 'r': o->result = optarg; break;
        case 'i': o->identifier = optarg; break;
        case 'n':
            if (sb_runs_arg("run", optarg, &o->runs))
                return SB_EXIT_USAGE;
            break;
        case 'q': o->quick = true; break;
        case 'o':
            if (sb_assignment_arg("run", optarg, o->assignments, &o->n_assign))
                return SB_EXIT_USAGE;
            break;
        case OPT_REPLACE: o->replace = true; break;
        case OPT_NO_SAVE: o->no_save = true; break;
        case OPT_TITLE: o->title = optarg; break;
        case OPT_DESC: o->description = optarg; break;
        case OPT_NO_DROP: o->drop = false; break;
        case OPT_EXACT: o->exact = true; break;
        case OPT_REQUIRE_ALL: o->require_all = true; break;
        case 'Q': o->quiet = true; break;
        case 'f': if (format_arg(optarg, &o->json)) return SB_EXIT_USAGE; break;
        case SB_OPT_RESULTS_DIR: o->results_dir = optarg; break;
        case 'v': break; /* accepted: nothing `run` prints has a longer form */
        case 'h': usage(stdout); o->help = true; return SB_EXIT_OK;
        default: return sb_bad_option("run", argv, c);
        }
    }
    o->names = sb_xrealloc(o->names, (o->n_names + (size_t)(argc - optind) + 1) * sizeof *o->names);
    for (int i = optind; i < argc; i++)
        o->names[o->n_names++] = argv[i];
    return SB_EXIT_OK;
}

static int run_cmd(sb_run_opts *o, sb_selection *sel)
{
    const char *result = o->result, *identifier = o->identifier, *description = o->description;
    const char *results_dir = o->results_dir, *title = o->title;
    bool replace = o->replace, require_all = o->require_all, quiet = o->quiet, json = o->json;
    char **assignments = o->assignments;
    size_t n_assign = o->n_assign;
    int rc;
    if (!o->n_names)
        return sb_usage_error("run", "name at least one test or suite (see 'storbench list')");
    char auto_name[512] = "";
    if ((rc = pts_defaults(&result, &identifier, &description, o->no_save, replace, auto_name,
                           sizeof auto_name)) != 0 ||
        (rc = check_texts(identifier, result, title, description, assignments, n_assign)) != 0)
        return rc;

    /* ---- resolve the selection ---- */
    for (size_t i = 0; i < o->n_names; i++)
        if (sb_cli_select("run", sel, o->names[i], o->quick))
            return SB_EXIT_USAGE;
    /* --option KEY=VALUE applies to every selected test that has KEY. */
    if (sb_cli_select_options("run", sel, assignments, n_assign) || sb_cli_select_validate("run", sel) ||
        (sb_ranks_active() && ranks_check(sel)))
        return SB_EXIT_USAGE;

    /* ---- the target ---- */
    char target_real[PATH_MAX];
    if ((rc = resolve_target(o->target, target_real)) != 0 ||
        (require_all && (rc = require_runnable(sel, target_real)) != 0))
        return rc;

    /* ---- the result file: read it now so that a bad one is refused before any work ---- */
    char path[PATH_MAX] = "", ident_buf[256];
    sb_resultfile existing;
    sb_resultfile_init(&existing);
    /* under MPI rank 0 alone reads (and later writes) the result file; the others follow */
    bool saves = !sb_ranks_active() || sb_ranks()->rank == 0;
    rc = open_result(saves && !auto_name[0] ? result : NULL, results_dir, sel, replace, &identifier,
                     ident_buf, sizeof ident_buf, path, &existing);
    if (sb_ranks_active())
        rc = sb_run_ranks_settle(rc);
    /* only read to refuse early: the save re-reads the file as it is then */
    sb_resultfile_free(&existing);
    if (rc != 0)
        return rc;

    /* ---- run ---- */
    sb_resultfile fresh;
    sb_resultfile_init(&fresh);
    sb_system *sys = sb_resultfile_add_system(&fresh, identifier);
    sb_sysinfo_collect(sys, target_real);
    sb_system_stamp(sys);
    if (sb_ranks_active() && sb_run_ranks_describe(sys) < 0) {
        sb_error("run: gathering the ranks' system descriptions failed");
        sb_resultfile_free(&fresh);
        return SB_EXIT_RUNTIME;
    }

    sb_interrupt_install();
    sb_runner runner;
    sb_runner_init(&runner, target_real, identifier, &fresh);
    runner.runs = o->runs;
    runner.dynamic = !o->exact;
    runner.drop_caches = o->drop;
    run_chat = runner.log = quiet ? NULL : json ? stderr : stdout;
    runner.progress.enabled = runner.progress.enabled && !quiet;
    size_t done = 0;
    int exit_code = run_selection(&runner, sel, result && !auto_name[0], require_all, &done);
    /* cdm figures: also the 4x2 table those tools' users read */
    if (exit_code == SB_EXIT_OK && done && run_chat)
        sb_report_cdm(run_chat, &fresh, identifier);
    if (exit_code == SB_EXIT_OK && result && saves)
        exit_code = save_figures(path, result, !auto_name[0], results_dir, &fresh, replace, title,
                                 description, identifier, done);
    else if (exit_code == SB_EXIT_OK && sb_interrupted()) /* after the last figure, nothing to save */
        exit_code = sb_cli_interrupted_before_save("run", NULL);
    if (exit_code == SB_EXIT_OK && json && saves)
        exit_code = print_figures_json(&fresh);
    sb_resultfile_free(&fresh);
    return exit_code;
}

/* The selection is large (every configuration's params): on the heap, zeroed. */
int sb_run_exec(sb_run_opts *o)
{
    sb_selection *sel = sb_xcalloc(1, sizeof *sel);
    int rc = run_cmd(o, sel);
    free(sel);
    return rc;
}

int sb_cmd_run(int argc, char **argv)
{
    sb_run_opts o;
    sb_run_opts_init(&o);
    int rc = sb_run_opts_parse(&o, argc, argv);
    if (rc == SB_EXIT_OK && !o.help)
        rc = sb_run_exec(&o);
    sb_run_opts_free(&o);
    return rc;
}
