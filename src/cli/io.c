/*
 * io — `storbench io`: one ad-hoc fio-class job from flags, or fio job files and
 * --name jobs (io/jobfile.h: phases one after another, the jobs of a phase at once,
 * io/jobrun.h), run by the I/O
 * engine (src/io), reported in fio's formats (normal, json, json+, terse) or storbench's
 * JSON (storbench-json, docs/io-json.md), to standard output or --output FILE; the report
 * is assembled in cli/io_output.c. Ctrl-C stops the job and prints what was measured so far.
 * Options are tables (io/options.h): the job's (io/options.c) and the command's own
 * below; getopt_long's array, the usage text and --cmdhelp are made from them. While
 * the jobs run, cli/io_status.c draws fio's progress line on standard error and writes
 * the --status-interval reports.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/io_cli.h"
#include "cli/io_fio_cli.h"
#include "cli/io_output.h"
#include "cli/io_ranks.h"
#include "core/cpuset.h"
#include "cli/io_series.h"
#include "cli/io_status.h"
#include "core/histogram.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/ranks.h"
#include "core/strutil.h"
#include "core/units.h"
#include "io/engine.h"
#include "io/job.h"
#include "io/options/jobfile.h"
#include "io/job/guard.h"
#include "io/log/inflate.h"
#include "io/run/jobrun.h"
#include "io/options/options.h"
#include "runner/io_ranks_jobs.h"

#define CMD "io"


/* Both tables, in the order usage and the documents print them; ns_of() fills in their
 * lengths (the job table's is not a constant expression here). */
static const sb_opt *const tables[] = {sb_io_options, sb_io_cli_options, sb_io_fio_cli_options};

static size_t ns_of(size_t *ns)
{
    ns[0] = sb_io_n_options;
    ns[1] = sb_io_n_cli_options;
    ns[2] = sb_io_n_fio_cli_options;
    return 3;
}

static void usage(FILE *out)
{
    size_t ns[3];
    fputs("usage: storbench io [OPTIONS] --filename FILE | --directory DIR\n"
          "       storbench io [OPTIONS] [--name NAME [OPTIONS]]... [JOBFILE...] [--section NAME]\n"
          "Runs one fio-class I/O job, or fio job files, and prints throughput and latency.\n"
          "Options before any --name apply to every job unless the job file sets them, as fio.\n"
          "Sizes: 4k, 1m, 2g (powers of 1024; in job files fio's kb_base); durations: 20, 20s,\n"
          "500ms, 2m.\n\n", out);
    sb_opt_print_usage(out, tables, ns, ns_of(ns), 96);
}

/* ------------------------------------------------------------ options */

/* --cmdhelp: fio's option list, one option, or the documents' generated lists. */
static int cmdhelp(const char *what)
{
    size_t ns[3], n = ns_of(ns);
    if (!strcmp(what, "man"))
        sb_opt_print_roff(stdout, tables, ns, n);
    else if (!strcmp(what, "md"))
        sb_opt_print_markdown(stdout, tables, ns, n);
    else if (sb_opt_print_cmdhelp(stdout, tables, ns, n, what) < 0)
        return sb_usage_error(CMD, "--cmdhelp: '%s' is not an option", what);
    return SB_EXIT_OK;
}

#define MAX_LONGOPTS 512  /* every name and alias of both tables: at 128 the last ones (--parse-only) fell off */

/* getopt_long's table from the option tables: every name and alias, val = 0x100 + the
 * index into entries (and bases: the struct each entry's field is in). */
static size_t build_longopts(struct option *lo, const sb_opt **entries, void **bases,
                             sb_io_job *job, sb_io_cli *cli)
{
    size_t n = 0, ns[3];
    ns_of(ns);
    void *base_of[3] = {job, cli, &cli->fio}; /* job NULL: the caller picks the job per option */
    for (size_t t = 0; t < 3; t++)
        for (size_t i = 0; i < ns[t]; i++) {
            const sb_opt *o = &tables[t][i];
            int has = o->flags & SB_OPTF_NOARG ? no_argument
                      : o->flags & SB_OPTF_SWITCH ? optional_argument : required_argument;
            const char *names[8];
            size_t k = 0;
            names[k++] = o->name;
            for (const char *const *a = o->aliases; a && *a && k < 8; a++)
                names[k++] = *a;
            for (size_t j = 0; j < k && n < MAX_LONGOPTS - 1; j++, n++) {
                entries[n] = o;
                bases[n] = base_of[t];
                lo[n] = (struct option){names[j], has, NULL, 0x100 + (int)n};
            }
        }
    lo[n] = (struct option){NULL, 0, NULL, 0};
    return n;
}

