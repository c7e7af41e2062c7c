/*
 * steadystate — deciding that a job has settled, so that it can stop.
 *
 * fio's criteria (--steadystate=iops|iops_slope|bw|bw_slope|lat|lat_slope:LIMIT[%],
 * --ss_dur, --ss_ramp, --ss_interval), from fio's documentation and the meaning of its
 * steadystate.c: the samples are the job's IOPS, bandwidth (bytes/s) or mean completion
 * latency (ns) of each ss_interval (1 s) after ss_ramp; the window is the last
 * ss_dur / ss_interval of them (at least 2).
 * Once the window is full, after every new sample:
 *   iops, bw           deviation = the largest |sample - window mean|;
 *   iops_slope, bw_slope  slope = least-squares slope of the samples against
 *                      their index (units per second);
 * the criterion is that value, or 100 * value / window mean with a % limit,
 * and steady state is attained when |criterion| < LIMIT.
 *
 * SNIA PTS mode (--steadystate=snia, snia:bw): the run is cut into rounds of
 * ss_round seconds; the tracked variable is the round's IOPS (or bandwidth).
 * From round 5 on, the measurement window is the last 5 rounds; steady state
 * is reached when max - min of the window is at most 20 % of its average
 * and the excursion of the least-squares line across the window
 * (|slope| x 4 rounds) is at most 10 % of the average. At most 25 rounds are
 * run; after that (or when the job ends first) it is NOT ACHIEVED.
 *
 * Pure computation: the engine feeds it interval samples (sb_ss_feed) from
 * its controlling thread and stops the job when it returns true.
 */
#ifndef SB_IO_STEADYSTATE_H
#define SB_IO_STEADYSTATE_H

#include <stdbool.h>
#include <stddef.h>

typedef enum sb_ss_mode {
    SB_SS_OFF = 0,
    SB_SS_IOPS,
    SB_SS_IOPS_SLOPE,
    SB_SS_BW,
    SB_SS_BW_SLOPE,
    SB_SS_SNIA,
    SB_SS_LAT,        /* fio's lat: the largest deviation of the samples' mean latency */
    SB_SS_LAT_SLOPE,  /* fio's lat_slope */
} sb_ss_mode;

#define SB_SS_SNIA_WINDOW 5
#define SB_SS_SNIA_MAX_ROUNDS 25
#define SB_SS_MAX_DUR 86400u   /* a window of at most a day of 1 s samples */

typedef struct sb_ss_spec {
    sb_ss_mode mode;
    bool bw;          /* the tracked variable is bandwidth (bw, bw_slope, snia:bw) */
    double limit;     /* fio modes */
    bool pct;         /* limit is a percentage of the window mean */
    double dur_s;     /* fio: the window (whole seconds) */
    double ramp_s;    /* samples before this (from the measurement start) are ignored */
    double round_s;   /* snia: length of a round */
    double interval_s; /* fio's ss_interval: one sample's length; 0 = 1 s */
    bool lat;         /* the tracked variable is the mean completion latency, ns (lat, lat_slope) */
} sb_ss_spec;

/* One round of SNIA mode and, from round 5, its window's determination. */
typedef struct sb_ss_round {
    double value;            /* the round's IOPS or bytes/s */
    double end_s;            /* when it ended, seconds since the measurement began */
    bool evaluated;          /* a full window ends here */
    double avg, range, range_allowed, excursion, excursion_allowed;
    double slope, intercept; /* the fit: value = slope * round + intercept */
    bool steady;
} sb_ss_round;

typedef struct sb_ss_state {
    sb_ss_spec spec;
    /* fio modes: the window of 1 s samples */
    size_t window;           /* samples in a window */
    double *samples;         /* ring, [window] */
    size_t n_samples;        /* samples taken (after the ramp) */
    double acc_ios, acc_bytes, acc_dur, acc_start; /* the sample being gathered */
    double acc_lat_ns;       /* lat: the sum of its I/Os' latencies */
    double mean, slope, deviation, criterion;
    bool full;
    /* snia */
    sb_ss_round rounds[SB_SS_SNIA_MAX_ROUNDS];
    size_t n_rounds;
    /* outcome */
    bool attained;
    double attained_s;       /* when, seconds since the measurement began */
    bool finished;           /* snia: 25 rounds done without it */
} sb_ss_state;

/* "iops_slope:2%", "bw:10m", "snia", "snia:bw" into spec->mode/bw/limit/pct (other fields
 * untouched). 0, or -EINVAL with one line in err. */
int sb_ss_parse(const char *s, sb_ss_spec *spec, char *err, size_t errlen);
/* The spec as written: "iops_slope:2%", "snia". */
void sb_ss_describe(const sb_ss_spec *spec, char *buf, size_t len);
/* Checks the durations against the mode: 0 or -EINVAL with one line in err. */
int sb_ss_check(const sb_ss_spec *spec, char *err, size_t errlen);

/* 0 or -ENOMEM. */
int sb_ss_init(sb_ss_state *st, const sb_ss_spec *spec);
void sb_ss_free(sb_ss_state *st);
/* One interval of the job: it ended at t_end seconds after the measurement began, lasted
 * dur seconds and completed ios I/Os of bytes bytes. Returns true when the job should stop:
 * steady state attained, or (snia) the last round done. Intervals must be fed in order. */
bool sb_ss_feed(sb_ss_state *st, double t_end, double dur, double ios, double bytes);
/* The same with the interval's latency: lat_ns_sum is the sum of its I/Os' completion
 * latencies (ns), which lat and lat_slope track as the mean per sample. */
bool sb_ss_feed_lat(sb_ss_state *st, double t_end, double dur, double ios, double bytes,
                    double lat_ns_sum);
/* The window's samples, oldest first, into out[window]; returns how many (fio modes). */
size_t sb_ss_window(const sb_ss_state *st, double *out);

#endif
