/*
 * html — the HTML rendering of a result file (see html.h). Charts are inline
 * SVG whose horizontal positions are percentages of the chart's width and
 * whose text keeps its CSS pixel size, so the same page reads on a phone, a
 * wide screen and paper without scaling the letters down to nothing. The one
 * inline script counts page errors into <html data-errors> so that a test
 * (tests/cli/test_html_browser.sh) can see them, and opens the value tables
 * for printing; the page is complete without it.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/html_latency.h"
#include "report/html_series.h"
#include "report/html_sweep.h"
#include "report/overview.h"
#include "report/uncertainty.h"

#ifndef STORBENCH_VERSION
#define STORBENCH_VERSION "unknown"
#endif

/* Bar chart geometry, in CSS pixels (heights) and percent (widths). */
#define ROW_H 40       /* one identifier: label line and bar */
#define BAR_Y 19       /* bar's top inside its row */
#define BAR_H 14
#define BAR_MAX 97.0   /* percent of the width the longest bar (with whisker) may use */
#define VALUE_INSIDE 70.0 /* percent: a bar reaching past this carries its value inside */

static void value_text(char *buf, size_t len, double v, int decimals)
{
    snprintf(buf, len, "%.*f", decimals, v);
}

static const char style[] =
    ":root{--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--bar:#4a6f96;--best:#1a7f37;"
    "--diff:#fff4d6;--diffmark:#bf8700}"
    "*{box-sizing:border-box}"
    "html{-webkit-text-size-adjust:100%;print-color-adjust:exact;-webkit-print-color-adjust:exact}"
    "body{margin:0 auto;max-width:62rem;padding:.75rem;font:15px/1.45 system-ui,-apple-system,"
    "'Segoe UI',Roboto,'DejaVu Sans',sans-serif;color:var(--fg);background:#fff}"
    "h1{font-size:1.5rem;margin:.4rem 0}"
    "h2{font-size:1.2rem;margin:1.6rem 0 .3rem}"
    "h3{font-size:1rem;margin:1rem 0 .2rem}"
    "p{margin:.2rem 0}"
    ".muted,.options,.direction,.note{color:var(--muted)}"
    ".options{font-size:.92rem}"
    ".direction{font-weight:600}"
    ".note{font-size:.85rem}"
    ".sources{font-size:.85rem;color:var(--muted);list-style:none;padding:0;margin:.2rem 0}"
    "nav ol{padding-left:1.4rem;margin:.3rem 0}"
    ".scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;max-width:100%}"
    "table{border-collapse:collapse;font-size:.85rem}"
    "th,td{border:1px solid var(--line);padding:.25rem .45rem;text-align:left;vertical-align:top}"
    "td{min-width:9rem;overflow-wrap:anywhere}"
    "thead th{background:#f6f8fa;position:sticky;top:0}"
    "tbody th{font-weight:600;white-space:nowrap}"
    "tr.group th{background:#f6f8fa;text-transform:uppercase;font-size:.75rem;letter-spacing:.04em}"
    "tr.differs td{background:var(--diff)}"
    "tr.differs th{border-left:4px solid var(--diffmark)}"
    "tr.differs th::after{content:' \\2260';color:var(--diffmark)}"
    "td.num{text-align:right;min-width:0;font-variant-numeric:tabular-nums}"
    "section.result{border-top:1px solid var(--line);margin-top:1.2rem;padding-top:.2rem}"
    "svg{display:block;width:100%;overflow:visible;font-size:13px;margin:.4rem 0}"
    "svg text{fill:var(--fg)}"
    "svg .value{font-variant-numeric:tabular-nums}"
    "svg rect.bar{fill:var(--bar)}"
    "svg rect.bar.best{fill:var(--best)}"
    "svg rect.bar.empty{stroke:var(--line)}"
    "svg rect.ov-bar{fill:var(--bar)}svg rect.ov-bar.better{fill:var(--best)}"
    "svg .ov-base{stroke:var(--fg);stroke-width:1.5}"
    "svg .best{font-weight:700;fill:var(--best)}"
    "svg text.value.inside{fill:#fff}"
    "svg .whisker{stroke:var(--fg);stroke-width:1.5}"
    ".noisy{fill:#b35900;color:#b35900;font-weight:bold}"
    "svg .grid{stroke:var(--line);stroke-width:1}"
    "svg .axis{fill:var(--muted);font-size:11px;paint-order:stroke;stroke:#fff;stroke-width:3px;"
    "stroke-linejoin:round}"
    "svg .lat-line{fill:none;stroke-width:2}"
    "ul.legend{list-style:none;padding:0;margin:.2rem 0;display:flex;flex-wrap:wrap;gap:.2rem 1rem;"
    "font-size:.85rem}"
    ".swatch{display:inline-block;width:1.6rem;height:0;border-top:3px solid;vertical-align:middle;"
    "margin-right:.35rem}"
    "details{margin:.4rem 0}"
    "summary{cursor:pointer;color:var(--muted);font-size:.9rem}"
    "footer{margin-top:2rem;color:var(--muted);font-size:.8rem}"
    "@media (max-width:480px){body{font-size:14px;padding:.5rem}td{min-width:7rem}}"
    "@media print{body{max-width:none;padding:0;font-size:10pt}nav,summary{display:none}"
    
    ".scroll{overflow:visible}thead th{position:static}"
    "section.result{break-inside:avoid;page-break-inside:avoid}"
    "svg,figure,.chart-block{break-inside:avoid;page-break-inside:avoid}"
    "a{color:inherit;text-decoration:none}}";

