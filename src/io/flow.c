/*
 * flow — see flow.h. The registry is a short list under a mutex, touched only when a
 * thread joins or leaves; the per-I/O check is two relaxed atomic loads and, when the
 * thread goes ahead, one atomic add.
 */
#include "io/flow.h"

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

int sb_flow_join(sb_flow_member *m, unsigned id, unsigned weight)
{
    m->flow = NULL;
    m->weight = weight;
    m->count = 0;
    if (!weight)
        return 0;
    pthread_mutex_lock(&flows_lock);
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
    if (f) {
        f->refs++;
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
    atomic_fetch_sub(&f->counter, m->count);
    atomic_fetch_sub(&f->total_weight, m->weight);
    if (!--f->refs) {
        sb_flow **p = &flows;
        while (*p != f)
            p = &(*p)->next;
        *p = f->next;
        free(f);
    }
    pthread_mutex_unlock(&flows_lock);
    m->flow = NULL;
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
