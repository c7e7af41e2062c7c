/*
 * md — Linux software RAID (md) under a configuration's filesystem: `md =
 * raid0|raid1|raid10|raid5|raid6` builds one array over the configuration's
 * devices with mdadm, and the filesystem goes on /dev/mdN. Teardown stops the
 * array through sysfs (array_state "clear") and wipes the member superblocks'
 * magic, so that nothing reassembles it.
 */
#ifndef SB_SCENARIO_MD_H
#define SB_SCENARIO_MD_H

#include <stddef.h>
#include <stdio.h>

#include "scenario/device.h"
#include "scenario/scenario.h"
#include "scenario/state.h"
#include "scenario/undo.h"

/* Whether md can be used here (the kernel's md and mdadm); else -ENOTSUP and why. */
int sb_md_available(char *why, size_t whylen);
/* Creates the array of c over devs[0..n) (journaled first), its device in md_dev.
 * 0 or -errno with one line in err. */
int sb_md_setup(const sb_scn_config *c, sb_device *devs, size_t n, sb_state *st, char *md_dev, size_t len,
                char *err, size_t errlen);
/* Undo of an array, sb_undo_md_stop(), is in undo.c with the other undo steps, so that
 * the journal's replay never calls back into this file, which journals (no circle). */
/* What the array reads back as ("raid1, 2 devices, clean"), "" when unknown. */
void sb_md_describe(const char *md_dev, char *out, size_t len);

#endif
