/*
 * pts_xml — reads a Phoronix Test Suite result file (composite.xml) with
 * libxml2's tree API into the result model. Every <System> becomes a system
 * (its "Key: value" lines split by formats/kvline), every <Result> a result, and
 * each <Data>/<Entry> an identifier's figure: Value is the figure, RawString
 * (runs joined by ':') gives the runs, their SD and count. What PTS has and the
 * model has no field for (test profile, arguments, notes, JSON) is kept in the
 * objects' "pts" extra key, so that export writes it back (docs/pts.md).
 *
 * Tolerance: a result or an entry that cannot be read is skipped with a warning
 * naming its line, and the rest imports; --strict turns the first into a refusal.
 * PTS's "Test Install Size" rows repeat one identifier; the first entry is kept.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "core/log.h"
#include "core/strutil.h"
#include "formats/kvline.h"
#include "formats/pts_xml.h"
#include "results/titles.h"

#define XML_OPTS (XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING)

/* The key under which storbench keeps a system's storage stack in <System><JSON>. */
#define STORAGE_KEY "storbench-storage"

typedef struct reader {
    const char *name;
    bool strict;
    size_t skipped;
    sb_resultfile *rf;
    char *err;
    size_t errlen;
} reader;

/* One <Entry> read and checked, before it is added. */
typedef struct pts_entry {
    char *identifier, *value, *json;
    double mean;
    double *values;
    size_t n;
} pts_entry;

/* A result or entry that cannot be read: a warning and a skip (0), or under --strict the
 * refusal of the whole file (-EINVAL, the line in err). */
static int problem(reader *rd, const xmlNode *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int problem(reader *rd, const xmlNode *at, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    long line = xmlGetLineNo(at);
    if (rd->strict) {
        snprintf(rd->err, rd->errlen, "line %ld: %s (--strict: nothing imported)", line, msg);
        return -EINVAL;
    }
    sb_warn("import: %s:%ld: %s; skipped", rd->name, line, msg);
    rd->skipped++;
    return 0;
}

static xmlNode *child(const xmlNode *n, const char *name)
{
    for (xmlNode *c = n->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && !xmlStrcmp(c->name, BAD_CAST name))
            return c;
    return NULL;
}

/* The text of n's child name ("" when absent), trimmed unless raw (caller frees). */
static char *text_of(const xmlNode *n, const char *name, bool raw)
{
    xmlNode *c = child(n, name);
    xmlChar *t = c ? xmlNodeGetContent(c) : NULL;
    char *s = sb_xstrdup(t ? (const char *)t : "");
    xmlFree(t);
    if (!raw)
        sb_trim(s);
    return s;
}

/* A whole string that is a finite number. */
static bool parse_num(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v))
        return false;
    *out = v;
    return true;
}

/* Adds key -> value to the JSON object o when value is not empty. */
static void put(json_t *o, const char *key, const char *value)
{
    if (value && *value)
        json_object_set_new(o, key, json_string(value));
}

/* {"pts": o} as the extra text of an object, or NULL when o is empty; o is consumed. */
static char *pts_extra(json_t *o)
{
    char *s = NULL;
    if (json_object_size(o)) {
        json_t *w = json_pack("{s:O}", "pts", o);
        s = json_dumps(w, JSON_COMPACT | JSON_PRESERVE_ORDER);
        json_decref(w);
    }
    json_decref(o);
    return s;
}

/* <JSON> of a system: storbench's own storage key back into storage, the rest kept. */
static char *system_json(const char *text, sb_system *sys)
{
    json_t *j = *text ? json_loads(text, 0, NULL) : NULL;
    if (!json_is_object(j)) {
        json_decref(j);
        return sb_xstrdup(text);
    }
    json_t *st = json_object_get(j, STORAGE_KEY);
    if (json_is_string(st)) {
        sb_kvline_parse(json_string_value(st), &sys->storage);
        json_object_del(j, STORAGE_KEY);
    }
    char *s = json_object_size(j) ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER)
                                  : sb_xstrdup("");
    json_decref(j);
    return s;
}

