/*
 * varmap — see varmap.h. l0 holds a bit per block, l1 a bit per l0 word that is full;
 * the search for a free block looks at the rest of b's word, then walks l1 for a word
 * with room, so a nearly full map costs a bit per 64 blocks to search.
 */
#include "io/loop/varmap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint64_t words(uint64_t bits) { return (bits + 63) / 64; }

int sb_varmap_init(sb_varmap *m, uint64_t nblocks)
{
    memset(m, 0, sizeof *m);
    if (!nblocks || nblocks > SB_VARMAP_MAX_BLOCKS)
        return 0;
    m->l0 = calloc(words(nblocks), sizeof *m->l0);
    m->l1 = calloc(words(words(nblocks)), sizeof *m->l1);
    if (!m->l0 || !m->l1) {
        sb_varmap_free(m);
        return -ENOMEM;
    }
    m->nblocks = m->nfree = nblocks;
    return 0;
}

void sb_varmap_free(sb_varmap *m)
{
    free(m->l0);
    free(m->l1);
    memset(m, 0, sizeof *m);
}

void sb_varmap_reset(sb_varmap *m)
{
    if (!m->nblocks)
        return;
    memset(m->l0, 0, words(m->nblocks) * sizeof *m->l0);
    memset(m->l1, 0, words(words(m->nblocks)) * sizeof *m->l1);
    m->nfree = m->nblocks;
}

/* The first free block in [from, nblocks), or UINT64_MAX. */
static uint64_t first_free(const sb_varmap *m, uint64_t from)
{
    const uint64_t nw = words(m->nblocks);
    uint64_t w = from / 64;
    if (w >= nw)
        return UINT64_MAX;
    uint64_t free_bits = ~m->l0[w] & (~0ull << (from % 64));
    while (!free_bits) {
        /* the next l0 word with room, by l1 */
        uint64_t i = ++w;
        for (;;) {
            if (i >= nw)
                return UINT64_MAX;
            uint64_t room = ~m->l1[i / 64] & (~0ull << (i % 64));
            if (room) {
                i = i / 64 * 64 + (uint64_t)__builtin_ctzll(room);
                break;
            }
            i = (i / 64 + 1) * 64;
        }
        if (i >= nw)
            return UINT64_MAX;
        w = i;
        free_bits = ~m->l0[w];
    }
    uint64_t b = w * 64 + (uint64_t)__builtin_ctzll(free_bits);
    return b < m->nblocks ? b : UINT64_MAX;
}

uint64_t sb_varmap_free_from(const sb_varmap *m, uint64_t b)
{
    if (!m->nfree)
        return UINT64_MAX;
    uint64_t f = first_free(m, b < m->nblocks ? b : 0);
    return f != UINT64_MAX ? f : first_free(m, 0);
}

uint64_t sb_varmap_take(sb_varmap *m, uint64_t b, uint64_t n)
{
    uint64_t k = 0;
    for (; k < n && b + k < m->nblocks; k++) {
        uint64_t i = b + k, w = i / 64, bit = 1ull << (i % 64);
        if (m->l0[w] & bit)
            break;
        m->l0[w] |= bit;
        /* the last word is full at the map's last block */
        uint64_t full = w == (m->nblocks - 1) / 64 ? ~0ull >> (63 - (m->nblocks - 1) % 64) : ~0ull;
        if (m->l0[w] == full)
            m->l1[w / 64] |= 1ull << (w % 64);
    }
    m->nfree -= k;
    return k;
}
