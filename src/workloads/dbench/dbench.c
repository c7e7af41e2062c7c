/*
 * dbench — the Dbench test (dbench 4.0, "Client Count: 6"): N clients, each a
 * process (as dbench's) in its own directory, replay a file-server operation stream in a
 * loop on the local file system, as dbench's "fileio" backend does. After a
 * warm-up the counters start; when the measured time is over the clients
 * stop and remove their directories.
 *
 * The stream is by default the one the seed's figures come from: dbench's own
 * NetBench-derived loadfile, /usr/share/dbench/client.txt (Debian package
 * dbench; GPL data, so it is read from there, never copied into storbench).
 * Any dbench-format loadfile can be named instead, and loadfile=builtin runs
 * storbench's own generator, a lighter mix that is a different test (its
 * figure is about twice client.txt's; docs/workloads.md).
 *
 * Each client by default also does what a dbench client does per line besides
 * the operation (client=dbench: its own reading and parsing of the loadfile,
 * the parent check, a fresh buffer per read and write; dbench_replay.h), and runs
 * as a forked process with its own address space, as dbench's clients do
 * (dbench_clients.c says why that matters), so that the figure is dbench's;
 * client=light skips the per-line work and runs the clients as threads.
 *
 * The figure is dbench's: decimal MB/s of ReadX and WriteX request sizes
 * completed in the measured time, over all clients. Each operation is one
 * latency sample; per-verb counts and maximum latencies are secondary
 * figures.
 *
 * This file holds the options, the clients' loop and their phases, and the
 * figures; dbench_clients.c starts and reaps the clients, dbench_exec.c executes one operation (a client's per-line work, and
 * how each verb maps to system calls), dbench_loadfile.c reads or generates the
 * stream, dbench_replay.c is a client's own reading of the loadfile.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/histogram.h"
#include "workloads/dbench/dbench.h"
#include "workloads/dbench/dbench_loadfile.h"
#include "workloads/dbench/dbench_replay.h"
#include "workloads/fs_common.h"
#include "workloads/workload.h"

#define DB_GEN_OPS 100000

static const sb_choice db_client_choices[] = {
    {"dbench", "dbench"},
    {"light", "Light"},
    {NULL, NULL},
};

static const sb_option db_options[] = {
    {"clients", "Client Count", "6", NULL, NULL, "clients replaying the stream, each in its own directory", 0, .kind = SB_VAL_UINT, .min = 1, .max = 4096},
    /* --quick: 2 runs (sb_wl_dbench.quick_runs) of 5 s after 10 s of warm-up. On this
     * machine's virtual disk dbench's first ~10 s run at about 1.5x its later rate (the
     * host's write cache), so a shorter warm-up measures that start, not the test:
     * 1 s + 4 s gave 1.26x a 60-s run, 2 x (10 s + 5 s) 1.13-1.20x (docs/workloads.md). */
    {"time", "Time", "600", "5", NULL, "measured seconds (after the warm-up)", SB_OPT_HIDDEN, .kind = SB_VAL_DURATION},
    {"warmup", "Warm-up", "120", "10", NULL, "seconds run before the counters start", SB_OPT_HIDDEN, .kind = SB_VAL_DURATION},
    /* The seed's stream; any other (builtin included) is a different test and shows
     * in the option line. */
    {"loadfile", "Loadfile", SB_DBENCH_CLIENT_TXT, NULL, NULL,
     "dbench loadfile to replay (default: dbench's client.txt, Debian package dbench), "
     "or builtin: storbench's own lighter generator, a different test",
     SB_OPT_IF_CHANGED, .kind = SB_VAL_TEXT},
    {"seed", "Seed", "1", NULL, NULL, "seed of the built-in generator (loadfile=builtin only)", SB_OPT_IF_CHANGED, .kind = SB_VAL_UINT, .min = 0, .max = UINT64_MAX},
    /* The client model: dbench's (a process per client doing dbench's per-line work; the
     * figure is dbench's), or a lighter one (threads, no per-line work; a different figure). */
    {"client", "Client", "dbench", NULL, db_client_choices,
     "client model: dbench (a forked process per client that re-reads and re-parses the "
     "loadfile line, checks its parent and takes a fresh buffer per read and write, as "
     "dbench's client) or light (threads of one process, none of that work)",
     SB_OPT_IF_CHANGED, .kind = SB_VAL_CHOICE},
};

