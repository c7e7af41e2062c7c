/*
 * mdtest — the private interface between the mdtest workload (mdtest.c: options,
 * phases in IO500's order, barriers, figures) and its tree operations
 * (mdtest_tree.c: the files of one rank's share, made, stat'ed, read, removed
 * and searched). The tree is one directory every rank sees (rank 0's run
 * directory under MPI), so that a rank can work on its neighbour's files as
 * IO500 asks (mdtest -N 1) and the hard layout can share one directory.
 */
#ifndef SB_WORKLOADS_MDTEST_H
#define SB_WORKLOADS_MDTEST_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "workloads/workload.h"

/* The phases, in IO500's order within one layout (find before stat, read, delete). */
enum mdt_phase { MDT_CREATE, MDT_FIND, MDT_STAT, MDT_READ, MDT_DELETE, MDT_NPHASES };

typedef struct mdt_params {
    uint64_t files;   /* per rank (mdtest -n) */
    bool hard;        /* one shared directory, written files (mdtest-hard) */
    uint64_t size;    /* bytes written at create, read in the read phase (-w, -e) */
    double stonewall; /* seconds; 0 = none (-W) */
    unsigned phases;  /* bit (1u << mdt_phase) per phase run */
} mdt_params;

/* Room for the tree's path, then its layout directory, a rank's directory and a file. */
#define MDT_ROOT_MAX 3072
#define MDT_LAYOUT_MAX (MDT_ROOT_MAX + 8)
#define MDT_DIR_MAX (MDT_LAYOUT_MAX + 40)
#define MDT_PATH_MAX (MDT_DIR_MAX + 56)

typedef struct mdt_tree {
    char root[MDT_ROOT_MAX]; /* the mdtest directory, the same path on every rank */
    int rank, size;      /* this rank and the number of ranks (1 alone) */
    const mdt_params *p;
    char *buf;           /* p->size bytes to write, or to read into */
} mdt_tree;

/* What one rank did in one phase: operations, and when (sb_now_ns) it began (after the
 * barrier that starts the phase), did its last operation, and left the barrier that ends
 * the phase (mdtest's t_start, t_end_before_barrier and t_end). */
typedef struct mdt_count {
    uint64_t ops, bytes, found;
    uint64_t t0, t_own, t1;
} mdt_count;

/* One phase's figures over all ranks, as mdtest's summarize_results makes them (and IO500
 * scores them): the ranks' operations over the longest rank's time, each rank's time on
 * its own clock from its start to its exit of the barrier that ends the phase, so across
 * hosts too; each rank's own rate is its operations over its start to its last one. */
typedef struct mdt_combined {
    double rate, seconds;               /* ops/s; the longest rank's time */
    double rank_min, rank_mean, rank_max; /* each rank's own ops/s */
    uint64_t ops, bytes, found;         /* summed over the ranks */
} mdt_combined;

/* The directories: rank 0 makes root's layout directory (and, easy, every rank its own
 * "mdtest_tree.R.0"). 0 or -errno, the line in ctx->err. */
int mdt_make_shared(mdt_tree *t, sb_run_ctx *ctx);
int mdt_make_own(mdt_tree *t, sb_run_ctx *ctx);
/* Creates this rank's files [from, to), stopping once wall_ns (0 = none) is reached;
 * adds to c. */
int mdt_create(mdt_tree *t, sb_run_ctx *ctx, uint64_t from, uint64_t to, uint64_t wall_ns,
               mdt_count *c);
/* Stat, read or remove files [0, count) of the rank `owner`. */
int mdt_stat(mdt_tree *t, sb_run_ctx *ctx, int owner, uint64_t count, mdt_count *c);
int mdt_read(mdt_tree *t, sb_run_ctx *ctx, int owner, uint64_t count, mdt_count *c);
int mdt_delete(mdt_tree *t, sb_run_ctx *ctx, int owner, uint64_t count, mdt_count *c);
/* Removes what is left of `owner`'s files [0, count) without timing (no delete phase). */
int mdt_remove_rest(mdt_tree *t, sb_run_ctx *ctx, int owner, uint64_t count);
/* IO500's find: walks the tree, this rank checking every size-th file, matching name
 * "*01*", size == size and modified after `newer`. c->ops = files checked, c->found. */
int mdt_find(mdt_tree *t, sb_run_ctx *ctx, const struct timespec *newer, uint64_t size,
             mdt_count *c);
/* The same walk over any directory (io500: the whole data directory, as IO500's find). */
int mdt_find_dir(mdt_tree *t, sb_run_ctx *ctx, const char *dir, const struct timespec *newer,
                 uint64_t size, mdt_count *c);
/* The create phase with mdtest -W's wear-out (t->p->stonewall > 0): create until the wall, a
 * checked barrier, the most files any rank made, then on to that count. c->ops is then the
 * count on every rank; *at_wall the files of all ranks at the wall, *wall_s the longest time
 * to it. */
int mdt_create_wearout(mdt_tree *t, sb_run_ctx *ctx, mdt_count *c, uint64_t *at_wall, double *wall_s);
/* The barrier that ends a phase (mdtest's phase_end), then c->t1, and the figures of all
 * ranks into *out (collectives: every rank calls it; alone, this one's). 0 or -errno. */
int mdt_phase_end(sb_run_ctx *ctx, mdt_count *c, mdt_combined *out);
/* Removes the layout directories once every rank's files are gone (rank 0; easy: each
 * rank its own directory). */
int mdt_remove_own(mdt_tree *t, sb_run_ctx *ctx);
int mdt_remove_shared(mdt_tree *t, sb_run_ctx *ctx);

#endif
