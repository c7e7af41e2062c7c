/*
 * workload — the interface every test implements, and the context the runner
 * hands it. This is storbench's main extension point: adding a test follows
 * the one recipe in docs/architecture.md ("Adding a test").
 *
 * A workload declares
 *   - its options (key, title, default, --quick value, allowed choices), set into an
 *     sb_config, and resolve(): the options into the test's params struct, once
 *     (sb_config_resolve), before anything runs; every other entry receives that struct;
 *   - its measures: the figures one run produces (dd produces three: direct
 *     write, direct read, read cache; most tests produce one), each with a
 *     unit and a direction;
 *   - run(): one measured run inside ctx->dir, a fresh private directory the
 *     runner creates before and removes after. It fills one sb_sample per
 *     measure, polls sb_ctx_interrupted() between operations and reports the
 *     fraction done with sb_ctx_progress(). On failure it returns a negative
 *     errno and leaves one line in ctx->err (sb_ctx_fail() does both).
 *
 * A workload never prints a report and never exits; files it makes outside
 * ctx->dir, processes it starts, it must remove/stop before returning.
 */
#ifndef SB_WORKLOAD_H
#define SB_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/histogram.h"
#include "core/progress.h"
#include "core/timeseries.h"
#include "results/result.h" /* sb_direction */

/* An allowed value of an option and how the result page shows it. */
typedef struct sb_choice {
    const char *value;   /* what the user types: "randwrite" */
    const char *display; /* what the page shows:  "Random Write" */
} sb_choice;

enum {
    SB_OPT_HIDDEN = 1u << 0,     /* not shown in a result's option line */
    SB_OPT_IF_CHANGED = 1u << 1, /* shown only when it differs from its default, so that the
                                    seed profile's own line stays as the seed printed it */
    SB_OPT_AUTO = 1u << 2,       /* a number that may also be "auto" (the test decides) */
};

/* What an option's value is. Each value is parsed once, when it is set (sb_config_init,
 * sb_config_set), into an sb_value; sb_config_check() names the first that is not what
 * its option says, so validation of values lives in one place (config.c) and run()
 * reads numbers, never strings to parse. */
typedef enum sb_val_kind {
    SB_VAL_TEXT = 0,  /* free form (the workload's own syntax: mdtest's phases=) */
    SB_VAL_IO,        /* an I/O job value, parsed by its io/options.c entry (fio, diskmark) */
    SB_VAL_CHOICE,    /* one of choices (sb_config_set checks): read with sb_config_get() */
    SB_VAL_UINT,      /* a whole number from min to max: sb_config_u() */
    SB_VAL_SIZE,      /* bytes, "4k", "1M", "2g": sb_config_u() */
    SB_VAL_DURATION,  /* "20", "20s", "500ms", "2m": sb_config_seconds() */
    SB_VAL_BOOL,      /* yes or no: sb_config_yes() */
} sb_val_kind;

typedef struct sb_option {
    const char *key;          /* command line: --option bs=4k */
    const char *title;        /* option line: "Block Size" */
    const char *def;          /* default: the seed profile's value */
    const char *quick;        /* value under --quick; NULL = same as def */
    const sb_choice *choices; /* NULL = free form; else ends with {NULL, NULL} */
    const char *help;         /* one line for `storbench list` */
    unsigned flags;
    sb_val_kind kind;         /* SB_VAL_TEXT when not given */
    uint64_t min, max;        /* SB_VAL_UINT's bounds */
} sb_option;

/* One option's value as parsed when it was set. */
typedef struct sb_value {
    bool ok;         /* what its kind says (else sb_config_check() refuses it) */
    bool is_auto;    /* "auto", for an SB_OPT_AUTO option */
    uint64_t u;      /* SB_VAL_UINT, SB_VAL_SIZE; SB_VAL_BOOL: 1 yes, 0 no */
    double seconds;  /* SB_VAL_DURATION */
} sb_value;

typedef struct sb_measure {
    const char *label;     /* appended to the option line ("Test: Direct Write"); NULL if none */
    const char *unit;      /* "MB/s", "Files/s", "Seconds", "TPS" */
    sb_direction direction;
} sb_measure;

#define SB_MAX_OPTIONS 32
#define SB_MAX_FIGURES 64

/* The largest params struct a workload's resolve fills (fio's and diskmark's: an I/O job, some
 * 16 KiB and growing with fio's options; test_registry checks every workload's fits). */
#define SB_PARAMS_MAX 32768

/* The option values of one test selection and, once sb_config_resolve() has run, the
 * params struct its workload resolved them into. */
