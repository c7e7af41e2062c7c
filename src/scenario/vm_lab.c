/*
 * vm_lab — the host's side of `scenario run --vm --vm-time virtual`, the device
 * lab (docs/scenarios.md, "Virtual time"): what the guest is told to serve itself,
 * and how much memory that takes (which clock a guest runs on is vm.c's).
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
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "core/units.h"
#include "scenario/lab_dilate.h"
#include "scenario/vm_guest.h"

const char *sb_vm_lab_spec(const sb_scn_device *d) { return d->model[0] ? d->model : "ram"; }

const char *sb_vm_lab_refusal(const sb_scn_device *d)
{
    if (d->model[0] || (sb_scn_device_iops(d) == 0 && sb_scn_device_bps(d) == 0))
        return NULL;
    return "device-iops and device-bandwidth are QEMU's throttling, timed on the host's clock: under "
           "--vm-time virtual give the device a device-model, or use --vm-time host";
}

/* What the guest's kernel, its tmpfs and storbench take beside the disks (*assumed*: the
 * guests here ran dd and fio in 1 GiB beside 256 MiB disks). */
#define GUEST_OWN (384ull << 20)

uint64_t sb_vm_lab_guest_memory(unsigned devices, uint64_t image_size)
{
    uint64_t need = (uint64_t)devices * image_size + GUEST_OWN;
    need = (need + (1u << 20) - 1) & ~((1ull << 20) - 1); /* QEMU's -m is in MiB */
    return need > (1ull << 30) ? need : 1ull << 30;
}

void sb_vm_lab_memory_check(const sb_scenario *s, uint64_t image_size, uint64_t memory)
{
    unsigned most = 0;
    for (size_t i = 0; i < s->n; i++)
        most = s->configs[i].devices > most ? s->configs[i].devices : most;
    if ((uint64_t)most * image_size + GUEST_OWN <= memory)
        return;
    char disks[32], mem[32];
    sb_format_iec(disks, sizeof disks, (double)most * (double)image_size, "B");
    sb_format_iec(mem, sizeof mem, (double)memory, "B");
    sb_warn("scenario: --vm-time virtual keeps the disks' data in guest RAM: %u disk%s of --image-size make %s, "
            "more than --vm-memory %s less 384 MiB; a test that writes them full runs the guest out of memory",
            most, most == 1 ? "" : "s", disks, mem);
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

int sb_vm_lab_write_dilate(const char *xchg, unsigned k, char *err, size_t errlen)
{
    if (k <= 1) /* nothing added: the guest runs as without --vm-dilate, to the byte */
        return 0;
    /* A line after the devices' in the lab file, which the initrd carries (vm_labinit.c). */
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/" SB_VM_LAB_FILE, xchg);
    FILE *f = fopen(path, "ae");
    bool bad = !f || fprintf(f, SB_LAB_DILATE_LINE " %u\n", k) < 0;
    if ((f && fclose(f) != 0) || bad) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
        return -EIO;
    }
    return 0;
}
