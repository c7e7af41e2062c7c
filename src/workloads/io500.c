/*
 * io500 — IO500's standard phases in IO500's order (IO500/io500's
 * phase-definitions.h, the optional ones left out), on every rank, with its
 * parameters, its figures and its score:
 *
 *   ior-easy-write, mdtest-easy-write, (timestamp), ior-hard-write,
 *   mdtest-hard-write, find, ior-easy-read, mdtest-easy-stat, ior-hard-read,
 *   mdtest-hard-stat, mdtest-easy-delete, mdtest-hard-read, mdtest-hard-delete
 *
 * ior-easy: a file per rank, transferSize / blockSize (IOR -F -e, read with
 * -C -Q 1); ior-hard: one shared file, 47,008-byte transfers and blocks,
 * segmentCount segments (IOR -s), interleaved by rank (workloads/ior.h);
 * mdtest-easy and -hard: mdtest.c's layouts (mdtest_tree.c) with n files per
 * rank; find: the whole data directory walked, matching IO500's criteria
 * (newer than the timestamp file made after mdtest-easy-write, 3,901 bytes,
 * name *01*). The writes stop at stonewall-time and wear out as IO500's (IOR
 * -D with stoneWallingWearOut=1, mdtest -W); each read works on what was
 * written, and checks each transfer's stamp (IO500 reads with IOR -R). A write phase shorter than stonewall-time is what IO500 marks
 * [INVALID] (its rule for a valid run is 300 s): the figure says so (valid 0).
 *
 * Figures as IO500 computes them: IOR phases in GiB/s (all ranks' bytes over
 * the latest close minus the earliest open), the others in kIOPS as mdtest's
 * (all ranks' operations over the longest rank's time from its start to the
 * barrier that ends the phase, / 1000; find: the files checked), the
 * bandwidth score the geometric mean of the four IOR phases, the metadata
 * score that of the eight others, the total the square root of their product. Each figure is computed here over all ranks, the
 * same on every rank (sb_sample.ranks_combined), so the score is made of the
 * very phase figures the result file holds.
 *
 * The data directory is rank 0's run directory (broadcast, as mdtest's): the
 * target must be one every rank sees.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/ranks.h"
#include "core/units.h"
#include "workloads/ior.h"
#include "workloads/mdtest.h"
#include "workloads/workload.h"

#define IO500_HARD_XFER 47008 /* IO500's ior-hard -t 47008 -b 47008 */
#define IO500_HARD_SIZE 3901  /* mdtest-hard -w 3901 -e 3901; find -size 3901c */

/* The phases that score, in IO500's order, and the scores. */
enum {
    P_IOR_EASY_W, P_MD_EASY_W, P_IOR_HARD_W, P_MD_HARD_W, P_FIND, P_IOR_EASY_R, P_MD_EASY_STAT,
    P_IOR_HARD_R, P_MD_HARD_STAT, P_MD_EASY_DEL, P_MD_HARD_READ, P_MD_HARD_DEL, N_PHASES,
    S_BW = N_PHASES, S_MD, S_TOTAL, N_MEASURES
};

