/*
 * mdtest — metadata phases as mdtest runs them for IO500 (hpc/ior's mdtest with
 * -F, files only): create, then IO500's find over what was created, stat, read
 * and delete, each phase started and ended by a barrier across the ranks and
 * each its own measure in operations per second (IO500 reports kIOPS: the same
 * figure divided by 1,000), over all ranks as mdtest makes it: all ranks'
 * files over the longest rank's time, from its start to the closing barrier.
 *
 * Two layouts, IO500's: easy (mdtest -n N -u -L -F: a directory per rank, empty
 * files) and hard (mdtest -n N -t -F -w 3901 -e 3901: one directory shared by
 * all ranks, 3,901 bytes written into each file at create and read back in the
 * read phase). As IO500 runs them (-N 1), a rank stats, reads and removes its
 * neighbour's files (rank R those of R+1), so that no rank finds its own files
 * in its client's cache.
 *
 * stonewall=S is mdtest's -W S with IO500's wear-out: each rank stops creating
 * S seconds into the create phase, the ranks agree on the most files any rank
 * made, and every rank goes on until it has made that many; the create figure
 * is all files over the whole phase (IO500's score figure), and the rate at the
 * wall is reported beside it (stonewall_kiops). Later phases work on that count.
 *
 * Under MPI the tree is rank 0's run directory (its path broadcast), which is
 * why the target must be one every rank sees, as mdtest's -d must be.
 * The file operations are in mdtest_tree.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/ranks.h"
#include "workloads/mdtest.h"
#include "workloads/workload.h"

#define MDT_HARD_SIZE 3901 /* IO500's mdtest-hard -w 3901 -e 3901 */

static const char *const mdt_phase_names[MDT_NPHASES] = {"create", "find", "stat", "read", "delete"};

static const sb_choice mdt_layouts[] = {
    {"easy", "Easy"},
    {"hard", "Hard"},
    {NULL, NULL},
};

static const sb_option mdt_options[] = {
    {"layout", "Layout", "easy", NULL, mdt_layouts,
     "easy: a directory per rank, empty files (IO500 mdtest-easy); hard: one shared directory, "
     "3901-byte files (mdtest-hard)", 0, .kind = SB_VAL_CHOICE},
    {"files", "Files Per Rank", "10000", "200", NULL, "files each rank creates (mdtest -n)", SB_OPT_HIDDEN, .kind = SB_VAL_UINT, .min = 1, .max = 1000000000},
    {"phases", "Phases", "create,find,stat,read,delete", NULL, NULL,
     "comma list of create, find, stat, read, delete (run in that order; create is required)",
     SB_OPT_IF_CHANGED, .kind = SB_VAL_TEXT},
    {"size", "Write Size", "auto", NULL, NULL,
     "bytes written at create and read back (mdtest -w/-e); auto = 0 easy, 3901 hard",
     SB_OPT_IF_CHANGED | SB_OPT_AUTO, .kind = SB_VAL_SIZE},
    {"stonewall", "Stonewall", "0", NULL, NULL,
     "seconds: stop creating then, every rank wears out to the most any rank made (mdtest -W); 0 = off",
     SB_OPT_IF_CHANGED, .kind = SB_VAL_DURATION},
};

static const sb_measure mdt_measures[MDT_NPHASES] = {
    [MDT_CREATE] = {"Phase: Create", "ops/s", SB_HIGHER_IS_BETTER},
    [MDT_FIND] = {"Phase: Find", "ops/s", SB_HIGHER_IS_BETTER},
    [MDT_STAT] = {"Phase: Stat", "ops/s", SB_HIGHER_IS_BETTER},
    [MDT_READ] = {"Phase: Read", "ops/s", SB_HIGHER_IS_BETTER},
    [MDT_DELETE] = {"Phase: Delete", "ops/s", SB_HIGHER_IS_BETTER},
};

