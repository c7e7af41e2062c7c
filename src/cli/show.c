/*
 * show — `storbench show NAME|FILE [--width N] [--format FORMAT] [-o FILE]`:
 * renders a result file as text, json, html (report/html.c), csv
 * (report/csv.c) or pts-xml (formats/pts_xml_write.c), on standard output or into a file (core/atomicfile: replaced
 * only once complete, symlinks followed, devices and FIFOs written in place). The formats
 * are a table of renderers: adding one is one row and one function. Text is
 * the seed page format at the width of the terminal (or --width, or 80); json
 * is the file's own JSON.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/atomicfile.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/units.h"
#include "formats/pts_xml.h"
#include "report/cdm_table.h"
#include "report/csv.h"
#include "formats/ddwiki.h"
#include "report/html.h"
#include "report/overview.h"
#include "report/text.h"
#include "formats/text_import.h"
#include "results/result.h"

typedef struct show_opts {
    int width; /* text width in columns */
    bool sparklines; /* text: each result's time series as a row per identifier */
    bool overview;   /* text, csv: the overview alone */
} show_opts;

typedef int (*show_fn)(FILE *out, const sb_resultfile *rf, const show_opts *o);

/* --overview: the overview alone, as text or CSV. */
static int show_overview(FILE *out, const sb_resultfile *rf, bool csv)
{
    sb_overview ov;
    char err[256];
    int rc = sb_overview_compute(rf, NULL, &ov, err, sizeof err);
    if (rc < 0)
        return rc;
    if (csv)
        sb_overview_csv(out, rf, &ov);
    else
        sb_overview_text(out, rf, &ov);
    sb_overview_free(&ov);
    return fflush(out) == 0 && !ferror(out) ? 0 : -EIO;
}

static int show_text(FILE *out, const sb_resultfile *rf, const show_opts *o)
{
    if (o->overview)
        return show_overview(out, rf, false);
    int rc = sb_report_text_ex(out, rf, o->width, o->sparklines);
    /* cdm figures: also the 4x2 table, identifiers side by side (report/cdm_table.h) */
    if (rc == 0 && sb_report_cdm_all(out, rf) != 0)
        rc = fflush(out) == 0 && !ferror(out) ? 0 : -EIO;
    return rc;
}

static int show_json(FILE *out, const sb_resultfile *rf, const show_opts *o)
{
    char *s = sb_resultfile_to_json(rf);
    if (!s)
        return -ENOMEM;
    fprintf(out, "%s\n", s);
    free(s);
    return fflush(out) == 0 && !ferror(out) ? 0 : -EIO;
}

static int show_html(FILE *out, const sb_resultfile *rf, const show_opts *o)
{
    return sb_report_html(out, rf);
}

static int show_pts_xml(FILE *out, const sb_resultfile *rf, const show_opts *o)
{
    return sb_pts_xml_write(out, rf);
}

static int show_csv(FILE *out, const sb_resultfile *rf, const show_opts *o)
{
    if (o->overview)
        return show_overview(out, rf, true);
    return sb_report_csv(out, rf);
}

typedef struct show_job {
    show_fn fn;
    const sb_resultfile *rf;
    const show_opts *o;
} show_job;

static int run_job(FILE *out, void *ctx)
{
    show_job *j = ctx;
    return j->fn(out, j->rf, j->o);
}

static const struct {
    const char *name;
    show_fn fn;
} formats[] = {
    {"text", show_text},
    {"json", show_json},
    {"html", show_html},
    {"csv", show_csv},
    {"pts-xml", show_pts_xml},
};
#define N_FORMATS (sizeof formats / sizeof formats[0])

/* Is the file at path a text result page (something `import` reads)? For a better hint
 * when someone shows a page instead of a result file. */
static bool is_text_page(const char *path)
{
    char *buf = NULL;
    size_t n = 0;
    bool page = false;
    if (sb_read_file(path, 4u << 20, 0, &buf, &n) == 0) {
        sb_resultfile rf;
        sb_resultfile_init(&rf);
        char err[256];
        sb_text_import_opts o = {.strict = false}; /* a probe: what import would read, silently */
        page = sb_ddwiki_detect(buf, n) || sb_text_import_ex(buf, n, &rf, &o, err, sizeof err) == 0;
        sb_resultfile_free(&rf);
    }
    free(buf);
    return page;
}

/* Options that would be silently ignored together are refused: --sparklines draws text
 * rows (the html page charts the series itself; csv and json have no place for them), and
 * --overview is the text or csv overview alone (html always starts with it). */
static int check_combination(show_fn fn, const show_opts *o, const char *output)
{
    if (o->sparklines && fn != show_text)
        return sb_usage_error("show", "--sparklines is for --format text (html charts the time "
                              "series itself; csv and json carry no sparklines)");
    if (o->sparklines && o->overview)
        return sb_usage_error("show", "--sparklines and --overview conflict (the overview has "
                              "no time series)");
    if (o->overview && fn != show_text && fn != show_csv)
        return sb_usage_error("show", "--overview is for --format text or csv (the html page "
                              "always starts with it)");
    if (output && !output[0])
        return sb_usage_error("show", "-o needs a file name ('-' is standard output)");
    return 0;
}

/* -o naming the input itself (the same device and inode, through any link or name) would
 * replace the result file with its own report: refused as a usage error. */