static const sb_measure io500_measures[N_MEASURES] = {
    [P_IOR_EASY_W] = {"Phase: ior-easy-write", "GiB/s", SB_HIGHER_IS_BETTER},
    [P_MD_EASY_W] = {"Phase: mdtest-easy-write", "kIOPS", SB_HIGHER_IS_BETTER},
    [P_IOR_HARD_W] = {"Phase: ior-hard-write", "GiB/s", SB_HIGHER_IS_BETTER},
    [P_MD_HARD_W] = {"Phase: mdtest-hard-write", "kIOPS", SB_HIGHER_IS_BETTER},
    [P_FIND] = {"Phase: find", "kIOPS", SB_HIGHER_IS_BETTER},
    [P_IOR_EASY_R] = {"Phase: ior-easy-read", "GiB/s", SB_HIGHER_IS_BETTER},
    [P_MD_EASY_STAT] = {"Phase: mdtest-easy-stat", "kIOPS", SB_HIGHER_IS_BETTER},
    [P_IOR_HARD_R] = {"Phase: ior-hard-read", "GiB/s", SB_HIGHER_IS_BETTER},
    [P_MD_HARD_STAT] = {"Phase: mdtest-hard-stat", "kIOPS", SB_HIGHER_IS_BETTER},
    [P_MD_EASY_DEL] = {"Phase: mdtest-easy-delete", "kIOPS", SB_HIGHER_IS_BETTER},
    [P_MD_HARD_READ] = {"Phase: mdtest-hard-read", "kIOPS", SB_HIGHER_IS_BETTER},
    [P_MD_HARD_DEL] = {"Phase: mdtest-hard-delete", "kIOPS", SB_HIGHER_IS_BETTER},
    [S_BW] = {"Score: Bandwidth", "GiB/s", SB_HIGHER_IS_BETTER},
    [S_MD] = {"Score: IOPS", "kIOPS", SB_HIGHER_IS_BETTER},
    [S_TOTAL] = {"Score: Total", "Score", SB_HIGHER_IS_BETTER},
};

/* IO500's ini names, "section.key" ([debug] stonewall-time alone). */
static const sb_option io500_options[] = {
    {"ior-easy.transferSize", "ior-easy Transfer Size", "2m", "1m", NULL,
     "IO500 [ior-easy] transferSize: bytes per I/O of ior-easy", 0, .kind = SB_VAL_SIZE},
    {"ior-easy.blockSize", "ior-easy Block Size", "1g", "16m", NULL,
     "IO500 [ior-easy] blockSize: bytes each rank writes (IO500's default 9920000m needs its 300 s wall)", 0,
     .kind = SB_VAL_SIZE},
    {"ior-hard.segmentCount", "ior-hard Segments", "10000", "200", NULL,
     "IO500 [ior-hard] segmentCount: 47008-byte blocks each rank writes into the shared file", 0,
     .kind = SB_VAL_UINT, .min = 1, .max = 1000000000},
    {"mdtest-easy.n", "mdtest-easy Files Per Rank", "10000", "200", NULL,
     "IO500 [mdtest-easy] n: empty files each rank creates in its own directory", 0,
     .kind = SB_VAL_UINT, .min = 1, .max = 1000000000},
    {"mdtest-hard.n", "mdtest-hard Files Per Rank", "10000", "200", NULL,
     "IO500 [mdtest-hard] n: 3901-byte files each rank creates in the shared directory", 0,
     .kind = SB_VAL_UINT, .min = 1, .max = 1000000000},
    {"stonewall-time", "Stonewall", "300", NULL, NULL,
     "IO500 [debug] stonewall-time, seconds: the write phases stop then and wear out (IO500's rule: 300)", 0,
     .kind = SB_VAL_DURATION},
};
enum { O_EASY_T, O_EASY_B, O_HARD_S, O_MDE_N, O_MDH_N, O_WALL };

typedef struct io500_params {
    uint64_t easy_t, easy_b, hard_s, mde_n, mdh_n;
    double wall;
} io500_params;

static int io500_resolve(const sb_config *cfg, void *params, char *err, size_t errlen)
{
    io500_params *p = params;
    int rc;
    /* Parsed by their kinds when the configuration was made; checked here, once. */
    if ((rc = sb_config_check(cfg, err, errlen)) < 0)
        return rc;
    p->easy_t = sb_config_u(cfg, io500_options[O_EASY_T].key);
    p->easy_b = sb_config_u(cfg, io500_options[O_EASY_B].key);
    p->hard_s = sb_config_u(cfg, io500_options[O_HARD_S].key);
    p->mde_n = sb_config_u(cfg, io500_options[O_MDE_N].key);
    p->mdh_n = sb_config_u(cfg, io500_options[O_MDH_N].key);
    p->wall = sb_config_seconds(cfg, io500_options[O_WALL].key);
    sb_ior_params ip = {.transfer = p->easy_t, .block = p->easy_b, .segments = 1, .path = "x"};
    if ((rc = sb_ior_check(&ip, err, errlen)) < 0) {
        char why[256];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, errlen, "io500: ior-easy: %s", why);
        return rc;
    }
    return 0;
}

