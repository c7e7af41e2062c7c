/*
 * svg_axis — the scale, axes, metrics and page frame every `storbench plot` chart
 * shares (svg_axis.h). A log scale is chosen by the data, not the user: two decades
 * or more between the smallest and the largest positive value, as fio-plot does for
 * latency, so that a 4 KiB random read and a sequential stream share one readable
 * axis. Sizes are pixels; the caption is cut to the width so that it stays one line.
 */
#include "report/svg_axis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/escape.h"
#include "report/html_latency.h"

#ifndef STORBENCH_VERSION
#define STORBENCH_VERSION "unknown"
#endif

#define CHAR_PX 6.2 /* the caption's mean advance at 11 px, to cut it to one line */

static double nice_step(double range, int n)
{
    double raw = range / n, mag = pow(10, floor(log10(raw))), f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

void sb_svg_scale_init(sb_svg_scale *s, double min, double max, bool allow_log, double p0,
                       double p1)
{
    s->p0 = p0;
    s->p1 = p1;
    s->log = allow_log && min > 0 && max / min >= 100;
    if (s->log) {
        s->lo = pow(10, floor(log10(min)));
        s->hi = pow(10, ceil(log10(max)));
        if (s->hi <= s->lo)
            s->hi = s->lo * 10;
        return;
    }
    s->lo = min < 0 ? min : 0;
    if (!(max > s->lo))
        max = s->lo + 1;
    double step = nice_step(max - s->lo, 5);
    s->hi = ceil(max / step) * step;
    if (s->lo < 0)
        s->lo = floor(s->lo / step) * step;
}

double sb_svg_scale_at(const sb_svg_scale *s, double v)
{
    double f;
    if (s->log)
        f = v > 0 ? (log10(v) - log10(s->lo)) / (log10(s->hi) - log10(s->lo)) : 0;
    else
        f = (v - s->lo) / (s->hi - s->lo);
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    return s->p0 + f * (s->p1 - s->p0);
}

size_t sb_svg_scale_ticks(const sb_svg_scale *s, double *ticks, size_t max)
{
    size_t n = 0;
    if (s->log) {
        for (double v = s->lo; v <= s->hi * 1.0001 && n < max; v *= 10)
            ticks[n++] = v;
        return n;
    }
    double step = nice_step(s->hi - s->lo, 5);
    for (double v = s->lo; v <= s->hi + step * 1e-6 && n < max; v += step)
        ticks[n++] = fabs(v) < step * 1e-9 ? 0 : v;
    return n;
}

void sb_svg_format_number(char *buf, size_t len, double v)
{
    static const char *const suffix[] = {"", "k", "M", "G", "T"};
    double a = fabs(v);
    size_t k = 0;
    while (a >= 1000 && k + 1 < sizeof suffix / sizeof suffix[0]) {
        a /= 1000;
        v /= 1000;
        k++;
    }
    if (a != 0 && a < 0.01)
        snprintf(buf, len, "%.2g%s", v, suffix[k]);
    else
        snprintf(buf, len, "%.*f%s", a >= 100 || a == floor(a) ? 0 : a >= 10 ? 1 : 2, v, suffix[k]);
    /* "2.50" -> "2.5": trailing zeros after the point say nothing on an axis */
    char *dot = strchr(buf, '.');
    if (dot) {
        char *end = dot + strspn(dot + 1, "0123456789") + 1, *z = end;
        while (z > dot + 1 && z[-1] == '0')
            z--;
        if (z == dot + 1)
            z = dot;
        memmove(z, end, strlen(end) + 1);
    }
}

bool sb_svg_metric(const sb_result *r, const sb_entry *e, const char *metric, double *v,
                   const char **unit)
{
    if (!metric || !strcmp(metric, SB_SVG_METRIC_VALUE)) {
        *v = e->mean;
        *unit = r->unit ? r->unit : "";
        return isfinite(*v);
    }
    for (size_t k = 0; k < e->n_secondary; k++)
        if (!strcmp(e->secondary[k].name, metric)) {
            *v = e->secondary[k].value;
            *unit = e->secondary[k].unit ? e->secondary[k].unit : "";
            return isfinite(*v);
        }
    return false;
}

bool sb_svg_result_has_metric(const sb_result *r, const char *metric)
{
    double v;
    const char *u;
    for (size_t j = 0; j < r->n_entries; j++)
        if (sb_svg_metric(r, &r->entries[j], metric, &v, &u))
            return true;
    return false;
}

static bool listed(const char *buf, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = buf; (p = strstr(p, name)); p += n)
        if ((p == buf || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0'))
            return true;
    return false;
}

void sb_svg_metric_names(const sb_resultfile *rf, char *buf, size_t len)
{
    snprintf(buf, len, "%s", SB_SVG_METRIC_VALUE);
    for (size_t i = 0; i < rf->n_results; i++)
        for (size_t j = 0; j < rf->results[i].n_entries; j++) {
            const sb_entry *e = &rf->results[i].entries[j];
            for (size_t k = 0; k < e->n_secondary; k++) {
                size_t used = strlen(buf);
                if (!listed(buf, e->secondary[k].name) && used + 2 < len)
                    snprintf(buf + used, len - used, ", %s", e->secondary[k].name);
            }
        }
}

static const char style[] =
    "text{font-family:'DejaVu Sans',Verdana,sans-serif;fill:#1b1f24;font-size:12px}"
    ".title{font-size:17px;font-weight:bold}.panel{font-size:13px;font-weight:bold}"
    ".sub,.caption,.tick{fill:#57606a;font-size:11px}.axis-label{font-size:12px}"
    ".grid{stroke:#d0d7de;stroke-width:1}.axis{stroke:#57606a;stroke-width:1}"
    ".cell{font-size:11px}";

void sb_svg_begin(FILE *out, int w, int h, const char *title)
{
    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\">\n<style>%s</style>\n"
            "<rect class=\"background\" x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
            w, h, w, h, style, w, h);
    sb_svg_text(out, w / 2.0, 26, "title", "middle", title && *title ? title : "storbench results");
}

void sb_svg_text(FILE *out, double x, double y, const char *cls, const char *anchor,
                 const char *s)
{
    fprintf(out, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", cls, x, y, anchor);
    sb_html_escape(out, s ? s : "");
    fputs("</text>\n", out);
}

/* Cuts s (UTF-8) to at most max characters, ending in "..." when cut. */
static void cut_line(char *s, size_t max)
{
    size_t chars = 0;
    for (char *p = s; *p; p++) {
        if (((unsigned char)*p & 0xC0) == 0x80)
            continue;
        if (++chars > max && max > 3) {
            /* back to the start of the character that is the max-2'th, for the dots */
            char *q = p;
            for (int k = 0; k < 3; q--)
                if (((unsigned char)q[-1] & 0xC0) != 0x80)
                    k++;
            strcpy(q, "...");
            return;
        }
    }
}

void sb_svg_end(FILE *out, const sb_resultfile *rf, int w, int y)
{
    char line[1024] = "", one[512];
    size_t n = rf->n_systems < 3 ? rf->n_systems : 3;
    for (size_t i = 0; i < n; i++) {
        const sb_system *s = &rf->systems[i];
        const char *cpu = sb_kvlist_get(&s->hardware, "Processor");
        const char *target = sb_kvlist_get(&s->storage, "Target");
        const char *ver = s->tool_version && *s->tool_version ? s->tool_version : "unknown";
        snprintf(one, sizeof one, "%s%s: %s, target %s, %s%s", i ? "; " : "", s->identifier,
                 cpu && *cpu ? cpu : "machine unknown", target && *target ? target : "unknown",
                 strcmp(ver, "imported") ? "storbench " : "", ver);
        strncat(line, one, sizeof line - strlen(line) - 1);
    }
    if (rf->n_systems > n) {
        snprintf(one, sizeof one, "; +%zu more", rf->n_systems - n);
        strncat(line, one, sizeof line - strlen(line) - 1);
    }
    if (!rf->n_systems)
        snprintf(line, sizeof line, "no system described");
    snprintf(one, sizeof one, " (plot: storbench %s)", STORBENCH_VERSION);
    strncat(line, one, sizeof line - strlen(line) - 1);
    cut_line(line, (size_t)((w - 20) / CHAR_PX));
    sb_svg_text(out, 10, y, "caption", "start", line);
    fputs("</svg>\n", out);
}

int sb_svg_legend(FILE *out, const char *const *labels, size_t n, int x, int y, int w)
{
    int cx = x, rows = n ? 1 : 0;
    for (size_t i = 0; i < n; i++) {
        int item = 22 + (int)(strlen(labels[i]) * 7) + 18;
        if (cx > x && cx + item > x + w) {
            cx = x;
            rows++;
        }
        int cy = y + (rows - 1) * 20;
        if (out) {
            fprintf(out, "<g class=\"legend-item\"><rect x=\"%d\" y=\"%d\" width=\"14\" height=\"12\" "
                         "fill=\"%s\"/>", cx, cy, sb_html_colour(i));
            sb_svg_text(out, cx + 20, cy + 11, "legend", "start", labels[i]);
            fputs("</g>\n", out);
        }
        cx += item;
    }
    return rows * 20;
}

void sb_svg_axis_h(FILE *out, const sb_svg_scale *s, double y, double y_top, const char *label)
{
    double ticks[16];
    size_t n = sb_svg_scale_ticks(s, ticks, 16);
    fprintf(out, "<g class=\"x-axis\"%s>\n", s->log ? " data-log=\"1\"" : "");
    for (size_t i = 0; i < n; i++) {
        double px = sb_svg_scale_at(s, ticks[i]);
        char t[32];
        sb_svg_format_number(t, sizeof t, ticks[i]);
        fprintf(out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n", px, px,
                y_top, y);
        sb_svg_text(out, px, y + 14, "tick", "middle", t);
    }
    fprintf(out, "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n", s->p0, s->p1,
            y, y);
    sb_svg_text(out, (s->p0 + s->p1) / 2, y + 30, "axis-label", "middle", label);
    fputs("</g>\n", out);
}

void sb_svg_axis_v(FILE *out, const sb_svg_scale *s, double x, double x_right, const char *label)
{
    double ticks[16];
    size_t n = sb_svg_scale_ticks(s, ticks, 16);
    fprintf(out, "<g class=\"y-axis\"%s>\n", s->log ? " data-log=\"1\"" : "");
    for (size_t i = 0; i < n; i++) {
        double py = sb_svg_scale_at(s, ticks[i]);
        char t[32];
        sb_svg_format_number(t, sizeof t, ticks[i]);
        fprintf(out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n", x,
                x_right, py, py);
        sb_svg_text(out, x - 6, py + 4, "tick", "end", t);
    }
    fprintf(out, "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n", x, x, s->p0,
            s->p1);
    double my = (s->p0 + s->p1) / 2;
    fprintf(out, "<text class=\"axis-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                 "transform=\"rotate(-90 %.1f %.1f)\">", x - 48, my, x - 48, my);
    sb_html_escape(out, label);
    fputs("</text>\n</g>\n", out);
}
