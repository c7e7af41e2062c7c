/*
 * ddwiki — reads a dd wiki page (seed 004) into the result model, and writes
 * a block for one (see ddwiki.h; the format in docs/text-format.md).
 *
 * Reading is line by line, so that every refusal names its line. A page is
 * cut into sections at its "== heading ==" lines. A section with labelled
 * lines ("Direct write:", "Direct read:", "Read cache:") is a machine block and
 * must have each of the three exactly once; a section whose dd lines carry no
 * label is the page's worked example (the "$ time dd ..." transcripts at the
 * top) and is skipped. Inside <code>, besides the three lines, only what a
 * pasted terminal shows is accepted (the command, "records in/out", the
 * shell's real/user/sys); anything else there refuses the block, because it
 * may be a damaged figure. Lines outside <code> are the machine's note.
 *
 * A figure is not taken from the printed rate, which has two or three
 * digits ("3.0 GB/s"), but recomputed from the bytes and seconds on the same
 * line (10^6 B/s, as dd and the dd test count), and the printed rate must
 * agree with it to the rate's printed precision, the seconds' own rounding
 * allowed for. Decimal commas ("5,11402 s") are read as points.
 */
#include "formats/ddwiki.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/strutil.h"
#include "core/units.h"
#include "formats/span.h"

const char *const sb_ddwiki_labels[SB_DDWIKI_TESTS] = {"Direct write: ", "Direct read:  ",
                                                        "Read cache:   "};
static const char *const label_words[SB_DDWIKI_TESTS] = {"Direct write", "Direct read",
                                                          "Read cache"};

/* What the dd workload (src/workloads/dd.c) calls its test, options and measures: an
 * imported figure joins a measured one's chart only when test, option line and options
 * are the same. Spelled out here because report/ does not see workloads/;
 * tests/unit/test_ddwiki.c checks them against the registry. The wiki's command is
 * `dd if=/dev/zero bs=2048k count=N`: zeros, 2048k blocks, N from the byte count. */
#define DD_TEST "dd"
#define DD_TITLE "dd"
#define DD_BS "2048k"
#define DD_BS_BYTES 2097152ull
#define DD_DATA "zero"
#define DD_OPTION_LINE "Block Size: " DD_BS " - Count: %llu - Data: Zeros - %s"
#define DD_UNIT "MB/s"
static const char *const measure_labels[SB_DDWIKI_TESTS] = {
    "Test: Direct Write", "Test: Direct Read", "Test: Read Cache"};
/* What produced the figures, as a chart names it: dd (GNU dd, or `storbench dd --wiki`)
 * as the wiki page reports it. */
#define DD_SOURCE "dd (wiki page)"

/* ---------------------------------------------------------------- text helpers */

static void skip_blanks(span *s)
{
    while (s->n && (s->p[0] == ' ' || s->p[0] == '\t')) {
        s->p++;
        s->n--;
    }
}

/* Consumes lit (case-insensitive) at the start of s. */
static bool eat(span *s, const char *lit)
{
    size_t n = strlen(lit);
    if (s->n < n || strncasecmp(s->p, lit, n))
        return false;
    s->p += n;
    s->n -= n;
    return true;
}

/* A short printable excerpt of s for messages, in buf. */
static const char *excerpt(span s, char *buf, size_t len)
{
    size_t j = 0;
    for (size_t i = 0; i < s.n && j + 4 < len; i++)
        buf[j++] = isprint((unsigned char)s.p[i]) || (s.p[i] & 0x80) ? s.p[i] : ' ';
    buf[j] = '\0';
    if (j < s.n)
        strcpy(buf + j, "...");
    return buf;
}

/* ---------------------------------------------------------------- one dd line */

/* A number as printed, and half of its last digit's unit: what rounding may hide. */
typedef struct num {
    double v, half;
} num;

