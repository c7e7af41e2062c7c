/*
 * fsmark — the FS-Mark test (fs_mark 3.3 profile): workers create files of a
 * fixed size in one shared directory (or spread over sub-directories), each
 * file created, written in 16 KiB chunks, fsynced and closed, and the figure
 * is files per second summed over workers, each worker's files divided by
 * its own elapsed time. The files are unlinked afterwards, untimed.
 *
 * The seed's three named tests are choices of the `test` option; test=custom
 * takes files/size/threads/dirs from their own options. Each file's
 * create+write+sync+close is one latency sample.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/histogram.h"
#include "core/rand.h"
#include "workloads/fs_common.h"
#include "workloads/workload.h"

#define FSM_CHUNK (16 * 1024)
#define FSM_NAME_LEN 40
#define FSM_RANDOM_LEN 24 /* fs_mark -r default: 24 random characters of the 40 */

enum fsm_sync { FSM_SYNC_FSYNC, FSM_SYNC_NONE, FSM_SYNC_END };

static const sb_choice fsm_tests[] = {
    {"1000-files", "1000 Files, 1MB Size"},
    {"5000-files-4-threads", "5000 Files, 1MB Size, 4 Threads"},
    {"4000-files-32-dirs", "4000 Files, 32 Sub Dirs, 1MB Size"},
    {"custom", "Custom"},
    {NULL, NULL},
};

static const sb_choice fsm_syncs[] = {
    {"fsync", "fsync Before Close"},
    {"none", "No Sync"},
    {"end", "One Sync At End"},
    {NULL, NULL},
};

static const sb_option fsm_options[] = {
    {"test", "Test", "1000-files", NULL, fsm_tests,
     "named seed test, or custom (then files/size/threads/dirs apply)", 0},
    {"files", "Files", "1000", "100", NULL, "files per worker (test=custom)", SB_OPT_HIDDEN},
    {"size", "Size", "1M", NULL, NULL, "bytes per file (test=custom)", SB_OPT_HIDDEN},
    {"threads", "Threads", "1", NULL, NULL, "workers, sharing the directory (test=custom)", SB_OPT_HIDDEN},
    {"dirs", "Sub Dirs", "0", NULL, NULL, "sub-directories, files spread round-robin; 0 = none (test=custom)",
     SB_OPT_HIDDEN},
    {"sync", "Sync Method", "fsync", NULL, fsm_syncs,
     "fsync before close (default), none, or one sync() at the end of each worker", SB_OPT_HIDDEN},
};

static const sb_measure fsm_measures[] = {
    {NULL, "Files/s", SB_HIGHER_IS_BETTER},
};

typedef struct fsm_params {
    uint64_t files;   /* per worker */
    uint64_t size;
    uint64_t threads;
    uint64_t dirs;
    enum fsm_sync sync;
} fsm_params;

/* The named tests' parameters; --quick divides the file counts by 10. */
static int fsm_resolve(const sb_config *cfg, fsm_params *p, char *err, size_t errlen)
{
    const char *test = sb_config_get(cfg, "test");
    const char *sync = sb_config_get(cfg, "sync");
    p->sync = !strcmp(sync, "none") ? FSM_SYNC_NONE : !strcmp(sync, "end") ? FSM_SYNC_END : FSM_SYNC_FSYNC;
    p->size = 1048576;
    p->threads = 1;
    p->dirs = 0;
    if (!strcmp(test, "1000-files")) {
        p->files = 1000;
    } else if (!strcmp(test, "5000-files-4-threads")) {
        p->files = 5000;
        p->threads = 4;
    } else if (!strcmp(test, "4000-files-32-dirs")) {
        p->files = 4000;
        p->dirs = 32;
    } else {
        int rc;
        if ((rc = sb_config_uint(cfg, "files", 1, 100000000, &p->files, err, errlen)) ||
            (rc = sb_config_size(cfg, "size", &p->size, err, errlen)) ||
            (rc = sb_config_uint(cfg, "threads", 1, 1024, &p->threads, err, errlen)) ||
            (rc = sb_config_uint(cfg, "dirs", 0, 100000, &p->dirs, err, errlen)))
            return rc;
        return 0;
    }
    if (cfg->quick)
        p->files /= 10;
    return 0;
}

static int fsm_validate(const sb_config *cfg, char *err, size_t errlen)
{
    fsm_params p;
    return fsm_resolve(cfg, &p, err, errlen);
}

static uint64_t fsm_space_needed(const sb_config *cfg)
{
    fsm_params p;
    char err[128];
    if (fsm_resolve(cfg, &p, err, sizeof err))
        return 0;
    /* Data plus a block of metadata per file. */
    return p.files * p.threads * (p.size + 4096);
}

