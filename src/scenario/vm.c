/*
 * vm — one configuration in a throwaway QEMU guest (see vm.h).
 *
 * Per configuration: a directory cfg-N in the run's private directory holds
 * the disk images and xchg/, the directory shared with the guest (args for
 * `scenario vm-guest`, a copy of the scenario file, guest.sh, and what comes
 * back: result.json and status; under virtual time no guest.sh but the disk list, and
 * beside xchg the initrd that carries it all, vm_labinit.h). QEMU runs in its own process group (so a
 * Ctrl-C reaches storbench, which then kills it), with its console relayed
 * line by line to stdout. Under "auto" the first guest boots with KVM when the
 * KVM device opens, and any failure of that guest before it ran to its end —
 * silence from /init for kvm_timeout seconds (a KVM that hangs, seen on
 * nested setups), QEMU exiting non-zero or killed by a signal (QEMU 7.2
 * aborts on an assertion in kvm.c after "failed to set MSR 0x10a" on some
 * hosts), or QEMU ending before /init spoke — is KVM's: it is said on stderr,
 * the configuration starts again from fresh images, and it and every later
 * guest run under TCG. What ran and why is recorded ("VM Accelerator").
 * Any other guest (TCG, or KVM asked for) whose /init says nothing for
 * boot_timeout seconds is killed and its configuration started again once from
 * fresh images: a TCG guest's kernel was seen to spin before /init on a loaded
 * 2-core host (both vCPU threads busy, no console line for 19 minutes) where the
 * same guest boots in about 10 s on every other try.
 */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "scenario/vm.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/child.h"
#include "core/clock.h"
#include "core/fileio.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/strutil.h"
#include "core/units.h"
#include "core/workdir.h"
#include "scenario/tool.h"
#include "scenario/vm_image.h"
#include "scenario/lab_dilate.h"
#include "scenario/vm_labinit.h"
#include "sysinfo/sysinfo.h"

#define RAM_DIR "/dev/shm"

static const char *env_or(const char *name, const char *dflt)
{
    const char *v = getenv(name);
    return v && *v ? v : dflt;
}

const char *sb_vm_qemu(void) { return env_or("STORBENCH_QEMU", SB_VM_QEMU); }
const char *sb_vm_kvm_device(void) { return env_or("STORBENCH_KVM_DEVICE", SB_VM_KVM_DEVICE); }

void sb_vm_resolve_time(sb_vm_opts *o)
{
    if (o->time != SB_VM_TIME_AUTO)
        return;
    if (o->accel != SB_VM_ACCEL_AUTO) {
        o->time = o->accel == SB_VM_ACCEL_TCG ? SB_VM_TIME_VIRTUAL : SB_VM_TIME_HOST;
        return;
    }
    int fd = open(sb_vm_kvm_device(), O_RDWR | O_CLOEXEC);
    if (fd < 0)
        o->time = SB_VM_TIME_VIRTUAL;
    else
        close(fd);
}

int sb_vm_available(char *why, size_t whylen)
{
    const char *q = sb_vm_qemu();
    if (strchr(q, '/') ? access(q, X_OK) != 0 : !sb_in_path(q)) {
        if (strcmp(q, SB_VM_QEMU))
            snprintf(why, whylen, "STORBENCH_QEMU=%s cannot be run", q);
        else
            snprintf(why, whylen, "%s is not installed (Debian package qemu-system-x86)", q);
        return -ENOTSUP;
    }
    if (sb_vm_check_static(SB_VM_BUSYBOX, why, whylen) < 0)
        return -ENOTSUP;
    if (!sb_in_path("modprobe") || !sb_in_path("depmod")) {
        snprintf(why, whylen, "modprobe and depmod are not installed (Debian package kmod)");
        return -ENOTSUP;
    }
    return 0;
}

void sb_vm_describe_device(const sb_scn_device *d, bool lab, char *out, size_t len)
{
    if (lab) {
        snprintf(out, len, "modeled %s (in the guest, virtual time%s%s), %s", sb_vm_lab_spec(d),
                 d->class_model ? ", device-class " : "", d->class_model ? sb_dev_class_name(d->cls) : "",
                 sb_vm_nbd_rotational(sb_vm_lab_spec(d)) ? "rotational" : "non-rotational");
        return;
    }
    if (d->model[0]) {
        snprintf(out, len, "modeled %s (nbdkit%s%s), %s", d->model, d->class_model ? ", device-class " : "",
                 d->class_model ? sb_dev_class_name(d->cls) : "",
                 sb_vm_nbd_rotational(d->model) ? "rotational" : "non-rotational");
        return;
    }
    static const char *const like[] = {"SSD-like", "HDD-like", "RAM-backed"};
    uint64_t iops = sb_scn_device_iops(d), bps = sb_scn_device_bps(d);
    char i[48] = "", b[48] = "";
    if (iops)
        snprintf(i, sizeof i, ", %llu IOPS", (unsigned long long)iops);
    if (bps) {
        char s[32];
        sb_format_si(s, sizeof s, (double)bps, "B/s");
        snprintf(b, sizeof b, ", %s", s);
    }
    snprintf(out, len, "%s%s%s%s, %s", like[d->cls], i, b, iops || bps ? "" : ", unthrottled",
             d->cls == SB_DEV_HDD ? "rotational" : "non-rotational");
}

