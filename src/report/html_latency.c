/*
 * html_latency — the latency percentile charts of the HTML page (see
 * html_latency.h): one line per identifier over the percentiles a result
 * recorded, on a log axis when they span decades, with a legend and the
 * values as a table under it.
 */
#include "report/html_latency.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/escape.h"

bool sb_latency_percentile(const char *name, char *prefix, size_t len, double *pct)
{
    const char *p = strrchr(name, '_');
    if (!p || p == name || p[1] != 'p')
        return false;
    const char *num = p + 2;
    if (!(*num >= '0' && *num <= '9'))
        return false;
    /* Digits with at most one point: "p1e2" or "p50x" is some other figure. */
    int points = 0;
    for (const char *q = num; *q; q++) {
        if (*q == '.')
            points++;
        else if (!(*q >= '0' && *q <= '9'))
            return false;
    }
    if (points > 1)
        return false;
    char *end;
    double v = strtod(num, &end);
    if (*end || !(v >= 0 && v <= 100))
        return false;
    size_t n = (size_t)(p - name);
    if (len) {
        if (n >= len)
            n = len - 1;
        memcpy(prefix, name, n);
        prefix[n] = '\0';
    }
    *pct = v;
    return true;
}

/* Latency chart geometry. */
#define LAT_H 230
#define LAT_SLANT 26   /* extra height when the percentile labels are slanted */
#define LAT_UPRIGHT 6  /* at most this many percentiles get upright labels */
#define LAT_TOP 14
#define LAT_BOTTOM 196 /* y of the lowest gridline */
#define LAT_LEFT 4.0   /* percent: first and last percentile's x */
#define LAT_RIGHT 96.0

/* Okabe-Ito colours: told apart by most colour-blind readers; dashes take over after them. */
static const char *const palette[] = {"#0072B2", "#E69F00", "#009E73", "#D55E00",
                                      "#CC79A7", "#56B4E9", "#000000"};
#define N_PALETTE (sizeof palette / sizeof palette[0])
static const char *const dashes[] = {"", "6 3", "2 3", "8 3 2 3"};
#define N_DASHES (sizeof dashes / sizeof dashes[0])

const char *sb_html_colour(size_t j) { return palette[j % N_PALETTE]; }
const char *sb_html_dash(size_t j) { return dashes[(j / N_PALETTE) % N_DASHES]; }

typedef struct lat_series {
    char prefix[64];
    double *pcts; /* sorted, distinct */
    size_t n;
    const char *unit;
} lat_series;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The distinct prefixes with their union of percentiles, in order of first appearance. */
static size_t find_latency(const sb_result *r, lat_series **out)
{
    lat_series *s = NULL;
    size_t n = 0;
    for (size_t j = 0; j < r->n_entries; j++) {
        const sb_entry *e = &r->entries[j];
        for (size_t k = 0; k < e->n_secondary; k++) {
            char prefix[64];
            double pct;
            if (!sb_latency_percentile(e->secondary[k].name, prefix, sizeof prefix, &pct))
                continue;
            size_t i;
            for (i = 0; i < n; i++)
                if (!strcmp(s[i].prefix, prefix))
                    break;
            if (i == n) {
                lat_series *ns = realloc(s, (n + 1) * sizeof *s);
                if (!ns)
                    continue;
                s = ns;
                memset(&s[n], 0, sizeof s[n]);
                snprintf(s[n].prefix, sizeof s[n].prefix, "%s", prefix);
                s[n].unit = e->secondary[k].unit;
                n++;
            }
            size_t m;
            for (m = 0; m < s[i].n; m++)
                if (s[i].pcts[m] == pct)
                    break;
            if (m == s[i].n) {
                double *np = realloc(s[i].pcts, (s[i].n + 1) * sizeof *np);
                if (!np)
                    continue;
                s[i].pcts = np;
                s[i].pcts[s[i].n++] = pct;
            }
        }
    }
    for (size_t i = 0; i < n; i++)
        qsort(s[i].pcts, s[i].n, sizeof *s[i].pcts, cmp_double);
    *out = s;
    return n;
}

static bool lat_value(const sb_entry *e, const char *prefix, double pct, double *v)
{
    for (size_t k = 0; k < e->n_secondary; k++) {
        char p[64];
        double q;
        if (sb_latency_percentile(e->secondary[k].name, p, sizeof p, &q) && q == pct &&
            !strcmp(p, prefix) && isfinite(e->secondary[k].value)) {
            *v = e->secondary[k].value;
            return true;
        }
    }
    return false;
}

static void pct_label(char *buf, size_t len, double pct)
{
    snprintf(buf, len, "p%g", pct);
}

