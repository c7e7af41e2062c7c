/*
 * run — `storbench run TEST|SUITE... [--target DIR] [--result NAME --identifier LABEL]`.
 *
 * Everything that can be refused is refused before the first test starts:
 * unknown tests, suites and option values, a bad target, a result file that
 * cannot be read, an identifier already present without --replace. The new
 * figures are collected in memory and merged into the result file once, at
 * the end, with an atomic replace: a failed or interrupted run leaves the
 * file exactly as it was.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/units.h"
#include "core/workdir.h"
#include "results/sysinfo.h"
#include "runner/runner.h"
#include "workloads/registry.h"

#define MAX_SELECTIONS 128
#define MAX_ASSIGNMENTS 64

static void usage(FILE *out)
{
    fprintf(out,
            "usage: storbench run TEST|SUITE... [options]\n"
            "\n"
            "Runs each test (or every test of each suite) on the target directory, repeating it\n"
            "until the figure is trustworthy, and adds the figures to a result file.\n"
            "\n"
            "  -t, --target DIR        directory to test in (default: $STORBENCH_TARGET or /var/tmp)\n"
            "  -r, --result NAME       result file to add this system to (a NAME with '/' is a path)\n"
            "  -i, --identifier LABEL  this configuration's name in the comparison (default: hostname)\n"
            "  -n, --runs N            scheduled runs per test (default 3; the run rule may add more)\n"
            "      --exact-runs        run exactly --runs times (no dynamic extra runs)\n"
            "  -q, --quick             the documented small scale of every test\n"
            "  -o, --option KEY=VALUE  set a test option (repeatable; see 'storbench list')\n"
            "                          TEST:KEY=VALUE,KEY=VALUE sets options of one test only\n"
            "      --replace           replace an identifier already in the result file\n"
            "      --title TEXT        the result file's title (when it is created)\n"
            "      --description TEXT  the result file's description (when it is created)\n"
            "      --no-drop-caches    do not drop the page cache between runs\n"
            "      --results-dir DIR   where named result files live\n"
            "  -v, --verbose           say more\n"
            "  -h, --help              this text\n"
            "\n"
            "Suites: 'storbench list'. Exit status: 0 done, 1 runtime failure, 2 bad usage,\n"
            "130 interrupted (the result file is left as it was).\n");
}

typedef struct selection {
    sb_config cfg;
} selection;

/* Applies "k=v,k=v" (modified in place) to cfg. Returns 0 or SB_EXIT_USAGE after printing. */
static int apply_assignments(sb_config *cfg, char *list)
{
    char err[512];
    for (char *save = NULL, *kv = strtok_r(list, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq)
            return sb_usage_error("run", "option '%s' is not KEY=VALUE", kv);
        *eq = 0;
        if (sb_config_set(cfg, kv, eq + 1, err, sizeof err) < 0)
            return sb_usage_error("run", "%s", err);
    }
    return 0;
}

static int add_selection(selection *sel, size_t *n, const sb_workload *w, bool quick,
                         const char *suite_options)
{
    if (*n >= MAX_SELECTIONS)
        return sb_usage_error("run", "too many tests selected (at most %d)", MAX_SELECTIONS);
    sb_config_init(&sel[*n].cfg, w, quick);
    if (suite_options) {
        /* Suite option strings are static: copy before strtok. They live as long as the
         * process, which the config's value pointers need. */
        char *copy = strdup(suite_options);
        if (!copy || apply_assignments(&sel[*n].cfg, copy))
            return SB_EXIT_USAGE;
    }
    (*n)++;
    return 0;
}

static void default_identifier(char *buf, size_t len)
{
    if (gethostname(buf, len) < 0 || !buf[0])
        snprintf(buf, len, "this system");
    buf[len - 1] = 0;
}

