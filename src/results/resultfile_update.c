/*
 * resultfile_update — see resultfile.h. The lock is held from before the
 * re-read to after the rename, so what another command saved in between is
 * always in what this one reads and so in what it writes.
 */
#include "results/resultfile.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

/* STORBENCH_TEST_SAVE_DELAY_MS: a sleep that signals do not cut short (the save they
 * interrupt must still happen after it). */
static void test_delay(void)
{
    const char *s = getenv("STORBENCH_TEST_SAVE_DELAY_MS");
    long ms = s ? strtol(s, NULL, 10) : 0;
    if (ms <= 0 || ms > 600000)
        return;
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

int sb_resultfile_update(const char *path, const sb_lock_wait *w, sb_resultfile_merge_fn fn,
                         void *arg, char *err, size_t errlen)
{
    sb_lock lock;
    int rc = sb_lock_take(&lock, path, w, err, errlen);
    if (rc < 0)
        return rc;
    sb_resultfile now;
    sb_resultfile_init(&now);
    rc = sb_resultfile_load(path, &now, err, errlen);
    if (rc == -ENOENT)
        rc = 0;
    if (rc == 0)
        rc = fn(&now, arg, err, errlen);
    if (rc == 0) {
        test_delay();
        rc = sb_resultfile_save(path, &now, err, errlen);
    }
    sb_resultfile_free(&now);
    sb_lock_release(&lock);
    return rc;
}
