/*
 * result — the in-memory result model (see result.h): construction, lookup,
 * merge and release. No I/O here; resultfile.c does the JSON.
 */
#include "results/result.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/printable.h"
#include "core/strmap.h"
#include "core/stats.h"
#include "core/strutil.h"

static bool streq(const char *a, const char *b) { return !strcmp(a ? a : "", b ? b : ""); }

/* ---- lookup indexes: below INDEX_FROM items a linear scan is as fast ---- */

#define INDEX_FROM 32

static void drop_index(struct sb_strmap **m)
{
    if (*m) {
        sb_strmap_free(*m);
        free(*m);
        *m = NULL;
    }
}

static struct sb_strmap *new_index(void)
{
    struct sb_strmap *m = calloc(1, sizeof *m);
    if (!m)
        sb_oom();
    return m;
}

static void index_put(struct sb_strmap *m, const char *key, size_t val)
{
    if (sb_strmap_put(m, key, val) < 0)
        sb_oom();
}

/* Where identifier stands among n items (ident(items, i) names item i): through *index,
 * built on first use, from INDEX_FROM items on, else by a scan. -1 when it is absent. The
 * index is a cache, not content, so a const lookup may build it. */
static long find_identifier(struct sb_strmap **index, const void *items, size_t n,
                            const char *(*ident)(const void *items, size_t i),
                            const char *identifier)
{
    if (n >= INDEX_FROM) {
        if (!*index) {
            *index = new_index();
            for (size_t i = 0; i < n; i++)
                index_put(*index, ident(items, i), i);
        }
        size_t i;
        return sb_strmap_get(*index, identifier, &i) ? (long)i : -1;
    }
    for (size_t i = 0; i < n; i++)
        if (!strcmp(ident(items, i), identifier))
            return (long)i;
    return -1;
}

static const char *system_ident(const void *items, size_t i)
{
    return ((const sb_system *)items)[i].identifier;
}

static const char *entry_ident(const void *items, size_t i)
{
    return ((const sb_entry *)items)[i].identifier;
}

size_t sb_option_line_base(const char *d)
{
    size_t n = d ? strlen(d) : 0;
    if (n < 5 || d[n - 1] != ')')
        return n;
    size_t open = n - 1;
    while (open && d[open] != '(')
        open--;
    if (open < 1 || d[open] != '(' || d[open - 1] != ' ')
        return n;
    /* "k=v" items, ", " between them: k of [a-z0-9_-], v without ',', '(' or ')' */
    for (size_t i = open + 1; i < n - 1;) {
        size_t k = i;
        while (i < n - 1 && (islower((unsigned char)d[i]) || isdigit((unsigned char)d[i]) ||
                             d[i] == '_' || d[i] == '-'))
            i++;
        if (i == k || d[i] != '=')
            return n;
        size_t v = ++i;
        while (i < n - 1 && d[i] != ',' && d[i] != '(' && d[i] != ')')
            i++;
        if (i == v)
            return n;
        if (i < n - 1 && strncmp(d + i, ", ", 2))
            return n;
        if (i < n - 1)
            i += 2;
    }
    return open - 1;
}

/* Same option lines, the override parts aside (sb_option_line_base). */
static bool same_option_line(const char *a, const char *b)
{
    size_t na = sb_option_line_base(a), nb = sb_option_line_base(b);
    return na == nb && (!na || !memcmp(a, b, na));
}

/* The part of what a result is found by that is plain equality: description (without its
 * override part), unit and direction (the test/title and option checks are made on the
 * few results sharing it). */
static const char *result_key(char **buf, size_t *cap, const char *description, const char *unit,
                              sb_direction direction)
{
    char *base = strndup(description ? description : "", sb_option_line_base(description));
    if (!base)
        sb_oom();
    const char *parts[3] = {base, unit, direction == SB_LOWER_IS_BETTER ? "l" : "h"};
    const char *k = sb_strmap_key(buf, cap, parts, 3);
    free(base);
    if (!k)
        sb_oom();
    return k;
}

