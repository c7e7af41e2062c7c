/*
 * steadystate — fio's steady-state criteria and SNIA PTS's determination
 * (see steadystate.h for the definitions). Samples are rates over whole
 * intervals: the engine's log intervals are gathered until they span one
 * second (fio's ss_interval default) or one SNIA round.
 */
#include "io/log/steadystate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"

#define EPS 1e-6

static const struct {
    const char *name;
    sb_ss_mode mode;
    bool bw;
} modes[] = {
    {"iops", SB_SS_IOPS, false},
    {"iops_slope", SB_SS_IOPS_SLOPE, false},
    {"bw", SB_SS_BW, true},
    {"bw_slope", SB_SS_BW_SLOPE, true},
    {"lat", SB_SS_LAT, false},
    {"lat_slope", SB_SS_LAT_SLOPE, false},
};

/* The limit after the colon: a number with %, an IOPS count, or a bandwidth (a size per
 * second: 10m = 10 MiB/s, as fio reads it). */
static int parse_limit(const char *v, sb_ss_spec *spec, char *err, size_t errlen)
{
    size_t n = strlen(v);
    char *end;
    if (n && v[n - 1] == '%') {
        char num[64];
        if (n - 1 >= sizeof num)
            goto bad;
        memcpy(num, v, n - 1);
        num[n - 1] = '\0';
        double d = strtod(num, &end);
        if (end == num || *end || !isfinite(d) || d <= 0 || d > 1e6)
            goto bad;
        spec->limit = d;
        spec->pct = true;
        return 0;
    }
    spec->pct = false;
    if (spec->bw) {
        uint64_t b;
        if (sb_parse_size(v, &b) < 0 || b == 0)
            goto bad;
        spec->limit = (double)b;
        return 0;
    }
    double d = strtod(v, &end);
    if (end == v || *end || !isfinite(d) || d <= 0)
        goto bad;
    spec->limit = d;
    return 0;
bad:
    snprintf(err, errlen, "limit '%s' is not a positive number%s", v,
             spec->bw ? ", a bandwidth (10m) or a percentage (2%)" : " or a percentage (2%)");
    return -EINVAL;
}

int sb_ss_parse(const char *s, sb_ss_spec *spec, char *err, size_t errlen)
{
    const char *colon = strchr(s, ':');
    size_t len = colon ? (size_t)(colon - s) : strlen(s);
    spec->lat = false;
    if (len == 4 && !strncmp(s, "snia", 4)) {
        spec->mode = SB_SS_SNIA;
        spec->bw = false;
        if (colon && strcmp(colon + 1, "bw") && strcmp(colon + 1, "iops")) {
            snprintf(err, errlen, "snia tracks iops or bw, not '%s'", colon + 1);
            return -EINVAL;
        }
        spec->bw = colon && !strcmp(colon + 1, "bw");
        return 0;
    }
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (strlen(modes[i].name) == len && !strncmp(s, modes[i].name, len)) {
            spec->mode = modes[i].mode;
            spec->bw = modes[i].bw;
            spec->lat = modes[i].mode == SB_SS_LAT || modes[i].mode == SB_SS_LAT_SLOPE;
            if (!colon || !colon[1]) {
                snprintf(err, errlen, "%s needs a limit (%s:2%%)", modes[i].name,
                         modes[i].name);
                return -EINVAL;
            }
            return parse_limit(colon + 1, spec, err, errlen);
        }
    snprintf(err, errlen, "unknown criterion '%.*s' (iops, iops_slope, bw, bw_slope, lat, lat_slope, snia)",
             (int)len, s);
    return -EINVAL;
}

void sb_ss_describe(const sb_ss_spec *spec, char *buf, size_t len)
{
    if (spec->mode == SB_SS_SNIA) {
        snprintf(buf, len, "snia%s", spec->bw ? ":bw" : "");
        return;
    }
    const char *name = "off";
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (modes[i].mode == spec->mode)
            name = modes[i].name;
    if (spec->mode == SB_SS_OFF)
        snprintf(buf, len, "off");
    else
        snprintf(buf, len, "%s:%g%s", name, spec->limit, spec->pct ? "%" : "");
}

int sb_ss_check(const sb_ss_spec *spec, char *err, size_t errlen)
{
    if (spec->mode == SB_SS_OFF)
        return 0;
    if (spec->mode == SB_SS_SNIA) {
        if (spec->round_s < 1 - EPS) {
            snprintf(err, errlen, "ss_round: a SNIA round must last at least 1 s");
            return -EINVAL;
        }
        return 0;
    }
    double iv = spec->interval_s > 0 ? spec->interval_s : 1;
    if (spec->dur_s < 2 * iv - EPS || spec->dur_s > SB_SS_MAX_DUR) {
        snprintf(err, errlen, "ss_dur: the steady-state window must be 2 x ss_interval (%g s) .. "
                 "%u s (it holds one sample per ss_interval)", iv, SB_SS_MAX_DUR);
        return -EINVAL;
    }
    return 0;
}

int sb_ss_init(sb_ss_state *st, const sb_ss_spec *spec)
{
    memset(st, 0, sizeof *st);
    st->spec = *spec;
    st->acc_start = -1;
    if (spec->mode == SB_SS_OFF || spec->mode == SB_SS_SNIA)
        return 0;
    /* whole samples of ss_interval, as fio */
    st->window = (size_t)floor(spec->dur_s / (spec->interval_s > 0 ? spec->interval_s : 1) + EPS);
    st->samples = calloc(st->window, sizeof *st->samples);
    return st->samples ? 0 : -ENOMEM;
}

void sb_ss_free(sb_ss_state *st)
{
    free(st->samples);
    st->samples = NULL;
}