typedef struct sb_config {
    const struct sb_workload *workload;
    const char *values[SB_MAX_OPTIONS]; /* parallel to workload->options */
    sb_value typed[SB_MAX_OPTIONS];     /* values[] parsed by their kind */
    bool set[SB_MAX_OPTIONS];           /* given by sb_config_set (-o, a suite item) */
    bool quick;
    bool resolved;                      /* params is filled (cleared by sb_config_set) */
    /* embedded, not allocated: configurations are plain values, copied and reset freely */
    _Alignas(max_align_t) unsigned char params[SB_PARAMS_MAX];
} sb_config;

/* A secondary figure of one run: IOPS, a latency percentile, bytes moved... */
typedef struct sb_figure {
    char name[32];
    char unit[16];
    double value;
} sb_figure;

/* What one run produced for one measure. */
typedef struct sb_sample {
    double value;    /* the headline figure, in the measure's unit */
    bool valid;      /* set by the workload when value was measured */
    double seconds;  /* wall-clock length of the measured part (for the 3 s rule) */
    size_t n_figures;
    sb_figure figures[SB_MAX_FIGURES];
    /* How the run went over time (tests on the I/O engine and dd); series.n == 0: none.
     * The runner stores the median run's series with the figure. */
    sb_series series;
    /* Steady state, when the run checked a criterion ("iops_slope:2%"; "" = none):
     * whether and when (seconds into the measurement) it was reached. */
    char steady[32];
    bool steady_attained;
    double steady_at_s;
    /* Under MPI (docs/mpi.md): when the measured part began and ended (sb_now_ns(); 0 =
     * unknown: it ended when run() returned), and a copy of the histogram given to
     * sb_sample_add_latency(), which the runner merges over the ranks and frees. */
    uint64_t begin_ns, end_ns;
    /* The CPUs' busy time in the measured part and its length (times the CPUs), when
     * core/cpubusy.h is enabled (the device lab's guest). A workload that knows its
     * measured window sets them (fio: the window after the ramp); when it leaves them 0
     * the runner takes the whole run(). */
    uint64_t cpu_busy_ns, cpu_window_ns;
    sb_histogram *lat;
    char lat_prefix[16];
    /* The figure of all ranks already, the same on every rank (io500 computes its phases'
     * and its score as IO500 does): the runner keeps value and figures as they are. */
    bool ranks_combined;
} sb_sample;

typedef struct sb_run_ctx {
    const char *dir;        /* fresh private directory for this run */
    const char *target;     /* the target directory the user named */
    const sb_config *cfg;
    unsigned run_index;     /* 0-based */
    unsigned run_count;     /* currently planned number of runs */
    bool is_root;
    sb_progress *progress;  /* may be NULL */
    char err[512];          /* one line when run() fails */
    /* What ran besides storbench's own code, with its version, set by run(): the linked
     * library ("SQLite 3.40.1", from sqlite3_libversion()) or the server started
     * ("PostgreSQL 15.10"). Empty when storbench alone ran. The result's title line is
     * "<software> (storbench <name>)", else "<title> (storbench <name>)". */
    char software[128];
} sb_run_ctx;

enum {
    SB_WL_WALL_CLOCK = 1u << 0, /* timed by the wall clock: a run under 3 s is not trusted */
    SB_WL_RANKS = 1u << 1,      /* runs on MPI ranks, each rank its own share (docs/mpi.md);
                                   its figures are rates, or combine as their mean */
};

typedef struct sb_workload {
    const char *name;     /* command-line name: "fio", "fs-mark" */
    const char *title;    /* the test's title, as the seed pages name it: "Flexible IO Tester" */
    /* The version of the seed profile this test reproduces ("2.1.13"): for `list` and for
     * reading seed pages only. A measured result never shows it: its title line names what
     * ran (see sb_run_ctx.software). */
    const char *version;
    const char *summary;  /* one line for `storbench list` */
    const sb_option *options;
    size_t n_options;
    const sb_measure *measures;
    size_t n_measures;
    unsigned flags;
    /* Scheduled runs at --quick when the user gave no --runs; 0 = the runner's default (3).
     * For a test whose quick run must be long to measure what the full one does, so that
     * fewer of them keep the quick suite within its minutes (dbench). */
    unsigned quick_runs;
    /* The options resolved once (docs/architecture.md, "Adding a test"): resolve turns the
     * configuration into this test's params struct (params_size bytes, at most SB_PARAMS_MAX),
     * checking every value (sb_config_check first) and what involves several options.
     * 0, or -EINVAL with one line in err. sb_config_resolve() calls it, once per configuration
     * and before anything runs; the entries below receive the struct it filled and never read
     * the configuration again. NULL (with params_size 0): a test without options to resolve. */
    size_t params_size;
    int (*resolve)(const sb_config *cfg, void *params, char *err, size_t errlen);
    /* Optional: bytes of free space a run needs on the target. */
    uint64_t (*space_needed)(const void *params);
    /* Optional: a rough length of one run in seconds, for the ETA. */
    double (*estimate_seconds)(const void *params);
    int (*run)(sb_run_ctx *ctx, const void *params, sb_sample *samples /* [n_measures] */);
    /* Optional: whether this machine has what a run needs (a loadfile, a server binary),
     * asked without running or creating anything (`list --check`, `run --require-all`).
     * 0, or -ENOTSUP with the line the run would be skipped with in why. target may be
     * NULL (no target named). */
    int (*available)(const void *params, const char *target, char *why, size_t whylen);
    /* Optional: whether this configuration produces measure m (mdtest's phases=: a phase
     * left out has no figure). NULL = every measure. The runner neither checks nor records
     * a measure that is not produced. */
    bool (*measured)(const void *params, size_t m);
} sb_workload;

