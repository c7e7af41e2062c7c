/*
 * sprandom — fio's SPRandom SSD preconditioning (sprandom=1, spr_op, spr_num_regions;
 * fio 3.41, fio's sprandom.c and HOWTO; fio 3.33 has none of it). A random-write job
 * writes the device's physical capacity, size x (1 + spr_op) rounded down to blocks, once,
 * cut into spr_num_regions regions of equal size written one after the other. The model
 * (Desnoyers' steady state of a greedy-GC SSD, as fio's comments give it): write
 * amplification WA = 0.5 / op + 0.7, the validity of the block GC picks v_gc = 1 - 1 / WA;
 * regions with validity v occupy space proportional to 1 / v, so the validities
 * 1 .. v_gc spaced evenly, placed at the running sum of 1 / v and resampled at evenly
 * spaced points (equal-sized regions), give each region its validity, lowest first. Each
 * block written in region r is remembered with probability 1 - validity(r), and the
 * remembered blocks are written again at the start of region r + 1 (and may be remembered
 * again there), which leaves region r with its share of invalid blocks; the rest of a
 * region is fresh blocks from the job's full-period LFSR (offsets.h). The job ends when
 * the last region is written or every block has had its fresh write.
 */
#ifndef SB_IO_SPRANDOM_H
#define SB_IO_SPRANDOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/rand.h"
#include "io/loop/offsets.h"

typedef struct sb_spr {
    unsigned regions, region;  /* the count, and the one being written (0-based) */
    uint64_t nblocks;          /* the logical blocks */
    uint64_t region_writes;    /* writes per region: the physical blocks / regions */
    uint64_t remaining;        /* fresh writes left in this region */
    uint64_t fresh;            /* fresh blocks handed out (at most nblocks) */
    double *invalid;           /* [regions]: the share of each region to write again */
    uint64_t *replay, *save;   /* [region_writes]: blocks to write again now / next region */
    uint64_t n_replay, pos_replay, n_save;
    uint64_t writes;           /* every write handed out */
    sb_rand rng;
} sb_spr;

/* The model for nblocks logical blocks. 0, or -EINVAL / -ENOMEM with one line in err. */
int sb_spr_init(sb_spr *s, uint64_t nblocks, double op, unsigned regions, uint64_t seed,
                char *err, size_t errlen);
/* The next block to write (fresh ones from g's LFSR); false when preconditioning is done. */
bool sb_spr_next(sb_spr *s, sb_offgen *g, uint64_t *block);
/* The validity of each region (1 - invalid), into out[regions], for tests and reports. */
void sb_spr_validity(const sb_spr *s, double *out);
void sb_spr_free(sb_spr *s);

#endif
