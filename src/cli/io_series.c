/*
 * io_series — what `storbench io` prints about a job over time: the series
 * per log interval (JSON "series", and a sparkline with its range in the
 * text summary) and the steady-state outcome (JSON "steadystate" in the
 * manner of fio's, a line like fio's "steadystate : attained=yes ...", and
 * for SNIA mode the determination table of the PTS report).
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/io_series.h"
#include "core/units.h"
#include "report/sparkline.h"

json_t *sb_io_series_json(const sb_io_result *r)
{
    json_t *o = json_object(), *t = json_array(), *iops = json_array(), *bw = json_array(),
           *mean = json_array(), *p99 = json_array();
    const sb_series *s = r->series;
    json_object_set_new(o, "interval_s", json_real(s ? s->interval_s : 0));
    for (size_t i = 0; s && i < s->n; i++) {
        json_array_append_new(t, json_real(s->p[i].t));
        json_array_append_new(iops, json_real(s->p[i].iops));
        json_array_append_new(bw, json_real(s->p[i].bw));
        json_array_append_new(mean, json_real(s->p[i].lat_mean_us * 1e3));
        json_array_append_new(p99, json_real(s->p[i].lat_p99_us * 1e3));
    }
    json_object_set_new(o, "t_s", t);
    json_object_set_new(o, "iops", iops);
    json_object_set_new(o, "bw_bytes_per_s", bw);
    json_object_set_new(o, "lat_mean_ns", mean);
    json_object_set_new(o, "lat_p99_ns", p99);
    return o;
}

json_t *sb_io_steady_json(const sb_io_result *r)
{
    const sb_ss_state *st = &r->steady;
    if (st->spec.mode == SB_SS_OFF)
        return NULL;
    json_t *o = json_object();
    char crit[64];
    sb_ss_describe(&st->spec, crit, sizeof crit);
    json_object_set_new(o, "ss", json_string(crit));
    json_object_set_new(o, "attained", json_boolean(st->attained));
    json_object_set_new(o, "attained_s", st->attained ? json_real(st->attained_s) : json_null());
    json_object_set_new(o, "ramp_s", json_real(st->spec.ramp_s));
    if (st->spec.mode == SB_SS_SNIA) {
        json_t *rounds = json_array();
        json_object_set_new(o, "round_s", json_real(st->spec.round_s));
        for (size_t i = 0; i < st->n_rounds; i++) {
            const sb_ss_round *R = &st->rounds[i];
            json_t *ro = json_pack("{s:i, s:f, s:f}", "round", (json_int_t)i + 1, "value", R->value,
                                   "end_s", R->end_s);
            if (R->evaluated) {
                json_object_set_new(ro, "window_avg", json_real(R->avg));
                json_object_set_new(ro, "range", json_real(R->range));
                json_object_set_new(ro, "range_allowed", json_real(R->range_allowed));
                json_object_set_new(ro, "slope", json_real(R->slope));
                json_object_set_new(ro, "excursion", json_real(R->excursion));
                json_object_set_new(ro, "excursion_allowed", json_real(R->excursion_allowed));
                json_object_set_new(ro, "steady", json_boolean(R->steady));
            }
            json_array_append_new(rounds, ro);
        }
        json_object_set_new(o, "rounds", rounds);
        return o;
    }
    json_object_set_new(o, "duration_s", json_real(st->spec.dur_s));
    json_object_set_new(o, "criterion", st->full ? json_real(st->criterion) : json_null());
    json_object_set_new(o, "criterion_unit", json_string(st->spec.pct ? "%" : st->spec.bw ? "B/s" : st->spec.lat ? "ns" : "IOPS"));
    json_object_set_new(o, "window_mean", st->full ? json_real(st->mean) : json_null());
    json_object_set_new(o, "slope", json_real(st->slope));
    json_object_set_new(o, "max_deviation", json_real(st->deviation));
    double *w = malloc((st->window ? st->window : 1) * sizeof *w);
    json_t *data = json_array();
    size_t n = w ? sb_ss_window(st, w) : 0;
    for (size_t i = 0; i < n; i++)
        json_array_append_new(data, json_real(w[i]));
    free(w);
    json_object_set_new(o, st->spec.bw ? "bw_bytes_per_s" : st->spec.lat ? "lat_ns" : "iops", data);
    return o;
}

void sb_io_print_series(FILE *out, const sb_io_result *r)
{
    const sb_series *s = r->series;
    double lo, mean, hi;
    if (!s || !sb_series_range(s, 1, &lo, &mean, &hi))
        return;
    char a[32], b[32], c[32];
    sb_format_iec(a, sizeof a, lo, "B/s");
    sb_format_iec(b, sizeof b, hi, "B/s");
    sb_format_iec(c, sizeof c, mean, "B/s");
    fprintf(out, "  bw per %g s: min=%s, max=%s, avg=%s, samples=%zu\n", s->interval_s, a, b, c, s->n);
    double *v = malloc(s->n * sizeof *v);
    if (!v)
        return;
    for (size_t i = 0; i < s->n; i++)
        v[i] = s->p[i].bw;
    char line[4 * 64 + 1];
    sb_sparkline(line, sizeof line, v, s->n, 64);
    fprintf(out, "  over time: %s\n", line);
    free(v);
}

/* The PTS report's determination: one row per round, and the window's figures from round 5. */
static void print_snia(FILE *out, const sb_ss_state *st)
{
    const char *unit = st->spec.bw ? "MB/s" : st->spec.lat ? "ns" : "IOPS";
    double k = st->spec.bw ? 1e6 : 1;
    fprintf(out, "  SNIA PTS steady state (%s, rounds of %g s, window of %d rounds)\n", unit,
            st->spec.round_s, SB_SS_SNIA_WINDOW);
    fprintf(out, "    %5s %12s %12s %12s %12s %12s %12s %s\n", "round", unit, "window avg",
            "range max", "range", "excurs max", "excursion", "steady");
    for (size_t i = 0; i < st->n_rounds; i++) {
        const sb_ss_round *R = &st->rounds[i];
        if (!R->evaluated) {
            fprintf(out, "    %5zu %12.1f\n", i + 1, R->value / k);
            continue;
        }
        fprintf(out, "    %5zu %12.1f %12.1f %12.1f %12.1f %12.1f %12.1f %s\n", i + 1, R->value / k,
                R->avg / k, R->range_allowed / k, R->range / k, R->excursion_allowed / k,
                R->excursion / k, R->steady ? "yes" : "no");
    }
    if (st->attained) {
        const sb_ss_round *R = &st->rounds[st->n_rounds - 1];
        fprintf(out, "  steady state reached at round %zu (window rounds %zu-%zu; fit: %s = %.4g x "
                "round + %.4g)\n", st->n_rounds, st->n_rounds + 1 - SB_SS_SNIA_WINDOW, st->n_rounds,
                unit, R->slope / k, R->intercept / k);
    } else {
        fprintf(out, "  steady state: NOT ACHIEVED (%zu round%s%s)\n", st->n_rounds,
                st->n_rounds == 1 ? "" : "s", st->finished ? ", the most PTS allows" : ", the job ended");
    }
}

void sb_io_print_steady(FILE *out, const sb_io_result *r)
{
    const sb_ss_state *st = &r->steady;
    if (st->spec.mode == SB_SS_OFF)
        return;
    if (st->spec.mode == SB_SS_SNIA) {
        print_snia(out, st);
        return;
    }
    char crit[64];
    sb_ss_describe(&st->spec, crit, sizeof crit);
    bool slope = st->spec.mode == SB_SS_IOPS_SLOPE || st->spec.mode == SB_SS_BW_SLOPE ||
                 st->spec.mode == SB_SS_LAT_SLOPE;
    fprintf(out, "  steadystate: attained=%s", st->attained ? "yes" : "no");
    if (st->attained)
        fprintf(out, " at %.1f s", st->attained_s);
    if (st->full)
        fprintf(out, ", %s mean=%.6g, %s=%.6g%s (limit %s)\n",
                st->spec.bw ? "bw" : st->spec.lat ? "lat_ns" : "iops", st->mean,
                slope ? "slope" : "mean dev", st->criterion, st->spec.pct ? "%" : "", crit);
    else
        fprintf(out, " (the window of %g s never filled; limit %s)\n", st->spec.dur_s, crit);
}