static int read_system(reader *rd, const xmlNode *x)
{
    char *id = text_of(x, "Identifier", false);
    int rc = 0;
    if (!*id) {
        rc = problem(rd, x, "a <System> with no <Identifier>");
    } else if (sb_resultfile_find_system(rd->rf, id)) {
        rc = problem(rd, x, "a second <System> named '%s'", id);
    } else {
        sb_system *s = sb_resultfile_add_system(rd->rf, id);
        char *hw = text_of(x, "Hardware", false), *sw = text_of(x, "Software", false);
        sb_kvline_parse(hw, &s->hardware);
        sb_kvline_parse(sw, &s->software);
        free(hw);
        free(sw);
        free(s->timestamp);
        s->timestamp = text_of(x, "TimeStamp", false);
        char *t = strchr(s->timestamp, ' ');
        if (t)
            *t = 'T'; /* "2025-01-30 13:21:52", PTS's local time: ISO 8601 without a zone */
        free(s->tool_version);
        s->tool_version = sb_xstrdup("imported");
        json_t *o = json_object();
        static const char *const keys[][2] = {{"User", "user"}, {"Notes", "notes"},
                                              {"TestClientVersion", "test_client_version"}};
        for (size_t i = 0; i < 3; i++) {
            char *v = text_of(x, keys[i][0], false);
            put(o, keys[i][1], v);
            free(v);
        }
        char *js = text_of(x, "JSON", false), *kept = system_json(js, s);
        put(o, "json", kept);
        free(js);
        free(kept);
        s->extra = pts_extra(o);
    }
    free(id);
    return rc;
}

static void entry_free(pts_entry *e)
{
    free(e->identifier);
    free(e->value);
    free(e->json);
    free(e->values);
}

/* RawString "1.36:1.37:1.35" into e->values; "" is none. false when a run is no number. */
static bool parse_raw(const char *raw, pts_entry *e)
{
    if (!*raw)
        return true;
    char *copy = sb_xstrdup(raw), *save = NULL;
    bool ok = true;
    for (char *p = copy; ok; p = NULL) {
        char *tok = strtok_r(p, ":", &save);
        if (!tok)
            break;
        sb_trim(tok);
        e->values = sb_xrealloc(e->values, (e->n + 1) * sizeof *e->values);
        ok = parse_num(tok, &e->values[e->n++]);
    }
    free(copy);
    return ok;
}

/* The "error" PTS noted in an entry's <JSON> ("The test run did not produce a result."),
 * or "", in a static buffer. */
static const char *pts_error(const char *json)
{
    static char buf[160];
    json_t *j = *json ? json_loads(json, 0, NULL) : NULL;
    json_t *v = json_object_get(j, "error");
    snprintf(buf, sizeof buf, "%s", json_is_string(v) ? json_string_value(v) : "");
    json_decref(j);
    return buf;
}

/* One <Entry> into e. 1 when read, 0 when skipped, -EINVAL under --strict. A second entry
 * of one identifier in a result (PTS's "Test Install Size" rows) is skipped: the first is
 * the figure. */
static int read_entry(reader *rd, const xmlNode *x, const char *what, const sb_result *old,
                      const pts_entry *got, size_t n_got, pts_entry *e)
{
    memset(e, 0, sizeof *e);
    e->identifier = text_of(x, "Identifier", false);
    e->value = text_of(x, "Value", false);
    e->json = text_of(x, "JSON", false);
    char *raw = text_of(x, "RawString", false);
    int rc = 1;
    bool dup = old && sb_result_find_entry(old, e->identifier);
    for (size_t i = 0; i < n_got && !dup; i++)
        dup = !strcmp(got[i].identifier, e->identifier);
    if (!*e->identifier)
        rc = problem(rd, x, "an <Entry> of '%s' with no <Identifier>", what);
    else if (dup)
        rc = problem(rd, x, "a second <Entry> for '%s' in '%s' (the first is kept)",
                     e->identifier, what);
    else if (!*e->value && !*raw)
        rc = problem(rd, x, "the <Entry> for '%s' in '%s' has no value%s%s%s", e->identifier,
                     what, *pts_error(e->json) ? " (PTS: " : "", pts_error(e->json),
                     *pts_error(e->json) ? ")" : "");
    else if (!parse_raw(raw, e))
        rc = problem(rd, x, "the <RawString> of '%s' in '%s' holds a run that is not a number",
                     e->identifier, what);
    else if (*e->value && !parse_num(e->value, &e->mean))
        rc = problem(rd, x, "the <Value> of '%s' in '%s' is not a number: '%.40s'",
                     e->identifier, what, e->value);
    if (rc == 1 && !*e->value) {
        /* No Value, only runs: the figure is their mean. */
        double sum = 0;
        for (size_t i = 0; i < e->n; i++)
            sum += e->values[i];
        e->mean = sum / (double)e->n;
    }
    free(raw);
    if (rc != 1)
        entry_free(e);
    return rc;
}

/* min and max of an entry's <JSON> as secondary figures (the rest is kept as text). */
static void json_secondaries(sb_entry *e, const char *json, const char *unit)
{
    json_t *j = *json ? json_loads(json, 0, NULL) : NULL;
    static const char *const keys[] = {"min", "max"};
    for (size_t i = 0; json_is_object(j) && i < 2; i++) {
        json_t *v = json_object_get(j, keys[i]);
        double d;
        if (json_is_number(v))
            sb_entry_add_secondary(e, keys[i], unit, json_number_value(v));
        else if (json_is_string(v) && parse_num(json_string_value(v), &d))
            sb_entry_add_secondary(e, keys[i], unit, d);
    }
    json_decref(j);
}

