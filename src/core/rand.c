/*
 * rand — xoshiro256** (Blackman & Vigna, public domain algorithm), seeded
 * with splitmix64 so that any 64-bit seed, including 0, gives a good state.
 */
#include "core/rand.h"

#include <string.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void sb_rand_seed(sb_rand *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t sb_rand_next(sb_rand *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t sb_rand_below(sb_rand *r, uint64_t bound)
{
    /* Lemire's multiply-shift with rejection: unbiased, one division at most. */
    __uint128_t m = (__uint128_t)sb_rand_next(r) * bound;
    uint64_t low = (uint64_t)m;
    if (low < bound) {
        uint64_t threshold = -bound % bound;
        while (low < threshold) {
            m = (__uint128_t)sb_rand_next(r) * bound;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

double sb_rand_double(sb_rand *r) { return (double)(sb_rand_next(r) >> 11) * 0x1.0p-53; }

void sb_rand_fill(sb_rand *r, void *buf, size_t len)
{
    unsigned char *p = buf;
    while (len >= 8) {
        uint64_t v = sb_rand_next(r);
        memcpy(p, &v, 8);
        p += 8;
        len -= 8;
    }
    if (len) {
        uint64_t v = sb_rand_next(r);
        memcpy(p, &v, len);
    }
}
