/*
 * resultfile — the result file on disk: JSON through jansson, schema
 * described in docs/result-format.md. Saving goes through core/atomicfile
 * (temporary file beside the target, fsync, rename, fsync of the directory;
 * symlinks followed, mode and owner kept), so a crash, a full disk or a
 * Ctrl-C never leaves a half-written or damaged result file. Loading names
 * the field that is wrong, and keeps the keys it does not know so that a
 * rewrite by this version does not lose what a newer one wrote.
 */
#include "results/result.h"
#include "results/series_json.h"

#include "core/atomicfile.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FORMAT_NAME "storbench-result"

int sb_results_dir(const char *override, char *out, size_t len)
{
    int n;
    if (override && *override)
        n = snprintf(out, len, "%s", override);
    else if (getenv("XDG_DATA_HOME") && *getenv("XDG_DATA_HOME"))
        n = snprintf(out, len, "%s/storbench/results", getenv("XDG_DATA_HOME"));
    else if (getenv("HOME") && *getenv("HOME"))
        n = snprintf(out, len, "%s/.local/share/storbench/results", getenv("HOME"));
    else
        return -ENOENT;
    return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

/* A control character (a newline above all) in a name would make every listing and
 * message that shows it lie; "." and ".." name directories, not results. */
static bool bad_name(const char *name)
{
    if (!strcmp(name, ".") || !strcmp(name, ".."))
        return true;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return true;
    return false;
}

int sb_result_path(const char *name, const char *override, char *out, size_t len)
{
    if (!name || !*name || bad_name(name))
        return -EINVAL;
    if (strchr(name, '/')) {
        int n = snprintf(out, len, "%s", name);
        return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
    }
    char dir[PATH_MAX];
    int rc = sb_results_dir(override, dir, sizeof dir);
    if (rc < 0)
        return rc;
    size_t nl = strlen(name);
    bool has_ext = nl > 5 && !strcmp(name + nl - 5, ".json");
    int n = snprintf(out, len, "%s/%s%s", dir, name, has_ext ? "" : ".json");
    return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

/* ---------- UTF-8: what a JSON string can hold ---------- */

size_t sb_utf8_check(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        unsigned c = p[i];
        size_t n;
        unsigned min;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xe0) == 0xc0) {
            n = 1, min = 0x80, c &= 0x1f;
        } else if ((c & 0xf0) == 0xe0) {
            n = 2, min = 0x800, c &= 0x0f;
        } else if ((c & 0xf8) == 0xf0) {
            n = 3, min = 0x10000, c &= 0x07;
        } else {
            return i;
        }
        if (i + n >= len)
            return i;
        for (size_t k = 1; k <= n; k++) {
            if ((p[i + k] & 0xc0) != 0x80)
                return i;
            c = (c << 6) | (p[i + k] & 0x3f);
        }
        if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
            return i;
        i += n + 1;
    }
    return len;
}

bool sb_utf8_valid(const char *s)
{
    size_t n = strlen(s);
    return sb_utf8_check(s, n) == n;
}

static const char *kv_invalid(const sb_kvlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (!sb_utf8_valid(l->items[i].key) || !sb_utf8_valid(l->items[i].value))
            return l->items[i].key;
    return NULL;
}

