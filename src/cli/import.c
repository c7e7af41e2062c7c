/*
 * import — `storbench import FILE --result NAME [--replace] [--title TEXT]
 * [--format auto|text|dd-wiki|pts-xml] [--strict] [--verbose]`: reads a result page in the seed
 * text format (tidy or whitespace-flattened, see docs/text-format.md), or a dd
 * wiki page (seed 004, formats/ddwiki.c; recognised by its "Direct write:" lines
 * unless --format says which), or a Phoronix Test Suite result file (composite.xml,
 * formats/pts_xml.c; recognised by its <PhoronixTestSuite> root), and adds its systems
 * and figures to the result file
 * NAME, creating it when it does not exist. An identifier NAME already has is
 * refused unless --replace. A new NAME takes the page's title and description;
 * an existing one keeps its own. --title says where the title ends, which a
 * flattened page cannot tell exactly: when the page's heading starts with
 * TEXT the rest becomes the description. The page is read and parsed first;
 * NAME is then locked, re-read, merged into and written atomically
 * (cli/save.h), so imports and runs into one NAME at once all keep their
 * systems.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/save.h"
#include "core/interrupt.h"
#include "core/fileio.h"
#include "core/log.h"
#include "formats/pts_xml.h"
#include "formats/ddwiki.h"
#include "formats/text_import.h"
#include "results/result.h"

enum { OPT_REPLACE = 0x2000, OPT_TITLE, OPT_FORMAT, OPT_STRICT };

enum page_format { FORMAT_AUTO, FORMAT_TEXT, FORMAT_DDWIKI, FORMAT_PTS };

/* A page is a few kilobytes; anything this large is not one. */
#define MAX_PAGE (64u << 20)

static void usage(FILE *out)
{
    fprintf(out,
            "usage: storbench import FILE --result NAME [--replace] [--title TEXT] [--format FMT]\n"
            "                        [--strict] [--verbose] [--results-dir DIR]\n"
            "\n"
            "Reads a result page (FILE, or - for standard input) in the seed text format, or a\n"
            "dd wiki page (seed 004: one ==== machine ==== block with the three dd lines each),\n"
            "or a Phoronix Test Suite result file (composite.xml), and adds its systems and\n"
            "figures to the result file NAME (created if missing).\n"
            "\n"
            "  -r, --result NAME     the result file to import into (name or path)\n"
            "      --replace         replace identifiers NAME already has\n"
            "      --title TEXT      the page's title (the rest of its heading is the description)\n"
            "      --format FMT      auto (default: XML with a <PhoronixTestSuite> root is a PTS\n"
            "                        result file, a page with 'Direct write:' dd lines a dd wiki\n"
            "                        page), text (the seed text format), dd-wiki or pts-xml\n"
            "      --strict          pts-xml, text: refuse the file when a result cannot be\n"
            "                        read (default: skip it with a warning naming its line)\n"
            "  -v, --verbose         say what was read from the page and what was skipped\n"
            "      --results-dir DIR where named result files live\n"
            "  -h, --help            this help\n");
}

/* The whole file (or stdin for "-"), NUL-terminated. */
static int read_all(const char *name, char **out, size_t *len)
{
    if (strcmp(name, "-"))
        return sb_read_file(name, MAX_PAGE, 0, out, len);
    return sb_read_stream(stdin, MAX_PAGE, 0, out, len);
}

/* --title: the imported heading is "title description"; when it starts with TEXT, TEXT is
 * the title and the rest the description. Otherwise TEXT only replaces the title. */
static int parse_format(const char *s, enum page_format *out)
{
    static const char *const names[] = {"auto", "text", "dd-wiki", "pts-xml"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(s, names[i])) {
            *out = (enum page_format)i;
            return 0;
        }
    return sb_usage_error("import", "--format must be auto, text, dd-wiki or pts-xml, not '%s'", s);
}

/* The page into rf, in the format asked for or recognised. --verbose: the dd wiki reader
 * says what it read and skipped, by line; for a text page, each system's figure count. */
static int read_page(const char *text, size_t len, enum page_format format, bool verbose,
                     bool strict, const char *file, sb_resultfile *rf, char *err, size_t errlen)
{
    if (format == FORMAT_PTS || (format == FORMAT_AUTO && sb_pts_xml_detect(text, len)))
        return sb_pts_xml_read(text, len, file, strict, rf, NULL, err, errlen);
    if (format == FORMAT_DDWIKI || (format == FORMAT_AUTO && sb_ddwiki_detect(text, len)))
        return sb_import_ddwiki(text, len, rf, verbose ? stdout : NULL, err, errlen);
    sb_text_import_opts o = {.strict = strict, .warn = true, .name = file};
    int rc = sb_text_import_ex(text, len, rf, &o, err, errlen);
    for (size_t i = 0; rc == 0 && verbose && i < rf->n_systems; i++) {
        size_t n = 0;
        for (size_t k = 0; k < rf->n_results; k++)
            n += sb_result_find_entry(&rf->results[k], rf->systems[i].identifier) != NULL;
        printf("'%s': %zu figure%s\n", rf->systems[i].identifier, n, n == 1 ? "" : "s");
    }
    return rc;
}