/* QEMU splits option values at commas: a comma in a path is written twice. */
static void qemu_escape(const char *s, char *out, size_t len)
{
    size_t k = 0;
    for (; *s && k + 2 < len; s++) {
        out[k++] = *s;
        if (*s == ',')
            out[k++] = ',';
    }
    out[k] = 0;
}

typedef struct argbuf {
    char **argv;
    size_t n, max;
    char *buf;
    size_t used, len;
    bool full;
} argbuf;

static void arg(argbuf *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void arg(argbuf *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(a->buf + a->used, a->len - a->used, fmt, ap);
    va_end(ap);
    if (w < 0 || (size_t)w >= a->len - a->used || a->n + 1 >= a->max) {
        a->full = true;
        return;
    }
    a->argv[a->n++] = a->buf + a->used;
    a->used += (size_t)w + 1;
}

/* A modeled disk: the image behind nbdkit's socket (the model's write cache and flush are
 * the disk's, so QEMU's cache is writeback: the guest sees a volatile cache and flushes),
 * no throttling, rotational and without discard when the model is a disk. */
static void modeled_drive(argbuf *a, const sb_vm_disk *disk, size_t i)
{
    char e[PATH_MAX * 2];
    bool hdd = sb_vm_nbd_rotational(disk->dev.model);
    qemu_escape(disk->nbd.sock, e, sizeof e);
    arg(a, "-drive");
    arg(a, "if=none,id=d%zu,format=raw,file.driver=nbd,file.server.type=unix,file.server.path=%s,"
        "cache=writeback,discard=%s", i, e, hdd ? "ignore" : "unmap");
    arg(a, "-device");
    arg(a, "scsi-hd,drive=d%zu,bus=scsi0.0,channel=0,scsi-id=%zu,lun=0,rotation_rate=%u,"
        "product=Modeled %s,serial=storbench%zu", i, i, hdd ? 7200u : 1u, hdd ? "HDD" : "SSD", i);
}

int sb_vm_qemu_argv(const sb_vm *vm, sb_vm_accel accel, const char *xchg, const sb_vm_disk *disks, size_t n,
                    char **argv, size_t max_args, char *buf, size_t buflen)
{
    argbuf a = {.argv = argv, .max = max_args, .buf = buf, .len = buflen};
    char e1[PATH_MAX * 2], e2[PATH_MAX * 2];
    arg(&a, "%s", sb_vm_qemu());
    arg(&a, "-nodefaults"), arg(&a, "-no-user-config"), arg(&a, "-display"), arg(&a, "none");
    arg(&a, "-no-reboot"), arg(&a, "-monitor"), arg(&a, "none");
    arg(&a, "-accel"), arg(&a, accel == SB_VM_ACCEL_KVM ? "kvm" : "tcg");
    if (vm->lab) /* vm_lab.c: sleep=off jumps an idle guest's clock */
        arg(&a, "-icount"), arg(&a, "shift=%d,sleep=off", SB_VM_ICOUNT_SHIFT);
    /* Under icount every iteration of a `rep movsb` counts as an instruction: with ERMS/FSRM
     * advertised the guest's kernel and libc copy a byte a nanosecond (a 1 MiB request's
     * copies cost ms); without them they copy 8 to 32 bytes an instruction. */
    arg(&a, "-cpu"), arg(&a, accel == SB_VM_ACCEL_KVM ? "host" : vm->lab ? "max,erms=off,fsrm=off" : "max");
    arg(&a, "-smp"), arg(&a, "%u", vm->guest_cpus ? vm->guest_cpus : vm->o.cpus);
    arg(&a, "-m"), arg(&a, "%lluM", (unsigned long long)((vm->guest_memory ? vm->guest_memory : vm->o.memory) >> 20));
    arg(&a, "-kernel"), arg(&a, "%s", vm->kernel.vmlinuz);
    arg(&a, "-initrd"), arg(&a, "%s", vm->lab && vm->lab_initrd[0] ? vm->lab_initrd : vm->initramfs);
    /* Under virtual time the guest's randomness is fixed where it can be (QEMU's RDRAND from a
     * seed, no address-space randomization), so that a run repeats the last one's instructions,
     * and so is its clock: the RTC starts at a fixed date and runs on the virtual clock (the
     * host's date would seed the kernel's entropy pool and name fs-mark's files, and an RTC on
     * the host's clock makes the boot's wait for its update flag last host time). */
    if (vm->lab) {
        arg(&a, "-seed"), arg(&a, "1");
        arg(&a, "-rtc"), arg(&a, "base=%s,clock=vm", SB_VM_LAB_DATE);
    }
    /* --vm-exact, idle=poll: the guest's idle loop spins instead of halting. A halted vCPU lets
     * QEMU 7.2's main loop jump the virtual clock to the next timer (sleep=off), computed from
     * the instruction count as of the vCPU's last return to its loop: when the main loop looks
     * between the guest's HLT and that return (a race decided by the host's scheduling), the
     * jump overshoots by the instructions run since, and the run takes another course. A
     * guest that never halts moves its clock by its instructions only: the run repeats itself,
     * but idle time costs host time (about 1e9 spinning instructions a virtual second, some
     * 30 s of the host's here), which makes a battery that waits on a modeled HDD take hours:
     * so halting is the default, its figures within about 1 % between hosts. */
    arg(&a, "-append"), arg(&a, !vm->lab ? "console=ttyS0 quiet loglevel=3 panic=-1"
                                : vm->o.exact ? "console=ttyS0 quiet loglevel=3 panic=-1 nokaslr norandmaps idle=poll"
                                              : "console=ttyS0 quiet loglevel=3 panic=-1 nokaslr norandmaps");
    arg(&a, "-serial"), arg(&a, "stdio");
    arg(&a, "-virtfs"), arg(&a, "local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap");
    qemu_escape(xchg, e1, sizeof e1);
    arg(&a, "-virtfs"), arg(&a, "local,path=%s,mount_tag=xchg,security_model=none", e1);
    /* No SCSI controller in the lab (its disks are the guest's own NBD devices): under TCG a
     * virtio queue's kick is an eventfd that QEMU's main loop reads when the host gets to it,
     * so the kernel's scan of the bus (a request to each target) would end at a
     * host-timed point, and every run would leave the boot in another state. */
    if (!vm->lab)
        arg(&a, "-device"), arg(&a, "virtio-scsi-pci,id=scsi0");
    for (size_t i = 0; i < n; i++) {
        const sb_scn_device *d = &disks[i].dev;
        if (d->model[0]) {
            modeled_drive(&a, &disks[i], i);
            continue;
        }
        uint64_t iops = sb_scn_device_iops(d), bps = sb_scn_device_bps(d);
        char thr[128] = "";
        if (iops)
            snprintf(thr, sizeof thr, ",throttling.iops-total=%llu", (unsigned long long)iops);
        if (bps)
            snprintf(thr + strlen(thr), sizeof thr - strlen(thr), ",throttling.bps-total=%llu",
                     (unsigned long long)bps);
        qemu_escape(disks[i].image, e2, sizeof e2);
        /* An HDD has no discard: the guest's discards are dropped, not passed to the image. */
        arg(&a, "-drive");
        arg(&a, "file=%s,if=none,id=d%zu,format=raw,cache=%s,aio=threads,discard=%s%s", e2, i,
            disks[i].direct ? "none" : "writeback", d->cls == SB_DEV_HDD ? "ignore" : "unmap", thr);
        arg(&a, "-device");
        arg(&a, "scsi-hd,drive=d%zu,bus=scsi0.0,channel=0,scsi-id=%zu,lun=0,rotation_rate=%u,"
            "product=Emulated %s,serial=storbench%zu", i, i, d->cls == SB_DEV_HDD ? 7200u : 1u,
            d->cls == SB_DEV_HDD ? "HDD" : d->cls == SB_DEV_RAM ? "RAM" : "SSD", i);
    }
    if (a.full)
        return -ENOSPC;
    argv[a.n] = NULL;
    return (int)a.n;
}

int sb_vm_prepare(sb_vm *vm, const sb_vm_opts *o, const char *images, char *err, size_t errlen)
{
    memset(vm, 0, sizeof *vm);
    vm->o = *o;
    vm->accel = o->accel;
    if (o->accel != SB_VM_ACCEL_AUTO)
        snprintf(vm->accel_why, sizeof vm->accel_why, "--vm-accel %s", o->accel == SB_VM_ACCEL_KVM ? "kvm" : "tcg");
    int kfd = o->time == SB_VM_TIME_VIRTUAL && o->accel == SB_VM_ACCEL_AUTO ? open(sb_vm_kvm_device(), O_RDWR | O_CLOEXEC)
                                                                            : -1;
    if (kfd >= 0) { /* icount is TCG's: a KVM that works is not tried (without one, auto says so as ever) */
        close(kfd);
        vm->accel = SB_VM_ACCEL_TCG;
        snprintf(vm->accel_why, sizeof vm->accel_why, "auto: KVM not tried: virtual time (QEMU's icount) runs "
                 "under TCG only");
    }
    int rc = sb_vm_available(err, errlen);
    if (rc < 0)
        return rc;
    ssize_t n = readlink("/proc/self/exe", vm->exe, sizeof vm->exe - 1);
    if (n < 0) {
        snprintf(err, errlen, "cannot find this program: /proc/self/exe: %s", strerror(errno));
        return -errno;
    }
    vm->exe[n] = 0;
    char *ver[] = {(char *)sb_vm_qemu(), "--version", NULL}, out[1024] = "";
    if ((rc = sb_run_tool(ver, NULL, out, sizeof out, err, errlen)) < 0)
        return rc;
    if (sscanf(out, "QEMU emulator version %100[^\n]", vm->qemu_version) != 1)
        snprintf(vm->qemu_version, sizeof vm->qemu_version, "unknown version");
    if (o->kernel_dir) {
        rc = sb_vm_kernel_tree(o->kernel_dir, &vm->kernel, err, errlen);
    } else {
        char cache[PATH_MAX];
        if (sb_vm_cache_dir(cache, sizeof cache) < 0) {
            snprintf(err, errlen, "no cache directory for the guest's kernel: set XDG_CACHE_HOME or HOME, or "
                     "use --vm-kernel DIR");
            return -ENOENT;
        }
        rc = sb_vm_kernel_debian(cache, &vm->kernel, stdout, err, errlen);
    }
    if (rc < 0)
        return rc;
    sb_workdir_remove_stale(images);
    if ((rc = sb_workdir_create(images, vm->workdir, sizeof vm->workdir)) < 0) {
        snprintf(err, errlen, "cannot create a directory in %s: %s", images, strerror(-rc));
        return rc;
    }
    snprintf(vm->initramfs, sizeof vm->initramfs, "%s/initramfs.img", vm->workdir);
    return sb_vm_build_initramfs(&vm->kernel, vm->initramfs, err, errlen);
}

void sb_vm_close(sb_vm *vm)
{
    if (vm->workdir[0])
        sb_workdir_remove(vm->workdir);
    vm->workdir[0] = 0;
}

/* An image of size bytes (preallocated where the filesystem can); whether O_DIRECT works. */
static int make_image(sb_vm_disk *d, uint64_t size, char *err, size_t errlen)
{
    int fd = open(d->image, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", d->image, strerror(errno));
        return -errno;
    }
    int rc = posix_fallocate(fd, 0, (off_t)size);
    if (rc == EOPNOTSUPP || rc == EINVAL)
        rc = ftruncate(fd, (off_t)size) < 0 ? errno : 0;
    close(fd);
    if (rc) {
        snprintf(err, errlen, "%s: %s", d->image, strerror(rc));
        return -rc;
    }
    fd = open(d->image, O_RDWR | O_DIRECT | O_CLOEXEC);
    d->direct = fd >= 0;
    if (fd >= 0)
        close(fd);
    return 0;
}

/* Writes a new file dir/name with len bytes of data. 0 or -errno, one line in err. */
static int put_file(const char *dir, const char *name, const void *data, size_t len, char *err, size_t errlen)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wxe");
    int rc = 0;
    if (!f || fwrite(data, 1, len, f) != len)
        rc = -errno;
    if (f && fclose(f) != 0 && rc == 0)
        rc = -errno;
    if (rc < 0)
        snprintf(err, errlen, "%s: %s", path, strerror(-rc));
    return rc;
}