static int mdt_parse_phases(const char *list, unsigned *out, char *err, size_t errlen)
{
    unsigned bits = 0;
    const char *s = list;
    while (*s) {
        size_t n = strcspn(s, ",");
        int found = -1;
        for (int i = 0; i < MDT_NPHASES; i++)
            if (strlen(mdt_phase_names[i]) == n && !strncmp(s, mdt_phase_names[i], n))
                found = i;
        if (found < 0) {
            snprintf(err, errlen, "mdtest: phases=%s: unknown phase '%.*s' (create, find, stat, read, delete)",
                     list, (int)n, s);
            return -EINVAL;
        }
        bits |= 1u << found;
        s += n;
        if (*s == ',')
            s++;
    }
    if (!(bits & (1u << MDT_CREATE))) {
        snprintf(err, errlen, "mdtest: phases=%s: create is required (every run starts in an empty directory)",
                 list);
        return -EINVAL;
    }
    *out = bits;
    return 0;
}

static int mdt_resolve(const sb_config *cfg, void *params, char *err, size_t errlen)
{
    mdt_params *p = params;
    int rc;
    p->hard = !strcmp(sb_config_get(cfg, "layout"), "hard");
    if ((rc = sb_config_check(cfg, err, errlen)) < 0)
        return rc;
    p->files = sb_config_u(cfg, "files");
    if ((rc = mdt_parse_phases(sb_config_get(cfg, "phases"), &p->phases, err, errlen)) < 0)
        return rc;
    const char *size = sb_config_get(cfg, "size");
    p->size = sb_config_is_auto(cfg, "size") ? (p->hard ? MDT_HARD_SIZE : 0) : sb_config_u(cfg, "size");
    if (p->size > (64u << 20)) {
        snprintf(err, errlen, "mdtest: size=%s: at most 64M per file", size);
        return -EINVAL;
    }
    p->stonewall = sb_config_seconds(cfg, "stonewall");
    if (p->stonewall < 0) {
        snprintf(err, errlen, "mdtest: stonewall=%s: must not be negative", sb_config_get(cfg, "stonewall"));
        return -EINVAL;
    }
    return 0;
}

static uint64_t mdt_space_needed(const void *params)
{
    const mdt_params *p = params;
    /* the data rounded up to blocks, and an inode's worth per file */
    return p->files * ((p->size + 4095) / 4096 * 4096 + 4096);
}

static double mdt_estimate(const void *params)
{
    const mdt_params *p = params;
    return (double)p->files * 5 * 30e-6;
}

static bool mdt_measured(const void *params, size_t m)
{
    const mdt_params *p = params;
    return p->phases & (1u << m);
}

/* One run's state across its phases. */
typedef struct mdt_state {
    sb_run_ctx *ctx;
    mdt_tree t;
    uint64_t count;           /* files per rank after create (and wear-out) */
    uint64_t sw_files;        /* all ranks' files at the wall */
    double sw_seconds;        /* the longest rank's time to the wall */
    struct timespec newer;    /* the timestamp file's time, for find */
    mdt_count c[MDT_NPHASES];
    mdt_combined all[MDT_NPHASES]; /* under MPI: every rank's, combined */
} mdt_state;

static int mdt_phase_create(mdt_state *s, mdt_count *c)
{
    int rc = mdt_create_wearout(&s->t, s->ctx, c, &s->sw_files, &s->sw_seconds);
    s->count = c->ops;
    return rc;
}

int mdt_phase_end(sb_run_ctx *ctx, mdt_count *c, mdt_combined *out)
{
    c->t_own = sb_now_ns();
    int rc = sb_ctx_barrier(ctx);
    c->t1 = sb_now_ns();
    if (rc < 0)
        return rc;
    double own_s = (double)(c->t_own - c->t0) / 1e9, own = own_s > 0 ? (double)c->ops / own_s : 0;
    double most[3] = {(double)(c->t1 - c->t0) / 1e9, -own, own}, sum = own;
    uint64_t n[3] = {c->ops, c->bytes, c->found};
    if (sb_ranks_active() && ((rc = sb_ranks_allreduce_double(most, 3, SB_RANKS_MAX)) < 0 ||
        (rc = sb_ranks_allreduce_double(&sum, 1, SB_RANKS_SUM)) < 0 ||
        (rc = sb_ranks_allreduce_u64(n, 3, SB_RANKS_SUM)) < 0))
        return sb_ctx_fail(ctx, rc, "mdtest: combining the ranks' figures: %s", strerror(-rc));
    *out = (mdt_combined){.seconds = most[0], .rank_min = -most[1], .rank_max = most[2],
                          .rank_mean = sb_ranks_active() ? sum / sb_ranks()->size : sum, .ops = n[0], .bytes = n[1], .found = n[2]};
    out->rate = most[0] > 0 ? (double)n[0] / most[0] : 0;
    return 0;
}