static const sb_measure db_measures[] = {
    {NULL, "MB/s", SB_HIGHER_IS_BETTER},
};

static bool db_is_default_loadfile(const db_params *p)
{
    return p->loadfile && !strcmp(p->loadfile, SB_DBENCH_CLIENT_TXT);
}

static int db_resolve(const sb_config *cfg, void *params, char *err, size_t errlen)
{
    db_params *p = params;
    int rc;
    if ((rc = sb_config_check(cfg, err, errlen)))
        return rc;
    p->clients = sb_config_u(cfg, "clients");
    p->seed = sb_config_u(cfg, "seed");
    p->time = sb_config_seconds(cfg, "time");
    p->warmup = sb_config_seconds(cfg, "warmup");
    p->clock_k = 1;
    if (p->time <= 0) {
        snprintf(err, errlen, "dbench: time must be more than 0 seconds");
        return -EINVAL;
    }
    if (p->warmup < 0) {
        snprintf(err, errlen, "dbench: warmup must not be negative");
        return -EINVAL;
    }
    const char *lf = sb_config_get(cfg, "loadfile");
    p->loadfile = (!lf || !*lf || !strcmp(lf, "builtin")) ? NULL : lf;
    const char *cl = sb_config_get(cfg, "client");
    p->light = cl && !strcmp(cl, "light");
    if (p->loadfile && p->seed != 1) {
        snprintf(err, errlen, "dbench: seed applies to loadfile=builtin only");
        return -EINVAL;
    }
    /* Without the dbench package the default loadfile is missing: that is a property
     * of the machine, so run() skips the test (one line) instead of refusing the
     * whole command line. */
    if (db_is_default_loadfile(p) && access(p->loadfile, F_OK) != 0)
        return 0;
    if (p->loadfile) {
        /* Parse it now, so that a bad loadfile is refused before any test starts
         * (client.txt parses in well under a second). */
        sb_dbench_script sc;
        char msg[400];
        if (sb_dbench_parse_file(&sc, p->loadfile, msg, sizeof msg) != 0) {
            snprintf(err, errlen, "dbench: loadfile %s", msg);
            return -EINVAL;
        }
        sb_dbench_script_free(&sc);
    }
    return 0;
}

void sb_dbench_dilate(void *params, unsigned k)
{
    db_params *p = params;
    p->time *= k;
    p->warmup *= k;
    p->clock_k *= k;
}

/* The default loadfile comes with Debian's dbench package: without it the test cannot
 * run here (a skip, not a usage error). 0, or -ENOTSUP with the line in why. */
static int db_loadfile_present(const db_params *p, char *why, size_t whylen)
{
    if (!db_is_default_loadfile(p) || access(p->loadfile, F_OK) == 0)
        return 0;
    snprintf(why, whylen, "dbench: %s not found (Debian package dbench); loadfile=builtin runs "
             "storbench's own generator, a different test", p->loadfile);
    return -ENOTSUP;
}

static int db_available(const void *params, const char *target, char *why, size_t whylen)
{
    return db_loadfile_present(params, why, whylen);
}

static uint64_t db_space_needed(const void *params)
{
    const db_params *p = params;
    /* client.txt's files peak at 24 MB per client (its largest extents summed over
     * the files alive at once); the generator stays below that. */
    return p->clients * 40000000ull;
}

static double db_estimate(const void *params)
{
    const db_params *p = params;
    return p->warmup + p->time + 1;
}

static int db_deltree(const char *path)
{
    int rc = sb_fs_empty_dir(path, NULL, 0);
    if (rmdir(path) != 0 && errno != ENOENT && rc == 0)
        rc = -errno;
    return rc;
}

/* A timestamped loadfile line waits until its time into the loop, as dbench does (the
 * wait is not part of the operation's latency). Sleeps in short steps (DB_POLL_MS, ×K
 * dilated) so that the end of the run is seen; false when the run is over. */
static bool db_wait_until(db_shared *sh, uint64_t t_ns)
{
    uint64_t step = (uint64_t)DB_POLL_MS * 1000000u * sh->clock_k;
    for (;;) {
        if (atomic_load_explicit(&sh->phase, memory_order_relaxed) == 2)
            return false;
        uint64_t now = sb_now_ns();
        if (now >= t_ns)
            return true;
        uint64_t d = t_ns - now;
        if (d > step)
            d = step;
        struct timespec ts = {(time_t)(d / 1000000000u), (long)(d % 1000000000u)};
        nanosleep(&ts, NULL);
    }
}