/* The y axis of a latency chart: log when the values span more than a factor of 20. */
typedef struct lat_axis {
    bool logscale;
    double ymin, ymax;
} lat_axis;

/* The axis over every value of the series; false when there is nothing above 0 to draw. */
static bool lat_axis_for(const sb_result *r, const lat_series *ls, lat_axis *ax)
{
    double lo = INFINITY, hi = 0;
    for (size_t j = 0; j < r->n_entries; j++)
        for (size_t m = 0; m < ls->n; m++) {
            double v;
            if (lat_value(&r->entries[j], ls->prefix, ls->pcts[m], &v) && v >= 0) {
                if (v > hi)
                    hi = v;
                if (v > 0 && v < lo)
                    lo = v;
            }
        }
    if (!(hi > 0))
        return false;
    /* Tail latencies span decades: a log axis when they do, linear from 0 otherwise. */
    ax->logscale = isfinite(lo) && hi / lo > 20;
    if (ax->logscale) {
        ax->ymin = pow(10, floor(log10(lo)));
        ax->ymax = pow(10, ceil(log10(hi)));
    } else {
        double step = pow(10, floor(log10(hi)));
        ax->ymax = ceil(hi / step) * step;
        if (ax->ymax / step < 3) {
            step /= 2;
            ax->ymax = ceil(hi / step) * step;
        }
        ax->ymin = 0;
    }
    return true;
}

static double lat_ypos(const lat_axis *ax, double v)
{
    if (ax->logscale)
        return LAT_BOTTOM - (log10(v > ax->ymin ? v : ax->ymin) - log10(ax->ymin)) /
                                (log10(ax->ymax) - log10(ax->ymin)) * (LAT_BOTTOM - LAT_TOP);
    return LAT_BOTTOM - (v - ax->ymin) / (ax->ymax - ax->ymin) * (LAT_BOTTOM - LAT_TOP);
}

/* Percent across the plot of the m-th percentile. */
static double lat_xpos(const lat_series *ls, size_t m)
{
    return ls->n > 1 ? LAT_LEFT + (LAT_RIGHT - LAT_LEFT) * (double)m / (double)(ls->n - 1) : 50.0;
}

/* One polyline with a dot per percentile for each identifier. */
static void lat_lines(FILE *out, const sb_result *r, const lat_series *ls, const lat_axis *ax,
                      const char *unit)
{
    for (size_t j = 0; j < r->n_entries; j++) {
        const sb_entry *e = &r->entries[j];
        const char *colour = sb_html_colour(j);
        const char *dash = sb_html_dash(j);
        fprintf(out, "<g class=\"lat-series\" stroke=\"%s\" fill=\"%s\"", colour, colour);
        if (*dash)
            fprintf(out, " stroke-dasharray=\"%s\"", dash);
        fputs(" data-identifier=\"", out);
        sb_html_escape(out, e->identifier);
        fputs("\">", out);
        bool have_prev = false;
        double px = 0, py = 0;
        for (size_t m = 0; m < ls->n; m++) {
            double v;
            if (!lat_value(e, ls->prefix, ls->pcts[m], &v)) {
                have_prev = false;
                continue;
            }
            double x = lat_xpos(ls, m), y = lat_ypos(ax, v);
            if (have_prev)
                fprintf(out, "<line class=\"lat-line\" x1=\"%.3f%%\" y1=\"%.1f\" x2=\"%.3f%%\" "
                             "y2=\"%.1f\"/>",
                        px, py, x, y);
            char lbl[32];
            pct_label(lbl, sizeof lbl, ls->pcts[m]);
            fprintf(out, "<circle cx=\"%.3f%%\" cy=\"%.1f\" r=\"3\" stroke=\"none\"><title>", x, y);
            sb_html_escape(out, e->identifier);
            fprintf(out, " %s: %.4g ", lbl, v);
            sb_html_escape(out, unit);
            fputs("</title></circle>", out);
            px = x;
            py = y;
            have_prev = true;
        }
        fputs("</g>\n", out);
    }
}

void sb_html_legend_item(FILE *out, size_t j, const char *label)
{
    fprintf(out, "<li><span class=\"swatch\" style=\"border-top-color:%s;border-top-style:%s\">"
                 "</span>",
            sb_html_colour(j), *sb_html_dash(j) ? "dashed" : "solid");
    sb_html_escape(out, label);
    fputs("</li>", out);
}

