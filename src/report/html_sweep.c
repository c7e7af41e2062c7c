/*
 * html_sweep — the HTML page's charts of a sweep (html_sweep.h): the same SVG `storbench
 * plot` draws without --chart (lines over the options the results vary) and its latency
 * percentiles, inline, so the page needs nothing from outside. An inline <style> is the
 * whole document's, so each chart's own style is moved out of it and every selector is
 * put under the chart's box (".sweep-chart text"): the page's own bars keep their look.
 */
#include "report/html_sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/svg_axis.h"
#include "report/svg_chart.h"

/* The SVG's <style> rules with each selector under .sweep-chart, as one <style>. */
static void scoped_style(FILE *out, const char *css, size_t len)
{
    fputs("<style>", out);
    const char *p = css, *end = css + len;
    while (p < end) {
        const char *open = memchr(p, '{', (size_t)(end - p));
        const char *close = open ? memchr(open, '}', (size_t)(end - open)) : NULL;
        if (!close)
            break;
        for (const char *s = p; s < open;) { /* selectors, comma separated */
            const char *comma = memchr(s, ',', (size_t)(open - s));
            const char *stop = comma ? comma : open;
            fprintf(out, "%s.sweep-chart %.*s", s == p ? "" : ",", (int)(stop - s), s);
            s = comma ? comma + 1 : open;
        }
        fwrite(open, 1, (size_t)(close - open + 1), out);
        p = close + 1;
    }
    fputs("</style>\n", out);
}

/* The chart of spec as a <figure>: the SVG without its XML declaration and with its style
 * scoped. Nothing when rf cannot be drawn so. */
static void chart(FILE *out, const sb_resultfile *rf, const sb_chart_spec *spec, const char *caption)
{
    char err[512];
    if (sb_svg_chart_check(rf, spec, err, sizeof err) < 0)
        return;
    char *svg = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&svg, &len);
    if (!mem)
        return;
    int rc = sb_svg_chart_write(mem, rf, spec);
    if (fclose(mem) != 0 || rc < 0 || !svg) {
        free(svg);
        return;
    }
    const char *start = strstr(svg, "<svg "), *st = strstr(svg, "<style>"), *st_end = strstr(svg, "</style>");
    if (!start) {
        free(svg);
        return;
    }
    fprintf(out, "<figure class=\"sweep-chart\" data-chart=\"%s\">\n", spec->kind == SB_CHART_LINES ? "lines" : "percentiles");
    if (st && st_end && st > start) {
        scoped_style(out, st + 7, (size_t)(st_end - st - 7));
        fwrite(start, 1, (size_t)(st - start), out);
        fputs(st_end + 8, out);
    } else {
        fputs(start, out);
    }
    fprintf(out, "<figcaption>%s</figcaption>\n</figure>\n", caption);
    free(svg);
}

void sb_html_sweep_charts(FILE *out, const sb_resultfile *rf)
{
    const char *x, *series;
    if (!sb_svg_sweep_axes(rf, &x, &series))
        return;
    sb_chart_spec spec = {.kind = SB_CHART_LINES, .x = x, .series = series, .y = SB_SVG_METRIC_VALUE,
                          .width = 900};
    for (size_t i = 0; i < rf->n_results; i++)
        if (sb_svg_result_has_metric(&rf->results[i], "iops"))
            spec.y = "iops";
    fputs("<section class=\"sweep\" id=\"sweep\">\n<h2>Sweep</h2>\n", out);
    chart(out, rf, &spec, "The figure against the options the results vary (storbench plot draws the same).");
    sb_chart_spec pct = {.kind = SB_CHART_PERCENTILES, .y = SB_SVG_METRIC_VALUE, .width = 900};
    chart(out, rf, &pct, "Completion latency percentiles of each configuration.");
    fputs("</section>\n", out);
}
