/*
 * list — `storbench list [TEST|SUITE...] [--check [--target DIR]] [--format text|json]`:
 * the tests with their options, defaults, --quick values and allowed values,
 * and the suites; as text for people or JSON for scripts (the same facts).
 *
 * --check is the preflight: for every selection a run of those names would
 * make (every test at its defaults when none is named), whether it can run
 * here, and if not the line it would be skipped or refused with — without
 * building or measuring anything. Exit 1 when any cannot, so that
 * `storbench list --check quick` is a test a script or CI can use.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/list_md.h"
#include "cli/select.h"
#include "runner/selection.h"
#include "core/log.h"
#include "core/strutil.h"
#include "core/workdir.h"
#include "formats/pts_xml.h"
#include "runner/preflight.h"
#include "runner/runner.h"
#include "workloads/registry.h"

static void print_workload(const sb_workload *w, bool details)
{
    printf("%-13s %s — %s\n", w->name, w->title, w->summary);
    if (!details)
        return;
    /* The profile version is what the seed pages name; a measured result's title names what
     * ran instead (docs/result-format.md). */
    if (w->version && *w->version)
        printf("    stands in for the seed profile %s %s\n", w->title, w->version);
    for (size_t i = 0; i < w->n_options; i++) {
        const sb_option *o = &w->options[i];
        printf("    %-14s %-22s default %s", o->key, o->title, o->def);
        if (o->quick)
            printf(", --quick %s", o->quick);
        printf("\n");
        if (o->help)
            printf("        %s\n", o->help);
        if (o->choices) {
            printf("        one of:");
            for (const sb_choice *c = o->choices; c->value; c++)
                printf(" %s%s", c->value, c[1].value ? "," : "");
            printf("\n");
        }
    }
    for (size_t m = 0; m < w->n_measures; m++)
        printf("    reports: %s%s%s (%s)\n", w->measures[m].label ? w->measures[m].label : "figure",
               w->measures[m].label ? " in " : " in ", w->measures[m].unit,
               w->measures[m].direction == SB_LOWER_IS_BETTER ? "lower is better" : "higher is better");
    if (w->quick_runs)
        printf("    runs at --quick: %u (without --runs)\n", w->quick_runs);
}

static void print_suite(const sb_suite *s)
{
    printf("%-13s %s\n", s->name, s->summary);
    for (const sb_suite_item *it = s->items; it->workload; it++)
        printf("    %s%s%s\n", it->workload, it->options ? " " : "", it->options ? it->options : "");
}

/* ---- JSON: the same facts as the text, one object ---- */

static json_t *json_str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

static json_t *workload_json(const sb_workload *w)
{
    json_t *opts = json_array(), *measures = json_array();
    for (size_t i = 0; i < w->n_options; i++) {
        const sb_option *o = &w->options[i];
        json_t *choices = json_null();
        if (o->choices) {
            choices = json_array();
            for (const sb_choice *c = o->choices; c->value; c++)
                json_array_append_new(choices, json_pack("{s:s, s:o}", "value", c->value, "display",
                                                         json_str_or_null(c->display)));
        }
        json_array_append_new(opts, json_pack("{s:s, s:s, s:o, s:o, s:o, s:o}", "key", o->key,
                                              "title", o->title, "default", json_str_or_null(o->def),
                                              "quick", json_str_or_null(o->quick), "help",
                                              json_str_or_null(o->help), "choices", choices));
    }
    for (size_t m = 0; m < w->n_measures; m++)
        json_array_append_new(measures, json_pack("{s:o, s:s, s:s}", "label",
                                                  json_str_or_null(w->measures[m].label), "unit",
                                                  w->measures[m].unit, "direction",
                                                  w->measures[m].direction == SB_LOWER_IS_BETTER
                                                      ? "lower" : "higher"));
    return json_pack("{s:s, s:s, s:o, s:s, s:o, s:o, s:i}", "name", w->name, "title", w->title,
                     "profile_version", json_str_or_null(w->version && *w->version ? w->version : NULL),
                     "summary", w->summary, "options", opts, "measures", measures, "quick_runs",
                     (json_int_t)w->quick_runs);
}

static json_t *suite_json(const sb_suite *s)
{
    json_t *items = json_array();
    for (const sb_suite_item *it = s->items; it->workload; it++)
        json_array_append_new(items, json_pack("{s:s, s:o}", "test", it->workload, "options",
                                               json_str_or_null(it->options)));
    return json_pack("{s:s, s:s, s:b, s:o}", "name", s->name, "summary", s->summary, "quick",
                     s->quick, "items", items);
}