const char *sb_resultfile_invalid_utf8(const sb_resultfile *rf)
{
    static char where[160];
#define BAD(...) do { snprintf(where, sizeof where, __VA_ARGS__); return where; } while (0)
    if (!sb_utf8_valid(rf->title))
        BAD("the title");
    if (!sb_utf8_valid(rf->description))
        BAD("the description");
    for (size_t i = 0; i < rf->n_systems; i++) {
        const sb_system *s = &rf->systems[i];
        if (!sb_utf8_valid(s->identifier))
            BAD("the identifier of system %zu", i + 1);
        if (kv_invalid(&s->hardware) || kv_invalid(&s->software) || kv_invalid(&s->storage) ||
            !sb_utf8_valid(s->timestamp) || !sb_utf8_valid(s->tool_version))
            BAD("the description of system %zu", i + 1);
    }
    for (size_t i = 0; i < rf->n_results; i++) {
        const sb_result *r = &rf->results[i];
        if (!sb_utf8_valid(r->test) || !sb_utf8_valid(r->title) || !sb_utf8_valid(r->version))
            BAD("the title of result %zu", i + 1);
        if (!sb_utf8_valid(r->description) || kv_invalid(&r->options))
            BAD("the options of result %zu", i + 1);
        if (!sb_utf8_valid(r->unit))
            BAD("the unit of result %zu", i + 1);
        for (size_t k = 0; k < r->n_entries; k++) {
            const sb_entry *e = &r->entries[k];
            if (!sb_utf8_valid(e->identifier))
                BAD("the identifier of entry %zu of result %zu", k + 1, i + 1);
            for (size_t j = 0; j < e->n_secondary; j++)
                if (!sb_utf8_valid(e->secondary[j].name) || !sb_utf8_valid(e->secondary[j].unit))
                    BAD("a secondary figure of entry %zu of result %zu", k + 1, i + 1);
        }
    }
#undef BAD
    return NULL;
}

/* ---------- encoding ---------- */

/* Adds the keys this version does not know back (they never override a known one). */
static json_t *with_extra(json_t *o, const char *extra)
{
    if (o && extra) {
        json_t *x = json_loads(extra, 0, NULL);
        if (json_is_object(x))
            json_object_update_missing(o, x);
        json_decref(x);
    }
    return o;
}

static json_t *kv_to_json(const sb_kvlist *l)
{
    json_t *o = json_object();
    for (size_t i = 0; i < l->n; i++)
        json_object_set_new(o, l->items[i].key, json_string(l->items[i].value));
    return o;
}

static json_t *entry_to_json(const sb_entry *e)
{
    json_t *values = json_array();
    for (size_t i = 0; i < e->n_values; i++)
        json_array_append_new(values, json_real(e->values[i]));
    json_t *sec = json_array();
    for (size_t i = 0; i < e->n_secondary; i++)
        json_array_append_new(sec, json_pack("{s:s, s:s, s:f}", "name", e->secondary[i].name,
                                             "unit", e->secondary[i].unit, "value",
                                             e->secondary[i].value));
    json_t *o = json_pack("{s:s, s:s, s:f, s:f, s:f, s:i, s:o, s:b, s:o}", "identifier",
                          e->identifier, "origin", e->imported ? "imported" : "measured", "mean",
                          e->mean, "sd", e->sd, "se", e->se, "decimals", e->decimals, "values",
                          values, "untrusted", e->untrusted, "secondary", sec);
    if (o && e->source)
        json_object_set_new(o, "source", json_string(e->source));
    /* N of an imported "SE +/- x, N = n": the values it came from are not known */
    if (o && !e->n_values && e->n_runs)
        json_object_set_new(o, "runs", json_integer((json_int_t)e->n_runs));
    if (o && e->host_bound)
        json_object_set_new(o, "host_bound", isfinite(e->host_ref)
                                                 ? json_pack("{s:s, s:f}", "reference", "device-model = ram",
                                                             "reference_mean", e->host_ref)
                                                 : json_pack("{s:s}", "reference", SB_HOST_BOUND_BUSY_REF));
    if (o && e->has_cpu_busy) /* percent of the measured windows' virtual time (the lab's) */
        json_object_set_new(o, "vcpu_busy_pct", json_real(e->cpu_busy_pct));
    sb_series_json_put(o, e);
    return with_extra(o, e->extra);
}