/* Counts script errors, failed loads and refused (outside) resources into <html data-errors>,
 * read by the browser test. */
static const char error_counter[] =
    "(function(){var n=0,d=document.documentElement;"
    "function s(){d.setAttribute('data-errors',String(n));}"
    "window.addEventListener('error',function(){n++;s();},true);"
    "window.addEventListener('unhandledrejection',function(){n++;s();});"
    "document.addEventListener('securitypolicyviolation',function(){n++;s();});"
    "document.addEventListener('DOMContentLoaded',s);s();"
    /* Paper cannot be clicked: print the tables behind the charts opened. */
    "window.addEventListener('beforeprint',function(){"
    "document.querySelectorAll('details').forEach(function(e){e.open=true;});});})();";

/* ---- the system table ---- */

typedef struct keyset {
    const char **keys;
    size_t n;
} keyset;

static void keyset_add(keyset *k, const char *key)
{
    for (size_t i = 0; i < k->n; i++)
        if (!strcmp(k->keys[i], key))
            return;
    const char **nk = realloc(k->keys, (k->n + 1) * sizeof *nk);
    if (!nk)
        return; /* a missing row beats a crash; the page stays valid */
    k->keys = nk;
    k->keys[k->n++] = key;
}

typedef const sb_kvlist *(*kv_of)(const sb_system *s);
static const sb_kvlist *hw(const sb_system *s) { return &s->hardware; }
static const sb_kvlist *sw(const sb_system *s) { return &s->software; }
static const sb_kvlist *st(const sb_system *s) { return &s->storage; }

/* mark: highlight the row when the systems differ in it (not for times, which always do). */
static void system_row(FILE *out, const sb_resultfile *rf, const char *key, const char **vals,
                       bool mark)
{
    bool differs = false;
    for (size_t i = 1; mark && i < rf->n_systems; i++) {
        const char *a = vals[0] ? vals[0] : "", *b = vals[i] ? vals[i] : "";
        if (strcmp(a, b))
            differs = true;
    }
    fprintf(out, "<tr%s><th scope=\"row\">", differs ? " class=\"differs\"" : "");
    sb_html_escape(out, key);
    fputs("</th>", out);
    for (size_t i = 0; i < rf->n_systems; i++) {
        fputs("<td>", out);
        if (vals[i] && *vals[i])
            sb_html_escape(out, vals[i]);
        else
            fputs("<span class=\"muted\">&#8212;</span>", out);
        fputs("</td>", out);
    }
    fputs("</tr>\n", out);
}