/* One phase: a barrier, this rank's share, timed, and the barrier that ends it (mdtest's
 * phase_prepare and phase_end: its time runs to every rank's end). */
static int mdt_phase(mdt_state *s, enum mdt_phase ph)
{
    int rc = sb_ctx_barrier(s->ctx);
    if (rc < 0)
        return rc;
    mdt_count *c = &s->c[ph];
    int owner = (s->t.rank + 1) % s->t.size; /* IO500's -N 1: the neighbour's files */
    sb_test_rank_delay();
    c->t0 = sb_now_ns();
    switch (ph) {
    case MDT_CREATE: rc = mdt_phase_create(s, c); break;
    case MDT_FIND: rc = mdt_find(&s->t, s->ctx, &s->newer, s->t.p->size, c); break;
    case MDT_STAT: rc = mdt_stat(&s->t, s->ctx, owner, s->count, c); break;
    case MDT_READ: rc = mdt_read(&s->t, s->ctx, owner, s->count, c); break;
    default: rc = mdt_delete(&s->t, s->ctx, owner, s->count, c); break;
    }
    return rc < 0 ? rc : mdt_phase_end(s->ctx, c, &s->all[ph]);
}

/* Rank 0's part of the set-up: the tree and IO500's timestamp file, dated a second back
 * (IO500 makes it at the start of the whole run, long before the phases: on a file system
 * with coarse timestamps a file made in the same tick would not be "newer"). */
static int mdt_setup_shared(mdt_state *s)
{
    int rc = mdt_make_shared(&s->t, s->ctx);
    if (rc < 0)
        return rc;
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/timestampfile", s->t.root);
    int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return sb_ctx_fail(s->ctx, errno, "mdtest: create %s: %s", path, strerror(errno));
    close(fd);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    now.tv_sec -= 1;
    struct timespec times[2] = {now, now};
    if (utimensat(AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW) != 0)
        return sb_ctx_fail(s->ctx, errno, "mdtest: utimensat %s: %s", path, strerror(errno));
    return 0;
}

static int mdt_setup(mdt_state *s)
{
    int rc = s->t.rank == 0 ? mdt_setup_shared(s) : 0;
    if (rc < 0 || (rc = sb_ctx_barrier(s->ctx)) < 0)
        return rc;
    char path[PATH_MAX + 32];
    struct stat st;
    snprintf(path, sizeof path, "%s/timestampfile", s->t.root);
    if ((rc = mdt_make_own(&s->t, s->ctx)) < 0)
        return rc;
    if (stat(path, &st) != 0)
        return sb_ctx_fail(s->ctx, errno, "mdtest: stat %s: %s", path, strerror(errno));
    s->newer = st.st_mtim;
    return 0;
}

/* What no delete phase removed, then the directories, each after every rank is done. */
static int mdt_cleanup(mdt_state *s)
{
    int rc = 0;
    if (!(s->t.p->phases & (1u << MDT_DELETE)))
        rc = mdt_remove_rest(&s->t, s->ctx, s->t.rank, s->count);
    if (rc < 0 || (rc = sb_ctx_barrier(s->ctx)) < 0 || (rc = mdt_remove_own(&s->t, s->ctx)) < 0 ||
        (rc = sb_ctx_barrier(s->ctx)) < 0 || s->t.rank != 0)
        return rc;
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/timestampfile", s->t.root);
    if (unlink(path) != 0)
        return sb_ctx_fail(s->ctx, errno, "mdtest: unlink %s: %s", path, strerror(errno));
    return mdt_remove_shared(&s->t, s->ctx);
}

