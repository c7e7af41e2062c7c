/*
 * fsmark — FS-Mark's resolved parameters (fsmark.c fills them once, sb_config_resolve),
 * in a header because the device lab's time dilation (scenario/lab_dilate.c) stretches
 * the two durations they hold that run on the guest's clock: fs_mark's sub-directory
 * period and the driver's wake-up between its checks of the workers. Everything else in
 * them is a count or a size, the same in any clock.
 */
#ifndef SB_WORKLOADS_FSMARK_H
#define SB_WORKLOADS_FSMARK_H

#include <stdint.h>

enum fsm_sync { FSM_SYNC_FSYNC, FSM_SYNC_NONE, FSM_SYNC_END };

typedef struct fsm_params {
    uint64_t files;   /* per worker */
    uint64_t size;
    uint64_t threads;
    uint64_t dirs;
    uint64_t per_dir; /* 0 = time hash */
    int random_data;
    enum fsm_sync sync;
    /* Durations on the guest's clock: fs_mark's time hash moves to the next sub-directory
     * after dir_period_s seconds (fs_mark's 180), and the driver checks the workers every
     * poll_ns (100 ms). Both ×K under --vm-dilate K (sb_fsmark_dilate). */
    uint64_t dir_period_s;
    uint64_t poll_ns;
} fsm_params;

/* The device lab's time dilation: params' durations ×k (see above). params is an
 * fsm_params that sb_config_resolve() filled. */
void sb_fsmark_dilate(void *params, unsigned k);

#endif
