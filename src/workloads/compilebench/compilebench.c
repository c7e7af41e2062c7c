/*
 * compilebench — the Compile Bench test (compilebench 0.6): the file-system
 * side of unpacking, building and removing kernel trees, on the synthetic
 * kernel-2.6.20-like tree of compilebench_tree.c.
 *
 *   initial-create  create `trees` copies of the tree, one after the other,
 *                   every file written in 256 KiB buffers, no syncs; the
 *                   figure is each tree's MiB over its seconds, averaged
 *                   over the trees (compilebench's "MB/s").
 *   compile         on a fresh tree (untimed), write the object of each
 *                   compiled .c beside it, in one fixed random order,
 *                   reading nothing (as compilebench): object MiB / seconds.
 *   read-tree       on a compiled tree written back and evicted from the
 *                   page cache (untimed), read every file: MiB / seconds.
 *   delete          remove a compiled tree: MiB of sources and objects
 *                   removed per second (compilebench prints the seconds,
 *                   which are a secondary figure here).
 *
 * For the last three the timed step is repeated `trees` times, each on its
 * own tree that is created before and removed after, untimed; the figure is
 * the mean. Every file operation (create+write+close, object write, file
 * read, unlink) is one latency sample. Before the first tree, whatever the
 * test, compilebench's untimed set-up: three "native" trees written and
 * removed beside the timed ones (cb_setup).
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cache.h"
#include "core/clock.h"
#include "core/cpuset.h"
#include "core/histogram.h"
#include "workloads/compilebench/compilebench_tree.h"
#include "workloads/fs_common.h"
#include "workloads/workload.h"

#define CB_BUF (256 * 1024)
#define MIB 1048576.0

enum cb_test { CB_INITIAL_CREATE, CB_COMPILE, CB_READ_TREE, CB_DELETE };

static const sb_choice cb_tests[] = {
    {"initial-create", "Initial Create"},
    {"compile", "Compile"},
    {"read-tree", "Read Compiled Tree"},
    {"delete", "Delete"},
    {NULL, NULL},
};

static const sb_option cb_options[] = {
    {"test", "Test", "initial-create", NULL, cb_tests, "phase measured: initial-create, compile, read-tree, delete",
     0, .kind = SB_VAL_CHOICE},
    /* --quick: the seed's 10 trees at half size. A run's first trees are slower (cold
     * metadata after the dropped caches), so the figure, a mean per tree, depends on how
     * many trees a run has: 3 half trees pooled read 0.75 of 10 full ones on the disk. */
    {"trees", "Trees", "10", "10", NULL, "trees created (initial-create) or timed repetitions (other tests)",
     SB_OPT_HIDDEN, .kind = SB_VAL_UINT, .min = 1, .max = 1000},
    {"scale", "Tree Scale", "100", "50", NULL, "percent of the tree's 21,280 files to use (1..100)",
     SB_OPT_HIDDEN, .kind = SB_VAL_UINT, .min = 1, .max = 100},
};

/* One measure: the runner wants every declared measure in every run, and a run
 * measures one phase. Delete is reported as a rate too (MiB of the compiled tree
 * removed per second) so that all four share unit and direction; its seconds are a
 * secondary figure. */
static const sb_measure cb_measures[] = {
    {NULL, "MB/s", SB_HIGHER_IS_BETTER},
};
#define CB_N_PHASES 4


typedef struct cb_params {
    enum cb_test test;
    uint64_t trees, scale;
} cb_params;

static int cb_resolve(const sb_config *cfg, void *params, char *err, size_t errlen)
{
    cb_params *p = params;
    const char *t = sb_config_get(cfg, "test");
    p->test = !strcmp(t, "compile") ? CB_COMPILE
            : !strcmp(t, "read-tree") ? CB_READ_TREE
            : !strcmp(t, "delete") ? CB_DELETE : CB_INITIAL_CREATE;
    int rc;
    if ((rc = sb_config_check(cfg, err, errlen)) < 0)
        return rc;
    p->trees = sb_config_u(cfg, "trees");
    p->scale = sb_config_u(cfg, "scale");
    return 0;
}

