/*
 * ior — `storbench ior`: IOR's command line (hpc/ior's short flags, its
 * defaults and its layout) on storbench's ranks, for an IOR user who wants the
 * figure IOR would give without building IOR:
 *
 *     mpirun -np 4 storbench ior -a POSIX -t 47008 -b 47008 -s 1000 -w -r -C -e -o /mnt/pfs/file
 *
 * The phases are workloads/ior.c's (IOR's POSIX backend: pwrite/pread of one
 * transfer, barriers around open and close, -e's fsync inside the timing).
 * The table of flags is ior_flags below; what IOR accepts and this does not
 * is refused in one line (exit 2), never ignored. Output: IOR's results table
 * and its "Max Write: ... MiB/sec (... MB/sec)" summary lines, which scripts
 * that parse IOR's output read.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/devguard.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/ranks.h"
#include "core/strutil.h"
#include "core/units.h"
#include "workloads/ior.h"

#define IOR_MAX_REPS 1000

/* The flags, IOR's letters and meanings; the getopt string is built from this table. */
static const struct ior_flag {
    char letter;
    bool arg;
    const char *help;
} ior_flags[] = {
    {'a', true, "API: POSIX (the only backend)"},
    {'b', true, "blockSize: bytes per rank per segment (1m)"},
    {'t', true, "transferSize: bytes per I/O call (256k)"},
    {'s', true, "segmentCount (1)"},
    {'F', false, "filePerProc: a file per rank, <testFile>.%08d"},
    {'C', false, "reorderTasks: read the data of the rank -Q hosts on (IOR's rule)"},
    {'Q', true, "taskPerNodeOffset for -C, in hosts (1)"},
    {'e', false, "fsync at the end of a rank's writes (as IOR, before the barrier), inside the timing"},
    {'w', false, "writeFile: the write phase"},
    {'r', false, "readFile: the read phase (neither -w nor -r: both)"},
    {'o', true, "testFile (testFile)"},
    {'i', true, "repetitions (1)"},
    {'k', false, "keepFile: do not remove the test files at the end"},
    {'z', false, "randomOffset: each block's transfers in a shuffled order"},
    {'D', true, "deadlineForStonewalling, seconds (0: none)"},
    {'O', true, "stoneWallingWearOut=1: after the deadline every rank goes on to the most any rank did"},
    {'B', false, "useO_DIRECT"},
    {'R', false, "checkRead: every transfer read carries the stamp of the rank and offset it should"},
    {'g', false, "intraTestBarriers (always on)"},
    {'d', true, "interTestDelay, seconds between repetitions (0)"},
    {'v', false, "verbose: per-rank figures"},
    {'h', false, "this help"},
};
#define N_FLAGS (sizeof ior_flags / sizeof ior_flags[0])

typedef struct ior_cli {
    sb_ior_params p;
    bool write, read, keep, verbose, reorder_tasks;
    int task_offset;
    uint64_t reps;
    double delay;
} ior_cli;

static void usage(FILE *out)
{
    fprintf(out, "usage: [mpirun -np N] storbench ior [IOR FLAGS]\n\n"
                 "IOR's data phases with IOR's flags (hpc/ior; docs/mpi.md, \"IOR's flags\").\n"
                 "Sizes take k, m, g (powers of 1024), as IOR's.\n\n");
    for (size_t i = 0; i < N_FLAGS; i++)
        fprintf(out, "  -%c%s  %s\n", ior_flags[i].letter, ior_flags[i].arg ? " X" : "  ", ior_flags[i].help);
}

static int size_arg(const char *flag, const char *v, uint64_t *out)
{
    if (sb_parse_size(v, out) < 0 || *out == 0)
        return sb_usage_error("ior", "-%s %s: not a size (a positive number, with k, m or g)", flag, v);
    return 0;
}

