/*
 * startline — the start line of a test's client threads (see startline.h): a mutex,
 * a condition variable, a count of the ready and the flag that lets them go.
 */
#include "core/startline.h"

#include "core/clock.h"

void sb_startline_init(sb_startline *sl)
{
    pthread_mutex_init(&sl->lock, NULL);
    pthread_cond_init(&sl->cond, NULL);
    sl->ready = 0;
    sl->go = false;
    sl->start_ns = sl->end_ns = 0;
}

void sb_startline_destroy(sb_startline *sl)
{
    pthread_cond_destroy(&sl->cond);
    pthread_mutex_destroy(&sl->lock);
}

void sb_startline_wait(sb_startline *sl)
{
    pthread_mutex_lock(&sl->lock);
    sl->ready++;
    pthread_cond_broadcast(&sl->cond);
    while (!sl->go)
        pthread_cond_wait(&sl->cond, &sl->lock);
    pthread_mutex_unlock(&sl->lock);
}

uint64_t sb_startline_release(sb_startline *sl, unsigned n, uint64_t length_ns)
{
    pthread_mutex_lock(&sl->lock);
    while (sl->ready < n)
        pthread_cond_wait(&sl->cond, &sl->lock);
    sl->start_ns = sb_now_ns();
    sl->end_ns = sl->start_ns + length_ns;
    sl->go = true;
    pthread_cond_broadcast(&sl->cond);
    pthread_mutex_unlock(&sl->lock);
    return sl->start_ns;
}
