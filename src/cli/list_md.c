/*
 * list_md — see list_md.h. One section per test: its summary, the seed profile it stands
 * in for, a table of its options and what it reports; then the suites. Everything comes
 * from the tables `run` uses (sb_workload, sb_option with its kind and bounds, the suite
 * items), so the generated part of docs/workloads.md cannot drift from the code.
 */
#include "cli/list_md.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/common.h"
#include "core/log.h"
#include "workloads/registry.h"

/* Text for a table cell: '|' escaped, so that a help line cannot split the row. */
static void cell(const char *s)
{
    for (; s && *s; s++) {
        if (*s == '|')
            fputc('\\', stdout);
        fputc(*s, stdout);
    }
}

/* What a value of o must be, from its kind and bounds (or its choices). */
static void value_cell(const sb_option *o)
{
    switch (o->kind) {
    case SB_VAL_UINT:
        printf("whole number, %" PRIu64 " .. %" PRIu64, o->min, o->max);
        break;
    case SB_VAL_SIZE: printf("size (4k, 1M, 2g)"); break;
    case SB_VAL_DURATION: printf("duration (20, 20s, 500ms, 2m)"); break;
    case SB_VAL_BOOL: printf("yes or no"); break;
    case SB_VAL_CHOICE: printf("one of the choices"); break;
    case SB_VAL_IO: printf("as `storbench io` takes it (docs/io.md)"); break;
    case SB_VAL_TEXT: printf("text"); break;
    }
    if (o->flags & SB_OPT_AUTO)
        printf(", or `auto`");
}

static void choices_cell(const sb_option *o)
{
    if (!o->choices) {
        printf(" ");
        return;
    }
    for (const sb_choice *c = o->choices; c->value; c++) {
        printf("%s`%s`", c == o->choices ? "" : ", ", c->value);
        if (c->display && strcmp(c->display, c->value)) {
            printf(" (");
            cell(c->display);
            printf(")");
        }
    }
}

static void print_test(const sb_workload *w)
{
    printf("### %s\n\n", w->name);
    cell(w->title);
    printf(": ");
    cell(w->summary);
    printf(".");
    if (w->version && *w->version)
        printf(" Stands in for the seed profile %s %s.", w->title, w->version);
    printf("\n\n| key | title | value | default | `--quick` | choices (as the option line shows them) | what |\n");
    printf("| --- | --- | --- | --- | --- | --- | --- |\n");
    for (size_t i = 0; i < w->n_options; i++) {
        const sb_option *o = &w->options[i];
        printf("| `%s` | ", o->key);
        cell(o->title);
        printf(" | ");
        value_cell(o);
        printf(" | `%s` | %s%s%s | ", o->def, o->quick ? "`" : "", o->quick ? o->quick : "same",
               o->quick ? "`" : "");
        choices_cell(o);
        printf(" | ");
        cell(o->help);
        printf(" |\n");
    }
    printf("\nReports:");
    for (size_t m = 0; m < w->n_measures; m++)
        printf("%s %s in %s (%s)", m ? ";" : "", w->measures[m].label ? w->measures[m].label : "the figure",
               w->measures[m].unit, w->measures[m].direction == SB_LOWER_IS_BETTER ? "lower is better"
                                                                                   : "higher is better");
    printf(".");
    if (w->quick_runs)
        printf(" Runs at `--quick`: %u (without `--runs`).", w->quick_runs);
    printf("\n\n");
}

static void print_suite(const sb_suite *s)
{
    printf("| `%s` | ", s->name);
    cell(s->summary);
    printf(" | ");
    for (const sb_suite_item *it = s->items; it->workload; it++) {
        printf("%s`%s", it == s->items ? "" : ", ", it->workload);
        if (it->options) {
            printf(" ");
            cell(it->options);
        }
        printf("`");
    }
    printf(" |\n");
}

int sb_list_md(int argc, char **argv, int first)
{
    for (int i = first; i < argc; i++)
        if (!sb_workload_find(argv[i]) && !sb_suite_find(argv[i]))
            return sb_usage_error("list", "unknown test or suite '%s'", argv[i]);
    bool any_suite = false;
    for (size_t i = 0; i < sb_workload_count(); i++) {
        const sb_workload *w = sb_workload_at(i);
        bool named = first >= argc;
        for (int k = first; k < argc && !named; k++)
            named = !strcmp(argv[k], w->name);
        if (named)
            print_test(w);
    }
    for (size_t i = 0; i < sb_suite_count(); i++) {
        const sb_suite *s = sb_suite_at(i);
        bool named = first >= argc;
        for (int k = first; k < argc && !named; k++)
            named = !strcmp(argv[k], s->name);
        if (!named)
            continue;
        if (!any_suite)
            printf("### Suites\n\n| suite | what | tests, with the options they set |\n| --- | --- | --- |\n");
        any_suite = true;
        print_suite(s);
    }
    return SB_EXIT_OK;
}