static uint64_t io500_space(const void *params)
{
    const io500_params *p = params;
    return p->easy_b + p->hard_s * IO500_HARD_XFER + (p->mde_n + p->mdh_n) * 8192;
}

static double io500_estimate(const void *params)
{
    const io500_params *p = params;
    return (double)(p->easy_b + p->hard_s * IO500_HARD_XFER) * 4 / 200e6 + (double)(p->mde_n + p->mdh_n) * 4 * 30e-6;
}

/* One run's state. */
typedef struct io500_state {
    sb_run_ctx *ctx;
    io500_params p;
    char root[MDT_ROOT_MAX - 32]; /* the data directory, the same path on every rank */
    sb_ior_state easy, hard;
    bool easy_init, hard_init, easy_dirs, ts_made;
    mdt_params mpe, mph;
    mdt_tree te, th;
    uint64_t n_easy, n_hard; /* files per rank after the wear-out */
    struct timespec newer;
    double value[N_PHASES], seconds[N_PHASES];
    uint64_t amount[N_PHASES], found;
    bool short_write[N_PHASES]; /* a write phase under stonewall-time: IO500's [INVALID] */
} io500_state;

/* A metadata phase's figure over all ranks, mdtest's (mdt_phase_end): ops over the
 * longest rank's time from its start to its exit of the barrier that ends the phase, /1000. */
static void md_figure(io500_state *s, int ph, const mdt_combined *a)
{
    s->seconds[ph] = a->seconds;
    s->value[ph] = a->seconds > 0 ? (double)a->ops / a->seconds / 1e3 : 0;
    s->amount[ph] = a->ops;
}

/* An mdtest phase of one layout: barrier, this rank's share, the figure. */
static int md_phase(io500_state *s, int ph, mdt_tree *t, enum mdt_phase what)
{
    int rc = sb_ctx_barrier(s->ctx);
    if (rc < 0)
        return rc;
    mdt_count c = {0};
    sb_test_rank_delay(); /* tests only: a rank that leaves the barrier late */
    uint64_t *n = t == &s->te ? &s->n_easy : &s->n_hard;
    int owner = (t->rank + 1) % t->size; /* IO500's mdtest -N 1 */
    uint64_t at_wall;
    double wall_s;
    mdt_combined a = {0};
    c.t0 = sb_now_ns();
    switch (what) {
    case MDT_CREATE:
        rc = mdt_create_wearout(t, s->ctx, &c, &at_wall, &wall_s);
        *n = c.ops;
        break;
    case MDT_STAT: rc = mdt_stat(t, s->ctx, owner, *n, &c); break;
    case MDT_READ: rc = mdt_read(t, s->ctx, owner, *n, &c); break;
    default: rc = mdt_delete(t, s->ctx, owner, *n, &c); break;
    }
    if (rc < 0 || (rc = mdt_phase_end(s->ctx, &c, &a)) < 0)
        return rc;
    md_figure(s, ph, &a);
    s->short_write[ph] = what == MDT_CREATE && s->seconds[ph] < s->p.wall;
    return 0;
}

static int ior_phase(io500_state *s, int ph, sb_ior_state *st, bool write)
{
    sb_ior_phase r;
    if (!write)
        st->p.deadline = 0; /* IO500 reads what was written, with no -D */
    int rc = write ? sb_ior_write(st, &r, s->ctx->err, sizeof s->ctx->err)
                   : sb_ior_read(st, &r, s->ctx->err, sizeof s->ctx->err);
    if (rc < 0)
        return rc;
    s->value[ph] = r.bw / (1024.0 * 1024 * 1024);
    s->seconds[ph] = r.elapsed_s;
    s->amount[ph] = r.bytes;
    s->short_write[ph] = write && r.elapsed_s < s->p.wall;
    return 0;
}

/* The timestamp file find's -newer compares with, made by rank 0 after mdtest-easy-write
 * (IO500's timestamp phase); every rank reads its time after the barrier. */
