/*
 * device — the block devices a configuration is built on: loop devices over
 * image files storbench creates (and removes), or real devices the user named,
 * after the safety checks that keep storbench from destroying anything that
 * is in use: never a device that is mounted, used as swap, held by another
 * device (md, dm, bcache), opened exclusively, or open in any other process.
 *
 * Loop devices are configured with LO_FLAGS_AUTOCLEAR and kept open by this
 * process while the configuration exists: if the process dies, the kernel
 * detaches every loop device that is not mounted, and a mounted one detaches
 * as soon as `scenario cleanup` unmounts it.
 */
#ifndef SB_SCENARIO_DEVICE_H
#define SB_SCENARIO_DEVICE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "scenario/state.h"

typedef struct sb_device {
    char path[64];        /* /dev/loop3, /dev/sdb */
    char image[4096];     /* the backing image; "" for a real device */
    int fd;               /* loop devices: held open while in use; else -1 */
    uint64_t size;        /* bytes */
    bool direct_io;       /* loop device with LO_FLAGS_DIRECT_IO (no double caching) */
    char model[128];      /* real devices: /sys/block/X/device/model; modeled loop devices: the spec; else "" */
    char signature[64];   /* real devices: what they carried ("ext4", "GPT partition table"), else "" */
} sb_device;

/* Whether loop devices can be made here; else -errno and the reason in why. */
int sb_loop_available(char *why, size_t whylen);
/* Creates an image file of size bytes (preallocated where the filesystem can), journaled in
 * st before it exists. 0 or -errno, one line in err. */
int sb_image_create(sb_state *st, const char *path, uint64_t size, char *err, size_t errlen);
/* Attaches a free loop device to image (autoclear, direct I/O when possible) and journals
 * it. Fills d. 0 or -errno, one line in err. */
int sb_loop_attach(sb_state *st, const char *image, sb_device *d, char *err, size_t errlen);
/* Closes what this process holds open on d (the loop device goes once unused). */
void sb_device_release(sb_device *d);

/* Checks a real device for use (the caller has checked --destroy-data-on names it): the
 * rules every command shares (core/devguard.h: not mounted, not swap, no holders, not
 * claimed, no loop twin in use), and not open in any other process. Fills d (path,
 * size, model, signature as libblkid names it). 0, or -EBUSY / -ENOTBLK / -errno with
 * one line in err. */
int sb_real_device_check(const char *path, sb_device *d, char *err, size_t errlen);

#endif
