/*
 * options_doc — what the option tables (options.h) say, printed: a command's
 * usage text, fio's --cmdhelp, the man page's option list (roff) and
 * docs/io.md's table (Markdown). The documents carry the generated text
 * between markers and tests/cli/test_io_options.sh fails when they differ
 * from these printers' output (scripts/gen-io-options rewrites them), so no
 * option is described by hand in more than one place.
 */
#include "io/options/options.h"

#include <errno.h>
#include <string.h>

static const char *const category_titles[SB_OPTC_N] = {
    [SB_OPTC_JOB] = "Job and files",
    [SB_OPTC_ENGINE] = "Engine and queue",
    [SB_OPTC_TIMING] = "Timing",
    [SB_OPTC_SYNC] = "Syncs and page cache",
    [SB_OPTC_OFFSETS] = "Offsets",
    [SB_OPTC_CPU] = "CPU placement",
    [SB_OPTC_VERIFY] = "Verified I/O",
    [SB_OPTC_SERIES] = "Time series and steady state",
    [SB_OPTC_OUTPUT] = "Output",
    [SB_OPTC_MPI] = "Under mpirun (storbench-mpi, docs/mpi.md)",
};

const char *sb_opt_category_title(sb_opt_category c)
{
    return (unsigned)c < SB_OPTC_N ? category_titles[c] : "Other";
}

const char *sb_opt_type_name(sb_opt_type t)
{
    switch (t) {
    case SB_OPT_STR: return "string";
    case SB_OPT_INT: return "integer";
    case SB_OPT_BOOL: return "bool";
    case SB_OPT_SIZE: return "size";
    case SB_OPT_DURATION: return "duration";
    case SB_OPT_CHOICE: return "choice";
    case SB_OPT_FUNC: return "text";
    case SB_OPT_RANGE: return "size range";
    case SB_OPT_SPLIT: return "size split";
    case SB_OPT_PCT: return "percentage";
    case SB_OPT_LIST: return "list";
    }
    return "?";
}

/* Calls fn for every entry of every table, grouped by category, in table order. */
#define FOR_EACH_ENTRY(o, tables, ns, ntables)                                              \
    for (int cat_ = 0; cat_ < SB_OPTC_N; cat_++)                                            \
        for (size_t t_ = 0; t_ < (ntables); t_++)                                           \
            for (const sb_opt *o = (tables)[t_]; o < (tables)[t_] + (ns)[t_]; o++)          \
                if ((int)o->category == cat_)

/* "(default X; alias --y)" or "" */
static void suffix(const sb_opt *o, const char *dash, char *buf, size_t len)
{
    int n = 0;
    buf[0] = '\0';
    if (o->def)
        n += snprintf(buf + n, len - (size_t)n, "default %s", o->def);
    for (const char *const *a = o->aliases; a && *a && (size_t)n < len; a++)
        n += snprintf(buf + n, len - (size_t)n, "%s%s%s%s", n ? (a == o->aliases ? "; " : ", ") : "",
                      a == o->aliases ? (o->aliases[1] ? "aliases " : "alias ") : "", dash, *a);
}

/* ------------------------------------------------------------ usage */

static void print_wrapped(FILE *out, const char *text, unsigned col, unsigned indent, unsigned width)
{
    bool first = true; /* the first word of a line follows what is already there */
    for (const char *p = text; *p;) {
        while (*p == ' ')
            p++;
        size_t w = strcspn(p, " ");
        if (!w)
            break;
        if (!first && col + 1 + w > width) {
            fprintf(out, "\n%*s", (int)indent, "");
            col = indent;
            first = true;
        }
        if (!first) {
            fputc(' ', out);
            col++;
        }
        fprintf(out, "%.*s", (int)w, p);
        col += (unsigned)w;
        p += w;
        first = false;
    }
    fputc('\n', out);
}

static void usage_name(const sb_opt *o, const char *name, char *buf, size_t len)
{
    if (o->flags & SB_OPTF_NOARG)
        snprintf(buf, len, "--%s", name);
    else if (o->type == SB_OPT_BOOL && (o->flags & SB_OPTF_SWITCH))
        snprintf(buf, len, "--%s[=0|1]", name);
    else if (o->flags & SB_OPTF_SWITCH)
        snprintf(buf, len, "--%s[=%s]", name, o->arg ? o->arg : "VALUE");
    else
        snprintf(buf, len, "--%s %s", name, o->arg ? o->arg : "VALUE");
}

void sb_opt_print_usage(FILE *out, const sb_opt *const *tables, const size_t *ns, size_t ntables,
                        unsigned width)
{
    enum { COL = 32 };
    int last = -1;
    FOR_EACH_ENTRY(o, tables, ns, ntables) {
        if ((int)o->category != last) {
            fprintf(out, "%s%s:\n", last < 0 ? "" : "\n", sb_opt_category_title(o->category));
            last = (int)o->category;
        }
        char left[128], suf[256], text[1024];
        usage_name(o, o->name, left, sizeof left);
        suffix(o, "--", suf, sizeof suf);
        snprintf(text, sizeof text, "%s%s%s%s", o->help, suf[0] ? " (" : "", suf, suf[0] ? ")" : "");
        int n = fprintf(out, "  %s", left);
        if (n < COL - 1)
            n += fprintf(out, "%*s", COL - n, "");
        else
            n += fprintf(out, " ");
        print_wrapped(out, text, (unsigned)n, COL, width);
    }
}

