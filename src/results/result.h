/*
 * result — the in-memory model of a result file: one comparison holding
 * several systems ("identifiers") and, per test configuration, each
 * identifier's figure. resultfile.c reads and writes it as JSON
 * (docs/result-format.md); formats/text_import.c builds it from a seed-format page;
 * the report/ renderers only read it.
 *
 * Ownership: every string and array inside is heap-allocated and owned by
 * the containing object; sb_resultfile_free() releases everything. Setters
 * copy their arguments.
 */
#ifndef SB_RESULT_H
#define SB_RESULT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/timeseries.h"

#define SB_RESULT_SCHEMA_VERSION 1

/* Which way a figure is better: the page prints "> Higher Is Better" or "< Lower Is Better".
 * Defined here, with the figures it qualifies; workloads declare their measures with it. */
typedef enum sb_direction {
    SB_HIGHER_IS_BETTER = 0,
    SB_LOWER_IS_BETTER = 1,
} sb_direction;

typedef struct sb_kv {
    char *key;
    char *value;
} sb_kv;

/* An ordered list of key/value strings ("Processor" -> "Intel Core i7 ..."). */
typedef struct sb_kvlist {
    sb_kv *items;
    size_t n;
} sb_kvlist;

typedef struct sb_system {
    char *identifier;
    sb_kvlist hardware;  /* Processor, Motherboard, Chipset, Memory, Disk, ... (page order) */
    sb_kvlist software;  /* OS, Kernel, Compiler, File-System, ... */
    sb_kvlist storage;   /* Target, Block Device, Scheduler, Rotational, Mount Options, layout ... */
    char *timestamp;     /* ISO 8601 UTC, "" when unknown (imported pages) */
    char *tool_version;  /* storbench version, or "imported" */
    char *extra;         /* keys this version does not know, as a JSON object text (or NULL) */
} sb_system;

typedef struct sb_secondary {
    char *name;   /* "iops", "lat_p99" ... */
    char *unit;   /* "IOPS", "us" ... */
    double value; /* mean over the runs */
} sb_secondary;

/* entries[].host_bound.reference of a figure marked by the lab's vCPU busy share (no twin) */
#define SB_HOST_BOUND_BUSY_REF "vcpu busy"

/* One identifier's figure for one result. */
typedef struct sb_entry {
    char *identifier;
    double mean;
    double sd;           /* sample standard deviation of the runs (0 if unknown) */
    double se;           /* standard error */
    size_t n_values;     /* raw run values; 0 for imported figures */
    double *values;
    size_t n_runs;       /* runs behind sd/se when their values are not kept (a page's
                            "SE +/- x, N = n"); 0 otherwise. sb_entry_runs() is N either way */
    int decimals;        /* digits after the point on the page: 2, or 0 when every run was an integer */
    size_t n_secondary;
    sb_secondary *secondary;
    bool untrusted;      /* some run was shorter than the 3 s a wall-clock figure needs */
    /* Host-bound (a modeled device's figure, docs/devices.md): the same test in the same
     * configuration on device-model = ram did no better than 20 % beyond it, so the host,
     * not the model, bounds it. host_ref is that ram figure. */
    bool host_bound;
    double host_ref;     /* NAN when the mark is the lab's vCPU busy share's, not a twin's */
    /* The device lab's vCPU (docs/scenarios.md, "Virtual time"): the percentage of the
     * measured windows' virtual time it was busy, over the runs (entries[].vcpu_busy_pct);
     * has_cpu_busy false when not measured (outside the lab). */
    bool has_cpu_busy;
    double cpu_busy_pct;
    bool imported;       /* read from a text page (`import`), not measured into this file */
    char *source;        /* the title line of what produced the figure: "SQLite 3.40.1
                            (storbench sqlite)" when measured, the page's "SQLite 3.8.10.2"
                            when imported; NULL = the result's title and version (old files) */
    char *extra;         /* unknown keys, kept through a rewrite (see sb_system.extra) */
    /* How one run behaved over time (per-interval IOPS, bandwidth, latency): the run whose
     * value is the median of the runs; NULL when the test records none (older files). Allocated
     * for its n points only: read it, never add to it. */
    sb_series *series;
    unsigned series_run; /* which run it is, 0-based */
    /* Steady state (io jobs with a --steadystate criterion): the criterion, how many runs
     * checked it and how many reached it, and the mean time at which they did. */
    char *steady;        /* "iops_slope:2%", NULL when none was asked for */
    unsigned ss_runs, ss_attained;
    double ss_at_s;
} sb_entry;

/* A result is one chart: one test with one set of options, every identifier's figure for
 * it. Figures measured by storbench and figures imported from a seed page join one chart
 * when test, option line, unit and direction agree; each entry says where it came from. */
