/*
 * postmark_rand — the random number stream PostMark 1.5x draws every choice
 * from: MT19937 (Matsumoto & Nishimura) seeded the way PostMark seeds it
 * (the 1999 `sgenrand`, a 69069 linear congruential fill of the state), and
 * PostMark's RND(x) = next % x. With it storbench's postmark makes the same
 * file sizes, picks and data bytes as PostMark with the same seed. Kept apart
 * from core/rand (xoshiro) because only this test must reproduce another
 * program's stream.
 */
#ifndef SB_POSTMARK_RAND_H
#define SB_POSTMARK_RAND_H

#include <stdint.h>

#define SB_PM_MT_N 624

typedef struct sb_pm_rand {
    uint32_t mt[SB_PM_MT_N];
    int next; /* index of the next word; SB_PM_MT_N = regenerate */
} sb_pm_rand;

void sb_pm_rand_seed(sb_pm_rand *r, uint32_t seed);
uint32_t sb_pm_rand_next(sb_pm_rand *r);
/* PostMark's RND(x): next % x, or 0 when x is 0. */
uint32_t sb_pm_rnd(sb_pm_rand *r, uint32_t x);

#endif