static void system_group(FILE *out, const sb_resultfile *rf, const char *title, kv_of get,
                         const char **vals)
{
    keyset k = {0};
    for (size_t i = 0; i < rf->n_systems; i++) {
        const sb_kvlist *l = get(&rf->systems[i]);
        for (size_t j = 0; j < l->n; j++)
            keyset_add(&k, l->items[j].key);
    }
    if (k.n) {
        fprintf(out, "<tr class=\"group\"><th colspan=\"%zu\">%s</th></tr>\n", rf->n_systems + 1,
                title);
        for (size_t j = 0; j < k.n; j++) {
            for (size_t i = 0; i < rf->n_systems; i++)
                vals[i] = sb_kvlist_get(get(&rf->systems[i]), k.keys[j]);
            system_row(out, rf, k.keys[j], vals, true);
        }
    }
    free(k.keys);
}

static void system_table(FILE *out, const sb_resultfile *rf)
{
    if (!rf->n_systems)
        return;
    const char **vals = calloc(rf->n_systems, sizeof *vals);
    if (!vals)
        return;
    fputs("<section id=\"systems\"><h2>Systems</h2>\n"
          "<p class=\"note\">One column per identifier; rows that differ between systems are "
          "highlighted and marked &#8800;.</p>\n"
          "<div class=\"scroll\"><table class=\"systems\">\n<thead><tr><th scope=\"col\"></th>",
          out);
    for (size_t i = 0; i < rf->n_systems; i++) {
        fputs("<th scope=\"col\">", out);
        sb_html_escape(out, rf->systems[i].identifier);
        fputs("</th>", out);
    }
    fputs("</tr></thead>\n<tbody>\n", out);
    system_group(out, rf, "Hardware", hw, vals);
    system_group(out, rf, "Software", sw, vals);
    system_group(out, rf, "Storage", st, vals);
    bool any_run = false;
    for (size_t i = 0; i < rf->n_systems; i++)
        /* Imported pages know neither: a row of dashes and "imported" would be noise. */
        if ((rf->systems[i].timestamp && *rf->systems[i].timestamp) ||
            (rf->systems[i].tool_version && *rf->systems[i].tool_version &&
             strcmp(rf->systems[i].tool_version, "imported")))
            any_run = true;
    if (any_run) {
        fprintf(out, "<tr class=\"group\"><th colspan=\"%zu\">Run</th></tr>\n", rf->n_systems + 1);
        for (size_t i = 0; i < rf->n_systems; i++)
            vals[i] = rf->systems[i].timestamp;
        system_row(out, rf, "Time", vals, false);
        for (size_t i = 0; i < rf->n_systems; i++)
            vals[i] = rf->systems[i].tool_version;
        system_row(out, rf, "storbench", vals, true);
    }
    fputs("</tbody></table></div></section>\n", out);
    free(vals);
}

/* ---- the bar chart ---- */

/* The sources of a chart's figures, in entry order (sb_result_source_groups). */
typedef struct source_marks {
    size_t *group;
    size_t groups;
} source_marks;

static void source_marks_init(source_marks *sm, const sb_result *r)
{
    size_t n = r->n_entries ? r->n_entries : 1;
    sm->group = calloc(n, sizeof *sm->group);
    const sb_entry **order = calloc(n, sizeof *order);
    sm->groups = 0;
    if (sm->group && order) {
        for (size_t i = 0; i < r->n_entries; i++)
            order[i] = &r->entries[i];
        sm->groups = sb_result_source_groups(r, order, r->n_entries, sm->group);
    }
    free(order);
}