size_t sb_ss_window(const sb_ss_state *st, double *out)
{
    size_t n = st->n_samples < st->window ? st->n_samples : st->window;
    for (size_t i = 0; i < n; i++)
        out[i] = st->samples[(st->n_samples - n + i) % st->window];
    return n;
}

/* Least-squares fit of y[i] against x = x0 + i. */
static void fit(const double *y, size_t n, double x0, double *slope, double *intercept)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (size_t i = 0; i < n; i++) {
        double x = x0 + (double)i;
        sx += x;
        sy += y[i];
        sxx += x * x;
        sxy += x * y[i];
    }
    double d = (double)n * sxx - sx * sx;
    *slope = d != 0 ? ((double)n * sxy - sx * sy) / d : 0;
    *intercept = (sy - *slope * sx) / (double)n;
}

/* fio: one more 1 s sample; true when the criterion is met. */
static bool fio_sample(sb_ss_state *st, double v)
{
    st->samples[st->n_samples % st->window] = v;
    st->n_samples++;
    if (st->n_samples < st->window)
        return false;
    st->full = true;
    double sum = 0;
    for (size_t i = 0; i < st->window; i++)
        sum += st->samples[i];
    st->mean = sum / (double)st->window;
    double value;
    if (st->spec.mode == SB_SS_IOPS_SLOPE || st->spec.mode == SB_SS_BW_SLOPE ||
        st->spec.mode == SB_SS_LAT_SLOPE) {
        double *ord = malloc(st->window * sizeof *ord), icpt;
        if (!ord)
            return false;
        sb_ss_window(st, ord);
        fit(ord, st->window, 0, &st->slope, &icpt);
        free(ord);
        value = st->slope;
    } else {
        st->deviation = 0;
        for (size_t i = 0; i < st->window; i++) {
            double d = fabs(st->samples[i] - st->mean);
            st->deviation = d > st->deviation ? d : st->deviation;
        }
        value = st->deviation;
    }
    if (st->spec.pct) {
        if (st->mean <= 0) {
            st->criterion = INFINITY; /* nothing moved: not a steady state to stop on */
            return false;
        }
        st->criterion = 100.0 * value / st->mean;
    } else {
        st->criterion = value;
    }
    return fabs(st->criterion) < st->spec.limit;
}

/* snia: round r (0-based) is complete; evaluates its window. */
static bool snia_round(sb_ss_state *st)
{
    size_t r = st->n_rounds - 1;
    sb_ss_round *R = &st->rounds[r];
    if (st->n_rounds < SB_SS_SNIA_WINDOW)
        return false;
    double y[SB_SS_SNIA_WINDOW], lo = INFINITY, hi = -INFINITY, sum = 0;
    for (size_t i = 0; i < SB_SS_SNIA_WINDOW; i++) {
        y[i] = st->rounds[r + 1 - SB_SS_SNIA_WINDOW + i].value;
        lo = y[i] < lo ? y[i] : lo;
        hi = y[i] > hi ? y[i] : hi;
        sum += y[i];
    }
    R->evaluated = true;
    R->avg = sum / SB_SS_SNIA_WINDOW;
    R->range = hi - lo;
    R->range_allowed = 0.20 * R->avg;
    /* rounds are numbered from 1 on the report, and so is the fit's x */
    fit(y, SB_SS_SNIA_WINDOW, (double)(r + 2 - SB_SS_SNIA_WINDOW), &R->slope, &R->intercept);
    R->excursion = fabs(R->slope) * (SB_SS_SNIA_WINDOW - 1);
    R->excursion_allowed = 0.10 * R->avg;
    R->steady = R->avg > 0 && R->range <= R->range_allowed && R->excursion <= R->excursion_allowed;
    return R->steady;
}

bool sb_ss_feed(sb_ss_state *st, double t_end, double dur, double ios, double bytes)
{
    return sb_ss_feed_lat(st, t_end, dur, ios, bytes, 0);
}

bool sb_ss_feed_lat(sb_ss_state *st, double t_end, double dur, double ios, double bytes,
                    double lat_ns_sum)
{
    if (st->spec.mode == SB_SS_OFF || st->attained || st->finished || dur <= 0)
        return st->attained || st->finished;
    if (t_end - dur < st->spec.ramp_s - EPS)
        return false; /* still in ss_ramp */
    if (st->acc_start < 0)
        st->acc_start = t_end - dur;
    st->acc_ios += ios;
    st->acc_bytes += bytes;
    st->acc_lat_ns += lat_ns_sum;
    st->acc_dur += dur;
    bool snia = st->spec.mode == SB_SS_SNIA;
    double need = snia ? st->spec.round_s : st->spec.interval_s > 0 ? st->spec.interval_s : 1.0;
    if (st->acc_dur < need - 1e-3)
        return false;
    double v = (st->spec.bw ? st->acc_bytes : st->acc_ios) / st->acc_dur;
    if (st->spec.lat) /* the sample's mean latency; none completed: 0, as fio's */
        v = st->acc_ios > 0 ? st->acc_lat_ns / st->acc_ios : 0;
    st->acc_ios = st->acc_bytes = st->acc_dur = st->acc_lat_ns = 0;
    bool done;
    if (snia) {
        st->rounds[st->n_rounds].value = v;
        st->rounds[st->n_rounds].end_s = t_end;
        st->n_rounds++;
        done = snia_round(st);
        if (!done && st->n_rounds == SB_SS_SNIA_MAX_ROUNDS)
            st->finished = true;
    } else {
        done = fio_sample(st, v);
    }
    if (done) {
        st->attained = true;
        st->attained_s = t_end;
    }
    return st->attained || st->finished;
}
