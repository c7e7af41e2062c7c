/*
 * offsets — the block sequence of one worker. Sequential: 0, 1, 2, ...
 * Random with a random map: a seeded pseudo-random permutation of the
 * blocks, so every block is visited exactly once per pass and uniformly, with
 * O(1) memory instead of fio's bitmap: a 4-round Feistel network on the
 * smallest even number of bits that covers the block count, with cycle
 * walking to stay inside [0, nblocks). Each pass uses new round keys, so
 * passes differ. Random without a map (norandommap): independent uniform
 * draws.
 */
#ifndef SB_IO_OFFSETS_H
#define SB_IO_OFFSETS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/rand.h"

typedef struct sb_offgen {
    uint64_t nblocks;
    bool random, map;
    uint64_t pos;        /* blocks handed out in this pass */
    uint64_t pass;       /* completed passes */
    unsigned half_bits;
    uint64_t half_mask;
    uint64_t keys[4];
    sb_rand rng;
} sb_offgen;

void sb_offgen_init(sb_offgen *g, uint64_t nblocks, bool random, bool norandommap, uint64_t seed);
/* The next block index; *pass_done is set when that block was the last of a pass
 * (the generator then starts the next pass). */
uint64_t sb_offgen_next(sb_offgen *g, bool *pass_done);
/* The Feistel permutation itself (for tests): a bijection on [0, nblocks). */
uint64_t sb_offgen_permute(const sb_offgen *g, uint64_t x);

#endif
