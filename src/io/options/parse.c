/*
 * parse — the one parser of option values (options.h): an entry found by name or alias,
 * its value read by its type (sizes by kb_base's rules, durations, ranges, splits, lists,
 * choices, booleans in fio's spellings) into its field, or handed to the entry's own
 * parser; one line of error naming the option as the caller spelled it.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/units.h"
#include "io/job.h"
#include "io/options/options.h"

const sb_opt *sb_opt_find(const sb_opt *table, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(table[i].name, name))
            return &table[i];
        for (const char *const *a = table[i].aliases; a && *a; a++)
            if (!strcmp(*a, name))
                return &table[i];
    }
    return NULL;
}

int sb_opt_parse_size(const char *s, unsigned kb_base, uint64_t *out)
{
    int rc = sb_parse_size_kb(s, kb_base, out);
    if (rc != -EINVAL || !s || !isdigit((unsigned char)*s))
        return rc;
    size_t whole = strspn(s, "0123456789");
    const char *r = s + whole;
    if (*r != '.')
        return rc;
    r += 1 + strspn(r + 1, "0123456789");  /* the fraction's digits */
    r += strspn(r, "kKmMgGtTpPiIbB");        /* a unit: dropped, as fio drops it */
    if (*r)
        return rc;
    char num[32];
    if (whole >= sizeof num)
        return -ERANGE;
    memcpy(num, s, whole);
    num[whole] = '\0';
    return sb_parse_size_kb(num, kb_base, out);
}

int sb_opt_dir_parts(const char *v, bool dashes, char part[SB_DDIR_PARTS][64])
{
    size_t end = strlen(v);
    if (end && v[end - 1] == ',') /* a trailing ',' is dropped, as fio drops it */
        end--;
    int n = 0;
    for (const char *p = v;;) {
        const char *c = memchr(p, ',', (size_t)(v + end - p));
        size_t len = c ? (size_t)(c - p) : (size_t)(v + end - p);
        size_t lead = strcspn(p, ":-");
        if (dashes && !c && lead < len) { /* no ',' left: fio splits at a ':', or else a '-' */
            const char *colon = memchr(p, ':', len);
            c = colon ? colon : p + lead;
        }
        if (c && dashes) /* fio reads a value before a ',' as its leading number */
            len = lead < (size_t)(c - p) ? lead : (size_t)(c - p);
        if (n == SB_DDIR_PARTS || len >= 64)
            return -EINVAL;
        memcpy(part[n], p, len);
        part[n++][len] = '\0';
        if (!c)
            return n;
        p = c + 1;
    }
}

/* fio reads a boolean as the number it starts with, the rest ignored: "0/1" is 0, "1x" is
 * 1 (fio 3.33 takes both; "2" it refuses). */
static int parse_leading_bool(const char *v, int *b)
{
    if (!isdigit((unsigned char)*v))
        return -EINVAL;
    unsigned long n = strtoul(v, NULL, 10);
    if (n > 1)
        return -EINVAL;
    *b = (int)n;
    return 0;
}

/* Stores v into an integer field of 1, 4 or 8 bytes (bool, unsigned/int/enum, uint64_t). */
static void store_int(void *p, size_t size, uint64_t v)
{
    if (size == 1)
        *(uint8_t *)p = (uint8_t)v;
    else if (size == 4)
        *(uint32_t *)p = (uint32_t)v;
    else
        *(uint64_t *)p = v;
}

static int parse_choice(const sb_opt *o, void *field, const char *v, char *why, size_t len)
{
    for (const sb_opt_choice *c = o->choices; c && c->name; c++)
        if (!strcmp(c->name, v)) {
            store_int(field, o->size, (uint64_t)(int64_t)c->value);
            return 0;
        }
    int n = snprintf(why, len, "'%s' is not one of ", v);
    for (const sb_opt_choice *c = o->choices; c && c->name && n >= 0 && (size_t)n < len; c++)
        n += snprintf(why + n, len - (size_t)n, "%s%s", c == o->choices ? "" : ", ", c->name);
    return -EINVAL;
}