/* The files the guest reads: the scenario file, its arguments (NUL-separated), the number
 * of disks, guest.sh. */
static int write_exchange(const sb_vm *vm, const char *xchg, const sb_scn_config *c, const char *scenario_file,
                          char *const *guest_args, size_t n_args, uint64_t image_size, char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    int rc = sb_read_file(scenario_file, 1 << 20, 0, &text, &len);
    if (rc < 0) {
        snprintf(err, errlen, "%s: %s", scenario_file, strerror(-rc));
        return rc;
    }
    rc = put_file(xchg, "scenario.ini", text, len, err, errlen);
    free(text);
    /* Mount points go to the guest's tmpfs /tmp (its view of the host is read-only). */
    const char *fixed[] = {"run", SB_VM_GUEST_XCHG "/scenario.ini", "--only", c->identifier, "--result",
                           SB_VM_GUEST_XCHG "/result.json", "--images", "/tmp"};
    size_t n_fixed = sizeof fixed / sizeof fixed[0], used = 0, cap = 1;
    for (size_t i = 0; i < n_fixed + n_args; i++)
        cap += strlen(i < n_fixed ? fixed[i] : guest_args[i - n_fixed]) + 1;
    char *args = sb_xrealloc(NULL, cap);
    for (size_t i = 0; i < n_fixed + n_args; i++) {
        const char *a = i < n_fixed ? fixed[i] : guest_args[i - n_fixed];
        memcpy(args + used, a, strlen(a) + 1);
        used += strlen(a) + 1;
    }
    if (rc == 0)
        rc = put_file(xchg, "args", args, used, err, errlen);
    free(args);
    char nd[16];
    snprintf(nd, sizeof nd, "%u\n", c->devices);
    if (rc == 0)
        rc = put_file(xchg, "ndevices", nd, strlen(nd), err, errlen);
    if (rc < 0)
        return rc;
    char mods[256];
    sb_vm_config_modules(c, mods, sizeof mods);
    /* Virtual time: the disks are the guest's own NBD devices, and all it runs on comes in
     * its initramfs, so that no 9p request waits for the host before the result goes back
     * (vm_labinit.h); its lab.sh takes over from /init, and no guest.sh is read. */
    if (vm->lab) {
        char lab[256], *save = NULL;
        size_t l = 0;
        lab[0] = 0;
        for (char *m = strtok_r(mods, " ", &save); m; m = strtok_r(NULL, " ", &save)) /* no SCSI (above) */
            if (strcmp(m, "virtio_scsi") && strcmp(m, "sd_mod") && l + strlen(m) + 2 < sizeof lab)
                l += (size_t)snprintf(lab + l, sizeof lab - l, "%s ", m);
        snprintf(lab + l, sizeof lab - l, "nbd");
        if ((rc = sb_vm_lab_write(xchg, c, image_size, err, errlen)) < 0 ||
            (rc = sb_vm_lab_write_dilate(xchg, vm->o.dilate, err, errlen)) < 0)
            return rc;
        return sb_vm_lab_initrd(vm->lab_initrd, vm->initramfs, &vm->kernel, lab, xchg, vm->exe, c, err, errlen);
    }
    return sb_vm_write_guest_script(xchg, &vm->kernel, vm->exe, mods, err, errlen);
}