static void *db_client_main(void *arg)
{
    db_client *c = arg;
    db_shared *sh = c->sh;
    const sb_dbench_script *sc = sh->script;
    if (mkdir(c->root, 0755) != 0 && errno != EEXIST) {
        sb_dbench_fail(c, errno, "mkdir", c->root);
        return NULL;
    }
    for (;;) {
        uint64_t loop_t0 = sb_now_ns();
        for (uint32_t i = 0; i < sc->n; i++) {
            if (sc->ops[i].at > 0 && !db_wait_until(sh, loop_t0 + (uint64_t)(sc->ops[i].at * 1e9 * sh->clock_k)))
                goto done;
            int phase = atomic_load_explicit(&sh->phase, memory_order_relaxed);
            if (phase == 2)
                goto done;
            db_stats *s = &c->stats[phase];
            db_outcome out = {0, 0, false};
            uint64_t t0 = sb_now_ns();
            char *fresh = NULL, *kept = NULL;
            if (c->replaying) {
                if (sb_dbench_line_work(c, &sc->ops[i], &fresh) != 0)
                    goto done;
                kept = c->buf; /* after sb_dbench_line_work: it may have grown (moved) it */
                if (fresh)
                    c->buf = fresh;
            }
            int rc = sb_dbench_exec(c, &sc->ops[i], i, &out);
            if (fresh) {
                c->buf = kept;
                free(fresh);
            }
            if (rc != 0)
                goto done;
            uint64_t dt = sb_now_ns() - t0;
            s->unexpected += out.unexpected;
            /* An operation that finishes after its phase ended does not count. */
            if (atomic_load_explicit(&sh->phase, memory_order_relaxed) != phase)
                continue;
            s->read_bytes += out.read_bytes;
            s->write_bytes += out.write_bytes;
            s->bytes += out.read_bytes + out.write_bytes;
            int v = sc->ops[i].verb;
            s->count[v]++;
            if (dt > s->max_ns[v])
                s->max_ns[v] = dt;
            sb_hist_record(&s->hist, dt);
        }
        c->stats[atomic_load(&sh->phase) == 1 ? 1 : 0].loops++;
        sb_dbench_close_all(c); /* a loadfile may end with handles open */
    }
done:
    sb_dbench_close_all(c);
    return NULL;
}

/* The operation stream: the loadfile, or the built-in generator's. */
static int db_load_script(sb_run_ctx *ctx, const db_params *p, sb_dbench_script *script)
{
    char why[400];
    if (db_loadfile_present(p, why, sizeof why))
        return sb_ctx_fail(ctx, ENOTSUP, "%s", why);
    if (p->loadfile) {
        char err[400];
        int rc = sb_dbench_parse_file(script, p->loadfile, err, sizeof err);
        if (rc)
            return sb_ctx_fail(ctx, rc, "dbench: loadfile %s", err);
    } else if (sb_dbench_generate(script, p->seed, DB_GEN_OPS) != 0) {
        return sb_ctx_fail(ctx, ENOMEM, "dbench: out of memory");
    }
    return 0;
}

/* Starts the clients, moves them from warm-up to the measured phase and stops
 * them when the time is over (or on interrupt or error), then joins them. The measured
 * interval is [*t_measure, *t_end]; *t_measure stays 0 when it never began. */
static void db_drive(sb_run_ctx *ctx, const db_params *p, db_shared *sh, db_client *cs,
                     uint64_t *t_measure, uint64_t *t_end)
{
    bool procs = !p->light;
    uint64_t t_start = sb_now_ns();
    *t_measure = *t_end = 0;
    /* With no warm-up the clients start in the measured phase: set after they started,
     * a client's first operations would fall in a warm-up that does not exist (and a
     * WriteX could count without the NTCreateX before it). */
    if (p->warmup == 0)
        atomic_store(&sh->phase, 1), *t_measure = t_start;
    unsigned started = sb_dbench_start(cs, (unsigned)p->clients, procs, db_client_main);
    double total = p->warmup + p->time;
    while (atomic_load(&sh->phase) != 2) {
        sb_sleep_ms(DB_POLL_MS * p->clock_k);
        sb_dbench_poll(cs, started, procs);
        double el = (double)(sb_now_ns() - t_start) / 1e9;
        if (sb_ctx_interrupted(ctx)) {
            atomic_store(&sh->phase, 2);
            break;
        }
        if (*t_measure == 0 && el >= p->warmup) {
            *t_measure = sb_now_ns();
            atomic_store(&sh->phase, 1);
        }
        if (el >= total) {
            *t_end = sb_now_ns();
            atomic_store(&sh->phase, 2);
        }
        sb_ctx_progress(ctx, el / total);
    }
    if (*t_end == 0)
        *t_end = sb_now_ns();
    sb_dbench_reap(cs, started, procs);
}

