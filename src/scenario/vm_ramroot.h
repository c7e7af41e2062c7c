/*
 * vm_ramroot — what a virtual-time guest runs from its own RAM: the list of the
 * host's files (storbench's shared libraries, the tools a configuration runs, the
 * data files they and the tests read) that vm_labinit packs into the guest's
 * initramfs under /lab, where storbench runs chrooted, so that nothing from the
 * guest's boot to the last test waits for the host (docs/scenarios.md, "Virtual
 * time"). Each entry is one line, fields separated by tabs:
 *
 *   L <TAB> PATH <TAB> TARGET   a symbolic link met on the way to a file (/lib -> usr/lib)
 *   F <TAB> PATH                a regular file, PATH free of symbolic links
 *
 * in an order that can be replayed with mkdir -p, ln -s and cp.
 */
#ifndef SB_SCENARIO_VM_RAMROOT_H
#define SB_SCENARIO_VM_RAMROOT_H

#include <stddef.h>
#include <stdint.h>

#include "scenario/scenario.h"

typedef struct sb_vm_ramroot {
    char **line;   /* "L\tPATH\tTARGET" or "F\tPATH", no repeats */
    size_t n, cap;
    uint64_t bytes; /* the regular files' sizes together */
} sb_vm_ramroot;

void sb_vm_ramroot_free(sb_vm_ramroot *r);
/* Adds path as the guest must see it: every symbolic link on the way (each an L line),
 * then the regular file it ends at. 0, or -errno (-EINVAL for a path with a tab or a
 * newline, -ELOOP, -EISDIR for what is not a regular file). */
int sb_vm_ramroot_add(sb_vm_ramroot *r, const char *path);
/* Adds the ELF program at path and the shared libraries ldd finds for it. 0 or -errno
 * with err. */
int sb_vm_ramroot_add_program(sb_vm_ramroot *r, const char *path, char *err, size_t errlen);
/* The list for configuration c: exe's libraries (exe itself is packed on its own), the
 * tools c's layout runs (mkfs, make-bcache, mdadm), /bin/sh, and the data files those and
 * the tests read where the host has them (ld.so.cache, os-release, mke2fs.conf, pci.ids,
 * dbench's loadfile ...). 0 or -errno with err. */
int sb_vm_ramroot_for(sb_vm_ramroot *r, const sb_scn_config *c, const char *exe, char *err, size_t errlen);

#endif
