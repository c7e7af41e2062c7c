/*
 * vm — `scenario run --vm`: each configuration is built and measured inside a
 * fresh throwaway QEMU guest (docs/scenarios.md, "In a virtual machine").
 * The guest boots a kernel from vm_kernel with vm_image's initramfs, sees the
 * host's root read-only over 9p and a per-configuration exchange directory
 * read-write, and runs this same storbench binary (`scenario vm-guest`) on
 * emulated SCSI disks whose character (throttling, rotational flag, discard)
 * comes from the configuration's device classes, or, for a device with a
 * `device-model`, from storbench's device model in front of the disk's image
 * in an nbdkit the guest's disk is attached to (vm_nbd.h). The guest's result file
 * comes back through the exchange directory and is marked with the VM's
 * kernel, accelerator and device emulation before the caller saves it.
 *
 * Nothing is mounted or attached on the host: the disks are image files in a
 * private directory (removed after each configuration, on Ctrl-C, and by the
 * next run after a crash), QEMU is killed on Ctrl-C/SIGTERM and dies with
 * storbench (PR_SET_PDEATHSIG); so does a modeled disk's nbdkit, which is also
 * journaled for `scenario cleanup` and the next run.
 */
#ifndef SB_SCENARIO_VM_H
#define SB_SCENARIO_VM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/result.h"
#include "scenario/scenario.h"
#include "scenario/state.h"
#include "scenario/vm_kernel.h"
#include "scenario/vm_nbd.h"

#define SB_VM_QEMU "qemu-system-x86_64"
#define SB_VM_KVM_DEVICE "/dev/kvm"

/* The QEMU to run: $STORBENCH_QEMU (a name looked up in PATH, or a path) when set, else
 * SB_VM_QEMU. The KVM device `auto` opens to decide whether to try KVM:
 * $STORBENCH_KVM_DEVICE when set, else SB_VM_KVM_DEVICE. (docs/scenarios.md; the tests
 * use both to play a host whose QEMU aborts under KVM.) */
const char *sb_vm_qemu(void);
const char *sb_vm_kvm_device(void);

typedef enum sb_vm_accel {
    SB_VM_ACCEL_AUTO = 0, /* KVM when /dev/kvm opens and its first guest runs, else TCG */
    SB_VM_ACCEL_KVM,
    SB_VM_ACCEL_TCG,
} sb_vm_accel;

/* Whose clock a guest's figures are timed on (docs/scenarios.md, "Virtual time"). */
typedef enum sb_vm_time {
    SB_VM_TIME_AUTO = 0, /* host under KVM; virtual if KVM fails and TCG runs (vm.c, per configuration) */
    SB_VM_TIME_VIRTUAL,  /* -icount shift=SB_VM_ICOUNT_SHIFT,sleep=off; the disks' models in the guest */
    SB_VM_TIME_HOST,     /* the host's: modeled disks in an nbdkit on the host */
} sb_vm_time;

/* QEMU's icount shift under virtual time: one guest instruction is 2^shift ns, so 0 makes
 * the fastest virtual CPU QEMU 7.2 can count exactly (10^9 instructions a second). */
#define SB_VM_ICOUNT_SHIFT 0
/* Under virtual time the guest's RTC starts here in every run (QEMU's -rtc base=), and the
 * result is stamped with the host's time afterwards. */
#define SB_VM_LAB_DATE "2026-01-01T00:00:00"

typedef struct sb_vm_opts {
    const char *kernel_dir;  /* --vm-kernel DIR, or NULL for Debian's package */
    sb_vm_accel accel;
    unsigned cpus;           /* 0: 1 in virtual time, else 2 */
    uint64_t memory;         /* bytes; 0: in virtual time room for the disks (sb_vm_lab_guest_memory), else 1 GiB */
    unsigned kvm_timeout;    /* seconds until a KVM guest that said nothing is given up */
    unsigned boot_timeout;   /* seconds until any other guest whose init said nothing is booted again */
    sb_vm_time time;         /* --vm-time; AUTO until sb_vm_resolve_time() */
    bool exact;              /* --vm-exact: a virtual-time guest spins when idle (idle=poll) */
    unsigned dilate;         /* --vm-dilate K (lab_dilate.h): model delays xK, figures back; 1 = none */
    bool dilate_set;         /* --vm-dilate was given */
} sb_vm_opts;

/* Settles --vm-time's default where it can before anything is planned: virtual when the
 * guest will run under TCG (--vm-accel tcg, or auto where the KVM device does not open),
 * host with --vm-accel kvm; under auto where the KVM device opens it stays AUTO: host time
 * while KVM works, virtual for each configuration that allows it once KVM has failed. */
void sb_vm_resolve_time(sb_vm_opts *o);