/* Clean-up: each client's directory, then the shared one; the measured phase's
 * counters of every client summed into sum (unexpected outcomes and loops of both). */
static void db_collect(const db_params *p, db_shared *sh, db_client *cs, const char *clients_dir,
                       db_stats *sum)
{
    memset(sum, 0, sizeof *sum);
    sb_hist_init(&sum->hist);
    for (unsigned i = 0; i < p->clients; i++) {
        int r = db_deltree(cs[i].root);
        if (r < 0)
            sb_dbench_report(sh, r, "dbench: remove %s: %s", cs[i].root, strerror(-r));
        const db_stats *s = &cs[i].stats[1];
        for (int v = 0; v < SB_DBENCH_N_VERBS; v++) {
            sum->count[v] += s->count[v];
            if (s->max_ns[v] > sum->max_ns[v])
                sum->max_ns[v] = s->max_ns[v];
        }
        sum->bytes += s->bytes;
        sum->read_bytes += s->read_bytes;
        sum->write_bytes += s->write_bytes;
        sum->unexpected += s->unexpected + cs[i].stats[0].unexpected;
        sum->loops += s->loops + cs[i].stats[0].loops;
        sb_hist_merge(&sum->hist, &s->hist);
        free(cs[i].buf);
        sb_dbench_replay_close(&cs[i].replay);
    }
    /* Loadfile paths outside the client directories (other than \clients) go here. */
    char failed[512];
    int r = sb_fs_empty_dir(clients_dir, failed, sizeof failed);
    if (r < 0)
        sb_dbench_report(sh, r, "dbench: remove %s: %s", failed, strerror(-r));
    rmdir(clients_dir);
}

/* client=dbench with a loadfile: each client its own stream of it, as dbench's clients
 * (the built-in generator has no text to read). */
static int db_open_replays(sb_run_ctx *ctx, const db_params *p, db_client *cs)
{
    int rc = 0;
    for (unsigned i = 0; i < p->clients && !p->light && p->loadfile && rc == 0; i++) {
        char err[400];
        if ((rc = sb_dbench_replay_open(&cs[i].replay, p->loadfile, err, sizeof err)) != 0)
            rc = sb_ctx_fail(ctx, -rc, "dbench: loadfile %s", err);
        cs[i].replaying = rc == 0;
        cs[i].parent = getppid(); /* a thread's; a client process reads its own */
    }
    return rc;
}

/* dbench's figure (decimal MB/s of ReadX and WriteX sizes) and the secondary ones. */
static void db_record(sb_sample *s, const db_stats *sum, double secs)
{
    s->value = secs > 0 ? (double)sum->bytes / secs / 1e6 : 0;
    s->valid = secs > 0;
    s->seconds = secs;
    uint64_t ops = 0;
    for (int v = 0; v < SB_DBENCH_N_VERBS; v++)
        ops += sum->count[v];
    sb_sample_add(s, "operations", "ops", (double)ops);
    sb_sample_add(s, "ops_per_sec", "ops/s", secs > 0 ? (double)ops / secs : 0);
    sb_sample_add(s, "bytes_read", "bytes", (double)sum->read_bytes);
    sb_sample_add(s, "bytes_written", "bytes", (double)sum->write_bytes);
    sb_sample_add(s, "unexpected", "ops", (double)sum->unexpected);
    sb_sample_add(s, "max_latency", "ms", (double)sum->hist.max / 1e6);
    for (int v = 0; v < SB_DBENCH_N_VERBS; v++) {
        if (!sum->count[v])
            continue;
        char n[32];
        snprintf(n, sizeof n, "n_%s", sb_dbench_verb_name(v));
        sb_sample_add(s, n, "ops", (double)sum->count[v]);
        snprintf(n, sizeof n, "max_%s", sb_dbench_verb_name(v));
        sb_sample_add(s, n, "ms", (double)sum->max_ns[v] / 1e6);
    }
    sb_sample_add_latency(s, "lat", &sum->hist);
}

