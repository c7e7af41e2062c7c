/*
 * io500 — `storbench io500 [CONFIG.ini] [run options]`: IO500's command line.
 * Reads an IO500 configuration file (IO500/io500's ini: [global] datadir,
 * [debug] stonewall-time, [ior-easy] transferSize and blockSize, [ior-hard]
 * segmentCount, [mdtest-easy] and [mdtest-hard] n) and runs the io500 test
 * (workloads/io500.c) once with those values, as
 *
 *     storbench run io500 -n 1 --exact-runs -t DATADIR -o ior-easy.transferSize=... [run options]
 *
 * would (run's options filled in cli/run.h's struct, then run's own code), so that the
 * result file, --result, --identifier and `show` are run's. The
 * table of keys is ini_keys below: a key IO500 has that this cannot honour
 * (another API, phases switched off, an external find) is refused in one line
 * naming it, exit 2, before anything runs; an empty value is IO500's "use
 * the default".
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/commands.h"
#include "cli/run.h"
#include "cli/common.h"
#include "cli/save.h"
#include "core/fileio.h"
#include "core/ranks.h"
#include "results/result.h"
#include "core/log.h"
#include "core/strutil.h"

/* How a key is taken: into a test option, into run's --target, checked for the one
 * value that runs here, or read and left (it changes no figure: where IO500 writes its
 * own logs, verbosity). */
enum ini_how { INI_OPTION, INI_TARGET, INI_ONLY, INI_IGNORED };

static const struct ini_key {
    const char *section, *key;
    enum ini_how how;
    const char *what; /* INI_OPTION: the test option; INI_ONLY: the value accepted */
} ini_keys[] = {
    {"global", "datadir", INI_TARGET, NULL},
    {"global", "resultdir", INI_IGNORED, NULL},
    {"global", "timestamp-resultdir", INI_IGNORED, NULL},
    {"global", "timestamp-datadir", INI_IGNORED, NULL},
    {"global", "api", INI_ONLY, "POSIX"},
    {"global", "drop-caches", INI_ONLY, "FALSE"},
    {"global", "verbosity", INI_IGNORED, NULL},
    {"debug", "stonewall-time", INI_OPTION, "stonewall-time"},
    {"ior-easy", "API", INI_ONLY, "POSIX"},
    {"ior-easy", "transferSize", INI_OPTION, "ior-easy.transferSize"},
    {"ior-easy", "blockSize", INI_OPTION, "ior-easy.blockSize"},
    {"ior-easy", "filePerProc", INI_ONLY, "TRUE"},
    {"ior-easy", "uniqueDir", INI_ONLY, "FALSE"},
    {"ior-easy", "run", INI_ONLY, "TRUE"},
    {"ior-easy", "verbosity", INI_IGNORED, NULL},
    {"ior-easy-write", "API", INI_ONLY, "POSIX"},
    {"ior-easy-write", "run", INI_ONLY, "TRUE"},
    {"ior-easy-read", "API", INI_ONLY, "POSIX"},
    {"ior-easy-read", "run", INI_ONLY, "TRUE"},
    {"mdtest-easy", "API", INI_ONLY, "POSIX"},
    {"mdtest-easy", "n", INI_OPTION, "mdtest-easy.n"},
    {"mdtest-easy", "run", INI_ONLY, "TRUE"},
    {"ior-hard", "API", INI_ONLY, "POSIX"},
    {"ior-hard", "segmentCount", INI_OPTION, "ior-hard.segmentCount"},
    {"ior-hard", "collective", INI_ONLY, "FALSE"},
    {"ior-hard", "run", INI_ONLY, "TRUE"},
    {"ior-hard", "verbosity", INI_IGNORED, NULL},
    {"ior-hard-write", "API", INI_ONLY, "POSIX"},
    {"ior-hard-write", "run", INI_ONLY, "TRUE"},
    {"ior-hard-read", "API", INI_ONLY, "POSIX"},
    {"ior-hard-read", "run", INI_ONLY, "TRUE"},
    {"mdtest-hard", "API", INI_ONLY, "POSIX"},
    {"mdtest-hard", "n", INI_OPTION, "mdtest-hard.n"},
    {"mdtest-hard", "run", INI_ONLY, "TRUE"},
    {"find", "run", INI_ONLY, "TRUE"},
    {"find", "nproc", INI_IGNORED, NULL},
};
#define N_KEYS (sizeof ini_keys / sizeof ini_keys[0])