/* fio's kb_base given anywhere on the command line: how its sizes read (0: storbench's). */
static unsigned prescan_kb_base(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *v = !strncmp(argv[i], "--kb_base=", 10) ? argv[i] + 10
                        : !strcmp(argv[i], "--kb_base") && i + 1 < argc ? argv[i + 1] : NULL;
        if (v && (!strcmp(v, "1000") || !strcmp(v, "1024")))
            return (unsigned)atoi(v);
    }
    return 0;
}

/* fio's --profile given anywhere: then --threads is the profile's thread count (fio's
 * tiobench option), not storbench's alias of thread. */
static bool prescan_profile(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], "--profile=", 10) || !strcmp(argv[i], "--profile"))
            return true;
    return false;
}

/* What the command line holds besides cli: the defaults (options before any --name, or
 * after --name=global, as fio's), the --name jobs, and the job files. */
typedef struct io_args {
    sb_io_job *dflt;
    sb_jobset *set;
    const char *files[64];
    size_t nfiles;
} io_args;

/* getopt_long's table, and per row the option and the struct its field is in: large
 * (every name and alias), so on the heap. */
typedef struct io_longopts {
    struct option lo[MAX_LONGOPTS];
    const sb_opt *entries[MAX_LONGOPTS];
    void *bases[MAX_LONGOPTS];
} io_longopts;

/* The command line into a and cli with the table in t: 0, or the exit code after the
 * message. */
static int parse_args_with(int argc, char **argv, io_args *a, sb_io_cli *cli, io_longopts *t)
{
    struct option *lo = t->lo;
    const sb_opt **entries = t->entries;
    void **bases = t->bases;
    /* NULL base: the job the option is for (the defaults, or the last --name's) */
    size_t n = build_longopts(lo, entries, bases, NULL, cli);
    const sb_opt_ctx ctx = {prescan_kb_base(argc, argv)};
    const bool profiled = prescan_profile(argc, argv);
    sb_io_job *cur = a->dflt;
    sb_jobfile_given *given = &cli->given; /* where the options as given go (fio's JSON) */
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
        if (c == 'h') {
            cli->help = true;
            continue;
        }
        if (c < 0x100 || (size_t)(c - 0x100) >= n)
            return sb_bad_option(CMD, argv, c);
        const sb_opt *o = entries[c - 0x100];
        if (!bases[c - 0x100] && !strcmp(o->name, "name")) {
            /* as fio: --name starts a job from the defaults; --name=global edits them */
            if (!strcmp(optarg, "global")) {
                cur = a->dflt;
                given = &cli->given;
            } else {
                sb_jobfile_job *j = sb_jobset_add(a->set, a->dflt, optarg, "command line");
                if (!j)
                    return sb_usage_error(CMD, "out of memory");
                cur = &j->job;
                given = &j->given;
                sb_jobfile_given_add(given, "name", optarg);
                if (strlen(optarg) >= sizeof cur->name)
                    return sb_usage_error(CMD, "--name: too long (at most %zu bytes)", sizeof cur->name - 1);
            }
            continue;
        }
        char as[128], err[1024];
        snprintf(as, sizeof as, "--%s", lo[c - 0x100].name);
        if (profiled && !strcmp(lo[c - 0x100].name, "threads")) {
            static const sb_opt threads = {.name = "threads", .type = SB_OPT_INT,
                                           SB_OPT_FIELD(sb_io_profile, threads), .min = 1, .max = 4096};
            if (sb_opt_parse(&threads, &cli->fio.profile, as, optarg, &ctx, err, sizeof err) < 0)
                return sb_usage_error(CMD, "%s", err);
            continue;
        }
        void *base = bases[c - 0x100] ? bases[c - 0x100] : cur;
        if (sb_opt_parse(o, base, as, optarg, &ctx, err, sizeof err) < 0)
            return sb_usage_error(CMD, "%s", err);
        if (!bases[c - 0x100]) /* under the option's own name, as fio's JSON lists it */
            sb_jobfile_given_add(given, o->name, optarg);
    }
    for (; optind < argc && !cli->help && !cli->cmdhelp[0] && !cli->enghelp[0]; optind++) {
        if (a->nfiles == sizeof a->files / sizeof a->files[0])
            return sb_usage_error(CMD, "at most %zu job files", a->nfiles);
        a->files[a->nfiles++] = argv[optind];
    }
    return 0;
}

