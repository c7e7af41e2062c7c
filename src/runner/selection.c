/*
 * selection — see selection.h. Shared by `run`, `scenario run` and `list --check`, so
 * that every command resolves suites exactly as `run` does. Each refusal is one line
 * in err (the CLI prints it as "storbench: CMD: line", exit 2).
 */
#include "runner/selection.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <time.h>

#include "formats/pts_xml.h"
#include "workloads/registry.h"

/* One line of refusal into err; -EINVAL. */
static int refuse(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int refuse(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -EINVAL;
}

/* "pts/NAME[-VERSION]": the storbench test standing in for that PTS profile (docs/pts.md),
 * with a note when VERSION is not a revision of the program version the test follows. An
 * unknown pts/ name is refused with the known ones. NULL with the line in err; the note
 * (a line for stderr: stdout may be --format json) in s->note. */
static const sb_workload *pts_alias(sb_selection *s, const char *name, char *err, size_t errlen)
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
        refuse(err, errlen, "unknown PTS profile '%s' (storbench stands in for %s)", name, known);
        return NULL;
    }
    sb_pts_profile_at((size_t)i, &test);
    const sb_workload *w = sb_workload_find(test);
    if (!w) {
        refuse(err, errlen, "PTS profile '%s' maps to unknown test %s", name, test);
        return NULL;
    }
    if (!followed) {
        /* which version the figures follow */
        const char *v = sb_pts_profile_versions((size_t)i);
        if (*v)
            snprintf(s->note, sizeof s->note, "note: %s runs storbench's %s, which follows %s %s "
                     "(the seed pages' version, as %s %s run it)", name, w->name, w->title,
                     w->version, sb_pts_profile_at((size_t)i, NULL), v);
        else
            snprintf(s->note, sizeof s->note, "note: %s runs storbench's %s, which follows %s %s "
                     "(the seed pages' version)", name, w->name, w->title, w->version);
    }
    return w;
}

/* Applies "k=v,k=v" (modified in place) to cfg. */
static int apply_assignments(sb_config *cfg, char *list, char *err, size_t errlen)
{
    for (char *save = NULL, *kv = strtok_r(list, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq)
            return refuse(err, errlen, "option '%s' is not KEY=VALUE", kv);
        *eq = 0;
        if (sb_config_set(cfg, kv, eq + 1, err, errlen) < 0)
            return -EINVAL;
    }
    return 0;
}

static int add_one(sb_selection *s, const sb_workload *w, bool quick, const char *suite_options,
                   char *err, size_t errlen)
{
    if (s->n >= SB_MAX_SELECTIONS)
        return refuse(err, errlen, "too many tests selected (at most %d)", SB_MAX_SELECTIONS);
    sb_config_init(&s->cfg[s->n], w, quick);
    if (suite_options) {
        /* Suite option strings are static: copy before strtok. They live as long as the
         * process, which the config's value pointers need. */
        char *copy = strdup(suite_options);
        if (!copy)
            return refuse(err, errlen, "%s", strerror(ENOMEM));
        if (apply_assignments(&s->cfg[s->n], copy, err, errlen))
            return -EINVAL;
    }
    s->n++;
    return 0;
}

int sb_selection_add(sb_selection *s, char *name, bool quick, char *err, size_t errlen)
{
    s->note[0] = 0;
    char *inline_opts = strchr(name, ':');
    if (inline_opts)
        *inline_opts++ = 0;
    const sb_workload *w = sb_workload_find(name);
    if (!w && !strncmp(name, "pts/", 4) && !(w = pts_alias(s, name, err, errlen)))
        return -EINVAL;
    const sb_suite *suite = w ? NULL : sb_suite_find(name);
    if (!w && !suite)
        return refuse(err, errlen, "unknown test or suite '%s' (see 'storbench list')", name);
    if (suite && inline_opts)
        return refuse(err, errlen, "'%s' is a suite: options go with --option", name);
    if (w) {
        if (add_one(s, w, quick, NULL, err, errlen))
            return -EINVAL;
        if (inline_opts && apply_assignments(&s->cfg[s->n - 1], inline_opts, err, errlen))
            return -EINVAL;
        return 0;
    }
    for (const sb_suite_item *it = suite->items; it->workload; it++) {
        const sb_workload *sw = sb_workload_find(it->workload);
        if (!sw)
            return refuse(err, errlen, "suite %s names unknown test %s", suite->name, it->workload);
        if (add_one(s, sw, quick || suite->quick, it->options, err, errlen))
            return -EINVAL;
    }
    return 0;
}

int sb_selection_set_options(sb_selection *s, char **assignments, size_t n, char *err, size_t errlen)
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
                return refuse(err, errlen, "--option %s:...: no test named '%s' (see 'storbench list')",
                                      test, test);
            bool selected = false;
            for (size_t k = 0; k < s->n; k++) {
                if (strcmp(s->cfg[k].workload->name, test))
                    continue;
                selected = true;
                char *copy = strdup(colon + 1); /* each config keeps pointers into its copy */
                if (!copy)
                    return refuse(err, errlen, "%s", strerror(ENOMEM));
                if (apply_assignments(&s->cfg[k], copy, err, errlen))
                    return -EINVAL;
            }
            if (!selected)
                return refuse(err, errlen, "--option %s:...: %s is not among the selected tests",
                                      test, test);
            continue;
        }
        if (!eq)
            return refuse(err, errlen, "--option '%s' is not KEY=VALUE", assignments[a]);
        *eq = 0;
        bool used = false;
        for (size_t k = 0; k < s->n; k++) {
            int rc = sb_config_set(&s->cfg[k], assignments[a], eq + 1, err, errlen);
            if (rc == -EINVAL)
                return -EINVAL;
            used = used || rc == 0;
        }
        if (!used)
            return refuse(err, errlen, "no selected test has an option '%s'", assignments[a]);
    }
    return 0;
}

int sb_selection_validate(sb_selection *s, char *err, size_t errlen)
{
    for (size_t k = 0; k < s->n; k++) {
        err[0] = 0;
        if (sb_config_resolve(&s->cfg[k], err, errlen) < 0)
            return err[0] ? -EINVAL : refuse(err, errlen, "invalid options");
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