typedef struct sb_result {
    char *test;          /* workload name ("fio"); "" for an imported result with no known test */
    char *title;         /* the test's title: "Flexible IO Tester" (the chart's title when its
                            figures come from more than one source) */
    char *version;       /* the version of the page the result was first read from ("2.1.13");
                            "" for a measured result (each entry's source names what ran) */
    char *description;   /* the option line */
    char *unit;          /* "MB/s" */
    sb_direction direction;
    sb_kvlist options;   /* resolved option values, key -> value */
    size_t n_entries;
    sb_entry *entries;
    char *extra;         /* unknown keys, kept through a rewrite (see sb_system.extra) */
    struct sb_strmap *entry_index; /* result.c's lookup index (identifier -> entry); internal */
    size_t same_key_prev;          /* result.c's index chain (1-based, 0 = none); internal */
} sb_result;

typedef struct sb_resultfile {
    char *title;
    char *description;
    size_t n_systems;
    sb_system *systems;
    size_t n_results;
    sb_result *results;
    char *extra;         /* unknown top-level keys, kept through a rewrite */
    /* result.c's lookup indexes (identifier -> system, result key -> result), built once a
     * file is large, so that a page of thousands of rows imports in linear time. Internal:
     * whoever changes the arrays other than through these functions must not. */
    struct sb_strmap *system_index, *result_index;
} sb_resultfile;

/* ---- model (result.c) ---- */
void sb_kvlist_add(sb_kvlist *l, const char *key, const char *value);
/* Replaces the value of key, or appends it. */
void sb_kvlist_set(sb_kvlist *l, const char *key, const char *value);
const char *sb_kvlist_get(const sb_kvlist *l, const char *key);
void sb_kvlist_free(sb_kvlist *l);

void sb_resultfile_init(sb_resultfile *rf);
void sb_resultfile_free(sb_resultfile *rf);
void sb_resultfile_set_title(sb_resultfile *rf, const char *title, const char *description);

sb_system *sb_resultfile_find_system(const sb_resultfile *rf, const char *identifier);
/* Appends an empty system with this identifier (the caller checked it is new). */
sb_system *sb_resultfile_add_system(sb_resultfile *rf, const char *identifier);
/* Renames a system and its entries (nothing when rf has no such identifier; the caller
 * checked that to is new). */
void sb_resultfile_rename_identifier(sb_resultfile *rf, const char *from, const char *to);
/* Removes the system and all of its entries. */
void sb_resultfile_remove_identifier(sb_resultfile *rf, const char *identifier);

/* Finds the result for this test configuration, or appends a new one. Two results are the
 * same chart when test (or, when either test is "", title), description (the option line,
 * its override part aside: sb_option_line_base),
 * unit and direction agree and no option key both know has different values; options may
 * be NULL (unknown: imported). A new result copies options. */
sb_result *sb_resultfile_get_result_opts(sb_resultfile *rf, const char *test, const char *title,
                                         const char *version, const char *description,
                                         const char *unit, sb_direction direction,
                                         const sb_kvlist *options);
/* The length of option line d without its override part: the trailing
 * " (size=64m, runtime=1)" that names the hidden options a run set away from their
 * defaults (workloads/config.c, sb_config_describe). Charts are found by that base, so a
 * short run still joins a seed page's chart; d's length when it has no such part. */
size_t sb_option_line_base(const char *d);
/* Appends a new result (no lookup). */
sb_result *sb_resultfile_add_result(sb_resultfile *rf, const char *test, const char *title,
                                    const char *version, const char *description,
                                    const char *unit, sb_direction direction,
                                    const sb_kvlist *options);
/* The same as sb_resultfile_get_result_opts() with no options known. */
sb_result *sb_resultfile_get_result(sb_resultfile *rf, const char *test, const char *title,
                                    const char *version, const char *description,
                                    const char *unit, sb_direction direction);
/* The title line of a figure storbench measured: "<product> (storbench <test>)", where
 * product is what ran ("SQLite 3.40.1", "PostgreSQL 15.10") or, when storbench's own code
 * alone ran, the test's title ("Flexible IO Tester (storbench fio)"). */
void sb_measured_source(char *buf, size_t len, const char *product, const char *title,
                        const char *test);
/* The entry's source (its own, else "<title> <version>" of the result). */
const char *sb_entry_source(const sb_result *r, const sb_entry *e, char *buf, size_t len);
void sb_entry_set_source(sb_entry *e, const char *source, bool imported);
/* The sources of a chart's rows: group[i] (0-based) of order[i], by (imported, source) in
 * order of first appearance. Returns the number of groups (0 when n is 0). The page marks
 * rows only when there is more than one. */
size_t sb_result_source_groups(const sb_result *r, const sb_entry *const *order, size_t n,
                               size_t *group);
/* The chart's title line: the common source of its figures; the test's title alone when
 * they come from several (rows are then marked); title and version when it has none. */