/* The command line into a and cli: 0, or the exit code after the message. */
static int parse_args(int argc, char **argv, io_args *a, sb_io_cli *cli)
{
    io_longopts *t = sb_xcalloc(1, sizeof *t);
    int rc = parse_args_with(argc, argv, a, cli, t);
    free(t);
    return rc;
}

/* The report's start (io_output.h): NULL after the message, *rc the exit code. */
static sb_io_out *out_begin(const sb_io_cli *cli, const sb_jobfile_given *global, bool several, int *rc)
{
    char err[PATH_MAX + 512];
    sb_io_out *o = sb_io_out_begin(cli->formats, cli->output[0] ? cli->output : NULL, global,
                                   several, err, sizeof err);
    if (!o)
        *rc = sb_usage_error(CMD, "%s", err);
    else if (cli->terse_version)
        sb_io_out_terse_version(o, (int)cli->terse_version);
    return o;
}

/* The report written: rc, or 1 when it could not be. */
static int out_end(sb_io_out *o, int rc)
{
    char err[PATH_MAX + 512];
    if (sb_io_out_end(o, err, sizeof err) < 0) {
        sb_error("%s: --output: %s", CMD, err);
        return SB_EXIT_RUNTIME;
    }
    return rc;
}

/* The command's safety rules on job (io/guard.h): --readonly and --destroy-data-on given
 * to it, its devices claimed in g (NULL: checked only). 0 or the exit code. */
static int guard(sb_io_job *job, const sb_io_cli *cli, sb_devguard *g)
{
    char err[8192];
    job->readonly = cli->readonly;
    job->consent = cli->consent;
    job->aux_path = cli->fio.aux_path;
    if (sb_io_guard_job(job, g, err, sizeof err) < 0)
        return sb_usage_error(CMD, "%s%s%s", job->name[0] ? job->name : "", job->name[0] ? ": " : "", err);
    return 0;
}

/* Under storbench-mpi, or with --shared-file or --stonewall: the job on every rank
 * (cli/io_ranks.c); the figures above summed over the ranks, then the ranks' own. */
static int run_on_ranks(const sb_io_job *job, const sb_io_cli *cli)
{
    char err[1024];
    int rc = SB_EXIT_OK;
    /* every rank checks the path (all refuse it alike, none waits for another); rank 0 writes */
    sb_io_out *o = out_begin(cli, NULL, false, &rc);
    if (!o)
        return rc;
    sb_io_out_watch(o, job);
    sb_io_result *res = sb_xcalloc(1, sizeof *res);      /* large: histograms */
    sb_io_ranks_report *rep = sb_xcalloc(1, sizeof *rep);
    rc = sb_io_ranks_run(job, &cli->ranks, res, rep, err, sizeof err);
    if (rc < 0) {
        sb_error("%s: %s", CMD, err);
        sb_io_out_discard(o); /* nothing measured: nothing written */
        free(rep);
        free(res);
        return rc == -EINTR ? SB_EXIT_INTERRUPTED : rc == -EINVAL ? SB_EXIT_USAGE : SB_EXIT_RUNTIME;
    }
    rc = SB_EXIT_OK;
    if (sb_ranks()->rank == 0) {
        sb_io_out_job(o, job, res, 0, 0, &cli->given, rep);
        rc = out_end(o, rc);
    } else {
        sb_io_out_discard(o);
    }
    sb_io_result_free(res);
    free(rep);
    free(res);
    return rc;
}

/* A steady-state job runs until it is steady: time based, its runtime the limit (fio's
 * documentation advises time_based with steadystate). SNIA mode's limit is its 25 rounds.
 * 0 or the usage error. */