/* digits[(.|,)digits][e[+-]digits]: the page's locales write "5,11402" as well as
 * "5.11402"; printf's %g may write "1e-05". */
static bool eat_num(span *s, num *out)
{
    char buf[48];
    size_t i = 0, j = 0;
    int frac = 0;
    while (i < s->n && isdigit((unsigned char)s->p[i]) && j + 1 < sizeof buf)
        buf[j++] = s->p[i++];
    if (!j)
        return false;
    if (i + 1 < s->n && (s->p[i] == '.' || s->p[i] == ',') && isdigit((unsigned char)s->p[i + 1])) {
        buf[j++] = '.';
        i++;
        while (i < s->n && isdigit((unsigned char)s->p[i]) && j + 1 < sizeof buf) {
            buf[j++] = s->p[i++];
            frac++;
        }
    }
    int exp = 0;
    if (i + 1 < s->n && (s->p[i] == 'e' || s->p[i] == 'E')) {
        size_t k = i + 1;
        int sign = 1;
        if (k < s->n && (s->p[k] == '-' || s->p[k] == '+'))
            sign = s->p[k++] == '-' ? -1 : 1;
        if (k < s->n && isdigit((unsigned char)s->p[k])) {
            while (k < s->n && isdigit((unsigned char)s->p[k]) && exp < 1000)
                exp = exp * 10 + (s->p[k++] - '0');
            exp *= sign;
            i = k;
        }
    }
    if (i < s->n && isdigit((unsigned char)s->p[i]))
        return false; /* more digits than any figure has */
    buf[j] = '\0';
    out->v = strtod(buf, NULL) * pow(10, exp);
    out->half = 0.5 * pow(10, exp - frac);
    s->p += i;
    s->n -= i;
    return isfinite(out->v);
}