static int check_not_input(const char *output, const char *input)
{
    struct stat so, si;
    if (!output || !strcmp(output, "-") || stat(output, &so) < 0 || stat(input, &si) < 0)
        return 0;
    if (so.st_dev == si.st_dev && so.st_ino == si.st_ino)
        return sb_usage_error("show", "the output %s is the input %s (the same file): -o must "
                              "name another file", output, input);
    return 0;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: storbench show NAME|FILE [--width N] [--format FORMAT] [--sparklines] [-o FILE] [--results-dir DIR]\n"
            "\n"
            "Renders a result file: FILE is a path (anything with a '/', or a file of that\n"
            "name in the current directory), NAME a result in the results directory. When\n"
            "both a file here and a saved result answer to the name, the file is read (and\n"
            "a line on stderr says so).\n"
            "\n"
            "  -w, --width N         line width of the text bars (default: the terminal's, else 80)\n"
            "  -f, --format FORMAT   text (the seed page format, default), json, html (one\n"
            "                        self-contained page with charts), csv or pts-xml (a\n"
            "                        Phoronix Test Suite result file, composite.xml)\n"
            "  -s, --sparklines      text: after each result, its time series (IOPS or MB/s\n"
            "                        per interval, p99 range) as a row per identifier; the\n"
            "                        page is then no longer the seed format import reads\n"
            "  -O, --overview        text or csv: only the overview (per identifier the geometric\n"
            "                        mean over all results relative to the first, wins, results\n"
            "                        lacking; the results too noisy to rank); html always has it\n"
            "  -o, --output FILE     write to FILE (replaced only once complete) instead of\n"
            "                        standard output\n"
            "      --results-dir DIR where named result files live\n"
            "  -h, --help            this help\n");
}

int sb_cmd_show(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"width", required_argument, NULL, 'w'},
        {"format", required_argument, NULL, 'f'},
        {"sparklines", no_argument, NULL, 's'},
        {"overview", no_argument, NULL, 'O'},
        {"output", required_argument, NULL, 'o'},
        {"results-dir", required_argument, NULL, SB_OPT_RESULTS_DIR},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    show_opts o = {.width = 0};
    const char *format = "text", *results_dir = NULL, *output = NULL;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":w:f:sOo:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'w': {
            uint64_t v;
            if (sb_parse_uint(optarg, 20, 10000, &v) < 0)
                return sb_usage_error("show", "--width must be a whole number from 20 to 10000");
            o.width = (int)v;
            break;
        }
        case 'f': format = optarg; break;
        case 's': o.sparklines = true; break;
        case 'O': o.overview = true; break;
        case 'o': output = optarg; break;
        case SB_OPT_RESULTS_DIR: results_dir = optarg; break;
        case 'h': usage(stdout); return SB_EXIT_OK;
        default: return sb_bad_option("show", argv, c);
        }
    }
    show_fn fn = NULL;
    int rc;
    for (size_t i = 0; i < N_FORMATS; i++)
        if (!strcmp(format, formats[i].name))
            fn = formats[i].fn;
    if (!fn)
        return sb_usage_error("show", "unknown format '%s' (text, json, html, csv or pts-xml)", format);
    if ((rc = check_combination(fn, &o, output)))
        return rc;
    if (optind >= argc)
        return sb_usage_error("show", "name a result file (storbench show NAME|FILE)");
    if (argc - optind > 1)
        return sb_usage_error("show", "one result file at a time ('%s' is extra)", argv[optind + 1]);
    if (!o.width)
        o.width = sb_terminal_width();

    char path[PATH_MAX], err[PATH_MAX + 512];
    if ((rc = sb_cli_input_path("show", argv[optind], results_dir, path, sizeof path)) ||
        (rc = check_not_input(output, path)))
        return rc;
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    rc = sb_resultfile_load(path, &rf, err, sizeof err);
    if (rc < 0) {
        if (rc == -ENOENT && !strchr(argv[optind], '/'))
            sb_error("show: no result named '%s' (%s does not exist)", argv[optind], path);
        else if (rc == -EINVAL && is_text_page(path))
            sb_error("show: %s; it is a text page: 'storbench import %s --result NAME' reads it",
                     err, path);
        else
            sb_error("show: %s", err);
        sb_resultfile_free(&rf);
        return SB_EXIT_RUNTIME;
    }
    /* Text is for a terminal: no ESC or BEL from an identifier (json, html and csv
     * escape or carry them as data). Only this copy changes, not the file. */
    if (fn == show_text)
        sb_resultfile_make_printable(&rf);
    if (output && strcmp(output, "-")) {
        /* Replaced only once complete; a device or FIFO is written in place, a symlink
         * followed (core/atomicfile.h). */
        show_job job = {fn, &rf, &o};
        rc = sb_atomic_write(output, 0666, 0, run_job, &job, err, sizeof err);
        sb_resultfile_free(&rf);
        if (rc < 0) {
            sb_error("show: %s", err);
            return SB_EXIT_RUNTIME;
        }
        return SB_EXIT_OK;
    }
    errno = 0;
    rc = fn(stdout, &rf, &o);
    sb_resultfile_free(&rf);
    if (rc == 0 && fflush(stdout) != 0)
        rc = -(errno ? errno : EIO);
    if (rc == -EIO && errno && errno != EIO)
        rc = -errno; /* the renderers say EIO for any stdio error; errno says which */
    if (rc < 0) {
        sb_error("show: cannot write the report: %s", strerror(-rc));
        return SB_EXIT_RUNTIME;
    }
    return SB_EXIT_OK;
}
