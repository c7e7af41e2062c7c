/*
 * flow — see flow.h. The registry is a short list under a mutex, touched only when a
 * thread joins or leaves; the per-I/O check is two relaxed atomic loads and, when the
 * thread goes ahead, one atomic add.
 */
#include "io/loop/flow.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

struct sb_flow {
    unsigned id;
    unsigned refs;
    atomic_uint_fast64_t counter;  /* the flow's I/Os, from 1 */
    atomic_uint total_weight;
    sb_flow *next;
};

static pthread_mutex_t flows_lock = PTHREAD_MUTEX_INITIALIZER;
static sb_flow *flows;

/* The flow called id, made when missing (under the lock). NULL when out of memory. */
static sb_flow *flow_get(unsigned id)
{
    sb_flow *f = flows;
    while (f && f->id != id)
        f = f->next;
    if (!f && (f = calloc(1, sizeof *f))) {
        f->id = id;
        atomic_init(&f->counter, 1);
        atomic_init(&f->total_weight, 0);
        f->next = flows;
        flows = f;
    }
    return f;
}

/* One reference fewer, and weight and count out of the flow (under the lock). */
static void flow_put(sb_flow *f, unsigned weight, uint64_t count)
{
    atomic_fetch_sub(&f->counter, count);
    atomic_fetch_sub(&f->total_weight, weight);
    if (!--f->refs) {
        sb_flow **p = &flows;
        while (*p != f)
            p = &(*p)->next;
        *p = f->next;
        free(f);
    }
}

int sb_flow_join(sb_flow_member *m, unsigned id, unsigned weight, _Atomic(unsigned) *reserved)
{
    m->flow = NULL;
    m->weight = weight;
    m->count = 0;
    if (!weight)
        return 0;
    pthread_mutex_lock(&flows_lock);
    sb_flow *f = flow_get(id);
    if (f) {
        f->refs++;
        unsigned r = reserved ? atomic_load(reserved) : 0;
        if (r >= weight) /* counted already: taken from the job's reservation */
            atomic_store(reserved, r - weight);
        else
            atomic_fetch_add(&f->total_weight, weight);
    }
    pthread_mutex_unlock(&flows_lock);
    m->flow = f;
    return f ? 0 : -ENOMEM;
}

void sb_flow_leave(sb_flow_member *m)
{
    sb_flow *f = m->flow;
    if (!f)
        return;
    pthread_mutex_lock(&flows_lock);
    flow_put(f, m->weight, m->count);
    pthread_mutex_unlock(&flows_lock);
    m->flow = NULL;
}

int sb_flow_reserve(unsigned id, unsigned weight)
{
    pthread_mutex_lock(&flows_lock);
    sb_flow *f = flow_get(id);
    if (f) {
        f->refs++;
        atomic_fetch_add(&f->total_weight, weight);
    }
    pthread_mutex_unlock(&flows_lock);
    return f ? 0 : -ENOMEM;
}

void sb_flow_unreserve(unsigned id, unsigned left)
{
    pthread_mutex_lock(&flows_lock);
    sb_flow *f = flows;
    while (f && f->id != id)
        f = f->next;
    if (f)
        flow_put(f, left, 0);
    pthread_mutex_unlock(&flows_lock);
}

bool sb_flow_ahead(sb_flow_member *m)
{
    sb_flow *f = m->flow;
    double counter = (double)atomic_load_explicit(&f->counter, memory_order_relaxed);
    double total = (double)atomic_load_explicit(&f->total_weight, memory_order_relaxed);
    if ((double)m->count / counter > (double)m->weight / total)
        return true;
    atomic_fetch_add_explicit(&f->counter, 1, memory_order_relaxed);
    m->count++;
    return false;
}