typedef struct sb_vm {
    sb_vm_opts o;
    sb_vm_kernel kernel;
    char workdir[4096];      /* private: initramfs, per configuration its disks and exchange */
    char initramfs[4096];
    char lab_initrd[4096];   /* a virtual-time configuration's: initramfs + its own input (vm_labinit.h) */
    char exe[4096];          /* this storbench (bound into the guest at SB_VM_GUEST_EXE) */
    char qemu_version[128];
    sb_vm_accel accel;       /* AUTO until the first guest showed whether KVM works */
    bool kvm_failed;         /* under auto, a KVM guest failed: the rest runs under TCG */
    char accel_why[512];     /* why the accelerator is the one it is (the page's "VM Accelerator") */
    sb_state *st;            /* the run's journal (the nbdkit of modeled disks), or NULL */
    bool lab;                /* this configuration's guest runs in virtual time (vm_lab.c) */
    unsigned guest_cpus;     /* this configuration's guest: vCPUs and memory (bytes) */
    uint64_t guest_memory;
} sb_vm;

/* One emulated disk of a guest. */
typedef struct sb_vm_disk {
    char image[4096];
    sb_scn_device dev;
    bool direct;             /* the host file allows O_DIRECT: QEMU's cache=none */
    sb_vm_nbd nbd;           /* a device-model: the nbdkit that serves the image (vm_nbd.h) */
} sb_vm_disk;

/* Checks QEMU, gets the kernel (downloading it into the cache when needed), builds the
 * initramfs in a private directory under images. 0 or -errno with one line in err. */
int sb_vm_prepare(sb_vm *vm, const sb_vm_opts *o, const char *images, char *err, size_t errlen);
/* Removes the private directory. */
void sb_vm_close(sb_vm *vm);

/* Builds and measures configuration c in a fresh guest. guest_args are the `scenario run`
 * options for the guest (suites, -o, -n ...); the file is copied. The guest's figures and
 * system entry land in fresh. 0, -EINTR, or -errno with one line in err. */
int sb_vm_run_config(sb_vm *vm, const sb_scn_config *c, size_t index, const char *scenario_file,
                     char *const *guest_args, size_t n_guest_args, uint64_t image_size, sb_resultfile *fresh,
                     char *err, size_t errlen);

/* QEMU's argument vector for a guest (argv strings in buf, pointers in argv, NULL-ended).
 * Returns the number of arguments, or -ENOSPC. */
int sb_vm_qemu_argv(const sb_vm *vm, sb_vm_accel accel, const char *xchg, const sb_vm_disk *disks, size_t n,
                    char **argv, size_t max_args, char *buf, size_t buflen);
/* vm_lab.c, virtual time's host side. The model spec a device is served by in the guest:
 * its device-model, else "ram" (an unthrottled or RAM disk answers at once). */
const char *sb_vm_lab_spec(const sb_scn_device *d);
/* Writes xchg/lab (vm_guest.h): one "SPEC SIZE" line per device of c. 0 or -errno, err. */
int sb_vm_lab_write(const char *xchg, const sb_scn_config *c, uint64_t size, char *err, size_t errlen);
/* --vm-dilate K > 1: adds a line "dilate K" to xchg/lab (lab_dilate.h); nothing for 1. 0 or -errno, err. */
int sb_vm_lab_write_dilate(const char *xchg, unsigned k, char *err, size_t errlen);
/* Why a device cannot be served in a virtual-time guest (QEMU's throttling runs on the
 * host's clock), or NULL when it can. */
const char *sb_vm_lab_refusal(const sb_scn_device *d);
/* The disks' data lives in guest RAM: a guest in virtual time whose --vm-memory is not given
 * gets room for its devices written full and what its system needs, 1 GiB at least (QEMU
 * takes host memory only as the guest writes it). */
uint64_t sb_vm_lab_guest_memory(unsigned devices, uint64_t image_size);
/* --vm-memory given under virtual time: one warning when some configuration's devices need
 * more (writing them full would run the guest out of memory). */
void sb_vm_lab_memory_check(const sb_scenario *s, uint64_t image_size, uint64_t memory);
/* "SSD-like, unthrottled, non-rotational" / "HDD-like, 180 IOPS, 150 MB/s, rotational" /
 * "modeled hdd-hua723020 (nbdkit), rotational"; under virtual time (lab) "modeled
 * hdd-hua723020 (in the guest, virtual time), rotational", "ram (in the guest, ...)". */
void sb_vm_describe_device(const sb_scn_device *d, bool lab, char *out, size_t len);
/* Whether a guest can be started here (QEMU, busybox-static, kmod); -ENOTSUP and why. */
int sb_vm_available(char *why, size_t whylen);

#endif
