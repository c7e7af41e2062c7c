/*
 * vm_labinit — a virtual-time guest's whole input in its initramfs. Under QEMU's
 * instruction counting with sleep=off, every wait for the host (a 9p read of a module,
 * a library, the RAM root's files) ends at a virtual time and at an instruction that
 * depend on the host's speed, and the guest's clock jumps from timer to timer while it
 * waits; the boot then leaves the kernel in a different state in every run (its
 * threads' interleaving, the slab caches, the timers' phases, the entropy pool), and a
 * test whose clients share the vCPU (Dbench's six) amplifies the difference. So a
 * virtual-time guest boots with a second cpio archive after vm_image's: the RAM root
 * (vm_ramroot.h) under /lab, storbench and its inputs under /labin, the
 * configuration's modules with their dependencies under /labmods, and /lab.sh, which
 * /init runs before it would mount anything over 9p. From the first instruction to
 * storbench's end nothing waits for the host; lab.sh mounts the exchange directory
 * only afterwards, to hand the result back.
 */
#ifndef SB_SCENARIO_VM_LABINIT_H
#define SB_SCENARIO_VM_LABINIT_H

#include <stddef.h>

#include "scenario/scenario.h"
#include "scenario/vm_kernel.h"

/* What lab.sh runs (src/scenario/vm_labinit.c); exposed for the unit test. */
extern const char sb_vm_lab_script[];

/* Writes out (a new file): the initramfs at base, then the archive above for
 * configuration c: modules is the configuration's module list ("virtio_scsi sd_mod
 * btrfs nbd", resolved with the kernel tree k's modprobe --show-depends, in load
 * order), xchg holds the inputs (scenario.ini, args, ndevices, lab), exe is this
 * storbench. 0 or -errno with one line in err (and no file left). */
int sb_vm_lab_initrd(const char *out, const char *base, const sb_vm_kernel *k, const char *modules,
                     const char *xchg, const char *exe, const sb_scn_config *c, char *err, size_t errlen);

#endif