static int parse_duration(const sb_opt *o, void *field, const char *v, char *why, size_t len)
{
    double s;
    /* fio reads a time's unit in any case (10S, 1M: a minute, as fio's get_mult_time) */
    char low[64];
    size_t n = strlen(v);
    if (n >= sizeof low) {
        snprintf(why, len, "'%.40s...' is not a duration (20, 20s, 500ms, 2m)", v);
        return -EINVAL;
    }
    for (size_t i = 0; i <= n; i++)
        low[i] = (char)tolower((unsigned char)v[i]);
    /* fio's thinktime: a bare number is microseconds */
    if ((o->flags & SB_OPTF_USEC) && *v && strspn(v, "0123456789.") == strlen(v))
        s = strtod(v, NULL) / 1e6;
    else if (sb_parse_duration(low, &s) < 0) {
        snprintf(why, len, "'%s' is not a duration (20, 20s, 500ms, 2m)", v);
        return -EINVAL;
    }
    if ((o->flags & SB_OPTF_POSITIVE) && s <= 0) {
        snprintf(why, len, "'%s' is not a duration above 0", v);
        return -EINVAL;
    }
    /* 1e-9: "10ms" parses to 0.01 within rounding, and must pass a bound of 0.01 */
    if ((o->min > 0 && s < o->min - 1e-9) || (o->max > 0 && s > o->max + 1e-9)) {
        if (o->max > 0)
            snprintf(why, len, "'%s' is not in %g s .. %g s", v, o->min, o->max);
        else
            snprintf(why, len, "'%s' is less than %g s", v, o->min);
        return -EINVAL;
    }
    *(double *)field = s;
    return 0;
}

/* fio's a-b: both sizes by the same kb_base rules; one size alone is a range of one. */
static int parse_range(const sb_opt *o, void *field, const char *v, const sb_opt_ctx *ctx,
                       char *why, size_t len)
{
    char lo_s[64];
    const char *dash = strchr(v, '-');
    uint64_t lo, hi;
    unsigned kb = ctx ? ctx->kb_base : 0;
    size_t n = dash ? (size_t)(dash - v) : strlen(v);
    if (strchr(v, ',')) {
        snprintf(why, len, "'%s': separate read,write values are not supported", v);
        return -EINVAL;
    }
    if (n >= sizeof lo_s || (memcpy(lo_s, v, n), lo_s[n] = '\0', sb_opt_parse_size(lo_s, kb, &lo) < 0) ||
        (dash ? sb_opt_parse_size(dash + 1, kb, &hi) : (hi = lo, 0)) < 0) {
        snprintf(why, len, "'%s' is not a size or a range of sizes (4k-64k)", v);
        return -EINVAL;
    }
    if (hi < lo) {
        snprintf(why, len, "'%s': the range ends below its start", v);
        return -EINVAL;
    }
    if ((o->min > 0 && (double)lo < o->min) || (o->max > 0 && (double)hi > o->max)) {
        snprintf(why, len, "'%s' is not in %.0f .. %.0f bytes", v, o->min, o->max);
        return -EINVAL;
    }
    ((uint64_t *)field)[0] = lo;
    ((uint64_t *)field)[1] = dash ? hi : 0; /* one size: no range (code that sets bs alone agrees) */
    return 0;
}

/* fio's bssplit: SIZE/PCT:SIZE/PCT...; entries without a PCT share what the others leave,
 * as fio does; the percentages must come to 100. */