/* "[k] imported: SQLite 3.8.10.2" per source, when there is more than one. */
static void source_legend(FILE *out, const sb_result *r, const source_marks *sm)
{
    if (sm->groups < 2)
        return;
    fputs("<ul class=\"sources\">\n", out);
    for (size_t g = 0; g < sm->groups; g++)
        for (size_t j = 0; j < r->n_entries; j++)
            if (sm->group[j] == g) {
                char src[512];
                fprintf(out, "<li data-origin=\"%s\">[%zu] %s: ",
                        r->entries[j].imported ? "imported" : "measured", g + 1,
                        r->entries[j].imported ? "imported" : "measured");
                sb_html_escape(out, sb_entry_source(r, &r->entries[j], src, sizeof src));
                fputs("</li>\n", out);
                break;
            }
    fputs("</ul>\n", out);
}

/* The note under a chart: what its whiskers and marks mean. */
static void chart_note(FILE *out, bool any_se, bool any_unknown, bool any_untrusted, bool any_noisy, bool any_host)
{
    if (any_se || any_unknown || any_untrusted || any_noisy || any_host) {
        fputs("<p class=\"note\">", out);
        if (any_se)
            fputs("Whiskers: &#177; one standard error of the mean. ", out);
        if (any_unknown)
            fputs("Figures without a whisker have no known spread (imported or a single run). ",
                  out);
        if (any_untrusted)
            fputs("* a run was shorter than the 3 s a wall-clock figure needs: treat with care.",
                  out);
        if (any_noisy)
            fputs(any_untrusted ? " <span class=\"noisy\">" SB_NOISY_LEGEND "</span>: compare its bar "
                                  "with care."
                                : "<span class=\"noisy\">" SB_NOISY_LEGEND "</span>: compare its bar "
                                  "with care.", out);
        if (any_host)
            fputs(" <span class=\"noisy\">" SB_HOST_BOUND_LEGEND "</span>; comparisons leave it out.", out);
        fputs("</p>\n", out);
    }
}

/* The page's identifiers without a figure in r (a merged page): one row each under the
 * bars, "not run" beside an empty bar, so that nobody reads a missing row as dropped. */
static void not_run_rows(FILE *out, const sb_resultfile *rf, const sb_result *r, int y)
{
    for (size_t s = 0; s < rf->n_systems; s++) {
        const char *id = rf->systems[s].identifier;
        if (sb_result_find_entry(r, id))
            continue;
        fputs("<g class=\"not-run\" data-identifier=\"", out);
        sb_html_escape(out, id);
        fputs("\"><title>", out);
        sb_html_escape(out, id);
        fputs(": " SB_NOT_RUN_MARK "</title>\n", out);
        fprintf(out, "<text class=\"label\" x=\"0\" y=\"%d\">", y + 14);
        sb_html_escape(out, id);
        fprintf(out, "</text>\n<rect class=\"bar empty\" x=\"0\" y=\"%d\" width=\"0\" height=\"%d\"/>"
                     "<text class=\"value\" x=\"0\" dx=\"5\" y=\"%d\">" SB_NOT_RUN_MARK "</text>\n</g>\n",
                y + BAR_Y, BAR_H, y + BAR_Y + BAR_H - 3);
        y += ROW_H;
    }
}

static size_t count_not_run(const sb_resultfile *rf, const sb_result *r)
{
    size_t n = 0;
    for (size_t s = 0; s < rf->n_systems; s++)
        n += !sb_result_find_entry(r, rf->systems[s].identifier);
    return n;
}

