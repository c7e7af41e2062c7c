/*
 * sqlite — the SQLite test of the seed pages, run through libsqlite3.
 *
 * The reference profile (SQLite 3.8.10.2) pipes a SQL file to the sqlite3
 * shell: one CREATE TABLE, then 2,500 single-row INSERTs, each its own
 * autocommitted transaction, and runs the INSERTs 3 times into the same
 * database (7,500 transactions). The figure is the wall-clock time of the
 * whole thing; on a disk it is dominated by the journal's fsyncs. We execute
 * the same statement texts with sqlite3_exec(), as the shell does, so that
 * the parsing cost is the reference's too.
 *
 * "copies" runs N independent databases, each in its own thread started
 * together (today's profile); the figure is then the time until the last
 * copy finished. Each INSERT's latency goes into a histogram whose
 * percentiles become secondary figures. SQLite's version is not a number we
 * can put into the static option line, so it is recorded as the secondary
 * figure sqlite_version_number (sqlite3_libversion_number(): 3040001 is
 * 3.40.1).
 */
#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/histogram.h"
#include "core/rand.h"
#include "core/startline.h"
#include "workloads/workload.h"

#define SQLITE_PASSES 3

static const sb_choice journal_choices[] = {
    {"delete", "DELETE"},
    {"wal", "WAL"},
    {NULL, NULL},
};

static const sb_choice sync_choices[] = {
    {"off", "OFF"},
    {"normal", "NORMAL"},
    {"full", "FULL"},
    {"extra", "EXTRA"},
    {NULL, NULL},
};

static const sb_choice copies_choices[] = {
    {"1", "1"},
    {"8", "8"},
    {"32", "32"},
    {NULL, NULL},
};

static const sb_choice target_choices[] = {
    {"default", "Default Test Directory"},
    {NULL, NULL},
};

/* The seed profile's option line is "Test Target: Default Test Directory" alone: the
 * storbench options show only when they differ from the seed's values, so that a full-scale
 * figure with the seed's settings joins an imported seed page's SQLite result. */
static const sb_option sqlite_options[] = {
    {"target", "Test Target", "default", NULL, target_choices,
     "where the database lives: the run's directory on the target (as the seed profile)", 0, .kind = SB_VAL_CHOICE},
    {"count", "Inserts", "2500", "250", NULL,
     "rows inserted per pass, one autocommitted INSERT each (3 passes)", SB_OPT_IF_CHANGED, .kind = SB_VAL_UINT, .min = 1, .max = 32767},
    {"journal", "Journal Mode", "delete", NULL, journal_choices,
     "PRAGMA journal_mode: delete (SQLite's default) or wal", SB_OPT_IF_CHANGED, .kind = SB_VAL_CHOICE},
    {"sync", "Synchronous", "full", NULL, sync_choices,
     "PRAGMA synchronous (full is SQLite's default)", SB_OPT_IF_CHANGED, .kind = SB_VAL_CHOICE},
    {"copies", "Copies", "1", NULL, copies_choices,
     "parallel copies, each its own database and thread", SB_OPT_IF_CHANGED, .kind = SB_VAL_UINT, .min = 1, .max = 1024},
};

static const sb_measure sqlite_measures[] = {
    {NULL, "Seconds", SB_LOWER_IS_BETTER},
};

/* One copy: its database, its thread, its histogram. */
typedef struct sqlite_copy {
    pthread_t thread;
    bool started;
    char path[1024];
    uint64_t count;
    const char *journal;
    const char *sync;
    uint64_t seed;
    struct sqlite_shared *shared;
    sb_histogram hist;
    uint64_t finish_ns; /* when this copy closed its database */
    int rc;            /* 0 or negative errno */
    char err[1400];
} sqlite_copy;

typedef struct sqlite_shared {
    sb_startline start;      /* the copies' start line */
    atomic_bool stop;        /* interrupt or another copy failed */
    atomic_uint_fast64_t done; /* INSERTs completed over all copies */
} sqlite_shared;

