/*
 * options — the one declarative table of I/O job options, in the manner of
 * fio's `struct fio_option` table and git's parse-options arrays (the rows: table.c):
 * an entry per option with its name (fio's spelling), aliases, value type,
 * the field of sb_io_job it sets (an offset), bounds, the default as shown,
 * help text and a category. The same entries parse `storbench io`'s command
 * line, print its usage and `--cmdhelp` (from which the man page's and
 * docs/io.md's option lists are generated), and parse the values the fio and
 * diskmark workloads take with `-o KEY=VALUE`, and fio's job files (jobfile.c).
 *
 * Parsing writes one line naming the option as the caller spelled it
 * ("iodepth: '5000' is not in 1 .. 1024"), never a command-line spelling: the
 * caller adds its own context ("io: ", "fio: ", a job file's line).
 *
 * Adding an option: the recipe in docs/architecture.md ("Adding an io option").
 *
 * Types: the value syntax of fio, as far as storbench needs it now. A new
 * type is one enumerator, one case in sb_opt_parse() (parse.c) and one in
 * the type's name for --cmdhelp (doc.c). fio's range (`4k-64k`), split
 * (`4k/50:64k/50`), percentage and `:`-separated list types, each with a field
 * type of its own in the job.
 */
#ifndef SB_IO_OPTIONS_H
#define SB_IO_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/units.h"

typedef enum sb_opt_type {
    SB_OPT_STR,      /* text into a char[size] field */
    SB_OPT_INT,      /* decimal unsigned integer into an unsigned or uint64_t field */
    SB_OPT_BOOL,     /* 0|1, yes|no, true|false, on|off (fio's forms) into a bool or int */
    SB_OPT_SIZE,     /* 4k, 1m, 2g, 16MiB: a size in bytes (kb_base rules below), uint64_t */
    SB_OPT_DURATION, /* 20, 20s, 500ms, 250us, 2m, 1h: seconds, into a double */
    SB_OPT_CHOICE,   /* one of the entry's choices, its value into an int (or enum) field */
    SB_OPT_FUNC,     /* parsed by the entry's function (steady-state criteria, CPU lists) */
    SB_OPT_RANGE,    /* fio's 4k-64k (or one size): two uint64_t, lo at off, hi right after
                      * it (size is 16); one size alone stores hi 0, no range */
    SB_OPT_SPLIT,    /* fio's 4k/50:64k/50 (a size without /PCT shares what is left) into
                      * an sb_io_bssplit */
    SB_OPT_PCT,      /* 0 .. 100, with or without %, into an unsigned */
    SB_OPT_LIST,     /* fio's a:b file list (\: is a colon in a name) into char[size]:
                      * the names one after the other, each ending in NUL, then a NUL */
} sb_opt_type;

/* What the entries are grouped by in usage texts and documentation. */
typedef enum sb_opt_category {
    SB_OPTC_JOB,      /* what the job does and on which files */
    SB_OPTC_ENGINE,   /* engine, queue depth and batching, direct I/O */
    SB_OPTC_TIMING,   /* runtime, ramp, start delay */
    SB_OPTC_SYNC,     /* fsync, page cache */
    SB_OPTC_OFFSETS,  /* random map and seed */
    SB_OPTC_CPU,      /* CPU placement */
    SB_OPTC_VERIFY,   /* verified I/O */
    SB_OPTC_SERIES,   /* time series and steady state */
    SB_OPTC_OUTPUT,   /* what a command prints (commands' own entries) */
    SB_OPTC_MPI,      /* MPI ranks (commands' own entries) */
    SB_OPTC_N,
} sb_opt_category;

enum {
    SB_OPTF_SWITCH = 1u << 0,  /* a bool whose value may be left out: "--direct" = 1 */
    SB_OPTF_NOARG = 1u << 1,   /* takes no value at all (a command's flag: --shared-file) */
    SB_OPTF_DEF_DOC = 1u << 2, /* def describes the default; it is not a value to parse */
    SB_OPTF_POSITIVE = 1u << 3, /* a DURATION that must be more than 0 */
    SB_OPTF_USEC = 1u << 4,     /* a DURATION whose bare number is microseconds (fio's thinktime) */
    SB_OPTF_ZONES = 1u << 5,    /* a SIZE that may count zones, fio's 8z (its parse: parse_zbd.c) */
    SB_OPTF_SET = 1u << 6,      /* a BOOL fio keeps as a number (its STR_SET): thread=2 is on */
};