/* Prints root (taken) on stdout as indented JSON. */
static int print_json(json_t *root)
{
    char *text = root ? json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
    json_decref(root);
    if (!text) {
        sb_error("list: out of memory");
        return SB_EXIT_RUNTIME;
    }
    printf("%s\n", text);
    free(text);
    return SB_EXIT_OK;
}

/* ---- --check: the preflight of every selection ---- */

/* The option values of cfg that differ from the test's defaults, "k=v,k=v" ("" if none). */
static void changed_options(const sb_config *cfg, char *buf, size_t len)
{
    buf[0] = '\0';
    size_t used = 0;
    for (size_t i = 0; i < cfg->workload->n_options; i++) {
        const sb_option *o = &cfg->workload->options[i];
        if (!cfg->values[i] || (o->def && !strcmp(cfg->values[i], o->def)))
            continue;
        int n = snprintf(buf + used, len - used, "%s%s=%s", used ? "," : "", o->key, cfg->values[i]);
        if (n < 0 || (size_t)n >= len - used)
            break;
        used += (size_t)n;
    }
}

static int check_selection(const sb_selection *sel, const char *target, bool json)
{
    size_t missing = 0;
    json_t *arr = json ? json_array() : NULL;
    for (size_t k = 0; k < sel->n; k++) {
        char label[640], why[1024], opts[512];
        sb_runner_label(&sel->cfg[k], label, sizeof label);
        int rc = sb_preflight(&sel->cfg[k], target, why, sizeof why);
        if (rc < 0)
            missing++;
        if (json) {
            changed_options(&sel->cfg[k], opts, sizeof opts);
            json_array_append_new(arr, json_pack("{s:s, s:s, s:b, s:b, s:o}", "test",
                                                 sel->cfg[k].workload->name, "options", opts,
                                                 "quick", sel->cfg[k].quick, "runnable", rc == 0,
                                                 "why", rc ? json_string(why) : json_null()));
        } else if (rc == 0) {
            printf("%s: runnable\n", label);
        } else {
            printf("%s: not runnable: %s\n", label, why);
        }
    }
    if (json) {
        int e = print_json(json_pack("{s:o, s:o}", "target", json_str_or_null(target), "checks", arr));
        if (e)
            return e;
    } else {
        printf("%zu of %zu runnable%s%s\n", sel->n - missing, sel->n, target ? " on " : "",
               target ? target : "");
    }
    return missing ? SB_EXIT_RUNTIME : SB_EXIT_OK;
}

static int list_check_in(int argc, char **argv, int first, const char *target, bool json,
                         sb_selection *sel)
{
    if (target) {
        int rc = sb_target_check(target);
        if (rc < 0)
            return sb_usage_error("list", "target %s: %s", target, strerror(-rc));
    }
    if (first >= argc) {
        for (size_t i = 0; i < sb_workload_count(); i++) {
            char name[64];
            snprintf(name, sizeof name, "%s", sb_workload_at(i)->name);
            if (sb_cli_select("list", sel, name, false))
                return SB_EXIT_USAGE;
        }
    }
    for (int i = first; i < argc; i++)
        if (sb_cli_select("list", sel, argv[i], false))
            return SB_EXIT_USAGE;
    if (sb_cli_select_validate("list", sel))
        return SB_EXIT_USAGE;
    return check_selection(sel, target, json);
}

/* The selection is large (every configuration's params): on the heap, zeroed. */
static int list_check(int argc, char **argv, int first, const char *target, bool json)
{
    sb_selection *sel = sb_xcalloc(1, sizeof *sel);
    int rc = list_check_in(argc, argv, first, target, json, sel);
    free(sel);
    return rc;
}

/* ---- the PTS profile map (docs/pts.md): pts/NAME[-VERSION] runs the test ---- */

static void print_profile(size_t i)
{
    const char *test = NULL, *profile = sb_pts_profile_at(i, &test), *v = sb_pts_profile_versions(i);
    const sb_workload *w = sb_workload_find(test);
    printf("%-17s %s (follows %s %s; PTS revisions of that version: %s)\n", profile, test,
           w ? w->title : test, w && w->version ? w->version : "", *v ? v : "none known");
}

