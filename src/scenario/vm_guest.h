/*
 * vm_guest — the guest's side of `scenario run --vm`: `storbench scenario
 * vm-guest DIR` (run by the guest's guest.sh, never by hand) reads the
 * arguments the host left in DIR/args, finds the emulated disks the host
 * attached (SCSI targets 0, 1 ... in the host's order, whatever names the
 * guest's kernel gave them) and runs `scenario run` on them.
 */
#ifndef SB_SCENARIO_VM_GUEST_H
#define SB_SCENARIO_VM_GUEST_H

#include <stddef.h>

/* The argument vector for `scenario run` in the guest: DIR/args (NUL-separated) followed by
 * --devices and --destroy-data-on naming the DIR/ndevices disks, waited for up to
 * wait_s seconds. *argv (NULL-ended) and its strings are malloc'd: free with
 * sb_vm_guest_free. 0 or -errno with one line in err. */
int sb_vm_guest_args(const char *dir, unsigned wait_s, char ***argv, int *argc, char *err, size_t errlen);
void sb_vm_guest_free(char **argv, int argc);
/* The block device (sda ...) of SCSI target `target` on host adapter 0, from sysfs under
 * sys_block ("/sys/block"); 0 or -ENOENT. */
int sb_vm_guest_disk(const char *sys_block, unsigned target, char *name, size_t len);

#endif
