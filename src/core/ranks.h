/*
 * ranks — what a command needs when it is one of several processes started
 * together (the ranks of an MPI job): its rank, how many ranks and hosts there
 * are, and a few collective operations (barrier, all-gather, gather to one rank, all-reduce,
 * broadcast, agreement on failure). Without MPI there is one rank
 * and every operation returns at once, so the same code serves both.
 *
 * storbench-mpi installs an implementation backed by Open MPI (src/mpi/);
 * nothing else in the library knows about MPI, and plain storbench does not
 * link it (docs/mpi.md says why there are two binaries). All collectives must
 * be called by every rank in the same order; they are called from the main
 * thread only (MPI_THREAD_FUNNELED). What only rank 0 combines is gathered to it,
 * not all-gathered (docs/mpi.md, "Thousands of ranks").
 */
#ifndef SB_RANKS_H
#define SB_RANKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/histogram.h"

typedef enum sb_ranks_op { SB_RANKS_SUM, SB_RANKS_MIN, SB_RANKS_MAX } sb_ranks_op;

#define SB_HOST_MAX 64

/* An implementation of the collectives; each returns 0 or -errno. */
typedef struct sb_ranks_ops {
    const char *name;                                          /* "Open MPI 4.1.4" */
    int (*barrier)(void);
    int (*allgather)(const void *send, void *recv, size_t len); /* recv: size * len */
    int (*bcast)(void *buf, size_t len, int root);
    int (*allreduce_u64)(uint64_t *buf, size_t n, sb_ranks_op op);
    int (*allreduce_double)(double *buf, size_t n, sb_ranks_op op);
    /* Tells every other rank, without waiting, that this one failed. */
    void (*announce_failure)(void);
    /* Non-blocking: has another rank announced a failure? */
    bool (*failure_announced)(void);
    /* To root only: recv (root: size * len; elsewhere unused) in rank order. */
    int (*gather)(const void *send, void *recv, size_t len, int root);
    /* To root only, len bytes from this rank (0: none); at root lens[] holds every
     * rank's len and recv their bytes packed in rank order. */
    int (*gatherv)(const void *send, size_t len, void *recv, const size_t *lens, int root);
} sb_ranks_ops;

/* Where this process stands among the ranks. */
typedef struct sb_ranks_info {
    int rank, size;
    int local_rank, local_size; /* among the ranks on this host */
    int hosts;                  /* distinct hosts */
    int min_per_host;           /* the fewest ranks on one host */
    int max_per_host;           /* the most ranks on one host */
    char host[SB_HOST_MAX];     /* this rank's host name */
} sb_ranks_info;

/* Installed by storbench-mpi's start-up; hosts is the host name of every rank
 * (size entries, copied). */
void sb_ranks_install(const sb_ranks_ops *ops, int rank, int size, int local_rank,
                      int local_size, const char (*hosts)[SB_HOST_MAX]);

/* Called first thing by main(). Plain storbench: when started by mpirun, replaces itself
 * with storbench-mpi beside it (or, if there is none, says so and returns 1); otherwise
 * returns -1 (go on, one rank). storbench-mpi links its own definition (src/mpi/), which
 * initialises MPI. A return >= 0 is the exit code. */
int sb_ranks_start(int *argc, char ***argv);

/* True under storbench-mpi (even with one rank): commands report per-rank figures. */
bool sb_ranks_active(void);
const sb_ranks_info *sb_ranks(void);
const char *sb_ranks_host_of(int rank);
/* The first (lowest) rank on rank's host, which speaks for the host. */
int sb_ranks_leader_of(int rank);
const char *sb_ranks_impl_name(void);

int sb_ranks_barrier(void);
int sb_ranks_allgather(const void *send, void *recv, size_t len);
int sb_ranks_bcast(void *buf, size_t len, int root);
/* Gathers to root alone (ops above); alone, a copy. */
int sb_ranks_gather(const void *send, void *recv, size_t len, int root);
int sb_ranks_gatherv(const void *send, size_t len, void *recv, const size_t *lens, int root);
int sb_ranks_allreduce_u64(uint64_t *buf, size_t n, sb_ranks_op op);
int sb_ranks_allreduce_double(double *buf, size_t n, sb_ranks_op op);
/* Histograms of all ranks merged (bucket sums, min, max), on every rank. */
int sb_ranks_merge_hist(sb_histogram *h);

void sb_ranks_announce_failure(void);
bool sb_ranks_failure_announced(void);

/* Whether an agreement since the last sb_ranks_clear_failure() found a failure: then its
 * line ("rank R on HOST: ...") and status. A rank that learnt of a failure at a barrier
 * inside a run does not agree on it again at the run's end (the others will not either). */
bool sb_ranks_failure_agreed(const char **line, int *status);
void sb_ranks_clear_failure(void);

/* The checked barrier that ends every phase: each rank passes its status (0 or -errno)
 * and, when failing, its one-line message. Returns 0 when every rank succeeded; else the
 * status of the lowest failing rank, whose message, prefixed "rank R on HOST: ", is in
 * out on every rank. A rank interrupted (-EINTR) counts as failing only when no other
 * rank failed for another reason. */
int sb_ranks_agree(int status, const char *msg, char *out, size_t outlen);

#endif
