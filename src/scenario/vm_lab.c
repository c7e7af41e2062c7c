/*
 * vm_lab — the host's side of `scenario run --vm --vm-time virtual`, the device
 * lab (docs/scenarios.md, "Virtual time"): which clock a guest runs on, and what
 * the guest is told to serve itself.
 *
 * Under virtual time QEMU counts instructions (-icount shift=0,sleep=off: the
 * guest's clocks advance 1 ns per instruction, and jump to the next guest timer
 * when every vCPU is idle; QEMU 7.2's manual describes sleep=on and sleep=off
 * the other way round, its code in softmmu/icount.c does this). A request
 * answered by anything on the host then completes at a virtual time that depends
 * on the host's speed, so the guest gets no disks from QEMU at all: each device
 * is served inside the guest (lab_nbd.h) by its model, or by the `ram` model when
 * it has none (an unthrottled disk, or device-class ram). QEMU's throttling
 * (device-iops, device-bandwidth) runs on the host's clock and is refused.
 */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "scenario/vm.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "scenario/vm_guest.h"

void sb_vm_resolve_time(sb_vm_opts *o)
{
    if (o->time != SB_VM_TIME_AUTO)
        return;
    bool tcg = o->accel == SB_VM_ACCEL_TCG;
    if (o->accel == SB_VM_ACCEL_AUTO) {
        int fd = open(sb_vm_kvm_device(), O_RDWR | O_CLOEXEC);
        tcg = fd < 0;
        if (fd >= 0)
            close(fd);
    }
    o->time = tcg ? SB_VM_TIME_VIRTUAL : SB_VM_TIME_HOST;
}

const char *sb_vm_lab_spec(const sb_scn_device *d) { return d->model[0] ? d->model : "ram"; }

const char *sb_vm_lab_refusal(const sb_scn_device *d)
{
    if (d->model[0] || (sb_scn_device_iops(d) == 0 && sb_scn_device_bps(d) == 0))
        return NULL;
    return "device-iops and device-bandwidth are QEMU's throttling, timed on the host's clock: under "
           "--vm-time virtual give the device a device-model, or use --vm-time host";
}

int sb_vm_lab_write(const char *xchg, const sb_scn_config *c, uint64_t size, char *err, size_t errlen)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/" SB_VM_LAB_FILE, xchg);
    FILE *f = fopen(path, "wxe");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -errno;
    }
    for (unsigned i = 0; i < c->devices; i++)
        fprintf(f, "%s %llu\n", sb_vm_lab_spec(&c->dev[i]), (unsigned long long)size);
    int rc = ferror(f) ? -EIO : 0;
    if (fclose(f) != 0 || rc < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
        return -EIO;
    }
    return 0;
}
