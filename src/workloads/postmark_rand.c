/*
 * postmark_rand — see postmark_rand.h. MT19937 written from its published
 * description (period 2^19937 - 1, n = 624, m = 397, twist matrix
 * 0x9908b0df, tempering masks 0x9d2c5680 / 0xefc60000 with shifts 11, 7,
 * 15, 18); the seeding is the early one PostMark carries.
 */
#include "workloads/postmark_rand.h"

#define MT_M 397

void sb_pm_rand_seed(sb_pm_rand *r, uint32_t seed)
{
    /* Each state word takes the high halves of two successive LCG values. */
    for (int i = 0; i < SB_PM_MT_N; i++) {
        uint32_t hi = seed & 0xffff0000u;
        seed = 69069u * seed + 1u;
        r->mt[i] = hi | ((seed & 0xffff0000u) >> 16);
        seed = 69069u * seed + 1u;
    }
    r->next = SB_PM_MT_N;
}

static uint32_t twist(uint32_t upper, uint32_t lower, uint32_t far)
{
    uint32_t y = (upper & 0x80000000u) | (lower & 0x7fffffffu);
    return far ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
}

uint32_t sb_pm_rand_next(sb_pm_rand *r)
{
    if (r->next >= SB_PM_MT_N) {
        uint32_t *mt = r->mt;
        for (int k = 0; k < SB_PM_MT_N; k++)
            mt[k] = twist(mt[k], mt[(k + 1) % SB_PM_MT_N], mt[(k + MT_M) % SB_PM_MT_N]);
        r->next = 0;
    }
    uint32_t y = r->mt[r->next++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

uint32_t sb_pm_rnd(sb_pm_rand *r, uint32_t x)
{
    return x > 0 ? sb_pm_rand_next(r) % x : 0;
}
