/*
 * scenario_vm — `storbench scenario run --vm` and `check --vm` options and
 * what check prints about guests (see scenario_vm.h; the driver is
 * scenario/vm.c, what can be built in a guest scenario/plan.c; the guest's
 * internal `scenario vm-guest DIR` is scenario.c's).
 */
#include "cli/scenario_vm.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/common.h"
#include "core/log.h"
#include "core/units.h"
#include "scenario/lab_dilate.h"
#include "scenario/vm_kernel.h"
#include "scenario/vm_nbd.h"

const char sb_scenario_vm_help[] =
    "      --vm                   build and measure each configuration in a fresh QEMU guest\n"
    "                             with emulated disks (device-class; device-model: served\n"
    "                             by nbdkit with storbench's device model); no root needed\n"
    "      --vm-kernel DIR        the guest's kernel tree (DIR/boot/vmlinuz-V, DIR/lib/modules/V)\n"
    "                             (default: Debian's newest, downloaded once into the cache)\n"
    "      --vm-accel auto|kvm|tcg  accelerator (default auto: KVM if it works, else TCG)\n"
    "      --vm-cpus N            guest processors (default 2; 1, and only 1, under virtual time)\n"
    "      --vm-memory SIZE       guest memory (default 1G; under virtual time the disks' size\n"
    "                             and 384M more, at least 1G)\n"
    "      --vm-kvm-timeout S     seconds a KVM guest may stay silent before TCG is used (default 20)\n"
    "      --vm-boot-timeout S    seconds a guest may stay silent before it is booted again, once (default 300)\n"
    "      --vm-time virtual|host the guest's figures on its virtual clock (QEMU's icount, the disks'\n"
    "                             models inside the guest) or on the host's (default: virtual\n"
    "                             under TCG, host under KVM)\n"
    "      --vm-exact             virtual time: the guest never halts (idle=poll), so a run repeats\n"
    "                             itself to the instruction; its idle virtual time then costs host\n"
    "                             time (about 30 s a virtual second here), so it is not the default\n"
    "      --vm-dilate K          virtual time: every device model delay xK in the guest (a vCPU K times\n"
    "                             faster against the disks), the tests' durations and the guest's\n"
    "                             timers xK, the figures scaled back to the model's time (1 to 16;\n"
    "                             default 1: none); fio, sqlite, dd, fs-mark and dbench only\n";

void sb_scenario_vm_defaults(sb_vm_opts *o)
{
    /* cpus, memory 0: not given; each guest's depend on its clock and disks (scenario/vm.c). */
    *o = (sb_vm_opts){.accel = SB_VM_ACCEL_AUTO, .cpus = 0, .memory = 0, .kvm_timeout = 20,
                    .boot_timeout = 300, .dilate = 1};
}

int sb_scenario_vm_option(int c, const char *arg, bool *vm, sb_vm_opts *o)
{
    uint64_t v;
    switch (c) {
    case SB_OPT_VM: *vm = true; return 0;
    case SB_OPT_VM_KERNEL: o->kernel_dir = arg; return 0;
    case SB_OPT_VM_ACCEL:
        if (!strcmp(arg, "auto"))
            o->accel = SB_VM_ACCEL_AUTO;
        else if (!strcmp(arg, "kvm"))
            o->accel = SB_VM_ACCEL_KVM;
        else if (!strcmp(arg, "tcg"))
            o->accel = SB_VM_ACCEL_TCG;
        else
            return sb_usage_error("scenario", "--vm-accel '%s': auto, kvm or tcg", arg);
        return 0;
    case SB_OPT_VM_CPUS:
        if (sb_parse_uint(arg, 1, 64, &v) < 0)
            return sb_usage_error("scenario", "--vm-cpus '%s': a whole number from 1 to 64", arg);
        o->cpus = (unsigned)v;
        return 0;
    case SB_OPT_VM_MEMORY:
        if (sb_parse_size(arg, &v) < 0 || v < (256u << 20) || v > (256ull << 30))
            return sb_usage_error("scenario", "--vm-memory '%s': a size from 256M to 256G", arg);
        o->memory = v;
        return 0;
    case SB_OPT_VM_KVM_TIMEOUT:
        if (sb_parse_uint(arg, 1, 3600, &v) < 0)
            return sb_usage_error("scenario", "--vm-kvm-timeout '%s': seconds, 1 to 3600", arg);
        o->kvm_timeout = (unsigned)v;
        return 0;
    case SB_OPT_VM_TIME:
        if (!strcmp(arg, "virtual"))
            o->time = SB_VM_TIME_VIRTUAL;
        else if (!strcmp(arg, "host"))
            o->time = SB_VM_TIME_HOST;
        else
            return sb_usage_error("scenario", "--vm-time '%s': virtual or host", arg);
        return 0;
    case SB_OPT_VM_EXACT: o->exact = true; return 0;
    case SB_OPT_VM_DILATE:
        if (sb_parse_uint(arg, 1, SB_LAB_DILATE_MAX, &v) < 0)
            return sb_usage_error("scenario", "--vm-dilate '%s': a whole number from 1 to %d", arg, SB_LAB_DILATE_MAX);
        o->dilate = (unsigned)v;
        o->dilate_set = true;
        return 0;
    case SB_OPT_VM_BOOT_TIMEOUT:
        if (sb_parse_uint(arg, 1, 3600, &v) < 0)
            return sb_usage_error("scenario", "--vm-boot-timeout '%s': seconds, 1 to 3600", arg);
        o->boot_timeout = (unsigned)v;
        return 0;
    }
    return sb_usage_error("scenario", "internal: unknown VM option");
}

