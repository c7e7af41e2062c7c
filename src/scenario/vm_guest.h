/*
 * vm_guest — the guest's side of `scenario run --vm`: `storbench scenario
 * vm-guest DIR` (run by the guest's guest.sh, never by hand) reads the
 * arguments the host left in DIR/args, finds the emulated disks the host
 * attached (SCSI targets 0, 1 ... in the host's order, whatever names the
 * guest's kernel gave them) and runs `scenario run` on them. Under virtual time
 * (DIR/lab, written by the host: one "SPEC SIZE" line per device) there are no
 * emulated disks: each device is a modeled disk served in the guest itself
 * (lab_nbd.h), /dev/nbd0, /dev/nbd1 ... in the host's order. With --vm-dilate K
 * a line "dilate K" follows the devices' (lab_dilate.h): the models run K times
 * slower and the guest's writeback timers are stretched by K.
 */
#ifndef SB_SCENARIO_VM_GUEST_H
#define SB_SCENARIO_VM_GUEST_H

#include <stddef.h>

#include "scenario/lab_nbd.h"
#include "scenario/scenario.h"

/* What the file name of the virtual-time device list is, in the exchange directory. */
#define SB_VM_LAB_FILE "lab"

/* The disks a virtual-time guest serves itself (none when n is 0). */
typedef struct sb_vm_guest_lab {
    sb_lab_nbd *disk[SB_SCN_MAX_DEVICES];
    unsigned n;
    unsigned dilate;  /* --vm-dilate K from DIR/dilate (lab_dilate.h), 1 without it */
} sb_vm_guest_lab;

/* The argument vector for `scenario run` in the guest: DIR/args (NUL-separated) followed by
 * --devices and --destroy-data-on naming the DIR/ndevices disks, waited for up to
 * wait_s seconds, or, under virtual time, the disks attached here into *lab (whatever
 * the outcome, the caller ends it with sb_vm_guest_lab_end). *argv (NULL-ended) and its
 * strings are malloc'd: free with sb_vm_guest_free. 0 or -errno with one line in err. */
int sb_vm_guest_args(const char *dir, unsigned wait_s, char ***argv, int *argc, sb_vm_guest_lab *lab, char *err,
                     size_t errlen);
/* Detaches the disks a virtual-time guest served, printing what each served on stdout (the
 * guest's console: "lab: nbd0 ssd-850evo: 1234 requests, 0 idle wake-ups"). */
void sb_vm_guest_lab_end(sb_vm_guest_lab *lab);
void sb_vm_guest_free(char **argv, int argc);
/* The block device (sda ...) of SCSI target `target` on host adapter 0, from sysfs under
 * sys_block ("/sys/block"); 0 or -ENOENT. */
int sb_vm_guest_disk(const char *sys_block, unsigned target, char *name, size_t len);

#endif