static int directive(ior_cli *c, const char *v)
{
    if (!strcmp(v, "stoneWallingWearOut=1")) {
        c->p.wearout = true;
        return 0;
    }
    if (!strcmp(v, "stoneWallingWearOut=0")) {
        c->p.wearout = false;
        return 0;
    }
    return sb_usage_error("ior", "-O %s: the only directive taken is stoneWallingWearOut=0|1", v);
}

/* One flag; 0 or the usage error. */
static int flag(ior_cli *c, int ch, const char *v)
{
    uint64_t n;
    switch (ch) {
    case 'a':
        if (strcasecmp(v, "POSIX"))
            return sb_usage_error("ior", "-a %s: only the POSIX backend runs here", v);
        return 0;
    case 'b': return size_arg("b", v, &c->p.block);
    case 't': return size_arg("t", v, &c->p.transfer);
    case 's':
        if (sb_parse_uint(v, 1, UINT32_MAX, &c->p.segments) < 0)
            return sb_usage_error("ior", "-s %s: not a segment count (1 or more)", v);
        return 0;
    case 'F': c->p.file_per_proc = true; return 0;
    case 'C': c->reorder_tasks = true; return 0;
    case 'Q':
        if (sb_parse_uint(v, 1, 1u << 30, &n) < 0)
            return sb_usage_error("ior", "-Q %s: not a task offset (1 or more)", v);
        c->task_offset = (int)n;
        return 0;
    case 'e': c->p.fsync = true; return 0;
    case 'w': c->write = true; return 0;
    case 'r': c->read = true; return 0;
    case 'o':
        if (!*v || strlen(v) >= sizeof c->p.path)
            return sb_usage_error("ior", "-o: a test file name, not '%s'", v);
        snprintf(c->p.path, sizeof c->p.path, "%s", v);
        return 0;
    case 'i':
        if (sb_parse_uint(v, 1, IOR_MAX_REPS, &c->reps) < 0)
            return sb_usage_error("ior", "-i %s: repetitions from 1 to %d", v, IOR_MAX_REPS);
        return 0;
    case 'k': c->keep = true; return 0;
    case 'z': c->p.random = true; return 0;
    case 'D':
        if (sb_parse_duration(v, &c->p.deadline) < 0)
            return sb_usage_error("ior", "-D %s: not a number of seconds", v);
        return 0;
    case 'O': return directive(c, v);
    case 'B': c->p.direct = true; return 0;
    case 'R': c->p.check = true; return 0;
    case 'g': return 0;
    case 'd':
        if (sb_parse_duration(v, &c->delay) < 0)
            return sb_usage_error("ior", "-d %s: not a number of seconds", v);
        return 0;
    case 'v': c->verbose = true; return 0;
    }
    return SB_EXIT_USAGE;
}

