/*
 * sysinfo — the machine and storage stack a run was made on, in the seed
 * pages' vocabulary: Processor, Motherboard, Chipset, Memory, Disk (hardware);
 * OS, Kernel, Compiler, File-System (software); and for the target directory
 * its block device, I/O scheduler, rotational flag, mount options and the
 * CPU frequency governor (storage). Anything unreadable is "Unknown".
 */
#ifndef SB_SYSINFO_H
#define SB_SYSINFO_H

#include "results/result.h"

/* Fills sys->hardware, ->software and ->storage. target may be NULL (no storage part and
 * File-System from "/"). Returns 0; never fails for missing information. */
int sb_sysinfo_collect(sb_system *sys, const char *target);
/* Sets sys->timestamp to now (ISO 8601 UTC) and sys->tool_version to this storbench's. */
void sb_system_stamp(sb_system *sys);

#endif