static void bar_chart(FILE *out, const sb_resultfile *rf, const sb_result *r, size_t index)
{
    double scale = 0;
    bool any_se = false, any_untrusted = false, any_unknown = false, any_noisy = false, any_host = false;
    size_t best = 0;
    for (size_t j = 0; j < r->n_entries; j++) {
        const sb_entry *e = &r->entries[j];
        double top = e->mean + (sb_entry_se_known(e) ? e->se : 0);
        if (isfinite(top) && top > scale)
            scale = top;
        if (sb_entry_se_known(e) && e->se > 0)
            any_se = true;
        if (!sb_entry_se_known(e))
            any_unknown = true;
        if (e->untrusted)
            any_untrusted = true;
        if (e->host_bound)
            any_host = true;
        if (sb_entry_noisy(e))
            any_noisy = true;
        const sb_entry *b = &r->entries[best];
        if (r->direction == SB_LOWER_IS_BETTER ? e->mean < b->mean : e->mean > b->mean)
            best = j;
    }
    if (!(scale > 0))
        scale = 1;
    double best_value = r->n_entries ? r->entries[best].mean : 0;
    /* Figures from several sources (imported from a page, measured here): each label gets
     * a mark " [k]" and the legend under the chart says what [k] is. */
    source_marks sm;
    source_marks_init(&sm, r);

    fprintf(out,
            "<svg class=\"chart\" role=\"img\" aria-labelledby=\"result-%zu-title\" height=\"%d\" "
            "data-bars=\"%zu\">\n",
            index, (int)((r->n_entries + count_not_run(rf, r)) * ROW_H + 4), r->n_entries);
    for (size_t j = 0; j < r->n_entries; j++) {
        const sb_entry *e = &r->entries[j];
        int y = (int)j * ROW_H;
        bool is_best = e->mean == best_value;
        double w = e->mean > 0 && isfinite(e->mean) ? e->mean / scale * BAR_MAX : 0;
        char v[64];
        value_text(v, sizeof v, e->mean, e->decimals);

        bool noisy = sb_entry_noisy(e);
        fputs("<g class=\"row\" data-identifier=\"", out);
        sb_html_escape(out, e->identifier);
        fprintf(out, "\"%s><title>", noisy ? " data-noisy=\"1\"" : "");
        sb_html_escape(out, e->identifier);
        fprintf(out, ": %s ", v);
        sb_html_escape(out, r->unit);
        if (e->n_values)
            fprintf(out, " (mean of %zu runs, SD %.3g, SE %.3g)", e->n_values, e->sd, e->se);
        else if (sb_entry_has_se(e))
            fprintf(out, " (imported: SE %.3g, N = %zu)", e->se, sb_entry_runs(e));
        else
            fputs(" (imported: spread unknown)", out);
        if (noisy)
            fprintf(out, " ! noisy: SD %.1f %% of the mean", sb_entry_rsd_pct(e));
        char src[512];
        fprintf(out, " &#8212; %s: ", e->imported ? "imported" : "measured");
        sb_html_escape(out, sb_entry_source(r, e, src, sizeof src));
        fputs("</title>\n", out);

        fprintf(out, "<text class=\"label\" x=\"0\" y=\"%d\">", y + 14);
        sb_html_escape(out, e->identifier);
        if (sm.groups > 1)
            fprintf(out, " [%zu]", sm.group[j] + 1);
        fputs("</text>\n", out);
        fprintf(out, "<rect class=\"bar%s\" x=\"0\" y=\"%d\" width=\"%.3f%%\" height=\"%d\"/>",
                is_best ? " best" : "", y + BAR_Y, w, BAR_H);
        double lo = w, hi = w;
        if (sb_entry_se_known(e) && e->se > 0 && e->mean > 0) {
            lo = (e->mean - e->se) / scale * BAR_MAX;
            hi = (e->mean + e->se) / scale * BAR_MAX;
            if (lo < 0)
                lo = 0;
            int cy = y + BAR_Y + BAR_H / 2;
            fprintf(out,
                    "<g class=\"whisker\"><line x1=\"%.3f%%\" x2=\"%.3f%%\" y1=\"%d\" y2=\"%d\"/>"
                    "<line x1=\"%.3f%%\" x2=\"%.3f%%\" y1=\"%d\" y2=\"%d\"/>"
                    "<line x1=\"%.3f%%\" x2=\"%.3f%%\" y1=\"%d\" y2=\"%d\"/></g>",
                    lo, hi, cy, cy, lo, lo, cy - 5, cy + 5, hi, hi, cy - 5, cy + 5);
        }
        /* The value follows the bar (and its whisker); a long bar carries it inside instead,
         * so that it never runs off a phone's screen or into the identifier. */
        bool inside = hi > VALUE_INSIDE;
        fprintf(out, "<text class=\"value%s%s\" x=\"%.3f%%\" dx=\"%d\" y=\"%d\"%s>",
                is_best ? " best" : "", inside ? " inside" : "", inside ? lo : hi,
                inside ? -5 : 5, y + BAR_Y + BAR_H - 3, inside ? " text-anchor=\"end\"" : "");
        if (is_best)
            fputs("&#9733; best ", out);
        fputs(v, out);
        if (e->untrusted)
            fputs(" *", out);
        if (e->host_bound)
            fputs(" <tspan class=\"noisy\">" SB_HOST_BOUND_LABEL "</tspan>", out);
        if (noisy)
            fputs(" <tspan class=\"noisy\">" SB_NOISY_MARK "</tspan>", out);
        fputs("</text>\n", out);
        fputs("</g>\n", out);
    }
    not_run_rows(out, rf, r, (int)r->n_entries * ROW_H);
    fputs("</svg>\n", out);
    chart_note(out, any_se, any_unknown, any_untrusted, any_noisy, any_host);
    source_legend(out, r, &sm);
    free(sm.group);
}