static json_t *profile_json(size_t i)
{
    const char *test = NULL, *profile = sb_pts_profile_at(i, &test), *v = sb_pts_profile_versions(i);
    json_t *revs = json_array();
    char buf[256];
    snprintf(buf, sizeof buf, "%s", v);
    for (char *save = NULL, *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
        json_array_append_new(revs, json_string(t));
    return json_pack("{s:s, s:s, s:o}", "profile", profile, "test", test, "revisions", revs);
}

/* ---- the listing ---- */

static int list_names(int argc, char **argv, int first, bool json)
{
    json_t *tests = json ? json_array() : NULL, *suites = json ? json_array() : NULL;
    json_t *profiles = json ? json_array() : NULL;
    for (int i = first; i < argc; i++) {
        const sb_workload *w = sb_workload_find(argv[i]);
        const sb_suite *s = sb_suite_find(argv[i]);
        long p = w || s ? -1 : sb_pts_profile_find(argv[i], NULL);
        if (p >= 0) { /* pts/fio: its row, then the test it runs */
            w = sb_workload_find(sb_pts_profile_test(argv[i]));
            if (json)
                json_array_append_new(profiles, profile_json((size_t)p));
            else
                print_profile((size_t)p);
        }
        if (!w && !s) {
            json_decref(tests);
            json_decref(suites);
            json_decref(profiles);
            if (!strncmp(argv[i], "pts/", 4))
                return sb_usage_error("list", "unknown PTS profile '%s' (see 'storbench list')", argv[i]);
            return sb_usage_error("list", "unknown test or suite '%s'", argv[i]);
        }
        if (w && json)
            json_array_append_new(tests, workload_json(w));
        else if (w)
            print_workload(w, true);
        if (s && json)
            json_array_append_new(suites, suite_json(s));
        else if (s)
            print_suite(s);
    }
    return json ? print_json(json_pack("{s:o, s:o, s:o}", "tests", tests, "suites", suites,
                                       "pts_profiles", profiles))
                : SB_EXIT_OK;
}

static int list_all(bool json)
{
    if (json) {
        json_t *tests = json_array(), *suites = json_array();
        for (size_t i = 0; i < sb_workload_count(); i++)
            json_array_append_new(tests, workload_json(sb_workload_at(i)));
        for (size_t i = 0; i < sb_suite_count(); i++)
            json_array_append_new(suites, suite_json(sb_suite_at(i)));
        json_t *profiles = json_array();
        for (size_t i = 0; i < sb_pts_profile_count(); i++)
            json_array_append_new(profiles, profile_json(i));
        return print_json(json_pack("{s:o, s:o, s:o}", "tests", tests, "suites", suites,
                                    "pts_profiles", profiles));
    }
    printf("Tests (storbench run TEST [-o KEY=VALUE]):\n\n");
    for (size_t i = 0; i < sb_workload_count(); i++)
        print_workload(sb_workload_at(i), true);
    printf("\nSuites (storbench run SUITE):\n\n");
    for (size_t i = 0; i < sb_suite_count(); i++)
        print_suite(sb_suite_at(i));
    printf("\nPTS profiles (storbench run pts/NAME or pts/NAME-VERSION runs the test):\n\n");
    for (size_t i = 0; i < sb_pts_profile_count(); i++)
        print_profile(i);
    return SB_EXIT_OK;
}

static void list_usage(void)
{
    printf("usage: storbench list [TEST|SUITE...] [--check [--target DIR]] [--format text|json|md]\n\n"
           "Without arguments: every test with its options and every suite.\n"
           "With names: only those tests or suites.\n\n"
           "  -c, --check          say, per test (every test, or the named tests and suites'\n"
           "                       tests), whether it can run here and why not; nothing runs.\n"
           "                       Exit 1 when any cannot\n"
           "  -t, --target DIR     with --check: also check free space in DIR\n"
           "  -f, --format FORMAT  text (default), json, or md (the option tables of docs/workloads.md)\n"
           "  -h, --help           this text\n");
}

enum { OPT_TARGET = 't', OPT_FORMAT = 'f' };

int sb_cmd_list(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"check", no_argument, NULL, 'c'},
        {"target", required_argument, NULL, OPT_TARGET},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool check = false, json = false, md = false;
    const char *target = NULL;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":ct:f:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'c': check = true; break;
        case OPT_TARGET: target = optarg; break;
        case OPT_FORMAT:
            json = !strcmp(optarg, "json");
            md = !strcmp(optarg, "md");
            if (!json && !md && strcmp(optarg, "text"))
                return sb_usage_error("list", "unknown format '%s' (text, json or md)", optarg);
            break;
        case 'h': list_usage(); return SB_EXIT_OK;
        default: return sb_bad_option("list", argv, c);
        }
    }
    if (target && !check)
        return sb_usage_error("list", "--target goes with --check");
    if (check && md)
        return sb_usage_error("list", "--check says text or json, not md");
    if (check)
        return list_check(argc, argv, optind, target, json);
    if (md)
        return sb_list_md(argc, argv, optind);
    if (optind < argc)
        return list_names(argc, argv, optind, json);
    return list_all(json);
}
