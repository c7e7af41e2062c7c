/*
 * vm_kernel — the kernel a `scenario run --vm` guest boots: Debian's newest
 * linux-image-*-amd64, downloaded once with `apt-get download` into a cache
 * directory, checked, unpacked with `dpkg-deb -x` (never installed into
 * /boot) and indexed with `depmod -b`; or a kernel tree the user names with
 * --vm-kernel DIR (DIR/boot/vmlinuz-VERSION and DIR/lib/modules/VERSION).
 */
#ifndef SB_SCENARIO_VM_KERNEL_H
#define SB_SCENARIO_VM_KERNEL_H

#include <stddef.h>
#include <stdio.h>

typedef struct sb_vm_kernel {
    char root[4096];     /* the tree: root/boot/vmlinuz-V, root/lib/modules/V */
    char version[128];   /* V, as uname -r will say in the guest */
    char vmlinuz[4096];
    char source[512];    /* "Debian linux-image-6.1.0-57-amd64 6.1.192-3" or "kernel tree DIR" */
} sb_vm_kernel;

/* $XDG_CACHE_HOME/storbench/vm, else ~/.cache/storbench/vm. 0 or -ENOENT (neither set). */
int sb_vm_cache_dir(char *out, size_t len);
/* A tree of the user's (--vm-kernel DIR): finds the one VERSION with both a vmlinuz and a
 * module directory; runs depmod -b when the tree has no modules.dep. 0 or -errno, one
 * line in err. */
int sb_vm_kernel_tree(const char *dir, sb_vm_kernel *k, char *err, size_t errlen);
/* Debian's newest kernel package, from the cache or downloaded into it (progress on log,
 * may be NULL). 0 or -errno, one line in err. */
/* The start of `modprobe --show-depends` over this tree's modules: fills argv[0..6] with
 * "modprobe -d ROOT -S VERSION -a --show-depends" and returns 7; the caller appends the
 * module names and the NULL. */
size_t sb_vm_kernel_modprobe_argv(const sb_vm_kernel *k, char **argv);

int sb_vm_kernel_debian(const char *cache, sb_vm_kernel *k, FILE *log, char *err, size_t errlen);

#endif
