/*
 * io_fio_cli — fio's further command-line flags of `storbench io` (io_fio_cli.h says
 * which and why apart). The trigger is fio's: a file that appears (then removed) or a
 * time into the run makes every job stop where it is, and the command given with
 * --trigger runs, through sh -c, once. The command is only ever the command line's:
 * job files cannot name one (the safety rule: never run what a file names).
 */
#include "cli/io_fio_cli.h"

#include <errno.h>
#include <pthread.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int refuse(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx, char *err,
                  size_t errlen)
{
    if (!strcmp(o->name, "alloc-size"))
        snprintf(err, errlen, "fio's shared-memory pool for its maps; storbench takes its maps "
                 "and tables from the heap as they need, so there is no pool to size");
    else
        snprintf(err, errlen, "fio's client/server mode is not storbench's: jobs on several "
                 "hosts run as MPI ranks (mpirun -np N storbench io job.fio, docs/mpi.md)");
    return -EINVAL;
}

#define F(f) SB_OPT_FIELD(sb_io_fio_cli, f) /* .off, .size */
const sb_opt sb_io_fio_cli_options[] = {
    {.name = "trigger-file", .type = SB_OPT_STR, F(trigger_file), .arg = "FILE",
     .help = "when FILE appears it is removed and the trigger fires: every job stops where it "
             "is, its figures reported, and --trigger's command runs, as fio's",
     .category = SB_OPTC_OUTPUT},
    {.name = "trigger-timeout", .type = SB_OPT_DURATION, F(trigger_timeout_s), .arg = "TIME",
     .help = "the trigger fires TIME into the run, as fio's",
     .category = SB_OPTC_OUTPUT, .flags = SB_OPTF_POSITIVE},
    {.name = "trigger", .type = SB_OPT_STR, F(trigger), .arg = "CMD",
     .help = "the command (sh -c CMD) run when the trigger fires; needs --trigger-file or "
             "--trigger-timeout",
     .category = SB_OPTC_OUTPUT},
    {.name = "aux-path", .type = SB_OPT_STR, F(aux_path), .arg = "DIR",
     .help = "where verify_dump's and verify_state_save's files are written (and "
             "verify_state_load's read) instead of the working directory, as fio's",
     .category = SB_OPTC_OUTPUT},
    {.name = "inflate-log", .type = SB_OPT_STR, F(inflate_log), .arg = "FILE",
     .help = "print a log stored compressed (log_store_compressed: a .log.fz file, fio's or "
             "storbench's) as its text log and exit, as fio's --inflate-log",
     .category = SB_OPTC_OUTPUT},
    {.name = "append-terse", .type = SB_OPT_BOOL, F(append_terse),
     .help = "terse besides the other formats, as fio's (--output-format=FMT,terse)",
     .category = SB_OPTC_OUTPUT, .flags = SB_OPTF_NOARG},
    {.name = "profile", .type = SB_OPT_STR, F(profile.name), .arg = "NAME",
     .help = "run fio's built-in profile NAME: tiobench (four jobs one after another on four "
             "files: seqwrite, randwrite, seqread, randread; its options --block, --numruns, "
             "--dir and, with a profile, --threads N (numjobs); the job options given here win "
             "over its own); act is refused, naming why",
     .category = SB_OPTC_OUTPUT},
    {.name = "block", .type = SB_OPT_INT, F(profile.block), .min = 1, .max = 1u << 30, .def = "4096",
     .arg = "BYTES", .help = "--profile=tiobench: the block size in bytes (its jobs' bs)",
     .category = SB_OPTC_OUTPUT, .flags = SB_OPTF_DEF_DOC},
    {.name = "numruns", .type = SB_OPT_INT, F(profile.numruns), .min = 1, .max = 1u << 20, .def = "1",
     .arg = "N", .help = "--profile=tiobench: how many times each job runs (its jobs' loops)",
     .category = SB_OPTC_OUTPUT, .flags = SB_OPTF_DEF_DOC},
    {.name = "dir", .type = SB_OPT_STR, F(profile.dir), .def = "./", .arg = "DIR",
     .help = "--profile=tiobench: the directory of its four files (its jobs' directory)",
     .category = SB_OPTC_OUTPUT, .flags = SB_OPTF_DEF_DOC},
    {.name = "alloc-size", .type = SB_OPT_FUNC, F(refused), .arg = "KIB",
     .help = "refused: fio's shared-memory pool; storbench's maps come from the heap",
     .category = SB_OPTC_OUTPUT, .parse = refuse},
    {.name = "client", .type = SB_OPT_FUNC, F(refused), .arg = "HOST",
     .help = "refused: fio's client/server mode; several hosts run as MPI ranks (mpirun -np N "
             "storbench io job.fio)",
     .category = SB_OPTC_MPI, .parse = refuse},
    {.name = "server", .type = SB_OPT_FUNC, F(refused), .def = "any", .arg = "ARGS",
     .help = "refused, as --client",
     .category = SB_OPTC_MPI, .flags = SB_OPTF_SWITCH | SB_OPTF_DEF_DOC, .parse = refuse},
    {.name = "remote-config", .type = SB_OPT_FUNC, F(refused), .arg = "FILE",
     .help = "refused, as --client",
     .category = SB_OPTC_MPI, .parse = refuse},
};
const size_t sb_io_n_fio_cli_options = sizeof sb_io_fio_cli_options / sizeof sb_io_fio_cli_options[0];