typedef struct sb_opt_choice {
    const char *name;
    int value;
} sb_opt_choice;

typedef struct sb_opt sb_opt;

/* How values are read. kb_base: 0 = storbench's own sizes (every suffix a power of 1024:
 * 4k, 4KB and 4KiB are all 4096, as the command line always took them); 1024 = fio's
 * default, where k/K/KB are 1024 and the IEC spellings KiB/MiB are powers of 1000 (fio's
 * documented inversion); 1000 = fio's kb_base=1000, k/KB powers of 1000, KiB 1024. */
typedef struct sb_opt_ctx {
    unsigned kb_base;
} sb_opt_ctx;

/* An entry's own parser (SB_OPT_FUNC): 0, or -EINVAL with the reason in err (without the
 * option's name, which the caller puts in front). */
typedef int (*sb_opt_parse_fn)(const sb_opt *o, void *base, const char *value,
                               const sb_opt_ctx *ctx, char *err, size_t errlen);

struct sb_opt {
    const char *name;                 /* fio's spelling: "iodepth_batch_complete_min" */
    const char *const *aliases;       /* NULL-terminated, or NULL */
    sb_opt_type type;
    size_t off, size;                 /* the field in the target struct */
    double min, max;                  /* INT, SIZE, DURATION (seconds); max 0 = no upper bound */
    const char *def;                  /* the default as shown; NULL = none / off */
    const char *arg;                  /* what the value is called in usage: "SIZE" */
    const char *help;                 /* one paragraph, plain text */
    sb_opt_category category;
    unsigned flags;
    const sb_opt_choice *choices;     /* CHOICE: ends with {NULL, 0} */
    sb_opt_parse_fn parse;            /* FUNC; for a SIZE, a syntax of its own (zones: 8z) */
};

/* A field of struct T as an entry's .off and .size (rows are designated initializers). */
#define SB_OPT_FIELD(T, f) .off = offsetof(T, f), .size = sizeof(((T *)0)->f)

/* The table of sb_io_job's options (table.c), in usage order. */
extern const sb_opt sb_io_options[];
extern const size_t sb_io_n_options;

/* The entry called name (its name or an alias) in table[n]; NULL when none. */
const sb_opt *sb_opt_find(const sb_opt *table, size_t n, const char *name);

/* Parses value (NULL for a switch given bare) into the entry's field of base. as is the
 * name to put in an error (the spelling the user wrote; NULL = the entry's name). 0, or
 * -EINVAL with one line in err: "AS: 'VALUE' is not a size". */
int sb_opt_parse(const sb_opt *o, void *base, const char *as, const char *value,
                 const sb_opt_ctx *ctx, char *err, size_t errlen);

/* sb_opt_find() in sb_io_options, then sb_opt_parse() into job (a sb_io_job): for the
 * workloads, whose keys may differ from fio's names (key is what the error names).
 * -ENOENT for a name that is not in the table (a programming error). */
int sb_io_opt_set(void *job, const char *name, const char *key, const char *value,
                  const sb_opt_ctx *ctx, char *err, size_t errlen);


/* The entry parsers of the table's rows (table.c; not for other callers), one signature: */
#define SB_OPT_PARSER(name)                                                                 \
    int name(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx, char *err, \
             size_t errlen)
/* parse_job.c: what a job is (rw mix as writes, steady state, CPUs, verify, buffered, file
 * sizes, nice, prio, percentiles, log intervals) */