/* A unit token ("GB", "1.0 GiB"'s "GiB", "MB/s" without its "/s") -> bytes, 0 if unknown. */
static double unit_bytes(span u)
{
    static const struct {
        const char *name;
        double mult;
    } units[] = {
        {"B", 1},        {"kB", 1e3},           {"KB", 1e3},           {"MB", 1e6},
        {"GB", 1e9},     {"TB", 1e12},          {"PB", 1e15},          {"EB", 1e18},
        {"KiB", 1024.0}, {"MiB", 1048576.0},    {"GiB", 1073741824.0}, {"TiB", 1099511627776.0},
        {"PiB", 1125899906842624.0},            {"EiB", 1152921504606846976.0},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (u.n == strlen(units[i].name) && !memcmp(u.p, units[i].name, u.n))
            return units[i].mult;
    return 0;
}

/* The unit word at s (up to a blank, ',' or ')'), consumed. */
static span eat_word(span *s)
{
    size_t i = 0;
    while (i < s->n && !isspace((unsigned char)s->p[i]) && s->p[i] != ',' && s->p[i] != ')')
        i++;
    span w = {s->p, i};
    s->p += i;
    s->n -= i;
    return w;
}

/* Could dd have printed p (times mult) for a quantity known to lie in [lo, hi]? dd
 * rounds to nearest, so the true value lies within half a unit of the last digit. */
static bool agrees(double lo, double hi, num p, double mult)
{
    double plo = (p.v - p.half) * mult, phi = (p.v + p.half) * mult;
    double eps = 1e-9 * fabs(phi); /* the decimal digits' own binary rounding */
    return lo <= phi + eps && hi >= plo - eps;
}

typedef struct ddline {
    uint64_t bytes;
    double seconds;
} ddline;

static int not_dd(span s, size_t line, int m, char *err, size_t errlen)
{
    char ex[96];
    return page_fail(err, errlen, "line %zu: %s: not a dd summary ('<bytes> bytes (<size>) "
                     "copied, <seconds> s, <rate> MB/s'): '%s'", line, label_words[m],
                     excerpt(s, ex, sizeof ex));
}

/* "(1.1 GB)" or "(2,1 GB, 2,0 GiB)": each size must be the byte count as dd prints it. */
static int parse_sizes(span *s, uint64_t bytes, size_t line, int m, char *err, size_t errlen)
{
    span all = *s;
    if (!eat(s, "("))
        return 0; /* dd prints no size below 1000 bytes */
    do {
        skip_blanks(s);
        span at = *s;
        num v;
        if (!eat_num(s, &v))
            return not_dd(all, line, m, err, errlen);
        skip_blanks(s);
        double mult = unit_bytes(eat_word(s));
        if (!mult)
            return not_dd(all, line, m, err, errlen);
        if (!agrees((double)bytes, (double)bytes, v, mult)) {
            char ex[48];
            span sz = {at.p, (size_t)(s->p - at.p)};
            return page_fail(err, errlen, "line %zu: %s: %llu bytes are not %s", line,
                             label_words[m], (unsigned long long)bytes, excerpt(sz, ex, sizeof ex));
        }
        skip_blanks(s);
    } while (eat(s, ","));
    return eat(s, ")") ? 0 : not_dd(all, line, m, err, errlen);
}

/* After the label: "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 3.53208 s, 304 MB/s". */
static int parse_dd(span s, size_t line, int m, ddline *out, char *err, size_t errlen)
{
    span all = span_trim(s), r = all;
    char *end;
    errno = 0;
    if (!r.n || !isdigit((unsigned char)r.p[0]))
        return not_dd(all, line, m, err, errlen);
    unsigned long long bytes = strtoull(r.p, &end, 10);
    if (errno == ERANGE || (size_t)(end - r.p) > 20)
        return page_fail(err, errlen, "line %zu: %s: the byte count is out of range", line,
                         label_words[m]);
    r.n -= (size_t)(end - r.p);
    r.p = end;
    skip_blanks(&r);
    if (!eat(&r, "byte"))
        return not_dd(all, line, m, err, errlen);
    eat(&r, "s");
    skip_blanks(&r);
    int rc = parse_sizes(&r, bytes, line, m, err, errlen);
    if (rc)
        return rc;
    num sec, rate;
    skip_blanks(&r);
    if (!eat(&r, "copied"))
        return not_dd(all, line, m, err, errlen);
    skip_blanks(&r);
    if (!eat(&r, ","))
        return not_dd(all, line, m, err, errlen);
    skip_blanks(&r);
    if (!eat_num(&r, &sec))
        return not_dd(all, line, m, err, errlen);
    skip_blanks(&r);
    if (!eat(&r, "s"))
        return not_dd(all, line, m, err, errlen);
    skip_blanks(&r);
    if (!eat(&r, ","))
        return not_dd(all, line, m, err, errlen);
    skip_blanks(&r);
    span printed = r; /* the rate as the page prints it, for the message */
    if (!eat_num(&r, &rate))
        return not_dd(all, line, m, err, errlen);
    skip_blanks(&r);
    span unit = span_trim(r);
    if (!span_ends_with_ci(unit, "/s"))
        return not_dd(all, line, m, err, errlen);
    unit.n -= 2;
    double mult = unit_bytes(unit);
    if (!mult)
        return not_dd(all, line, m, err, errlen);
    if (!bytes || !(sec.v > 0))
        return page_fail(err, errlen, "line %zu: %s: %llu bytes in %g s is no rate", line,
                         label_words[m], bytes, sec.v);
    /* The true seconds lie within half a digit of the printed ones. */
    double lo = (double)bytes / (sec.v + sec.half);
    double hi = sec.v > sec.half ? (double)bytes / (sec.v - sec.half) : INFINITY;
    if (!agrees(lo, hi, rate, mult)) {
        char ex[48];
        return page_fail(err, errlen, "line %zu: %s: %llu bytes in %g s are %.1f MB/s, not the "
                         "printed %s", line, label_words[m], bytes, sec.v,
                         (double)bytes / sec.v / 1e6, excerpt(span_trim(printed), ex, sizeof ex));
    }
    out->bytes = bytes;
    out->seconds = sec.v;
    return 0;
}

/* ---------------------------------------------------------------- the page */

/* The text from one heading to the next. */
typedef struct section {
    span heading;  /* trimmed of '=' and blanks */
    size_t line;   /* of the heading; 0 for the text before the first one */
    ddline fig[SB_DDWIKI_TESTS];
    size_t fig_line[SB_DDWIKI_TESTS];   /* 0: no such line */
    size_t unlabelled, unlabelled_line; /* dd summaries without a label; the first's line */
    size_t stray_line;                  /* the first line in <code> that no dd run prints */
    span stray;
    char *note;    /* the lines outside <code>, joined by spaces */
} section;

typedef struct page {
    section *s;
    size_t n;
} page;

static void add_section(page *pg, span heading, size_t line)
{
    /* Grown geometrically: a long page has thousands of blocks. */
    if ((pg->n & (pg->n - 1)) == 0)
        pg->s = sb_xrealloc(pg->s, (pg->n ? 2 * pg->n : 1) * sizeof *pg->s);
    section *s = &pg->s[pg->n++];
    memset(s, 0, sizeof *s);
    s->heading = heading;
    s->line = line;
}

static void page_free(page *pg)
{
    for (size_t i = 0; i < pg->n; i++)
        free(pg->s[i].note);
    free(pg->s);
}

static bool is_machine(const section *s)
{
    for (int m = 0; m < SB_DDWIKI_TESTS; m++)
        if (s->fig_line[m])
            return true;
    return false;
}

/* "Direct write:" (any case, blanks before the colon) at t: which label, and the text
 * after the colon; -1 when t has none. */
static int label_at(span t, span *rest)
{
    for (int m = 0; m < SB_DDWIKI_TESTS; m++) {
        span r = t;
        if (eat(&r, label_words[m])) {
            skip_blanks(&r);
            if (eat(&r, ":")) {
                *rest = r;
                return m;
            }
        }
    }
    return -1;
}

/* A dd summary line without a label: the example's transcripts. */
static bool dd_summary(span t)
{
    return memmem(t.p, t.n, " byte", 5) && memmem(t.p, t.n, " copied", 7);
}

/* What a pasted terminal shows around dd's summary: a prompt or the command, dd's
 * "2048+0 records in/out", the shell's `time` lines ("real 0m3.619s"). */
static bool terminal_noise(span t)
{
    span r = t;
    if (eat(&r, "$") || eat(&r, "#") || eat(&r, "dd ") || eat(&r, "time dd "))
        return true;
    static const char *const times[] = {"real", "user", "sys"};
    for (size_t i = 0; i < 3; i++) {
        r = t;
        if (eat(&r, times[i]) && r.n && isspace((unsigned char)r.p[0])) {
            skip_blanks(&r);
            if (r.n && isdigit((unsigned char)r.p[0]))
                return true;
        }
    }
    size_t i = 0;
    while (i < t.n && isdigit((unsigned char)t.p[i]))
        i++;
    return i && i < t.n && t.p[i] == '+' && memmem(t.p, t.n, " records ", 9);
}

static void add_note(section *s, span t)
{
    size_t had = s->note ? strlen(s->note) : 0;
    s->note = sb_xrealloc(s->note, had + t.n + 2);
    if (had)
        s->note[had++] = ' ';
    memcpy(s->note + had, t.p, t.n);
    s->note[had + t.n] = '\0';
}

/* One line of a section, <code> and </code> already taken off. */
static int read_content(section *cur, span t, size_t line, bool in_code, char *err, size_t errlen)
{
    char ex[96];
    span rest;
    if (!t.n)
        return 0;
    int m = label_at(t, &rest);
    if (m >= 0) {
        if (!cur->line)
            return page_fail(err, errlen, "line %zu: a '%s:' line before any '==== heading ====' "
                             "(the heading names the machine)", line, label_words[m]);
        if (cur->fig_line[m])
            return page_fail(err, errlen, "line %zu: a second '%s:' line in the block of '%s' (the "
                             "first is line %zu)", line, label_words[m],
                             excerpt(cur->heading, ex, sizeof ex), cur->fig_line[m]);
        int rc = parse_dd(rest, line, m, &cur->fig[m], err, errlen);
        if (!rc)
            cur->fig_line[m] = line;
        return rc;
    }
    if (dd_summary(t)) {
        if (!cur->unlabelled++)
            cur->unlabelled_line = line;
    } else if (terminal_noise(t)) {
        ; /* part of a pasted terminal, nothing to read */
    } else if (in_code) {
        if (!cur->stray_line) {
            cur->stray_line = line;
            cur->stray = t;
        }
    } else if (cur->line) {
        add_note(cur, t); /* text before the first heading is the page's own */
    }
    return 0;
}

/* A line without its "<code>" ("<code bash>") and "</code>", and whether it had them. */
static span strip_code(span t, bool *opens, bool *closes)
{
    span r = t;
    const char *gt = NULL;
    *opens = eat(&r, "<code") && (!r.n || r.p[0] == '>' || r.p[0] == ' ') &&
             (gt = memchr(r.p, '>', r.n));
    if (*opens)
        t = span_trim((span){gt + 1, (size_t)(r.p + r.n - gt - 1)});
    *closes = span_ends_with_ci(t, "</code>");
    if (*closes)
        t = span_trim((span){t.p, t.n - 7});
    return t;
}

static int read_page(span text, page *pg, char *err, size_t errlen)
{
    add_section(pg, (span){text.p, 0}, 0);
    bool in_code = false;
    size_t line = 0, start = 0;
    for (size_t i = 0; i <= text.n; i++) {
        if (i < text.n && text.p[i] != '\n')
            continue;
        line++;
        span t = span_trim((span){text.p + start, i - start});
        start = i + 1;
        if (!in_code && t.n >= 2 && t.p[0] == '=' && t.p[1] == '=') {
            while (t.n && t.p[0] == '=') {
                t.p++;
                t.n--;
            }
            /* A heading without its closing '=' is a page cut short (or an edit gone
             * wrong): its machine would be dropped without a word while the others import,
             * so the page is refused. The counts of '=' may differ (seed 004 has 4 and 3). */
            if (!t.n || t.p[t.n - 1] != '=') {
                char ex[96];
                return page_fail(err, errlen, "line %zu: the heading '%s' does not end in '=' (the page "
                                 "is cut short, or the heading lost its closing '===='; a heading is "
                                 "==== name ====)", line, excerpt(span_trim(t), ex, sizeof ex));
            }
            while (t.n && t.p[t.n - 1] == '=')
                t.n--;
            add_section(pg, span_trim(t), line);
            continue;
        }
        bool opens, closes;
        t = strip_code(t, &opens, &closes);
        in_code |= opens;
        int rc = read_content(&pg->s[pg->n - 1], t, line, in_code, err, errlen);
        if (rc)
            return rc;
        if (closes)
            in_code = false;
    }
    return 0;
}

/* A machine block must be complete and each of its figures expressible as the dd test's
 * options. */
static int check_block(const section *s, char *err, size_t errlen)
{
    char ex[96], ex2[96];
    const char *h = excerpt(s->heading, ex, sizeof ex);
    if (!s->heading.n)
        return page_fail(err, errlen, "line %zu: a block with an empty heading (the heading names "
                         "the machine)", s->line);
    for (int m = 0; m < SB_DDWIKI_TESTS; m++)
        if (!s->fig_line[m])
            return page_fail(err, errlen, "line %zu: the block of '%s' has no '%s:' line", s->line,
                             h, label_words[m]);
    if (s->unlabelled)
        return page_fail(err, errlen, "line %zu: in the block of '%s': a dd line without its "
                         "'Direct write:', 'Direct read:' or 'Read cache:' label",
                         s->unlabelled_line, h);
    if (s->stray_line)
        return page_fail(err, errlen, "line %zu: in the block of '%s': '%s' is no dd output (a "
                         "note goes outside <code>)", s->stray_line, h,
                         excerpt(s->stray, ex2, sizeof ex2));
    for (int m = 0; m < SB_DDWIKI_TESTS; m++)
        if (s->fig[m].bytes % DD_BS_BYTES)
            return page_fail(err, errlen, "line %zu: %s: %llu bytes are not a whole number of the "
                             "wiki's 2048k blocks (dd bs=2048k)", s->fig_line[m], label_words[m],
                             (unsigned long long)s->fig[m].bytes);
    return 0;
}

/* The block's system and its three figures, each in the dd result of its option line. */
static int add_block(sb_resultfile *rf, const section *s, FILE *log, char *err, size_t errlen)
{
    char *ident = sb_xstrndup(s->heading.p, s->heading.n), ex[96];
    if (sb_resultfile_find_system(rf, ident)) {
        int rc = page_fail(err, errlen, "line %zu: a second block of '%s' (an identifier is one "
                           "machine)", s->line, excerpt(s->heading, ex, sizeof ex));
        free(ident);
        return rc;
    }
    sb_system *sys = sb_resultfile_add_system(rf, ident);
    free(sys->timestamp);
    free(sys->tool_version);
    sys->timestamp = sb_xstrdup("");
    sys->tool_version = sb_xstrdup("imported");
    if (s->note)
        sb_kvlist_add(&sys->hardware, "Note", s->note);
    double mbs[SB_DDWIKI_TESTS];
    for (int m = 0; m < SB_DDWIKI_TESTS; m++) {
        unsigned long long count = s->fig[m].bytes / DD_BS_BYTES;
        char desc[128], cnt[24];
        snprintf(desc, sizeof desc, DD_OPTION_LINE, count, measure_labels[m]);
        snprintf(cnt, sizeof cnt, "%llu", count);
        sb_kvlist opts = {0};
        sb_kvlist_add(&opts, "bs", DD_BS);
        sb_kvlist_add(&opts, "count", cnt);
        sb_kvlist_add(&opts, "data", DD_DATA);
        sb_result *r = sb_resultfile_get_result_opts(rf, DD_TEST, DD_TITLE, "", desc, DD_UNIT,
                                                     SB_HIGHER_IS_BETTER, &opts);
        sb_kvlist_free(&opts);
        sb_entry *e = sb_result_add_entry(r, ident);
        sb_entry_set_source(e, DD_SOURCE, true);
        mbs[m] = (double)s->fig[m].bytes / s->fig[m].seconds / 1e6;
        e->mean = mbs[m];
        e->decimals = 2;
        sb_entry_add_secondary(e, "bytes", "B", (double)s->fig[m].bytes);
        sb_entry_add_secondary(e, "seconds", "s", s->fig[m].seconds);
    }
    if (log)
        fprintf(log, "line %zu: '%s': Direct Write %.2f, Direct Read %.2f, Read Cache %.2f MB/s\n",
                s->line, ident, mbs[0], mbs[1], mbs[2]);
    free(ident);
    return 0;
}

static void log_skipped(const section *s, FILE *log)
{
    char ex[96];
    if (!log || (!s->line && !s->unlabelled))
        return;
    const char *h = s->line ? excerpt(s->heading, ex, sizeof ex) : "the text before the first heading";
    if (s->unlabelled)
        fprintf(log, "line %zu: '%s': %zu dd line%s without a 'Direct write:' / 'Direct read:' / "
                "'Read cache:' label (the page's example, not a machine): skipped\n",
                s->line ? s->line : s->unlabelled_line, h, s->unlabelled,
                s->unlabelled == 1 ? "" : "s");
    else
        fprintf(log, "line %zu: '%s': no dd lines: skipped\n", s->line, h);
}

int sb_import_ddwiki(const char *text, size_t len, sb_resultfile *rf, FILE *log, char *err,
                     size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    int rc = page_check_text(text, len, "a dd wiki page", err, errlen);
    if (rc)
        return rc;
    page pg = {0};
    rc = read_page((span){text, len}, &pg, err, errlen);
    const section *last = &pg.s[pg.n - 1];
    if (!rc && last->line && !is_machine(last) && !last->unlabelled && !last->note && !last->stray_line) {
        /* A heading with nothing under it that ends the page: cut after its heading. */
        char ex[96];
        rc = page_fail(err, errlen, "line %zu: the page ends after the heading '%s' (cut short?)",
                       last->line, excerpt(last->heading, ex, sizeof ex));
    }
    for (size_t i = 0; !rc && i < pg.n; i++)
        if (is_machine(&pg.s[i]))
            rc = check_block(&pg.s[i], err, errlen);
    /* The page's title: its first heading that is no machine (the example's). */
    const char *title = NULL;
    size_t machines = 0;
    for (size_t i = 0; !rc && i < pg.n; i++) {
        const section *s = &pg.s[i];
        if (is_machine(s)) {
            rc = add_block(rf, s, log, err, errlen);
            machines++;
        } else {
            log_skipped(s, log);
            if (!title && s->heading.n)
                title = sb_xstrndup(s->heading.p, s->heading.n);
        }
    }
    if (!rc && !machines)
        rc = page_fail(err, errlen, "not a dd wiki page: no '==== heading ====' followed by "
                       "'Direct write:', 'Direct read:' and 'Read cache:' lines");
    if (!rc)
        sb_resultfile_set_title(rf, title ? title : "dd", "");
    free((char *)title);
    page_free(&pg);
    return rc;
}

bool sb_ddwiki_detect(const char *text, size_t len)
{
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && text[i] != '\n')
            continue;
        bool opens, closes;
        span rest, t = strip_code(span_trim((span){text + start, i - start}), &opens, &closes);
        start = i + 1;
        /* No more than the label: a page whose first block is damaged is still this kind
         * of page, and its refusal then names the line. */
        if (label_at(t, &rest) == 0)
            return true;
    }
    return false;
}

