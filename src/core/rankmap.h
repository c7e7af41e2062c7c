/*
 * rankmap — the arithmetic on a job's ranks that has to stay cheap at
 * thousands of them (docs/mpi.md, "Thousands of ranks"): grouping the ranks by
 * host name with a sort (N log N, where comparing every pair of names was N²),
 * and the binomial tree along which a failure announcement is relayed (each
 * rank sends at most log2 N messages, where the failing rank sent N - 1).
 * Pure functions over plain arrays, so that a unit test can check them against
 * the pairwise answers without MPI.
 */
#ifndef SB_RANKMAP_H
#define SB_RANKMAP_H

#define SB_RANKMAP_NAME 64 /* a host name's slot, NUL-terminated (= SB_HOST_MAX) */

typedef struct sb_host_groups {
    int hosts;                      /* distinct names */
    int min_per_host, max_per_host; /* the fewest and the most ranks with one name */
} sb_host_groups;

/* Groups the n ranks by host name (names: n slots of SB_RANKMAP_NAME). leader[i] is the
 * lowest rank whose name is rank i's (leader[i] == i: the first rank of its host).
 * Returns 0, or -ENOMEM (leader untouched). n >= 1. */
int sb_host_group(const char (*names)[SB_RANKMAP_NAME], int n, int *leader, sb_host_groups *out);

/* The ranks that rank passes an announcement from root on to, in a binomial tree over
 * size ranks: written to out (room for max), their number returned (at most
 * ceil(log2 size); the root's children first reach the farthest ranks' subtrees). Every
 * rank but root is the child of exactly one rank. */
int sb_rank_tree_children(int rank, int root, int size, int *out, int max);

#endif
