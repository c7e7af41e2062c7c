/*
 * offsets — see offsets.h. The permutation of [0, 2^bits) is three rounds of
 * "multiply by an odd key, keep the low bits, xor the high half onto the low
 * half": each step is a bijection of bits-wide integers (an odd multiplier
 * is invertible modulo 2^bits, x ^= x >> s is invertible for s >= 1), so the
 * composition is one, and the xor-shifts carry the high bits, which the
 * multiplications spread upwards, back down. It is murmur3's finaliser cut
 * to the domain's width (offsets.h, inline), ~20 instructions per block where the 4-round
 * Feistel network it replaced took ~130 (callgrind; issue 16): consecutive
 * outputs are as far apart as independent draws (mean distance n/3,
 * neighbours within 16 blocks and parity agreement at chance, checked over
 * full passes of 1,000 to 100,003 blocks), which is all a benchmark needs —
 * uniform coverage and no pattern a device or read-ahead could exploit.
 */
#include "io/loop/offsets.h"

static void new_keys(sb_offgen *g)
{
    g->xkey = sb_rand_next(&g->rng) & g->mask;
    for (int i = 0; i < 3; i++)
        g->mul[i] = sb_rand_next(&g->rng) | 1;
}

void sb_offgen_init(sb_offgen *g, uint64_t nblocks, bool random, bool norandommap, uint64_t seed)
{
    g->nblocks = nblocks ? nblocks : 1;
    g->random = random;
    g->map = random && !norandommap;
    g->nios = g->nblocks;
    g->step = 1;
    g->zone_blocks = g->skip_blocks = 0;
    g->dist = NULL;
    g->lfsr = false; /* sb_offgen_set_lfsr turns it on */
    g->pos = 0;
    g->pass = 0;
    unsigned bits = 0;
    while (bits < 64 && (g->nblocks - 1) >> bits)
        bits++;
    g->mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    g->shift = bits > 1 ? (bits + 1) / 2 : 1;
    sb_rand_seed(&g->rng, seed);
    new_keys(g);
}

void sb_seqmix_init(sb_seqmix *m, unsigned nr, bool identical, bool wrap, const unsigned pct[3], uint64_t seed)
{
    m->nr = nr ? nr : 1;
    m->left = 1; /* the first I/O is a random one, as fio's */
    m->identical = identical;
    m->wrap = wrap;
    for (int d = 0; d < 3; d++)
        m->pct[d] = pct[d];
    m->pos = (sb_seqpos){0};
    sb_rand_seed(&m->rng, seed ^ 0x5e9u);
}

unsigned sb_seqmix_kind(sb_seqmix *m, unsigned ddir)
{
    bool hit = !--m->left;
    if (hit)
        m->left = m->nr;
    const unsigned pct = m->pct[ddir];
    if (hit && (pct >= 100 || sb_rand_below(&m->rng, 100) < pct))
        return SB_SEQMIX_RANDOM;
    /* a pick that percentage_random made sequential is so even with identical (fio's) */
    return hit || !m->identical ? SB_SEQMIX_NEXT : SB_SEQMIX_SAME;
}

uint64_t sb_seqmix_next(sb_seqmix *m, unsigned ddir, uint64_t random_b, uint64_t nblocks)
{
    unsigned kind = sb_seqmix_kind(m, ddir);
    uint64_t b, *last = &m->pos.last[ddir];
    if (kind == SB_SEQMIX_RANDOM)
        b = random_b;
    else if (kind == SB_SEQMIX_NEXT) /* the next block; past the end a random one, or 0 */
        b = *last < nblocks ? *last : m->wrap ? 0 : random_b;
    else                             /* identical: the last block again (block 0 first) */
        b = *last ? *last - 1 : 0;
    *last = b + 1;
    return b;
}

void sb_offgen_new_pass(sb_offgen *g)
{
    g->pos = 0;
    g->pass++;
    if (g->map)
        new_keys(g);
}

void sb_offgen_set_step(sb_offgen *g, int64_t step)
{
    g->step = step ? step : 1;
    g->nios = step > 1 ? (g->nblocks + (uint64_t)step - 1) / (uint64_t)step : g->nblocks;
}

void sb_offgen_set_zones(sb_offgen *g, uint64_t zone, uint64_t skip)
{
    if (!zone)
        return;
    uint64_t period = zone + skip, rem = g->nblocks % period;
    g->zone_blocks = zone;
    g->skip_blocks = skip;
    g->step = 0; /* not 1: the stepped path */
    g->nios = g->nblocks / period * zone + (rem < zone ? rem : zone);
}