static uint64_t cb_space_needed(const void *params)
{
    const cb_params *p = params;
    uint64_t tree = SB_CB_BYTES * p->scale / 100 + (uint64_t)SB_CB_FILES * p->scale / 100 * 4096 +
                    (uint64_t)SB_CB_DIRS * 4096;
    uint64_t compiled = tree + SB_CB_OBJECT_BYTES * p->scale / 100; /* also above the set-up's peak */
    if (p->test == CB_INITIAL_CREATE)
        return tree * p->trees > compiled ? tree * p->trees : compiled;
    return compiled;
}

static double cb_estimate(const void *params)
{
    const cb_params *p = params;
    double tree_s = (double)SB_CB_BYTES * (double)p->scale / 100 / 300e6 + 0.5 * (double)p->scale / 100;
    double setup_s = 4 * tree_s; /* 808 MiB and 30,000 files written and removed */
    return setup_s + (double)p->trees * (p->test == CB_INITIAL_CREATE ? tree_s : 3 * tree_s + 2);
}

typedef struct cb_state {
    sb_run_ctx *ctx;
    const sb_cb_tree *tree;
    char *buf;
    char base[4096];
    sb_histogram *hist;  /* the current phase's */
    uint64_t files_created, files_removed, dirs_created, setup_files;
    uint64_t bytes_written, bytes_read;
} cb_state;

/* Tree number CB_NATIVE is the set-up's tree, "native-0" as compilebench names it;
 * the others are "treeNN". */
#define CB_NATIVE UINT_MAX

/* The path of directory `rel` (relative to its tree's top) of tree n. */
static void cb_dir(const cb_state *st, unsigned n, const char *rel, char *out, size_t len)
{
    char top[16];
    if (n == CB_NATIVE)
        snprintf(top, sizeof top, "native-0");
    else
        snprintf(top, sizeof top, "tree%02u", n);
    snprintf(out, len, "%s/%s%s%s", st->base, top, *rel ? "/" : "", rel);
}

static void cb_path(const cb_state *st, unsigned tree, const sb_cb_file *f, const char *suffix, char *out,
                    size_t len)
{
    char dir[4400];
    cb_dir(st, tree, st->tree->dirs[f->dir], dir, sizeof dir);
    snprintf(out, len, "%s/%s%s", dir, f->name, suffix);
}

static int cb_write_file(cb_state *st, const char *path, uint64_t size, bool timed)
{
    uint64_t t0 = sb_now_ns();
    /* compilebench opens every file it writes with Python's "a+" */
    int fd = open(path, O_RDWR | O_CREAT | O_APPEND, 0666);
    if (fd < 0)
        return sb_ctx_fail(st->ctx, errno, "compilebench: create %s: %s", path, strerror(errno));
    st->files_created++;
    while (size > 0) {
        size_t n = size < CB_BUF ? (size_t)size : CB_BUF;
        int rc = sb_fs_write_all(fd, st->buf, n, -1);
        if (rc < 0) {
            close(fd);
            return sb_ctx_fail(st->ctx, rc, "compilebench: write %s: %s", path, strerror(-rc));
        }
        size -= n;
        st->bytes_written += n;
    }
    if (close(fd) != 0)
        return sb_ctx_fail(st->ctx, errno, "compilebench: close %s: %s", path, strerror(errno));
    if (timed)
        sb_hist_record(st->hist, sb_now_ns() - t0);
    return 0;
}

static int cb_read_file(cb_state *st, const char *path, bool timed, bool evict_only)
{
    uint64_t t0 = sb_now_ns();
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return sb_ctx_fail(st->ctx, errno, "compilebench: open %s: %s", path, strerror(errno));
    int rc = 0;
    if (evict_only) {
        rc = sb_evict_file(fd);
        if (rc == -EINVAL || rc == -ENOSYS) /* no fadvise here: the read will be warm */
            rc = 0;
    } else {
        for (;;) {
            ssize_t n = read(fd, st->buf, CB_BUF);
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                rc = -errno;
                break;
            }
            if (n == 0)
                break;
            st->bytes_read += (uint64_t)n;
        }
    }
    close(fd);
    if (rc < 0)
        return sb_ctx_fail(st->ctx, rc, "compilebench: read %s: %s", path, strerror(-rc));
    if (timed)
        sb_hist_record(st->hist, sb_now_ns() - t0);
    return 0;
}

