/*
 * units — size/duration parsing (IEC, as dd and fio) and the GNU dd style
 * number formatting used by the dd test's output.
 */
#include "core/units.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int sb_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    if (!s || !isdigit((unsigned char)*s))
        return -EINVAL;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end)
        return -EINVAL;
    if (errno == ERANGE || v < min || v > max)
        return -ERANGE;
    *out = v;
    return 0;
}

/* One parser for every size storbench reads. kb_base 0 is storbench's own rule: every
 * suffix IEC ("4k", "4kb", "4kib" are all 4096), and an "i" only as "ib". kb_base 1024 or
 * 1000 are fio's rules for its options: the plain suffix is kb_base, the IEC one ("ki",
 * "kib") the other base (fio's kb_base=1024 makes KiB 1000, for its old job files). */
int sb_parse_size_kb(const char *s, unsigned kb_base, uint64_t *out)
{
    static const char units[] = "kmgtp";
    if (!s || !isdigit((unsigned char)*s))
        return -EINVAL;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno == ERANGE)
        return -ERANGE;
    int c = tolower((unsigned char)*end);
    if (!c || (c == 'b' && !end[1])) {
        *out = v;
        return 0;
    }
    const char *u = strchr(units, c);
    if (!u)
        return -EINVAL;
    const char *rest = end + 1;
    bool iec = tolower((unsigned char)*rest) == 'i';
    if (iec)
        rest++;
    if ((*rest && strcasecmp(rest, "b")) || (iec && !kb_base && !*rest))
        return -EINVAL;
    uint64_t base = !kb_base || (kb_base == 1000) == iec ? 1024 : 1000;
    uint64_t r = v;
    for (int i = 0; i <= (int)(u - units); i++) {
        if (r > UINT64_MAX / base)
            return -ERANGE;
        r *= base;
    }
    *out = r;
    return 0;
}

int sb_parse_size(const char *s, uint64_t *out)
{
    return sb_parse_size_kb(s, 0, out);
}

int sb_parse_duration(const char *s, double *seconds)
{
    if (!s || !(isdigit((unsigned char)*s) || *s == '.'))
        return -EINVAL;
    char *end;
    double v = strtod(s, &end);
    if (end == s || v < 0 || !isfinite(v))
        return -EINVAL;
    double mul;
    if (!*end || !strcmp(end, "s"))
        mul = 1;
    else if (!strcmp(end, "ms"))
        mul = 1e-3;
    else if (!strcmp(end, "us"))
        mul = 1e-6;
    else if (!strcmp(end, "m") || !strcmp(end, "min"))
        mul = 60;
    else if (!strcmp(end, "h"))
        mul = 3600;
    else if (!strcmp(end, "d")) /* fio's days (runtime=300d: a run that does not end) */
        mul = 86400;
    else
        return -EINVAL;
    /* 1e308h is a number, not a duration: beyond 10^9 s (31 years) a run never ends and
     * the arithmetic on it (deadlines in ns) overflows. */
    if (!(v * mul <= SB_MAX_DURATION_S))
        return -EINVAL;
    *seconds = v * mul;
    return 0;
}

int sb_parse_bool(const char *s, int *out)
{
    static const char *yes[] = {"1", "yes", "true", "on", "y"};
    static const char *no[] = {"0", "no", "false", "off", "n"};
    if (!s)
        return -EINVAL;
    for (size_t i = 0; i < 5; i++) {
        if (!strcasecmp(s, yes[i])) { *out = 1; return 0; }
        if (!strcasecmp(s, no[i])) { *out = 0; return 0; }
    }
    return -EINVAL;
}

int sb_parse_set_value(const char *s, int *out)
{
    unsigned int v;
    if (!s || !*s)
        return -EINVAL;
    /* as fio's sscanf: "%x" once the value holds 0x anywhere, else "%u" */
    if (strstr(s, "0x") || strstr(s, "0X")) {
        if (sscanf(s, "%x", &v) != 1)
            return -EINVAL;
    } else if (sscanf(s, "%u", &v) != 1) {
        return -EINVAL;
    }
    *out = v != 0;
    return 0;
}

/* GNU dd prints amounts below 100 with one decimal and larger ones as
 * integers, rounded to nearest ("20.0 MB/s", "73.5 MB/s", "304 MB/s"). */
static void format_scaled(char *buf, size_t len, double value, double base,
                          const char *const *prefixes, const char *suffix)
{
    int i = 0;
    while (value >= base && prefixes[i + 1]) {
        value /= base;
        i++;
    }
    /* 99.96 would print "100.0": re-check after rounding, as dd does. */
    if (value < 100 && round(value * 10) / 10 >= 100)
        value = 100;
    if (value >= 1000 && prefixes[i + 1]) {
        value /= base;
        i++;
    }
    if (value < 100)
        snprintf(buf, len, "%.1f %s%s", value, prefixes[i], suffix);
    else
        snprintf(buf, len, "%.0f %s%s", value, prefixes[i], suffix);
}

void sb_format_si(char *buf, size_t len, double value, const char *suffix)
{
    static const char *const p[] = {"", "k", "M", "G", "T", "P", "E", NULL};
    if (value < 1000) { /* dd prints small amounts as integers: "512 B/s" */
        snprintf(buf, len, "%.0f %s", value, suffix);
        return;
    }
    format_scaled(buf, len, value, 1000, p, suffix);
}

void sb_format_iec(char *buf, size_t len, double value, const char *suffix)
{
    static const char *const p[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", NULL};
    if (value < 1024) {
        snprintf(buf, len, "%.0f %s", value, suffix);
        return;
    }
    format_scaled(buf, len, value, 1024, p, suffix);
}

void sb_format_size_short(char *buf, size_t len, uint64_t bytes)
{
    static const char *const p[] = {"B", "KB", "MB", "GB", "TB", "PB"};
    int i = 0;
    while (i < 5 && bytes >= 1024 && bytes % 1024 == 0) {
        bytes /= 1024;
        i++;
    }
    snprintf(buf, len, "%llu%s", (unsigned long long)bytes, p[i]);
}

void sb_format_dd_line(char *buf, size_t len, uint64_t bytes, double seconds)
{
    char si[32], iec[32], rate[32];
    if (seconds > 0)
        sb_format_si(rate, sizeof rate, (double)bytes / seconds, "B/s");
    else
        snprintf(rate, sizeof rate, "Infinity B/s");
    if (bytes >= 1000) {
        sb_format_si(si, sizeof si, (double)bytes, "B");
        sb_format_iec(iec, sizeof iec, (double)bytes, "B");
        snprintf(buf, len, "%llu bytes (%s, %s) copied, %g s, %s", (unsigned long long)bytes, si,
                 iec, seconds, rate);
    } else {
        snprintf(buf, len, "%llu byte%s copied, %g s, %s", (unsigned long long)bytes,
                 bytes == 1 ? "" : "s", seconds, rate);
    }
}

void sb_format_value(char *buf, size_t len, double value, int decimals)
{
    if (decimals == 0)
        snprintf(buf, len, "%.0f", value);
    else
        snprintf(buf, len, "%.2f", value);
}