/* The clients' part of a run, on the shared mapping sh (stats: the clients' counters):
 * their directories and streams, the run, the clean-up, the measured phase summed into
 * sum. 0, or a negative errno with the failure's line in ctx->err. */
static int db_clients_run(sb_run_ctx *ctx, const db_params *p, db_shared *sh, db_stats *stats,
                          db_stats *sum, double *secs)
{
    char clients_dir[4096];
    snprintf(clients_dir, sizeof clients_dir, "%s/clients", ctx->dir);
    db_client *cs = calloc(p->clients, sizeof *cs);
    if (!cs)
        return sb_ctx_fail(ctx, ENOMEM, "dbench: out of memory");
    if (mkdir(clients_dir, 0755) != 0 && errno != EEXIST) {
        int rc = sb_ctx_fail(ctx, errno, "dbench: mkdir %s: %s", clients_dir, strerror(errno));
        free(cs);
        return rc;
    }
    for (unsigned i = 0; i < p->clients; i++) {
        db_client *c = &cs[i];
        c->sh = sh;
        c->id = i;
        c->stats = &stats[2 * i];
        snprintf(c->root, sizeof c->root, "%s/client%u", clients_dir, i);
        for (int k = 0; k < DB_MAX_HANDLES; k++)
            c->handles[k].handle = -1;
    }
    int rc = db_open_replays(ctx, p, cs);
    if (rc != 0) {
        for (unsigned i = 0; i < p->clients; i++)
            sb_dbench_replay_close(&cs[i].replay);
        rmdir(clients_dir);
        free(cs);
        return rc;
    }
    uint64_t t_measure, t_end;
    db_drive(ctx, p, sh, cs, &t_measure, &t_end);
    db_collect(p, sh, cs, clients_dir, sum);
    free(cs);
    *secs = t_measure ? (double)(t_end - t_measure) / 1e9 : 0;
    if (sh->err)
        return sb_ctx_fail(ctx, sh->err, "%s", sh->errmsg);
    return 0;
}

static int db_run(sb_run_ctx *ctx, const void *params, sb_sample *samples)
{
    const db_params *p = params;
    int rc;
    sb_dbench_script script;
    if ((rc = db_load_script(ctx, p, &script)) != 0)
        return rc;
    db_stats *stats;
    db_shared *sh = sb_dbench_shared_map((unsigned)p->clients, &stats);
    if (!sh) {
        rc = sb_ctx_fail(ctx, errno, "dbench: shared memory for %u clients: %s", (unsigned)p->clients,
                         strerror(errno));
        sb_dbench_script_free(&script);
        return rc;
    }
    sh->script = &script;
    sh->dir = ctx->dir;
    sh->loadfile = p->loadfile;
    sh->clock_k = p->clock_k;
    db_stats sum;
    double secs = 0;
    rc = db_clients_run(ctx, p, sh, stats, &sum, &secs);
    sb_dbench_shared_unmap(sh, (unsigned)p->clients);
    sb_dbench_script_free(&script);
    if (rc)
        return rc;
    if (sb_ctx_interrupted(ctx))
        return sb_ctx_fail(ctx, EINTR, "dbench: interrupted");
    db_record(&samples[0], &sum, secs);
    return 0;
}

const sb_workload sb_wl_dbench = {
    .name = "dbench",
    .title = "Dbench",
    .version = "4.0",
    .summary = "N clients replay dbench's client.txt file-server operation stream (or another loadfile); MB/s",
    .options = db_options,
    .n_options = sizeof db_options / sizeof db_options[0],
    .measures = db_measures,
    .n_measures = 1,
    .flags = SB_WL_WALL_CLOCK,
    .quick_runs = 2, /* two 15-s quick runs keep `run quick` within 3 minutes */
    .params_size = sizeof(db_params),
    .resolve = db_resolve,
    .space_needed = db_space_needed,
    .estimate_seconds = db_estimate,
    .run = db_run,
    .available = db_available,
};
