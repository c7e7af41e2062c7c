/*
 * varmap — fio's random map for a random job of sizes drawn (bsrange, bssplit): a bit per
 * block of the smallest size, set when a random I/O takes it. fio moves a random offset
 * that falls on a taken block to the next free one (its axmap_next_free, wrapping at the
 * end) and trims the I/O to the free blocks from there (mark_random_map), so a pass writes
 * each block once and its I/Os get shorter as the map fills. A job of one size needs none
 * (offsets.h's permutation visits each block once); sizes drawn do. Two levels, so that
 * finding a free block in a nearly full map reads a bit per 64 blocks, not every block.
 */
#ifndef SB_IO_VARMAP_H
#define SB_IO_VARMAP_H

#include <stdint.h>

typedef struct sb_varmap {
    uint64_t nblocks, nfree;   /* nblocks 0: no map (off, or not made) */
    uint64_t *l0;              /* a bit per block: taken in this pass */
    uint64_t *l1;              /* a bit per l0 word: that word full */
} sb_varmap;

/* The largest map made (32 MiB of bits); a region of more blocks draws without one. */
#define SB_VARMAP_MAX_BLOCKS (1ull << 28)

/* A map of nblocks, all free. 0, or -ENOMEM (m then has no map). */
int sb_varmap_init(sb_varmap *m, uint64_t nblocks);
void sb_varmap_free(sb_varmap *m);
/* Every block free again (a new pass). */
void sb_varmap_reset(sb_varmap *m);
/* b when it is free, else the first free block after it, wrapping to block 0;
 * UINT64_MAX when none is free. */
uint64_t sb_varmap_free_from(const sb_varmap *m, uint64_t b);
/* Takes up to n blocks from b (which is free) on, stopping at the first taken one or the
 * map's end: how many it took. */
uint64_t sb_varmap_take(sb_varmap *m, uint64_t b, uint64_t n);

#endif