int sb_opt_parse_split(const sb_opt *o, void *field, const char *v, const sb_opt_ctx *ctx,
                       char *why, size_t len)
{
    sb_io_bssplit sp = {0};
    char buf[512];
    unsigned given = 0, bare = 0;
    const char *comma = strchr(v, ',');
    /* fio's READS,WRITES: an entry with room for two splits parses each on its own */
    if (comma && o->size >= 2 * sizeof sp && !strchr(comma + 1, ',')) {
        char first[512];
        if ((size_t)(comma - v) >= sizeof first) {
            snprintf(why, len, "'%s' is too long", v);
            return -EINVAL;
        }
        memcpy(first, v, (size_t)(comma - v));
        first[comma - v] = '\0';
        sb_opt one = *o;
        one.size = sizeof sp;
        if (sb_opt_parse_split(&one, field, first, ctx, why, len) < 0 ||
            sb_opt_parse_split(&one, (sb_io_bssplit *)field + 1, comma + 1, ctx, why, len) < 0)
            return -EINVAL;
        return 0;
    }
    if (strlen(v) >= sizeof buf || comma) {
        snprintf(why, len, "'%s' is not a split of one direction (4k/50:64k/50)", v);
        return -EINVAL;
    }
    strcpy(buf, v);
    /* fio's reading: an empty entry ends the list (a trailing ':'), and a percentage is its
     * leading digits, as atoi reads them ("512/" and "4k/8k/" give none and 8), with 0 or
     * none an entry sharing what the others leave and above 100 read as 100 */
    for (char *e, *rest = buf; (e = strsep(&rest, ":")) && *e;) {
        char *slash = strchr(e, '/');
        uint64_t pct = 0;
        bool has_pct = false;
        if (slash) {
            *slash = '\0';
            pct = strtoull(slash + 1 + strspn(slash + 1, " \t"), NULL, 10);
            has_pct = isdigit((unsigned char)slash[1 + strspn(slash + 1, " \t")]) && pct > 0;
            pct = pct > 100 ? 100 : pct;
        }
        if (sp.n == SB_IO_MAX_SPLIT) {
            snprintf(why, len, "'%s': at most %d sizes", v, SB_IO_MAX_SPLIT);
            return -EINVAL;
        }
        if (sb_opt_parse_size(e, ctx ? ctx->kb_base : 0, &sp.bs[sp.n]) < 0) {
            snprintf(why, len, "'%s' is not a split (SIZE/PCT:SIZE/PCT, such as 4k/50:64k/50)", v);
            return -EINVAL;
        }
        if ((o->min > 0 && (double)sp.bs[sp.n] < o->min) || (o->max > 0 && (double)sp.bs[sp.n] > o->max)) {
            snprintf(why, len, "'%s': %s is not in %.0f .. %.0f bytes", v, e, o->min, o->max);
            return -EINVAL;
        }
        sp.pct[sp.n] = has_pct ? (unsigned)pct : UINT32_MAX;
        given += has_pct ? (unsigned)pct : 0;
        bare += !has_pct;
        sp.n++;
    }
    if (!sp.n || given > 100 || (!bare && given != 100)) {
        snprintf(why, len, "'%s': the percentages come to %u, not 100", v, given);
        return -EINVAL;
    }
    unsigned left = 100 - given;
    for (unsigned i = 0; i < sp.n; i++)
        if (sp.pct[i] == UINT32_MAX) {
            sp.pct[i] = left / bare + (left % bare > 0 ? 1 : 0);
            left -= sp.pct[i];
            bare--;
        }
    *(sb_io_bssplit *)field = sp;
    if (o->size >= 2 * sizeof sp) /* one split: the writes' too */
        ((sb_io_bssplit *)field)[1].n = 0;
    return 0;
}

/* fio's file list: a:b is two names, \: a colon inside one; an empty name is skipped, as
 * fio's (filename=D: is the file D, a::b the files a and b). */
int sb_opt_parse_list(char *out, size_t size, const char *v, char *why, size_t len)
{
    size_t n = 0;
    for (const char *p = v; *p; p++) {
        char c = *p;
        if (c == '\\' && p[1] == ':')
            c = *++p;
        else if (c == ':')
            c = '\0';
        if (n + 2 >= size) {
            snprintf(why, len, "too long (at most %zu bytes)", size - 2);
            return -EINVAL;
        }
        if (c == '\0' && (n == 0 || out[n - 1] == '\0'))
            continue;
        out[n++] = c;
    }
    if (n && out[n - 1] == '\0')
        n--;
    if (n == 0 && *v) {
        snprintf(why, len, "'%s' names no file", v);
        return -EINVAL;
    }
    out[n] = out[n + 1] = '\0';
    return 0;
}