#define MAX_ARGS (N_KEYS + 8)

static void usage(FILE *out)
{
    fprintf(out, "usage: [mpirun -np N] storbench io500 [CONFIG.ini] [run options]\n\n"
                 "IO500's phases in IO500's order and its score (docs/mpi.md, \"IO500\"): the io500\n"
                 "test run once, with the values of an IO500 configuration file:\n\n");
    for (size_t i = 0; i < N_KEYS; i++) {
        const struct ini_key *k = &ini_keys[i];
        fprintf(out, "  [%s] %s%*s%s%s\n", k->section, k->key,
                (int)(30 - strlen(k->section) - strlen(k->key)), "",
                k->how == INI_OPTION ? "-o " : k->how == INI_TARGET ? "run's target directory" :
                k->how == INI_ONLY ? "only " : "read, changes no figure",
                k->how == INI_OPTION || k->how == INI_ONLY ? k->what : "");
    }
    fprintf(out, "\nEvery other argument goes to 'storbench run io500': a result name, an identifier,\n"
                 "the quick scale, -o KEY=VALUE ... (see 'storbench run --help').\n");
}

typedef struct ini_state {
    const char *path;
    char section[64];
    char *args[MAX_ARGS];
    int n;
    char *target;
    int rc;
} ini_state;

static int ini_pair(ini_state *st, unsigned lineno, const char *key, const char *value)
{
    for (size_t i = 0; i < N_KEYS; i++) {
        const struct ini_key *k = &ini_keys[i];
        if (strcmp(k->section, st->section) || strcmp(k->key, key))
            continue;
        if (!*value || k->how == INI_IGNORED)
            return 0; /* IO500's "use the default" */
        if (k->how == INI_ONLY) {
            if (strcasecmp(value, k->what))
                return sb_usage_error("io500", "%s:%u: [%s] %s = %s: only %s runs here", st->path, lineno,
                                      k->section, key, value, k->what);
            return 0;
        }
        if (k->how == INI_TARGET) {
            free(st->target);
            st->target = sb_xstrdup(value);
            return 0;
        }
        char *a = NULL;
        if (asprintf(&a, "%s=%s", k->what, value) < 0)
            sb_oom();
        st->args[st->n++] = a;
        return 0;
    }
    return sb_usage_error("io500", "%s:%u: [%s] %s: not an IO500 key this runs (see 'storbench io500 --help')",
                          st->path, lineno, st->section, key);
}

static int ini_line(ini_state *st, unsigned lineno, char *line)
{
    sb_trim(line);
    if (!*line || *line == '#' || *line == ';')
        return 0;
    if (*line == '[') {
        char *end = strchr(line, ']');
        if (!end || end[1] || end - line - 1 >= (long)sizeof st->section)
            return sb_usage_error("io500", "%s:%u: '%s' is not a [section] line", st->path, lineno, line);
        *end = '\0';
        snprintf(st->section, sizeof st->section, "%s", line + 1);
        return 0;
    }
    char *eq = strchr(line, '=');
    if (!eq)
        return sb_usage_error("io500", "%s:%u: '%s' is not KEY = VALUE", st->path, lineno, line);
    *eq = '\0';
    char *value = eq + 1;
    sb_trim(line);
    sb_trim(value);
    char *hash = strchr(value, '#'); /* IO500's ini allows a trailing comment */
    if (hash) {
        *hash = '\0';
        sb_trim(value);
    }
    if (!st->section[0])
        return sb_usage_error("io500", "%s:%u: %s before any [section]", st->path, lineno, line);
    return ini_pair(st, lineno, line, value);
}

static int read_ini(ini_state *st)
{
    char *text = NULL;
    size_t len = 0;
    int r = sb_read_file(st->path, 1 << 20, 0, &text, &len);
    if (r < 0) {
        sb_error("io500: %s: %s", st->path, strerror(-r));
        return SB_EXIT_USAGE;
    }
    unsigned lineno = 0;
    int rc = 0;
    for (char *p = text, *nl; rc == 0 && p && *p; p = nl) {
        nl = strchr(p, '\n');
        if (nl)
            *nl++ = '\0';
        rc = ini_line(st, ++lineno, p);
    }
    free(text);
    return rc;
}

