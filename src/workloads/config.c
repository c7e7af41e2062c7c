/*
 * config — resolution and validation of a test's option values, and the
 * option line a result shows ("Type: Random Write - IO Engine: POSIX AIO").
 * Each value is parsed by its option's kind once, when it is set; the one
 * check of values (sb_config_check) and the typed reads work on that.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "workloads/workload.h"

static int option_index(const sb_config *cfg, const char *key)
{
    for (size_t i = 0; i < cfg->workload->n_options; i++)
        if (!strcmp(cfg->workload->options[i].key, key))
            return (int)i;
    return -1;
}

/* Parses v by o's kind into *out (out->ok false when it is not of that kind). */
static void parse_value(const sb_option *o, const char *v, sb_value *out)
{
    int b = 0;
    *out = (sb_value){.ok = true};
    if ((o->flags & SB_OPT_AUTO) && !strcmp(v, "auto")) {
        out->is_auto = true;
        return;
    }
    switch (o->kind) {
    case SB_VAL_TEXT:
    case SB_VAL_IO: /* the io option table's entry parses it and names the option */
    case SB_VAL_CHOICE: break;
    case SB_VAL_UINT: out->ok = sb_parse_uint(v, o->min, o->max, &out->u) == 0; break;
    case SB_VAL_SIZE: out->ok = sb_parse_size(v, &out->u) == 0; break;
    case SB_VAL_DURATION: out->ok = sb_parse_duration(v, &out->seconds) == 0; break;
    case SB_VAL_BOOL:
        out->ok = sb_parse_bool(v, &b) == 0;
        out->u = b != 0;
        break;
    }
}

void sb_config_init(sb_config *cfg, const sb_workload *w, bool quick)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->workload = w;
    cfg->quick = quick;
    for (size_t i = 0; i < w->n_options && i < SB_MAX_OPTIONS; i++) {
        const sb_option *o = &w->options[i];
        cfg->values[i] = (quick && o->quick) ? o->quick : o->def;
        parse_value(o, cfg->values[i], &cfg->typed[i]);
    }
}

int sb_config_set(sb_config *cfg, const char *key, const char *value, char *err, size_t errlen)
{
    int i = option_index(cfg, key);
    if (i < 0) {
        snprintf(err, errlen, "%s has no option '%s' (see 'storbench list %s')",
                 cfg->workload->name, key, cfg->workload->name);
        return -ENOENT;
    }
    const sb_option *o = &cfg->workload->options[i];
    cfg->resolved = false; /* the params no longer say what the options do */
    if (o->choices) {
        for (const sb_choice *c = o->choices; c->value; c++)
            if (!strcmp(c->value, value)) {
                cfg->values[i] = c->value;
                cfg->set[i] = true;
                parse_value(o, c->value, &cfg->typed[i]);
                return 0;
            }
        char allowed[512] = "";
        size_t used = 0;
        for (const sb_choice *c = o->choices; c->value && used < sizeof allowed; c++)
            used += (size_t)snprintf(allowed + used, sizeof allowed - used, "%s%s",
                                     c == o->choices ? "" : ", ", c->value);
        snprintf(err, errlen, "%s: %s=%s is not allowed (one of: %s)", cfg->workload->name, key,
                 value, allowed);
        return -EINVAL;
    }
    cfg->values[i] = value;
    cfg->set[i] = true;
    parse_value(o, value, &cfg->typed[i]);
    return 0;
}

const char *sb_config_get(const sb_config *cfg, const char *key)
{
    int i = option_index(cfg, key);
    return i < 0 ? NULL : cfg->values[i];
}

int sb_config_resolve(sb_config *cfg, char *err, size_t errlen)
{
    const sb_workload *w = cfg->workload;
    memset(cfg->params, 0, sizeof cfg->params);
    cfg->resolved = false;
    if (!w->resolve)
        return 0;
    if (w->params_size > sizeof cfg->params) { /* a new workload outgrew SB_PARAMS_MAX */
        snprintf(err, errlen, "%s: its params (%zu bytes) exceed SB_PARAMS_MAX", w->name, w->params_size);
        return -EINVAL;
    }
    err[0] = 0;
    int rc = w->resolve(cfg, cfg->params, err, errlen);
    if (rc < 0)
        return -EINVAL; /* the line in err is the workload's */
    cfg->resolved = true;
    return 0;
}

const void *sb_config_params(const sb_config *cfg)
{
    return cfg->params;
}

bool sb_config_is_resolved(const sb_config *cfg)
{
    return cfg->resolved || !cfg->workload->resolve;
}

bool sb_config_measured(const sb_config *cfg, size_t m)
{
    return !cfg->workload->measured || cfg->workload->measured(cfg->params, m);
}

