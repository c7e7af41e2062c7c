/*
 * selection — see selection.h. Moved out of run.c so that `scenario run`
 * resolves suites exactly as `run` does.
 */
#include "cli/selection.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "core/log.h"
#include "formats/pts_xml.h"
#include "workloads/registry.h"

/* "pts/NAME[-VERSION]": the storbench test standing in for that PTS profile (docs/pts.md),
 * with a note when VERSION is not a revision of the program version the test follows. An
 * unknown pts/ name is refused with the known ones. NULL after printing why. */
static const sb_workload *pts_alias(const char *cmd, const char *name)
{
    bool followed = true;
    long i = sb_pts_profile_find(name, &followed);
    const char *test = NULL;
    if (i < 0) {
        char known[512] = "";
        size_t len = 0;
        for (size_t k = 0; sb_pts_profile_at(k, NULL) && len < sizeof known; k++)
            len += (size_t)snprintf(known + len, sizeof known - len, "%s%s", k ? ", " : "",
                                    sb_pts_profile_at(k, NULL));
        sb_usage_error(cmd, "unknown PTS profile '%s' (storbench stands in for %s)", name, known);
        return NULL;
    }
    sb_pts_profile_at((size_t)i, &test);
    const sb_workload *w = sb_workload_find(test);
    if (!w) {
        sb_usage_error(cmd, "PTS profile '%s' maps to unknown test %s", name, test);
        return NULL;
    }
    if (!followed) {
        /* one line on stderr (stdout may be --format json): which version the figures follow */
        const char *v = sb_pts_profile_versions((size_t)i);
        if (*v)
            fprintf(stderr, "storbench: %s: note: %s runs storbench's %s, which follows %s %s "
                    "(the seed pages' version, as %s %s run it)\n", cmd, name, w->name, w->title,
                    w->version, sb_pts_profile_at((size_t)i, NULL), v);
        else
            fprintf(stderr, "storbench: %s: note: %s runs storbench's %s, which follows %s %s "
                    "(the seed pages' version)\n", cmd, name, w->name, w->title, w->version);
    }
    return w;
}

/* Applies "k=v,k=v" (modified in place) to cfg. */
static int apply_assignments(sb_config *cfg, const char *cmd, char *list)
{
    char err[512];
    for (char *save = NULL, *kv = strtok_r(list, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq)
            return sb_usage_error(cmd, "option '%s' is not KEY=VALUE", kv);
        *eq = 0;
        if (sb_config_set(cfg, kv, eq + 1, err, sizeof err) < 0)
            return sb_usage_error(cmd, "%s", err);
    }
    return 0;
}

static int add_one(sb_selection *s, const char *cmd, const sb_workload *w, bool quick,
                   const char *suite_options)
{
    if (s->n >= SB_MAX_SELECTIONS)
        return sb_usage_error(cmd, "too many tests selected (at most %d)", SB_MAX_SELECTIONS);
    sb_config_init(&s->cfg[s->n], w, quick);
    if (suite_options) {
        /* Suite option strings are static: copy before strtok. They live as long as the
         * process, which the config's value pointers need. */
        char *copy = strdup(suite_options);
        if (!copy || apply_assignments(&s->cfg[s->n], cmd, copy))
            return SB_EXIT_USAGE;
    }
    s->n++;
    return 0;
}

int sb_selection_add(sb_selection *s, const char *cmd, char *name, bool quick)
{
    char *inline_opts = strchr(name, ':');
    if (inline_opts)
        *inline_opts++ = 0;
    const sb_workload *w = sb_workload_find(name);
    if (!w && !strncmp(name, "pts/", 4) && !(w = pts_alias(cmd, name)))
        return SB_EXIT_USAGE;
    const sb_suite *suite = w ? NULL : sb_suite_find(name);
    if (!w && !suite)
        return sb_usage_error(cmd, "unknown test or suite '%s' (see 'storbench list')", name);
    if (suite && inline_opts)
        return sb_usage_error(cmd, "'%s' is a suite: options go with --option", name);
    if (w) {
        if (add_one(s, cmd, w, quick, NULL))
            return SB_EXIT_USAGE;
        if (inline_opts && apply_assignments(&s->cfg[s->n - 1], cmd, inline_opts))
            return SB_EXIT_USAGE;
        return 0;
    }
    for (const sb_suite_item *it = suite->items; it->workload; it++) {
        const sb_workload *sw = sb_workload_find(it->workload);
        if (!sw)
            return sb_usage_error(cmd, "suite %s names unknown test %s", suite->name, it->workload);
        if (add_one(s, cmd, sw, quick || suite->quick, it->options))
            return SB_EXIT_USAGE;
    }
    return 0;
}