/* ---------------------------------------------------------------- writing */

void sb_ddwiki_lines(FILE *out, const uint64_t bytes[SB_DDWIKI_TESTS],
                     const double seconds[SB_DDWIKI_TESTS])
{
    for (int m = 0; m < SB_DDWIKI_TESTS; m++) {
        char line[256];
        sb_format_dd_line(line, sizeof line, bytes[m], seconds[m]);
        fprintf(out, "%s%s\n", sb_ddwiki_labels[m], line);
    }
}

void sb_ddwiki_block(FILE *out, const char *heading, const uint64_t bytes[SB_DDWIKI_TESTS],
                     const double seconds[SB_DDWIKI_TESTS])
{
    /* The page's newest blocks' form: "==== X ====", <code> opening the first line,
     * </code> on its own. */
    fprintf(out, "==== %s ====\n<code>", heading);
    sb_ddwiki_lines(out, bytes, seconds);
    fputs("</code>\n", out);
}

const char *sb_ddwiki_heading_problem(const char *heading)
{
    size_t n = strlen(heading);
    if (!n)
        return "is empty";
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)heading[i] < 0x20 || heading[i] == 0x7f)
            return "contains a control character (it must be one line)";
    if (isspace((unsigned char)heading[0]) || isspace((unsigned char)heading[n - 1]))
        return "starts or ends with a blank";
    if (heading[0] == '=' || heading[n - 1] == '=')
        return "starts or ends with '=' (the heading's own markup)";
    return NULL;
}