const char *sb_config_display(const sb_config *cfg, const char *key)
{
    int i = option_index(cfg, key);
    if (i < 0)
        return NULL;
    const sb_option *o = &cfg->workload->options[i];
    if (o->choices)
        for (const sb_choice *c = o->choices; c->value; c++)
            if (!strcmp(c->value, cfg->values[i]))
                return c->display ? c->display : c->value;
    return cfg->values[i];
}

int sb_config_check(const sb_config *cfg, char *err, size_t errlen)
{
    const sb_workload *w = cfg->workload;
    for (size_t i = 0; i < w->n_options; i++) {
        const sb_option *o = &w->options[i];
        if (cfg->typed[i].ok)
            continue;
        char what[96] = "";
        switch (o->kind) {
        case SB_VAL_UINT:
            snprintf(what, sizeof what, "a whole number from %llu to %llu", (unsigned long long)o->min,
                     (unsigned long long)o->max);
            break;
        case SB_VAL_SIZE: snprintf(what, sizeof what, "a size (e.g. 4k, 1M, 2g)"); break;
        case SB_VAL_DURATION: snprintf(what, sizeof what, "a duration (e.g. 20, 20s, 500ms, 2m)"); break;
        case SB_VAL_BOOL: snprintf(what, sizeof what, "yes or no"); break;
        case SB_VAL_TEXT:
        case SB_VAL_IO:
        case SB_VAL_CHOICE: continue; /* checked where they are parsed */
        }
        snprintf(err, errlen, "%s: %s=%s is not %s", w->name, o->key, cfg->values[i], what);
        return -EINVAL;
    }
    return 0;
}

/* The parsed value of key (a declared option: the workload's own code names it). */
static const sb_value *typed(const sb_config *cfg, const char *key)
{
    static const sb_value none;
    int i = option_index(cfg, key);
    return i < 0 ? &none : &cfg->typed[i];
}

uint64_t sb_config_u(const sb_config *cfg, const char *key)
{
    return typed(cfg, key)->u;
}

double sb_config_seconds(const sb_config *cfg, const char *key)
{
    return typed(cfg, key)->seconds;
}

bool sb_config_yes(const sb_config *cfg, const char *key)
{
    return typed(cfg, key)->u != 0;
}

bool sb_config_is_auto(const sb_config *cfg, const char *key)
{
    return typed(cfg, key)->is_auto;
}

/* At full scale, the hidden options whose value is not their default, as the option
 * line's override part " (size=8m, runtime=1)" (results/result.h, sb_option_line_base:
 * charts join without it, so that a short run still lands in the seed profile's chart,
 * which the tests of joining and users comparing against a seed page rely on; the line
 * still says the figure is not the profile's). Under --quick, "Scale: Quick" says it. */
static void describe_overrides(const sb_config *cfg, char *buf, size_t len, size_t used)
{
    size_t n = 0;
    for (size_t i = 0; !cfg->quick && i < cfg->workload->n_options && used < len; i++) {
        const sb_option *o = &cfg->workload->options[i];
        if (!(o->flags & SB_OPT_HIDDEN) || !strcmp(cfg->values[i], o->def))
            continue;
        used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", n++ ? ", " : used ? " (" : "(",
                                 o->key, cfg->values[i]);
    }
    if (n && used < len)
        snprintf(buf + used, len - used, ")");
}

void sb_config_describe(const sb_config *cfg, const sb_measure *m, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < cfg->workload->n_options; i++) {
        const sb_option *o = &cfg->workload->options[i];
        /* A hidden option appears under --quick when it was given (-o, never a suite item:
         * suites set visible options only) with a value that is neither its default nor its
         * quick value (which "Scale: Quick" stands for): "Scale: Quick" alone would say the
         * run was the quick suite's. At full scale, the override part names it (below). */
        if ((o->flags & SB_OPT_HIDDEN) &&
            (!cfg->quick || !cfg->set[i] || !strcmp(cfg->values[i], o->def) ||
             (o->quick && !strcmp(cfg->values[i], o->quick))))
            continue;
        if ((o->flags & SB_OPT_IF_CHANGED) && !strcmp(cfg->values[i], o->def))
            continue;
        const char *d = sb_config_display(cfg, o->key);
        if (used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s: %s", used ? " - " : "",
                                     o->title, d ? d : "");
    }
    if (m && m->label && used < len)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " - " : "", m->label);
    /* A --quick figure must never land in the same result as a full-scale one: some tests
     * scale down in ways their option line does not show (fs-mark's named tests). */
    if (m && cfg->quick && used < len)
        snprintf(buf + used, len - used, "%sScale: Quick", used ? " - " : "");
    describe_overrides(cfg, buf, len, strlen(buf));
}