static int steady_defaults(sb_io_job *job)
{
    sb_ss_spec *ss = &job->steady;
    /* fio's steadystate defaults to iops_slope:0.01% and its steadystate_duration to 0,
     * which turns the check off: ss_dur alone checks by that default criterion */
    if (ss->mode == SB_SS_OFF && ss->dur_s > 0 && ss->round_s == 0) {
        char e[128];
        double dur = ss->dur_s, ramp = ss->ramp_s;
        if (sb_ss_parse("iops_slope:0.01%", ss, e, sizeof e) < 0)
            return sb_usage_error(CMD, "%s", e);
        ss->dur_s = dur;
        ss->ramp_s = ramp;
    }
    if (ss->mode == SB_SS_OFF) {
        if (ss->dur_s > 0 || ss->ramp_s > 0 || ss->round_s > 0)
            return sb_usage_error(CMD, "--ss_dur, --ss_ramp and --ss_round need --steadystate");
        return 0;
    }
    if (ss->mode != SB_SS_SNIA && ss->dur_s == 0) { /* and a steadystate without ss_dur: none */
        sb_warn("%s: %s: steadystate without ss_dur: no steady-state check, as fio's (its "
                "steadystate_duration defaults to 0, which turns the check off)", CMD, job->name);
        ss->mode = SB_SS_OFF;
        ss->ramp_s = 0;
        return 0;
    }
    if (ss->mode == SB_SS_SNIA) {
        if (ss->dur_s > 0)
            return sb_usage_error(CMD, "--ss_dur is for fio's criteria; snia's window is 5 rounds "
                                       "of --ss_round");
        if (ss->round_s == 0)
            ss->round_s = 60;
    } else {
        if (ss->round_s > 0)
            return sb_usage_error(CMD, "--ss_round is for --steadystate=snia");
        if (ss->dur_s == 0)
            return sb_usage_error(CMD, "--steadystate needs --ss_dur (the window, as fio's "
                                       "steadystate_duration)");
    }
    if (job->runtime_s == 0)
        job->runtime_s = ss->mode == SB_SS_SNIA ? ss->ramp_s + SB_SS_SNIA_MAX_ROUNDS * ss->round_s + 1
                                                : 3600;
    job->time_based = true;
    return 0;
}

static bool stop_cb(void *arg) { return sb_interrupted() || sb_io_trigger_fired(); }

/* The job on this process alone, with the progress line and interval reports
 * (cli/io_status.h). */
static int run_alone(sb_io_job *job, const sb_io_cli *cli)
{
    char err[1024];
    int rc = SB_EXIT_OK;
    sb_io_out *o = out_begin(cli, NULL, false, &rc);
    if (!o)
        return rc;
    sb_io_out_watch(o, job);
    job->should_stop = stop_cb;
    sb_io_status *st = sb_io_status_start(&cli->status, o);
    sb_io_status_job sj = {job, 0, &cli->given};
    sb_io_live *live = sb_io_status_phase(st, &sj, 1);
    sb_io_result *res = sb_xcalloc(1, sizeof *res); /* large: histograms */
    sb_io_trigger *trig;
    if (sb_io_trigger_start(&cli->fio, &trig) < 0)
        sb_warn("%s: --trigger: cannot watch (out of threads)", CMD);
    rc = sb_io_run_live(job, res, live, err, sizeof err);
    sb_io_trigger_stop(trig);
    sb_io_status_stop(st);
    /* A verify mismatch still prints what was measured and checked (the verify
     * section names the first bad offset), after the one line that says why. */
    bool mismatch = rc == -EILSEQ && job->verify;
    if (mismatch)
        sb_error("%s: verify: %s", CMD, err);
    else if (rc < 0) {
        /* on standard output the job is reported with its errno, as fio's "error": N;
         * --output FILE is not written (nothing is saved from a failed run) */
        int exit_rc = rc == -EINVAL ? SB_EXIT_USAGE : SB_EXIT_RUNTIME;
        sb_error("%s: %s", CMD, err);
        if (cli->output[0] && strcmp(cli->output, "-")) {
            sb_io_out_discard(o);
        } else {
            sb_io_out_job(o, job, res, 0, -rc, &cli->given, NULL);
            exit_rc = out_end(o, exit_rc);
        }
        sb_io_result_free(res);
        free(res);
        return exit_rc;
    }
    sb_io_out_job(o, job, res, 0, mismatch ? EILSEQ : 0, &cli->given, NULL);
    bool interrupted = res->interrupted && !sb_io_trigger_fired(); /* a trigger is no interruption (fio's) */
    sb_io_result_free(res);
    free(res);
    return out_end(o, mismatch ? SB_EXIT_RUNTIME : interrupted ? SB_EXIT_INTERRUPTED : SB_EXIT_OK);
}

/* ------------------------------------------------------------ job files */

/* A job that names neither a file nor a directory: fio makes its files in the current
 * directory (JOBNAME.JOBNUM.FILENUM); storbench makes them there too, with fio's names,
 * but inside a private directory of its own that goes afterwards (the safety rule: it
 * never leaves or touches a file of the user's by such a name). */
static void default_directory(sb_io_job *job)
{
    snprintf(job->directory, sizeof job->directory, ".");
}

/* A job file's job onto its target: a filename's names carry the directory they were
 * given under already (options/parse_files.c: fio's prefix, applied as each line is
 * read); a job with neither gets fio's files in the current directory. 0 or the exit code. */
