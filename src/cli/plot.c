/*
 * plot — `storbench plot NAME|FILE... -o FILE.svg|FILE.png [--chart KIND] [--x OPTION]
 * [--y METRIC] [--series OPTION]`: a chart of one or several result files (joined as
 * compare joins them, cli/inputs.h) as a picture for a report or a ticket. The SVG is
 * storbench's own (report/svg_chart.h); a PNG is that SVG rendered by librsvg
 * (report/svg_png.h). Everything that can be refused is refused before a byte is
 * written: the output's extension, the chart, a metric or option the result lacks
 * (exit 2). The file is replaced only once complete (core/atomicfile), as show -o.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/inputs.h"
#include "core/atomicfile.h"
#include "core/log.h"
#include "core/units.h"
#include "report/svg_axis.h"
#include "report/svg_chart.h"
#include "report/svg_png.h"
#include "results/result.h"

enum { OPT_X = 0x2000, OPT_Y, OPT_SERIES, OPT_WIDTH };

typedef struct plot_job {
    const char *svg;
    size_t len;
    bool png;
    char err[512];
} plot_job;

static int write_picture(FILE *out, void *ctx)
{
    plot_job *j = ctx;
    if (j->png)
        return sb_svg_to_png(out, j->svg, j->len, j->err, sizeof j->err);
    return fwrite(j->svg, 1, j->len, out) == j->len ? 0 : -EIO;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: storbench plot NAME|FILE... -o FILE.svg|FILE.png [--chart KIND] [--x OPTION]\n"
            "                      [--y METRIC] [--series OPTION] [--width N] [--results-dir DIR]\n"
            "\n"
            "Draws result files (saved names or files; several are joined as compare joins them,\n"
            "a configuration without a figure shown 'not run') as an SVG picture, or a PNG\n"
            "rendered from it. Axes carry their units, a value axis turns logarithmic when the\n"
            "values span two decades; a legend, a title and a caption naming each machine,\n"
            "target and storbench version.\n"
            "\n"
            "  -o, --output FILE     the picture: FILE.svg or FILE.png (replaced only once complete)\n"
            "  -c, --chart KIND      bars: a panel per result, a bar per identifier (the default\n"
            "                        for a page); lines: METRIC against the option --x, a line per\n"
            "                        value of --series (default: per identifier; for a sweep, the\n"
            "                        default chart: x and lines the options it varies, IOPS);\n"
            "                        heatmap: METRIC over --x across and --series down, a panel per\n"
            "                        identifier; percentiles: a row per configuration, a bar per\n"
            "                        latency percentile; series: a run's per-interval --y (iops,\n"
            "                        bw, lat_mean, lat_p99) against time, a line per configuration\n"
            "      --x OPTION        the option on the x axis (iodepth, numjobs, bs ...: the\n"
            "                        options the result recorded); implies --chart lines\n"
            "      --y METRIC        value (the figure, default) or a secondary figure (iops,\n"
            "                        lat_p99 ...)\n"
            "      --series OPTION   lines: a line per value of OPTION; heatmap: its rows\n"
            "      --width N         picture width in pixels, 400 to 4000 (default 900)\n"
            "      --results-dir DIR where named result files live\n"
            "  -h, --help            this help\n"
            "\n"
            "Exit status: 0 written, 1 a file cannot be read or written, 2 bad usage (an unknown\n"
            "chart or extension, a metric or option the result lacks): nothing is written.\n");
}

/* "svg" or "png" from FILE's extension (any case); NULL for another. */
static const char *picture_type(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/'))
        return NULL;
    return !strcasecmp(dot, ".svg") ? "svg" : !strcasecmp(dot, ".png") ? "png" : NULL;
}

typedef struct plot_args {
    sb_chart_spec spec;
    const char *chart, *output, *results_dir;
    bool y_given;
} plot_args;