static void apply_title(sb_resultfile *rf, const char *text)
{
    size_t tl = strlen(rf->title), dl = strlen(rf->description), n = strlen(text);
    char *heading = malloc(tl + dl + 2);
    if (!heading)
        return;
    snprintf(heading, tl + dl + 2, "%s%s%s", rf->title, dl ? " " : "", rf->description);
    if (!strncmp(heading, text, n) && (heading[n] == ' ' || heading[n] == '\0')) {
        const char *rest = heading + n;
        while (*rest == ' ')
            rest++;
        sb_resultfile_set_title(rf, text, rest);
    } else {
        sb_resultfile_set_title(rf, text, NULL);
    }
    free(heading);
}

struct into {
    const char *path;
    const sb_resultfile *page;
    bool replace, title;
};

/* Under the result file's lock, with dst the file as it is now. */
static int merge_page(sb_resultfile *dst, void *arg, char *err, size_t errlen)
{
    struct into *in = arg;
    char why[768];
    int rc = sb_resultfile_merge(dst, in->page, in->replace, why, sizeof why);
    if (rc < 0)
        snprintf(err, errlen, "%s: %s", in->path, why);
    if (rc == 0 && in->title)
        sb_resultfile_set_title(dst, in->page->title, in->page->description);
    return rc;
}

int sb_cmd_import(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"result", required_argument, NULL, 'r'},
        {"replace", no_argument, NULL, OPT_REPLACE},
        {"title", required_argument, NULL, OPT_TITLE},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"strict", no_argument, NULL, OPT_STRICT},
        {"verbose", no_argument, NULL, 'v'},
        {"results-dir", required_argument, NULL, SB_OPT_RESULTS_DIR},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool replace = false, verbose = false, strict = false;
    enum page_format format = FORMAT_AUTO;
    const char *result = NULL, *title = NULL, *results_dir = NULL;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":r:vh", longopts, NULL)) != -1) {
        switch (c) {
        case 'r': result = optarg; break;
        case OPT_REPLACE: replace = true; break;
        case OPT_TITLE: title = optarg; break;
        case OPT_FORMAT:
            if (parse_format(optarg, &format))
                return SB_EXIT_USAGE;
            break;
        case OPT_STRICT: strict = true; break;
        case 'v': verbose = true; break;
        case SB_OPT_RESULTS_DIR: results_dir = optarg; break;
        case 'h': usage(stdout); return SB_EXIT_OK;
        default: return sb_bad_option("import", argv, c);
        }
    }
    if (optind >= argc)
        return sb_usage_error("import", "name the page to import (storbench import FILE --result NAME)");
    if (argc - optind > 1)
        return sb_usage_error("import", "one page at a time ('%s' is extra)", argv[optind + 1]);
    if (!result || !*result)
        return sb_usage_error("import", "--result NAME is required");
    if (title && !*title)
        return sb_usage_error("import", "--title must not be empty");
    if (sb_check_utf8_arg("import", "--title", title))
        return SB_EXIT_USAGE;
    const char *file = argv[optind];

    char path[PATH_MAX], err[1024];
    int rc = sb_cli_result_path("import", result, results_dir, path, sizeof path);
    if (rc)
        return rc;
    char *text = NULL;
    size_t len = 0;
    if ((rc = read_all(file, &text, &len)) < 0) {
        if (sb_interrupted()) /* a read cut short by a signal */
            return sb_cli_interrupted_before_save("import", NULL);
        sb_error("import: %s: %s", file, rc == -EFBIG ? "too large for a result page" : strerror(-rc));
        return SB_EXIT_RUNTIME;
    }
    sb_resultfile page;
    sb_resultfile_init(&page);
    rc = read_page(text, len, format, verbose, strict, file, &page, err, sizeof err);
    free(text);
    if (rc < 0) {
        sb_error("import: %s: %s", file, err);
        sb_resultfile_free(&page);
        return rc == -EBADMSG ? SB_EXIT_USAGE : SB_EXIT_RUNTIME; /* malformed XML */
    }
    if (title)
        apply_title(&page, title);

    if ((rc = sb_cli_interrupted_before_save("import", NULL))) {
        sb_resultfile_free(&page);
        return rc;
    }
    struct into in = {.path = path, .page = &page, .replace = replace, .title = title != NULL};
    if ((rc = sb_cli_update_result("import", path, merge_page, &in, err, sizeof err)) < 0) {
        sb_error("import: %s", err);
        sb_resultfile_free(&page);
        return sb_cli_after_save("import", SB_EXIT_RUNTIME, path);
    }
    printf("imported %zu systems and %zu results from %s into %s\n", page.n_systems,
           page.n_results, file, path);
    sb_resultfile_free(&page);
    return sb_cli_after_save("import", SB_EXIT_OK, path);
}