/* What a guest run came to. */
typedef struct guest_run {
    bool ran;         /* QEMU was started */
    bool up;          /* /init said it started */
    bool hung;        /* given up: nothing from /init within the probe's seconds */
    char end[64];     /* how QEMU ended when not with 0: "exit 1", "killed by SIGABRT" */
    char tail[1024];  /* the console's last lines, for a guest that died */
} guest_run;

/* One console line: the /init marker is noted, the rest shown and kept in the tail. */
static void console_line(char *line, guest_run *g)
{
    size_t l = strlen(line);
    while (l && (line[l - 1] == '\r' || line[l - 1] == '\n'))
        line[--l] = 0;
    for (char *p = line; *p; p++)
        if (*p == '\r')
            *p = ' ';
    if (strstr(line, SB_VM_UP_MARKER)) {
        g->up = true;
        return;
    }
    printf("  guest| %s\n", line);
    fflush(stdout);
    size_t t = strlen(g->tail);
    if (t + l + 2 >= sizeof g->tail) {
        memmove(g->tail, g->tail + t / 2, t - t / 2 + 1);
        t = strlen(g->tail);
    }
    snprintf(g->tail + t, sizeof g->tail - t, "%s%s", t ? " / " : "", line);
}

/* Runs QEMU to its end, relaying the console. probe_s > 0: give the guest up when /init has
 * not spoken within probe_s seconds. 0, -EINTR (killed on Ctrl-C), or -errno. */