static int timestamp(io500_state *s)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/timestampfile", s->root);
    if (s->te.rank == 0) {
        int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0)
            return sb_ctx_fail(s->ctx, errno, "io500: create %s: %s", path, strerror(errno));
        close(fd);
        s->ts_made = true;
    }
    int rc = sb_ctx_barrier(s->ctx);
    if (rc < 0)
        return rc;
    struct stat st;
    if (stat(path, &st) != 0)
        return sb_ctx_fail(s->ctx, errno, "io500: stat %s: %s (the data directory must be one every "
                           "rank sees)", path, strerror(errno));
    s->newer = st.st_mtim;
    return 0;
}

static int find_phase(io500_state *s)
{
    int rc = sb_ctx_barrier(s->ctx);
    if (rc < 0)
        return rc;
    mdt_count c = {0};
    mdt_combined a = {0};
    c.t0 = sb_now_ns();
    rc = mdt_find_dir(&s->th, s->ctx, s->root, &s->newer, IO500_HARD_SIZE, &c);
    if (rc < 0 || (rc = mdt_phase_end(s->ctx, &c, &a)) < 0)
        return rc;
    md_figure(s, P_FIND, &a);
    s->found = a.found;
    return 0;
}

/* The directories: rank 0 makes the ior ones and both mdtest trees' roots. */
static int make_dirs(io500_state *s)
{
    int rc = 0;
    char d[PATH_MAX];
    if (s->te.rank == 0) {
        if (mkdir(s->root, 0700) != 0)
            return sb_ctx_fail(s->ctx, errno, "io500: mkdir %s: %s", s->root, strerror(errno));
        for (int i = 0; i < 2 && rc == 0; i++) {
            snprintf(d, sizeof d, "%s/%s", s->root, i ? "ior-hard" : "ior-easy");
            if (mkdir(d, 0700) != 0)
                rc = sb_ctx_fail(s->ctx, errno, "io500: mkdir %s: %s", d, strerror(errno));
        }
        if (rc == 0 && (rc = mdt_make_shared(&s->te, s->ctx)) == 0)
            rc = mdt_make_shared(&s->th, s->ctx);
    }
    if (rc < 0 || (rc = sb_ctx_barrier(s->ctx)) < 0)
        return rc;
    s->easy_dirs = true;
    if ((rc = mdt_make_own(&s->te, s->ctx)) < 0 || (rc = mdt_make_own(&s->th, s->ctx)) < 0)
        return rc;
    return sb_ctx_barrier(s->ctx);
}

static void ior_params(io500_state *s, sb_ior_params *e, sb_ior_params *h)
{
    *e = (sb_ior_params){.transfer = s->p.easy_t, .block = s->p.easy_b, .segments = 1,
                         .file_per_proc = true, .fsync = true, .reorder = sb_ior_task_offset(1),
                         .check = true,
                         .deadline = s->p.wall, .wearout = true};
    *h = (sb_ior_params){.transfer = IO500_HARD_XFER, .block = IO500_HARD_XFER,
                         .segments = s->p.hard_s, .fsync = true, .reorder = sb_ior_task_offset(1),
                         .check = true,
                         .deadline = s->p.wall, .wearout = true};
    snprintf(e->path, sizeof e->path, "%s/ior-easy/ior_file_easy", s->root);
    snprintf(h->path, sizeof h->path, "%s/ior-hard/file", s->root);
}