static void mdt_fill(const mdt_state *s, sb_sample *samples)
{
    for (int ph = 0; ph < MDT_NPHASES; ph++) {
        if (!(s->t.p->phases & (1u << ph)))
            continue;
        const mdt_combined a = s->all[ph];
        sb_sample *x = &samples[ph];
        /* under MPI, mdtest's figure of all ranks (mdt_phase_end), which the runner keeps */
        x->ranks_combined = sb_ranks_active();
        x->seconds = a.seconds;
        x->value = a.rate;
        x->valid = a.seconds > 0 && a.ops > 0;
        sb_sample_add(x, "files", "files", (double)a.ops);
        if (ph == MDT_CREATE || ph == MDT_STAT || ph == MDT_READ)
            sb_sample_add(x, "bytes", "bytes", (double)a.bytes);
        if (ph == MDT_FIND)
            sb_sample_add(x, "found", "files", (double)a.found);
        if (x->ranks_combined) {
            sb_sample_add(x, "rank_min", "ops/s", a.rank_min);
            sb_sample_add(x, "rank_mean", "ops/s", a.rank_mean);
            sb_sample_add(x, "rank_max", "ops/s", a.rank_max);
        }
        if (ph == MDT_CREATE && s->t.p->stonewall > 0) {
            /* agreed at the wall, the same on every rank (sw_files: all ranks') */
            sb_sample_add(x, "stonewall_kiops", "kIOPS",
                          s->sw_seconds > 0 ? (double)s->sw_files / s->sw_seconds / 1e3 : 0);
            sb_sample_add(x, "stonewall_s", "s", s->sw_seconds);
            sb_sample_add(x, "files_at_stonewall", "files", (double)s->sw_files);
        }
    }
}

static int mdt_run(sb_run_ctx *ctx, const void *params, sb_sample *samples)
{
    const mdt_params *p = params;
    int rc;
    mdt_state *s = calloc(1, sizeof *s);
    if (!s)
        return sb_ctx_fail(ctx, ENOMEM, "mdtest: out of memory");
    s->ctx = ctx;
    s->t.p = p;
    s->t.rank = sb_ranks_active() ? sb_ranks()->rank : 0;
    s->t.size = sb_ranks_active() ? sb_ranks()->size : 1;
    if (snprintf(s->t.root, sizeof s->t.root, "%s/mdtest", ctx->dir) >= (int)sizeof s->t.root) {
        free(s);
        return sb_ctx_fail(ctx, ENAMETOOLONG, "mdtest: %s: %s", ctx->dir, strerror(ENAMETOOLONG));
    }
    if ((rc = sb_ranks_bcast(s->t.root, sizeof s->t.root, 0)) < 0) {
        free(s);
        return sb_ctx_fail(ctx, rc, "mdtest: sharing the tree's path: %s", strerror(-rc));
    }
    s->t.buf = malloc(p->size ? p->size : 1);
    if (!s->t.buf) {
        free(s);
        return sb_ctx_fail(ctx, ENOMEM, "mdtest: out of memory");
    }
    memset(s->t.buf, 'x', p->size);
    rc = mdt_setup(s);
    for (int ph = 0; ph < MDT_NPHASES && rc == 0; ph++) {
        if (p->phases & (1u << ph))
            rc = mdt_phase(s, (enum mdt_phase)ph);
        sb_ctx_progress(ctx, (double)(ph + 1) / MDT_NPHASES);
    }
    if (rc == 0)
        rc = mdt_cleanup(s);
    if (rc == 0)
        mdt_fill(s, samples);
    free(s->t.buf);
    free(s);
    return rc;
}

const sb_workload sb_wl_mdtest = {
    .name = "mdtest",
    .title = "mdtest",
    .version = "4.0",
    .summary = "metadata phases (create, find, stat, read, delete), IO500's easy and hard layouts; ops/s",
    .options = mdt_options,
    .n_options = sizeof mdt_options / sizeof mdt_options[0],
    .measures = mdt_measures,
    .n_measures = MDT_NPHASES,
    /* Not SB_WL_WALL_CLOCK: a stat phase lasts milliseconds where a create phase lasts
     * seconds, and pooling repetitions until the shortest phase measured 3 s would repeat
     * the whole run hundreds of times; mdtest reports its phases as they are (use files= or
     * stonewall= for longer phases). */
    .flags = SB_WL_RANKS,
    .params_size = sizeof(mdt_params),
    .resolve = mdt_resolve,
    .space_needed = mdt_space_needed,
    .estimate_seconds = mdt_estimate,
    .run = mdt_run,
    .measured = mdt_measured,
};