/* Adds a checked entry to r: the system (an empty description when no <System> named it),
 * the runs, the figure as PTS printed it, its source. */
static void add_entry(reader *rd, sb_result *r, pts_entry *pe, const char *source)
{
    if (!sb_resultfile_find_system(rd->rf, pe->identifier)) {
        sb_system *s = sb_resultfile_add_system(rd->rf, pe->identifier);
        free(s->tool_version);
        s->tool_version = sb_xstrdup("imported");
    }
    sb_entry *e = sb_result_add_entry(r, pe->identifier);
    if (pe->n)
        sb_entry_set_values(e, pe->values, pe->n);
    e->mean = pe->mean;
    const char *dot = strchr(pe->value, '.');
    if (*pe->value)
        e->decimals = dot ? (int)strlen(dot + 1) : 0;
    sb_entry_set_source(e, source, true);
    json_secondaries(e, pe->json, r->unit);
    json_t *o = json_object();
    put(o, "json", pe->json);
    e->extra = pts_extra(o);
}

/* The fields of one <Result>. */
typedef struct pts_result {
    char *profile, *title, *app, *args, *desc, *scale, *prop, *display;
} pts_result;

static void result_fields_free(pts_result *f)
{
    char **p[] = {&f->profile, &f->title, &f->app, &f->args, &f->desc, &f->scale, &f->prop,
                  &f->display};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        free(*p[i]);
}

/* A result's header: 0 when it can be read, else the problem's return. */
static int result_header(reader *rd, const xmlNode *x, pts_result *f, sb_direction *dir)
{
    f->profile = text_of(x, "Identifier", false);
    f->title = text_of(x, "Title", false);
    f->app = text_of(x, "AppVersion", false);
    f->args = text_of(x, "Arguments", true);
    f->desc = text_of(x, "Description", false);
    f->scale = text_of(x, "Scale", false);
    f->prop = text_of(x, "Proportion", false);
    f->display = text_of(x, "DisplayFormat", false);
    *dir = strcmp(f->prop, "LIB") ? SB_HIGHER_IS_BETTER : SB_LOWER_IS_BETTER;
    if (!*f->title)
        return problem(rd, x, "a <Result> with no <Title>") ? -EINVAL : 1;
    if (strcmp(f->prop, "HIB") && strcmp(f->prop, "LIB"))
        return problem(rd, x, "'%s: %s': <Proportion> '%s' is neither HIB nor LIB", f->title,
                       f->desc, f->prop) ? -EINVAL : 1;
    if (*f->display && strcmp(f->display, "BAR_GRAPH"))
        return problem(rd, x, "'%s: %s': <DisplayFormat> %s holds no single figure per "
                       "identifier (only BAR_GRAPH does)", f->title, f->desc, f->display)
                   ? -EINVAL : 1;
    if (!child(x, "Data") || !child(child(x, "Data"), "Entry"))
        return problem(rd, x, "'%s: %s' has no data", f->title, f->desc) ? -EINVAL : 1;
    return 0;
}

/* The storbench test of a result: by its test profile; a result with no profile (PTS's
 * install time and size) belongs to no test. */
static const char *result_test(const pts_result *f)
{
    if (!*f->profile)
        return "";
    const char *t = sb_pts_profile_test(f->profile);
    return t ? t : sb_known_title_test(f->title);
}

static int read_result(reader *rd, const xmlNode *x)
{
    pts_result f = {0};
    sb_direction dir;
    pts_entry *got = NULL;
    size_t n = 0;
    int rc = result_header(rd, x, &f, &dir);
    if (rc)
        goto out;
    char what[300], source[300];
    snprintf(what, sizeof what, "%s: %s", f.title, f.desc);
    snprintf(source, sizeof source, "%s%s%s", f.title, *f.app ? " " : "", f.app);
    const char *test = result_test(&f);
    /* A result of the same chart read before (a test profile run twice) takes the rest. */
    sb_result *old = NULL;
    for (size_t i = 0; i < rd->rf->n_results && !old; i++) {
        sb_result *r = &rd->rf->results[i];
        if (!strcmp(r->test, test) && (*test || !strcmp(r->title, f.title)) &&
            !strcmp(r->description, f.desc) && !strcmp(r->unit, f.scale) && r->direction == dir)
            old = r;
    }
    for (xmlNode *c = child(x, "Data")->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE || xmlStrcmp(c->name, BAD_CAST "Entry"))
            continue;
        got = sb_xrealloc(got, (n + 1) * sizeof *got);
        if ((rc = read_entry(rd, c, what, old, got, n, &got[n])) < 0)
            goto out;
        n += rc == 1;
    }
    rc = 0;
    if (!n) {
        rc = problem(rd, x, "no figure of '%s' could be read", what);
        goto out;
    }
    sb_result *r = sb_resultfile_get_result(rd->rf, test, f.title, f.app, f.desc, f.scale, dir);
    if (!r->extra) {
        json_t *o = json_pack("{s:s}", "identifier", f.profile);
        put(o, "arguments", f.args);
        r->extra = pts_extra(o);
    }
    for (size_t i = 0; i < n; i++)
        add_entry(rd, r, &got[i], source);
