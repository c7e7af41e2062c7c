/*
 * ior — IOR's data phases (hpc/ior's POSIX backend) on every rank: a write
 * phase and a read phase over IOR's layout, with IOR's timing and figures.
 * Used by `storbench ior` (IOR's flags, src/cli/ior.c) and by the io500
 * workload (ior-easy, ior-hard).
 *
 * Layout, as IOR's: each rank moves segments x blockSize bytes in transfers
 * of transferSize. With a file per process (-F) rank R's file is
 * "<path>.%08d" and segment s, transfer k is at s*blockSize + k*transferSize.
 * With one shared file, segment s of rank R is block s*N + R: the offset is
 * (s*N + R)*blockSize + k*transferSize, so that with blockSize = transferSize
 * (ior-hard: 47,008 bytes) the ranks' transfers interleave through the file.
 *
 * A phase (IOR -g, intraTestBarriers): barrier, open, barrier, the transfers,
 * barrier, fsync when asked (-e, write only), close; then every rank's status
 * is agreed. Every rank goes through every collective step whatever happens
 * to it, so a rank that fails cannot leave the others waiting. Figures: each
 * rank's interval runs from its open to its close: on one host on the clock
 * all ranks share (so a rank that leaves the barrier late counts, as in IOR),
 * across hosts on its own clock from the phase's first barrier; the phase's
 * bandwidth is all ranks' bytes over the latest close minus the earliest open
 * (IOR's "bw").
 *
 * Stonewall (-D S): a rank stops S seconds into its transfers; with wear-out
 * (-O stoneWallingWearOut=1, as IO500 runs the writes) the ranks agree on the
 * most transfers any rank made and every rank goes on to that count. A read
 * reads what its source rank wrote. Reorder (-C): rank R reads the data rank
 * (R + reorder) % N wrote, reorder being IOR's task offset (sb_ior_task_offset:
 * -Q nodes away, so with ranks placed by slot another host's data, and on one
 * host a rank's own, as IOR).
 *
 * Every transfer written starts with a 16-byte stamp, its writer's rank + 1 and
 * its offset (as IOR's data signature holds rank and offset), so that a read
 * with -R proves it read the block the layout says, written by the rank it says.
 */
#ifndef SB_WORKLOADS_IOR_H
#define SB_WORKLOADS_IOR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sb_ior_params {
    uint64_t transfer;  /* -t */
    uint64_t block;     /* -b: a multiple of transfer */
    uint64_t segments;  /* -s */
    bool file_per_proc; /* -F */
    bool fsync;         /* -e: fsync before close, inside the timing */
    int reorder;        /* -C: read rank (R + reorder) % N's data; 0 = its own */
    bool random;        /* -z: each rank's transfers of a block in a shuffled order */
    bool direct;        /* -B: O_DIRECT */
    bool check;         /* -R: every transfer read must carry its writer's stamp */
    double deadline;    /* -D seconds; 0 = none */
    bool wearout;       /* -O stoneWallingWearOut=1 */
    char path[PATH_MAX - 16]; /* -o: the test file (per process: path.%08d) */
} sb_ior_params;

/* One phase over all ranks (the same on every rank) and this rank's own part. */
typedef struct sb_ior_phase {
    uint64_t bytes;          /* all ranks */
    double elapsed_s;        /* latest close - earliest open */
    double bw;               /* bytes / elapsed_s, B/s */
    double open_s, close_s;  /* the longest open and close (fsync included) of a rank */
    double rank_bw_min, rank_bw_max;
    uint64_t pairs_min, pairs_max; /* transfers per rank */
    uint64_t wall_pairs_min, wall_pairs_max; /* transfers per rank at the wall */
    int ranks_walled;        /* ranks the deadline stopped before their work was done */
    double stonewall_s;      /* with a deadline: the longest time to the wall */
    uint64_t stonewall_bytes; /* all ranks' bytes at the wall */
    /* this rank: bytes, its interval on sb_now_ns() */
    uint64_t my_bytes, my_t0, my_t1;
} sb_ior_phase;

typedef struct sb_ior_state {
    sb_ior_params p;
    int rank, size;
    uint64_t *written;  /* transfers each rank wrote (size entries), after a write phase */
    bool created;       /* this run created its file (shared: rank 0), so removes it */
    char *buf;          /* one transfer */
} sb_ior_state;

/* Checks p on its own: 0, or -EINVAL with one line in err. */
int sb_ior_check(const sb_ior_params *p, char *err, size_t errlen);
/* Every rank: 0, or -errno with one line in err. */
int sb_ior_init(sb_ior_state *s, const sb_ior_params *p, char *err, size_t errlen);
void sb_ior_free(sb_ior_state *s);
/* The phases (every rank calls them). 0, or the agreed failure with the failing
 * rank's line ("rank R on HOST: ...") in err on every rank. */
int sb_ior_write(sb_ior_state *s, sb_ior_phase *ph, char *err, size_t errlen);
int sb_ior_read(sb_ior_state *s, sb_ior_phase *ph, char *err, size_t errlen);
/* Removes the files this run created (each rank its own; shared: rank 0 after a barrier). */
int sb_ior_remove(sb_ior_state *s, char *err, size_t errlen);
/* The file rank `owner` uses. */
/* IOR's rank offset for -C -Q q: q x the ranks on rank 0's host when the ranks are
 * placed by slot (rank 1 on rank 0's host; IOR_FAKE_TASK_PER_NODES, IOR's variable,
 * overrides that count), q otherwise; modulo the ranks. Every rank gets the same. */
int sb_ior_task_offset(int q);

void sb_ior_file(const sb_ior_state *s, int owner, char *buf, size_t len);

#endif
