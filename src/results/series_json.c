/*
 * series_json — reading and writing an entry's "series" and "steady_state"
 * (see series_json.h). A series is {"interval_s", "run", "t", "iops", "bw",
 * "lat_mean_us", "lat_p99_us"}: five arrays of one length, t the end of each
 * interval in seconds since the measurement began (each point's length is
 * the difference to the one before).
 */
#include "results/series_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const cols[] = {"t", "iops", "bw", "lat_mean_us", "lat_p99_us"};

static double *col_of(sb_series_point *p, int c)
{
    switch (c) {
    case 0: return &p->t;
    case 1: return &p->iops;
    case 2: return &p->bw;
    case 3: return &p->lat_mean_us;
    default: return &p->lat_p99_us;
    }
}

void sb_series_json_put(json_t *o, const sb_entry *e)
{
    if (!o)
        return;
    if (e->series && e->series->n) {
        json_t *s = json_object();
        json_object_set_new(s, "interval_s", json_real(e->series->interval_s));
        json_object_set_new(s, "run", json_integer(e->series_run + 1));
        for (int c = 0; c < 5; c++) {
            json_t *a = json_array();
            for (size_t i = 0; i < e->series->n; i++)
                json_array_append_new(a, json_real(*col_of(&e->series->p[i], c)));
            json_object_set_new(s, cols[c], a);
        }
        json_object_set_new(o, "series", s);
    }
    if (e->steady)
        json_object_set_new(o, "steady_state",
                            json_pack("{s:s, s:i, s:i, s:f}", "criterion", e->steady, "runs",
                                      (json_int_t)e->ss_runs, "attained", (json_int_t)e->ss_attained,
                                      "attained_s", e->ss_at_s));
}

static int get_series(json_t *js, sb_entry *e, char *field, size_t flen, const char **why)
{
    snprintf(field, flen, "series");
    if (!json_is_object(js))
        return *why = "not an object", -1;
    json_t *iv = json_object_get(js, "interval_s"), *run = json_object_get(js, "run");
    if (!json_is_number(iv) || !(json_number_value(iv) > 0))
        return snprintf(field, flen, "series.interval_s"), *why = "not a positive number", -1;
    if (run && (!json_is_integer(run) || json_integer_value(run) < 1))
        return snprintf(field, flen, "series.run"), *why = "not a run number", -1;
    size_t n = json_array_size(json_object_get(js, "t"));
    if (n > SB_SERIES_MAX)
        return snprintf(field, flen, "series.t"), *why = "more points than a series holds (1024)", -1;
    sb_series *s = calloc(1, sizeof *s);
    if (!s)
        return *why = "out of memory", -1;
    sb_series_init(s, json_number_value(iv));
    s->n = n;
    for (int c = 0; c < 5; c++) {
        json_t *a = json_object_get(js, cols[c]);
        if (!json_is_array(a) || json_array_size(a) != n) {
            free(s);
            snprintf(field, flen, "series.%s", cols[c]);
            return *why = "not an array as long as series.t", -1;
        }
        for (size_t i = 0; i < n; i++) {
            json_t *v = json_array_get(a, i);
            if (!json_is_number(v) || !isfinite(json_number_value(v))) {
                free(s);
                snprintf(field, flen, "series.%s", cols[c]);
                return *why = "holds something that is not a number", -1;
            }
            *col_of(&s->p[i], c) = json_number_value(v);
        }
    }
    for (size_t i = 0; i < n; i++)
        s->p[i].dur = s->p[i].t - (i ? s->p[i - 1].t : 0);
    sb_entry_set_series(e, s, run ? (unsigned)json_integer_value(run) - 1 : 0);
    free(s);
    return 0;
}

int sb_series_json_get(json_t *je, sb_entry *e, char *field, size_t flen, const char **why)
{
    json_t *js = json_object_get(je, "series");
    if (js && get_series(js, e, field, flen, why) < 0)
        return -1;
    json_t *ss = json_object_get(je, "steady_state");
    if (!ss)
        return 0;
    snprintf(field, flen, "steady_state");
    json_t *c = json_object_get(ss, "criterion"), *runs = json_object_get(ss, "runs"),
           *att = json_object_get(ss, "attained"), *at = json_object_get(ss, "attained_s");
    if (!json_is_object(ss) || !json_is_string(c) || !json_is_integer(runs) ||
        !json_is_integer(att) || (at && !json_is_number(at)) || json_integer_value(runs) < 0 ||
        json_integer_value(att) < 0 || json_integer_value(att) > json_integer_value(runs))
        return *why = "not {criterion, runs, attained (at most runs), attained_s}", -1;
    sb_entry_set_steady(e, json_string_value(c), (unsigned)json_integer_value(runs),
                        (unsigned)json_integer_value(att), at ? json_number_value(at) : 0);
    return 0;
}
