/*
 * clock — see clock.h. The TSC's rate is measured once per process, as fio's
 * calibration does at start: here one window of about 20 ms between two readings of
 * CLOCK_MONOTONIC, each taken between two counter reads close together (the closest
 * pair of a few tries, so a preemption between the reads does not skew the end of the
 * window). The rate is kept as nanoseconds per tick times 2^32, so a reading is one
 * 64x64 multiply and a shift.
 */
#include "core/clock.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

typedef struct tsc_rate {
    pthread_once_t once;
    double ticks_per_ns;       /* 0: no counter, or it did not advance */
} tsc_rate;

static tsc_rate rate = {PTHREAD_ONCE_INIT, 0};

/* A counter value and CLOCK_MONOTONIC at the same moment: the time between the two
 * counter reads of the closest of five tries. */
static void tsc_pair(uint64_t *tsc, uint64_t *ns)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 5; i++) {
        uint64_t a = sb_rdtsc(), t = sb_now_ns(), b = sb_rdtsc();
        if (b - a < best) {
            best = b - a;
            *tsc = a + (b - a) / 2;
            *ns = t;
        }
    }
}

static void calibrate(void)
{
    uint64_t c0, n0, c1, n1;
    tsc_pair(&c0, &n0);
    do
        tsc_pair(&c1, &n1);
    while (n1 - n0 < 20000000u);
    rate.ticks_per_ns = c1 > c0 ? (double)(c1 - c0) / (double)(n1 - n0) : 0;
}

double sb_clock_tsc_mhz(void)
{
#if defined(__x86_64__) || defined(__i386__)
    pthread_once(&rate.once, calibrate);
    return rate.ticks_per_ns * 1000;
#else
    return 0;
#endif
}

bool sb_clock_tsc_invariant(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(d & (1u << 4))) /* a TSC at all */
        return false;
    if (__get_cpuid_max(0x80000000u, NULL) < 0x80000007u)
        return false;
    __cpuid(0x80000007u, a, b, c, d);
    return (d & (1u << 8)) != 0;
#else
    return false;
#endif
}

int sb_clock_init(sb_clock *c, int kind, const _Atomic uint64_t *shared, char *err, size_t errlen)
{
    *c = (sb_clock){.kind = kind, .shared = shared};
    if (kind == SB_CLOCK_GTOD) {
        struct timeval tv;
        gettimeofday(&tv, NULL);
        uint64_t mono = sb_now_ns();
        c->gtod_off_us = (int64_t)tv.tv_sec * 1000000 + tv.tv_usec - (int64_t)(mono / 1000);
    } else if (kind == SB_CLOCK_TSC) {
        double mhz = sb_clock_tsc_mhz();
        if (mhz <= 0) {
            snprintf(err, errlen, "clocksource=cpu: this CPU has no time-stamp counter storbench "
                     "can read (x86's TSC), or it did not advance");
            return -ENOTSUP;
        }
        tsc_pair(&c->tsc0, &c->ns0);
        c->mult = (uint64_t)(1000.0 / mhz * 4294967296.0 + 0.5);
    }
    c->last = 0;
    return 0;
}