static int sqlite_errno(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_FULL: return -ENOSPC;
    case SQLITE_IOERR: return -EIO;
    case SQLITE_NOMEM: return -ENOMEM;
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_CANTOPEN: return -EACCES;
    default: return -EIO;
    }
}

/* What is exhausted on the file system holding path: "inodes" when no inode is left
 * (statvfs counts them; f_files 0 means it does not, as btrfs), "space" when no block is,
 * else NULL. */
static const char *exhausted(const char *path)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    struct statvfs sv;
    if (statvfs(slash ? dir : ".", &sv) != 0)
        return NULL;
    if (sv.f_files > 0 && sv.f_favail == 0)
        return "inodes";
    return sv.f_bavail == 0 ? "space" : NULL;
}

/* The failure's line. SQLite says "unable to open database file" for a database or journal
 * it could not create whatever the cause, and its saved errno is that of its last try (a
 * read-only open: ENOENT), so a full file system is looked for first: no free inodes or no
 * free block is ENOSPC, named; otherwise the errno SQLite saw (sqlite3_system_errno). A
 * database removed under the run (with its directory) comes back as "disk I/O error" or
 * "attempt to write a readonly database" (SQLITE_READONLY_DBMOVED) with no errno at all
 * (bench/safety.sh, fault trials): when the file is gone, that is the cause, ENOENT. */
static int copy_fail(sqlite_copy *c, sqlite3 *db, int rc, const char *what)
{
    int e = db ? sqlite3_system_errno(db) : 0;
    const char *msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    int prim = rc & 0xff;
    const char *full = prim == SQLITE_CANTOPEN || prim == SQLITE_IOERR || prim == SQLITE_FULL ? exhausted(c->path) : NULL;
    struct stat st;
    bool gone = false;
    if (full)
        e = ENOSPC;
    else if (e <= 0 && (prim == SQLITE_IOERR || prim == SQLITE_READONLY) && stat(c->path, &st) < 0 &&
             errno == ENOENT)
        e = ENOENT, gone = true;
    if (e > 0) {
        snprintf(c->err, sizeof c->err, "sqlite: %s: %s: %s (%sSQLite: %s)", c->path, what, strerror(e),
                 full && !strcmp(full, "inodes") ? "no free inodes; " : gone ? "removed during the run; " : "",
                 msg);
        c->rc = -e;
    } else {
        snprintf(c->err, sizeof c->err, "sqlite: %s: %s: %s", c->path, what, msg);
        c->rc = sqlite_errno(rc);
    }
    atomic_store(&c->shared->stop, true);
    return c->rc;
}

static int exec_sql(sqlite_copy *c, sqlite3 *db, const char *sql, const char *what)
{
    int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? 0 : copy_fail(c, db, rc, what);
}

static int copy_body(sqlite_copy *c)
{
    sqlite_shared *sh = c->shared;
    sqlite3 *db = NULL;
    sb_rand r;
    char sql[256];
    int rc;

    sb_rand_seed(&r, c->seed);
    rc = sqlite3_open_v2(c->path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                         SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) {
        copy_fail(c, db, rc, "open");
        sqlite3_close(db);
        return c->rc;
    }
    /* Nobody else should open the database, but a reader (a test, a curious
     * user) must not make an INSERT fail with "database is locked". */
    sqlite3_busy_timeout(db, 10000);
    snprintf(sql, sizeof sql, "PRAGMA journal_mode=%s; PRAGMA synchronous=%s;",
             c->journal, c->sync);
    if (exec_sql(c, db, sql, "pragma") < 0)
        goto out;
    if (exec_sql(c, db, "CREATE TABLE pts1 ('I' SMALLINT NOT NULL, "
                 "'DT' TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, "
                 "'F1' VARCHAR(4) NOT NULL, 'F2' VARCHAR(16) NOT NULL);",
                 "create table") < 0)
        goto out;

    for (unsigned pass = 0; pass < SQLITE_PASSES; pass++) {
        for (uint64_t n = 1; n <= c->count; n++) {
            if (atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
                if (!c->rc)
                    c->rc = -EINTR;
                goto out;
            }
            /* Like the profile's generated file: a row number and two
             * strings of random digits, 4 and 16 long. */
            char f1[5], f2[17];
            for (int i = 0; i < 4; i++)
                f1[i] = (char)('0' + sb_rand_below(&r, 10));
            for (int i = 0; i < 16; i++)
                f2[i] = (char)('0' + sb_rand_below(&r, 10));
            f1[4] = f2[16] = '\0';
            snprintf(sql, sizeof sql,
                     "INSERT INTO pts1 VALUES (%llu, CURRENT_TIMESTAMP, '%s', '%s');",
                     (unsigned long long)n, f1, f2);
            uint64_t t0 = sb_now_ns();
            if (exec_sql(c, db, sql, "insert") < 0)
                goto out;
            sb_hist_record(&c->hist, sb_now_ns() - t0);
            atomic_fetch_add_explicit(&sh->done, 1, memory_order_relaxed);
        }
    }
out:
    rc = sqlite3_close(db);
    if (rc != SQLITE_OK && !c->rc)
        copy_fail(c, NULL, rc, "close");
    return c->rc;
}

