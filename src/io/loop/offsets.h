/*
 * offsets — the block sequence of one worker. Sequential: 0, 1, 2, ...
 * Random with a random map: a seeded pseudo-random permutation of the
 * blocks, so every block is visited exactly once per pass and uniformly, with
 * O(1) memory instead of fio's bitmap: a keyed bijection of the smallest
 * power of two that covers the block count (offsets.c), with cycle walking to
 * stay inside [0, nblocks). Each pass uses new keys, so passes differ. Random without a map (norandommap): independent uniform
 * draws. fio's random_generator=lfsr: a maximal-length LFSR's cycle instead of the
 * permutation, which visits every block once per pass even without the map.
 */
#ifndef SB_IO_OFFSETS_H
#define SB_IO_OFFSETS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/rand.h"
#include "io/loop/distribution.h"

typedef struct sb_offgen {
    uint64_t nblocks;
    uint64_t nios;       /* blocks per pass: nblocks, fewer with a forward rw skip */
    int64_t step;        /* sequential: blocks from one I/O to the next (fio's rw=read:SKIP);
                          * 1 = contiguous, -1 = backwards */
    uint64_t zone_blocks, skip_blocks; /* fio's zonemode=strided: zonesize, zoneskip in blocks */
    sb_distgen *dist;    /* random_distribution other than random (distribution.h); NULL = uniform */
    bool random, map;
    uint64_t pos;        /* blocks handed out in this pass */
    uint64_t pass;       /* completed passes */
    uint64_t mask;       /* the domain: [0, mask] */
    unsigned shift;      /* half the domain's bits */
    uint64_t xkey, mul[3];
    sb_rand rng;
    /* fio's random_generator=lfsr: a maximal-length Galois LFSR over [1, 2^bits), state s
     * standing for block s - 1, states past the blocks skipped; a pass is one cycle, so
     * every block comes once per pass with or without the random map (offsets.c). */
    bool lfsr;
    uint64_t lfsr_taps, lfsr_state, lfsr_top;
} sb_offgen;

/* fio's rw=randread:N with rw_sequencer, and percentage_random: which of a random job's
 * I/Os take a new random block. The first and every nr-th after it do, with pct % odds; the
 * others take the block after the last (sequential; past the region's end: a random one,
 * or block 0 in a time-based job of one file, as fio's get_next_seq_offset) or the last one
 * again (identical). */
typedef struct sb_seqpos {     /* one file's positions (fio keeps them per file and direction) */
    uint64_t last[3];          /* each direction's last block, + 1; 0: none yet (block 0 comes first) */
    uint64_t start[3], end[3]; /* sizes drawn (varsize.c): its last I/O's bytes [start, end) (fio's
                                * last_start, last_pos); 0 before any, as fio starts at the region's start */
} sb_seqpos;

typedef struct sb_seqmix {
    unsigned nr, left;         /* rw's :N (1: every I/O), I/Os until the next random one (the
                                * thread's count, over all its files, as fio's ddir_seq_nr) */
    bool identical;            /* rw_sequencer=identical */
    bool wrap;                 /* time_based with one file: past the end the next goes to 0 */
    unsigned pct[3];           /* percentage_random, per direction (SB_DDIR_*) */
    sb_seqpos pos;             /* the file in use's (several files: files.c swaps them) */
    sb_rand rng;
} sb_seqmix;

/* What the next I/O of a direction takes (sb_seqmix_kind). */
enum { SB_SEQMIX_RANDOM, SB_SEQMIX_NEXT, SB_SEQMIX_SAME };

void sb_seqmix_init(sb_seqmix *m, unsigned nr, bool identical, bool wrap, const unsigned pct[3], uint64_t seed);
/* Counts one I/O of direction ddir and says where it goes: a random offset, the end of the
 * direction's last I/O (SB_SEQMIX_NEXT) or its start again (SB_SEQMIX_SAME), as fio's
 * get_next_offset and get_next_block choose. */
unsigned sb_seqmix_kind(sb_seqmix *m, unsigned ddir);
/* The block of the next I/O of direction ddir, given the random one the generator drew. */
uint64_t sb_seqmix_next(sb_seqmix *m, unsigned ddir, uint64_t random_b, uint64_t nblocks);

void sb_offgen_init(sb_offgen *g, uint64_t nblocks, bool random, bool norandommap, uint64_t seed);
/* New keys at the start of a pass (offsets.c). */
void sb_offgen_new_pass(sb_offgen *g);
/* fio's rw=read:SKIP (offsets.c): a sequential job's blocks step blocks apart; forward, the
 * pass ends at the region's end (fewer blocks: holes); backward, it wraps from block 0 to
 * the last, so every block is visited once. */
void sb_offgen_set_step(sb_offgen *g, int64_t step);
/* fio's zonemode=strided for a sequential job: zone blocks, then skip blocks left out, and
 * so on to the region's end, which ends the pass. */
void sb_offgen_set_zones(sb_offgen *g, uint64_t zone, uint64_t skip);
uint64_t sb_offgen_stepped(const sb_offgen *g);
/* fio's random_generator=lfsr for a random job (see the fields). */
void sb_offgen_set_lfsr(sb_offgen *g);
uint64_t sb_offgen_lfsr_next(sb_offgen *g);
/* The taps of a bits-wide maximal-length LFSR (2 .. 64; else 0), for tests. */
uint64_t sb_offgen_lfsr_taps(unsigned bits);

/* The permutation of [0, mask]: three rounds of multiply-by-odd-key, mask, xor the
 * high half down (offsets.c says why it is one and why it is enough). Inline: it is
 * on every I/O's path. */
static inline uint64_t sb_offgen_mix(const sb_offgen *g, uint64_t x)
{
    const uint64_t m = g->mask;
    const unsigned s = g->shift;
    x ^= g->xkey;
    x = (x * g->mul[0]) & m;
    x ^= x >> s;
    x = (x * g->mul[1]) & m;
    x ^= x >> s;
    x = (x * g->mul[2]) & m;
    return x ^ (x >> s);
}

/* The permutation itself: a bijection on [0, nblocks), by cycle walking (the
 * domain is under twice nblocks, so under two steps on average). */
static inline uint64_t sb_offgen_permute(const sb_offgen *g, uint64_t x)
{
    do
        x = sb_offgen_mix(g, x);
    while (x >= g->nblocks);
    return x;
}

/* The next block index; *pass_done is set when that block was the last of a pass
 * (the generator then starts the next pass). */
static inline uint64_t sb_offgen_next(sb_offgen *g, bool *pass_done)
{
    uint64_t b;
    if (!g->random)
        b = __builtin_expect(g->step == 1, 1) ? g->pos : sb_offgen_stepped(g);
    else if (__builtin_expect(g->dist != NULL, 0))
        b = sb_distgen_next(g->dist, &g->rng);
    else if (__builtin_expect(g->lfsr, 0))
        b = sb_offgen_lfsr_next(g);
    else if (g->map)
        b = sb_offgen_permute(g, g->pos);
    else
        b = sb_rand_below(&g->rng, g->nblocks);
    *pass_done = ++g->pos >= g->nios;
    if (__builtin_expect(*pass_done, 0))
        sb_offgen_new_pass(g);
    return b;
}

#endif