/* The phases in IO500's order. */
static int phases(io500_state *s)
{
    sb_ior_params e, h;
    int rc;
    ior_params(s, &e, &h);
    if ((rc = sb_ior_init(&s->easy, &e, s->ctx->err, sizeof s->ctx->err)) < 0)
        return rc;
    s->easy_init = true;
    if ((rc = sb_ior_init(&s->hard, &h, s->ctx->err, sizeof s->ctx->err)) < 0)
        return rc;
    s->hard_init = true;
    int step = 0;
#define STEP(call) do { if ((rc = (call)) < 0) return rc; sb_ctx_progress(s->ctx, ++step / 14.0); } while (0)
    STEP(ior_phase(s, P_IOR_EASY_W, &s->easy, true));
    STEP(md_phase(s, P_MD_EASY_W, &s->te, MDT_CREATE));
    STEP(timestamp(s));
    STEP(ior_phase(s, P_IOR_HARD_W, &s->hard, true));
    STEP(md_phase(s, P_MD_HARD_W, &s->th, MDT_CREATE));
    STEP(find_phase(s));
    STEP(ior_phase(s, P_IOR_EASY_R, &s->easy, false));
    STEP(md_phase(s, P_MD_EASY_STAT, &s->te, MDT_STAT));
    STEP(ior_phase(s, P_IOR_HARD_R, &s->hard, false));
    STEP(md_phase(s, P_MD_HARD_STAT, &s->th, MDT_STAT));
    STEP(md_phase(s, P_MD_EASY_DEL, &s->te, MDT_DELETE));
    STEP(md_phase(s, P_MD_HARD_READ, &s->th, MDT_READ));
    STEP(md_phase(s, P_MD_HARD_DEL, &s->th, MDT_DELETE));
#undef STEP
    return 0;
}

/* What is left, after a barrier: the ior files, the trees' directories, the timestamp
 * file, the directories. On a failure the runner removes the run directory itself. */
static int cleanup(io500_state *s)
{
    char d[PATH_MAX];
    int rc = 0;
    if (s->easy_init)
        rc = sb_ior_remove(&s->easy, s->ctx->err, sizeof s->ctx->err);
    if (rc == 0 && s->hard_init)
        rc = sb_ior_remove(&s->hard, s->ctx->err, sizeof s->ctx->err);
    if (rc < 0 || (rc = mdt_remove_own(&s->te, s->ctx)) < 0 || (rc = sb_ctx_barrier(s->ctx)) < 0 ||
        s->te.rank != 0)
        return rc;
    if ((rc = mdt_remove_shared(&s->te, s->ctx)) < 0 || (rc = mdt_remove_shared(&s->th, s->ctx)) < 0)
        return rc;
    snprintf(d, sizeof d, "%s/timestampfile", s->root);
    if (unlink(d) != 0)
        return sb_ctx_fail(s->ctx, errno, "io500: unlink %s: %s", d, strerror(errno));
    for (int i = 0; i < 2; i++) {
        snprintf(d, sizeof d, "%s/%s", s->root, i ? "ior-hard" : "ior-easy");
        if (rmdir(d) != 0)
            return sb_ctx_fail(s->ctx, errno, "io500: rmdir %s: %s", d, strerror(errno));
    }
    if (rmdir(s->root) != 0)
        return sb_ctx_fail(s->ctx, errno, "io500: rmdir %s: %s", s->root, strerror(errno));
    return 0;
}

/* The geometric mean of phases [from, to) of the group (IO500's calc_score: 0 when a
 * phase's figure is 0). */
static double geomean(const io500_state *s, const int *idx, int n)
{
    double logsum = 0;
    for (int i = 0; i < n; i++) {
        if (s->value[idx[i]] <= 0)
            return 0;
        logsum += log(s->value[idx[i]]);
    }
    return exp(logsum / n);
}