static void *copy_thread(void *arg)
{
    sqlite_copy *c = arg;
    sb_startline_wait(&c->shared->start);
    copy_body(c);
    c->finish_ns = sb_now_ns();
    return NULL;
}

/* Releases the started copies at one start line, watches progress and Ctrl-C from this
 * thread only, and joins them. Returns the seconds from the start line until the last
 * copy finished. */
static double run_copies(sb_run_ctx *ctx, sqlite_copy *cp, uint64_t copies, sqlite_shared *sh,
                         uint64_t total)
{
    /* Start line: the clock runs from the moment all copies are released. */
    unsigned started = 0;
    for (uint64_t i = 0; i < copies; i++)
        started += cp[i].started;
    uint64_t t0 = sb_startline_release(&sh->start, started, 0);

    /* Watch: progress and Ctrl-C, from this thread only. */
    for (;;) {
        uint64_t done = atomic_load(&sh->done);
        sb_ctx_progress(ctx, (double)done / (double)total);
        if (sb_ctx_interrupted(ctx))
            atomic_store(&sh->stop, true);
        if (done >= total || atomic_load(&sh->stop))
            break;
        sb_sleep_ms(50);
    }
    /* The end is when the last copy finished, not when this thread (which
     * sleeps between looks) noticed it. */
    uint64_t t1 = t0;
    for (uint64_t i = 0; i < copies; i++) {
        if (!cp[i].started)
            continue;
        pthread_join(cp[i].thread, NULL);
        if (cp[i].finish_ns > t1)
            t1 = cp[i].finish_ns;
    }
    return (double)(t1 - t0) / 1e9;
}

/* The options as numbers, read once before anything runs (count=0 used to fail only inside
 * the run). The row number is a SMALLINT column, as in the seed profile's SQL: at most
 * 32,767. */
typedef struct sqlite_params {
    uint64_t count, copies;
    const char *journal, *sync; /* a declared choice's value (static) */
} sqlite_params;

static int sqlite_resolve(const sb_config *cfg, void *params, char *err, size_t errlen)
{
    sqlite_params *p = params;
    int rc = sb_config_check(cfg, err, errlen);
    p->count = sb_config_u(cfg, "count");
    p->copies = sb_config_u(cfg, "copies");
    p->journal = sb_config_get(cfg, "journal");
    p->sync = sb_config_get(cfg, "sync");
    return rc;
}

