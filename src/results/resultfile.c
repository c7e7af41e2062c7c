/*
 * resultfile — the result file on disk: JSON through jansson, schema
 * described in docs/result-format.md. Saving is atomic (temporary file in the
 * same directory, fsync, rename, fsync of the directory), so a crash or a
 * Ctrl-C never leaves a half-written or damaged result file.
 */
#include "results/result.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
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

int sb_result_path(const char *name, const char *override, char *out, size_t len)
{
    if (!name || !*name)
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

/* ---------- encoding ---------- */

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
    return json_pack("{s:s, s:f, s:f, s:f, s:i, s:o, s:b, s:o}", "identifier", e->identifier,
                     "mean", e->mean, "sd", e->sd, "se", e->se, "decimals", e->decimals,
                     "values", values, "untrusted", e->untrusted, "secondary", sec);
}

static json_t *resultfile_to_json_value(const sb_resultfile *rf)
{
    json_t *systems = json_array();
    for (size_t i = 0; i < rf->n_systems; i++) {
        const sb_system *s = &rf->systems[i];
        json_array_append_new(systems,
                              json_pack("{s:s, s:o, s:o, s:o, s:s, s:s}", "identifier", s->identifier,
                                        "hardware", kv_to_json(&s->hardware), "software",
                                        kv_to_json(&s->software), "storage", kv_to_json(&s->storage),
                                        "timestamp", s->timestamp, "tool_version", s->tool_version));
    }
    json_t *results = json_array();
    for (size_t i = 0; i < rf->n_results; i++) {
        const sb_result *r = &rf->results[i];
        json_t *entries = json_array();
        for (size_t k = 0; k < r->n_entries; k++)
            json_array_append_new(entries, entry_to_json(&r->entries[k]));
        json_array_append_new(
            results, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o}", "test", r->test, "title",
                               r->title, "version", r->version, "description", r->description,
                               "unit", r->unit, "direction",
                               r->direction == SB_LOWER_IS_BETTER ? "lower" : "higher", "options",
                               kv_to_json(&r->options), "entries", entries));
    }
    return json_pack("{s:s, s:i, s:s, s:s, s:o, s:o}", "format", FORMAT_NAME, "schema_version",
                     SB_RESULT_SCHEMA_VERSION, "title", rf->title, "description", rf->description,
                     "systems", systems, "results", results);
}

char *sb_resultfile_to_json(const sb_resultfile *rf)
{
    json_t *root = resultfile_to_json_value(rf);
    char *s = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
    json_decref(root);
    return s;
}

/* ---------- decoding ---------- */

static const char *str_or(json_t *o, const char *key, const char *def)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : def;
}

static double num_or(json_t *o, const char *key, double def)
{
    json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : def;
}

static int kv_from_json(json_t *o, sb_kvlist *l)
{
    if (!o)
        return 0;
    if (!json_is_object(o))
        return -EINVAL;
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        if (!json_is_string(v))
            return -EINVAL;
        sb_kvlist_add(l, k, json_string_value(v));
    }
    return 0;
}

static int entry_from_json(json_t *je, sb_result *r)
{
    const char *id = str_or(je, "identifier", NULL);
    if (!id || !json_is_number(json_object_get(je, "mean")))
        return -EINVAL;
    sb_entry *e = sb_result_add_entry(r, id);
    json_t *values = json_object_get(je, "values");
    if (json_is_array(values) && json_array_size(values)) {
        size_t n = json_array_size(values);
        double *v = calloc(n, sizeof *v);
        if (!v)
            return -ENOMEM;
        for (size_t i = 0; i < n; i++) {
            if (!json_is_number(json_array_get(values, i))) {
                free(v);
                return -EINVAL;
            }
            v[i] = json_number_value(json_array_get(values, i));
        }
        sb_entry_set_values(e, v, n);
        free(v);
    }
    /* The stored summary wins over the recomputed one: an imported figure has no runs. */
    e->mean = num_or(je, "mean", e->mean);
    e->sd = num_or(je, "sd", e->sd);
    e->se = num_or(je, "se", e->se);
    e->decimals = (int)num_or(je, "decimals", e->decimals);
    e->untrusted = json_is_true(json_object_get(je, "untrusted"));
    json_t *sec = json_object_get(je, "secondary"), *s;
    size_t i;
    json_array_foreach(sec, i, s) {
        const char *name = str_or(s, "name", NULL);
        if (!name || !json_is_number(json_object_get(s, "value")))
            return -EINVAL;
        sb_entry_add_secondary(e, name, str_or(s, "unit", ""), num_or(s, "value", 0));
    }
    return 0;
}