uint64_t sb_offgen_stepped(const sb_offgen *g)
{
    if (g->zone_blocks)
        return g->pos / g->zone_blocks * (g->zone_blocks + g->skip_blocks) + g->pos % g->zone_blocks;
    if (g->step > 0)
        return g->pos * (uint64_t)g->step;
    /* backwards: 0, then from the end down; each block once per pass */
    uint64_t back = (g->pos * (uint64_t)-g->step) % g->nblocks;
    return back ? g->nblocks - back : 0;
}

/* Maximal-length LFSR taps for 2 .. 64 bits (the widely published table of Xilinx's
 * XAPP052, positions counted from 1): bit t - 1 is set for each tap t. The Galois form
 * below steps through all 2^bits - 1 nonzero states (tests/unit/test_offsets.c checks
 * every width up to 20 exhaustively). */
#define T(a) (1ull << ((a) - 1))
static const uint64_t lfsr_taps[65] = {
    [2] = T(2) | T(1), [3] = T(3) | T(2), [4] = T(4) | T(3), [5] = T(5) | T(3),
    [6] = T(6) | T(5), [7] = T(7) | T(6), [8] = T(8) | T(6) | T(5) | T(4),
    [9] = T(9) | T(5), [10] = T(10) | T(7), [11] = T(11) | T(9),
    [12] = T(12) | T(6) | T(4) | T(1), [13] = T(13) | T(4) | T(3) | T(1),
    [14] = T(14) | T(5) | T(3) | T(1), [15] = T(15) | T(14), [16] = T(16) | T(15) | T(13) | T(4),
    [17] = T(17) | T(14), [18] = T(18) | T(11), [19] = T(19) | T(6) | T(2) | T(1),
    [20] = T(20) | T(17), [21] = T(21) | T(19), [22] = T(22) | T(21), [23] = T(23) | T(18),
    [24] = T(24) | T(23) | T(22) | T(17), [25] = T(25) | T(22), [26] = T(26) | T(6) | T(2) | T(1),
    [27] = T(27) | T(5) | T(2) | T(1), [28] = T(28) | T(25), [29] = T(29) | T(27),
    [30] = T(30) | T(6) | T(4) | T(1), [31] = T(31) | T(28), [32] = T(32) | T(22) | T(2) | T(1),
    [33] = T(33) | T(20), [34] = T(34) | T(27) | T(2) | T(1), [35] = T(35) | T(33),
    [36] = T(36) | T(25), [37] = T(37) | T(5) | T(4) | T(3) | T(2) | T(1),
    [38] = T(38) | T(6) | T(5) | T(1), [39] = T(39) | T(35), [40] = T(40) | T(38) | T(21) | T(19),
    [41] = T(41) | T(38), [42] = T(42) | T(41) | T(20) | T(19), [43] = T(43) | T(42) | T(38) | T(37),
    [44] = T(44) | T(43) | T(18) | T(17), [45] = T(45) | T(44) | T(42) | T(41),
    [46] = T(46) | T(45) | T(26) | T(25), [47] = T(47) | T(42), [48] = T(48) | T(47) | T(21) | T(20),
    [49] = T(49) | T(40), [50] = T(50) | T(49) | T(24) | T(23), [51] = T(51) | T(50) | T(36) | T(35),
    [52] = T(52) | T(49), [53] = T(53) | T(52) | T(38) | T(37), [54] = T(54) | T(53) | T(18) | T(17),
    [55] = T(55) | T(31), [56] = T(56) | T(55) | T(35) | T(34), [57] = T(57) | T(50),
    [58] = T(58) | T(39), [59] = T(59) | T(58) | T(38) | T(37), [60] = T(60) | T(59),
    [61] = T(61) | T(60) | T(46) | T(45), [62] = T(62) | T(61) | T(6) | T(5), [63] = T(63) | T(62),
    [64] = T(64) | T(63) | T(61) | T(60),
};
#undef T

uint64_t sb_offgen_lfsr_taps(unsigned bits)
{
    return bits >= 2 && bits <= 64 ? lfsr_taps[bits] : 0;
}

void sb_offgen_set_lfsr(sb_offgen *g)
{
    if (!g->random)
        return;
    /* the smallest width whose 2^bits - 1 states cover the blocks */
    unsigned bits = 2;
    while (bits < 64 && ((1ull << bits) - 1) < g->nblocks)
        bits++;
    g->lfsr = true;
    g->lfsr_taps = lfsr_taps[bits];
    g->lfsr_top = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    g->lfsr_state = sb_rand_next(&g->rng) % g->lfsr_top + 1; /* any nonzero state: a start */
}

uint64_t sb_offgen_lfsr_next(sb_offgen *g)
{
    uint64_t s = g->lfsr_state;
    do
        s = (s >> 1) ^ (-(s & 1) & g->lfsr_taps);
    while (s - 1 >= g->nblocks);
    g->lfsr_state = s;
    return s - 1;
}