static int run_guest(char **argv, unsigned probe_s, guest_run *g)
{
    int p[2];
    memset(g, 0, sizeof *g);
    if (pipe2(p, O_CLOEXEC) < 0)
        return -errno;
    /* Own process group: the terminal's Ctrl-C reaches storbench, which kills the guest.
     * Dies with storbench whatever kills it. */
    sb_child_spec spec = {.argv = argv, .in = -1, .out = p[1], .err = p[1], .own_group = true,
                          .deathsig = SIGKILL};
    pid_t pid;
    int rc = sb_child_spawn(&spec, &pid);
    if (rc < 0) {
        close(p[0]), close(p[1]);
        return rc;
    }
    close(p[1]);
    g->ran = true;
    char line[4096];
    size_t len = 0;
    uint64_t start = sb_now_ns();
    for (;;) {
        if (sb_interrupted() || (probe_s && !g->up && sb_now_ns() - start > (uint64_t)probe_s * 1000000000ull)) {
            g->hung = !sb_interrupted();
            sb_child_stop(pid, true, 3000);
            close(p[0]);
            return g->hung ? 0 : -EINTR;
        }
        struct pollfd pf = {p[0], POLLIN, 0};
        if (poll(&pf, 1, 250) <= 0)
            continue;
        char buf[4096];
        ssize_t r = read(p[0], buf, sizeof buf);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        for (ssize_t i = 0; i < r; i++) {
            if (buf[i] != '\n' && len < sizeof line - 1) {
                line[len++] = buf[i];
                continue;
            }
            line[len] = 0;
            len = 0;
            console_line(line, g);
        }
    }
    close(p[0]);
    int status;
    rc = sb_child_wait(pid, &status);
    if (rc == 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
        rc = -EIO;
        if (WIFSIGNALED(status))
            snprintf(g->end, sizeof g->end, "killed by SIG%s", sigabbrev_np(WTERMSIG(status)) ?
                     sigabbrev_np(WTERMSIG(status)) : "?");
        else
            snprintf(g->end, sizeof g->end, "exit %d", WEXITSTATUS(status));
    }
    return sb_interrupted() ? -EINTR : rc;
}

/* Whether to try KVM under auto; if not, why not goes to accel_why. */
static bool kvm_usable(sb_vm *vm)
{
    int fd = open(sb_vm_kvm_device(), O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        const char *e = strerror(errno);
        snprintf(vm->accel_why, sizeof vm->accel_why, "auto: %s: %s", sb_vm_kvm_device(), e);
        sb_warn("scenario: --vm: no KVM here (%s: %s): guests run under TCG (emulated CPU)", sb_vm_kvm_device(), e);
        return false;
    }
    close(fd);
    return true;
}

/* Text from the console for the page: printable ASCII only (QEMU's messages are), one line. */
static void ascii_line(char *s)
{
    for (; *s; s++)
        if (*s < 0x20 || *s > 0x7e)
            *s = '?';
}

