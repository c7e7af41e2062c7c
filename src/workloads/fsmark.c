/*
 * fsmark — the FS-Mark test (fs_mark 3.3 profile): workers create files of a
 * fixed size in one shared directory (or in sub-directories), each file
 * created, written in 16 KiB chunks, fsynced and closed, and the figure is
 * files per second summed over workers, each worker's files divided by its
 * own elapsed time. Each worker unlinks its files right after its own timed
 * loop, untimed, as an fs_mark child does.
 *
 * The work per file is fs_mark's, call for call: mkdir of the target
 * directory (EEXIST), open(O_CREAT|O_RDWR|O_TRUNC), the writes, fsync, close;
 * the bytes are zeros (fs_mark writes a zeroed buffer, which matters on a
 * compressing file system; data=random writes incompressible bytes instead);
 * names are fs_mark's: the time in hex, '~' padding, 24 random [0-9A-Z].
 * Sub-directories are chosen as fs_mark chooses them: by default a hash of the
 * time that moves to the next one every 180 s (-D without -N), or per-dir=N
 * files each in turn (-N).
 *
 * The seed's three named tests are choices of the `test` option; test=custom
 * takes files/size/threads/dirs from their own options. Each file's
 * create+write+sync+close is one latency sample.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/fdtable.h"
#include "core/histogram.h"
#include "core/rand.h"
#include "workloads/fs_common.h"
#include "workloads/fsmark.h"
#include "workloads/workload.h"

#define FSM_CHUNK (16 * 1024)
#define FSM_NAME_LEN 40
#define FSM_RANDOM_LEN 24 /* fs_mark -r default: 24 random characters of the 40 */
#define FSM_SECS_PER_DIR 180 /* fs_mark's time hash: the next sub-directory after this long */
#define FSM_POLL_NS 100000000ull /* the driver's checks of the workers: ten a second */

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

static const sb_choice fsm_datas[] = {
    {"zeros", "Zeros"},
    {"random", "Random"},
    {NULL, NULL},
};

static const sb_option fsm_options[] = {
    {"test", "Test", "1000-files", NULL, fsm_tests,
     "named seed test, or custom (then files/size/threads/dirs apply)", 0, .kind = SB_VAL_CHOICE},
    {"files", "Files", "1000", "100", NULL, "files per worker (test=custom)", SB_OPT_HIDDEN, .kind = SB_VAL_UINT, .min = 1, .max = 100000000},
    {"size", "Size", "1M", NULL, NULL, "bytes per file (test=custom)", SB_OPT_HIDDEN, .kind = SB_VAL_SIZE},
    {"threads", "Threads", "1", NULL, NULL, "workers, sharing the directory (test=custom)", SB_OPT_HIDDEN, .kind = SB_VAL_UINT, .min = 1, .max = 1024},
    {"dirs", "Sub Dirs", "0", NULL, NULL, "sub-directories (fs_mark -D), chosen as per-dir says; 0 = none (test=custom)",
     SB_OPT_HIDDEN, .kind = SB_VAL_UINT, .min = 0, .max = 100000},
    {"sync", "Sync Method", "fsync", NULL, fsm_syncs,
     "fsync before close (default), none, or one sync() at the end of each worker", SB_OPT_HIDDEN, .kind = SB_VAL_CHOICE},
    {"per-dir", "Files Per Sub Dir", "0", NULL, NULL,
     "with sub-directories: 0 = fs_mark's time hash (next one every 180 s), N = N files each in turn (-N)",
     SB_OPT_IF_CHANGED, .kind = SB_VAL_UINT, .min = 0, .max = 100000000},
    {"data", "Data", "zeros", NULL, fsm_datas, "file contents: zeros (fs_mark's) or random (incompressible)",
     SB_OPT_IF_CHANGED, .kind = SB_VAL_CHOICE},
};

static const sb_measure fsm_measures[] = {
    {NULL, "Files/s", SB_HIGHER_IS_BETTER},
};

/* The named tests' parameters. --quick keeps the file size and makes the file count per worker
 * about a second of work on a disk (docs/workloads.md, quick scale). The 4-thread test's quick
 * count is larger: behind a host that caches writes (the virtio disk here) a run's MB/s falls
 * with the gigabytes it writes in one go, and 4 x 250 files pooled in 1-GB repetitions read
 * 1.32 of 4 x 1,250; 4 x 1,000 (4 GB) is one repetition on that disk. */
