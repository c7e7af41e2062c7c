/*
 * plan — what a scenario run is checked against before the first configuration is
 * built (plan.c): the line `scenario check` prints per configuration, what can be built
 * here, the room each configuration offers the selected tests, `--only`, and the real
 * devices or loop images the run will use. The CLI (cli/scenario.c) parses the command
 * line into an sb_scn_plan and prints what these return; the driver (run.h) builds.
 */
#ifndef SB_SCENARIO_PLAN_H
#define SB_SCENARIO_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scenario/device.h"
#include "scenario/scenario.h"
#include "workloads/workload.h"

/* Where a run builds: loop devices over images in a directory, or real devices. */
typedef struct sb_scn_plan {
    const char *images;     /* --images DIR */
    uint64_t image_size;    /* --image-size, bytes */
    const char *size_text;  /* --image-size as given (or the default), for the messages */
    char *devices;          /* --devices DEV,... (split in place), NULL = images */
    char *destroy;          /* --destroy-data-on DEV,... (split in place) */
    bool vm;                /* --vm: each configuration in a guest */
    bool vm_lab;            /* --vm under virtual time: the disks' models run in the guest */
    bool in_guest;          /* this is a guest's own run (scenario vm-guest) */
} sb_scn_plan;

/* "btrfs data raid1, metadata raid1 over 2 devices, mount options compress=lzo" */
void sb_scn_plan_line(const sb_scn_config *c, char *buf, size_t len);

/* Whether configuration c can be built here (vm: in a guest, with the host's tools):
 * bcache and md need the kernel's support on the host, and make-bcache / mdadm in any
 * case; a device-model under --vm needs nbdkit, except under virtual time (lab: the
 * model runs in the guest), where QEMU's throttling cannot be had. 0, or -ENOTSUP with why. */
int sb_scn_buildable(const sb_scn_config *c, bool vm, bool lab, char *why, size_t whylen);

/* Whether every configuration offers enough space to every test on devices of device_size
 * bytes: 0, or -ENOSPC with "[ID] offers about X to files; TEST needs Y" in err. */
int sb_scn_check_capacity(const sb_scenario *s, const sb_config *tests, size_t n_tests,
                          uint64_t device_size, char *err, size_t errlen);

/* --only ID...: keeps those configurations of s, in the file's order. 0, or SB_EXIT_USAGE
 * after the line naming an identifier file does not have. */
int sb_scn_keep_only(sb_scenario *s, const char *const *only, size_t n_only, const char *file);

/* Can every configuration of s be built here, and does it offer the tests enough room?
 * Checks the real devices of p (filling real) or that loop devices can be made and the
 * images fit, and resolves p->images into images_real (PATH_MAX). 0, or SB_EXIT_USAGE /
 * SB_EXIT_RUNTIME after the line saying why. */
int sb_scn_plan_check(const sb_scn_plan *p, const sb_scenario *s, const sb_config *tests, size_t n_tests,
                      sb_device *real, char *images_real);

#endif
