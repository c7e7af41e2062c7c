/*
 * gate — see gate.h. A count under a mutex and a condition the last to arrive broadcasts.
 */
#include "io/run/gate.h"

#include <errno.h>
#include <stdlib.h>

int sb_io_gate_init(sb_io_gate *g, size_t n)
{
    g->n = n;
    g->arrived = 0;
    g->here = calloc(n ? n : 1, sizeof *g->here);
    if (!g->here)
        return -ENOMEM;
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    return 0;
}

void sb_io_gate_destroy(sb_io_gate *g)
{
    pthread_cond_destroy(&g->cv);
    pthread_mutex_destroy(&g->mu);
    free(g->here);
    g->here = NULL;
}

void sb_io_gate_pass(sb_io_gate *g, size_t i, bool wait)
{
    if (!g || i >= g->n)
        return;
    pthread_mutex_lock(&g->mu);
    if (!g->here[i]) {
        g->here[i] = true;
        if (++g->arrived == g->n)
            pthread_cond_broadcast(&g->cv);
    }
    while (wait && g->arrived < g->n)
        pthread_cond_wait(&g->cv, &g->mu);
    pthread_mutex_unlock(&g->mu);
}
