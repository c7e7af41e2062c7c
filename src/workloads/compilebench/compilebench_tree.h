/*
 * compilebench_tree — the synthetic kernel-like source tree Compile Bench
 * copies, generated from a fixed seed instead of downloaded. The generator
 * reproduces the statistics of compilebench 0.6's kernel-2.6.20 data set
 * (docs/workloads.md, compilebench): directory and file counts, total bytes and the size
 * percentiles, and marks the .c files that the compile phase turns into
 * objects (3,263 objects, 680.6 MiB in all).
 *
 * Sizes come from the quantile function through the published percentiles,
 * interpolated geometrically with one shape exponent chosen so that the
 * total comes out right; each file takes the size at the midpoint of its
 * own 1/N slice of probability, and sizes are shuffled over the files. So
 * the percentiles hold exactly and the total to the byte.
 *
 * Order: directories depth-first (pre-order), files grouped by directory in
 * that order — the order in which compilebench writes its trees.
 */
#ifndef SB_COMPILEBENCH_TREE_H
#define SB_COMPILEBENCH_TREE_H

#include <stddef.h>
#include <stdint.h>

#define SB_CB_SEED 555
#define SB_CB_DIRS 1263
#define SB_CB_FILES 21280
#define SB_CB_BYTES 233176153ull
#define SB_CB_OBJECTS 3263
#define SB_CB_OBJECT_BYTES 713660826ull /* 680.6 MiB */

typedef struct sb_cb_file {
    uint32_t dir;       /* index into dirs */
    uint32_t size;      /* bytes of the source file */
    uint32_t obj_size;  /* bytes of its object file; 0 when the compile phase skips it */
    char name[24];      /* "sched17.c" */
} sb_cb_file;

typedef struct sb_cb_tree {
    size_t n_dirs;
    char **dirs;        /* relative paths in depth-first pre-order; dirs[0] = "" (the root) */
    size_t n_files;
    sb_cb_file *files;  /* grouped by directory, in the order of dirs */
    uint64_t total_bytes;
    size_t n_objects;
    uint64_t object_bytes;
} sb_cb_tree;

/* Generates the tree. scale_pct in 1..100 keeps that share of the files (every
 * directory is kept). 0 or -ENOMEM. */
int sb_cb_tree_generate(sb_cb_tree *t, uint64_t seed, unsigned scale_pct);
void sb_cb_tree_free(sb_cb_tree *t);
/* Size at percentile p (0..100) of the tree's source files: the value at index
 * floor(p/100 * (n-1)) of the sorted sizes. */
uint64_t sb_cb_tree_percentile(const sb_cb_tree *t, double p);

#endif