void sb_result_title_line(const sb_result *r, char *buf, size_t len);
sb_entry *sb_result_find_entry(const sb_result *r, const char *identifier);
/* Appends an entry (the caller checked it is new). */
sb_entry *sb_result_add_entry(sb_result *r, const char *identifier);
/* Whether e's spread is known: there were runs to compute it from, or a file gave one. */
bool sb_entry_se_known(const sb_entry *e);
/* How many runs the figure is the mean of: its values, else what a page said (0: unknown). */
static inline size_t sb_entry_runs(const sb_entry *e)
{
    return e->n_values ? e->n_values : e->n_runs;
}
/* Fills mean/sd/se/decimals from raw run values (copied). */
void sb_entry_set_values(sb_entry *e, const double *values, size_t n);
void sb_entry_add_secondary(sb_entry *e, const char *name, const char *unit, double value);
/* Replaces the entry's series with a copy of s (NULL or empty: none). */
void sb_entry_set_series(sb_entry *e, const sb_series *s, unsigned run);
/* Records the steady-state outcome (criterion NULL: none). */
void sb_entry_set_steady(sb_entry *e, const char *criterion, unsigned runs, unsigned attained,
                         double at_s);
/* Records the CPU busy share of the measured windows (percent, clamped to 0..100, to 0.01). */
void sb_entry_set_cpu_busy(sb_entry *e, double pct);
/* True when a criterion was asked for and some run ended without reaching it. */
static inline bool sb_entry_unsteady(const sb_entry *e)
{
    return e->steady && e->ss_attained < e->ss_runs;
}

/* Replaces control characters in every string of rf (core/printable.h), for the text
 * outputs; the file on disk is not touched. */
void sb_resultfile_make_printable(sb_resultfile *rf);

/* Copies every system of src and its entries into dst. An identifier already in dst is an
 * error (-EEXIST, message in err) unless replace, in which case dst's description and
 * figures are replaced, keeping its place in the system order. */
int sb_resultfile_merge(sb_resultfile *dst, const sb_resultfile *src, bool replace,
                        char *err, size_t errlen);
/* How `run` and `scenario run` add what they measured (docs/result-format.md, "Adding to an
 * identifier"): per figure, not per identifier. An identifier dst has already keeps its other
 * figures and takes src's system description; a figure for a chart (test, option line, unit,
 * direction, options: sb_resultfile_get_result_opts) in which dst has one for that identifier
 * is refused (-EEXIST, one line in err, dst unchanged) unless replace, which replaces that
 * figure alone. */
int sb_resultfile_merge_figures(sb_resultfile *dst, const sb_resultfile *src, bool replace,
                                char *err, size_t errlen);

/* ---- files (resultfile.c) ---- */

/* The directory results live in: $XDG_DATA_HOME/storbench/results or
 * ~/.local/share/storbench/results, unless override is non-NULL. */
int sb_results_dir(const char *override, char *out, size_t len);
/* NAME -> path: a NAME with a '/' is a path; otherwise <results dir>/NAME.json (".json" is
 * not doubled when NAME already ends in it). -EINVAL for an empty name, "." or "..", or one
 * with a control character; -ENOENT when neither XDG_DATA_HOME nor HOME is set. */
int sb_result_path(const char *name, const char *results_dir_override, char *out, size_t len);
/* 0; -ENOENT missing; -EINVAL not JSON or not a result file (err names the bad field);
 * -EISDIR a directory; -EPROTO unknown schema version. One line in err. Keys this version
 * does not know are kept (the extra fields) and written back by sb_resultfile_save(). */
int sb_resultfile_load(const char *path, sb_resultfile *rf, char *err, size_t errlen);
/* The same from text in memory; name stands for the file in err. */
int sb_resultfile_parse(const char *text, size_t len, const char *name, sb_resultfile *rf,
                        char *err, size_t errlen);
/* Atomic (core/atomicfile.h): a symlink is followed, mode and owner are kept, and a failure
 * (ENOSPC, EIO, EROFS ...) leaves the old file intact. -EILSEQ when a string is not valid
 * UTF-8 (JSON cannot hold it): nothing is written. */
int sb_resultfile_save(const char *path, const sb_resultfile *rf, char *err, size_t errlen);
/* JSON text of the whole file (caller frees), for `show --format json`; NULL when a string
 * is not valid UTF-8 (or out of memory). */
char *sb_resultfile_to_json(const sb_resultfile *rf);
/* NULL when every string of rf is valid UTF-8, else a description of the first that is not
 * ("identifier of system 2"), in a static buffer. */
const char *sb_resultfile_invalid_utf8(const sb_resultfile *rf);
/* Is s valid UTF-8 (what JSON, and so a result file, can hold)? */
bool sb_utf8_valid(const char *s);
/* Offset of the first byte of s[0..len) that is not valid UTF-8, or len. */
size_t sb_utf8_check(const char *s, size_t len);

#endif
