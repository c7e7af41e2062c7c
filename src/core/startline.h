/*
 * startline — a start line for a test's client threads: each thread says it is ready
 * and waits; the test thread waits until all it started are ready, reads the clock once
 * and lets them go together, so that the measured time starts when every client can
 * run, not while the last ones are still being created. Used by pgbench and sqlite.
 */
#ifndef SB_STARTLINE_H
#define SB_STARTLINE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct sb_startline {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    unsigned ready;    /* threads waiting at the line */
    bool go;
    uint64_t start_ns; /* when they were let go (sb_now_ns) */
    uint64_t end_ns;   /* start_ns + the length given to sb_startline_release */
} sb_startline;

void sb_startline_init(sb_startline *sl);
void sb_startline_destroy(sb_startline *sl);
/* A client thread: ready, then waits until it is let go. start_ns and end_ns are set
 * when it returns. */
void sb_startline_wait(sb_startline *sl);
/* The test thread: waits until n threads wait at the line, sets start_ns (now) and
 * end_ns (start_ns + length_ns, for a timed run) and lets them go. Returns start_ns. */
uint64_t sb_startline_release(sb_startline *sl, unsigned n, uint64_t length_ns);

#endif