void sb_kvlist_add(sb_kvlist *l, const char *key, const char *value)
{
    l->items = sb_xrealloc(l->items, (l->n + 1) * sizeof *l->items);
    l->items[l->n].key = sb_xstrdup(key);
    l->items[l->n].value = sb_xstrdup(value);
    l->n++;
}

void sb_kvlist_set(sb_kvlist *l, const char *key, const char *value)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->items[i].key, key)) {
            free(l->items[i].value);
            l->items[i].value = sb_xstrdup(value);
            return;
        }
    sb_kvlist_add(l, key, value);
}

const char *sb_kvlist_get(const sb_kvlist *l, const char *key)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->items[i].key, key))
            return l->items[i].value;
    return NULL;
}

void sb_kvlist_free(sb_kvlist *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->items[i].key);
        free(l->items[i].value);
    }
    free(l->items);
    l->items = NULL;
    l->n = 0;
}

static void kvlist_copy(sb_kvlist *dst, const sb_kvlist *src)
{
    for (size_t i = 0; i < src->n; i++)
        sb_kvlist_add(dst, src->items[i].key, src->items[i].value);
}

void sb_resultfile_init(sb_resultfile *rf)
{
    memset(rf, 0, sizeof *rf);
    rf->title = sb_xstrdup("");
    rf->description = sb_xstrdup("");
}

static void system_free(sb_system *s)
{
    free(s->identifier);
    sb_kvlist_free(&s->hardware);
    sb_kvlist_free(&s->software);
    sb_kvlist_free(&s->storage);
    free(s->timestamp);
    free(s->tool_version);
    free(s->extra);
}

static void entry_free(sb_entry *e)
{
    free(e->identifier);
    free(e->source);
    free(e->values);
    for (size_t i = 0; i < e->n_secondary; i++) {
        free(e->secondary[i].name);
        free(e->secondary[i].unit);
    }
    free(e->secondary);
    free(e->extra);
    free(e->series);
    free(e->steady);
}

static void result_free(sb_result *r)
{
    free(r->test);
    free(r->title);
    free(r->version);
    free(r->description);
    free(r->unit);
    sb_kvlist_free(&r->options);
    for (size_t i = 0; i < r->n_entries; i++)
        entry_free(&r->entries[i]);
    free(r->entries);
    free(r->extra);
    drop_index(&r->entry_index);
}

void sb_resultfile_free(sb_resultfile *rf)
{
    free(rf->title);
    free(rf->description);
    for (size_t i = 0; i < rf->n_systems; i++)
        system_free(&rf->systems[i]);
    free(rf->systems);
    for (size_t i = 0; i < rf->n_results; i++)
        result_free(&rf->results[i]);
    free(rf->results);
    free(rf->extra);
    drop_index(&rf->system_index);
    drop_index(&rf->result_index);
    memset(rf, 0, sizeof *rf);
}

static void kv_printable(sb_kvlist *l)
{
    for (size_t i = 0; i < l->n; i++) {
        sb_make_printable(l->items[i].key);
        sb_make_printable(l->items[i].value);
    }
}

void sb_resultfile_make_printable(sb_resultfile *rf)
{
    /* The strings change: every index is rebuilt when next needed. */
    drop_index(&rf->system_index);
    drop_index(&rf->result_index);
    for (size_t i = 0; i < rf->n_results; i++)
        drop_index(&rf->results[i].entry_index);
    sb_make_printable(rf->title);
    sb_make_printable(rf->description);
    for (size_t i = 0; i < rf->n_systems; i++) {
        sb_system *s = &rf->systems[i];
        sb_make_printable(s->identifier);
        kv_printable(&s->hardware);
        kv_printable(&s->software);
        kv_printable(&s->storage);
        sb_make_printable(s->timestamp);
        sb_make_printable(s->tool_version);
    }
    for (size_t i = 0; i < rf->n_results; i++) {
        sb_result *r = &rf->results[i];
        sb_make_printable(r->test);
        sb_make_printable(r->title);
        sb_make_printable(r->version);
        sb_make_printable(r->description);
        sb_make_printable(r->unit);
        kv_printable(&r->options);
        for (size_t k = 0; k < r->n_entries; k++) {
            sb_make_printable(r->entries[k].identifier);
            for (size_t j = 0; j < r->entries[k].n_secondary; j++) {
                sb_make_printable(r->entries[k].secondary[j].name);
                sb_make_printable(r->entries[k].secondary[j].unit);
            }
        }
    }
}