out:
    for (size_t i = 0; i < n; i++)
        entry_free(&got[i]);
    free(got);
    result_fields_free(&f);
    return rc < 0 ? rc : 0;
}

bool sb_pts_xml_detect(const char *text, size_t len)
{
    /* The start of the document in recover mode: it yields the root element even when the
     * file is malformed further on (then still PTS, and refused by the reader). */
    int n = len > 65536 ? 65536 : (int)len;
    xmlDoc *doc = xmlReadMemory(text, n, NULL, NULL, XML_OPTS | XML_PARSE_RECOVER);
    const xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
    bool pts = root && !xmlStrcmp(root->name, BAD_CAST "PhoronixTestSuite");
    xmlFreeDoc(doc);
    return pts;
}

/* The first error of a parse (libxml2 goes on after it, and its last error is often a
 * consequence, "Premature end of data", far from the cause). */
typedef struct first_error {
    int line;
    char msg[256];
} first_error;

static void keep_first(void *ctx, xmlError *e)
{
    first_error *fe = ctx;
    if (fe->line || !e || e->level < XML_ERR_ERROR)
        return;
    fe->line = e->line ? e->line : 1;
    snprintf(fe->msg, sizeof fe->msg, "%s", e->message ? e->message : "cannot be parsed");
    size_t n = strlen(fe->msg);
    while (n && (fe->msg[n - 1] == '\n' || fe->msg[n - 1] == ' '))
        fe->msg[--n] = '\0';
}

/* The document, or NULL with the first error's line in err. */
static xmlDoc *parse(const char *text, size_t len, char *err, size_t errlen)
{
    first_error fe = {0};
    xmlSetStructuredErrorFunc(&fe, keep_first);
    xmlDoc *doc = xmlReadMemory(text, (int)len, NULL, NULL, XML_PARSE_NONET | XML_PARSE_NOWARNING);
    xmlSetStructuredErrorFunc(NULL, NULL);
    if (!doc)
        snprintf(err, errlen, "line %d: malformed XML: %s", fe.line,
                 fe.line ? fe.msg : "cannot be parsed");
    return doc;
}

static int read_doc(reader *rd, const xmlNode *root)
{
    const xmlNode *gen = child(root, "Generated");
    if (gen) {
        char *t = text_of(gen, "Title", false), *d = text_of(gen, "Description", false);
        sb_resultfile_set_title(rd->rf, t, d);
        free(t);
        free(d);
    }
    size_t n_results = 0;
    int rc = 0;
    for (const xmlNode *c = root->children; c && !rc; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (!xmlStrcmp(c->name, BAD_CAST "System"))
            rc = read_system(rd, c);
        else if (!xmlStrcmp(c->name, BAD_CAST "Result")) {
            n_results++;
            rc = read_result(rd, c);
        }
    }
    if (rc)
        return rc;
    if (!n_results) {
        snprintf(rd->err, rd->errlen, "a PTS result file with no <Result>");
        return -EINVAL;
    }
    if (!rd->rf->n_results) {
        snprintf(rd->err, rd->errlen, "none of its %zu results could be read", n_results);
        return -EINVAL;
    }
    return 0;
}

int sb_pts_xml_read(const char *text, size_t len, const char *name, bool strict,
                    sb_resultfile *rf, size_t *skipped, char *err, size_t errlen)
{
    if (len > INT_MAX) {
        snprintf(err, errlen, "too large for a PTS result file");
        return -EFBIG;
    }
    xmlDoc *doc = parse(text, len, err, errlen);
    if (!doc)
        return -EBADMSG;
    const xmlNode *root = xmlDocGetRootElement(doc);
    int rc;
    if (!root || xmlStrcmp(root->name, BAD_CAST "PhoronixTestSuite")) {
        snprintf(err, errlen, "not a PTS result file: the root element is <%s>, not "
                 "<PhoronixTestSuite>", root ? (const char *)root->name : "");
        rc = -EINVAL;
    } else {
        reader rd = {.name = name, .strict = strict, .rf = rf, .err = err, .errlen = errlen};
        rc = read_doc(&rd, root);
        if (skipped)
            *skipped = rd.skipped;
    }
    xmlFreeDoc(doc);
    return rc;
}