static int parse_value(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                       char *why, size_t len)
{
    void *field = (char *)base + o->off;
    uint64_t u;
    int b = 1;
    switch (o->type) {
    case SB_OPT_STR:
        if (strlen(v) >= o->size) {
            snprintf(why, len, "too long (at most %zu bytes)", o->size - 1);
            return -EINVAL;
        }
        memcpy(field, v, strlen(v) + 1);
        return 0;
    case SB_OPT_INT: {
        if (o->parse) /* a number with a rule of its own (nrfiles after a filename's files) */
            return o->parse(o, base, v, ctx, why, len);
        /* max 0: no upper bound */
        int rc = sb_parse_uint(v, (uint64_t)o->min, o->max == 0 ? UINT64_MAX : (uint64_t)o->max, &u);
        if (rc < 0) {
            if (o->max == 0 && o->min == 0)
                snprintf(why, len, "'%s' is not a number", v);
            else if (o->max == 0)
                snprintf(why, len, "'%s' is not a number of at least %.0f", v, o->min);
            else
                snprintf(why, len, "'%s' is not in %.0f .. %.0f", v, o->min, o->max);
            return -EINVAL;
        }
        store_int(field, o->size, u);
        return 0;
    }
    case SB_OPT_BOOL:
        if (v && sb_parse_bool(v, &b) < 0 &&
            ((o->flags & SB_OPTF_SET) ? sb_parse_set_value(v, &b) : parse_leading_bool(v, &b)) < 0) {
            snprintf(why, len, "'%s' is not 0 or 1", v);
            return -EINVAL;
        }
        store_int(field, o->size, (uint64_t)b);
        return 0;
    case SB_OPT_SIZE:
        if (o->parse) /* a size of the entry's own syntax: size=8z, offset=8z (parse_zbd.c) */
            return o->parse(o, base, v, ctx, why, len);
        if (sb_opt_parse_size(v, ctx ? ctx->kb_base : 0, &u) < 0) {
            snprintf(why, len, "'%s' is not a size", v);
            return -EINVAL;
        }
        if ((o->min > 0 && (double)u < o->min) || (o->max > 0 && (double)u > o->max)) {
            snprintf(why, len, "'%s' is not in %.0f .. %.0f bytes", v, o->min, o->max);
            return -EINVAL;
        }
        *(uint64_t *)field = u;
        return 0;
    case SB_OPT_DURATION:
        return parse_duration(o, field, v, why, len);
    case SB_OPT_CHOICE: /* a choice with more syntax has its own parser (rw's :SKIP) */
        return o->parse ? o->parse(o, base, v, ctx, why, len) : parse_choice(o, field, v, why, len);
    case SB_OPT_FUNC:
        return o->parse(o, base, v, ctx, why, len);
    case SB_OPT_RANGE: /* with READ,WRITE values: the entry's own parser (bs, parse_fio.c) */
        return o->parse ? o->parse(o, base, v, ctx, why, len) : parse_range(o, field, v, ctx, why, len);
    case SB_OPT_SPLIT: /* bssplit's row has its own (parse_fio.c), around this one */
        return o->parse ? o->parse(o, base, v, ctx, why, len) : sb_opt_parse_split(o, field, v, ctx, why, len);
    case SB_OPT_LIST: /* a list of its own rules has its own parser (filename's, parse_files.c) */
        return o->parse ? o->parse(o, base, v, ctx, why, len) : sb_opt_parse_list(field, o->size, v, why, len);
    case SB_OPT_PCT: {
        char num[32];
        size_t n = strlen(v);
        if (n && v[n - 1] == '%')
            n--;
        if (n >= sizeof num || (memcpy(num, v, n), num[n] = '\0', sb_parse_uint(num, 0, 100, &u)) < 0) {
            snprintf(why, len, "'%s' is not a percentage (0 .. 100)", v);
            return -EINVAL;
        }
        store_int(field, o->size, u);
        return 0;
    }
    }
    snprintf(why, len, "an option of unknown type");
    return -EINVAL;
}

int sb_opt_parse(const sb_opt *o, void *base, const char *as, const char *value,
                 const sb_opt_ctx *ctx, char *err, size_t errlen)
{
    char why[768];
    if (!as)
        as = o->name;
    if (!value && o->type != SB_OPT_BOOL) {
        if (!(o->flags & SB_OPTF_SWITCH) || !o->def) {
            snprintf(err, errlen, "%s: needs a value", as);
            return -EINVAL;
        }
        value = o->def; /* a switch of another type given bare: its default */
    }
    why[0] = '\0';
    if (parse_value(o, base, value, ctx, why, sizeof why) < 0) {
        snprintf(err, errlen, "%s: %s", as, why[0] ? why : "bad value");
        return -EINVAL;
    }
    return 0;
}
