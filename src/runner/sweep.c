/*
 * sweep — the matrix of `storbench sweep` (sweep.h). A parameter is a row of one table:
 * its sweep name, the fio test's option key it sets, whether it may be listed, and the
 * kind of its values, which decides how a value is normalised (a size "4096" and "4k"
 * are one cell: "4k"; direct "1" is "yes") and whether a range may be given. Values are
 * normalised once, when parsed, so that a cell's options are the strings the runner
 * records and a second run of the same sweep finds them again in the result file.
 */
#include "runner/sweep.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strutil.h"
#include "core/units.h"
#include "workloads/registry.h"

enum kind { K_UINT, K_SIZE, K_RW, K_BOOL, K_WORD };

static const struct param {
    const char *name; /* the sweep's option */
    const char *key;  /* the fio test's option */
    enum kind kind;
    uint64_t min, max; /* K_UINT */
} params[SB_SWEEP_N_PARAMS] = {
    [SB_SWEEP_RW] = {"rw", "type", K_RW, 0, 0},
    [SB_SWEEP_BS] = {"bs", "bs", K_SIZE, 0, 0},
    [SB_SWEEP_IODEPTH] = {"iodepth", "iodepth", K_UINT, 1, 65536},
    [SB_SWEEP_NUMJOBS] = {"numjobs", "numjobs", K_UINT, 1, 256},
    [SB_SWEEP_IOENGINE] = {"ioengine", "engine", K_WORD, 0, 0},
    [SB_SWEEP_RWMIXREAD] = {"rwmixread", "rwmixread", K_UINT, 0, 100},
    [SB_SWEEP_DIRECT] = {"direct", "direct", K_BOOL, 0, 0},
    [SB_SWEEP_SIZE] = {"size", "size", K_SIZE, 0, 0},
    [SB_SWEEP_RUNTIME] = {"runtime", "runtime", K_WORD, 0, 0},
    [SB_SWEEP_RAMP] = {"ramp_time", "ramp", K_WORD, 0, 0},
    [SB_SWEEP_STARTDELAY] = {"startdelay", "startdelay", K_WORD, 0, 0},
};

const char *sb_sweep_param_name(int param)
{
    return param >= 0 && param < SB_SWEEP_N_PARAMS ? params[param].name : "?";
}

int sb_sweep_param_find(const char *name)
{
    for (int i = 0; i < SB_SWEEP_N_PARAMS; i++)
        if (!strcmp(name, params[i].name))
            return i;
    return -1;
}

void sb_sweep_init(sb_sweep *s, bool quick)
{
    memset(s, 0, sizeof *s);
    s->quick = quick;
}

static void axis_free(sb_sweep_axis *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->values[i]);
    free(a->values);
    a->values = NULL;
    a->n = 0;
}

void sb_sweep_free(sb_sweep *s)
{
    for (int i = 0; i < SB_SWEEP_N_PARAMS; i++)
        axis_free(&s->axis[i]);
}

/* A size as its shortest IEC spelling, "4k", "1m", "512", so that "4096" and "4K" are one
 * value, and the spelling the fio test's Block Size choices use. */
static void size_text(char *buf, size_t len, uint64_t n)
{
    if (n && n % (1024 * 1024) == 0)
        snprintf(buf, len, "%" PRIu64 "m", n / (1024 * 1024));
    else if (n && n % 1024 == 0)
        snprintf(buf, len, "%" PRIu64 "k", n / 1024);
    else
        snprintf(buf, len, "%" PRIu64, n);
}

/* One number of a K_UINT or K_SIZE parameter. */
static int number(const struct param *p, const char *v, uint64_t *n, char *err, size_t errlen)
{
    if (p->kind == K_SIZE ? sb_parse_size(v, n) < 0 || *n == 0 : sb_parse_uint(v, p->min, p->max, n) < 0) {
        if (p->kind == K_SIZE)
            snprintf(err, errlen, "%s: '%s' is not a size (4k, 1m ...)", p->name, v);
        else
            snprintf(err, errlen, "%s: '%s' is not a whole number from %" PRIu64 " to %" PRIu64, p->name, v,
                     p->min, p->max);
        return -EINVAL;
    }
    return 0;
}

