/*
 * block — the disks (block.c): here, the model of one whole disk, which the
 * storage stack (stack.c) names for the target's device.
 */
#ifndef SB_SYSINFO_BLOCK_H
#define SB_SYSINFO_BLOCK_H

/* The model of a whole disk's root-relative sysfs directory, NULL when none. Caller frees. */
char *si_disk_model(const char *root, const char *diskdir);

#endif