/* The legend and the numbers behind the lines, for those who want them (and for print). */
static void lat_legend_and_table(FILE *out, const sb_result *r, const lat_series *ls)
{
    fputs("<ul class=\"legend\">", out);
    for (size_t j = 0; j < r->n_entries; j++) {
        sb_html_legend_item(out, j, r->entries[j].identifier);
    }
    fputs("</ul>\n", out);
    fputs("<details><summary>Percentile values</summary><div class=\"scroll\"><table>"
          "<thead><tr><th scope=\"col\"></th>",
          out);
    for (size_t m = 0; m < ls->n; m++) {
        char lbl[32];
        pct_label(lbl, sizeof lbl, ls->pcts[m]);
        fprintf(out, "<th scope=\"col\">%s</th>", lbl);
    }
    fputs("</tr></thead><tbody>\n", out);
    for (size_t j = 0; j < r->n_entries; j++) {
        fputs("<tr><th scope=\"row\">", out);
        sb_html_escape(out, r->entries[j].identifier);
        fputs("</th>", out);
        for (size_t m = 0; m < ls->n; m++) {
            double v;
            if (lat_value(&r->entries[j], ls->prefix, ls->pcts[m], &v))
                fprintf(out, "<td class=\"num\">%.4g</td>", v);
            else
                fputs("<td class=\"num\">&#8212;</td>", out);
        }
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table></div></details>\n", out);
}

static void latency_chart(FILE *out, const sb_result *r, const lat_series *ls, size_t index,
                          size_t li)
{
    lat_axis ax;
    if (!lat_axis_for(r, ls, &ax))
        return;
    const char *unit = ls->unit && *ls->unit ? ls->unit : "us";
    /* Many percentiles crowd the axis of a phone-wide chart: slant their labels. */
    bool slanted = ls->n > LAT_UPRIGHT;
    fputs("<div class=\"chart-block\">\n<h3>", out);
    if (strcmp(ls->prefix, "lat")) {
        sb_html_escape(out, ls->prefix);
        fputs(": latency percentiles", out);
    } else {
        fputs("Latency percentiles", out);
    }
    fputs(" (", out);
    sb_html_escape(out, unit);
    fprintf(out, ", lower is better%s)</h3>\n", ax.logscale ? ", log scale" : "");
    fprintf(out, "<svg class=\"latency\" role=\"img\" aria-label=\"latency percentiles\" "
                 "height=\"%d\" data-result=\"%zu\" data-series=\"%zu\">\n",
            LAT_H + (slanted ? LAT_SLANT : 0), index, li);
    /* The ticks: every decade on a log axis, quarters on a linear one. */
    double ticks[32];
    int n_ticks = 0;
    if (ax.logscale)
        for (double t = ax.ymin; t <= ax.ymax * 1.0001 && n_ticks < 32; t *= 10)
            ticks[n_ticks++] = t;
    else
        for (int i = 0; i <= 4; i++)
            ticks[n_ticks++] = ax.ymin + (ax.ymax - ax.ymin) / 4 * i;
    for (int i = 0; i < n_ticks; i++) {
        double y = lat_ypos(&ax, ticks[i]);
        fprintf(out, "<line class=\"grid\" x1=\"0\" x2=\"100%%\" y1=\"%.1f\" y2=\"%.1f\"/>\n", y, y);
    }
    for (size_t m = 0; m < ls->n; m++) {
        char lbl[32];
        pct_label(lbl, sizeof lbl, ls->pcts[m]);
        if (slanted)
            /* A rotation needs user units: a nested svg carries the percentage position. */
            fprintf(out, "<svg x=\"%.3f%%\" y=\"%d\" overflow=\"visible\"><text class=\"axis\" "
                         "transform=\"rotate(-45)\" text-anchor=\"end\">%s</text></svg>\n",
                    lat_xpos(ls, m), LAT_BOTTOM + 14, lbl);
        else
            fprintf(out, "<text class=\"axis\" x=\"%.3f%%\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                    lat_xpos(ls, m), LAT_BOTTOM + 18, lbl);
    }
    lat_lines(out, r, ls, &ax, unit);
    /* Tick labels last, just above their gridlines at the left: drawn over the lines, with
     * a white halo (CSS), so that no series hides them. */
    for (int i = 0; i < n_ticks; i++) {
        fprintf(out, "<text class=\"axis\" x=\"0\" y=\"%.1f\">%g ", lat_ypos(&ax, ticks[i]) - 3, ticks[i]);
        sb_html_escape(out, unit);
        fputs("</text>\n", out);
    }
    fputs("</svg>\n", out);
    lat_legend_and_table(out, r, ls);
    fputs("</div>\n", out);
}

void sb_html_latency_charts(FILE *out, const sb_result *r, size_t index)
{
    lat_series *ls = NULL;
    size_t n = find_latency(r, &ls);
    for (size_t i = 0; i < n; i++) {
        latency_chart(out, r, &ls[i], index, i);
        free(ls[i].pcts);
    }
    free(ls);
}