/* One value, normalised, into buf. */
static int normalise(const struct param *p, const char *v, char *buf, size_t len, char *err, size_t errlen)
{
    uint64_t n;
    switch (p->kind) {
    case K_UINT:
    case K_SIZE:
        if (number(p, v, &n, err, errlen) < 0)
            return -EINVAL;
        if (p->kind == K_SIZE)
            size_text(buf, len, n);
        else
            snprintf(buf, len, "%" PRIu64, n);
        return 0;
    case K_BOOL:
        if (!strcmp(v, "1") || !strcmp(v, "yes") || !strcmp(v, "true"))
            snprintf(buf, len, "yes");
        else if (!strcmp(v, "0") || !strcmp(v, "no") || !strcmp(v, "false"))
            snprintf(buf, len, "no");
        else {
            snprintf(err, errlen, "%s: '%s' is not 0 or 1", p->name, v);
            return -EINVAL;
        }
        return 0;
    case K_RW: /* fio's two names of the sequential mix */
        snprintf(buf, len, "%s", !strcmp(v, "readwrite") ? "rw" : v);
        return 0;
    case K_WORD:
        snprintf(buf, len, "%s", v);
        return 0;
    }
    return 0;
}

static int add_value(sb_sweep_axis *a, const struct param *p, const char *v, char *err, size_t errlen)
{
    for (size_t i = 0; i < a->n; i++)
        if (!strcmp(a->values[i], v)) {
            snprintf(err, errlen, "%s: %s is listed twice", p->name, v);
            return -EINVAL;
        }
    if (a->n >= SB_SWEEP_MAX_VALUES) {
        snprintf(err, errlen, "%s: more than %d values", p->name, SB_SWEEP_MAX_VALUES);
        return -EINVAL;
    }
    a->values = sb_xrealloc(a->values, (a->n + 1) * sizeof *a->values);
    a->values[a->n++] = sb_xstrdup(v);
    return 0;
}

/* "A..B" (doubling) or "A..B:S" (adding S) into a's values. */
static int add_range(sb_sweep_axis *a, const struct param *p, char *item, char *dots, char *err,
                     size_t errlen)
{
    if (p->kind != K_UINT && p->kind != K_SIZE) {
        snprintf(err, errlen, "%s: '%s': a range is for numbers and sizes", p->name, item);
        return -EINVAL;
    }
    *dots = '\0';
    char *hi = dots + 2, *step = strchr(hi, ':');
    if (step)
        *step++ = '\0';
    uint64_t lo_n, hi_n, st = 0, n;
    if (!*item || !*hi || (step && !*step)) {
        snprintf(err, errlen, "%s: the range '%s..%s%s%s' does not end (A..B doubles, A..B:STEP adds)",
                 p->name, item, hi, step ? ":" : "", step ? step : "");
        return -EINVAL;
    }
    if (number(p, item, &lo_n, err, errlen) < 0 || number(p, hi, &hi_n, err, errlen) < 0 ||
        (step && number(p, step, &st, err, errlen) < 0))
        return -EINVAL;
    if (hi_n < lo_n || (!step && lo_n == 0) || (step && st == 0)) {
        snprintf(err, errlen, "%s: the range %s..%s%s%s does not end (it must grow from its start to its end)",
                 p->name, item, hi, step ? ":" : "", step ? step : "");
        return -EINVAL;
    }
    char buf[64];
    for (n = lo_n; n <= hi_n; n = step ? n + st : n * 2) {
        if (p->kind == K_SIZE)
            size_text(buf, sizeof buf, n);
        else
            snprintf(buf, sizeof buf, "%" PRIu64, n);
        if (add_value(a, p, buf, err, errlen) < 0)
            return -EINVAL;
        if (n > UINT64_MAX / 2)
            break;
    }
    return 0;
}

int sb_sweep_set(sb_sweep *s, int param, const char *spec, char *err, size_t errlen)
{
    const struct param *p = &params[param];
    sb_sweep_axis *a = &s->axis[param];
    axis_free(a);
    char *copy = sb_xstrdup(spec), *save = NULL, *item;
    int rc = 0;
    size_t len = strlen(copy);
    if (!len || copy[0] == ',' || copy[len - 1] == ',' || strstr(copy, ",,")) {
        snprintf(err, errlen, "%s: an empty %s in '%s'", p->name, len ? "item" : "list", spec);
        rc = -EINVAL;
    }
    for (item = strtok_r(copy, ",", &save); rc == 0 && item; item = strtok_r(NULL, ",", &save)) {
        char *dots = strstr(item, "..");
        char buf[256];
        if (dots)
            rc = add_range(a, p, item, dots, err, errlen);
        else if ((rc = normalise(p, item, buf, sizeof buf, err, errlen)) == 0)
            rc = add_value(a, p, buf, err, errlen);
    }
    if (rc == 0 && param >= SB_SWEEP_N_LISTED && a->n > 1) {
        snprintf(err, errlen, "%s takes one value ('%s'): it is not one of the parameters a sweep lists",
                 p->name, spec);
        rc = -EINVAL;
    }
    free(copy);
    if (rc < 0)
        axis_free(a);
    return rc;
}