/* Under auto, the KVM guest did not run to its end: KVM fails here. Says so on stderr and
 * in accel_why; this configuration and every later one run under TCG. */
static void give_up_kvm(sb_vm *vm, const guest_run *g)
{
    char why[400];
    if (g->hung)
        snprintf(why, sizeof why, "the guest said nothing within %u s", vm->o.kvm_timeout);
    else
        snprintf(why, sizeof why, "QEMU %s%s%s%.300s", g->end[0] ? g->end : "ended",
                 g->up ? "" : " before the guest started", g->tail[0] ? ": " : "", g->tail);
    ascii_line(why);
    sb_warn("scenario: --vm: KVM failed (%s): using TCG (emulated CPU) for this and every later guest", why);
    snprintf(vm->accel_why, sizeof vm->accel_why, "auto: KVM failed here (%s)", why);
    vm->accel = SB_VM_ACCEL_TCG;
    vm->kvm_failed = true;
}

/* Boots the guest once. *used is the accelerator that ran it. 0, -EINTR, -EAGAIN (under
 * auto KVM failed: start the configuration again, now under TCG), -ETIMEDOUT (the guest's
 * init said nothing within boot_timeout: it was killed), or -errno with err. */
static int boot(sb_vm *vm, const char *xchg, const sb_vm_disk *disks, size_t n, sb_vm_accel *used, char *err,
                size_t errlen)
{
    sb_vm_accel accel = vm->accel;
    unsigned probe = vm->o.boot_timeout;
    if (accel == SB_VM_ACCEL_AUTO) {
        accel = kvm_usable(vm) ? SB_VM_ACCEL_KVM : SB_VM_ACCEL_TCG;
        if (accel == SB_VM_ACCEL_KVM)
            probe = vm->o.kvm_timeout;
        if (accel == SB_VM_ACCEL_TCG)
            vm->accel = SB_VM_ACCEL_TCG;
    }
    char *argv[128], buf[32768];
    if (sb_vm_qemu_argv(vm, accel, xchg, disks, n, argv, 128, buf, sizeof buf) < 0) {
        snprintf(err, errlen, "QEMU's command line is too long");
        return -ENOSPC;
    }
    printf("Booting a guest: QEMU %s, %s, kernel %s\n", vm->qemu_version,
           accel == SB_VM_ACCEL_KVM ? "KVM" : "TCG (emulated CPU)", vm->kernel.version);
    fflush(stdout);
    guest_run g;
    int rc = run_guest(argv, probe, &g);
    if (rc == -EINTR)
        return rc;
    if (vm->o.accel == SB_VM_ACCEL_AUTO && accel == SB_VM_ACCEL_KVM && g.ran && (g.hung || rc < 0 || !g.up)) {
        give_up_kvm(vm, &g);
        return -EAGAIN;
    }
    *used = accel;
    if (g.hung) {
        snprintf(err, errlen, "the guest's init said nothing within %u s (its kernel hung before it; QEMU killed)",
                 probe);
        return -ETIMEDOUT;
    }
    if (rc < 0 || !g.up) {
        snprintf(err, errlen, "the guest failed%s%s%s%s", g.end[0] ? " (QEMU " : "", g.end, g.end[0] ? ")" : "",
                 g.tail[0] ? ": " : "");
        size_t l = strlen(err);
        snprintf(err + l, errlen - l, "%s", g.tail);
        return rc < 0 ? rc : -EIO;
    }
    if (vm->o.accel == SB_VM_ACCEL_AUTO && accel == SB_VM_ACCEL_KVM) {
        vm->accel = SB_VM_ACCEL_KVM;
        snprintf(vm->accel_why, sizeof vm->accel_why, "auto: KVM works here");
    }
    return 0;
}

