/*
 * distribution — see distribution.h.
 */
#include "io/loop/distribution.h"

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"

/* ------------------------------------------------------------ the option */

static int parse_zones(const char *v, bool abs, unsigned kb_base, sb_io_dist *d, char *err, size_t errlen)
{
    char buf[512], *save = NULL;
    double pct_sum = 0, size_sum = 0;
    unsigned bare = 0;
    if (strlen(v) >= sizeof buf) {
        snprintf(err, errlen, "too long");
        return -EINVAL;
    }
    strcpy(buf, v);
    d->nzones = 0;
    for (char *e = strtok_r(buf, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
        char *slash = strchr(e, '/'), *end;
        if (!slash || d->nzones == SB_DIST_MAX_ZONES) {
            snprintf(err, errlen, "'%s' is not a list of at most %d PCT/SIZE zones (50/5:50/95)", v,
                     SB_DIST_MAX_ZONES);
            return -EINVAL;
        }
        *slash = '\0';
        double pct = strtod(e, &end);
        if (end == e || *end || pct < 0 || pct > 100) {
            snprintf(err, errlen, "'%s': '%s' is not a percentage of the accesses", v, e);
            return -EINVAL;
        }
        double size = -1;
        const char *s = slash + 1;
        if (*s && abs) {
            uint64_t u;
            if (sb_parse_size_kb(s, kb_base, &u) < 0 || !u) {
                snprintf(err, errlen, "'%s': '%s' is not a size", v, s);
                return -EINVAL;
            }
            size = (double)u;
        } else if (*s) {
            size = strtod(s, &end);
            if (end == s || (*end && strcmp(end, "%")) || size <= 0 || size > 100) {
                snprintf(err, errlen, "'%s': '%s' is not a percentage of the region", v, s);
                return -EINVAL;
            }
        } else if (abs) {
            snprintf(err, errlen, "'%s': zoned_abs needs every zone's size", v);
            return -EINVAL;
        }
        d->zone_pct[d->nzones] = pct;
        d->zone_size[d->nzones] = size;
        pct_sum += pct;
        if (size < 0)
            bare++;
        else
            size_sum += size;
        d->nzones++;
    }
    if (!d->nzones || fabs(pct_sum - 100) > 1e-6) {
        snprintf(err, errlen, "'%s': the accesses come to %g %%, not 100", v, pct_sum);
        return -EINVAL;
    }
    if (!abs) {
        /* fio: a zone without a size takes what the others leave */
        if (size_sum > 100 + 1e-6 || (!bare && fabs(size_sum - 100) > 1e-6)) {
            snprintf(err, errlen, "'%s': the zones come to %g %% of the region, not 100", v, size_sum);
            return -EINVAL;
        }
        for (unsigned i = 0; i < d->nzones; i++)
            if (d->zone_size[i] < 0)
                d->zone_size[i] = (100 - size_sum) / bare;
    }
    return 0;
}

/* fio's sequence:B,B,...: block indices (up to 64), each a number. */
static int parse_sequence(const char *v, sb_io_dist *d, char *err, size_t errlen)
{
    const char *p = v + 9;
    d->kind = SB_DIST_SEQUENCE;
    while (*p) {
        char *end;
        errno = 0;
        unsigned long long b = strtoull(p, &end, 10);
        if (end == p || errno || b > UINT32_MAX || (*end && *end != ',') ||
            d->nseq == SB_DIST_MAX_SEQ || *p == '-') {
            snprintf(err, errlen, "'%s' is not sequence: and up to %d block indices (sequence:2,0,1)",
                     v, SB_DIST_MAX_SEQ);
            return -EINVAL;
        }
        d->seq[d->nseq++] = (uint32_t)b;
        p = *end ? end + 1 : end;
    }
    if (!d->nseq) {
        snprintf(err, errlen, "'%s': the sequence is empty", v);
        return -EINVAL;
    }
    return 0;
}

int sb_dist_parse(const char *v, unsigned kb_base, sb_io_dist *d, char *err, size_t errlen)
{
    static const struct { const char *name; sb_dist_kind kind; double lo, hi; } k[] = {
        {"zipf", SB_DIST_ZIPF, 0, 0}, {"pareto", SB_DIST_PARETO, 0, 1}, {"normal", SB_DIST_NORMAL, 0, 100},
    };
    bool stride = d->seq_stride; /* random_sequence_stride's own */
    memset(d, 0, sizeof *d);
    d->seq_stride = stride;
    if (!strcmp(v, "random"))
        return 0;
    if (!strncmp(v, "sequence:", 9))
        return parse_sequence(v, d, err, errlen);
    if (strchr(v, ',')) {
        snprintf(err, errlen, "'%s': separate read,write distributions are not supported", v);
        return -EINVAL;
    }
    if (!strncmp(v, "zoned:", 6) || !strncmp(v, "zoned_abs:", 10)) {
        bool abs = v[5] == '_';
        d->kind = abs ? SB_DIST_ZONED_ABS : SB_DIST_ZONED;
        return parse_zones(v + (abs ? 10 : 6), abs, kb_base, d, err, errlen);
    }
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        size_t n = strlen(k[i].name);
        if (strncmp(v, k[i].name, n) || v[n] != ':')
            continue;
        char *end;
        double p = strtod(v + n + 1, &end);
        /* zipf: theta > 0, not 1 (fio refuses 1 too); pareto: 0 < h < 1; normal: dev % */
        bool bad = end == v + n + 1 || *end || p <= k[i].lo || (k[i].hi > 0 && p >= k[i].hi) ||
                   (k[i].kind == SB_DIST_ZIPF && p == 1.0);
        if (bad) {
            snprintf(err, errlen, "'%s': %s", v, *end == ':' ? "a centre is not supported" :
                     k[i].kind == SB_DIST_ZIPF ? "theta must be above 0 and not 1" :
                     k[i].kind == SB_DIST_PARETO ? "h must be between 0 and 1" :
                     "the deviation must be between 0 and 100 %");
            return -EINVAL;
        }
        d->kind = k[i].kind;
        d->param = p;
        return 0;
    }
    snprintf(err, errlen, "'%s' is not random, zipf:THETA, pareto:H, normal:DEV, zoned:... or "
             "zoned_abs:...", v);
    return -EINVAL;
}

