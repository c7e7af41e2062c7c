/*
 * pts_xml_write — writes a result file as a Phoronix Test Suite result file
 * (composite.xml) with libxml2's text writer: <Generated>, one <System> per
 * identifier, one <Result> per result with a <Data>/<Entry> per figure. The
 * elements are the ones PTS's pts_result_file reads (docs/pts.md, "Export").
 * Numbers are written so that they read back to the same double: the figure at
 * its decimals when that is exact, else in the shortest form that is.
 *
 * Identifiers tell the truth: a result read from a PTS file keeps its profile
 * ("pts/fio-2.1.0"); one storbench measured is "storbench/TEST-VERSION", the
 * version of the storbench that measured it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>
#include <libxml/xmlwriter.h>

#include "core/strutil.h"
#include "formats/kvline.h"
#include "formats/pts_xml.h"

#define STORAGE_KEY "storbench-storage"

/* An element with text; characters XML 1.0 cannot hold (controls) become spaces. */
static int el(xmlTextWriter *w, const char *name, const char *text)
{
    char *s = sb_xstrdup(text ? text : "");
    for (char *p = s; *p; p++)
        if ((unsigned char)*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')
            *p = ' ';
    int rc = xmlTextWriterWriteElement(w, BAD_CAST name, BAD_CAST s);
    free(s);
    return rc < 0 ? -EIO : 0;
}

/* v at the given decimals when that reads back exactly, else the shortest exact form. */
static void fmt_num(char *buf, size_t len, double v, int decimals)
{
    if (decimals >= 0 && decimals <= 17) {
        snprintf(buf, len, "%.*f", decimals, v);
        if (strtod(buf, NULL) == v)
            return;
    }
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, len, "%.*g", p, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

/* The "pts" object of an extra text (a new reference, or NULL). */
static json_t *pts_of(const char *extra)
{
    json_t *j = extra ? json_loads(extra, 0, NULL) : NULL;
    json_t *p = json_incref(json_object_get(j, "pts"));
    json_decref(j);
    return json_is_object(p) ? p : (json_decref(p), NULL);
}

static const char *pts_str(json_t *p, const char *key, const char *dflt)
{
    json_t *v = json_object_get(p, key);
    return json_is_string(v) ? json_string_value(v) : dflt;
}

/* <JSON> of a system: what PTS had in it, and the storage stack under our own key. */
static char *system_json(const sb_system *s, json_t *p)
{
    const char *kept = pts_str(p, "json", "");
    json_t *j = *kept ? json_loads(kept, 0, NULL) : NULL;
    if (!json_is_object(j)) {
        json_decref(j);
        j = json_object();
    }
    if (s->storage.n) {
        char *st = sb_kvline_format(&s->storage);
        json_object_set_new(j, STORAGE_KEY, json_string(st));
        free(st);
    }
    char *out = json_object_size(j) ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER)
                                    : sb_xstrdup("");
    json_decref(j);
    return out;
}

static int write_system(xmlTextWriter *w, const sb_system *s)
{
    json_t *p = pts_of(s->extra);
    char *hw = sb_kvline_format(&s->hardware), *sw = sb_kvline_format(&s->software);
    char *js = system_json(s, p), *ts = sb_xstrdup(s->timestamp ? s->timestamp : "");
    /* ISO 8601 back into PTS's "2025-01-30 13:21:52". */
    char *t = strchr(ts, 'T');
    if (t)
        *t = ' ';
    if (*ts && ts[strlen(ts) - 1] == 'Z')
        ts[strlen(ts) - 1] = '\0';
    const char *tv = s->tool_version && strcmp(s->tool_version, "imported") ? s->tool_version : "";
    int rc = xmlTextWriterStartElement(w, BAD_CAST "System") < 0 ? -EIO : 0;
    rc = rc ? rc : el(w, "Identifier", s->identifier);
    rc = rc ? rc : el(w, "Hardware", hw);
    rc = rc ? rc : el(w, "Software", sw);
    rc = rc ? rc : el(w, "User", pts_str(p, "user", ""));
    rc = rc ? rc : el(w, "TimeStamp", ts);
    rc = rc ? rc : el(w, "TestClientVersion", pts_str(p, "test_client_version", tv));
    rc = rc ? rc : el(w, "Notes", pts_str(p, "notes", ""));
    rc = rc ? rc : el(w, "JSON", js);
    if (!rc && xmlTextWriterEndElement(w) < 0)
        rc = -EIO;
    free(hw);
    free(sw);
    free(js);
    free(ts);
    json_decref(p);
    return rc;
}

/* The version of the storbench that measured r's first measured figure. */
static const char *measured_version(const sb_resultfile *rf, const sb_result *r)
{
    for (size_t i = 0; i < r->n_entries; i++) {
        const sb_system *s = sb_resultfile_find_system(rf, r->entries[i].identifier);
        if (!r->entries[i].imported && s && s->tool_version && *s->tool_version)
            return s->tool_version;
    }
    return STORBENCH_VERSION;
}

/* Arguments: what PTS ran, else the options storbench ran with ("rw=randwrite ..."), which
 * also keeps PTS from taking two results of one test for one (it tells them apart by it). */
static char *arguments(const sb_result *r, json_t *p)
{
    const char *a = pts_str(p, "arguments", NULL);
    if (a || !r->options.n)
        return sb_xstrdup(a ? a : r->description);
    size_t cap = 1;
    for (size_t i = 0; i < r->options.n; i++)
        cap += strlen(r->options.items[i].key) + strlen(r->options.items[i].value) + 2;
    char *out = sb_xrealloc(NULL, cap), *q = out;
    for (size_t i = 0; i < r->options.n; i++)
        q += snprintf(q, cap - (size_t)(q - out), "%s%s=%s", i ? " " : "",
                      r->options.items[i].key, r->options.items[i].value);
    *q = '\0';
    return out;
}

static int write_entry(xmlTextWriter *w, const sb_entry *e)
{
    char num[64];
    size_t cap = 1 + e->n_values * 32;
    char *raw = sb_xrealloc(NULL, cap), *q = raw;
    *q = '\0';
    for (size_t i = 0; i < e->n_values; i++) {
        fmt_num(num, sizeof num, e->values[i], -1);
        q += snprintf(q, cap - (size_t)(q - raw), "%s%s", i ? ":" : "", num);
    }
    json_t *p = pts_of(e->extra);
    fmt_num(num, sizeof num, e->mean, e->decimals);
    int rc = xmlTextWriterStartElement(w, BAD_CAST "Entry") < 0 ? -EIO : 0;
    rc = rc ? rc : el(w, "Identifier", e->identifier);
    rc = rc ? rc : el(w, "Value", num);
    rc = rc ? rc : el(w, "RawString", raw);
    rc = rc ? rc : el(w, "JSON", pts_str(p, "json", ""));
    if (!rc && xmlTextWriterEndElement(w) < 0)
        rc = -EIO;
    json_decref(p);
    free(raw);
    return rc;
}

static int write_result(xmlTextWriter *w, const sb_resultfile *rf, const sb_result *r)
{
    json_t *p = pts_of(r->extra);
    char ident[256];
    const char *pi = pts_str(p, "identifier", NULL);
    if (pi)
        snprintf(ident, sizeof ident, "%s", pi);
    else if (*r->test)
        snprintf(ident, sizeof ident, "storbench/%s-%s", r->test, measured_version(rf, r));
    else
        ident[0] = '\0';
    char *args = arguments(r, p);
    int rc = xmlTextWriterStartElement(w, BAD_CAST "Result") < 0 ? -EIO : 0;
    rc = rc ? rc : el(w, "Identifier", ident);
    rc = rc ? rc : el(w, "Title", r->title);
    rc = rc ? rc : el(w, "AppVersion", r->version);
    rc = rc ? rc : el(w, "Arguments", args);
    rc = rc ? rc : el(w, "Description", r->description);
    rc = rc ? rc : el(w, "Scale", r->unit);
    rc = rc ? rc : el(w, "Proportion", r->direction == SB_LOWER_IS_BETTER ? "LIB" : "HIB");
    rc = rc ? rc : el(w, "DisplayFormat", "BAR_GRAPH");
    rc = rc ? rc : xmlTextWriterStartElement(w, BAD_CAST "Data") < 0 ? -EIO : 0;
    for (size_t i = 0; !rc && i < r->n_entries; i++)
        rc = write_entry(w, &r->entries[i]);
    if (!rc && (xmlTextWriterEndElement(w) < 0 || xmlTextWriterEndElement(w) < 0))
        rc = -EIO;
    free(args);
    json_decref(p);
    return rc;
}

static int write_generated(xmlTextWriter *w, const sb_resultfile *rf)
{
    char now[32];
    time_t t = time(NULL);
    struct tm tm;
    strftime(now, sizeof now, "%Y-%m-%d %H:%M:%S", localtime_r(&t, &tm));
    int rc = xmlTextWriterStartElement(w, BAD_CAST "Generated") < 0 ? -EIO : 0;
    rc = rc ? rc : el(w, "Title", rf->title);
    rc = rc ? rc : el(w, "LastModified", now);
    rc = rc ? rc : el(w, "TestClient", "storbench " STORBENCH_VERSION);
    rc = rc ? rc : el(w, "Description", rf->description);
    if (!rc && xmlTextWriterEndElement(w) < 0)
        rc = -EIO;
    return rc;
}

static int write_doc(xmlTextWriter *w, const sb_resultfile *rf)
{
    xmlTextWriterSetIndent(w, 1);
    xmlTextWriterSetIndentString(w, BAD_CAST "  ");
    int rc = xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) < 0 ? -EIO : 0;
    rc = rc ? rc : xmlTextWriterWriteComment(w, BAD_CAST "storbench " STORBENCH_VERSION) < 0 ? -EIO : 0;
    rc = rc ? rc : xmlTextWriterStartElement(w, BAD_CAST "PhoronixTestSuite") < 0 ? -EIO : 0;
    rc = rc ? rc : write_generated(w, rf);
    for (size_t i = 0; !rc && i < rf->n_systems; i++)
        rc = write_system(w, &rf->systems[i]);
    for (size_t i = 0; !rc && i < rf->n_results; i++)
        rc = write_result(w, rf, &rf->results[i]);
    if (!rc && xmlTextWriterEndDocument(w) < 0)
        rc = -EIO;
    return rc;
}

int sb_pts_xml_write(FILE *out, const sb_resultfile *rf)
{
    xmlBuffer *buf = xmlBufferCreate();
    xmlTextWriter *w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
    if (!w) {
        xmlBufferFree(buf);
        return -ENOMEM;
    }
    int rc = write_doc(w, rf);
    xmlFreeTextWriter(w); /* flushes into buf */
    if (!rc && fwrite(xmlBufferContent(buf), 1, (size_t)xmlBufferLength(buf), out) !=
                   (size_t)xmlBufferLength(buf))
        rc = -EIO;
    xmlBufferFree(buf);
    if (!rc && (fflush(out) != 0 || ferror(out)))
        rc = -EIO;
    return rc;
}
