/*
 * sb_io_cli — the table of `storbench io`'s own flags (io_cli.h) and the parsers of those
 * that need more than their row (--section, --destroy-data-on).
 */
#include "cli/io_cli.h"

#include <errno.h>
#include <stdio.h>

static const sb_opt_choice eta_choices[] = {
    {"auto", SB_ETA_AUTO}, {"always", SB_ETA_ALWAYS}, {"never", SB_ETA_NEVER}, {NULL, 0}};

static const sb_opt_choice layout_choices[] = {
    {"contiguous", SB_IO_LAYOUT_CONTIGUOUS}, {"interleaved", SB_IO_LAYOUT_INTERLEAVED}, {NULL, 0}};

static int parse_section(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                         char *err, size_t errlen)
{
    sb_io_cli *c = base;
    if (c->nsections == sizeof c->sections / sizeof c->sections[0]) {
        snprintf(err, errlen, "at most %zu sections", c->nsections);
        return -EINVAL;
    }
    c->sections[c->nsections++] = v; /* argv outlives the command */
    return 0;
}

static int parse_consent(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                         char *err, size_t errlen)
{
    return sb_devguard_consent_add(&((sb_io_cli *)base)->consent, v, err, errlen);
}

#define C(f) SB_OPT_FIELD(sb_io_cli, f) /* .off, .size */
const sb_opt sb_io_cli_options[] = {
    {.name = "output-format", .type = SB_OPT_STR, C(format), .def = "normal", .arg = "FMT[,FMT]",
     .help = "normal | json | json+ | terse | storbench-json, several at once as fio's (json,normal); "
             "fio's layouts, storbench's JSON as docs/io-json.md describes",
     .category = SB_OPTC_OUTPUT},
    {.name = "output", .type = SB_OPT_STR, C(output), .def = "stdout", .arg = "FILE",
     .help = "write the report to FILE (replaced once complete), as fio's --output",
     .category = SB_OPTC_OUTPUT},
    {.name = "terse-version", .type = SB_OPT_INT, C(terse_version), .min = 2, .max = 5, .def = "3",
     .arg = "N",
     .help = "fio's terse format version: 2, 3, 4 (trim's fields too) or 5 (and IOPS statistics)",
     .category = SB_OPTC_OUTPUT},
    {.name = "minimal", .type = SB_OPT_BOOL, C(minimal),
     .help = "fio's terse format alone (--output-format=terse), as fio's --minimal",
     .category = SB_OPTC_OUTPUT, .flags = SB_OPTF_NOARG},
    {.name = "status-interval", .type = SB_OPT_DURATION, C(status.status_s), .arg = "TIME",
     .help = "while the jobs run, a full report every TIME (at least 1s) in every output format, "
             "the figures cumulative since the start, then the final one, as fio's",
     .category = SB_OPTC_OUTPUT, .flags = SB_OPTF_POSITIVE},
    {.name = "eta", .type = SB_OPT_CHOICE, C(status.eta), .def = "auto", .arg = "WHEN",
     .help = "fio's progress line on standard error: auto (on a terminal), always (without one a "
             "line per --eta-interval), never",
     .category = SB_OPTC_OUTPUT, .choices = eta_choices},
    {.name = "eta-interval", .type = SB_OPT_DURATION, C(status.eta_interval_s), .def = "1s",
     .arg = "TIME", .help = "how often the progress line is drawn (at least 250ms), as fio's",
     .category = SB_OPTC_OUTPUT, .flags = SB_OPTF_POSITIVE},
    {.name = "eta-newline", .type = SB_OPT_DURATION, C(status.eta_newline_s), .arg = "TIME",
     .help = "on a terminal, the progress line starts a new line every TIME, as fio's",
     .category = SB_OPTC_OUTPUT, .flags = SB_OPTF_POSITIVE},
    {.name = "quiet", .type = SB_OPT_BOOL, C(quiet),
     .help = "no progress line (--eta=never)",
     .category = SB_OPTC_OUTPUT, .flags = SB_OPTF_NOARG},
    {.name = "showcmd", .type = SB_OPT_BOOL, C(showcmd),
     .help = "print the jobs (job files, --name jobs) as one fio command line and exit, as fio's",
     .category = SB_OPTC_OUTPUT, .flags = SB_OPTF_NOARG},
    {.name = "max-jobs", .type = SB_OPT_INT, C(max_jobs), .min = 1, .max = 65536, .arg = "N",
     .help = "refuse to start more than N job threads in all (numjobs summed over the jobs)",
     .category = SB_OPTC_OUTPUT},
    {.name = "warnings-fatal", .type = SB_OPT_BOOL, C(warnings_fatal),
     .help = "a warning about a job's options is an error (exit 2), as fio's",
     .category = SB_OPTC_OUTPUT, .flags = SB_OPTF_NOARG},
    {.name = "cmdhelp", .type = SB_OPT_STR, C(cmdhelp), .def = "all", .arg = "NAME",
     .help = "describe every option, or the option NAME, as fio's --cmdhelp; man and md print the "
             "option lists of the man page and of docs/io.md",
     .category = SB_OPTC_OUTPUT, .flags = SB_OPTF_SWITCH},
    {.name = "enghelp", .type = SB_OPT_STR, C(enghelp), .def = "all", .arg = "ENGINE[,OPTION]",
     .help = "the engines, or the engine options ENGINE reads (or OPTION of them), as fio's --enghelp",
     .category = SB_OPTC_OUTPUT, .flags = SB_OPTF_SWITCH},
    {.name = "help", .type = SB_OPT_BOOL, C(help),
     .help = "print this usage and exit; also -h",
     .category = SB_OPTC_OUTPUT, .flags = SB_OPTF_NOARG},
    {.name = "section", .type = SB_OPT_FUNC, C(sections), .arg = "NAME",
     .help = "of the job files, run only the job NAME (again for more), as fio's --section",
     .category = SB_OPTC_OUTPUT, .parse = parse_section},
    {.name = "parse-only", .type = SB_OPT_BOOL, C(parse_only),
     .help = "read and check the jobs, print one line per job, run nothing (fio's --parse-only)",
     .category = SB_OPTC_OUTPUT, .flags = SB_OPTF_NOARG},
    {.name = "readonly", .type = SB_OPT_BOOL, C(readonly),
     .help = "refuse any job that would write, trim or create a file, before anything is opened "
             "(fio's --readonly)",
     .category = SB_OPTC_OUTPUT, .flags = SB_OPTF_NOARG},
    {.name = "destroy-data-on", .type = SB_OPT_FUNC, C(consent), .arg = "DEV|FILE",
     .help = "give up the data on DEV (a block device that carries a filesystem, partition table, "
             "RAID, LVM or swap signature) or FILE (an existing file a trim punches holes in), so "
             "that a job may destroy it; again for more (docs/safety.md)",
     .category = SB_OPTC_OUTPUT, .parse = parse_consent},
    {.name = "shared-file", .type = SB_OPT_BOOL, C(ranks.shared_file),
     .help = "all ranks use one file, each its --size bytes of it as --layout says; without it, a "
             "directory or FILE.R per rank",
     .category = SB_OPTC_MPI, .flags = SB_OPTF_NOARG},
    {.name = "layout", .type = SB_OPT_CHOICE, C(ranks.layout), .def = "contiguous",
     .arg = "LAYOUT",
     .help = "with --shared-file: contiguous (rank R's region at offset + R * size) or interleaved "
             "(IOR's segments: rank R's segment s at offset + (s * ranks + R) * segment)",
     .category = SB_OPTC_MPI, .choices = layout_choices},
    {.name = "segments", .type = SB_OPT_INT, C(ranks.segments), .def = "size / bs", .arg = "N",
     .help = "--layout interleaved: each rank's --size in N segments (IOR's -s; a segment is IOR's "
             "blockSize, a multiple of bs)",
     .category = SB_OPTC_MPI, .flags = SB_OPTF_DEF_DOC},
    {.name = "stonewall", .type = SB_OPT_DURATION, C(ranks.stonewall_s), .arg = "DURATION",
     .help = "every rank stops this far into the measured phase",
     .category = SB_OPTC_MPI, .flags = SB_OPTF_POSITIVE},
    {.name = "ranks-per-job", .type = SB_OPT_INT, C(ranks.per_job), .min = 1, .arg = "N",
     .help = "a job file's jobs each on N ranks instead of all: job i (from 0) on ranks i*N .. "
             "i*N+N-1, modulo the ranks; its figures are those ranks'",
     .category = SB_OPTC_MPI},
};
const size_t sb_io_n_cli_options = sizeof sb_io_cli_options / sizeof sb_io_cli_options[0];