size_t sb_sweep_cells(const sb_sweep *s)
{
    size_t n = 1;
    for (int i = 0; i < SB_SWEEP_N_PARAMS; i++) {
        size_t k = s->axis[i].n ? s->axis[i].n : 1;
        if (n > SIZE_MAX / k)
            return SIZE_MAX;
        n *= k;
    }
    return n;
}

/* Parameter i's value v into cfg (direct also sets the fio test's Buffered, its opposite). */
static int set_value(sb_config *cfg, int i, const char *v, char *err, size_t errlen)
{
    char e[512];
    int rc = sb_config_set(cfg, params[i].key, v, e, sizeof e);
    if (rc == 0 && i == SB_SWEEP_DIRECT)
        rc = sb_config_set(cfg, "buffered", !strcmp(v, "yes") ? "no" : "yes", e, sizeof e);
    if (rc < 0)
        snprintf(err, errlen, "%s=%s: %s", params[i].name, v, e);
    return rc;
}

int sb_sweep_check_values(const sb_sweep *s, char *err, size_t errlen)
{
    const sb_workload *fio = sb_workload_find("fio");
    sb_config *cfg = sb_xrealloc(NULL, sizeof *cfg);
    int rc = 0;
    for (int i = 0; rc == 0 && i < SB_SWEEP_N_PARAMS; i++)
        for (size_t k = 0; rc == 0 && k < s->axis[i].n; k++) {
            sb_config_init(cfg, fio, s->quick);
            const char *v = s->axis[i].values[k];
            if ((rc = set_value(cfg, i, v, err, errlen)) == 0) {
                char e[512];
                if ((rc = sb_config_resolve(cfg, e, sizeof e)) < 0)
                    snprintf(err, errlen, "%s=%s: %s", params[i].name, v, e);
            }
        }
    free(cfg);
    return rc < 0 ? -EINVAL : 0;
}

/* The value index of parameter i in cell index (the last parameter varies fastest). */
static size_t value_of(const sb_sweep *s, size_t index, int i)
{
    for (int j = SB_SWEEP_N_PARAMS - 1; j > i; j--)
        index /= s->axis[j].n ? s->axis[j].n : 1;
    return s->axis[i].n ? index % s->axis[i].n : 0;
}

int sb_sweep_cell(const sb_sweep *s, size_t index, sb_config *cfg, char *err, size_t errlen)
{
    sb_config_init(cfg, sb_workload_find("fio"), s->quick);
    for (int i = 0; i < SB_SWEEP_N_PARAMS; i++)
        if (s->axis[i].n && set_value(cfg, i, s->axis[i].values[value_of(s, index, i)], err, errlen) < 0)
            return SB_SWEEP_CELL_SKIP; /* each value alone was accepted: only a combination fails */
    const char *type = sb_config_get(cfg, "type");
    if (s->axis[SB_SWEEP_RWMIXREAD].n && strcmp(type, "rw") && strcmp(type, "randrw")) {
        snprintf(err, errlen, "rwmixread applies to a mixed rw (rw or randrw), not rw=%s", type);
        return SB_SWEEP_CELL_SKIP;
    }
    char e[512];
    if (sb_config_resolve(cfg, e, sizeof e) < 0) {
        snprintf(err, errlen, "%s", e);
        return SB_SWEEP_CELL_SKIP;
    }
    return SB_SWEEP_CELL_OK;
}

void sb_sweep_cell_label(const sb_sweep *s, size_t index, char *buf, size_t len)
{
    bool any_listed = false;
    for (int i = 0; i < SB_SWEEP_N_PARAMS; i++)
        any_listed = any_listed || s->axis[i].n > 1;
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < SB_SWEEP_N_PARAMS && used < len; i++) {
        if (!s->axis[i].n || (any_listed && s->axis[i].n < 2))
            continue;
        int w = snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "", params[i].name,
                         s->axis[i].values[value_of(s, index, i)]);
        used += w > 0 ? (size_t)w : 0;
    }
    if (!buf[0])
        snprintf(buf, len, "defaults");
}

bool sb_sweep_saved(const sb_resultfile *rf, const sb_config *cfg, const char *identifier)
{
    const sb_workload *w = cfg->workload;
    for (size_t r = 0; r < rf->n_results; r++) {
        const sb_result *res = &rf->results[r];
        if (strcmp(res->test, w->name) || !sb_result_find_entry(res, identifier))
            continue;
        bool same = true;
        for (size_t i = 0; same && i < w->n_options; i++) {
            const char *v = sb_kvlist_get(&res->options, w->options[i].key);
            same = v && !strcmp(v, cfg->values[i]);
        }
        if (same)
            return true;
    }
    return false;
}