static int job_target(sb_jobfile_job *j)
{
    sb_io_job *job = &j->job;
    if (job->filename[0])
        job->directory[0] = '\0';
    if (!job->filename[0] && !job->directory[0])
        default_directory(job);
    return 0;
}

/* Reads, orders and checks every job before anything runs. 0 or the exit code. */
static int load_jobs(io_args *a, const sb_io_cli *cli)
{
    char err[1024], warn[256];
    int rc;
    unsigned long long threads = 0;
    for (size_t i = 0; i < a->nfiles; i++)
        if (sb_jobfile_read(a->files[i], a->dflt, cli->sections, cli->nsections, i > 0, a->set,
                            err, sizeof err) < 0)
            return sb_usage_error(CMD, "%s", err);
    /* fio's --profile: its jobs after the others (fio loads it once the rest is read) */
    if (cli->fio.profile.name[0] &&
        sb_io_profile_add(&cli->fio.profile, a->dflt, &cli->given, a->set, err, sizeof err) < 0)
        return sb_usage_error(CMD, "%s", err);
    if (!a->set->n && a->nfiles && !cli->nsections)
        return 0; /* job files of [global] only: fio's --parse-only takes them (see the run) */
    if (!a->set->n)
        return sb_usage_error(CMD, "no job to run%s", cli->nsections ? " (--section matched none)" : "");
    if (sb_jobset_order(a->set, err, sizeof err) < 0)
        return sb_usage_error(CMD, "%s", err);
    for (size_t i = 0; i < a->set->n; i++) {
        sb_jobfile_job *j = a->set->jobs[i];
        sb_io_job_resolve(&j->job);
        if ((rc = job_target(j)) != 0 || (rc = steady_defaults(&j->job)) != 0)
            return rc;
        if (sb_io_job_check(&j->job, err, sizeof err, warn, sizeof warn) < 0)
            return sb_usage_error(CMD, "%s (%s): %s", j->job.name, j->where, err);
        if (warn[0] && cli->warnings_fatal)
            return sb_usage_error(CMD, "%s: %s (--warnings-fatal)", j->job.name, warn);
        if (warn[0])
            sb_warn("%s: %s: %s", CMD, j->job.name, warn);
        threads += j->job.numjobs;
    }
    if (cli->max_jobs && threads > cli->max_jobs)
        return sb_usage_error(CMD, "--max-jobs %u: the jobs would start %llu threads", cli->max_jobs,
                              threads);
    return 0;
}

/* One phase's results, in job order; a failed job is its one line. 0 or the exit code. */
static int report_phase(sb_jobfile_job **jobs, sb_io_run_slot *slots, size_t n, sb_io_out *o,
                        const sb_io_ranks_report *reps, bool *failed)
{
    int rc = SB_EXIT_OK;
    fflush(stdout); /* an interval report printed before stays before the error lines */
    for (size_t m = 0; m < n; m++) {
        sb_io_run_slot *sl = &slots[m];
        bool mismatch = sl->rc == -EILSEQ && sl->job->verify;
        if (sl->rc < 0) {
            sb_error("%s: %s: %s%s", CMD, sl->job->name, mismatch ? "verify: " : "", sl->err);
            rc = sl->rc == -EINVAL ? SB_EXIT_USAGE : SB_EXIT_RUNTIME;
            *failed |= !mismatch;
        }
        /* a job that failed is in the report with its errno, as fio lists it ("error": N) */
        sb_io_out_job(o, sl->job, &sl->result, jobs[m]->group, mismatch ? EILSEQ : sl->rc < 0 ? -sl->rc : 0,
                      &jobs[m]->given, reps ? &reps[m] : NULL);
        if (sl->result.interrupted && rc == SB_EXIT_OK && !sb_io_trigger_fired())
            rc = SB_EXIT_INTERRUPTED;
        sb_io_result_free(&sl->result);
    }
    return rc;
}

/* The phase's jobs at once, here or on every MPI rank (each job combined over the ranks
 * into its slot and *reps, malloc'd). -1 with *rc set when the ranks agreed on a failure. */