/* The system the run just saved: the latest timestamp among those with io500 figures. */
static const char *latest_system(const sb_resultfile *rf)
{
    const char *best = NULL, *ts = "";
    for (size_t i = 0; i < rf->n_systems; i++)
        if (rf->systems[i].timestamp && strcmp(rf->systems[i].timestamp, ts) >= 0) {
            ts = rf->systems[i].timestamp;
            best = rf->systems[i].identifier;
        }
    return best;
}

/* IO500's own summary of the run (its [RESULT] and [SCORE ] lines), from the result file
 * the run saved: the figures the file holds, so the lines and `show` agree. */
static void print_io500_lines(void)
{
    const char *path = sb_cli_saved();
    sb_resultfile rf;
    char err[512];
    if (!*path || sb_ranks()->rank != 0)
        return;
    sb_resultfile_init(&rf);
    if (sb_resultfile_load(path, &rf, err, sizeof err) < 0) {
        sb_resultfile_free(&rf);
        return;
    }
    const char *id = latest_system(&rf);
    double score[3] = {0, 0, 0};
    bool invalid = false;
    printf("\n");
    for (size_t i = 0; id && i < rf.n_results; i++) {
        const sb_result *r = &rf.results[i];
        const sb_entry *e = strcmp(r->test, "io500") ? NULL : sb_result_find_entry(r, id);
        const char *ph = r->description ? strstr(r->description, "Phase: ") : NULL;
        const char *sc = r->description ? strstr(r->description, "Score: ") : NULL;
        if (!e)
            continue;
        if (sc) {
            int k = !strncmp(sc + 7, "Bandwidth", 9) ? 0 : !strncmp(sc + 7, "IOPS", 4) ? 1 : 2;
            score[k] = e->mean;
            continue;
        }
        if (!ph)
            continue;
        double t = 0, valid = 1;
        for (size_t k = 0; k < e->n_secondary; k++) {
            if (!strcmp(e->secondary[k].name, "time_s"))
                t = e->secondary[k].value;
            if (!strcmp(e->secondary[k].name, "valid"))
                valid = e->secondary[k].value;
        }
        invalid = invalid || valid == 0;
        int n = (int)strcspn(ph + 7, " ");
        printf("[RESULT] %20.*s %15f %s : time %.3f seconds%s\n", n, ph + 7, e->mean,
               ph[7] == 'i' ? "GiB/s" : "kIOPS", t, valid == 0 ? " [INVALID]" : "");
    }
    if (id)
        printf("[SCORE ] Bandwidth %f GiB/s : IOPS %f kiops : TOTAL %f%s\n", score[0], score[1], score[2],
               invalid ? " [INVALID]" : "");
    sb_resultfile_free(&rf);
}

/* io500's own options, before the configuration file; every other is run's. */
static const struct option own_longs[] = {
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static bool wants_help(const char *arg)
{
    if (!strcmp(arg, "-h"))
        return true;
    for (const struct option *o = own_longs; o->name; o++)
        if (!strncmp(arg, "--", 2) && !strcmp(arg + 2, o->name) && o->val == 'h')
            return true;
    return false;
}

int sb_cmd_io500(int argc, char **argv)
{
    ini_state st = {.n = 0};
    int first = 1;
    if (argc > 1 && wants_help(argv[1])) {
        usage(stdout);
        return 0;
    }
    sb_run_opts o;
    sb_run_opts_init(&o);
    o.names = sb_xcalloc(1, sizeof *o.names);
    o.names[o.n_names++] = (char *)"io500";
    o.runs = 1;
    o.exact = true;
    int rc = 0;
    if (argc > 1 && argv[1][0] != '-') {
        st.path = argv[1];
        first = 2;
        rc = read_ini(&st);
    }
    if (rc == 0 && st.target)
        o.target = st.target;
    for (int i = 0; rc == 0 && i < st.n; i++)
        if (sb_assignment_arg("run", st.args[i], o.assignments, &o.n_assign))
            rc = SB_EXIT_USAGE;
    /* the rest is run's: argv[first - 1] stands for the program's name, as getopt skips it */
    if (rc == 0)
        rc = sb_run_opts_parse(&o, argc - first + 1, argv + first - 1);
    if (rc == 0 && !o.help && (rc = sb_run_exec(&o)) == 0)
        print_io500_lines();
    sb_run_opts_free(&o);
    for (int i = 0; i < st.n; i++)
        free(st.args[i]);
    free(st.target);
    return rc;
}
