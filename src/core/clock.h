/*
 * clock — a cheap monotonic clock for timing. One vDSO call, no syscall on
 * Linux, so it may be used on the hot I/O path. And the one short sleep used
 * while polling for the kernel to finish something (a device to appear).
 *
 * Beside it, the clocks fio's clocksource and gtod_cpu choose between (sb_clock):
 * gettimeofday (whole microseconds), the CPU's time-stamp counter at a rate
 * calibrated against CLOCK_MONOTONIC (clock.c), and a time another thread keeps
 * (fio's gettimeofday thread). Each reads as nanoseconds on CLOCK_MONOTONIC's scale
 * (offset to it when set up), so a deadline taken on one is met on the others; a
 * step back (gettimeofday stepped by NTP, counters of two CPUs apart) reads as no
 * time passing, as fio's time differences count it. The I/O loop reads the default
 * clock through sb_now_ns() in an instance of its own, so choosing costs it nothing.
 */
#ifndef SB_CLOCK_H
#define SB_CLOCK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>
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

typedef enum sb_clock_kind {
    SB_CLOCK_MONO = 0,  /* clock_gettime(CLOCK_MONOTONIC): fio's clock_gettime */
    SB_CLOCK_GTOD,      /* gettimeofday: fio's gettimeofday, microseconds */
    SB_CLOCK_TSC,       /* the time-stamp counter: fio's cpu */
    SB_CLOCK_SHARED,    /* a time another thread keeps: fio's gtod_cpu */
    SB_CLOCK_ANY = -1,  /* (an I/O loop's instance that reads whichever c->kind says) */
} sb_clock_kind;

typedef struct sb_clock {
    int kind;                       /* sb_clock_kind */
    uint64_t last;                  /* the last time read: none reads less */
    int64_t gtod_off_us;            /* GTOD: gettimeofday minus CLOCK_MONOTONIC, in us */
    uint64_t tsc0, ns0;             /* TSC: a counter value and CLOCK_MONOTONIC then */
    uint64_t mult;                  /* TSC: ns per tick, times 2^32 */
    const _Atomic uint64_t *shared; /* SHARED: the keeper's time */
} sb_clock;

static inline uint64_t sb_rdtsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
#else
    return 0; /* no counter read here: sb_clock_init refuses SB_CLOCK_TSC */
#endif
}

/* gettimeofday as nanoseconds on CLOCK_MONOTONIC's scale, off_us apart: whole
 * microseconds, as gettimeofday's resolution is. */
static inline uint64_t sb_gtod_ns(int64_t off_us)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (uint64_t)((int64_t)tv.tv_sec * 1000000 + tv.tv_usec - off_us) * 1000u;
}

/* The clock c, read as kind says (a constant where the caller is an instance for one
 * kind, so the choice is made at compile time; SB_CLOCK_ANY: as c->kind says). */
static inline __attribute__((always_inline)) uint64_t sb_clock_read_as(sb_clock *c, int kind)
{
    if (kind == SB_CLOCK_ANY)
        kind = c->kind;
    uint64_t t;
    switch (kind) {
    case SB_CLOCK_MONO:
        return sb_now_ns();
    case SB_CLOCK_GTOD:
        t = sb_gtod_ns(c->gtod_off_us);
        break;
    case SB_CLOCK_TSC: {
        int64_t d = (int64_t)(sb_rdtsc() - c->tsc0); /* below the anchor on another core: 0 */
        t = c->ns0 + (uint64_t)(((unsigned __int128)(d > 0 ? d : 0) * c->mult) >> 32);
        break;
    }
    default:
        t = atomic_load_explicit(c->shared, memory_order_relaxed);
        break;
    }
    if (t < c->last)
        t = c->last;
    c->last = t;
    return t;
}

static inline uint64_t sb_clock_read(sb_clock *c)
{
    return sb_clock_read_as(c, SB_CLOCK_ANY);
}

/* c set up as kind (SHARED: reading *shared). TSC: the counter's rate, measured once per
 * process against CLOCK_MONOTONIC (about 20 ms), and c anchored to CLOCK_MONOTONIC now.
 * 0, or -ENOTSUP with one line in err (TSC: no counter on this CPU, or one that did not
 * advance). */
int sb_clock_init(sb_clock *c, int kind, const _Atomic uint64_t *shared, char *err, size_t errlen);

/* Whether this CPU's TSC runs at a constant rate in every power state and on every
 * core (CPUID 80000007h, EDX bit 8: "invariant TSC"), what fio asks before it trusts
 * it; false where there is no such counter. */
bool sb_clock_tsc_invariant(void);

/* The counter's calibrated rate in ticks per microsecond (calibrating it when not yet
 * done); 0 where there is none. */
double sb_clock_tsc_mhz(void);

#endif
