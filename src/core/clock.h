/*
 * clock — a cheap monotonic clock for timing. One vDSO call, no syscall on
 * Linux, so it may be used on the hot I/O path. And the one short sleep used
 * while polling for the kernel to finish something (a device to appear).
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

/* Sleeps ms milliseconds (less when a signal arrives: callers poll and check again). */
static inline void sb_sleep_ms(unsigned ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

#endif
