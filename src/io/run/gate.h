/*
 * gate — the jobs of a phase start together, as fio's: fio lays out every job's files
 * first and then lets all the jobs' threads go at once (each then sets up its engine and
 * buffers, runs exec_prerun and starts its clock), so a job's runtime starts with the
 * others' (with exitall, the first to end ends the rest after about the same time of
 * their own). Each job lays out its files on its own thread (jobrun.c, one at a time),
 * then waits here until every job of the phase has come, or given up (a job that fails
 * before it still arrives, so no one waits for it). A gate is a phase's; NULL: alone.
 */
#ifndef SB_IO_GATE_H
#define SB_IO_GATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct sb_io_gate {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t n, arrived;
    bool *here;                /* [n]: which jobs have arrived */
} sb_io_gate;

/* A gate for n jobs: 0, or -ENOMEM. */
int sb_io_gate_init(sb_io_gate *g, size_t n);
void sb_io_gate_destroy(sb_io_gate *g);
/* Job i arrives (again: nothing more) and, with wait, waits until all n have. g NULL: nothing. */
void sb_io_gate_pass(sb_io_gate *g, size_t i, bool wait);

#endif