/* Every figure of the result as a table: mean, spread, runs and the secondary figures that
 * are not latency percentiles (those have their chart). */
static void figures_table(FILE *out, const sb_result *r)
{
    source_marks sm;
    source_marks_init(&sm, r);
    keyset k = {0};
    const char **units = NULL;
    for (size_t j = 0; j < r->n_entries; j++)
        for (size_t m = 0; m < r->entries[j].n_secondary; m++) {
            char p[8];
            double q;
            const sb_secondary *s = &r->entries[j].secondary[m];
            if (!sb_latency_percentile(s->name, p, sizeof p, &q))
                keyset_add(&k, s->name);
        }
    units = calloc(k.n + 1, sizeof *units);
    fputs("<details><summary>All figures</summary><div class=\"scroll\"><table><thead><tr>"
          "<th scope=\"col\"></th><th scope=\"col\">",
          out);
    sb_html_escape(out, r->unit);
    fputs("</th><th scope=\"col\">SD</th><th scope=\"col\">SE</th><th scope=\"col\">Runs</th>", out);
    for (size_t i = 0; i < k.n; i++) {
        fputs("<th scope=\"col\">", out);
        sb_html_escape(out, k.keys[i]);
        for (size_t j = 0; units && j < r->n_entries && !units[i]; j++)
            for (size_t m = 0; m < r->entries[j].n_secondary; m++)
                if (!strcmp(r->entries[j].secondary[m].name, k.keys[i]))
                    units[i] = r->entries[j].secondary[m].unit;
        if (units && units[i] && *units[i]) {
            fputs(" (", out);
            sb_html_escape(out, units[i]);
            fputs(")", out);
        }
        fputs("</th>", out);
    }
    fputs("</tr></thead><tbody>\n", out);
    for (size_t j = 0; j < r->n_entries; j++) {
        const sb_entry *e = &r->entries[j];
        char v[64];
        value_text(v, sizeof v, e->mean, e->decimals);
        fputs("<tr><th scope=\"row\">", out);
        sb_html_escape(out, e->identifier);
        if (sm.groups > 1)
            fprintf(out, " [%zu]", sm.group[j] + 1);
        fprintf(out, "</th><td class=\"num\">%s</td>", v);
        if (e->n_values)
            fprintf(out, "<td class=\"num\">%.3g</td><td class=\"num\">%.3g</td>", e->sd, e->se);
        else
            fputs("<td class=\"num\">&#8212;</td><td class=\"num\">&#8212;</td>", out);
        fprintf(out, "<td class=\"num\">%zu</td>", e->n_values);
        for (size_t i = 0; i < k.n; i++) {
            const sb_secondary *s = NULL;
            for (size_t m = 0; m < e->n_secondary; m++)
                if (!strcmp(e->secondary[m].name, k.keys[i]))
                    s = &e->secondary[m];
            if (s)
                fprintf(out, "<td class=\"num\">%.6g</td>", s->value);
            else
                fputs("<td class=\"num\">&#8212;</td>", out);
        }
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table></div></details>\n", out);
    free(sm.group);
    free(units);
    free(k.keys);
}

static void result_section(FILE *out, const sb_resultfile *rf, const sb_result *r, size_t index)
{
    fprintf(out, "<section class=\"result\" id=\"result-%zu\" data-entries=\"%zu\">\n"
                 "<h2 id=\"result-%zu-title\">",
            index, r->n_entries, index);
    char line[512];
    sb_result_title_line(r, line, sizeof line);
    sb_html_escape(out, line);
    fputs("</h2>\n", out);
    if (r->description && *r->description) {
        fputs("<p class=\"options\">", out);
        sb_html_escape(out, r->description);
        fputs("</p>\n", out);
    }
    fputs("<p class=\"direction\">", out);
    sb_html_escape(out, r->unit);
    fprintf(out, " %s</p>\n",
            r->direction == SB_LOWER_IS_BETTER ? "&lt; Lower Is Better" : "&gt; Higher Is Better");
    double rsd = sb_result_worst_rsd(r);
    if (rsd > SB_NOISY_RSD)
        fprintf(out, "<p class=\"note noisy\">Too noisy to rank: a figure's relative SD is %.1f %% "
                     "(above %.0f %%).</p>\n", rsd * 100, SB_NOISY_RSD * 100);
    bar_chart(out, rf, r, index);
    sb_html_series_charts(out, r, index);
    sb_html_latency_charts(out, r, index);
    figures_table(out, r);
    fputs("</section>\n", out);
}

int sb_report_html(FILE *out, const sb_resultfile *rf)
{
    const char *title = rf->title && *rf->title ? rf->title : "storbench results";
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          /* Self-contained by construction: the browser refuses anything from outside. */
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
          "<meta name=\"generator\" content=\"storbench " STORBENCH_VERSION "\">\n<title>",
          out);
    sb_html_escape(out, title);
    fprintf(out, "</title>\n<script>%s</script>\n<style>%s</style>\n</head>\n<body>\n<header>\n<h1>",
            error_counter, style);
    sb_html_escape(out, title);
    fputs("</h1>\n", out);
    if (rf->description && *rf->description) {
        fputs("<p class=\"description\">", out);
        sb_html_escape(out, rf->description);
        fputs("</p>\n", out);
    }
    fputs("</header>\n", out);
    if (rf->n_results > 1) {
        fputs("<nav><h2>Results</h2><ol>\n", out);
        for (size_t i = 0; i < rf->n_results; i++) {
            const sb_result *r = &rf->results[i];
            fprintf(out, "<li><a href=\"#result-%zu\">", i + 1);
            char line[512];
            sb_result_title_line(r, line, sizeof line);
            sb_html_escape(out, line);
            if (r->description && *r->description) {
                fputs(" &#8212; ", out);
                sb_html_escape(out, r->description);
            }
            fputs("</a></li>\n", out);
        }
        fputs("</ol></nav>\n", out);
    }
    system_table(out, rf);
    if (rf->n_systems > 1) {
        sb_overview ov;
        char err[256];
        if (sb_overview_compute(rf, NULL, &ov, err, sizeof err) == 0) {
            sb_overview_html(out, rf, &ov);
            sb_overview_free(&ov);
        }
    }
    fputs("<main>\n", out);
    sb_html_sweep_charts(out, rf); /* a sweep's lines first: the page's answer at a glance */
    for (size_t i = 0; i < rf->n_results; i++)
        result_section(out, rf, &rf->results[i], i + 1);
    if (!rf->n_results)
        fputs("<p class=\"muted\">No results yet.</p>\n", out);
    fputs("</main>\n<footer>Generated by storbench " STORBENCH_VERSION
          ".</footer>\n</body>\n</html>\n",
          out);
    fflush(out);
    return ferror(out) ? -EIO : 0;
}