/* Creates tree number `n` as compilebench does: directory by directory in the
 * tree's (depth-first) order, each made just before its files are written. */
static int cb_create_tree(cb_state *st, unsigned n, bool timed, double pbase, double pspan)
{
    char path[4600];
    size_t i = 0;
    for (size_t d = 0; d < st->tree->n_dirs; d++) {
        const char *rel = st->tree->dirs[d];
        cb_dir(st, n, rel, path, sizeof path);
        if (mkdir(path, 0777) != 0)
            return sb_ctx_fail(st->ctx, errno, "compilebench: mkdir %s: %s", path, strerror(errno));
        st->dirs_created++;
        for (; i < st->tree->n_files && st->tree->files[i].dir == d; i++) {
            if ((i & 255) == 0) {
                if (sb_ctx_interrupted(st->ctx))
                    return sb_ctx_fail(st->ctx, EINTR, "compilebench: interrupted");
                sb_ctx_progress(st->ctx, pbase + pspan * (double)i / (double)st->tree->n_files);
            }
            const sb_cb_file *f = &st->tree->files[i];
            cb_path(st, n, f, "", path, sizeof path);
            int rc = cb_write_file(st, path, f->size, timed);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* "Compiles" tree n as compilebench's compile_one_dir: writes the files only the
 * compiled tree has (here one object beside each compiled source), nothing read, in
 * one fixed random order (compilebench shuffles that list once, with its seed 555, and
 * every compile uses it). */
static int cb_compile_tree(cb_state *st, unsigned n, bool timed)
{
    char path[4600];
    size_t *order = malloc((st->tree->n_objects ? st->tree->n_objects : 1) * sizeof *order);
    if (!order)
        return sb_ctx_fail(st->ctx, ENOMEM, "compilebench: out of memory");
    size_t k = 0;
    for (size_t i = 0; i < st->tree->n_files; i++)
        if (st->tree->files[i].obj_size)
            order[k++] = i;
    sb_rand r;
    sb_rand_seed(&r, SB_CB_SEED);
    for (size_t i = k; i > 1; i--) {
        size_t j = (size_t)sb_rand_below(&r, i), tmp = order[i - 1];
        order[i - 1] = order[j];
        order[j] = tmp;
    }
    int rc = 0;
    for (size_t i = 0; i < k && rc == 0; i++) {
        if ((i & 63) == 0 && sb_ctx_interrupted(st->ctx)) {
            rc = sb_ctx_fail(st->ctx, EINTR, "compilebench: interrupted");
            break;
        }
        const sb_cb_file *f = &st->tree->files[order[i]];
        cb_path(st, n, f, ".o", path, sizeof path);
        rc = cb_write_file(st, path, f->obj_size, timed);
    }
    free(order);
    return rc;
}

/* Visits every file of a compiled tree: read it (timed) or evict it (untimed). */
static int cb_read_tree(cb_state *st, unsigned n, bool evict)
{
    char path[4600];
    for (size_t i = 0; i < st->tree->n_files; i++) {
        const sb_cb_file *f = &st->tree->files[i];
        if ((i & 255) == 0 && sb_ctx_interrupted(st->ctx))
            return sb_ctx_fail(st->ctx, EINTR, "compilebench: interrupted");
        cb_path(st, n, f, "", path, sizeof path);
        int rc = cb_read_file(st, path, !evict, evict);
        if (rc == 0 && f->obj_size) {
            cb_path(st, n, f, ".o", path, sizeof path);
            rc = cb_read_file(st, path, !evict, evict);
        }
        if (rc)
            return rc;
    }
    return 0;
}

/* Removes tree n file by file, then its directories deepest first. */
static int cb_delete_tree(cb_state *st, unsigned n, bool timed)
{
    char path[4600];
    for (size_t i = 0; i < st->tree->n_files; i++) {
        const sb_cb_file *f = &st->tree->files[i];
        for (int o = 0; o < (f->obj_size ? 2 : 1); o++) {
            cb_path(st, n, f, o ? ".o" : "", path, sizeof path);
            uint64_t t0 = sb_now_ns();
            if (unlink(path) != 0) {
                if (errno == ENOENT && !timed)
                    continue;
                return sb_ctx_fail(st->ctx, errno, "compilebench: unlink %s: %s", path, strerror(errno));
            }
            st->files_removed++;
            if (timed)
                sb_hist_record(st->hist, sb_now_ns() - t0);
        }
    }
    for (size_t d = st->tree->n_dirs; d-- > 0;) {
        const char *rel = st->tree->dirs[d];
        cb_dir(st, n, rel, path, sizeof path);
        if (rmdir(path) != 0 && !(errno == ENOENT && !timed))
            return sb_ctx_fail(st->ctx, errno, "compilebench: rmdir %s: %s", path, strerror(errno));
    }
    return 0;
}

/* ---- compilebench's set-up ----
 * Before its first tree compilebench writes the "native" copy of three of its data sets
 * and removes each at once (native_order: run_directory, then rmrf): the source tree
 * (21,280 files), the files its patch changes (6,136), and the files only a patched
 * compiled tree has (2,573, mostly objects), each as "native-0" beside the trees it
 * times. None of it is timed, but it leaves the file system different: on ext4 without a
 * journal the inode allocator passes over every free inode deleted in an earlier second
 * of the last 60 s (360 s while its inode table block is dirty) and scans on, so the
 * first timed tree, which is allocated where the set-up's inodes were, pays for them
 * (docs/fidelity.md, "Compile Bench"). storbench does the same set-up on its own tree:
 * the whole tree, then an even 6,136 / 21,280 of its files with the directories they
 * need, then an even 2,573 / 3,263 of its objects (with their directories); each
 * removed bottom-up before the next. */
#define CB_PATCHED_FILES 6136   /* compilebench's patched set, of the tree's 21,280 files */
#define CB_COMPILED_FILES 2573  /* its patched compiled set, against the tree's 3,263 objects */

/* Selects an even `want` of `have` items: item k is in when the running share steps. */
static bool cb_even(size_t k, size_t want, size_t have)
{
    return have && (k * want) / have != ((k + 1) * want) / have;
}

/* Makes directory `path` and, when its parent is missing, the parent first (as
 * os.makedirs; the native tree's top exists). */
static int cb_makedirs(cb_state *st, char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST)
        return 0;
    char *slash = strrchr(path, '/');
    if (errno == ENOENT && slash && slash > path) {
        *slash = '\0';
        int rc = cb_makedirs(st, path);
        *slash = '/';
        if (rc)
            return rc;
        if (mkdir(path, 0777) == 0)
            return 0;
    }
    return sb_ctx_fail(st->ctx, errno, "compilebench: mkdir %s: %s", path, strerror(errno));
}

/* One native set: the files (objects when `objects`) whose size is in pick[] (0: not in it),
 * in the tree's order, each directory made when its first file comes; then all removed,
 * each directory's files and then the directory, deepest directories first. */
static int cb_native_subset(cb_state *st, const uint32_t *pick, bool objects)
{
    char path[4600];
    const char *sfx = objects ? ".o" : "";
    size_t n = st->tree->n_files, made = SIZE_MAX;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        if ((i & 255) == 0 && sb_ctx_interrupted(st->ctx))
            return sb_ctx_fail(st->ctx, EINTR, "compilebench: interrupted");
        if (!pick[i])
            continue;
        const sb_cb_file *f = &st->tree->files[i];
        if (f->dir != made) {
            cb_dir(st, CB_NATIVE, st->tree->dirs[f->dir], path, sizeof path);
            if ((rc = cb_makedirs(st, path)) != 0)
                break;
        }
        made = f->dir;
        cb_path(st, CB_NATIVE, f, sfx, path, sizeof path);
        rc = cb_write_file(st, path, pick[i], false);
    }
    size_t i = n;
    for (size_t d = st->tree->n_dirs; d-- > 0 && rc == 0;) {
        for (; i > 0 && st->tree->files[i - 1].dir == d && rc == 0; i--) {
            if (!pick[i - 1])
                continue;
            cb_path(st, CB_NATIVE, &st->tree->files[i - 1], sfx, path, sizeof path);
            if (unlink(path) != 0)
                rc = sb_ctx_fail(st->ctx, errno, "compilebench: unlink %s: %s", path, strerror(errno));
        }
        cb_dir(st, CB_NATIVE, st->tree->dirs[d], path, sizeof path);
        if (rc == 0 && rmdir(path) != 0 && errno != ENOENT)
            rc = sb_ctx_fail(st->ctx, errno, "compilebench: rmdir %s: %s", path, strerror(errno));
    }
    return rc;
}

/* The set-up; its files are counted in setup_files, not in the trees' counters. */
static int cb_setup(cb_state *st)
{
    const sb_cb_tree *t = st->tree;
    cb_state keep = *st;
    uint32_t *pick = malloc((t->n_files ? t->n_files : 1) * sizeof *pick);
    if (!pick)
        return sb_ctx_fail(st->ctx, ENOMEM, "compilebench: out of memory");
    size_t patched = (t->n_files * CB_PATCHED_FILES + SB_CB_FILES / 2) / SB_CB_FILES;
    size_t compiled = (t->n_objects * CB_COMPILED_FILES + SB_CB_OBJECTS / 2) / SB_CB_OBJECTS;
    int rc = 0;
    for (int set = 0; set < 3 && rc == 0; set++) {
        for (size_t i = 0, k = 0; i < t->n_files; i++) {
            const sb_cb_file *f = &t->files[i];
            pick[i] = set == 0 ? f->size
                    : set == 1 ? (cb_even(i, patched, t->n_files) ? f->size : 0)
                    : f->obj_size && cb_even(k++, compiled, t->n_objects) ? f->obj_size : 0;
        }
        rc = cb_native_subset(st, pick, set == 2);
    }
    free(pick);
    st->setup_files = st->files_created - keep.files_created;
    st->files_created = keep.files_created;
    st->files_removed = keep.files_removed;
    st->dirs_created = keep.dirs_created;
    st->bytes_written = keep.bytes_written;
    return rc;
}

static double cb_secs(uint64_t t0)
{
    return (double)(sb_now_ns() - t0) / 1e9;
}

/* Per phase: the sum of each tree's MB/s, the seconds measured, and the CPU
 * seconds (user, system) and run-queue seconds spent in them. compilebench prints
 * its user and system time per tree beside the MB/s; with the run-queue wait they
 * say how much of a tree's time was the CPU (docs/fidelity.md, "Compile Bench"). */
typedef struct cb_totals {
    double sum[CB_N_PHASES], secs[CB_N_PHASES];
    double user[CB_N_PHASES], sys[CB_N_PHASES], runq[CB_N_PHASES];
} cb_totals;

/* The clocks at the start of a phase. */
typedef struct cb_mark {
    uint64_t t0, runq, oncpu;
    sb_cpu_times cpu;
} cb_mark;

static void cb_start(cb_mark *m)
{
    sb_cpu_times_now(&m->cpu);
    sb_thread_sched_now(&m->oncpu, &m->runq);
    m->t0 = sb_now_ns();
}

static void cb_add(cb_totals *tot, int phase, const cb_mark *m, double mib)
{
    double s = cb_secs(m->t0);
    cb_mark e;
    sb_cpu_times_now(&e.cpu);
    sb_thread_sched_now(&e.oncpu, &e.runq);
    tot->secs[phase] += s;
    tot->sum[phase] += s > 0 ? mib / s : 0;
    tot->user[phase] += (double)(e.cpu.user_ns - m->cpu.user_ns) / 1e9;
    tot->sys[phase] += (double)(e.cpu.sys_ns - m->cpu.sys_ns) / 1e9;
    tot->runq[phase] += (double)(e.runq - m->runq) / 1e9;
}

/* Tree t through the phases the test needs: create; then (for every test but Initial
 * Create) compile, read when it is the test, and delete. Only the test's own phase records
 * latencies; every phase's MB/s is added to tot. */
static int cb_one_tree(cb_state *st, const cb_params *p, sb_histogram *hists, unsigned t,
                       cb_totals *tot)
{
    int rc;
    uint64_t b0;
    cb_mark mk;
    double pb = (double)t / (double)p->trees, ps = 1.0 / (double)p->trees;
    /* Every phase after the create needs a compiled tree. */
    bool compile = p->test != CB_INITIAL_CREATE;

    st->hist = &hists[CB_INITIAL_CREATE];
    cb_start(&mk);
    b0 = st->bytes_written;
    if ((rc = cb_create_tree(st, t, p->test == CB_INITIAL_CREATE, pb, compile ? ps / 2 : ps)) != 0)
        return rc;
    cb_add(tot, CB_INITIAL_CREATE, &mk, (double)(st->bytes_written - b0) / MIB);
    if (!compile)
        return 0;

    st->hist = &hists[CB_COMPILE];
    cb_start(&mk);
    b0 = st->bytes_written;
    if ((rc = cb_compile_tree(st, t, p->test == CB_COMPILE)) != 0)
        return rc;
    cb_add(tot, CB_COMPILE, &mk, (double)(st->bytes_written - b0) / MIB);
    if (p->test == CB_READ_TREE) {
        /* Write the tree back and drop its pages, so the timed read comes from the
         * device, as it would for a tree made long ago. Per file, not a global
         * drop_caches, so nothing else on the machine is disturbed. */
        sync();
        if ((rc = cb_read_tree(st, t, true)) != 0)
            return rc;
        st->hist = &hists[CB_READ_TREE];
        cb_start(&mk);
        b0 = st->bytes_read;
        if ((rc = cb_read_tree(st, t, false)) != 0)
            return rc;
        cb_add(tot, CB_READ_TREE, &mk, (double)(st->bytes_read - b0) / MIB);
    }
    st->hist = &hists[CB_DELETE];
    cb_start(&mk);
    if ((rc = cb_delete_tree(st, t, p->test == CB_DELETE)) != 0)
        return rc;
    cb_add(tot, CB_DELETE, &mk, (double)(st->tree->total_bytes + st->tree->object_bytes) / MIB);
    return 0;
}

/* All the trees, one after the other; *done counts those finished. */
static int cb_trees(sb_run_ctx *ctx, cb_state *st, const cb_params *p, sb_histogram *hists,
                    cb_totals *tot, unsigned *done)
{
    int rc;
    if (mkdir(st->base, 0755) != 0)
        return sb_ctx_fail(ctx, errno, "compilebench: mkdir %s: %s", st->base, strerror(errno));
    if ((rc = cb_setup(st)) != 0)
        return rc;
    for (unsigned t = 0; t < p->trees; t++) {
        if ((rc = cb_one_tree(st, p, hists, t, tot)) != 0)
            return rc;
        (*done)++;
        sb_ctx_progress(ctx, (double)(t + 1) / (double)p->trees);
    }
    if (p->test == CB_INITIAL_CREATE) {
        /* Initial Create keeps its trees side by side, as compilebench does; they are
         * removed afterwards, untimed. */
        for (unsigned t = 0; t < p->trees; t++)
            if ((rc = cb_delete_tree(st, t, false)) != 0)
                return rc;
    }
    return 0;
}

static void cb_record(sb_sample *s, const cb_params *p, const cb_state *st, const cb_totals *tot,
                      unsigned done, const sb_histogram *hists)
{
    int m = (int)p->test;
    s->value = done ? tot->sum[m] / done : 0;
    s->valid = done > 0;
    s->seconds = tot->secs[m];
    sb_sample_add(s, "seconds", "s", done ? tot->secs[m] / done : 0);
    sb_sample_add(s, "user_seconds", "s", done ? tot->user[m] / done : 0);
    sb_sample_add(s, "sys_seconds", "s", done ? tot->sys[m] / done : 0);
    sb_sample_add(s, "runq_seconds", "s", done ? tot->runq[m] / done : 0);
    sb_sample_add(s, "trees", "trees", (double)done);
    sb_sample_add(s, "tree_files", "files", (double)st->tree->n_files);
    sb_sample_add(s, "tree_dirs", "dirs", (double)st->tree->n_dirs);
    sb_sample_add(s, "tree_bytes", "bytes", (double)st->tree->total_bytes);
    sb_sample_add(s, "files_created", "files", (double)st->files_created);
    sb_sample_add(s, "files_removed", "files", (double)st->files_removed);
    sb_sample_add(s, "setup_files", "files", (double)st->setup_files);
    sb_sample_add(s, "dirs_created", "dirs", (double)st->dirs_created);
    sb_sample_add(s, "bytes_written", "bytes", (double)st->bytes_written);
    sb_sample_add(s, "bytes_read", "bytes", (double)st->bytes_read);
    sb_sample_add_latency(s, "lat", &hists[m]);
}

static int cb_run(sb_run_ctx *ctx, const void *params, sb_sample *samples)
{
    const cb_params *p = params;
    int rc;
    sb_cb_tree tree;
    if (sb_cb_tree_generate(&tree, SB_CB_SEED, (unsigned)p->scale) != 0)
        return sb_ctx_fail(ctx, ENOMEM, "compilebench: out of memory");
    sb_histogram *hists = malloc(CB_N_PHASES * sizeof *hists);
    cb_state st = {.ctx = ctx, .tree = &tree};
    snprintf(st.base, sizeof st.base, "%s/compilebench", ctx->dir);
    st.buf = malloc(CB_BUF);
    if (!st.buf || !hists) {
        free(st.buf);
        free(hists);
        sb_cb_tree_free(&tree);
        return sb_ctx_fail(ctx, ENOMEM, "compilebench: out of memory");
    }
    for (int m = 0; m < CB_N_PHASES; m++)
        sb_hist_init(&hists[m]);
    /* compilebench's buffer: 'a' * 256 KiB (compressible, as on the seed's LZO pages) */
    memset(st.buf, 'a', CB_BUF);

    cb_totals tot;
    memset(&tot, 0, sizeof tot);
    unsigned done = 0;
    rc = cb_trees(ctx, &st, p, hists, &tot, &done);
    char failed[512];
    int crc = sb_fs_empty_dir(st.base, failed, sizeof failed);
    if (crc < 0 && rc == 0)
        rc = sb_ctx_fail(ctx, crc, "compilebench: remove %s: %s", failed, strerror(-crc));
    if (rmdir(st.base) != 0 && errno != ENOENT && rc == 0)
        rc = sb_ctx_fail(ctx, errno, "compilebench: rmdir %s: %s", st.base, strerror(errno));
    free(st.buf);
    if (rc == 0)
        cb_record(&samples[0], p, &st, &tot, done, hists);
    free(hists);
    sb_cb_tree_free(&tree);
    return rc;
}

const sb_workload sb_wl_compilebench = {
    .name = "compilebench",
    .title = "Compile Bench",
    .version = "0.6",
    .summary = "create, compile, read and delete kernel-like source trees (synthetic, no download); MB/s",
    .options = cb_options,
    .n_options = sizeof cb_options / sizeof cb_options[0],
    .measures = cb_measures,
    .n_measures = 1,
    .flags = SB_WL_WALL_CLOCK,
    .params_size = sizeof(cb_params),
    .resolve = cb_resolve,
    .space_needed = cb_space_needed,
    .estimate_seconds = cb_estimate,
    .run = cb_run,
};
