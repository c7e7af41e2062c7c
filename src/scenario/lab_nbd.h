/*
 * lab_nbd — a modeled disk served inside a `scenario run --vm --vm-time virtual`
 * guest (docs/scenarios.md, "Virtual time"): the guest kernel's NBD client
 * (/dev/nbdN, configured with the classic ioctls over one end of a socketpair)
 * sends each request to a server thread in this process, which starts it in the
 * device model (devices/model.h) as the model's queue would, sleeps in poll() on
 * the socket and on a timer at the earliest modeled completion (the guest's
 * CLOCK_MONOTONIC; it never spins) and then moves the data in guest RAM.
 *
 * Why inside the guest: under QEMU's -icount with sleep=off the guest's clocks
 * advance by the instructions it executes and jump to the next guest timer when
 * every vCPU is idle, so a request whose completion is a guest timer takes the
 * model's time whatever the host does; one completed by the host (an nbdkit, a
 * host file) arrives at a virtual time that depends on the host's speed.
 *
 * The data lives in one anonymous private mapping of the device's size with
 * MAP_NORESERVE: the guest kernel gives a page only when it is written (reads of
 * what was never written see the shared zero page), so a device costs what was
 * written; a discard gives the whole pages in its range back.
 */
#ifndef SB_SCENARIO_LAB_NBD_H
#define SB_SCENARIO_LAB_NBD_H

#include <stddef.h>
#include <stdint.h>

typedef struct sb_lab_nbd sb_lab_nbd;

/* Requests in the model at once (SATA NCQ's 32 tags); more wait in order. */
#define SB_LAB_NBD_TAGS 32

/* Serves a device of size bytes modeled by spec (a devices/ spec; "ram" answers at once)
 * as /dev/nbd<index>, whose path goes to dev. The device is rotational, and takes no
 * discard, when the model is an HDD. dilate (--vm-dilate, 1 or 0: none) runs the model on a
 * clock that many times slower than the guest's (lab_dilate.h). 0, or -errno with one line
 * in err (nothing left attached or running). */
int sb_lab_nbd_attach(const char *spec, uint64_t size, unsigned index, unsigned dilate, sb_lab_nbd **out, char *dev,
                      size_t devlen, char *err, size_t errlen);
/* Disconnects the device, stops the server and frees everything; what it served goes to
 * summary ("nbd0 ssd-850evo: 1234 requests, 0 idle wake-ups (... by kind, the flushes' time,
 * the server's CPU)", for the guest's console and the tests), when summary is not NULL.
 * Safe on NULL. */
void sb_lab_nbd_detach(sb_lab_nbd *d, char *summary, size_t len);

#endif