/* ---- configuration access (config.c) ---- */

/* The value of an option (never NULL for a declared key; NULL for an unknown key). */
const char *sb_config_get(const sb_config *cfg, const char *key);
/* 0, or -EINVAL with one line in err naming the first option (in declaration order)
 * whose value is not what its kind says ("dd: count=x is not a whole number from 1 to
 * 4294967296"). Every workload's resolve calls it first; the typed reads below are then
 * valid. */
int sb_config_check(const sb_config *cfg, char *err, size_t errlen);
/* The parsed value of a declared option (of the kind the accessor names; 0 otherwise). */
uint64_t sb_config_u(const sb_config *cfg, const char *key);
double sb_config_seconds(const sb_config *cfg, const char *key);
bool sb_config_yes(const sb_config *cfg, const char *key);
/* Whether an SB_OPT_AUTO option is "auto". */
bool sb_config_is_auto(const sb_config *cfg, const char *key);
/* Resolves cfg's options into its workload's params struct, once (sb_workload.resolve):
 * 0, or -EINVAL with one line in err. What runs a configuration calls this first (the
 * selection's validation) and then passes sb_config_params() to the workload's entries. */
int sb_config_resolve(sb_config *cfg, char *err, size_t errlen);
/* The params struct sb_config_resolve() filled (all zero for a test without resolve). */
const void *sb_config_params(const sb_config *cfg);
/* Whether cfg is ready to run: resolved, or its workload has nothing to resolve. */
bool sb_config_is_resolved(const sb_config *cfg);
/* Defaults (or --quick values) for every option. */
void sb_config_init(sb_config *cfg, const struct sb_workload *w, bool quick);
/* Sets key=value (value must outlive cfg). -ENOENT unknown key, -EINVAL value not among choices
 * (one line in err naming the allowed values). */
int sb_config_set(sb_config *cfg, const char *key, const char *value, char *err, size_t errlen);
/* The result page's option line for a measure: "Type: Random Write - IO Engine: POSIX AIO",
 * then the measure's label; under --quick it ends in "Scale: Quick". m may be NULL (options only). */
void sb_config_describe(const sb_config *cfg, const sb_measure *m, char *buf, size_t len);
/* Whether cfg's run produces measure m (sb_workload.measured; true when it has none). */
bool sb_config_measured(const sb_config *cfg, size_t m);
/* Display string of an option's value: the choice's display, or the value itself. */
const char *sb_config_display(const sb_config *cfg, const char *key);

/* ---- helpers for run() (context.c) ---- */

/* Ctrl-C, or (under MPI) another rank failed: stop at the next operation. */
bool sb_ctx_interrupted(const sb_run_ctx *ctx);
/* Under MPI, waits until every rank reaches this point (IOR's barrier between phases);
 * at once otherwise. 0, or the failure another rank had, its line in ctx->err: return it. */
int sb_ctx_barrier(sb_run_ctx *ctx);
void sb_ctx_progress(sb_run_ctx *ctx, double fraction);
/* Tests only (STORBENCH_TEST_RANK_DELAY=R:MS): under MPI, rank R sleeps MS milliseconds
 * here, as a rank descheduled after a phase's barrier would; nothing otherwise. */
void sb_test_rank_delay(void);
/* Writes one line into ctx->err and returns -abs(err) (or -EIO when err is 0). */
int sb_ctx_fail(sb_run_ctx *ctx, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The secondary figure called name, or NULL. */
const sb_figure *sb_sample_figure(const sb_sample *s, const char *name);
/* Adds a secondary figure; silently ignored past SB_MAX_FIGURES. */
void sb_sample_add(sb_sample *s, const char *name, const char *unit, double value);
/* Adds lat_min, lat_mean, lat_stddev, lat_max and lat_p<P> for fio's percentile list, in
 * microseconds, named "<prefix>_p99" etc.; prefix is usually "lat". */
void sb_sample_add_latency(sb_sample *s, const char *prefix, const sb_histogram *h);

#endif