static json_t *resultfile_to_json_value(const sb_resultfile *rf)
{
    json_t *systems = json_array();
    for (size_t i = 0; i < rf->n_systems; i++) {
        const sb_system *s = &rf->systems[i];
        json_array_append_new(
            systems, with_extra(json_pack("{s:s, s:o, s:o, s:o, s:s, s:s}", "identifier",
                                          s->identifier, "hardware", kv_to_json(&s->hardware),
                                          "software", kv_to_json(&s->software), "storage",
                                          kv_to_json(&s->storage), "timestamp", s->timestamp,
                                          "tool_version", s->tool_version),
                                s->extra));
    }
    json_t *results = json_array();
    for (size_t i = 0; i < rf->n_results; i++) {
        const sb_result *r = &rf->results[i];
        json_t *entries = json_array();
        for (size_t k = 0; k < r->n_entries; k++)
            json_array_append_new(entries, entry_to_json(&r->entries[k]));
        json_array_append_new(
            results,
            with_extra(json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o}", "test", r->test,
                                 "title", r->title, "version", r->version, "description",
                                 r->description, "unit", r->unit, "direction",
                                 r->direction == SB_LOWER_IS_BETTER ? "lower" : "higher",
                                 "options", kv_to_json(&r->options), "entries", entries),
                       r->extra));
    }
    return with_extra(json_pack("{s:s, s:i, s:s, s:s, s:o, s:o}", "format", FORMAT_NAME,
                                "schema_version", SB_RESULT_SCHEMA_VERSION, "title", rf->title,
                                "description", rf->description, "systems", systems, "results",
                                results),
                      rf->extra);
}

char *sb_resultfile_to_json(const sb_resultfile *rf)
{
    /* jansson refuses a string that is not UTF-8 by leaving it (and its whole system or
     * result) out: refuse the whole file instead of writing a part of it. */
    if (sb_resultfile_invalid_utf8(rf))
        return NULL;
    json_t *root = resultfile_to_json_value(rf);
    char *s = root ? json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) : NULL;
    json_decref(root);
    return s;
}

/* ---------- decoding ---------- */

/* Where the decoder is, for the message naming the bad field: "results[3].entries[0]". */
typedef struct loc {
    char at[128];
    char *err;
    size_t errlen;
} loc;

static int bad(loc *l, const char *field, const char *what)
{
    snprintf(l->err, l->errlen, "%s%s%s: %s", l->at, *l->at ? "." : "", field, what);
    return -EINVAL;
}

/* An optional string field: absent gives def, anything but a string is an error. */
static int get_str(loc *l, json_t *o, const char *key, const char *def, const char **out)
{
    json_t *v = json_object_get(o, key);
    if (!v && def) {
        *out = def;
        return 0;
    }
    if (!json_is_string(v))
        return bad(l, key, v ? "not a string" : "missing");
    *out = json_string_value(v);
    return 0;
}

/* A number field: absent gives def (when has_def), anything else but a number is an error. */
static int get_num(loc *l, json_t *o, const char *key, bool has_def, double def, double *out)
{
    json_t *v = json_object_get(o, key);
    if (!v && has_def) {
        *out = def;
        return 0;
    }
    if (!json_is_number(v))
        return bad(l, key, v ? "not a number" : "missing");
    *out = json_number_value(v);
    return 0;
}

/* The keys of o not in known[], as a compact JSON object text (NULL when there are none). */
static char *extra_keys(json_t *o, const char *const *known)
{
    json_t *x = NULL;
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        bool kn = false;
        for (const char *const *p = known; *p && !kn; p++)
            kn = !strcmp(*p, k);
        if (kn)
            continue;
        if (!x)
            x = json_object();
        json_object_set(x, k, v);
    }
    if (!x)
        return NULL;
    char *s = json_dumps(x, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(x);
    return s;
}

static int kv_from_json(loc *l, json_t *o, const char *field, sb_kvlist *kv)
{
    json_t *v = json_object_get(o, field);
    if (!v)
        return 0;
    if (!json_is_object(v))
        return bad(l, field, "not an object");
    const char *k;
    json_t *x;
    json_object_foreach(v, k, x) {
        if (!json_is_string(x)) {
            char f[96];
            snprintf(f, sizeof f, "%s.%.60s", field, k);
            return bad(l, f, "not a string");
        }
        sb_kvlist_add(kv, k, json_string_value(x));
    }
    return 0;
}

