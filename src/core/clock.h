/*
 * clock — a cheap monotonic clock for timing. One vDSO call, no syscall on
 * Linux, so it may be used on the hot I/O path.
 */
#ifndef SB_CLOCK_H
#define SB_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t sb_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline double sb_now_s(void) { return (double)sb_now_ns() / 1e9; }

#endif