int sb_scenario_vm_settle(sb_vm_opts *o)
{
    if (o->time == SB_VM_TIME_VIRTUAL && o->accel == SB_VM_ACCEL_KVM)
        return sb_usage_error("scenario", "--vm-time virtual runs under TCG only (QEMU's icount): not with "
                              "--vm-accel kvm");
    sb_vm_resolve_time(o);
    if (o->exact && o->time == SB_VM_TIME_HOST)
        return sb_usage_error("scenario", "--vm-exact is for virtual time (--vm-time virtual, under TCG)");
    if (o->dilate_set && o->time != SB_VM_TIME_VIRTUAL)
        return sb_usage_error("scenario", "--vm-dilate stretches the lab's virtual time: give --vm-time virtual "
                              "(or --vm-accel tcg)");
    /* QEMU 7.2 under -icount sleep=off never brings a second vCPU up here: the guest's
     * kernel stops at "Booting SMP configuration" (tried: 2 vCPUs, 90 s, twice). */
    if (o->time == SB_VM_TIME_VIRTUAL && o->cpus > 1)
        return sb_usage_error("scenario", "--vm-cpus %u: a guest in virtual time has 1 vCPU (QEMU 7.2's icount "
                              "hangs bringing up a second); use --vm-time host for more", o->cpus);
    return 0;
}

void sb_scenario_vm_plan(const sb_scn_config *c, bool lab)
{
    for (unsigned i = 0; i < c->devices; i++) {
        char d[256];
        sb_vm_describe_device(&c->dev[i], lab, d, sizeof d);
        printf("    device %u: %s\n", i + 1, d);
    }
}

void sb_scenario_vm_plan_footer(const sb_vm_opts *o)
{
    char why[512], cache[4096];
    if (sb_vm_available(why, sizeof why) < 0)
        printf("Guests cannot be started here: %s\n", why);
    if (o->kernel_dir) {
        sb_vm_kernel k;
        if (sb_vm_kernel_tree(o->kernel_dir, &k, why, sizeof why) == 0)
            printf("Guest kernel: %s (%s)\n", k.version, k.source);
        else
            printf("Guest kernel: %s\n", why);
    } else if (sb_vm_cache_dir(cache, sizeof cache) == 0) {
        /* What is cached already (a newer package in the archive is downloaded next to it). */
        char have[1024] = "";
        DIR *d = opendir(cache);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            char mark[8192];
            snprintf(mark, sizeof mark, "%s/%s/.complete", cache, e->d_name);
            if (e->d_name[0] != '.' && access(mark, F_OK) == 0)
                snprintf(have + strlen(have), sizeof have - strlen(have), "%s%s", have[0] ? ", " : "", e->d_name);
        }
        if (d)
            closedir(d);
        printf("Guest kernel: Debian's newest linux-image-*-amd64, kept in %s (%s%s)\n", cache,
               have[0] ? "cached: " : "downloaded on first use", have);
    }
}