void sb_dist_name(const sb_io_dist *d, char *out, size_t len)
{
    static const char *const names[] = {"random", "zipf", "pareto", "normal", "zoned", "zoned_abs",
                                        "sequence"};
    int n = snprintf(out, len, "%s", names[d->kind]);
    for (unsigned i = 0; i < d->nseq && n > 0 && (size_t)n < len; i++)
        n += snprintf(out + n, len - (size_t)n, "%c%u", i ? ',' : ':', d->seq[i]);
    if (d->kind == SB_DIST_ZIPF || d->kind == SB_DIST_PARETO || d->kind == SB_DIST_NORMAL)
        snprintf(out + n, len - (size_t)n, ":%g", d->param);
    for (unsigned i = 0; i < d->nzones && n > 0 && (size_t)n < len; i++)
        n += snprintf(out + n, len - (size_t)n, ":%g/%g%s", d->zone_pct[i],
                      d->zone_size[i], d->kind == SB_DIST_ZONED ? "%" : "");
}

/* ------------------------------------------------------------ the generator */

/* zipf, rejection-inversion: H(x) is the integral of h(x) = x^-q. */
static double helper1(double x) { return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x / 2; }
static double helper2(double x) { return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x / 2; }
static double zh(double q, double x) { return exp(-q * log(x)); }
static double zH(double q, double x) { double l = log(x); return helper2((1 - q) * l) * l; }
static double zHinv(double q, double x)
{
    double t = x * (1 - q);
    if (t < -1)
        t = -1; /* rounding at the end of the domain */
    return exp(helper1(t) * x);
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

void sb_distgen_init(sb_distgen *g, const sb_io_dist *d, uint64_t nblocks, uint64_t bs, uint64_t seed)
{
    memset(g, 0, sizeof *g);
    g->kind = d->kind;
    g->n = nblocks ? nblocks : 1;
    sb_rand r;
    sb_rand_seed(&r, seed ^ 0x5a17c3d2e1f0b4a9ull);
    /* the rank -> block bijection: a multiplier prime to n, near n times the golden ratio */
    g->mul = g->n > 1 ? (uint64_t)((double)g->n * 0.6180339887) | 1 : 1;
    while (g->n > 1 && gcd(g->mul, g->n) != 1)
        g->mul += 2;
    g->add = sb_rand_below(&r, g->n);
    switch (d->kind) {
    case SB_DIST_ZIPF:
        g->q = d->param;
        g->hx1 = zH(g->q, 1.5) - 1;
        g->hn = zH(g->q, (double)g->n + 0.5);
        g->s = 2 - zHinv(g->q, zH(g->q, 2.5) - zh(g->q, 2));
        break;
    case SB_DIST_PARETO:
        g->q = log(d->param) / log(1 - d->param);
        break;
    case SB_DIST_NORMAL:
        g->sigma = d->param / 100 * (double)g->n;
        break;
    case SB_DIST_ZONED:
    case SB_DIST_ZONED_ABS: {
        double cum = 0;
        uint64_t at = 0;
        g->nzones = d->nzones;
        for (unsigned i = 0; i < d->nzones; i++) {
            cum += d->zone_pct[i] / 100;
            g->zone_cum[i] = cum;
            g->zone_start[i] = at;
            double blocks = d->kind == SB_DIST_ZONED ? d->zone_size[i] / 100 * (double)g->n
                                                     : d->zone_size[i] / (double)bs;
            at += (uint64_t)(blocks + 0.5);
            if (at > g->n)
                at = g->n; /* zoned_abs beyond the region: cut at its end */
        }
        g->zone_start[d->nzones] = d->kind == SB_DIST_ZONED ? g->n : at;
        g->zone_cum[d->nzones - 1] = 1;
        break;
    }
    case SB_DIST_SEQUENCE:
        g->spec = d;
        break;
    case SB_DIST_RANDOM:
        break;
    }
}

static uint64_t spread(const sb_distgen *g, uint64_t rank)
{
    return (uint64_t)(((unsigned __int128)rank * g->mul + g->add) % g->n);
}

static uint64_t zipf_next(sb_distgen *g, sb_rand *rng)
{
    for (;;) {
        double u = g->hn + sb_rand_double(rng) * (g->hx1 - g->hn);
        double x = zHinv(g->q, u);
        double k = floor(x + 0.5);
        if (k < 1)
            k = 1;
        else if (k > (double)g->n)
            k = (double)g->n;
        if (k - x <= g->s || u >= zH(g->q, k + 0.5) - zh(g->q, k))
            return (uint64_t)k - 1;
    }
}

uint64_t sb_distgen_next(sb_distgen *g, sb_rand *rng)
{
    switch (g->kind) {
    case SB_DIST_ZIPF:
        return spread(g, zipf_next(g, rng));
    case SB_DIST_PARETO: {
        uint64_t r = (uint64_t)((double)g->n * pow(sb_rand_double(rng), g->q));
        return spread(g, r < g->n ? r : g->n - 1);
    }
    case SB_DIST_NORMAL:
        for (;;) {
            /* Box-Muller; a draw outside the region is drawn again */
            double u1 = sb_rand_double(rng), u2 = sb_rand_double(rng);
            double z = sqrt(-2 * log(u1 > 0 ? u1 : 1e-300)) * cos(2 * M_PI * u2);
            double x = (double)g->n / 2 + z * g->sigma;
            if (x >= 0 && x < (double)g->n)
                return spread(g, (uint64_t)x);
        }
    case SB_DIST_ZONED:
    case SB_DIST_ZONED_ABS: {
        double u = sb_rand_double(rng);
        unsigned i = 0;
        while (i + 1 < g->nzones && u >= g->zone_cum[i])
            i++;
        uint64_t lo = g->zone_start[i], hi = g->zone_start[i + 1];
        return hi > lo ? lo + sb_rand_below(rng, hi - lo) : (lo < g->n ? lo : g->n - 1);
    }
    case SB_DIST_SEQUENCE: { /* fio's: the draw's place in the list, and with stride its cycle */
        const sb_io_dist *d = g->spec;
        uint64_t k = g->draws++, b = d->seq[k % d->nseq];
        if (d->seq_stride)
            b += k / d->nseq * d->nseq;
        if (b >= g->n) { /* the strided cycles reached the region's end: from the start */
            g->draws = 1;
            b = d->seq[0];
        }
        return b < g->n ? b : g->n - 1;
    }
    case SB_DIST_RANDOM:
        break;
    }
    return sb_rand_below(rng, g->n);
}