static int sqlite_run(sb_run_ctx *ctx, const void *params, sb_sample *samples)
{
    const sqlite_params *p = params;
    const uint64_t count = p->count, copies = p->copies;
    int rc = 0;
    /* The result's title names the library that ran, not the seed profile's version. */
    snprintf(ctx->software, sizeof ctx->software, "SQLite %s", sqlite3_libversion());

    sqlite_shared sh;
    memset(&sh, 0, sizeof sh);
    sb_startline_init(&sh.start);
    atomic_init(&sh.stop, false);
    atomic_init(&sh.done, 0);

    sqlite_copy *cp = calloc(copies, sizeof *cp);
    if (!cp) {
        rc = sb_ctx_fail(ctx, ENOMEM, "sqlite: out of memory");
        goto out_sync;
    }
    for (uint64_t i = 0; i < copies; i++) {
        sqlite_copy *c = &cp[i];
        snprintf(c->path, sizeof c->path, "%s/sqlite-%llu.db", ctx->dir, (unsigned long long)i);
        c->count = count;
        c->journal = p->journal;
        c->sync = p->sync;
        c->seed = 0x5eed0000u + ctx->run_index * 1024u + i;
        c->shared = &sh;
        sb_hist_init(&c->hist);
        int e = pthread_create(&c->thread, NULL, copy_thread, c);
        if (e) {
            rc = sb_ctx_fail(ctx, e, "sqlite: cannot start thread: %s", strerror(e));
            atomic_store(&sh.stop, true);
            break;
        }
        c->started = true;
    }

    uint64_t total = count * SQLITE_PASSES * copies;
    double seconds = run_copies(ctx, cp, copies, &sh, total);

    if (rc < 0)
        goto out;
    if (sb_ctx_interrupted(ctx)) {
        rc = sb_ctx_fail(ctx, EINTR, "sqlite: interrupted");
        goto out;
    }
    for (uint64_t i = 0; i < copies; i++) {
        /* Report the first real failure, not the copies it stopped. */
        if (cp[i].rc < 0 && cp[i].rc != -EINTR) {
            rc = sb_ctx_fail(ctx, -cp[i].rc, "%s", cp[i].err);
            goto out;
        }
    }
    for (uint64_t i = 1; i < copies; i++)
        sb_hist_merge(&cp[0].hist, &cp[i].hist);

    sb_sample *s = &samples[0];
    s->value = seconds;
    s->seconds = seconds;
    s->valid = true;
    sb_sample_add(s, "transactions", "", (double)total);
    sb_sample_add(s, "inserts_per_s", "1/s", (double)total / seconds);
    sb_sample_add_latency(s, "lat", &cp[0].hist);
    sb_sample_add(s, "sqlite_version_number", "", (double)sqlite3_libversion_number());
    rc = 0;
out:
    /* The databases live in ctx->dir, which the runner removes; remove them
     * now anyway so a suite does not accumulate them. */
    for (uint64_t i = 0; i < copies; i++) {
        static const char *const suffix[] = {"", "-journal", "-wal", "-shm"};
        char path[1040];
        for (size_t k = 0; k < sizeof suffix / sizeof suffix[0]; k++) {
            snprintf(path, sizeof path, "%s%s", cp[i].path, suffix[k]);
            unlink(path);
        }
    }
    free(cp);
out_sync:
    sb_startline_destroy(&sh.start);
    return rc;
}

static uint64_t sqlite_space_needed(const void *params)
{
    const sqlite_params *p = params;
    /* About 50 bytes a row plus page overhead, plus a WAL that may grow to a
     * few MiB before its checkpoint. */
    return p->copies * (p->count * SQLITE_PASSES * 64 + (8u << 20));
}

static double sqlite_estimate_seconds(const void *params)
{
    const sqlite_params *p = params;
    /* Roughly one fsync pair per INSERT, ~1 ms each on an SSD. */
    return (double)p->count * SQLITE_PASSES * 0.002;
}

const sb_workload sb_wl_sqlite = {
    .name = "sqlite",
    .title = "SQLite",
    .version = "3.8.10.2",
    .summary = "2,500 autocommitted INSERTs run 3 times into one database (seconds)",
    .options = sqlite_options,
    .n_options = sizeof sqlite_options / sizeof sqlite_options[0],
    .measures = sqlite_measures,
    .n_measures = 1,
    .flags = SB_WL_WALL_CLOCK,
    .params_size = sizeof(sqlite_params),
    .resolve = sqlite_resolve,
    .space_needed = sqlite_space_needed,
    .estimate_seconds = sqlite_estimate_seconds,
    .run = sqlite_run,
};