/* Marks the guest's system entry with what it ran on. */
static void annotate(sb_system *sys, const sb_vm *vm, sb_vm_accel used, const sb_vm_disk *disks, size_t n,
                     uint64_t size)
{
    char buf[2048], mem[32], sz[32];
    sb_format_iec(mem, sizeof mem, (double)vm->guest_memory, "B");
    bool lab = vm->lab;
    /* The guest's clock started at SB_VM_LAB_DATE: the date is the host's. */
    if (lab)
        sb_system_stamp(sys);
    char vt[192] = "";
    if (lab)
        snprintf(vt, sizeof vt, ", virtual time (icount shift=%d, sleep=off: %u ns a guest instruction)%s",
                 SB_VM_ICOUNT_SHIFT, 1u << SB_VM_ICOUNT_SHIFT,
                 vm->o.dilate > 1 ? ", dilated (--vm-dilate)" : "");
    if (lab && vm->o.dilate > 1) {
        snprintf(buf, sizeof buf, "x%u: device model delays and the tests' durations x%u in the guest (a vCPU %u "
                 "times faster against the disks), figures scaled back to the model's time", vm->o.dilate,
                 vm->o.dilate, vm->o.dilate);
        sb_kvlist_set(&sys->storage, "Time Dilation", buf);
    }
    snprintf(buf, sizeof buf, "QEMU %s, %s, %u vCPU%s, %s memory%s", vm->qemu_version,
             used == SB_VM_ACCEL_KVM ? "KVM" : "TCG (emulated CPU)", vm->guest_cpus, vm->guest_cpus == 1 ? "" : "s", mem,
             vt);
    sb_kvlist_set(&sys->storage, "VM", buf);
    snprintf(buf, sizeof buf, "%s%s%s", used == SB_VM_ACCEL_KVM ? "KVM" : "TCG (emulated CPU)",
             vm->accel_why[0] ? "; " : "", vm->accel_why);
    sb_kvlist_set(&sys->storage, "VM Accelerator", buf);
    /* The text page shows hardware and software only: PTS's "System Layer" says it there. */
    char layer[96], dil[32] = "";
    if (vm->o.dilate > 1)
        snprintf(dil, sizeof dil, ", dilated x%u", vm->o.dilate);
    snprintf(layer, sizeof layer, "QEMU/TCG (emulated CPU, virtual time%s)", dil);
    sb_kvlist_set(&sys->software, "System Layer", used == SB_VM_ACCEL_KVM ? "QEMU/KVM"
                  : lab ? layer : "QEMU/TCG (emulated CPU)");
    snprintf(buf, sizeof buf, "%s (%s)", vm->kernel.version, vm->kernel.source);
    sb_kvlist_set(&sys->storage, "VM Kernel", buf);
    sb_format_si(sz, sizeof sz, (double)size, "B");
    buf[0] = 0;
    for (size_t i = 0; i < n; i++) {
        char d[256];
        sb_vm_describe_device(&disks[i].dev, lab, d, sizeof d);
        size_t l = strlen(buf);
        snprintf(buf + l, sizeof buf - l, "%s%zu: %s %s, %s%s", i ? "; " : "", i + 1, sz,
                 lab ? "in guest RAM" : "image", d, disks[i].direct || lab ? "" : ", host page cache");
    }
    sb_kvlist_set(&sys->storage, "Emulated Devices", buf);
    const char *cpu = sb_kvlist_get(&sys->hardware, "Processor");
    if (used != SB_VM_ACCEL_KVM && cpu && !strstr(cpu, "emulated")) { /* under TCG, say so on the page */
        snprintf(buf, sizeof buf, "%s (emulated CPU)", cpu);
        sb_kvlist_set(&sys->hardware, "Processor", buf);
    }
}

/* What the guest left in xchg: its exit status and result file, merged into fresh. */
static int collect(const char *xchg, const sb_scn_config *c, unsigned dilate, sb_resultfile *fresh, sb_system **sys,
                   char *err, size_t errlen)
{
    char path[PATH_MAX], text[32] = "";
    snprintf(path, sizeof path, "%s/status", xchg);
    if (sb_read_text(path, text, sizeof text) < 0) {
        snprintf(err, errlen, "the guest stopped before storbench had finished (see its console above)");
        return -EIO;
    }
    if (atoi(text) != 0) {
        snprintf(err, errlen, "storbench in the guest failed (exit %d, see its console above)", atoi(text));
        return -EIO;
    }
    snprintf(path, sizeof path, "%s/result.json", xchg);
    sb_resultfile got;
    sb_resultfile_init(&got);
    int rc = sb_resultfile_load(path, &got, err, errlen);
    if (rc == 0) /* --vm-dilate: the guest's stretched time back to the model's (lab_dilate.h) */
        rc = sb_lab_dilate_result(&got, dilate, err, errlen);
    if (rc == 0)
        rc = sb_resultfile_merge(fresh, &got, false, err, errlen);
    sb_resultfile_free(&got);
    if (rc == 0 && !(*sys = sb_resultfile_find_system(fresh, c->identifier))) {
        snprintf(err, errlen, "the guest's result has no '%s'", c->identifier);
        rc = -EIO;
    }
    return rc;
}

/* Configuration c's directory dir: its disk images and the exchange directory. 0 or -errno
 * with err; ramdir is set when a RAM device's directory was made. */
static int lay_out(sb_vm *vm, const sb_scn_config *c, const char *dir, const char *xchg, sb_vm_disk *disks,
                   char *ramdir, size_t ramlen, const char *scenario_file, char *const *guest_args,
                   size_t n_guest_args, uint64_t image_size, char *err, size_t errlen)
{
    int rc = 0;
    if (mkdir(dir, 0700) < 0 || mkdir(xchg, 0700) < 0) {
        snprintf(err, errlen, "%s: %s", xchg, strerror(errno));
        rc = -errno;
    }
    for (unsigned i = 0; i < c->devices && rc == 0; i++) {
        disks[i].dev = c->dev[i];
        if (vm->lab) /* served in the guest, its data in guest RAM (vm_lab.c) */
            continue;
        /* A modeled device's speed is the model's: its image is an ordinary scratch file. */
        bool ram = c->dev[i].cls == SB_DEV_RAM && !c->dev[i].model[0];
        if (ram && !ramdir[0] && (rc = sb_workdir_create(RAM_DIR, ramdir, ramlen)) < 0) {
            snprintf(err, errlen, "a RAM device needs %s: %s", RAM_DIR, strerror(-rc));
            ramdir[0] = 0;
            break;
        }
        snprintf(disks[i].image, sizeof disks[i].image, "%s/disk-%u.img", ram ? ramdir : dir, i + 1);
        rc = make_image(&disks[i], image_size, err, errlen);
        if (rc == 0 && c->dev[i].model[0]) {
            char nbd[PATH_MAX];
            snprintf(nbd, sizeof nbd, "%s/nbd-%u", dir, i + 1);
            rc = sb_vm_nbd_start(&disks[i].nbd, nbd, disks[i].image, c->dev[i].model, vm->st, err, errlen);
        }
    }
    if (rc == 0)
        rc = write_exchange(vm, xchg, c, scenario_file, guest_args, n_guest_args, image_size, err, errlen);
    return rc;
}