void sb_resultfile_set_title(sb_resultfile *rf, const char *title, const char *description)
{
    if (title) {
        free(rf->title);
        rf->title = sb_xstrdup(title);
    }
    if (description) {
        free(rf->description);
        rf->description = sb_xstrdup(description);
    }
}

sb_system *sb_resultfile_find_system(const sb_resultfile *rf, const char *identifier)
{
    long i = find_identifier(&((sb_resultfile *)rf)->system_index, rf->systems, rf->n_systems,
                             system_ident, identifier);
    return i < 0 ? NULL : &rf->systems[i];
}

sb_system *sb_resultfile_add_system(sb_resultfile *rf, const char *identifier)
{
    rf->systems = sb_xrealloc(rf->systems, (rf->n_systems + 1) * sizeof *rf->systems);
    sb_system *s = &rf->systems[rf->n_systems++];
    memset(s, 0, sizeof *s);
    s->identifier = sb_xstrdup(identifier);
    s->timestamp = sb_xstrdup("");
    s->tool_version = sb_xstrdup("");
    if (rf->system_index)
        index_put(rf->system_index, identifier, rf->n_systems - 1);
    return s;
}

/* Drops every entry of identifier; a result nobody has a figure for any more is dropped
 * from the page. */
static void remove_entries(sb_resultfile *rf, const char *identifier)
{
    drop_index(&rf->result_index);
    for (size_t r = 0; r < rf->n_results;) {
        sb_result *res = &rf->results[r];
        for (size_t i = 0; i < res->n_entries; i++)
            if (!strcmp(res->entries[i].identifier, identifier)) {
                entry_free(&res->entries[i]);
                memmove(&res->entries[i], &res->entries[i + 1],
                        (res->n_entries - i - 1) * sizeof *res->entries);
                res->n_entries--;
                drop_index(&res->entry_index);
                break;
            }
        if (res->n_entries == 0) {
            result_free(res);
            memmove(res, res + 1, (rf->n_results - r - 1) * sizeof *rf->results);
            rf->n_results--;
        } else {
            r++;
        }
    }
}

void sb_resultfile_rename_identifier(sb_resultfile *rf, const char *from, const char *to)
{
    sb_system *sys = sb_resultfile_find_system(rf, from);
    if (!sys)
        return;
    /* Names change: the indexes that map them are rebuilt when next needed. */
    drop_index(&rf->system_index);
    free(sys->identifier);
    sys->identifier = sb_xstrdup(to);
    for (size_t i = 0; i < rf->n_results; i++) {
        sb_result *r = &rf->results[i];
        sb_entry *e = sb_result_find_entry(r, from);
        if (!e)
            continue;
        drop_index(&r->entry_index);
        free(e->identifier);
        e->identifier = sb_xstrdup(to);
    }
}

void sb_resultfile_remove_identifier(sb_resultfile *rf, const char *identifier)
{
    drop_index(&rf->system_index);
    for (size_t i = 0; i < rf->n_systems; i++)
        if (!strcmp(rf->systems[i].identifier, identifier)) {
            system_free(&rf->systems[i]);
            memmove(&rf->systems[i], &rf->systems[i + 1], (rf->n_systems - i - 1) * sizeof *rf->systems);
            rf->n_systems--;
            break;
        }
    remove_entries(rf, identifier);
}