static void fill(const io500_state *s, sb_sample *x)
{
    static const int bw[] = {P_IOR_EASY_W, P_IOR_HARD_W, P_IOR_EASY_R, P_IOR_HARD_R};
    static const int md[] = {P_MD_EASY_W, P_MD_HARD_W, P_FIND, P_MD_EASY_STAT,
                             P_MD_HARD_STAT, P_MD_EASY_DEL, P_MD_HARD_READ, P_MD_HARD_DEL};
    double total = 0;
    for (int ph = 0; ph < N_PHASES; ph++) {
        bool is_ior = !strcmp(io500_measures[ph].unit, "GiB/s");
        x[ph].value = s->value[ph];
        x[ph].seconds = s->seconds[ph];
        x[ph].valid = s->seconds[ph] > 0;
        x[ph].ranks_combined = true;
        sb_sample_add(&x[ph], "time_s", "s", s->seconds[ph]);
        sb_sample_add(&x[ph], is_ior ? "bytes" : (ph == P_FIND ? "checked" : "files"),
                      is_ior ? "bytes" : "files", (double)s->amount[ph]);
        if (ph == P_FIND)
            sb_sample_add(&x[ph], "found", "files", (double)s->found);
        if (ph == P_IOR_EASY_W || ph == P_IOR_HARD_W || ph == P_MD_EASY_W || ph == P_MD_HARD_W)
            sb_sample_add(&x[ph], "valid", "", s->short_write[ph] ? 0 : 1);
        total += s->seconds[ph];
    }
    double b = geomean(s, bw, 4), m = geomean(s, md, 8);
    double v[3] = {b, m, sqrt(b * m)};
    for (int i = 0; i < 3; i++) {
        sb_sample *y = &x[S_BW + i];
        y->value = v[i];
        y->seconds = total;
        y->valid = v[i] > 0;
        y->ranks_combined = true;
    }
}

static int io500_run(sb_run_ctx *ctx, const void *params, sb_sample *samples)
{
    io500_state *s = calloc(1, sizeof *s);
    if (!s)
        return sb_ctx_fail(ctx, ENOMEM, "io500: out of memory");
    s->ctx = ctx;
    s->p = *(const io500_params *)params;
    int rc = 0;
    if (snprintf(s->root, sizeof s->root, "%s/io500", ctx->dir) >= (int)sizeof s->root)
        rc = sb_ctx_fail(ctx, ENAMETOOLONG, "io500: %s: %s", ctx->dir, strerror(ENAMETOOLONG));
    if (rc == 0 && (rc = sb_ranks_bcast(s->root, sizeof s->root, 0)) < 0)
        rc = sb_ctx_fail(ctx, rc, "io500: sharing the data directory's path: %s", strerror(-rc));
    s->mpe = (mdt_params){.files = s->p.mde_n, .stonewall = s->p.wall};
    s->mph = (mdt_params){.files = s->p.mdh_n, .hard = true, .size = IO500_HARD_SIZE, .stonewall = s->p.wall};
    mdt_tree *t[2] = {&s->te, &s->th};
    for (int i = 0; i < 2; i++) {
        t[i]->rank = sb_ranks()->rank;
        t[i]->size = sb_ranks()->size;
        t[i]->p = i ? &s->mph : &s->mpe;
        snprintf(t[i]->root, sizeof t[i]->root, "%s/mdtest-%s", s->root, i ? "hard" : "easy");
        t[i]->buf = malloc(IO500_HARD_SIZE);
        if (!t[i]->buf && rc == 0)
            rc = sb_ctx_fail(ctx, ENOMEM, "io500: out of memory");
        else if (t[i]->buf)
            memset(t[i]->buf, 'x', IO500_HARD_SIZE);
    }
    if (rc == 0 && (rc = make_dirs(s)) == 0 && (rc = phases(s)) == 0 && (rc = cleanup(s)) == 0)
        fill(s, samples);
    if (s->easy_init)
        sb_ior_free(&s->easy);
    if (s->hard_init)
        sb_ior_free(&s->hard);
    free(s->te.buf);
    free(s->th.buf);
    free(s);
    return rc;
}

const sb_workload sb_wl_io500 = {
    .name = "io500",
    .title = "IO500",
    .version = "02091cf",
    .summary = "IO500's phases in its order (ior-easy/hard, mdtest-easy/hard, find) and its score; "
               "GiB/s, kIOPS",
    .options = io500_options,
    .n_options = sizeof io500_options / sizeof io500_options[0],
    .measures = io500_measures,
    .n_measures = N_MEASURES,
    /* One run is IO500's run; not wall-clock-checked: its phases are what they are. */
    .flags = SB_WL_RANKS,
    .quick_runs = 1,
    .params_size = sizeof(io500_params),
    .resolve = io500_resolve,
    .space_needed = io500_space,
    .estimate_seconds = io500_estimate,
    .run = io500_run,
};
