/*
 * rand — a small, fast, seedable PRNG (xoshiro256**, seeded through
 * splitmix64). Every workload that makes random choices takes a seed so that
 * two runs with the same seed do the same operations.
 */
#ifndef SB_RAND_H
#define SB_RAND_H

#include <stddef.h>
#include <stdint.h>

typedef struct sb_rand { uint64_t s[4]; } sb_rand;

void sb_rand_seed(sb_rand *r, uint64_t seed);
uint64_t sb_rand_next(sb_rand *r);
/* Uniform in [0, bound) without modulo bias; bound > 0. */
uint64_t sb_rand_below(sb_rand *r, uint64_t bound);
/* Uniform in [0, 1). */
double sb_rand_double(sb_rand *r);
/* Fill a buffer with pseudo-random bytes (incompressible data). */
void sb_rand_fill(sb_rand *r, void *buf, size_t len);

#endif