static int resultfile_from_json(json_t *root, sb_resultfile *rf)
{
    sb_resultfile_set_title(rf, str_or(root, "title", ""), str_or(root, "description", ""));
    json_t *systems = json_object_get(root, "systems"), *js;
    json_t *results = json_object_get(root, "results"), *jr;
    if (!json_is_array(systems) || !json_is_array(results))
        return -EINVAL;
    size_t i;
    json_array_foreach(systems, i, js) {
        const char *id = str_or(js, "identifier", NULL);
        if (!id || sb_resultfile_find_system(rf, id))
            return -EINVAL;
        sb_system *s = sb_resultfile_add_system(rf, id);
        if (kv_from_json(json_object_get(js, "hardware"), &s->hardware) < 0 ||
            kv_from_json(json_object_get(js, "software"), &s->software) < 0 ||
            kv_from_json(json_object_get(js, "storage"), &s->storage) < 0)
            return -EINVAL;
        free(s->timestamp);
        s->timestamp = strdup(str_or(js, "timestamp", ""));
        free(s->tool_version);
        s->tool_version = strdup(str_or(js, "tool_version", ""));
    }
    json_array_foreach(results, i, jr) {
        const char *title = str_or(jr, "title", NULL), *dir = str_or(jr, "direction", "higher");
        if (!title)
            return -EINVAL;
        sb_result *r = sb_resultfile_get_result(
            rf, str_or(jr, "test", ""), title, str_or(jr, "version", ""),
            str_or(jr, "description", ""), str_or(jr, "unit", ""),
            !strcmp(dir, "lower") ? SB_LOWER_IS_BETTER : SB_HIGHER_IS_BETTER);
        if (kv_from_json(json_object_get(jr, "options"), &r->options) < 0)
            return -EINVAL;
        json_t *entries = json_object_get(jr, "entries"), *je;
        size_t k;
        if (!json_is_array(entries))
            return -EINVAL;
        json_array_foreach(entries, k, je) {
            if (entry_from_json(je, r) < 0)
                return -EINVAL;
        }
    }
    return 0;
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
    json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES, &jerr);
    fclose(f);
    if (!root) {
        snprintf(err, errlen, "%s: not a storbench result file (invalid JSON at line %d: %s)", path,
                 jerr.line, jerr.text);
        return -EINVAL;
    }
    int rc = 0;
    json_t *ver = json_object_get(root, "schema_version");
    if (!json_is_object(root) || strcmp(str_or(root, "format", ""), FORMAT_NAME) ||
        !json_is_integer(ver)) {
        snprintf(err, errlen, "%s: not a storbench result file", path);
        rc = -EINVAL;
    } else if (json_integer_value(ver) != SB_RESULT_SCHEMA_VERSION) {
        snprintf(err, errlen, "%s: unknown result schema version %lld (this storbench reads %d)",
                 path, (long long)json_integer_value(ver), SB_RESULT_SCHEMA_VERSION);
        rc = -EPROTO;
    } else if ((rc = resultfile_from_json(root, rf)) < 0) {
        snprintf(err, errlen, "%s: malformed storbench result file", path);
    }
    json_decref(root);
    return rc;
}

/* mkdir -p for the directory part of path. */
static int make_parent_dirs(const char *path)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    char *slash = strrchr(buf, '/');
    if (!slash || slash == buf)
        return 0;
    *slash = 0;
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(buf, 0755) < 0 && errno != EEXIST)
            return -errno;
        *p = '/';
    }
    if (mkdir(buf, 0755) < 0 && errno != EEXIST)
        return -errno;
    return 0;
}

int sb_resultfile_save(const char *path, const sb_resultfile *rf, char *err, size_t errlen)
{
    int rc = make_parent_dirs(path);
    if (rc < 0) {
        snprintf(err, errlen, "%s: cannot create its directory: %s", path, strerror(-rc));
        return rc;
    }
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        rc = -errno;
        snprintf(err, errlen, "%s: %s", path, strerror(-rc));
        return rc;
    }
    fchmod(fd, 0644);
    char *text = sb_resultfile_to_json(rf);
    size_t len = text ? strlen(text) : 0, off = 0;
    rc = text ? 0 : -ENOMEM;
    while (!rc && off < len) {
        ssize_t w = write(fd, text + off, len - off);
        if (w < 0) {
            if (errno != EINTR)
                rc = -errno;
            continue;
        }
        off += (size_t)w;
    }
    if (!rc && write(fd, "\n", 1) != 1)
        rc = -errno;
    if (!rc && fsync(fd) < 0)
        rc = -errno;
    free(text);
    if (close(fd) < 0 && !rc)
        rc = -errno;
    if (!rc && rename(tmp, path) < 0)
        rc = -errno;
    if (rc) {
        unlink(tmp);
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(-rc));
        return rc;
    }
    /* fsync the directory so that the rename itself is durable. */
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash == dir)
        slash[1] = 0; /* the file is in / */
    else if (slash)
        *slash = 0;
    int dfd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return 0;
}