static double fsm_estimate(const sb_config *cfg)
{
    fsm_params p;
    char err[128];
    if (fsm_resolve(cfg, &p, err, sizeof err))
        return 0;
    double n = (double)(p.files * p.threads);
    return n * 2e-3 + n * (double)p.size / 300e6;
}

typedef struct fsm_shared {
    sb_run_ctx *ctx;
    const fsm_params *p;
    const char *base;         /* the directory the workers share */
    const char *buf;          /* one chunk of incompressible data */
    atomic_uint_fast64_t done;  /* files written by all workers, for progress */
    atomic_int stop;
    pthread_mutex_t lock;
    int err;                  /* first failure (negative errno) */
} fsm_shared;

typedef struct fsm_worker {
    fsm_shared *sh;
    unsigned id;
    char (*names)[FSM_NAME_LEN + 8]; /* "NN/" prefix + name, relative to base */
    uint64_t created;
    double seconds;
    sb_histogram hist;
    pthread_t thread;
} fsm_worker;

static void fsm_fail(fsm_shared *sh, int err, const char *op, const char *path)
{
    pthread_mutex_lock(&sh->lock);
    if (sh->err == 0) {
        sh->err = sb_ctx_fail(sh->ctx, err, "fs-mark: %s %s: %s", op, path, strerror(err));
    }
    pthread_mutex_unlock(&sh->lock);
    atomic_store(&sh->stop, 1);
}

/* One file: create, write in 16 KiB chunks, optionally fsync, close. */
static int fsm_one_file(fsm_shared *sh, const char *path)
{
    const fsm_params *p = sh->p;
    int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
    if (fd < 0) {
        fsm_fail(sh, errno, "create", path);
        return -1;
    }
    for (uint64_t left = p->size; left > 0;) {
        size_t n = left < FSM_CHUNK ? (size_t)left : FSM_CHUNK;
        int rc = sb_fs_write_all(fd, sh->buf, n, -1);
        if (rc < 0) {
            close(fd);
            fsm_fail(sh, -rc, "write", path);
            return -1;
        }
        left -= n;
    }
    if (p->sync == FSM_SYNC_FSYNC && fsync(fd) != 0) {
        int e = errno;
        close(fd);
        fsm_fail(sh, e, "fsync", path);
        return -1;
    }
    if (close(fd) != 0) {
        fsm_fail(sh, errno, "close", path);
        return -1;
    }
    return 0;
}

static void *fsm_worker_main(void *arg)
{
    fsm_worker *w = arg;
    fsm_shared *sh = w->sh;
    const fsm_params *p = sh->p;
    sb_rand r;
    sb_rand_seed(&r, sb_now_ns() ^ ((uint64_t)w->id << 48));
    char path[4096];
    uint64_t t0 = sb_now_ns();
    for (uint64_t i = 0; i < p->files; i++) {
        if (atomic_load(&sh->stop) || sb_ctx_interrupted(sh->ctx))
            break;
        /* 40 characters: 16 hex digits unique per worker and file, then 24 random ones.
         * The sub-directory is chosen round-robin over the files of all workers. */
        char *name = w->names[i];
        int pre = 0;
        if (p->dirs > 0)
            pre = snprintf(name, 8, "%02u/", (unsigned)((i * p->threads + w->id) % p->dirs));
        snprintf(name + pre, 17, "%04x%012llx", w->id & 0xffffu, (unsigned long long)(i & 0xffffffffffffull));
        sb_fs_random_name(&r, name + pre + 16, FSM_RANDOM_LEN);
        snprintf(path, sizeof path, "%s/%s", sh->base, name);
        uint64_t s = sb_now_ns();
        if (fsm_one_file(sh, path) != 0)
            break;
        sb_hist_record(&w->hist, sb_now_ns() - s);
        w->created++;
        uint64_t d = atomic_fetch_add(&sh->done, 1) + 1;
        if (w->id == 0)
            sb_ctx_progress(sh->ctx, (double)d / (double)(p->files * p->threads));
    }
    if (p->sync == FSM_SYNC_END && w->created > 0 && !atomic_load(&sh->stop))
        sync();
    w->seconds = (double)(sb_now_ns() - t0) / 1e9;
    return NULL;
}

