/*
 * vm_nbd — the modeled disks of `scenario run --vm`: for each guest disk
 * whose configuration names a `device-model`, one nbdkit serving the disk's
 * scratch image through the `file` plugin with storbench's model filter
 * (src/nbdkit/model_filter.c) in front, on a unix socket in a private 0700
 * directory; QEMU attaches the disk over NBD instead of opening the image.
 * nbdkit runs several threads (the model's queue reorders what is in flight
 * together), outlives no storbench: it is killed and waited for after the
 * guest, on every error path and on Ctrl-C, dies with storbench (nbdkit's
 * --exit-with-parent), and is journaled (state.h, SB_ST_NBDKIT) so that what
 * a SIGKILLed run left is stopped by the next run or `scenario cleanup`.
 */
#ifndef SB_SCENARIO_VM_NBD_H
#define SB_SCENARIO_VM_NBD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "scenario/scenario.h"
#include "scenario/state.h"

#define SB_VM_NBDKIT "nbdkit"
#define SB_VM_NBD_FILTER "storbench-nbdkit-model.so"
/* Worker threads per nbdkit: more than the NBD client keeps in flight (QEMU: 16). */
#define SB_VM_NBD_THREADS 32

typedef struct sb_vm_nbd {
    pid_t pid;               /* 0: not running */
    char dir[4096];          /* the private directory: socket and pid file */
    char sock[4096];
} sb_vm_nbd;

/* The filter's shared object: $STORBENCH_NBDKIT_FILTER, else beside this program
 * (DIR/build/, DIR/, DIR/../lib/storbench/). 0, or -ENOENT with the places looked at in why. */
int sb_vm_nbd_filter(char *out, size_t len, char *why, size_t whylen);
/* Whether modeled disks can be served here (nbdkit and the filter); -ENOTSUP and why. */
int sb_vm_nbd_available(char *why, size_t whylen);
/* Whether the model spec is a rotating disk (an HDD preset): the guest's disk is then
 * rotational and drops discards, as a disk does. */
bool sb_vm_nbd_rotational(const char *spec);
/* device-class under --vm: a device whose class the file names (ssd or hdd) and that has
 * no device-model, device-iops or device-bandwidth is modeled by its class's preset
 * (the seeds' drives: ssd-850evo, hdd-hua723020; docs/scenarios.md) where nbdkit and the
 * filter are here, or under virtual time (lab: the models run in the guest); elsewhere it
 * keeps QEMU's throttling and one warning says why. Sets
 * model and class_model of those devices; the number of devices given a preset. */
unsigned sb_vm_class_models(sb_scenario *s, bool lab);
/* The preset a class names under --vm, or NULL (ram: an image in host memory). */
const char *sb_vm_class_preset(sb_dev_class cls);
/* Starts nbdkit for image under the model spec, its socket in a new private directory
 * dir (which must not exist), journaled in st (may be NULL). Returns when nbdkit
 * listens. 0, or -errno with one line in err (nothing left running). */
int sb_vm_nbd_start(sb_vm_nbd *n, const char *dir, const char *image, const char *spec, sb_state *st,
                    char *err, size_t errlen);
/* Stops it (SIGTERM, then SIGKILL), waits for it and removes its directory; its journal
 * line is then undone by the caller's sb_state_undo(), which finds it gone. Safe on one
 * that never started. */
void sb_vm_nbd_stop(sb_vm_nbd *n);

#endif