static int ranks_phase(sb_io_run_slot *slots, size_t n, size_t first, unsigned per_job, atomic_bool *end_all,
                       sb_io_ranks_report **reps, int *rc)
{
    char err[1400];
    if (!sb_ranks_active())
        return sb_io_run_many(slots, n, end_all), 0;
    *reps = sb_xcalloc(n, sizeof **reps);
    int r = sb_io_ranks_phase(slots, n, first, per_job, end_all, *reps, err, sizeof err);
    if (r == 0)
        return 0;
    free(*reps);
    sb_error("%s: %s", CMD, err);
    *rc = r == -EINTR ? SB_EXIT_INTERRUPTED : r == -EINVAL ? SB_EXIT_USAGE : SB_EXIT_RUNTIME;
    return -1;
}

/* The phase's jobs into slots, with their live views for io_status. */
static void phase_slots(sb_jobfile_job **jobs, size_t n, sb_io_run_slot *slots, sb_io_status *st)
{
    sb_io_status_job *sj = sb_xcalloc(n, sizeof *sj);
    for (size_t m = 0; m < n; m++) {
        sb_io_job *job = &jobs[m]->job;
        job->should_stop = stop_cb;
        slots[m].job = job;
        slots[m].group = jobs[m]->group;
        sj[m] = (sb_io_status_job){job, jobs[m]->group, &jobs[m]->given};
    }
    sb_io_live *lives = sb_io_status_phase(st, sj, n);
    for (size_t m = 0; lives && m < n; m++)
        slots[m].live = &lives[m];
    free(sj);
}

/* The jobs phase by phase (stonewall, wait_for), each phase's jobs at once. */
static int run_jobs(io_args *a, const sb_io_cli *cli)
{
    int rc = SB_EXIT_OK;
    bool failed = false;
    atomic_bool end_all = false; /* exit_what=all: later phases end at once (io/jobrun.h) */
    /* fio's "global options": the command line's before any --name, then the files' */
    sb_jobfile_given *global = sb_xcalloc(1, sizeof *global); /* 4 KiB: on the heap */
    *global = cli->given;
    if (global->len + a->set->global.len <= sizeof global->buf) {
        memcpy(global->buf + global->len, a->set->global.buf, a->set->global.len);
        global->len += a->set->global.len;
    }
    sb_io_out *o = out_begin(cli, global, true, &rc);
    free(global); /* the report keeps its own copy */
    if (!o)
        return rc;
    for (size_t i = 0; i < a->set->n; i++)
        sb_io_out_watch(o, &a->set->jobs[i]->job);
    sb_io_status *st = sb_io_status_start(&cli->status, o);
    sb_io_trigger *trig;
    if (sb_io_trigger_start(&cli->fio, &trig) < 0)
        sb_warn("%s: --trigger: cannot watch (out of threads)", CMD);
    for (size_t i = 0; i < a->set->n && rc == SB_EXIT_OK && !sb_interrupted() && !sb_io_trigger_fired();) {
        size_t k = i;
        while (k < a->set->n && a->set->jobs[k]->phase == a->set->jobs[i]->phase)
            k++;
        size_t n = k - i;
        sb_io_run_slot *slots = calloc(n, sizeof *slots);
        if (!slots) {
            sb_error("%s: out of memory", CMD);
            rc = SB_EXIT_RUNTIME;
            break;
        }
        phase_slots(a->set->jobs + i, n, slots, st);
        sb_io_status_lock(st);
        sb_io_out_phase(o);
        sb_io_status_unlock(st);
        sb_io_ranks_report *reps = NULL;
        if (ranks_phase(slots, n, i, cli->ranks.per_job, &end_all, &reps, &rc) < 0) {
            free(slots);
            failed = true;
            break;
        }
        sb_io_status_lock(st);
        rc = report_phase(a->set->jobs + i, slots, n, o, reps, &failed);
        free(reps);
        sb_io_status_phase_end(st); /* in the same hold: no report has the phase twice */
        sb_io_status_unlock(st);
        free(slots);
        i = k;
    }
    sb_io_trigger_stop(trig);
    sb_io_status_stop(st);
    /* a job that failed (its one line said why): --output FILE is not written, nothing
     * is saved; on standard output what ran is printed. A verify mismatch is a result.
     * On MPI ranks rank 0 alone writes. */
    if ((failed && cli->output[0] && strcmp(cli->output, "-")) || (sb_ranks_active() && sb_ranks()->rank)) {
        sb_io_out_discard(o);
        return rc;
    }
    rc = out_end(o, rc);
    return rc == SB_EXIT_OK && sb_interrupted() ? SB_EXIT_INTERRUPTED : rc;
}