static int entry_from_json(loc *l, json_t *je, const sb_resultfile *rf, sb_result *r)
{
    static const char *const known[] = {"identifier", "origin", "source", "mean", "sd", "se",
                                        "decimals", "values", "untrusted", "secondary", "series",
                                        "steady_state", "runs", "host_bound", "vcpu_busy_pct", NULL};
    const char *id;
    double mean, sd, se, decimals;
    if (!json_is_object(je))
        return bad(l, "", "not an object");
    if (get_str(l, je, "identifier", NULL, &id) || get_num(l, je, "mean", false, 0, &mean) ||
        get_num(l, je, "sd", true, 0, &sd) || get_num(l, je, "se", true, 0, &se) ||
        get_num(l, je, "decimals", true, 2, &decimals))
        return -EINVAL;
    if (!sb_resultfile_find_system(rf, id))
        return bad(l, "identifier", "names no system of the file");
    if (sb_result_find_entry(r, id))
        return bad(l, "identifier", "a second entry for this identifier");
    if (decimals < 0 || decimals > 9)
        return bad(l, "decimals", "not from 0 to 9");
    json_t *values = json_object_get(je, "values");
    if (values && !json_is_array(values))
        return bad(l, "values", "not an array");
    json_t *ut = json_object_get(je, "untrusted");
    if (ut && !json_is_boolean(ut))
        return bad(l, "untrusted", "not true or false");
    json_t *sec = json_object_get(je, "secondary");
    if (sec && !json_is_array(sec))
        return bad(l, "secondary", "not an array");
    const char *origin, *source;
    if (get_str(l, je, "origin", "", &origin) || get_str(l, je, "source", "", &source))
        return -EINVAL;
    if (*origin && strcmp(origin, "imported") && strcmp(origin, "measured"))
        return bad(l, "origin", "neither \"imported\" nor \"measured\"");
    sb_entry *e = sb_result_add_entry(r, id);
    /* Files written before entries had an origin: a system whose tool_version is
     * "imported" came from a page; the source is then the result's title and version. */
    const sb_system *sys = sb_resultfile_find_system(rf, id);
    bool imported = *origin ? !strcmp(origin, "imported")
                            : (sys && sys->tool_version && !strcmp(sys->tool_version, "imported"));
    sb_entry_set_source(e, *source ? source : NULL, imported);
    size_t n = json_array_size(values);
    if (n) {
        double *v = calloc(n, sizeof *v);
        if (!v)
            return -ENOMEM;
        for (size_t i = 0; i < n; i++) {
            if (!json_is_number(json_array_get(values, i))) {
                free(v);
                return bad(l, "values", "holds something that is not a number");
            }
            v[i] = json_number_value(json_array_get(values, i));
        }
        sb_entry_set_values(e, v, n);
        free(v);
    }
    /* The stored summary wins over the recomputed one: an imported figure has no runs. */
    e->mean = mean;
    e->sd = sd;
    e->se = se;
    e->decimals = (int)decimals;
    e->untrusted = json_is_true(ut);
    json_t *busy = json_object_get(je, "vcpu_busy_pct");
    if (busy && (!json_is_number(busy) || json_number_value(busy) < 0 || json_number_value(busy) > 100))
        return bad(l, "vcpu_busy_pct", "not a percentage");
    if (busy)
        sb_entry_set_cpu_busy(e, json_number_value(busy));
    json_t *hb = json_object_get(je, "host_bound");
    if (hb) {
        json_t *rm = json_is_object(hb) ? json_object_get(hb, "reference_mean") : NULL;
        json_t *ref = json_is_object(hb) ? json_object_get(hb, "reference") : NULL;
        /* marked by the lab's vCPU busy share: no twin's figure, the share beside it */
        bool by_busy = !rm && busy && json_is_string(ref) && !strcmp(json_string_value(ref), SB_HOST_BOUND_BUSY_REF);
        if (!by_busy && (!rm || !json_is_number(rm)))
            return bad(l, "host_bound", "not an object with a reference_mean (or the vcpu busy mark)");
        e->host_bound = true;
        e->host_ref = by_busy ? NAN : json_number_value(rm);
    }
    double runs;
    if (get_num(l, je, "runs", true, 0, &runs))
        return -EINVAL;
    if (runs < 0 || runs > 1e9 || runs != floor(runs))
        return bad(l, "runs", "not a count");
    if (!n)
        e->n_runs = (size_t)runs;
    json_t *s;
    size_t i;
    json_array_foreach(sec, i, s) {
        char f[64];
        snprintf(f, sizeof f, "secondary[%zu]", i);
        const char *name, *unit;
        double value;
        size_t at = strlen(l->at);
        snprintf(l->at + at, sizeof l->at - at, ".%s", f);
        int rc = !json_is_object(s) ? bad(l, "", "not an object")
                 : get_str(l, s, "name", NULL, &name) || get_str(l, s, "unit", "", &unit) ||
                         get_num(l, s, "value", false, 0, &value)
                     ? -EINVAL
                     : 0;
        l->at[at] = '\0';
        if (rc)
            return rc;
        sb_entry_add_secondary(e, name, unit, value);
    }
    char field[64];
    const char *why;
    if (sb_series_json_get(je, e, field, sizeof field, &why) < 0)
        return bad(l, field, why);
    e->extra = extra_keys(je, known);
    return 0;
}

