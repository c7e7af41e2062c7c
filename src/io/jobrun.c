/*
 * jobrun — see jobrun.h. A thread per job only to call sb_io_run(): the job's own
 * threads do the I/O, so this adds one sleeping thread per job and nothing to the
 * I/O path.
 */
#include "io/jobrun.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static void *run_one(void *arg)
{
    sb_io_run_slot *s = arg;
    s->rc = sb_io_run(s->job, &s->result, s->err, sizeof s->err);
    return NULL;
}

int sb_io_run_many(sb_io_run_slot *slots, size_t n)
{
    if (n == 1) {
        run_one(&slots[0]);
        return 0;
    }
    pthread_t tids[n];
    size_t started = 0;
    int r = 0;
    for (; started < n; started++) {
        int e = pthread_create(&tids[started], NULL, run_one, &slots[started]);
        if (e) {
            r = -e;
            break;
        }
    }
    for (size_t i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    for (size_t i = started; i < n; i++) {
        slots[i].rc = r;
        snprintf(slots[i].err, sizeof slots[i].err, "cannot start the job's thread: %s", strerror(-r));
    }
    return r;
}