static void iso_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int sb_cmd_run(int argc, char **argv)
{
    enum { OPT_REPLACE = 0x100, OPT_TITLE, OPT_DESC, OPT_NO_DROP, OPT_EXACT };
    static const struct option longopts[] = {
        {"target", required_argument, NULL, 't'},
        {"result", required_argument, NULL, 'r'},
        {"identifier", required_argument, NULL, 'i'},
        {"runs", required_argument, NULL, 'n'},
        {"quick", no_argument, NULL, 'q'},
        {"option", required_argument, NULL, 'o'},
        {"replace", no_argument, NULL, OPT_REPLACE},
        {"title", required_argument, NULL, OPT_TITLE},
        {"description", required_argument, NULL, OPT_DESC},
        {"no-drop-caches", no_argument, NULL, OPT_NO_DROP},
        {"exact-runs", no_argument, NULL, OPT_EXACT},
        {"results-dir", required_argument, NULL, SB_OPT_RESULTS_DIR},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *target = getenv("STORBENCH_TARGET"), *result = NULL, *identifier = NULL;
    const char *results_dir = NULL, *title = NULL, *description = NULL;
    unsigned runs = 3;
    bool quick = false, replace = false, drop = true, exact = false;
    char *assignments[MAX_ASSIGNMENTS];
    size_t n_assign = 0;
    if (!target || !*target)
        target = "/var/tmp";

    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "t:r:i:n:qo:vh", longopts, NULL)) != -1) {
        switch (c) {
        case 't': target = optarg; break;
        case 'r': result = optarg; break;
        case 'i': identifier = optarg; break;
        case 'n': {
            uint64_t v;
            if (sb_parse_uint(optarg, 1, 100, &v) < 0)
                return sb_usage_error("run", "--runs must be a whole number from 1 to 100");
            runs = (unsigned)v;
            break;
        }
        case 'q': quick = true; break;
        case 'o':
            if (n_assign >= MAX_ASSIGNMENTS)
                return sb_usage_error("run", "too many --option");
            assignments[n_assign++] = optarg;
            break;
        case OPT_REPLACE: replace = true; break;
        case OPT_TITLE: title = optarg; break;
        case OPT_DESC: description = optarg; break;
        case OPT_NO_DROP: drop = false; break;
        case OPT_EXACT: exact = true; break;
        case SB_OPT_RESULTS_DIR: results_dir = optarg; break;
        case 'v': sb_log_verbose = true; break;
        case 'h': usage(stdout); return SB_EXIT_OK;
        default: return SB_EXIT_USAGE; /* getopt printed the reason */
        }
    }
    if (optind >= argc)
        return sb_usage_error("run", "name at least one test or suite (see 'storbench list')");
    if (identifier && !*identifier)
        return sb_usage_error("run", "--identifier must not be empty");
    if (identifier && !result)
        return sb_usage_error("run", "--identifier needs --result NAME");

    /* ---- resolve the selection ---- */
    static selection sel[MAX_SELECTIONS];
    size_t n_sel = 0;
    for (int i = optind; i < argc; i++) {
        char *name = argv[i], *inline_opts = strchr(name, ':');
        if (inline_opts)
            *inline_opts++ = 0;
        const sb_workload *w = sb_workload_find(name);
        const sb_suite *s = w ? NULL : sb_suite_find(name);
        if (!w && !s)
            return sb_usage_error("run", "unknown test or suite '%s' (see 'storbench list')", name);
        if (s && inline_opts)
            return sb_usage_error("run", "'%s' is a suite: options go with --option", name);
        if (w) {
            if (add_selection(sel, &n_sel, w, quick, NULL))
                return SB_EXIT_USAGE;
            if (inline_opts && apply_assignments(&sel[n_sel - 1].cfg, inline_opts))
                return SB_EXIT_USAGE;
            continue;
        }
        for (const sb_suite_item *it = s->items; it->workload; it++) {
            const sb_workload *sw = sb_workload_find(it->workload);
            if (!sw)
                return sb_usage_error("run", "suite %s names unknown test %s", s->name, it->workload);
            if (add_selection(sel, &n_sel, sw, quick || s->quick, it->options))
                return SB_EXIT_USAGE;
        }
    }
    /* --option KEY=VALUE applies to every selected test that has KEY. */
    for (size_t a = 0; a < n_assign; a++) {
        char *eq = strchr(assignments[a], '=');
        if (!eq)
            return sb_usage_error("run", "--option '%s' is not KEY=VALUE", assignments[a]);
        *eq = 0;
        bool used = false;
        char err[512];
        for (size_t k = 0; k < n_sel; k++) {
            int rc = sb_config_set(&sel[k].cfg, assignments[a], eq + 1, err, sizeof err);
            if (rc == -EINVAL)
                return sb_usage_error("run", "%s", err);
            used = used || rc == 0;
        }
        if (!used)
            return sb_usage_error("run", "no selected test has an option '%s'", assignments[a]);
    }
    for (size_t k = 0; k < n_sel; k++) {
        char err[512] = "";
        const sb_workload *w = sel[k].cfg.workload;
        if (w->validate && w->validate(&sel[k].cfg, err, sizeof err) < 0)
            return sb_usage_error("run", "%s", err[0] ? err : "invalid options");
    }

    /* ---- the target ---- */
    int rc = sb_target_check(target);
    if (rc < 0)
        return sb_usage_error("run", "target %s: %s", target, strerror(-rc));
    char target_real[PATH_MAX];
    if (!realpath(target, target_real))
        return sb_usage_error("run", "target %s: %s", target, strerror(errno));

    /* ---- the result file: read it now so that a bad one is refused before any work ---- */
    char path[PATH_MAX] = "", ident_buf[256], err[1024];
    sb_resultfile existing;
    sb_resultfile_init(&existing);
    if (result) {
        if (sb_result_path(result, results_dir, path, sizeof path) < 0)
            return sb_usage_error("run", "cannot place result file '%s'", result);
        rc = sb_resultfile_load(path, &existing, err, sizeof err);
        if (rc < 0 && rc != -ENOENT) {
            sb_error("run: %s", err);
            sb_resultfile_free(&existing);
            return SB_EXIT_RUNTIME;
        }
        if (!identifier) {
            default_identifier(ident_buf, sizeof ident_buf);
            identifier = ident_buf;
        }
        if (sb_resultfile_find_system(&existing, identifier) && !replace) {
            sb_error("run: identifier '%s' is already in %s (use --replace, or another --identifier)",
                     identifier, path);
            sb_resultfile_free(&existing);
            return SB_EXIT_RUNTIME;
        }
    } else {
        default_identifier(ident_buf, sizeof ident_buf);
        identifier = ident_buf;
    }

    /* ---- run ---- */
    sb_resultfile fresh;
    sb_resultfile_init(&fresh);
    sb_system *sys = sb_resultfile_add_system(&fresh, identifier);
    sb_sysinfo_collect(sys, target_real);
    char ts[32];
    iso_now(ts, sizeof ts);
    free(sys->timestamp);
    sys->timestamp = strdup(ts);
    free(sys->tool_version);
    sys->tool_version = strdup(STORBENCH_VERSION);

    sb_interrupt_install();
    sb_runner runner;
    sb_runner_init(&runner, target_real, identifier, &fresh);
    runner.runs = runs;
    runner.dynamic = !exact;
    runner.drop_caches = drop;
    int exit_code = SB_EXIT_OK;
    size_t done = 0;
    for (size_t k = 0; k < n_sel && exit_code == SB_EXIT_OK; k++) {
        char desc[512];
        sb_config_describe(&sel[k].cfg, NULL, desc, sizeof desc);
        printf("%s %s%s%s%s\n", sel[k].cfg.workload->title, sel[k].cfg.workload->version,
               desc[0] ? " [" : "", desc, desc[0] ? "]" : "");
        fflush(stdout);
        rc = sb_runner_run(&runner, &sel[k].cfg, err, sizeof err);
        if (rc == SB_RUN_SKIPPED) {
            sb_warn("%s: skipped: %s", sel[k].cfg.workload->name, err);
        } else if (rc == -EINTR) {
            sb_error("run: interrupted (signal %d); temporary files removed, %s", sb_interrupt_signal(),
                     result ? "result file unchanged" : "nothing saved");
            exit_code = SB_EXIT_INTERRUPTED;
        } else if (rc < 0) {
            sb_error("%s", err);
            exit_code = SB_EXIT_RUNTIME;
        } else {
            done++;
        }
    }

    if (exit_code == SB_EXIT_OK && result) {
        if (done == 0) {
            sb_error("run: no test produced a figure; %s unchanged", path);
            exit_code = SB_EXIT_RUNTIME;
        } else {
            if (!existing.title[0]) {
                /* Default title: the result's name, without directories and ".json". */
                char name[256];
                const char *base = strrchr(result, '/') ? strrchr(result, '/') + 1 : result;
                snprintf(name, sizeof name, "%s", base);
                size_t nl = strlen(name);
                if (nl > 5 && !strcmp(name + nl - 5, ".json"))
                    name[nl - 5] = 0;
                sb_resultfile_set_title(&existing, title ? title : name, description ? description : "");
            }
            if (sb_resultfile_merge(&existing, &fresh, replace, err, sizeof err) < 0 ||
                sb_resultfile_save(path, &existing, err, sizeof err) < 0) {
                sb_error("run: %s", err);
                exit_code = SB_EXIT_RUNTIME;
            } else {
                printf("Saved %zu test%s as '%s' in %s\n", done, done == 1 ? "" : "s", identifier, path);
            }
        }
    }
    sb_resultfile_free(&fresh);
    sb_resultfile_free(&existing);
    return exit_code;
}