static int resultfile_from_json(json_t *root, sb_resultfile *rf, loc *l)
{
    static const char *const top_known[] = {"format", "schema_version", "title", "description",
                                            "systems", "results", NULL};
    static const char *const sys_known[] = {"identifier", "hardware", "software", "storage",
                                            "timestamp", "tool_version", NULL};
    static const char *const res_known[] = {"test", "title", "version", "description", "unit",
                                            "direction", "options", "entries", NULL};
    const char *title, *desc;
    if (get_str(l, root, "title", "", &title) || get_str(l, root, "description", "", &desc))
        return -EINVAL;
    sb_resultfile_set_title(rf, title, desc);
    json_t *systems = json_object_get(root, "systems"), *js;
    json_t *results = json_object_get(root, "results"), *jr;
    if (!json_is_array(systems))
        return bad(l, "systems", systems ? "not an array" : "missing");
    if (!json_is_array(results))
        return bad(l, "results", results ? "not an array" : "missing");
    size_t i;
    json_array_foreach(systems, i, js) {
        snprintf(l->at, sizeof l->at, "systems[%zu]", i);
        const char *id, *ts, *tv;
        if (!json_is_object(js))
            return bad(l, "", "not an object");
        if (get_str(l, js, "identifier", NULL, &id) || get_str(l, js, "timestamp", "", &ts) ||
            get_str(l, js, "tool_version", "", &tv))
            return -EINVAL;
        if (!*id)
            return bad(l, "identifier", "empty");
        if (sb_resultfile_find_system(rf, id))
            return bad(l, "identifier", "the same as an earlier system's");
        sb_system *s = sb_resultfile_add_system(rf, id);
        if (kv_from_json(l, js, "hardware", &s->hardware) ||
            kv_from_json(l, js, "software", &s->software) ||
            kv_from_json(l, js, "storage", &s->storage))
            return -EINVAL;
        free(s->timestamp);
        s->timestamp = strdup(ts);
        free(s->tool_version);
        s->tool_version = strdup(tv);
        s->extra = extra_keys(js, sys_known);
    }
    json_array_foreach(results, i, jr) {
        snprintf(l->at, sizeof l->at, "results[%zu]", i);
        const char *test, *rtitle, *version, *rdesc, *unit, *dir;
        if (!json_is_object(jr))
            return bad(l, "", "not an object");
        if (get_str(l, jr, "title", NULL, &rtitle) || get_str(l, jr, "test", "", &test) ||
            get_str(l, jr, "version", "", &version) ||
            get_str(l, jr, "description", "", &rdesc) || get_str(l, jr, "unit", "", &unit) ||
            get_str(l, jr, "direction", "higher", &dir))
            return -EINVAL;
        if (strcmp(dir, "lower") && strcmp(dir, "higher"))
            return bad(l, "direction", "neither \"higher\" nor \"lower\"");
        sb_direction d = !strcmp(dir, "lower") ? SB_LOWER_IS_BETTER : SB_HIGHER_IS_BETTER;
        sb_kvlist opts = {0};
        if (kv_from_json(l, jr, "options", &opts)) {
            sb_kvlist_free(&opts);
            return -EINVAL;
        }
        /* Two stored results that would be one chart (sb_resultfile_get_result_opts) are
         * a damaged file. */
        size_t before = rf->n_results;
        sb_result *r = sb_resultfile_get_result_opts(rf, test, rtitle, version, rdesc, unit, d,
                                                     &opts);
        sb_kvlist_free(&opts);
        if (rf->n_results == before)
            return bad(l, "title", "the same test, option line, options and unit as an earlier result");
        json_t *entries = json_object_get(jr, "entries"), *je;
        if (!json_is_array(entries))
            return bad(l, "entries", entries ? "not an array" : "missing");
        r->extra = extra_keys(jr, res_known);
        size_t k;
        size_t at = strlen(l->at);
        json_array_foreach(entries, k, je) {
            snprintf(l->at + at, sizeof l->at - at, ".entries[%zu]", k);
            if (entry_from_json(l, je, rf, r) < 0)
                return -EINVAL;
        }
    }
    rf->extra = extra_keys(root, top_known);
    return 0;
}

