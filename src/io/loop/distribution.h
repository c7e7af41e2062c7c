/*
 * distribution — fio's random_distribution for random offsets: zipf:THETA,
 * pareto:H, normal:DEV (% of the region), zoned:PCT/SIZE%:... and
 * zoned_abs:PCT/SIZE:... (uniform is the offsets' own permutation, offsets.h).
 * A draw is independent of the draws before it (no random map: a skewed
 * distribution visits its hot blocks many times per pass, as fio's does).
 *
 * zipf and pareto rank the blocks by popularity and normal centres its bell on
 * the middle rank; the ranks are then spread over the region by a fixed
 * bijection (x * P + K mod n, P prime to n), so the hot blocks are scattered
 * through the file as fio's hashing of the rank scatters them, instead of
 * sitting together at its start. zoned: a zone is chosen by its share of the
 * accesses, then a block uniformly within it.
 *
 * zipf by rejection-inversion (Hörmann and Derflinger, "Rejection-inversion to
 * generate variates from monotone discrete distributions", 1996): O(1) per draw
 * and no table, whatever the number of blocks.
 */
#ifndef SB_IO_DISTRIBUTION_H
#define SB_IO_DISTRIBUTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/rand.h"

typedef enum sb_dist_kind {
    SB_DIST_RANDOM = 0, /* uniform: the offsets' permutation or independent draws */
    SB_DIST_ZIPF,
    SB_DIST_PARETO,
    SB_DIST_NORMAL,
    SB_DIST_ZONED,      /* zone sizes in % of the region */
    SB_DIST_ZONED_ABS,  /* zone sizes in bytes */
    SB_DIST_SEQUENCE,   /* fio's sequence:2,0,1: these blocks in turn, over and over */
} sb_dist_kind;

#define SB_DIST_MAX_ZONES 16
#define SB_DIST_MAX_SEQ 64      /* fio's limit of sequence elements */

/* What the option says (part of the job). */
typedef struct sb_io_dist {
    sb_dist_kind kind;
    double param;                         /* zipf theta, pareto h, normal deviation % */
    unsigned nzones;
    double zone_pct[SB_DIST_MAX_ZONES];   /* share of the accesses, % */
    double zone_size[SB_DIST_MAX_ZONES];  /* % of the region, or bytes (zoned_abs) */
    /* sequence: the block indices in turn; stride (fio's random_sequence_stride, an option
     * of its own that random_distribution leaves as it was): each cycle after the first
     * moves them nseq blocks on, back to the start at the region's end */
    unsigned nseq;
    uint32_t seq[SB_DIST_MAX_SEQ];
    bool seq_stride;
} sb_io_dist;

/* One worker's generator over nblocks blocks of bs bytes. */
typedef struct sb_distgen {
    sb_dist_kind kind;
    uint64_t n;
    uint64_t mul, add;                    /* the rank -> block bijection */
    double q;                             /* zipf: the exponent; pareto: the power */
    double hx1, hn, s;                    /* zipf: rejection-inversion constants */
    double sigma;                         /* normal: the deviation in blocks */
    unsigned nzones;
    double zone_cum[SB_DIST_MAX_ZONES];   /* cumulative share, 0 .. 1 */
    uint64_t zone_start[SB_DIST_MAX_ZONES + 1];
    const sb_io_dist *spec;               /* sequence: its list */
    uint64_t draws;                       /* sequence: draws so far */
} sb_distgen;

/* "zipf:1.2" ... into d: 0, or -EINVAL with the reason in err (without the option's
 * name). zoned_abs's sizes are read by kb_base's rules (core/units.h). */
int sb_dist_parse(const char *v, unsigned kb_base, sb_io_dist *d, char *err, size_t errlen);
/* The option's text again ("zipf:1.2"), for listings. */
void sb_dist_name(const sb_io_dist *d, char *out, size_t len);

void sb_distgen_init(sb_distgen *g, const sb_io_dist *d, uint64_t nblocks, uint64_t bs, uint64_t seed);
/* The next block, in [0, nblocks). */
uint64_t sb_distgen_next(sb_distgen *g, sb_rand *rng);

#endif
