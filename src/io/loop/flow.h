/*
 * flow — fio's token-based flow control (flow, flow_id, flow_sleep): the threads of the
 * jobs that share a flow_id keep their numbers of I/Os in the ratio of their weights.
 * Each flow has one counter of the I/Os its threads did (starting at 1, as fio's) and the
 * sum of their weights; a thread whose own count's share of the counter is above its
 * weight's share of the sum holds back (after draining its queue and sleeping
 * flow_sleep microseconds, when set) until the others have caught up. Flows are shared
 * by every job of the process (the jobs of one phase run at once, jobrun.h) and go when
 * their last thread leaves.
 */
#ifndef SB_IO_FLOW_H
#define SB_IO_FLOW_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct sb_flow sb_flow;

/* A thread's place in its flow. */
typedef struct sb_flow_member {
    sb_flow *flow;             /* NULL: the job has no flow weight */
    unsigned weight;
    uint64_t count;            /* this thread's I/Os counted in the flow */
} sb_flow_member;

/* Joins flow id with weight (0: m->flow stays NULL). reserved (may be NULL): weight the
 * thread's job reserved before it started (sb_flow_reserve); the thread takes its weight
 * from there instead of adding it again. -ENOMEM. */
int sb_flow_join(sb_flow_member *m, unsigned id, unsigned weight, _Atomic(unsigned) *reserved);
/* Before the jobs of a phase start: a job's whole weight (flow * numjobs) counted in flow
 * id at once, so that a job that starts first holds back for those still laying out
 * their files, as fio's jobs all start together. sb_flow_unreserve when the job ended:
 * what its threads did not take goes. -ENOMEM. */
int sb_flow_reserve(unsigned id, unsigned weight);
void sb_flow_unreserve(unsigned id, unsigned left);
/* Leaves: its count and weight are taken back out of the flow. */
void sb_flow_leave(sb_flow_member *m);
/* true when the thread is ahead of its weight and must hold back this time; else its
 * next I/O is counted now (fio counts when it decides, before the I/O). */
bool sb_flow_ahead(sb_flow_member *m);

#endif