static int parse(int argc, char **argv, ior_cli *c, bool *help)
{
    char optstring[2 + 2 * N_FLAGS + 1] = "+:";
    size_t k = 2;
    for (size_t i = 0; i < N_FLAGS; i++) {
        optstring[k++] = ior_flags[i].letter;
        if (ior_flags[i].arg)
            optstring[k++] = ':';
    }
    optstring[k] = '\0';
    /* IOR's own long option; the flags are the table above */
    static const struct option longs[] = {
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    opterr = 0;
    optind = 1;
    int ch, rc;
    while ((ch = getopt_long(argc, argv, optstring, longs, NULL)) != -1) {
        if (ch == 'h') {
            *help = true;
            return 0;
        }
        if (ch == '?' || ch == ':')
            return sb_bad_option("ior", argv, ch);
        if ((rc = flag(c, ch, optarg)) != 0)
            return rc;
    }
    if (optind < argc)
        return sb_usage_error("ior", "unexpected argument '%s' (IOR's options are flags)", argv[optind]);
    return 0;
}

static void print_header(const ior_cli *c)
{
    const sb_ior_params *p = &c->p;
    const sb_ranks_info *ri = sb_ranks();
    char agg[32];
    sb_format_iec(agg, sizeof agg, (double)p->block * (double)p->segments * ri->size, "B");
    printf("storbench ior: IOR's data phases (hpc/ior's flags), %s\n\nOptions:\n", sb_ranks_impl_name());
    printf("api                 : POSIX%s\n", p->direct ? " (O_DIRECT)" : "");
    printf("test filename       : %s\n", p->path);
    printf("access              : %s\n", p->file_per_proc ? "file-per-process" : "single-shared-file");
    printf("ordering in a file  : %s\n", p->random ? "random offsets" : "sequential offsets");
    printf("ordering inter file : %s\n", c->reorder_tasks ? "constant task offset" : "no tasks offsets");
    if (c->reorder_tasks) /* IOR prints -Q; the rank offset it makes of it is IOR's rankOffset */
        printf("task offset         : %d\nrank offset         : %d\n", c->task_offset, p->reorder);
    printf("nodes               : %d\n", ri->hosts);
    printf("tasks               : %d\n", ri->size);
    printf("clients per node    : %d\n", ri->max_per_host);
    printf("repetitions         : %llu\n", (unsigned long long)c->reps);
    printf("xfersize            : %llu bytes\n", (unsigned long long)p->transfer);
    printf("blocksize           : %llu bytes\n", (unsigned long long)p->block);
    printf("segments            : %llu\n", (unsigned long long)p->segments);
    printf("aggregate filesize  : %s\n", agg);
    if (p->deadline > 0)
        printf("stonewallingTime    : %g s%s\n", p->deadline, p->wearout ? " (wear-out)" : "");
    printf("\nResults:\n\naccess    bw(MiB/s)  IOPS       open(s)    close(s)   total(s)   iter\n"
           "------    ---------  ----       -------    --------   --------   ----\n");
}

static void print_row(const char *what, const sb_ior_phase *ph, uint64_t transfer, uint64_t rep, bool verbose)
{
    double iops = ph->elapsed_s > 0 ? (double)ph->bytes / (double)transfer / ph->elapsed_s : 0;
    printf("%-9s %-10.2f %-10.2f %-10.6f %-10.6f %-10.6f %llu\n", what, ph->bw / 1048576.0, iops, ph->open_s,
           ph->close_s, ph->elapsed_s, (unsigned long long)rep);
    if (ph->ranks_walled > 0) /* IOR's line: the counts at the wall, before any wear-out */
        printf("stonewalling pairs accessed min: %llu max: %llu -- data at the wall: %.1f MiB, time: %.3f s; "
               "%d rank%s stopped by it, %llu to %llu pairs in all\n",
               (unsigned long long)ph->wall_pairs_min, (unsigned long long)ph->wall_pairs_max,
               (double)ph->stonewall_bytes / 1048576.0, ph->stonewall_s, ph->ranks_walled,
               ph->ranks_walled == 1 ? "" : "s", (unsigned long long)ph->pairs_min, (unsigned long long)ph->pairs_max);
    if (verbose)
        printf("  per rank: min %.2f MiB/s, max %.2f MiB/s\n", ph->rank_bw_min / 1048576.0,
               ph->rank_bw_max / 1048576.0);
}

/* IOR's "Summary of all tests" in its short form: max, min and mean bandwidth of the reps. */
static void print_summary(const char *op, const double *bw, uint64_t n)
{
    double mx = 0, mn = INFINITY, sum = 0;
    for (uint64_t i = 0; i < n; i++) {
        mx = bw[i] > mx ? bw[i] : mx;
        mn = bw[i] < mn ? bw[i] : mn;
        sum += bw[i];
    }
    printf("%-9s max %.2f MiB/s, min %.2f MiB/s, mean %.2f MiB/s over %llu repetition%s\n", op,
           mx / 1048576.0, mn / 1048576.0, sum / (double)n / 1048576.0, (unsigned long long)n, n == 1 ? "" : "s");
}

/* The repetitions; 0 or the exit code after the failing rank's line. */
static int run_reps(ior_cli *c, double *wbw, double *rbw)
{
    sb_ior_state s;
    char err[1100] = "";
    int rc = sb_ior_init(&s, &c->p, err, sizeof err);
    for (uint64_t rep = 0; rc == 0 && rep < c->reps; rep++) {
        sb_ior_phase ph;
        if (rep > 0 && c->delay > 0)
            usleep((useconds_t)(c->delay * 1e6));
        if (c->write && (rc = sb_ior_write(&s, &ph, err, sizeof err)) == 0) {
            print_row("write", &ph, c->p.transfer, rep, c->verbose);
            wbw[rep] = ph.bw;
        }
        if (rc == 0 && c->read && (rc = sb_ior_read(&s, &ph, err, sizeof err)) == 0) {
            print_row("read", &ph, c->p.transfer, rep, c->verbose);
            rbw[rep] = ph.bw;
        }
        if (rc == 0 && !c->keep)
            rc = sb_ior_remove(&s, err, sizeof err);
        fflush(stdout);
    }
    if (rc < 0) {
        char e2[16];
        sb_ior_remove(&s, e2, sizeof e2); /* what this run made goes, failed or not */
        if (sb_interrupted())
            sb_error("ior: interrupted (signal %d); the files this run made are removed", sb_interrupt_signal());
        else
            sb_error("ior: %s", err);
    }
    sb_ior_free(&s);
    if (rc == -EINTR || sb_interrupted())
        return SB_EXIT_INTERRUPTED;
    return rc < 0 ? SB_EXIT_RUNTIME : 0;
}

int sb_cmd_ior(int argc, char **argv)
{
    ior_cli c = {.p = {.transfer = 256 << 10, .block = 1 << 20, .segments = 1}, .task_offset = 1, .reps = 1};
    snprintf(c.p.path, sizeof c.p.path, "testFile");
    bool help = false;
    int rc = parse(argc, argv, &c, &help);
    if (rc != 0)
        return rc;
    if (help) {
        usage(stdout);
        return 0;
    }
    char err[512];
    if (sb_ior_check(&c.p, err, sizeof err) < 0)
        return sb_usage_error("ior", "%s", err);
    if (!c.write && !c.read)
        c.write = c.read = true;
    /* a block device named with -o: the device rules every command keeps (core/devguard.h);
     * each rank checks without claiming, since the ranks of a host would refuse each
     * other's claim, and IOR has no consent flag: a device with data on it is refused */
    const sb_devguard_rules dev_rules = {0};
    if (c.write && !c.p.file_per_proc && sb_devguard_check(c.p.path, &dev_rules, err, sizeof err) < 0)
        return sb_usage_error("ior", "%s", err);
    if (c.reorder_tasks)
        c.p.reorder = sb_ior_task_offset(c.task_offset); /* IOR: -Q hosts away */
    print_header(&c);
    double *wbw = calloc(c.reps, sizeof *wbw), *rbw = calloc(c.reps, sizeof *rbw);
    if (!wbw || !rbw)
        sb_oom();
    rc = run_reps(&c, wbw, rbw);
    if (rc == 0) {
        printf("\nSummary of all tests:\n");
        if (c.write)
            print_summary("write", wbw, c.reps);
        if (c.read)
            print_summary("read", rbw, c.reps);
        double mw = 0, mr = 0;
        for (uint64_t i = 0; i < c.reps; i++) {
            mw = wbw[i] > mw ? wbw[i] : mw;
            mr = rbw[i] > mr ? rbw[i] : mr;
        }
        if (c.write)
            printf("Max Write: %.2f MiB/sec (%.2f MB/sec)\n", mw / 1048576.0, mw / 1e6);
        if (c.read)
            printf("Max Read:  %.2f MiB/sec (%.2f MB/sec)\n", mr / 1048576.0, mr / 1e6);
        printf("\nFinished\n");
    }
    free(wbw);
    free(rbw);
    return rc;
}
