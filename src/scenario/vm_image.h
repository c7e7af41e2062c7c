/*
 * vm_image — what the guest boots besides its kernel: a small initramfs
 * (busybox-static, the virtio PCI and 9p modules of the guest's kernel, and an
 * /init that mounts the host's root read-only over 9p and the run's exchange
 * directory read-write, then runs the exchange directory's guest.sh; under
 * virtual time it runs the lab.sh of a second archive first, vm_labinit.h),
 * the cpio writer both use, and guest.sh itself, written per configuration:
 * tmpfs over /tmp, /run and /root, the modules that configuration needs, and
 * storbench, chrooted into the host's root, with `scenario vm-guest`.
 */
#ifndef SB_SCENARIO_VM_IMAGE_H
#define SB_SCENARIO_VM_IMAGE_H

#include <stddef.h>
#include <stdio.h>

#include "scenario/scenario.h"
#include "scenario/vm_kernel.h"

/* What the guest's console says when /init starts, and where xchg goes in the guest. */
#define SB_VM_UP_MARKER "storbench-vm: up"
#define SB_VM_GUEST_XCHG "/run/storbench-vm"
/* Where the guest sees the kernel tree and storbench (bound there: they may be under /root). */
#define SB_VM_GUEST_KERNEL "/run/storbench-vm-kernel"
#define SB_VM_GUEST_EXE "/run/storbench-vm-exe"
/* Where Debian's busybox-static puts its binary. */
#define SB_VM_BUSYBOX "/bin/busybox"

/* Whether path is a statically linked ELF executable (no program interpreter). 0, or
 * -ENOEXEC / -errno with one line in err. */
int sb_vm_check_static(const char *path, char *err, size_t errlen);
/* The module files (in load order, no repeats) that `modprobe --show-depends` names in
 * text ("insmod PATH" lines; built-in ones are skipped). Returns how many (at most max),
 * each a malloc'd string in out. */
size_t sb_vm_parse_depends(const char *text, char **out, size_t max);
/* A cpio "newc" archive being written to f (the initramfs format), ino the next inode. */
typedef struct sb_vm_cpio {
    FILE *f;
    unsigned ino;
} sb_vm_cpio;
/* An entry of len bytes of data (a directory, device or link: mode says which). */
void sb_vm_cpio_entry(sb_vm_cpio *c, const char *name, unsigned mode, unsigned rmaj, unsigned rmin,
                      const void *data, size_t len);
/* An entry's header alone, its len bytes of data to follow, then sb_vm_cpio_pad(c, len). */
void sb_vm_cpio_header(sb_vm_cpio *c, const char *name, unsigned mode, unsigned rmaj, unsigned rmin, size_t len);
void sb_vm_cpio_pad(sb_vm_cpio *c, size_t len);
/* The host file src as a regular file name of the archive (streamed). 0 or -errno, err. */
int sb_vm_cpio_file(sb_vm_cpio *c, const char *name, const char *src, unsigned mode, char *err, size_t errlen);
/* Writes an initramfs (cpio newc) to path: /init, busybox with modules[0..n) as
 * /mods/NN-NAME.ko in that order. 0 or -errno, one line in err. */
int sb_vm_write_initramfs(const char *path, const char *busybox, char *const *modules, size_t n, char *err,
                          size_t errlen);
/* The initramfs for kernel k: resolves its 9p and virtio modules and writes path. */
int sb_vm_build_initramfs(const sb_vm_kernel *k, const char *path, char *err, size_t errlen);
/* The modules configuration c needs in the guest ("virtio_scsi sd_mod ext4 bcache"). */
void sb_vm_config_modules(const sb_scn_config *c, char *out, size_t len);
/* Writes xchg/guest.sh for one configuration: exe is storbench's path, visible unchanged
 * in the guest through the host root. 0 or -errno, one line in err. */
int sb_vm_write_guest_script(const char *xchg, const sb_vm_kernel *k, const char *exe, const char *modules,
                             char *err, size_t errlen);
/* s in single quotes for sh ('\'' for a quote inside). */
void sb_shell_quote(const char *s, char *out, size_t len);

#endif
