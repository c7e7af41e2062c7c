/*
 * lab_dilate — time dilation in the device lab (`scenario run --vm --vm-time virtual
 * --vm-dilate K`, docs/scenarios.md, "Time dilation"): the guest's virtual CPU executes
 * 10^9 instructions a second, several times slower than the seeds' CPUs, so the lab's
 * request path and the tests' CPU work weigh more against the modeled disks than they
 * did there. With K > 1 every delay of a device model is K times longer in the guest
 * (the model runs on a clock K times slower than the guest's), which makes the virtual
 * CPU K times faster relative to the disks; the tests' time parameters and the guest
 * kernel's timers that can be set are stretched by K too, and every figure of the result
 * is brought back to the model's time once, on the host: time-like values ÷K, rates ×K,
 * by the unit each figure carries (the table in lab_dilate.c). A test whose figures or
 * time parameters the table does not know is refused before anything runs.
 *
 * K = 1 changes nothing anywhere (no file is written for the guest, no option scaled).
 */
#ifndef SB_SCENARIO_LAB_DILATE_H
#define SB_SCENARIO_LAB_DILATE_H

#include <stddef.h>
#include <stdint.h>

#include "devices/model.h"
#include "results/result.h"
#include "scenario/scenario.h"
#include "workloads/workload.h"

#define SB_LAB_DILATE_MAX 16
/* The line of the lab's device list (vm_guest.h's SB_VM_LAB_FILE) that carries K to the
 * guest, after the devices' lines: "dilate K" (absent: 1). */
#define SB_LAB_DILATE_LINE "dilate"

/* How a figure of a unit goes from the guest's stretched time back to the model's. */
typedef enum sb_dil_kind {
    SB_DIL_UNKNOWN = 0, /* not in the table: cannot be scaled (the result is refused) */
    SB_DIL_SAME,        /* a count, bytes, a ratio: unchanged */
    SB_DIL_TIME,        /* seconds, microseconds ...: ÷K */
    SB_DIL_RATE,        /* per second: ×K */
} sb_dil_kind;

sb_dil_kind sb_lab_dilate_unit(const char *unit);
/* NULL when a test can run dilated: it is in the table of tests (fio, sqlite, dd, fs-mark,
 * dbench: their figures' units are all in the table of units, and their durations are
 * known), and
 * nothing it is set to holds a rate or a time the table cannot scale (fio's steadystate
 * limits); else one line why not. */
const char *sb_lab_dilate_refusal(const sb_config *cfg);

/* Host side: every figure of rf (headline values, runs, SD, SE, the ram reference,
 * secondary figures, the series, steady state's time) from the guest's time to the
 * model's. 0, or -EINVAL with one line in err naming a unit or test the table does not
 * know (nothing is half scaled then: rf is checked before it is changed). */
int sb_lab_dilate_result(sb_resultfile *rf, unsigned k, char *err, size_t errlen);

/* Guest side: each resolved test's durations ×K in its params (fio's startdelay, ramp and
 * runtime; fs-mark's and dbench's, lab_dilate.c), below its options: the options, and so the result's option line and options,
 * keep the model's values. 0, or -EINVAL with err for a test that cannot run dilated. */
int sb_lab_dilate_tests(sb_config *cfg, size_t n, unsigned k, char *err, size_t errlen);
/* Guest side: a configuration's filesystem timers ×K in its mount options (ext4's and
 * btrfs's commit=, ext4's max_batch_time=; given ones scaled, absent ones added at the
 * kernel's default ×K), and c->time_dilate set for its layout (bcache's tunables). */
void sb_lab_dilate_config(sb_scn_config *c, unsigned k);
/* Guest side: the page cache's writeback timers ×K (vm.dirty_expire_centisecs,
 * vm.dirty_writeback_centisecs); what was set goes to done ("dirty_expire 3000->24000 cs,
 * ..."). 0 or -errno. */
int sb_lab_dilate_sysctl(unsigned k, char *done, size_t len);
/* Guest side: bcache's timers ×K once the cache set exists: the backing device's (its
 * /sys/block/NAME/bcache) writeback_rate_update_seconds (the kernel takes at most 60) and
 * writeback_delay, the cache set's congested_read/write_threshold_us. Best effort: what
 * could not be set is said on stderr. */
void sb_lab_dilate_bcache(const char *backing_name, const char *cset_uuid, unsigned k);

/* The device model on a clock K times slower than the guest's: each delay it models takes
 * K times as long in the guest. guest_ns is the guest's CLOCK_MONOTONIC; what comes back
 * is guest time again (a duration for position, an instant for service and ready). */
uint64_t sb_lab_model_service(sb_dev_model *m, unsigned k, sb_dev_op op, uint64_t off, uint64_t len,
                              uint64_t guest_ns);
uint64_t sb_lab_model_position(const sb_dev_model *m, unsigned k, sb_dev_op op, uint64_t off, uint64_t guest_ns);
uint64_t sb_lab_model_ready(const sb_dev_model *m, unsigned k, uint64_t guest_ns);

#endif