SB_OPT_PARSER(sb_opt_parse_rwmixwrite);
SB_OPT_PARSER(sb_opt_parse_steady);
SB_OPT_PARSER(sb_opt_parse_cpus);
SB_OPT_PARSER(sb_opt_parse_log_msec);
SB_OPT_PARSER(sb_opt_parse_verify);
SB_OPT_PARSER(sb_opt_parse_buffered);
SB_OPT_PARSER(sb_opt_parse_filesize);
SB_OPT_PARSER(sb_opt_parse_nice);
SB_OPT_PARSER(sb_opt_parse_prio);
SB_OPT_PARSER(sb_opt_parse_percentiles);
SB_OPT_PARSER(sb_opt_parse_allrandrepeat);
/* parse_fio.c: fio's job-file syntaxes (rw's :SKIP, random_distribution, a bare
 * write_*_log, log_avg_msec) */
SB_OPT_PARSER(sb_opt_parse_rw);
/* fio's bs, bsrange and blockalign with READ,WRITE[,TRIM] values (parse_fio.c); bssplit,
 * which undoes an earlier bsrange's hold on its sizes (job.h's bsrange_clamps) */
SB_OPT_PARSER(sb_opt_parse_bs_dirs);
SB_OPT_PARSER(sb_opt_parse_bssplit);
/* parse.c: a split (4k/50:64k/50; READS,WRITES into two when field has room for two) into
 * field, the generic reading bssplit's parser calls */
int sb_opt_parse_split(const sb_opt *o, void *field, const char *v, const sb_opt_ctx *ctx, char *why,
                       size_t len);
/* percentage_random's READ,WRITE[,TRIM] values, which storbench takes when they agree */
SB_OPT_PARSER(sb_opt_parse_pct_dirs);
SB_OPT_PARSER(sb_opt_parse_distribution);
SB_OPT_PARSER(sb_opt_parse_log_prefix);
SB_OPT_PARSER(sb_opt_parse_log_avg);
SB_OPT_PARSER(sb_opt_parse_log_cpus);
/* parse_jobctl.c: job control (rates, continue_on_error, ignore_error, verify_pattern) */
SB_OPT_PARSER(sb_opt_parse_rate);
SB_OPT_PARSER(sb_opt_parse_rate_iops);
SB_OPT_PARSER(sb_opt_parse_continue);
SB_OPT_PARSER(sb_opt_parse_ignore_error);
SB_OPT_PARSER(sb_opt_parse_verify_pattern);
SB_OPT_PARSER(sb_opt_parse_buffer_pattern);
/* fio's pattern syntax (parse_pattern.c) into b (cap bytes): *len bytes; the places of %o
 * into o_at (NULL: %o refused), *no of them. 0 or -EINVAL. */
int sb_io_pattern_parse(const char *v, uint8_t *b, size_t cap, size_t *len, uint16_t *o_at,
                        unsigned o_cap, unsigned *no);
/* parse_files.c: fio's file_service_type (several files per job, job/files.c), and
 * filename=, whose every line adds its files to the job's (a job starts with those of its
 * [global] and of the command line), each below the job's directory as it is then */
SB_OPT_PARSER(sb_opt_parse_file_service);
SB_OPT_PARSER(sb_opt_parse_filename);
SB_OPT_PARSER(sb_opt_parse_nrfiles); /* nrfiles: fio's count of a filename's files too */
/* fio's a:b list into out (size bytes): the names, each ending in NUL, then a NUL; \: is a
 * colon in a name, an empty name is skipped. 0, or -EINVAL with why (parse.c). */
int sb_opt_parse_list(char *out, size_t size, const char *v, char *why, size_t len);
/* parse_sys.c: fio's file and system options' syntaxes (sync_file_range's FLAGS:N, cpumask,
 * uid and gid, clocksource's clocks) */
SB_OPT_PARSER(sb_opt_parse_sync_file_range);
SB_OPT_PARSER(sb_opt_parse_cpumask);
SB_OPT_PARSER(sb_opt_parse_clocksource);
SB_OPT_PARSER(sb_opt_parse_id);
/* parse_zbd.c, for zonemode=zbd: a SIZE that may be a number of zones (SB_OPTF_ZONES:
 * size=128z), and a fraction 0 .. 1 into a double (zone_reset_*) */