/* The checks after the JSON syntax, for both entry points; path names the file in err. */
static int from_root(json_t *root, const json_error_t *jerr, const char *path,
                     sb_resultfile *rf, char *err, size_t errlen)
{
    if (!root) {
        snprintf(err, errlen, "%s: not a storbench result file (invalid JSON at line %d: %s)", path,
                 jerr->line, jerr->text);
        return -EINVAL;
    }
    int rc = 0;
    json_t *ver = json_object_get(root, "schema_version");
    if (!json_is_object(root) || !json_is_string(json_object_get(root, "format")) ||
        strcmp(json_string_value(json_object_get(root, "format")), FORMAT_NAME) ||
        !json_is_integer(ver)) {
        snprintf(err, errlen, "%s: not a storbench result file (no \"format\": \"%s\" with a "
                 "\"schema_version\")", path, FORMAT_NAME);
        rc = -EINVAL;
    } else if (json_integer_value(ver) != SB_RESULT_SCHEMA_VERSION) {
        snprintf(err, errlen, "%s: unknown result schema version %lld (this storbench reads %d)",
                 path, (long long)json_integer_value(ver), SB_RESULT_SCHEMA_VERSION);
        rc = -EPROTO;
    } else {
        char where[400];
        loc l = {.at = "", .err = where, .errlen = sizeof where};
        if ((rc = resultfile_from_json(root, rf, &l)) < 0)
            snprintf(err, errlen, "%s: malformed storbench result file: %s", path, where);
    }
    json_decref(root);
    return rc;
}

int sb_resultfile_parse(const char *text, size_t len, const char *name, sb_resultfile *rf,
                        char *err, size_t errlen)
{
    json_error_t jerr;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    return from_root(root, &jerr, name, rf, err, errlen);
}

int sb_resultfile_load(const char *path, sb_resultfile *rf, char *err, size_t errlen)
{
    json_error_t jerr;
    FILE *f = fopen(path, "r");
    if (!f) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        snprintf(err, errlen, "%s: is a directory, not a result file", path);
        return -EISDIR;
    }
    json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES, &jerr);
    int rerr = ferror(f) ? errno : 0;
    fclose(f);
    if (!root && rerr) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(rerr));
        return -rerr;
    }
    return from_root(root, &jerr, path, rf, err, errlen);
}

static int write_text(FILE *out, void *ctx)
{
    fputs(ctx, out);
    fputc('\n', out);
    return 0;
}

int sb_resultfile_save(const char *path, const sb_resultfile *rf, char *err, size_t errlen)
{
    const char *bad_utf8 = sb_resultfile_invalid_utf8(rf);
    if (bad_utf8) {
        snprintf(err, errlen, "%s: not written: %s is not valid UTF-8", path, bad_utf8);
        return -EILSEQ;
    }
    char *text = sb_resultfile_to_json(rf);
    if (!text) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -ENOMEM;
    }
    int rc = sb_atomic_write(path, 0666, 1, write_text, text, err, errlen);
    free(text);
    return rc;
}