/* No option that both lists name has different values (a key one of them lacks, e.g. an
 * option added in a later version, does not count). */
static bool options_agree(const sb_kvlist *a, const sb_kvlist *b)
{
    if (!a || !b)
        return true;
    for (size_t i = 0; i < a->n; i++) {
        const char *v = sb_kvlist_get(b, a->items[i].key);
        if (v && strcmp(v, a->items[i].value))
            return false;
    }
    return true;
}

/* The result sb_resultfile_get_result_opts() would return, or NULL when it would add one. */
static sb_result *find_result(sb_resultfile *rf, const char *test, const char *title,
                              const char *description, const char *unit, sb_direction direction,
                              const sb_kvlist *options)
{
    /* Large files: only the results with the same description, unit and direction (a
     * chain through same_key_prev, newest first) are candidates; the first in file order
     * wins, as in the scan below. */
    if (rf->n_results >= INDEX_FROM) {
        char *kb = NULL;
        size_t kcap = 0;
        if (!rf->result_index) {
            rf->result_index = new_index();
            for (size_t i = 0; i < rf->n_results; i++) {
                sb_result *r = &rf->results[i];
                const char *k = result_key(&kb, &kcap, r->description, r->unit, r->direction);
                size_t head = 0;
                sb_strmap_get(rf->result_index, k, &head);
                r->same_key_prev = head;
                index_put(rf->result_index, k, i + 1);
            }
        }
        size_t at = 0, best = 0;
        sb_strmap_get(rf->result_index, result_key(&kb, &kcap, description, unit, direction), &at);
        free(kb);
        for (; at; at = rf->results[at - 1].same_key_prev) {
            sb_result *r = &rf->results[at - 1];
            bool same_test = (test && *test && r->test && *r->test) ? streq(r->test, test)
                                                                     : streq(r->title, title);
            if (same_test && options_agree(&r->options, options))
                best = at;
        }
        if (best)
            return &rf->results[best - 1];
    } else {
        for (size_t i = 0; i < rf->n_results; i++) {
            sb_result *r = &rf->results[i];
            /* A known test is matched by its name, not its title: a measured figure's title
             * names what ran ("SQLite 3.40.1 (storbench sqlite)"), an imported one the seed's. */
            bool same_test = (test && *test && r->test && *r->test) ? streq(r->test, test)
                                                                     : streq(r->title, title);
            if (same_test && same_option_line(r->description, description) && streq(r->unit, unit) &&
                r->direction == direction && options_agree(&r->options, options))
                return r;
        }
    }
    return NULL;
}

sb_result *sb_resultfile_get_result_opts(sb_resultfile *rf, const char *test, const char *title,
                                         const char *version, const char *description,
                                         const char *unit, sb_direction direction,
                                         const sb_kvlist *options)
{
    sb_result *r = find_result(rf, test, title, description, unit, direction, options);
    return r ? r : sb_resultfile_add_result(rf, test, title, version, description, unit, direction, options);
}

sb_result *sb_resultfile_add_result(sb_resultfile *rf, const char *test, const char *title,
                                    const char *version, const char *description,
                                    const char *unit, sb_direction direction,
                                    const sb_kvlist *options)
{
    rf->results = sb_xrealloc(rf->results, (rf->n_results + 1) * sizeof *rf->results);
    sb_result *r = &rf->results[rf->n_results++];
    memset(r, 0, sizeof *r);
    r->test = sb_xstrdup(test);
    r->title = sb_xstrdup(title);
    r->version = sb_xstrdup(version);
    r->description = sb_xstrdup(description);
    r->unit = sb_xstrdup(unit);
    r->direction = direction;
    if (options)
        kvlist_copy(&r->options, options);
    if (rf->result_index) {
        char *kb = NULL;
        size_t kcap = 0, head = 0;
        const char *k = result_key(&kb, &kcap, description, unit, direction);
        sb_strmap_get(rf->result_index, k, &head);
        r->same_key_prev = head;
        index_put(rf->result_index, k, rf->n_results);
        free(kb);
    }
    return r;
}