/* Job files and --name jobs: read, checked, and run, or with --parse-only listed. */
static int job_files(io_args *a, const sb_io_cli *cli)
{
    if (cli->ranks.shared_file || cli->ranks.stonewall_s > 0)
        return sb_usage_error(CMD, "--shared-file and --stonewall are for one job from flags, "
                              "not job files or --name jobs");
    int rc = load_jobs(a, cli);
    if (rc != 0)
        return rc;
    if (cli->ranks.per_job && !cli->parse_only && !cli->showcmd && !sb_ranks_active())
        return sb_usage_error(CMD, "--ranks-per-job is for MPI ranks: run it under mpirun (docs/mpi.md)");
    if (cli->ranks.per_job && sb_ranks_active() && (int)cli->ranks.per_job > sb_ranks()->size)
        return sb_usage_error(CMD, "--ranks-per-job %u: more than the %d ranks", cli->ranks.per_job,
                              sb_ranks()->size);
    /* on MPI ranks every rank runs every job on its own files (fio's clients) */
    for (size_t i = 0; sb_ranks_active() && !cli->parse_only && !cli->showcmd && i < a->set->n; i++) {
        char err[PATH_MAX + 256];
        if (sb_io_ranks_own_files(&a->set->jobs[i]->job, err, sizeof err) < 0)
            return sb_usage_error(CMD, "%s", err);
    }
    if (cli->showcmd)
        return sb_io_showcmd(stdout, a->set);
    if (cli->parse_only) {
        for (size_t i = 0; i < a->set->n; i++) {
            const sb_jobfile_job *j = a->set->jobs[i];
            printf("%s: rw=%s, bs=%" PRIu64 ", size=%" PRIu64 ", ioengine=%s, iodepth=%u, "
                   "numjobs=%u (phase %u, group %u)\n", j->job.name, sb_rw_name(j->job.rw),
                   j->job.bs, j->job.size, j->job.engine, j->job.iodepth, j->job.numjobs,
                   j->phase, j->group);
        }
        return SB_EXIT_OK;
    }
    if (!a->set->n) { /* as fio's run of such files: "No job(s) defined", exit 1 */
        sb_error("%s: no job to run: the job files define none, only [global] options", CMD);
        return SB_EXIT_RUNTIME;
    }
    /* fio sets every job up before the first starts: a value its run refuses (job.h's
     * run_fail: wait_for naming no job, ...) fails the whole run before any I/O */
    for (size_t i = 0; i < a->set->n; i++)
        if (a->set->jobs[i]->job.run_fail[0]) {
            sb_error("%s: %s: %s", CMD, a->set->jobs[i]->job.name, a->set->jobs[i]->job.run_fail);
            return SB_EXIT_RUNTIME;
        }
    /* every job's devices claimed before the first runs (on ranks only checked) */
    sb_devguard g = {0};
    for (size_t i = 0; i < a->set->n && rc == 0; i++)
        rc = guard(&a->set->jobs[i]->job, cli, sb_ranks_active() ? NULL : &g);
    if (rc == 0) {
        sb_interrupt_install();
        rc = run_jobs(a, cli);
    }
    sb_devguard_release(&g);
    return rc;
}

/* What the command holds while it runs: its options, the defaults (the job from flags),
 * the job set and the command line's rest. Large (paths), so on the heap, zeroed. */
typedef struct io_cmd {
    sb_io_cli cli;
    sb_io_job job;
    sb_jobset set;
    io_args args;
} io_cmd;

/* The command's own flags that need more than their row: formats, fio's bounds. 0 or
 * the exit code. */
static int command_flags(sb_io_cli *cli)
{
    char ferr[512];
    if (cli->minimal)
        snprintf(cli->format, sizeof cli->format, "terse");
    if (sb_io_out_formats(cli->format[0] ? cli->format : "normal", &cli->formats, ferr, sizeof ferr) < 0)
        return sb_usage_error(CMD, "%s", ferr);
    if (cli->fio.append_terse)
        cli->formats |= SB_IOF_TERSE;
    const sb_io_profile *p = &cli->fio.profile;
    if (strcmp(p->name, "tiobench") && (p->block || p->numruns || p->threads || p->dir[0]))
        return sb_usage_error(CMD, "--%s is an option of --profile=tiobench",
                              p->block ? "block" : p->numruns ? "numruns" : p->threads ? "threads" : "dir");
    if (sb_io_fio_cli_check(&cli->fio, sb_ranks_active(), ferr, sizeof ferr) < 0)
        return sb_usage_error(CMD, "%s", ferr);
    sb_io_status_opts *s = &cli->status;
    if (s->status_s > 0 && s->status_s < 1)
        return sb_usage_error(CMD, "--status-interval: at least 1s, as fio's");
    if (s->eta_interval_s == 0)
        s->eta_interval_s = 1;
    if (s->eta_interval_s < 0.25)
        return sb_usage_error(CMD, "--eta-interval: at least 250ms, as fio's");
    if (cli->quiet)
        s->eta = SB_ETA_NEVER;
    return 0;
}

