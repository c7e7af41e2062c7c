/*
 * list — `storbench list [TEST|SUITE]`: the tests with their options,
 * defaults, --quick values and allowed values, and the suites.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/log.h"
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

int sb_cmd_list(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c == 'h') {
            printf("usage: storbench list [TEST|SUITE...]\n\n"
                   "Without arguments: every test with its options and every suite.\n"
                   "With names: only those tests or suites.\n");
            return SB_EXIT_OK;
        }
        return sb_bad_option("list", argv, c);
    }
    if (optind < argc) {
        for (int i = optind; i < argc; i++) {
            const sb_workload *w = sb_workload_find(argv[i]);
            const sb_suite *s = sb_suite_find(argv[i]);
            if (!w && !s)
                return sb_usage_error("list", "unknown test or suite '%s'", argv[i]);
            if (w)
                print_workload(w, true);
            if (s)
                print_suite(s);
        }
        return SB_EXIT_OK;
    }
    printf("Tests (storbench run TEST [-o KEY=VALUE]):\n\n");
    for (size_t i = 0; i < sb_workload_count(); i++)
        print_workload(sb_workload_at(i), true);
    printf("\nSuites (storbench run SUITE):\n\n");
    for (size_t i = 0; i < sb_suite_count(); i++)
        print_suite(sb_suite_at(i));
    return SB_EXIT_OK;
}