sb_result *sb_resultfile_get_result(sb_resultfile *rf, const char *test, const char *title,
                                    const char *version, const char *description,
                                    const char *unit, sb_direction direction)
{
    return sb_resultfile_get_result_opts(rf, test, title, version, description, unit, direction,
                                         NULL);
}

void sb_measured_source(char *buf, size_t len, const char *product, const char *title,
                        const char *test)
{
    snprintf(buf, len, "%s (storbench %s)", product && *product ? product : title ? title : "",
             test ? test : "");
}

const char *sb_entry_source(const sb_result *r, const sb_entry *e, char *buf, size_t len)
{
    if (e->source)
        return e->source;
    const char *v = r->version ? r->version : "";
    snprintf(buf, len, "%s%s%s", r->title ? r->title : "", *v ? " " : "", v);
    return buf;
}

void sb_entry_set_source(sb_entry *e, const char *source, bool imported)
{
    free(e->source);
    e->source = source ? sb_xstrdup(source) : NULL;
    e->imported = imported;
}

void sb_result_title_line(const sb_result *r, char *buf, size_t len)
{
    size_t *group = calloc(r->n_entries ? r->n_entries : 1, sizeof *group);
    const sb_entry **order = calloc(r->n_entries ? r->n_entries : 1, sizeof *order);
    size_t groups = 0;
    if (group && order) {
        for (size_t i = 0; i < r->n_entries; i++)
            order[i] = &r->entries[i];
        groups = sb_result_source_groups(r, order, r->n_entries, group);
    }
    char tmp[512];
    const char *v = r->version ? r->version : "";
    if (groups == 1)
        snprintf(buf, len, "%s", sb_entry_source(r, &r->entries[0], tmp, sizeof tmp));
    else if (groups > 1)
        snprintf(buf, len, "%s", r->title ? r->title : "");
    else
        snprintf(buf, len, "%s%s%s", r->title ? r->title : "", *v ? " " : "", v);
    free(group);
    free(order);
}

size_t sb_result_source_groups(const sb_result *r, const sb_entry *const *order, size_t n,
                               size_t *group)
{
    size_t groups = 0;
    char a[512], b[512];
    for (size_t i = 0; i < n; i++) {
        const char *si = sb_entry_source(r, order[i], a, sizeof a);
        group[i] = groups;
        for (size_t j = 0; j < i; j++)
            if (order[j]->imported == order[i]->imported &&
                !strcmp(sb_entry_source(r, order[j], b, sizeof b), si)) {
                group[i] = group[j];
                break;
            }
        if (group[i] == groups)
            groups++;
    }
    return groups;
}

sb_entry *sb_result_find_entry(const sb_result *r, const char *identifier)
{
    long i = find_identifier(&((sb_result *)r)->entry_index, r->entries, r->n_entries, entry_ident,
                             identifier);
    return i < 0 ? NULL : &r->entries[i];
}

bool sb_entry_se_known(const sb_entry *e)
{
    return e->n_values >= 2 || e->se > 0;
}

sb_entry *sb_result_add_entry(sb_result *r, const char *identifier)
{
    r->entries = sb_xrealloc(r->entries, (r->n_entries + 1) * sizeof *r->entries);
    sb_entry *e = &r->entries[r->n_entries++];
    memset(e, 0, sizeof *e);
    e->identifier = sb_xstrdup(identifier);
    e->decimals = 2;
    if (r->entry_index)
        index_put(r->entry_index, identifier, r->n_entries - 1);
    return e;
}

void sb_entry_set_values(sb_entry *e, const double *values, size_t n)
{
    free(e->values);
    e->values = sb_xrealloc(NULL, n * sizeof *values);
    memcpy(e->values, values, n * sizeof *values);
    e->n_values = n;
    sb_stats st;
    sb_stats_compute(values, n, &st);
    e->mean = st.mean;
    e->sd = st.sd;
    e->se = st.se;
    e->decimals = 0;
    for (size_t i = 0; i < n; i++)
        if (values[i] != floor(values[i]))
            e->decimals = 2;
}