/* ------------------------------------------------------------ --cmdhelp */

static void print_one(FILE *out, const sb_opt *o)
{
    fprintf(out, "%-28s: %s\n", o->name, o->help);
    for (const char *const *a = o->aliases; a && *a; a++)
        fprintf(out, "%-28s  alias: %s\n", "", *a);
    fprintf(out, "%-28s  type: %s%s\n", "", sb_opt_type_name(o->type),
            o->flags & SB_OPTF_NOARG ? ", no value" : o->flags & SB_OPTF_SWITCH ? ", value optional" : "");
    if (o->type == SB_OPT_CHOICE) {
        fprintf(out, "%-28s  values:", "");
        for (const sb_opt_choice *c = o->choices; c && c->name; c++)
            fprintf(out, " %s", c->name);
        fputc('\n', out);
    }
    if (o->min != 0 || o->max != 0) {
        const char *unit = o->type == SB_OPT_DURATION ? " s" : o->type == SB_OPT_SIZE ? " bytes" : "";
        if (o->max != 0)
            fprintf(out, "%-28s  range: %.15g%s .. %.15g%s\n", "", o->min, unit, o->max, unit);
        else
            fprintf(out, "%-28s  minimum: %.15g%s\n", "", o->min, unit);
    }
    if (o->def)
        fprintf(out, "%-28s  default: %s\n", "", o->def);
}

int sb_opt_print_cmdhelp(FILE *out, const sb_opt *const *tables, const size_t *ns, size_t ntables,
                         const char *name)
{
    if (name && strcmp(name, "all")) {
        for (size_t t = 0; t < ntables; t++) {
            const sb_opt *o = sb_opt_find(tables[t], ns[t], name);
            if (o) {
                print_one(out, o);
                return 0;
            }
        }
        return -ENOENT;
    }
    int last = -1;
    FOR_EACH_ENTRY(o, tables, ns, ntables) {
        if ((int)o->category != last) {
            fprintf(out, "%s%s:\n", last < 0 ? "" : "\n", sb_opt_category_title(o->category));
            last = (int)o->category;
        }
        fprintf(out, "%-28s: %s\n", o->name, o->help);
    }
    return 0;
}

/* ------------------------------------------------------------ roff and Markdown */

/* Text for a roff line: "--" as \-\-, backslashes as \e, a leading dot made inert. */
static void roff_text(FILE *out, const char *s)
{
    if (*s == '.' || *s == '\'')
        fputs("\\&", out);
    for (const char *p = s; *p; p++) {
        if (*p == '\\')
            fputs("\\e", out);
        else if (*p == '-' && (p[1] == '-' || (p > s && p[-1] == '-')))
            fputs("\\-", out);
        else
            fputc(*p, out);
    }
}

static void roff_tag(FILE *out, const sb_opt *o, const char *name)
{
    fputs("\\fB", out);
    roff_text(out, "--");
    roff_text(out, name);
    fputs("\\fR", out);
    if (o->flags & SB_OPTF_NOARG)
        return;
    if (o->type == SB_OPT_BOOL && (o->flags & SB_OPTF_SWITCH))
        fputs("[\\fB=0\\fR|\\fB1\\fR]", out);
    else if (o->flags & SB_OPTF_SWITCH)
        fprintf(out, "[=\\fI%s\\fR]", o->arg ? o->arg : "VALUE");
    else
        fprintf(out, " \\fI%s\\fR", o->arg ? o->arg : "VALUE");
}

void sb_opt_print_roff(FILE *out, const sb_opt *const *tables, const size_t *ns, size_t ntables)
{
    FOR_EACH_ENTRY(o, tables, ns, ntables) {
        fputs(".TP\n", out);
        roff_tag(out, o, o->name);
        for (const char *const *a = o->aliases; a && *a; a++) {
            fputs(", ", out);
            roff_tag(out, o, *a);
        }
        fputc('\n', out);
        roff_text(out, o->help);
        if (o->def) {
            fputs(" (default ", out);
            roff_text(out, o->def);
            fputc(')', out);
        }
        fputs(".\n", out);
    }
}

static void md_text(FILE *out, const char *s)
{
    for (const char *p = s; *p; p++) {
        if (*p == '|')
            fputs("\\|", out);
        else
            fputc(*p, out);
    }
}

void sb_opt_print_markdown(FILE *out, const sb_opt *const *tables, const size_t *ns, size_t ntables)
{
    fputs("| option | type | default | meaning |\n|---|---|---|---|\n", out);
    FOR_EACH_ENTRY(o, tables, ns, ntables) {
        char left[128];
        usage_name(o, o->name, left, sizeof left);
        fputs("| `", out);
        md_text(out, left);
        fputc('`', out);
        for (const char *const *a = o->aliases; a && *a; a++)
            fprintf(out, ", `--%s`", *a);
        fprintf(out, " | %s | ", sb_opt_type_name(o->type));
        if (o->def)
            md_text(out, o->def);
        fputs(" | ", out);
        md_text(out, o->help);
        fputs(" |\n", out);
    }
}