static int fsm_run(sb_run_ctx *ctx, sb_sample *samples)
{
    fsm_params p;
    int rc = fsm_resolve(ctx->cfg, &p, ctx->err, sizeof ctx->err);
    if (rc)
        return rc;

    char base[4096];
    snprintf(base, sizeof base, "%s/fs-mark", ctx->dir);
    if (mkdir(base, 0755) != 0)
        return sb_ctx_fail(ctx, errno, "fs-mark: mkdir %s: %s", base, strerror(errno));
    for (uint64_t d = 0; d < p.dirs; d++) {
        char sub[4200];
        snprintf(sub, sizeof sub, "%s/%02u", base, (unsigned)d);
        if (mkdir(sub, 0755) != 0) {
            rc = sb_ctx_fail(ctx, errno, "fs-mark: mkdir %s: %s", sub, strerror(errno));
            sb_fs_empty_dir(base, NULL, 0);
            rmdir(base);
            return rc;
        }
    }

    char *buf = malloc(FSM_CHUNK);
    fsm_worker *ws = calloc(p.threads, sizeof *ws);
    if (!buf || !ws) {
        free(buf);
        free(ws);
        rmdir(base);
        return sb_ctx_fail(ctx, ENOMEM, "fs-mark: out of memory");
    }
    sb_rand r;
    sb_rand_seed(&r, 0x5fa3);
    sb_rand_fill(&r, buf, FSM_CHUNK);

    fsm_shared sh = {.ctx = ctx, .p = &p, .base = base, .buf = buf};
    pthread_mutex_init(&sh.lock, NULL);
    unsigned started = 0;
    for (unsigned t = 0; t < p.threads; t++) {
        ws[t].sh = &sh;
        ws[t].id = t;
        sb_hist_init(&ws[t].hist);
        ws[t].names = malloc(p.files * sizeof *ws[t].names);
        if (!ws[t].names) {
            fsm_fail(&sh, ENOMEM, "allocate", "file name table");
            break;
        }
    }
    if (!sh.err) {
        for (; started < p.threads; started++) {
            if ((rc = pthread_create(&ws[started].thread, NULL, fsm_worker_main, &ws[started])) != 0) {
                fsm_fail(&sh, rc, "start", "worker thread");
                break;
            }
        }
    }
    for (unsigned t = 0; t < started; t++)
        pthread_join(ws[t].thread, NULL);

    /* Untimed clean-up: unlink every file made, in creation order. */
    char path[4200];
    uint64_t created = 0, removed = 0;
    double rate = 0;
    sb_histogram all;
    sb_hist_init(&all);
    for (unsigned t = 0; t < p.threads; t++) {
        for (uint64_t i = 0; i < ws[t].created; i++) {
            snprintf(path, sizeof path, "%s/%s", base, ws[t].names[i]);
            if (unlink(path) == 0)
                removed++;
            else if (!sh.err)
                fsm_fail(&sh, errno, "unlink", path);
        }
        created += ws[t].created;
        if (ws[t].seconds > 0)
            rate += (double)ws[t].created / ws[t].seconds;
        sb_hist_merge(&all, &ws[t].hist);
    }
    double longest = 0;
    for (unsigned t = 0; t < p.threads; t++)
        if (ws[t].seconds > longest)
            longest = ws[t].seconds;
    /* A failed create may have left a partial file: remove whatever is left. */
    char failed[512];
    int crc = sb_fs_empty_dir(base, failed, sizeof failed);
    if (crc < 0 && !sh.err)
        fsm_fail(&sh, -crc, "remove", failed);
    if (rmdir(base) != 0 && !sh.err)
        fsm_fail(&sh, errno, "rmdir", base);

    for (unsigned t = 0; t < p.threads; t++)
        free(ws[t].names);
    free(ws);
    free(buf);
    pthread_mutex_destroy(&sh.lock);

    if (sh.err)
        return sh.err;
    if (sb_ctx_interrupted(ctx))
        return sb_ctx_fail(ctx, EINTR, "fs-mark: interrupted");

    sb_sample *s = &samples[0];
    s->value = rate;
    s->valid = true;
    s->seconds = longest;
    sb_sample_add(s, "files_created", "files", (double)created);
    sb_sample_add(s, "files_removed", "files", (double)removed);
    sb_sample_add(s, "bytes_written", "bytes", (double)created * (double)p.size);
    sb_sample_add(s, "workers", "threads", (double)p.threads);
    sb_sample_add(s, "sub_dirs", "dirs", (double)p.dirs);
    sb_sample_add_latency(s, "lat", &all);
    return 0;
}

const sb_workload sb_wl_fsmark = {
    .name = "fs-mark",
    .title = "FS-Mark",
    .version = "3.3",
    .summary = "create+write+fsync+close of many files in one directory; files/s (fs_mark)",
    .options = fsm_options,
    .n_options = sizeof fsm_options / sizeof fsm_options[0],
    .measures = fsm_measures,
    .n_measures = 1,
    .flags = SB_WL_WALL_CLOCK,
    .validate = fsm_validate,
    .space_needed = fsm_space_needed,
    .estimate_seconds = fsm_estimate,
    .run = fsm_run,
};