void sb_entry_add_secondary(sb_entry *e, const char *name, const char *unit, double value)
{
    e->secondary = sb_xrealloc(e->secondary, (e->n_secondary + 1) * sizeof *e->secondary);
    e->secondary[e->n_secondary].name = sb_xstrdup(name);
    e->secondary[e->n_secondary].unit = sb_xstrdup(unit);
    e->secondary[e->n_secondary].value = value;
    e->n_secondary++;
}

static void entry_copy(sb_entry *dst, const sb_entry *src)
{
    if (src->n_values)
        sb_entry_set_values(dst, src->values, src->n_values);
    dst->mean = src->mean;
    dst->sd = src->sd;
    dst->se = src->se;
    dst->n_runs = src->n_runs;
    dst->decimals = src->decimals;
    dst->untrusted = src->untrusted;
    dst->host_bound = src->host_bound;
    dst->host_ref = src->host_ref;
    dst->has_cpu_busy = src->has_cpu_busy;
    dst->cpu_busy_pct = src->cpu_busy_pct;
    sb_entry_set_source(dst, src->source, src->imported);
    free(dst->extra);
    dst->extra = src->extra ? sb_xstrdup(src->extra) : NULL;
    for (size_t i = 0; i < src->n_secondary; i++)
        sb_entry_add_secondary(dst, src->secondary[i].name, src->secondary[i].unit,
                               src->secondary[i].value);
    sb_entry_set_series(dst, src->series, src->series_run);
    sb_entry_set_steady(dst, src->steady, src->ss_runs, src->ss_attained, src->ss_at_s);
}

void sb_entry_set_series(sb_entry *e, const sb_series *s, unsigned run)
{
    free(e->series);
    e->series = NULL;
    e->series_run = 0;
    if (!s || !s->n)
        return;
    /* only the points held (a short series does not cost the whole array): read-only */
    size_t bytes = offsetof(sb_series, p) + s->n * sizeof s->p[0];
    e->series = sb_xrealloc(NULL, bytes);
    memcpy(e->series, s, bytes);
    e->series_run = run;
}

void sb_entry_set_steady(sb_entry *e, const char *criterion, unsigned runs, unsigned attained,
                         double at_s)
{
    free(e->steady);
    e->steady = criterion ? sb_xstrdup(criterion) : NULL;
    e->ss_runs = criterion ? runs : 0;
    e->ss_attained = criterion ? attained : 0;
    e->ss_at_s = criterion ? at_s : 0;
}

void sb_entry_set_cpu_busy(sb_entry *e, double pct)
{
    e->has_cpu_busy = true;
    e->cpu_busy_pct = pct < 0 ? 0 : pct > 100 ? 100 : round(pct * 100) / 100; /* to 0.01 %: 10 ms ticks */
}

static void copy_system(sb_resultfile *dst, const sb_system *s);
static void copy_results(sb_resultfile *dst, const sb_resultfile *src, bool replace_entries);

int sb_resultfile_merge(sb_resultfile *dst, const sb_resultfile *src, bool replace, char *err,
                        size_t errlen)
{
    for (size_t i = 0; i < src->n_systems; i++)
        if (sb_resultfile_find_system(dst, src->systems[i].identifier) && !replace) {
            snprintf(err, errlen, "identifier '%s' is already in the result file (use --replace)",
                     src->systems[i].identifier);
            return -EEXIST;
        }
    if (!dst->title[0] && src->title[0])
        sb_resultfile_set_title(dst, src->title, src->description);
    if (!dst->extra && src->extra)
        dst->extra = sb_xstrdup(src->extra);
    for (size_t i = 0; i < src->n_systems; i++) {
        const sb_system *s = &src->systems[i];
        if (sb_resultfile_find_system(dst, s->identifier))
            remove_entries(dst, s->identifier);
        copy_system(dst, s);
    }
    copy_results(dst, src, false);
    return 0;
}