static int fsm_resolve(const sb_config *cfg, void *params, char *err, size_t errlen)
{
    fsm_params *p = params;
    const char *test = sb_config_get(cfg, "test");
    const char *sync = sb_config_get(cfg, "sync");
    p->sync = !strcmp(sync, "none") ? FSM_SYNC_NONE : !strcmp(sync, "end") ? FSM_SYNC_END : FSM_SYNC_FSYNC;
    p->random_data = !strcmp(sb_config_get(cfg, "data"), "random");
    int rc = sb_config_check(cfg, err, errlen);
    if (rc)
        return rc;
    p->per_dir = sb_config_u(cfg, "per-dir");
    p->dir_period_s = FSM_SECS_PER_DIR;
    p->poll_ns = FSM_POLL_NS;
    p->size = 1048576;
    p->threads = 1;
    p->dirs = 0;
    uint64_t quick_files = 0;
    if (!strcmp(test, "1000-files")) {
        p->files = 1000;
        quick_files = 250;
    } else if (!strcmp(test, "5000-files-4-threads")) {
        p->files = 5000;
        p->threads = 4;
        quick_files = 1000;
    } else if (!strcmp(test, "4000-files-32-dirs")) {
        p->files = 4000;
        p->dirs = 32;
        quick_files = 500;
    } else {
        p->files = sb_config_u(cfg, "files");
        p->size = sb_config_u(cfg, "size");
        p->threads = sb_config_u(cfg, "threads");
        p->dirs = sb_config_u(cfg, "dirs");
        return 0;
    }
    if (cfg->quick)
        p->files = quick_files;
    return 0;
}

void sb_fsmark_dilate(void *params, unsigned k)
{
    fsm_params *p = params;
    p->dir_period_s *= k;
    p->poll_ns *= k;
}

static uint64_t fsm_space_needed(const void *params)
{
    const fsm_params *p = params;
    /* Data plus a block of metadata per file. */
    return p->files * p->threads * (p->size + 4096);
}

static double fsm_estimate(const void *params)
{
    const fsm_params *p = params;
    double n = (double)(p->files * p->threads);
    return n * 2e-3 + n * (double)p->size / 300e6;
}

typedef struct fsm_shared {
    sb_run_ctx *ctx;
    const fsm_params *p;
    const char *base;         /* the directory the workers share */
    const char *buf;          /* one chunk of the file contents */
    atomic_uint_fast64_t done;  /* files written by all workers, for progress */
    atomic_int stop;
    pthread_mutex_t lock;
    int err;                  /* first failure (negative errno) */
} fsm_shared;

/* Room for a sub-directory ("%02x" of up to 100,000: 5 digits), '/', the name, NUL. */
#define FSM_ENTRY_LEN (FSM_NAME_LEN + 8)