static int io_main(int argc, char **argv, io_cmd *st)
{
    sb_io_cli *cli = &st->cli;
    sb_io_job *job = &st->job;
    sb_jobset *set = &st->set;
    io_args *args = &st->args;
    args->dflt = job;
    args->set = set;
    sb_io_job_init(job);
    int rc;
    if ((rc = parse_args(argc, argv, args, cli)) != 0)
        return rc;
    if (cli->help) {
        usage(stdout);
        return SB_EXIT_OK;
    }
    if (cli->cmdhelp[0])
        return cmdhelp(cli->cmdhelp);
    if (cli->enghelp[0] && (rc = sb_io_enghelp(stdout, cli->enghelp)) < 0)
        return sb_usage_error(CMD, "--enghelp: '%s' is %s", cli->enghelp,
                              rc == -ENOENT ? "not an engine" : "not an option of that engine");
    if (cli->enghelp[0])
        return SB_EXIT_OK;
    if (cli->fio.inflate_log[0]) {
        char err[PATH_MAX + 128];
        int r = sb_iolog_inflate(cli->fio.inflate_log, stdout, err, sizeof err);
        if (r == -EINVAL || r == -ENOENT)
            return sb_usage_error(CMD, "--inflate-log %s", err);
        if (r < 0)
            sb_error("%s: --inflate-log %s", CMD, err);
        return r < 0 ? SB_EXIT_RUNTIME : SB_EXIT_OK;
    }
    if ((rc = command_flags(cli)) != 0)
        return rc;
    if (set->n || args->nfiles || cli->fio.profile.name[0])
        return job_files(args, cli);
    if (cli->parse_only || cli->nsections || cli->showcmd)
        return sb_usage_error(CMD, "%s is for job files and --name jobs",
                              cli->parse_only ? "--parse-only" : cli->nsections ? "--section" : "--showcmd");
    sb_io_job_resolve(job);
    /* Alone, a shared file is the one file it already is, and a wall stops the only
     * rank: both mean something only across ranks. */
    if (cli->ranks.per_job)
        return sb_usage_error(CMD, "--ranks-per-job is for job files (one job from flags runs on every rank)");
    if (!sb_ranks_active() && (cli->ranks.shared_file || cli->ranks.stonewall_s > 0))
        return sb_usage_error(CMD, "%s is for MPI ranks: run it under mpirun (docs/mpi.md)",
                              cli->ranks.shared_file ? "--shared-file" : "--stonewall");
    if (!job->filename[0] && !job->directory[0])
        default_directory(job);
    if (job->filename[0] && job->directory[0])
        return sb_usage_error(CMD, "give --filename or --directory, not both");
    if ((rc = steady_defaults(job)) != 0)
        return rc;
    char err[1024], warn[256];
    if (sb_io_job_check(job, err, sizeof err, warn, sizeof warn) < 0 ||
        sb_io_ranks_check(job, &cli->ranks, err, sizeof err) < 0)
        return sb_usage_error(CMD, "%s", err);
    if (warn[0] && cli->warnings_fatal)
        return sb_usage_error(CMD, "%s (--warnings-fatal)", warn);
    if (warn[0])
        sb_warn("%s: %s", CMD, warn);
    if (cli->max_jobs && job->numjobs > cli->max_jobs)
        return sb_usage_error(CMD, "--max-jobs %u: the job would start %u threads", cli->max_jobs,
                              job->numjobs);

    /* on ranks, each checks without claiming: the ranks of one host would refuse each other's claim */
    if (sb_ranks_active())
        return (rc = guard(job, cli, NULL)) != 0 ? rc : (sb_interrupt_install(), run_on_ranks(job, cli));
    sb_devguard g = {0};
    if ((rc = guard(job, cli, &g)) == 0) {
        sb_interrupt_install();
        rc = run_alone(job, cli);
    }
    sb_devguard_release(&g);
    return rc;
}

int sb_cmd_io(int argc, char **argv)
{
    io_cmd *st = sb_xcalloc(1, sizeof *st);
    int rc = io_main(argc, argv, st);
    sb_jobset_free(&st->set);
    free(st);
    return rc;
}