static int parse(int argc, char **argv, plot_args *a)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"chart", required_argument, NULL, 'c'},
        {"x", required_argument, NULL, OPT_X},
        {"y", required_argument, NULL, OPT_Y},
        {"series", required_argument, NULL, OPT_SERIES},
        {"width", required_argument, NULL, OPT_WIDTH},
        {"results-dir", required_argument, NULL, SB_OPT_RESULTS_DIR},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    optind = 1;
    opterr = 0;
    int c;
    uint64_t v;
    while ((c = getopt_long(argc, argv, ":o:c:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': a->output = optarg; break;
        case 'c': a->chart = optarg; break;
        case OPT_X: a->spec.x = optarg; break;
        case OPT_Y: a->spec.y = optarg; a->y_given = true; break;
        case OPT_SERIES: a->spec.series = optarg; break;
        case OPT_WIDTH:
            if (sb_parse_uint(optarg, 400, 4000, &v) < 0)
                return sb_usage_error("plot", "--width must be a whole number of pixels from 400 to 4000");
            a->spec.width = (int)v;
            break;
        case SB_OPT_RESULTS_DIR: a->results_dir = optarg; break;
        case 'h': usage(stdout); return -1;
        default: return sb_bad_option("plot", argv, c);
        }
    }
    if (a->chart && sb_chart_kind_parse(a->chart, &a->spec.kind) < 0)
        return sb_usage_error("plot", "unknown chart '%s' (%s)", a->chart, sb_chart_kind_names());
    if (!a->chart) /* without --x: decided by the page (default_chart) */
        a->spec.kind = a->spec.x ? SB_CHART_LINES : SB_CHART_BARS;
    if (!a->output || !*a->output)
        return sb_usage_error("plot", "name the picture: -o FILE.svg or -o FILE.png");
    if (!picture_type(a->output))
        return sb_usage_error("plot", "unknown output extension in '%s' (.svg or .png)", a->output);
    if (optind >= argc)
        return sb_usage_error("plot", "name a result file (storbench plot NAME|FILE... -o FILE.svg)");
    return 0;
}

/* Without --chart and --x: a sweep's lines (x the first option its results vary, a line per
 * value of the second, IOPS when its figures have them), else the page's bars. The option
 * names point into rf. */
static void default_chart(plot_args *a, const sb_resultfile *rf)
{
    const char *x, *series;
    if (a->chart || a->spec.x || !sb_svg_sweep_axes(rf, &x, &series))
        return;
    if (a->spec.series && !strcmp(a->spec.series, x)) /* --series took the first: x is the next */
        x = series;
    if (!x)
        return;
    a->spec.kind = SB_CHART_LINES;
    a->spec.x = x;
    if (!a->spec.series)
        a->spec.series = series;
    for (size_t i = 0; !a->y_given && i < rf->n_results; i++)
        if (sb_svg_result_has_metric(&rf->results[i], "iops"))
            a->spec.y = "iops";
}

int sb_cmd_plot(int argc, char **argv)
{
    plot_args a = {.spec = {.y = SB_SVG_METRIC_VALUE, .width = 900}};
    int rc = parse(argc, argv, &a);
    if (rc)
        return rc < 0 ? SB_EXIT_OK : rc;
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    if ((rc = sb_cli_load_inputs("plot", argv + optind, argc - optind, a.results_dir, &rf))) {
        sb_resultfile_free(&rf);
        return rc;
    }
    default_chart(&a, &rf);
    plot_job job = {.png = !strcmp(picture_type(a.output), "png")};
    if (sb_svg_chart_check(&rf, &a.spec, job.err, sizeof job.err) < 0) {
        sb_resultfile_free(&rf);
        return sb_usage_error("plot", "%s", job.err);
    }
    char *svg = NULL;
    FILE *mem = open_memstream(&svg, &job.len);
    rc = mem ? sb_svg_chart_write(mem, &rf, &a.spec) : -ENOMEM;
    if (mem && fclose(mem) != 0 && rc == 0)
        rc = -ENOMEM;
    sb_resultfile_free(&rf);
    if (rc < 0) {
        free(svg);
        sb_error("plot: cannot draw the chart: %s", strerror(-rc));
        return SB_EXIT_RUNTIME;
    }
    job.svg = svg;
    char err[1024];
    rc = sb_atomic_write(a.output, 0666, 0, write_picture, &job, err, sizeof err);
    free(svg);
    if (rc < 0) {
        sb_error("plot: %s%s%s", err, job.err[0] ? ": " : "", job.err);
        return SB_EXIT_RUNTIME;
    }
    return SB_EXIT_OK;
}