/* Copies s's description into dst: in place when dst has the identifier (it keeps its
 * column/row position), else as a new system. */
static void copy_system(sb_resultfile *dst, const sb_system *s)
{
    sb_system *d = sb_resultfile_find_system(dst, s->identifier);
    if (d) {
        sb_kvlist_free(&d->hardware);
        sb_kvlist_free(&d->software);
        sb_kvlist_free(&d->storage);
        free(d->timestamp);
        free(d->tool_version);
        free(d->extra);
        d->timestamp = d->tool_version = d->extra = NULL;
    } else {
        d = sb_resultfile_add_system(dst, s->identifier);
    }
    kvlist_copy(&d->hardware, &s->hardware);
    kvlist_copy(&d->software, &s->software);
    kvlist_copy(&d->storage, &s->storage);
    free(d->timestamp);
    d->timestamp = sb_xstrdup(s->timestamp);
    free(d->tool_version);
    d->tool_version = sb_xstrdup(s->tool_version);
    if (s->extra)
        d->extra = sb_xstrdup(s->extra);
}

/* Copies every result of src into the same chart of dst (or a new one); an entry of an
 * identifier the chart has already is replaced in place when replace_entries, which the
 * caller checked may happen. */
static void copy_results(sb_resultfile *dst, const sb_resultfile *src, bool replace_entries)
{
    for (size_t i = 0; i < src->n_results; i++) {
        const sb_result *r = &src->results[i];
        sb_result *d = sb_resultfile_get_result_opts(dst, r->test, r->title, r->version,
                                                     r->description, r->unit, r->direction,
                                                     r->options.n ? &r->options : NULL);
        if (d->options.n == 0)
            kvlist_copy(&d->options, &r->options);
        if (!d->extra && r->extra)
            d->extra = sb_xstrdup(r->extra);
        for (size_t k = 0; k < r->n_entries; k++) {
            const sb_entry *e = &r->entries[k];
            sb_entry *old = replace_entries ? sb_result_find_entry(d, e->identifier) : NULL;
            if (old) { /* same place in the chart, same identifier: the index stays right */
                char *ident = old->identifier;
                old->identifier = NULL;
                entry_free(old);
                memset(old, 0, sizeof *old);
                old->identifier = ident;
                old->decimals = 2;
            }
            entry_copy(old ? old : sb_result_add_entry(d, e->identifier), e);
        }
    }
}

int sb_resultfile_merge_figures(sb_resultfile *dst, const sb_resultfile *src, bool replace,
                                char *err, size_t errlen)
{
    /* first every refusal, so that a refused merge changes nothing */
    for (size_t i = 0; i < src->n_results && !replace; i++) {
        const sb_result *r = &src->results[i];
        sb_result *d = find_result(dst, r->test, r->title, r->description, r->unit, r->direction,
                                   r->options.n ? &r->options : NULL);
        for (size_t k = 0; d && k < r->n_entries; k++)
            if (sb_result_find_entry(d, r->entries[k].identifier)) {
                bool opts = r->description && *r->description;
                snprintf(err, errlen, "identifier '%s' is already in the result file with a figure "
                         "for %s%s%s%s (use --replace to measure it again, or another --identifier)",
                         r->entries[k].identifier, r->test && *r->test ? r->test : r->title,
                         opts ? " [" : "", opts ? r->description : "", opts ? "]" : "");
                return -EEXIST;
            }
    }
    if (!dst->title[0] && src->title[0])
        sb_resultfile_set_title(dst, src->title, src->description);
    if (!dst->extra && src->extra)
        dst->extra = sb_xstrdup(src->extra);
    for (size_t i = 0; i < src->n_systems; i++)
        copy_system(dst, &src->systems[i]);
    copy_results(dst, src, true);
    return 0;
}