SB_OPT_PARSER(sb_opt_parse_zoned_size);
SB_OPT_PARSER(sb_opt_parse_fraction);
/* A percentage with decimals, 0 .. 100, into a double (latency_percentile; parse_zbd.c) */
SB_OPT_PARSER(sb_opt_parse_pct_float);
/* parse_sched.c: where and how a thread runs (NUMA nodes and memory policy, SPRandom's
 * over-provisioning, prioclass, cmdprio's values) */
SB_OPT_PARSER(sb_opt_parse_numa_cpus);
SB_OPT_PARSER(sb_opt_parse_numa_mem);
SB_OPT_PARSER(sb_opt_parse_spr_op);
SB_OPT_PARSER(sb_opt_parse_prioclass);
SB_OPT_PARSER(sb_opt_parse_cmdprio);
/* parse_iolog.c: fio's replay options of read_iolog (replay_align, replay_skip, the
 * merge_blktrace lists) */
SB_OPT_PARSER(sb_opt_parse_replay_align);
SB_OPT_PARSER(sb_opt_parse_replay_skip);
SB_OPT_PARSER(sb_opt_parse_merge_scalars);
SB_OPT_PARSER(sb_opt_parse_merge_iters);
SB_OPT_PARSER(sb_opt_parse_gtod_cpu); /* refused, with why */
/* cmdprio's values (fio's HOWTO): "V" or "R,W" into two ints in lo .. hi; cmdprio_bssplit's
 * "BS/PCT[/CLASS/LEVEL[/HINT]]:...[,...]" per direction into c. 0 or -EINVAL with err. */
struct sb_cmdprio;
int sb_cmdprio_parse_pair(const char *v, int lo, int hi, int out[2], char *err, size_t errlen);
int sb_cmdprio_parse_bssplit(const char *v, unsigned kb_base, struct sb_cmdprio *c, char *err,
                             size_t errlen);

/* A size by ctx's kb_base rules: 0, -EINVAL or -ERANGE. The one size parser is core's;
 * this is its name where the table's parsers read it. A number with a fraction
 * ("1024.0M") is read as fio 3.33 reads it: its whole part in bytes, the fraction and the
 * unit after it dropped (fio's number stops at the '.' and its unit table has no ".0M").
 * Silently, as fio's: a note on stderr would make a refused file's one line two. */
int sb_opt_parse_size(const char *s, unsigned kb_base, uint64_t *out);
/* fio's READ,WRITE,TRIM values of one option (bs, blockalign, rate, rate_iops,
 * percentage_random): split at each ','; with dashes, where no ',' is left, at a ':' or
 * else a '-' as fio splits them (bs=4k-16k is reads 4k, writes 16k; only bsrange, a range
 * type, reads LO-HI), a value before a ',' being its leading number. The parts, empty
 * where none was given; their count, or -EINVAL past three or a part of 64 bytes. */
#define SB_DDIR_PARTS 3
int sb_opt_dir_parts(const char *v, bool dashes, char part[SB_DDIR_PARTS][64]);

/* ---- documentation (doc.c) ---- */

/* Category headings as usage texts print them: "Engine and queue". */
const char *sb_opt_category_title(sb_opt_category c);
/* "size", "duration", "bool" ... as --cmdhelp prints it. */
const char *sb_opt_type_name(sb_opt_type t);

/* A usage text: one group per category present, a heading line, then per entry
 * "  --name ARG    help (default X; alias --y)", help wrapped to width columns. */
void sb_opt_print_usage(FILE *out, const sb_opt *const *tables, const size_t *ns, size_t ntables,
                        unsigned width);
/* fio's --cmdhelp: every entry (name, aliases, type, bounds, default, help) or, with name,
 * that one. 0, or -ENOENT when name is not an entry. */
int sb_opt_print_cmdhelp(FILE *out, const sb_opt *const *tables, const size_t *ns, size_t ntables,
                         const char *name);
/* The man page's option list (roff .TP items) and docs/io.md's table (Markdown rows),
 * generated so that both say what the table says. */
void sb_opt_print_roff(FILE *out, const sb_opt *const *tables, const size_t *ns, size_t ntables);
void sb_opt_print_markdown(FILE *out, const sb_opt *const *tables, const size_t *ns, size_t ntables);

#endif