typedef struct fsm_worker {
    fsm_shared *sh;
    unsigned id;
    char (*names)[FSM_ENTRY_LEN]; /* "xx/" prefix + name, relative to base */
    uint64_t created, removed;
    double seconds;
    uint64_t t0_ns, t1_ns;        /* the timed part, for the ranks of an MPI run */
    sb_histogram hist;
    pthread_t thread;
    /* fs_mark's sub-directory state (per process there, per worker here). */
    uint64_t subdir, in_subdir;
    time_t dir_since;
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

/* One file: create, write in 16 KiB chunks, optionally fsync, close. The open flags are
 * fs_mark's (it truncates rather than insisting on a new file). */
static int fsm_one_file(fsm_shared *sh, const char *path)
{
    const fsm_params *p = sh->p;
    int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0666);
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

/* The sub-directory of the next file, as fs_mark picks it: with per-dir N, N files in each
 * in turn; otherwise the same one until 180 s (dir_period_s) have passed since it was first
 * used. */
static uint64_t fsm_next_subdir(fsm_worker *w, time_t now)
{
    const fsm_params *p = w->sh->p;
    if (p->per_dir > 0) {
        if (w->in_subdir >= p->per_dir) {
            w->subdir++;
            w->in_subdir = 0;
        }
        w->subdir %= p->dirs;
        w->in_subdir++;
    } else if (now - w->dir_since > (time_t)p->dir_period_s) {
        w->subdir = (w->subdir + 1) % p->dirs;
        w->dir_since = now;
    }
    return w->subdir;
}

/* names[i] for a file made now: "[xx/]" then the time in hex, '~' up to 16 characters,
 * and 24 random characters from [0-9A-Z] (fs_mark's -p 40 -r 24 defaults). */
static void fsm_make_name(fsm_worker *w, sb_rand *r, time_t now, char *name)
{
    const fsm_params *p = w->sh->p;
    int n = 0;
    if (p->dirs > 0)
        n = snprintf(name, FSM_ENTRY_LEN, "%02llx/", (unsigned long long)fsm_next_subdir(w, now));
    char seq[32];
    int len = snprintf(seq, sizeof seq, "%llx", (unsigned long long)now);
    const int seq_len = FSM_NAME_LEN - FSM_RANDOM_LEN;
    const char *from = len > seq_len ? seq + (len - seq_len) : seq; /* the changing digits */
    n += snprintf(name + n, FSM_ENTRY_LEN - (size_t)n, "%s", from);
    for (int i = len; i < seq_len; i++)
        name[n++] = '~';
    static const char alphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    for (int i = 0; i < FSM_RANDOM_LEN; i++)
        name[n++] = alphabet[sb_rand_below(r, sizeof alphabet - 1)];
    name[n] = '\0';
}

static void *fsm_worker_main(void *arg)
{
    fsm_worker *w = arg;
    fsm_shared *sh = w->sh;
    const fsm_params *p = sh->p;
    /* fs_mark's workers are processes, each with its own descriptor table: so are these
     * threads (core/fdtable.h). Its files it opens and closes itself. */
    sb_private_fd_table(-1);
    sb_rand r;
    sb_rand_seed(&r, sb_now_ns() ^ ((uint64_t)w->id << 48));
    char path[4200], dir[4200];
    /* fs_mark starts each process in the sub-directory the clock points at. */
    time_t t_start = time(NULL);
    w->subdir = p->dirs > 0 ? (uint64_t)t_start % p->dirs : 0;
    w->dir_since = t_start;
    uint64_t t0 = sb_now_ns();
    for (uint64_t i = 0; i < p->files; i++) {
        if (atomic_load(&sh->stop) || sb_ctx_interrupted(sh->ctx))
            break;
        char *name = w->names[i];
        fsm_make_name(w, &r, time(NULL), name);
        /* fs_mark makes the file's directory before every file (EEXIST but the first time). */
        const char *slash = strchr(name, '/');
        snprintf(dir, sizeof dir, "%s/%.*s", sh->base, slash ? (int)(slash - name) : 0, name);
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
            fsm_fail(sh, errno, "mkdir", dir);
            break;
        }
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
    w->t0_ns = t0;
    w->t1_ns = sb_now_ns();
    w->seconds = (double)(w->t1_ns - t0) / 1e9;

    /* Untimed, but while the other workers may still be writing, as in fs_mark: this
     * worker's files, in creation order. */
    for (uint64_t i = 0; i < w->created; i++) {
        snprintf(path, sizeof path, "%s/%s", sh->base, w->names[i]);
        if (unlink(path) == 0)
            w->removed++;
        else
            fsm_fail(sh, errno, "unlink", path);
    }
    return NULL;
}

/* The workers poll only what any thread may read (signals, sh->stop, the failure flag);
 * this thread, the one that may call MPI (core/ranks.h), asks the other ranks ten times
 * a second while it waits, and stops the workers when one failed. */
static void fsm_join(fsm_shared *sh, pthread_t thread)
{
    struct timespec at;
    clock_gettime(CLOCK_MONOTONIC, &at);
    uint64_t poll = sh->p->poll_ns; /* ten times a second; ×K dilated (fsmark.h) */
    for (;;) {
        uint64_t ns = (uint64_t)at.tv_nsec + poll;
        at.tv_sec += (time_t)(ns / 1000000000u);
        at.tv_nsec = (long)(ns % 1000000000u);
        if (pthread_clockjoin_np(thread, NULL, CLOCK_MONOTONIC, &at) != ETIMEDOUT)
            return;
        if (sb_ctx_interrupted(sh->ctx))
            atomic_store(&sh->stop, true);
    }
}

/* Sub-directories the run used (fs_mark's time hash uses one in a short run). */
static uint64_t fsm_count_subdirs(const char *base)
{
    DIR *d = opendir(base);
    if (!d)
        return 0;
    uint64_t n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

static int fsm_run(sb_run_ctx *ctx, const void *params, sb_sample *samples)
{
    const fsm_params *p = params;
    int rc;

    char base[4096];
    snprintf(base, sizeof base, "%s/fs-mark", ctx->dir);
    if (mkdir(base, 0755) != 0)
        return sb_ctx_fail(ctx, errno, "fs-mark: mkdir %s: %s", base, strerror(errno));

    char *buf = calloc(1, FSM_CHUNK); /* zeros, as fs_mark's buffer */
    fsm_worker *ws = calloc(p->threads, sizeof *ws);
    if (!buf || !ws) {
        free(buf);
        free(ws);
        rmdir(base);
        return sb_ctx_fail(ctx, ENOMEM, "fs-mark: out of memory");
    }
    if (p->random_data) {
        sb_rand r;
        sb_rand_seed(&r, 0x5fa3);
        sb_rand_fill(&r, buf, FSM_CHUNK);
    }

    fsm_shared sh = {.ctx = ctx, .p = p, .base = base, .buf = buf};
    pthread_mutex_init(&sh.lock, NULL);
    unsigned started = 0;
    for (unsigned t = 0; t < p->threads; t++) {
        ws[t].sh = &sh;
        ws[t].id = t;
        sb_hist_init(&ws[t].hist);
        ws[t].names = malloc(p->files * sizeof *ws[t].names);
        if (!ws[t].names) {
            fsm_fail(&sh, ENOMEM, "allocate", "file name table");
            break;
        }
    }
    if (!sh.err) {
        for (; started < p->threads; started++) {
            if ((rc = pthread_create(&ws[started].thread, NULL, fsm_worker_main, &ws[started])) != 0) {
                fsm_fail(&sh, rc, "start", "worker thread");
                break;
            }
        }
    }
    for (unsigned t = 0; t < started; t++)
        fsm_join(&sh, ws[t].thread);

    uint64_t created = 0, removed = 0, t0 = 0, t1 = 0;
    double rate = 0, longest = 0;
    sb_histogram all;
    sb_hist_init(&all);
    for (unsigned t = 0; t < p->threads; t++) {
        created += ws[t].created;
        removed += ws[t].removed;
        if (ws[t].seconds > 0)
            rate += (double)ws[t].created / ws[t].seconds;
        if (ws[t].seconds > longest)
            longest = ws[t].seconds;
        if (ws[t].t1_ns && (!t0 || ws[t].t0_ns < t0))
            t0 = ws[t].t0_ns;
        if (ws[t].t1_ns > t1)
            t1 = ws[t].t1_ns;
        sb_hist_merge(&all, &ws[t].hist);
    }
    uint64_t used_dirs = p->dirs > 0 ? fsm_count_subdirs(base) : 0;
    /* A failed create may have left a partial file: remove whatever is left. */
    char failed[512];
    int crc = sb_fs_empty_dir(base, failed, sizeof failed);
    if (crc < 0 && !sh.err)
        fsm_fail(&sh, -crc, "remove", failed);
    if (rmdir(base) != 0 && !sh.err)
        fsm_fail(&sh, errno, "rmdir", base);

    for (unsigned t = 0; t < p->threads; t++)
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
    s->begin_ns = t0;
    s->end_ns = t1;
    sb_sample_add(s, "files_created", "files", (double)created);
    sb_sample_add(s, "files_removed", "files", (double)removed);
    sb_sample_add(s, "bytes_written", "bytes", (double)created * (double)p->size);
    sb_sample_add(s, "workers", "threads", (double)p->threads);
    sb_sample_add(s, "sub_dirs", "dirs", (double)p->dirs);
    sb_sample_add(s, "sub_dirs_used", "dirs", (double)used_dirs);
    sb_sample_add(s, "random_data", "", (double)p->random_data);
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
    .flags = SB_WL_WALL_CLOCK | SB_WL_RANKS,
    .params_size = sizeof(fsm_params),
    .resolve = fsm_resolve,
    .space_needed = fsm_space_needed,
    .estimate_seconds = fsm_estimate,
    .run = fsm_run,
};