int sb_selection_set_options(sb_selection *s, const char *cmd, char **assignments, size_t n)
{
    for (size_t a = 0; a < n; a++) {
        /* "TEST:KEY=VALUE,KEY=VALUE" (as --help says, and as a TEST operand takes them):
         * the options of that test only. A ':' after the '=' is part of the value. */
        char *colon = strchr(assignments[a], ':');
        char *eq = strchr(assignments[a], '=');
        if (colon && (!eq || colon < eq)) {
            *colon = 0;
            const char *test = assignments[a];
            if (!sb_workload_find(test))
                return sb_usage_error(cmd, "--option %s:...: no test named '%s' (see 'storbench list')",
                                      test, test);
            bool selected = false;
            for (size_t k = 0; k < s->n; k++) {
                if (strcmp(s->cfg[k].workload->name, test))
                    continue;
                selected = true;
                char *copy = strdup(colon + 1); /* each config keeps pointers into its copy */
                if (!copy || apply_assignments(&s->cfg[k], cmd, copy))
                    return SB_EXIT_USAGE;
            }
            if (!selected)
                return sb_usage_error(cmd, "--option %s:...: %s is not among the selected tests",
                                      test, test);
            continue;
        }
        if (!eq)
            return sb_usage_error(cmd, "--option '%s' is not KEY=VALUE", assignments[a]);
        *eq = 0;
        bool used = false;
        char err[512];
        for (size_t k = 0; k < s->n; k++) {
            int rc = sb_config_set(&s->cfg[k], assignments[a], eq + 1, err, sizeof err);
            if (rc == -EINVAL)
                return sb_usage_error(cmd, "%s", err);
            used = used || rc == 0;
        }
        if (!used)
            return sb_usage_error(cmd, "no selected test has an option '%s'", assignments[a]);
    }
    return 0;
}

int sb_selection_validate(const sb_selection *s, const char *cmd)
{
    for (size_t k = 0; k < s->n; k++) {
        char err[512] = "";
        const sb_workload *w = s->cfg[k].workload;
        if (w->validate && w->validate(&s->cfg[k], err, sizeof err) < 0)
            return sb_usage_error(cmd, "%s", err[0] ? err : "invalid options");
    }
    return 0;
}

void sb_selection_probe(const sb_selection *s, const char *identifier, sb_resultfile *out)
{
    /* the charts the runner's record() files figures under: test, option line per measure,
     * unit, direction and the resolved options */
    sb_resultfile_add_system(out, identifier);
    for (size_t k = 0; k < s->n; k++) {
        const sb_config *cfg = &s->cfg[k];
        const sb_workload *w = cfg->workload;
        sb_kvlist options = {0};
        for (size_t i = 0; i < w->n_options; i++)
            sb_kvlist_add(&options, w->options[i].key, cfg->values[i]);
        for (size_t m = 0; m < w->n_measures; m++) {
            char desc[1024];
            sb_config_describe(cfg, &w->measures[m], desc, sizeof desc);
            sb_result *r = sb_resultfile_get_result_opts(out, w->name, w->title, "", desc,
                                                         w->measures[m].unit,
                                                         w->measures[m].direction, &options);
            if (!sb_result_find_entry(r, identifier))
                sb_result_add_entry(r, identifier);
        }
        sb_kvlist_free(&options);
    }
}