/* Stops the modeled disks' nbdkit (the guest has ended) and undoes their journal lines. */
static void stop_servers(sb_vm *vm, sb_vm_disk *disks, unsigned n, size_t mark)
{
    for (unsigned i = n; i-- > 0;)
        sb_vm_nbd_stop(&disks[i].nbd);
    char err[1024];
    if (vm->st && sb_state_undo(vm->st, mark, NULL, err, sizeof err) < 0)
        sb_warn("scenario: --vm: %s (run 'storbench scenario cleanup')", err);
}

/* Whether c's guest runs in virtual time (vm_lab.c), and its vCPUs and memory: virtual
 * time when asked for (or settled so), or under auto once KVM has failed and TCG runs,
 * where c allows it (one vCPU, no QEMU throttling; else host time as before). */
static void guest_shape(sb_vm *vm, const sb_scn_config *c, uint64_t image_size)
{
    vm->lab = vm->o.time == SB_VM_TIME_VIRTUAL;
    if (vm->o.time == SB_VM_TIME_AUTO && vm->accel == SB_VM_ACCEL_TCG && vm->o.cpus <= 1) {
        vm->lab = true;
        for (unsigned i = 0; i < c->devices; i++)
            vm->lab = vm->lab && !sb_vm_lab_refusal(&c->dev[i]);
    }
    vm->guest_cpus = vm->o.cpus ? vm->o.cpus : vm->lab ? 1 : 2;
    vm->guest_memory = vm->o.memory ? vm->o.memory : vm->lab ? sb_vm_lab_guest_memory(c->devices, image_size)
                                                              : 1ull << 30;
}

int sb_vm_run_config(sb_vm *vm, const sb_scn_config *c, size_t index, const char *scenario_file,
                     char *const *guest_args, size_t n_guest_args, uint64_t image_size, sb_resultfile *fresh,
                     char *err, size_t errlen)
{
    char dir[PATH_MAX], xchg[PATH_MAX];
    sb_vm_disk disks[SB_SCN_MAX_DEVICES];
    snprintf(dir, sizeof dir, "%s/cfg-%zu", vm->workdir, index);
    snprintf(xchg, sizeof xchg, "%s/xchg", dir);
    int rc;
    /* Again from fresh images when KVM failed under auto (-EAGAIN: then under TCG) and, once,
     * when a guest hung before its init spoke (-ETIMEDOUT). */
    bool hung_before = false;
    for (;;) {
        char ramdir[PATH_MAX] = "";
        size_t mark = vm->st ? vm->st->n : 0;
        guest_shape(vm, c, image_size);
        vm->lab_initrd[0] = 0;
        if (vm->lab) /* removed with dir */
            snprintf(vm->lab_initrd, sizeof vm->lab_initrd, "%s/initrd.img", dir);
        memset(disks, 0, sizeof disks);
        rc = lay_out(vm, c, dir, xchg, disks, ramdir, sizeof ramdir, scenario_file, guest_args, n_guest_args,
                     image_size, err, errlen);
        sb_vm_accel used = SB_VM_ACCEL_TCG;
        if (rc == 0) /* under virtual time QEMU gives the guest no disk */
            rc = boot(vm, xchg, disks, vm->lab ? 0 : c->devices, &used, err, errlen);
        sb_system *sys = NULL;
        if (rc == 0 && (rc = collect(xchg, c, vm->lab ? vm->o.dilate : 1, fresh, &sys, err, errlen)) == 0)
            annotate(sys, vm, used, disks, c->devices, image_size);
        stop_servers(vm, disks, c->devices, mark);
        sb_remove_tree(dir);
        if (ramdir[0])
            sb_workdir_remove(ramdir);
        if (rc == -ETIMEDOUT && !hung_before) {
            sb_warn("scenario: --vm: [%s] %s: booting it again from fresh images", c->identifier, err);
            hung_before = true;
            continue;
        }
        if (rc != -EAGAIN)
            break;
    }
    if (rc == -ETIMEDOUT)
        snprintf(err, errlen, "the guest's init said nothing within %u s, twice (its kernel hung before it)",
                 vm->o.boot_timeout);
    return rc;
}