int sb_io_fio_cli_check(const sb_io_fio_cli *c, bool ranks, char *err, size_t errlen)
{
    bool armed = c->trigger_file[0] || c->trigger_timeout_s > 0;
    if (c->trigger[0] && !armed) {
        snprintf(err, errlen, "--trigger runs when --trigger-file appears or at --trigger-timeout: "
                 "give one");
        return -EINVAL;
    }
    if ((armed || c->trigger[0]) && ranks) {
        snprintf(err, errlen, "--trigger, --trigger-file and --trigger-timeout are for one process "
                 "(every rank would run the command)");
        return -EINVAL;
    }
    struct stat st;
    if (c->aux_path[0] && (stat(c->aux_path, &st) < 0 || !S_ISDIR(st.st_mode))) {
        snprintf(err, errlen, "--aux-path %s: not a directory", c->aux_path);
        return -EINVAL;
    }
    return 0;
}

/* ------------------------------------------------------------ the trigger */

struct sb_io_trigger {
    const sb_io_fio_cli *c;
    pthread_t tid;
    atomic_bool quit;
};

static atomic_bool trigger_fired; /* read by the jobs' stop callbacks, from any thread */

bool sb_io_trigger_fired(void)
{
    return atomic_load_explicit(&trigger_fired, memory_order_relaxed);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The user's command through sh -c, waited for; a line when it could not run. */
static void run_command(const char *cmd)
{
    char *argv[] = {"sh", "-c", (char *)cmd, NULL};
    pid_t pid;
    int r = posix_spawn(&pid, "/bin/sh", NULL, NULL, argv, environ), status;
    if (r != 0) {
        fprintf(stderr, "storbench: io: --trigger: cannot run sh: %s\n", strerror(r));
        return;
    }
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
}

static void *watch(void *arg)
{
    sb_io_trigger *t = arg;
    const sb_io_fio_cli *c = t->c;
    double t0 = now_s();
    while (!atomic_load(&t->quit)) {
        bool fire = c->trigger_timeout_s > 0 && now_s() - t0 >= c->trigger_timeout_s;
        struct stat st;
        if (!fire && c->trigger_file[0] && stat(c->trigger_file, &st) == 0) {
            fire = true;
            if (unlink(c->trigger_file) < 0) /* fio's: say so and fire all the same */
                fprintf(stderr, "storbench: io: --trigger-file %s: cannot remove it: %s\n",
                        c->trigger_file, strerror(errno));
        }
        if (fire) {
            atomic_store(&trigger_fired, true);
            if (c->trigger[0])
                run_command(c->trigger);
            break;
        }
        usleep(20000);
    }
    return NULL;
}

int sb_io_trigger_start(const sb_io_fio_cli *c, sb_io_trigger **out)
{
    *out = NULL;
    if (!c->trigger_file[0] && c->trigger_timeout_s <= 0)
        return 0;
    sb_io_trigger *t = calloc(1, sizeof *t);
    if (!t)
        return -ENOMEM;
    t->c = c;
    int r = pthread_create(&t->tid, NULL, watch, t);
    if (r != 0) {
        free(t);
        return -r;
    }
    *out = t;
    return 0;
}

void sb_io_trigger_stop(sb_io_trigger *t)
{
    if (!t)
        return;
    atomic_store(&t->quit, true);
    pthread_join(t->tid, NULL);
    free(t);
}
