/*
 * layout — turns a configuration into a mounted filesystem on its devices and
 * back: bcache over two devices where asked, mkfs (ext4, xfs, btrfs with its
 * data and metadata profiles), a private mount point, mount(2) with the
 * configuration's options, and the description of all of it in the
 * identifier's system entry. Mount options a kernel no longer accepts
 * (nobarrier on xfs since 4.19) are dropped only after trying them, and are
 * recorded as "not applicable"; any other refused option fails the
 * configuration.
 */
#ifndef SB_SCENARIO_LAYOUT_H
#define SB_SCENARIO_LAYOUT_H

#include <stddef.h>
#include <stdio.h>

#include "results/result.h"
#include "scenario/device.h"
#include "scenario/scenario.h"
#include "scenario/state.h"

typedef struct sb_layout {
    char mountpoint[4096];
    char fs_device[64];        /* what holds the filesystem: /dev/loop3, /dev/bcache0 */
    char options[512];         /* the configuration's mount options the kernel took */
    char not_applicable[256];  /* those it refused as no longer existing ("nobarrier") */
    char data_profile[32];     /* btrfs, as mounted ("raid1"); "" otherwise */
    char metadata_profile[32];
} sb_layout;

/* Builds c on devs[0..n) with the mount point under parent_dir; every object goes into st
 * first. 0 or -errno with one line in err (the caller undoes st either way). */
int sb_layout_build(const sb_scn_config *c, sb_device *devs, size_t n, const char *parent_dir,
                    sb_state *st, sb_layout *out, char *err, size_t errlen);
/* Records the layout in sys (after sb_sysinfo_collect on the mount point): storage keys
 * Layout, Devices, Data Profile, Metadata Profile, Compression, Cache, Mount Options; and
 * the page's Disk and File-System. */
void sb_layout_describe(const sb_scn_config *c, const sb_device *devs, size_t n, const sb_layout *l,
                        sb_system *sys);

/* Whether bcache can be used here; else -ENOTSUP and the reason in why. */
int sb_bcache_available(char *why, size_t whylen);

#endif
