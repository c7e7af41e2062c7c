/*
 * offsets — see offsets.h. The round function is a 64-bit mixer (the
 * splitmix64 finaliser) of the right half and the round key; any good mixer
 * makes the network a pseudo-random permutation, which is all a benchmark
 * needs (uniform coverage, no detectable pattern for the device).
 */
#include "io/offsets.h"

static inline uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void new_keys(sb_offgen *g)
{
    for (int i = 0; i < 4; i++)
        g->keys[i] = sb_rand_next(&g->rng);
}

void sb_offgen_init(sb_offgen *g, uint64_t nblocks, bool random, bool norandommap, uint64_t seed)
{
    g->nblocks = nblocks ? nblocks : 1;
    g->random = random;
    g->map = random && !norandommap;
    g->pos = 0;
    g->pass = 0;
    unsigned bits = 0;
    while (bits < 64 && (g->nblocks - 1) >> bits)
        bits++;
    if (bits < 2)
        bits = 2;
    g->half_bits = (bits + 1) / 2;
    g->half_mask = (1ull << g->half_bits) - 1;
    sb_rand_seed(&g->rng, seed);
    new_keys(g);
}

static inline uint64_t feistel(const sb_offgen *g, uint64_t x)
{
    uint64_t l = x >> g->half_bits, r = x & g->half_mask;
    for (int i = 0; i < 4; i++) {
        uint64_t t = r;
        r = l ^ (mix64(r ^ g->keys[i]) & g->half_mask);
        l = t;
    }
    return (l << g->half_bits) | r;
}

uint64_t sb_offgen_permute(const sb_offgen *g, uint64_t x)
{
    /* The domain has at most 4x nblocks values, so this walks ~4 steps at worst on average. */
    do
        x = feistel(g, x);
    while (x >= g->nblocks);
    return x;
}

uint64_t sb_offgen_next(sb_offgen *g, bool *pass_done)
{
    uint64_t b;
    if (!g->random)
        b = g->pos;
    else if (g->map)
        b = sb_offgen_permute(g, g->pos);
    else
        b = sb_rand_below(&g->rng, g->nblocks);
    if (++g->pos >= g->nblocks) {
        g->pos = 0;
        g->pass++;
        if (g->map)
            new_keys(g);
        *pass_done = true;
    } else {
        *pass_done = false;
    }
    return b;
}
