/*
 * test_vm — `scenario run --vm` without booting anything: the device keys and
 * md in scenario files (resolution per device and each refusal), the device
 * descriptions, QEMU's command line (accelerator, throttling, rotation rate,
 * commas in paths), the initramfs (read back as cpio newc), guest.sh's
 * quoting, modprobe --show-depends parsing, the guest's disk lookup in a fake
 * sysfs, a user kernel tree, the static-binary check, and the list of files a
 * virtual-time guest copies into its RAM root. `make vm-check`
 * boots real guests (tests/vm/test_vm_boot.sh).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#define SCRATCH_TEMPLATE "/var/tmp/storbench-test-vm-XXXXXX"
#include "scratch_dir.h"

#include "core/fileio.h"
#include "scenario/scenario.h"
#include "scenario/vm.h"
#include "scenario/vm_guest.h"
#include "scenario/vm_image.h"
#include "scenario/vm_kernel.h"
#include "scenario/vm_labinit.h"
#include "scenario/vm_ramroot.h"

static sb_scenario sc;
static char err[1024];

static int parse(const char *text)
{
    err[0] = 0;
    return sb_scenario_parse(text, "t.ini", &sc, err, sizeof err);
}

static void test_device_keys(void **state)
{
    (void)state;
    assert_int_equal(parse("[scenario]\ndevice-class = ssd,hdd\n"
                           "[one]\nfilesystem = ext4\n"
                           "[cache]\nfilesystem = ext4\ncache = writeback\n"
                           "[slow]\nfilesystem = ext4\ndevice-class = hdd\ndevice-iops = 90\n"
                           "device-bandwidth = 50M\n"
                           "[mixed]\nfilesystem = btrfs\ndevices = 2\ndevice-class = ram,hdd\n"
                           "device-iops = unlimited,0\n"),
                     0);
    assert_int_equal(sc.configs[0].dev[0].cls, SB_DEV_SSD);
    assert_int_equal(sc.configs[1].dev[0].cls, SB_DEV_SSD);
    assert_int_equal(sc.configs[1].dev[1].cls, SB_DEV_HDD);
    assert_int_equal(sb_scn_device_iops(&sc.configs[1].dev[1]), SB_HDD_IOPS);
    assert_int_equal(sb_scn_device_bps(&sc.configs[1].dev[1]), SB_HDD_BPS);
    assert_int_equal(sb_scn_device_iops(&sc.configs[1].dev[0]), 0);
    assert_int_equal(sc.configs[2].dev[0].cls, SB_DEV_HDD);
    assert_int_equal(sb_scn_device_iops(&sc.configs[2].dev[0]), 90);
    assert_int_equal(sb_scn_device_bps(&sc.configs[2].dev[0]), 50ull << 20);
    assert_int_equal(sc.configs[3].dev[0].cls, SB_DEV_RAM);
    assert_int_equal(sc.configs[3].dev[1].cls, SB_DEV_HDD);
    assert_int_equal(sb_scn_device_iops(&sc.configs[3].dev[1]), 0); /* 0 overrides the class */
    /* No keys at all: every device an SSD. */
    assert_int_equal(parse("[a]\nfilesystem = xfs\n"), 0);
    assert_int_equal(sc.configs[0].dev[0].cls, SB_DEV_SSD);
    assert_false(sc.configs[0].dev_keys);
}

static void test_device_key_refusals(void **state)
{
    (void)state;
    assert_int_equal(parse("[a]\nfilesystem = ext4\ndevice-class = floppy\n"), -EINVAL);
    assert_non_null(strstr(err, "t.ini:3: device-class 'floppy': ssd, hdd or ram"));
    assert_int_equal(parse("[a]\nfilesystem = ext4\ncache = writeback\ndevice-class = ssd,hdd,hdd\n"), -EINVAL);
    assert_non_null(strstr(err, "t.ini:4: [a]: device-class lists 3 items for 2 devices"));
    assert_int_equal(parse("[scenario]\ndevice-class = ssd,hdd\n[a]\nfilesystem = btrfs\ndevices = 3\n"),
                     -EINVAL);
    assert_non_null(strstr(err, "t.ini:2: [scenario]: device-class lists 2 items, but [a] has 3 devices"));
    assert_int_equal(parse("[a]\nfilesystem = ext4\ndevice-iops = fast\n"), -EINVAL);
    assert_non_null(strstr(err, "t.ini:3: device-iops 'fast'"));
    assert_int_equal(parse("[a]\nfilesystem = ext4\ndevice-bandwidth = 1Q\n"), -EINVAL);
    assert_non_null(strstr(err, "device-bandwidth '1Q'"));
    assert_int_equal(parse("[a]\nfilesystem = ext4\ndevice-class = ssd\ndevice-class = hdd\n"), -EINVAL);
    assert_non_null(strstr(err, "set twice (first on line 3)"));
}

static void test_md(void **state)
{
    (void)state;
    assert_int_equal(parse("[a]\nfilesystem = ext4\ndevices = 2\nmd = raid1\n"), 0);
    assert_string_equal(sc.configs[0].md, "raid1");
    assert_int_equal(parse("[a]\nfilesystem = ext4\ndevices = 2\nmd = raid5\n"), -EINVAL);
    assert_non_null(strstr(err, "t.ini:1: [a]: md raid5 needs at least 3 devices (devices = 2)"));
    assert_int_equal(parse("[a]\nfilesystem = ext4\nmd = raid7\n"), -EINVAL);
    assert_non_null(strstr(err, "t.ini:3: md 'raid7'"));
    assert_int_equal(parse("[a]\nfilesystem = ext4\nmd = raid1\ncache = writeback\n"), -EINVAL);
    assert_non_null(strstr(err, "md goes with neither bcache nor a btrfs RAID profile"));
    assert_int_equal(parse("[a]\nfilesystem = ext4\ndevices = 2\n"), -EINVAL);
    assert_non_null(strstr(err, "or md = LEVEL"));
    char modules[256];
    assert_int_equal(parse("[a]\nfilesystem = xfs\ndevices = 3\nmd = raid5\n"), 0);
    sb_vm_config_modules(&sc.configs[0], modules, sizeof modules);
    assert_string_equal(modules, "virtio_scsi sd_mod xfs md_mod raid456");
    assert_int_equal(parse("[a]\nfilesystem = ext4\ncache = writearound\n"), 0);
    sb_vm_config_modules(&sc.configs[0], modules, sizeof modules);
    assert_string_equal(modules, "virtio_scsi sd_mod ext4 bcache");
}

static void test_describe_device(void **state)
{
    (void)state;
    char buf[256];
    sb_scn_device d = {.cls = SB_DEV_HDD, .iops = SB_DEV_CLASS_DEFAULT, .bps = SB_DEV_CLASS_DEFAULT};
    sb_vm_describe_device(&d, false, buf, sizeof buf);
    assert_string_equal(buf, "HDD-like, 180 IOPS, 150 MB/s, rotational");
    d = (sb_scn_device){.cls = SB_DEV_SSD, .iops = SB_DEV_CLASS_DEFAULT, .bps = SB_DEV_CLASS_DEFAULT};
    sb_vm_describe_device(&d, false, buf, sizeof buf);
    assert_string_equal(buf, "SSD-like, unthrottled, non-rotational");
    d = (sb_scn_device){.cls = SB_DEV_RAM, .iops = 0, .bps = 20000000};
    sb_vm_describe_device(&d, false, buf, sizeof buf);
    assert_string_equal(buf, "RAM-backed, 20.0 MB/s, non-rotational");
}

static bool has_arg(char **argv, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strstr(argv[i], s))
            return true;
    return false;
}

static void test_qemu_argv(void **state)
{
    (void)state;
    static sb_vm vm;
    memset(&vm, 0, sizeof vm);
    vm.o = (sb_vm_opts){.cpus = 2, .memory = 1ull << 30};
    snprintf(vm.kernel.vmlinuz, sizeof vm.kernel.vmlinuz, "/k/boot/vmlinuz-6.1");
    snprintf(vm.initramfs, sizeof vm.initramfs, "/w/initramfs.img");
    sb_vm_disk disks[2] = {
        {.image = "/w/a,b/disk-1.img", .dev = {.cls = SB_DEV_SSD, .iops = SB_DEV_CLASS_DEFAULT, .bps = SB_DEV_CLASS_DEFAULT},
         .direct = true},
        {.image = "/w/disk-2.img", .dev = {.cls = SB_DEV_HDD, .iops = SB_DEV_CLASS_DEFAULT, .bps = SB_DEV_CLASS_DEFAULT}},
    };
    char *argv[128], buf[16384];
    int n = sb_vm_qemu_argv(&vm, SB_VM_ACCEL_TCG, "/w/x,chg", disks, 2, argv, 128, buf, sizeof buf);
    assert_true(n > 10);
    assert_null(argv[n]);
    assert_string_equal(argv[0], SB_VM_QEMU);
    assert_true(has_arg(argv, n, "tcg"));
    assert_false(has_arg(argv, n, "kvm"));
    assert_true(has_arg(argv, n, "1024M"));
    assert_true(has_arg(argv, n, "path=/,mount_tag=host,security_model=none,readonly=on"));
    assert_true(has_arg(argv, n, "path=/w/x,,chg,mount_tag=xchg"));
    assert_true(has_arg(argv, n, "file=/w/a,,b/disk-1.img,if=none,id=d0,format=raw,cache=none,aio=threads,"
                                 "discard=unmap"));
    assert_false(has_arg(argv, n, "id=d0,format=raw,cache=none,aio=threads,discard=unmap,throttling"));
    assert_true(has_arg(argv, n, "id=d1,format=raw,cache=writeback,aio=threads,discard=ignore,"
                                 "throttling.iops-total=180,throttling.bps-total=150000000"));
    assert_true(has_arg(argv, n, "scsi-id=0,lun=0,rotation_rate=1,product=Emulated SSD"));
    assert_true(has_arg(argv, n, "scsi-id=1,lun=0,rotation_rate=7200,product=Emulated HDD"));
    n = sb_vm_qemu_argv(&vm, SB_VM_ACCEL_KVM, "/w/xchg", disks, 2, argv, 128, buf, sizeof buf);
    assert_true(has_arg(argv, n, "kvm"));
    assert_true(has_arg(argv, n, "host"));
    /* Too small a buffer is refused, not cut. */
    assert_int_equal(sb_vm_qemu_argv(&vm, SB_VM_ACCEL_KVM, "/w/xchg", disks, 2, argv, 128, buf, 200), -ENOSPC);
}

/* Modeled devices (device-model): the disk is nbdkit's socket, unthrottled; an HDD model is
 * rotational and drops discards, an SSD model passes them. */
static void test_qemu_argv_modeled(void **state)
{
    (void)state;
    static sb_vm vm;
    memset(&vm, 0, sizeof vm);
    vm.o = (sb_vm_opts){.cpus = 1, .memory = 1ull << 30};
    static sb_vm_disk disks[2];
    memset(disks, 0, sizeof disks);
    disks[0].dev = (sb_scn_device){.cls = SB_DEV_HDD, .iops = SB_DEV_CLASS_DEFAULT, .bps = SB_DEV_CLASS_DEFAULT,
                                   .model = "hdd-hua723020"};
    snprintf(disks[0].nbd.sock, sizeof disks[0].nbd.sock, "/w/c,fg/nbd-1/nbd.sock");
    disks[1].dev = (sb_scn_device){.cls = SB_DEV_SSD, .model = "ssd-850evo,cache-mb=1"};
    snprintf(disks[1].nbd.sock, sizeof disks[1].nbd.sock, "/w/nbd-2/nbd.sock");
    char *argv[128], buf[16384];
    int n = sb_vm_qemu_argv(&vm, SB_VM_ACCEL_TCG, "/w/xchg", disks, 2, argv, 128, buf, sizeof buf);
    assert_true(n > 10);
    assert_true(has_arg(argv, n, "if=none,id=d0,format=raw,file.driver=nbd,file.server.type=unix,"
                                 "file.server.path=/w/c,,fg/nbd-1/nbd.sock,cache=writeback,discard=ignore"));
    assert_true(has_arg(argv, n, "file.server.path=/w/nbd-2/nbd.sock,cache=writeback,discard=unmap"));
    assert_false(has_arg(argv, n, "throttling"));
    assert_false(has_arg(argv, n, "disk-1.img"));
    assert_true(has_arg(argv, n, "scsi-id=0,lun=0,rotation_rate=7200,product=Modeled HDD"));
    assert_true(has_arg(argv, n, "scsi-id=1,lun=0,rotation_rate=1,product=Modeled SSD"));
    char d[256];
    sb_vm_describe_device(&disks[0].dev, false, d, sizeof d);
    assert_string_equal(d, "modeled hdd-hua723020 (nbdkit), rotational");
    sb_vm_describe_device(&disks[1].dev, false, d, sizeof d);
    assert_string_equal(d, "modeled ssd-850evo,cache-mb=1 (nbdkit), non-rotational");
}

static void test_shell_quote_and_depends(void **state)
{
    (void)state;
    char q[64];
    sb_shell_quote("it's a dir", q, sizeof q);
    assert_string_equal(q, "'it'\\''s a dir'");
    char *mods[8];
    size_t n = sb_vm_parse_depends("insmod /k/a.ko \ninsmod /k/b.ko\nbuiltin virtio_pci\ninsmod /k/a.ko \n"
                                   "insmod /k/c.ko\n",
                                   mods, 8);
    assert_int_equal(n, 3);
    assert_string_equal(mods[0], "/k/a.ko");
    assert_string_equal(mods[1], "/k/b.ko");
    assert_string_equal(mods[2], "/k/c.ko");
    for (size_t i = 0; i < n; i++)
        free(mods[i]);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Reads cpio newc archives back: names (joined with '|', "#" between one archive and the
 * next) and the content of /init. */
static void read_cpio(const char *path, char *names, size_t nlen, char *init, size_t ilen)
{
    char *data = NULL;
    size_t len = 0;
    assert_int_equal(sb_read_file(path, 256 << 20, 0, &data, &len), 0);
    size_t off = 0;
    names[0] = init[0] = 0;
    while (off + 110 <= len) {
        assert_memory_equal(data + off, "070701", 6);
        char field[9] = "";
        memcpy(field, data + off + 54, 8);
        size_t fsize = strtoul(field, NULL, 16);
        memcpy(field, data + off + 94, 8);
        size_t namesize = strtoul(field, NULL, 16);
        const char *name = data + off + 110;
        size_t doff = (off + 110 + namesize + 3) & ~(size_t)3;
        if (!strcmp(name, "TRAILER!!!")) {
            off = (doff + 3) & ~(size_t)3;
            if (off + 110 > len)
                break;
            snprintf(names + strlen(names), nlen - strlen(names), "#|");
            continue;
        }
        snprintf(names + strlen(names), nlen - strlen(names), "%s|", name);
        if (!strcmp(name, "init"))
            snprintf(init, ilen, "%.*s", (int)fsize, data + doff);
        off = (doff + fsize + 3) & ~(size_t)3;
    }
    free(data);
}

static void test_initramfs(void **state)
{
    (void)state;
    char bb[512], m1[512], m2[512], out[512], names[1024], init[4096];
    snprintf(bb, sizeof bb, "%s/busybox", dir);
    snprintf(m1, sizeof m1, "%s/netfs.ko", dir);
    snprintf(m2, sizeof m2, "%s/9p.ko", dir);
    snprintf(out, sizeof out, "%s/initramfs.img", dir);
    write_file(bb, "not really busybox");
    write_file(m1, "m1");
    write_file(m2, "module two");
    char *mods[] = {m1, m2};
    assert_int_equal(sb_vm_write_initramfs(out, bb, mods, 2, err, sizeof err), 0);
    read_cpio(out, names, sizeof names, init, sizeof init);
    assert_string_equal(names, "bin|dev|proc|sys|newroot|xchg|mods|dev/console|init|bin/busybox|"
                               "mods/01-netfs.ko|mods/02-9p.ko|");
    assert_non_null(strstr(init, "echo '" SB_VM_UP_MARKER "'"));
    assert_non_null(strstr(init, "cp /xchg/guest.sh /guest.sh && . /guest.sh"));
    /* A missing module: nothing is left behind. */
    char *bad[] = {"/nonexistent/x.ko"};
    assert_int_equal(sb_vm_write_initramfs(out, bb, bad, 1, err, sizeof err), -ENOENT);
    assert_int_equal(access(out, F_OK), -1);
    assert_int_equal(entries(dir), 3); /* busybox and the two modules */
}

/* Whether the file at a has the bytes of the file at b. */
static bool same_bytes(const char *a, const char *b)
{
    char *x = NULL, *y = NULL;
    size_t lx = 0, ly = 0;
    assert_int_equal(sb_read_file(a, 256 << 20, 0, &x, &lx), 0);
    assert_int_equal(sb_read_file(b, 256 << 20, 0, &y, &ly), 0);
    bool same = lx == ly && !memcmp(x, y, lx);
    free(x);
    free(y);
    return same;
}

/* Virtual time: the initramfs, then a second archive with the RAM root, storbench, its
 * inputs and lab.sh, each directory before what is in it, the same bytes every time. */
static void test_lab_initrd(void **state)
{
    (void)state;
    if (access("/usr/sbin/mkfs.ext4", X_OK) != 0 && access("/sbin/mkfs.ext4", X_OK) != 0)
        skip();
    char bb[512], base[512], x[512], p[600], self[512], out[512], out2[512], init[4096];
    size_t nlen = 1 << 16;
    char *names = calloc(1, nlen);
    assert_non_null(names);
    snprintf(bb, sizeof bb, "%s/busybox", dir);
    write_file(bb, "not really busybox");
    snprintf(base, sizeof base, "%s/base.img", dir);
    assert_int_equal(sb_vm_write_initramfs(base, bb, NULL, 0, err, sizeof err), 0);
    snprintf(x, sizeof x, "%s/x", dir);
    assert_int_equal(mkdir(x, 0700), 0);
    static const char *const inputs[] = {"scenario.ini", "args", "ndevices", SB_VM_LAB_FILE};
    for (size_t i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s/%s", x, inputs[i]);
        write_file(p, inputs[i]);
    }
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(len > 0);
    self[len] = 0;
    sb_vm_kernel k = {.root = "/nonexistent", .version = "0"};
    sb_scn_config c = {.devices = 1, .filesystem = "ext4"};
    snprintf(out, sizeof out, "%s/initrd.img", dir);
    assert_int_equal(sb_vm_lab_initrd(out, base, &k, "", x, self, &c, err, sizeof err), 0);
    read_cpio(out, names, nlen, init, sizeof init);
    assert_non_null(strstr(init, "[ -f /lab.sh ] && . /lab.sh"));
    assert_true(strstr(init, ". /lab.sh") < strstr(init, "mount -t 9p"));
    assert_non_null(strstr(names, "|init|bin/busybox|#|lab|"));
    assert_non_null(strstr(names, "|labin|labin/exe|labin/scenario.ini|labin/args|labin/ndevices|labin/"
                                  SB_VM_LAB_FILE "|lab.sh|"));
    assert_non_null(strstr(names, "/libc.so"));
    assert_non_null(strstr(names, "/mkfs.ext4|"));
    /* Each directory of the second archive comes before anything in it. */
    const char *second = strstr(names, "#|") + 2;
    for (const char *n = second; *n; n = strchr(n, '|') + 1) {
        char name[1024], parent[1030];
        snprintf(name, sizeof name, "%.*s", (int)(strchr(n, '|') - n), n);
        char *slash = strrchr(name, '/');
        if (!slash)
            continue;
        *slash = 0;
        snprintf(parent, sizeof parent, "|%s|", name);
        const char *at = strstr(names, parent);
        assert_non_null(at);
        assert_true(at + 1 >= second && at + 1 < n);
    }
    /* lab.sh hands the result back over 9p only after storbench has run. */
    const char *run = strstr(sb_vm_lab_script, "scenario vm-guest"), *mnt = strstr(sb_vm_lab_script, "mount -t 9p");
    assert_true(run && mnt && run < mnt);
    assert_non_null(strstr(sb_vm_lab_script, "chroot $T " SB_VM_GUEST_EXE " scenario vm-guest " SB_VM_GUEST_XCHG));
    assert_non_null(strstr(sb_vm_lab_script, "cp /labin/scenario.ini /labin/args /labin/ndevices /labin/"
                                             SB_VM_LAB_FILE " $X/"));
    assert_non_null(strstr(sb_vm_lab_script, "cp $X/result.json /xchg/"));
    assert_non_null(strstr(sb_vm_lab_script, "storbench-vm: 9p requests to the host while storbench ran: "));
    assert_non_null(strstr(sb_vm_lab_script, "poweroff -f\n"));
    /* The same configuration, the same bytes: the guest's boot repeats itself. */
    snprintf(out2, sizeof out2, "%s/initrd2.img", dir);
    assert_int_equal(sb_vm_lab_initrd(out2, base, &k, "", x, self, &c, err, sizeof err), 0);
    assert_true(same_bytes(out, out2));
    /* An existing file is not overwritten; a missing input leaves no file. */
    assert_int_equal(sb_vm_lab_initrd(out, base, &k, "", x, self, &c, err, sizeof err), -EEXIST);
    assert_int_equal(unlink(out2), 0);
    snprintf(p, sizeof p, "%s/args", x);
    assert_int_equal(unlink(p), 0);
    assert_int_equal(sb_vm_lab_initrd(out2, base, &k, "", x, self, &c, err, sizeof err), -ENOENT);
    assert_non_null(strstr(err, "args"));
    assert_int_equal(access(out2, F_OK), -1);
    free(names);
}

static void test_guest_script(void **state)
{
    (void)state;
    sb_vm_kernel k = {.root = "/root/.cache/it's", .version = "6.1.0-57-amd64"};
    assert_int_equal(sb_vm_write_guest_script(dir, &k, "/opt/my sb/storbench", "virtio_scsi sd_mod ext4", err,
                                              sizeof err),
                     0);
    char path[512], *text = NULL;
    size_t len;
    snprintf(path, sizeof path, "%s/guest.sh", dir);
    assert_int_equal(sb_read_file(path, 1 << 20, 0, &text, &len), 0);
    assert_non_null(strstr(text, "mount --bind $R'/root/.cache/it'\\''s' /kernel"));
    assert_non_null(strstr(text, "mount --bind $R'/opt/my sb/storbench' /exe"));
    assert_non_null(strstr(text, "modprobe -a -d " SB_VM_GUEST_KERNEL " -S '6.1.0-57-amd64' virtio_scsi sd_mod ext4"));
    assert_non_null(strstr(text, "mount -t tmpfs -o mode=700 tmpfs $R/root"));
    assert_non_null(strstr(text, SB_VM_GUEST_EXE " scenario vm-guest " SB_VM_GUEST_XCHG));
    /* Host time only: a virtual-time guest runs lab.sh from its initramfs, never guest.sh. */
    assert_null(strstr(text, "chroot $T"));
    free(text);
}

static void test_guest_disk(void **state)
{
    (void)state;
    char p[512], t[600], name[64];
    const char *disks[][2] = {{"sda", "../../devices/pci0000:00/virtio2/host0/target0:0:1/0:0:1:0"},
                              {"sdb", "../../devices/pci0000:00/virtio2/host0/target0:0:0/0:0:0:0"},
                              {"vda", "../../devices/pci0000:00/virtio3/block/vda"}};
    for (size_t i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, disks[i][0]);
        assert_int_equal(mkdir(p, 0755), 0);
        snprintf(t, sizeof t, "%s/device", p);
        assert_int_equal(symlink(disks[i][1], t), 0);
    }
    assert_int_equal(sb_vm_guest_disk(dir, 0, name, sizeof name), 0);
    assert_string_equal(name, "sdb");
    assert_int_equal(sb_vm_guest_disk(dir, 1, name, sizeof name), 0);
    assert_string_equal(name, "sda");
    assert_int_equal(sb_vm_guest_disk(dir, 2, name, sizeof name), -ENOENT);
    /* vm-guest refuses a directory the host did not write. */
    char **argv;
    int argc;
    sb_vm_guest_lab lab = {.n = 0};
    assert_int_equal(sb_vm_guest_args(dir, 0, &argv, &argc, &lab, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "not written by 'scenario run --vm'"));
}

static void test_kernel_tree(void **state)
{
    (void)state;
    char p[512];
    sb_vm_kernel k;
    snprintf(p, sizeof p, "%s/boot", dir);
    assert_int_equal(mkdir(p, 0755), 0);
    assert_int_equal(sb_vm_kernel_tree(dir, &k, err, sizeof err), -ENOENT);
    snprintf(p, sizeof p, "%s/lib", dir);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/lib/modules", dir);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/lib/modules/6.9.0-test", dir);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/lib/modules/6.9.0-test/modules.dep", dir);
    write_file(p, "");
    assert_int_equal(sb_vm_kernel_tree(dir, &k, err, sizeof err), -ENOENT);
    assert_non_null(strstr(err, "no kernel"));
    snprintf(p, sizeof p, "%s/boot/vmlinuz-6.9.0-test", dir);
    write_file(p, "kernel");
    assert_int_equal(sb_vm_kernel_tree(dir, &k, err, sizeof err), 0);
    assert_string_equal(k.version, "6.9.0-test");
    assert_non_null(strstr(k.vmlinuz, "/boot/vmlinuz-6.9.0-test"));
    assert_non_null(strstr(k.source, "kernel tree "));
    snprintf(p, sizeof p, "%s/lib/modules/6.10.0-test", dir);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/boot/vmlinuz-6.10.0-test", dir);
    write_file(p, "kernel");
    assert_int_equal(sb_vm_kernel_tree(dir, &k, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "more than one kernel"));
}

static void test_static_check(void **state)
{
    (void)state;
    assert_int_equal(sb_vm_check_static("/bin/sh", err, sizeof err), -ENOEXEC);
    assert_non_null(strstr(err, "install busybox-static"));
    assert_true(sb_vm_check_static("/nonexistent/busybox", err, sizeof err) < 0);
    if (access(SB_VM_BUSYBOX, X_OK) == 0 && sb_vm_check_static(SB_VM_BUSYBOX, err, sizeof err) < 0)
        print_message("# note: %s is not static here: %s\n", SB_VM_BUSYBOX, err);
}

/* Virtual time (the lab): the guest counts instructions, has no ERMS/FSRM and gets no disk
 * from QEMU; its devices are what xchg/lab lists, a device without a model served by "ram";
 * QEMU's throttling is refused; its memory holds its disks written full. */
static void test_lab(void **state)
{
    (void)state;
    static sb_vm vm;
    memset(&vm, 0, sizeof vm);
    vm.o = (sb_vm_opts){.cpus = 1, .memory = 1ull << 30, .time = SB_VM_TIME_VIRTUAL};
    vm.lab = true;
    char *argv[128], buf[16384];
    int n = sb_vm_qemu_argv(&vm, SB_VM_ACCEL_TCG, "/w/xchg", NULL, 0, argv, 128, buf, sizeof buf);
    assert_true(n > 10);
    assert_true(has_arg(argv, n, "-icount"));
    assert_true(has_arg(argv, n, "shift=0,sleep=off"));
    assert_true(has_arg(argv, n, "max,erms=off,fsrm=off"));
    assert_true(has_arg(argv, n, "-seed"));
    /* the guest halts when idle (its clock jumps) unless --vm-exact asks it to spin (idle=poll) */
    assert_true(has_arg(argv, n, "console=ttyS0 quiet loglevel=3 panic=-1 nokaslr norandmaps"));
    vm.o.exact = true;
    n = sb_vm_qemu_argv(&vm, SB_VM_ACCEL_TCG, "/w/xchg", NULL, 0, argv, 128, buf, sizeof buf);
    assert_true(has_arg(argv, n, "console=ttyS0 quiet loglevel=3 panic=-1 nokaslr norandmaps idle=poll"));
    vm.o.exact = false;
    assert_false(has_arg(argv, n, "-drive"));
    /* Its RTC starts at a fixed date on the virtual clock; it boots its configuration's initrd. */
    assert_true(has_arg(argv, n, "base=" SB_VM_LAB_DATE ",clock=vm"));
    snprintf(vm.initramfs, sizeof vm.initramfs, "/w/initramfs.img");
    snprintf(vm.lab_initrd, sizeof vm.lab_initrd, "/w/cfg-0/initrd.img");
    n = sb_vm_qemu_argv(&vm, SB_VM_ACCEL_TCG, "/w/xchg", NULL, 0, argv, 128, buf, sizeof buf);
    assert_true(has_arg(argv, n, "/w/cfg-0/initrd.img"));
    assert_false(has_arg(argv, n, "/w/initramfs.img"));
    assert_false(has_arg(argv, n, "virtio-scsi-pci"));
    vm.lab = false;
    n = sb_vm_qemu_argv(&vm, SB_VM_ACCEL_TCG, "/w/xchg", NULL, 0, argv, 128, buf, sizeof buf);
    assert_false(has_arg(argv, n, "-icount"));
    assert_false(has_arg(argv, n, "-seed"));
    assert_false(has_arg(argv, n, "-rtc"));
    assert_true(has_arg(argv, n, "virtio-scsi-pci"));
    assert_true(has_arg(argv, n, "/w/initramfs.img"));
    assert_true(has_arg(argv, n, "max"));

    sb_scn_config c = {.devices = 2};
    c.dev[0] = (sb_scn_device){.cls = SB_DEV_SSD, .iops = SB_DEV_CLASS_DEFAULT, .bps = SB_DEV_CLASS_DEFAULT,
                               .model = "ssd-850evo,slc-fill=1"};
    c.dev[1] = (sb_scn_device){.cls = SB_DEV_SSD, .iops = SB_DEV_CLASS_DEFAULT, .bps = SB_DEV_CLASS_DEFAULT};
    assert_string_equal(sb_vm_lab_spec(&c.dev[1]), "ram");
    assert_null(sb_vm_lab_refusal(&c.dev[0]));
    assert_null(sb_vm_lab_refusal(&c.dev[1]));
    sb_scn_device thr = {.cls = SB_DEV_HDD, .iops = SB_DEV_CLASS_DEFAULT, .bps = SB_DEV_CLASS_DEFAULT};
    assert_non_null(strstr(sb_vm_lab_refusal(&thr), "QEMU's throttling"));
    assert_int_equal(sb_vm_lab_write(dir, &c, 256ull << 20, err, sizeof err), 0);
    char path[512], text[256] = "";
    snprintf(path, sizeof path, "%s/lab", dir);
    assert_int_equal(sb_read_text(path, text, sizeof text), 0);
    assert_true(!strncmp(text, "ssd-850evo,slc-fill=1 268435456\nram 268435456", 45)); /* read_text trims the end */
    char d[256];
    sb_vm_describe_device(&c.dev[0], true, d, sizeof d);
    assert_string_equal(d, "modeled ssd-850evo,slc-fill=1 (in the guest, virtual time), non-rotational");
    assert_int_equal(sb_vm_lab_guest_memory(1, 256ull << 20), 1ull << 30);
    assert_int_equal(sb_vm_lab_guest_memory(2, 1ull << 30), (2ull << 30) + (384ull << 20));
}

/* The line of r that is exactly want, or NULL. */
static const char *has_line(const sb_vm_ramroot *r, const char *want)
{
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->line[i], want))
            return r->line[i];
    return NULL;
}

static void test_ramroot(void **state)
{
    (void)state;
    char p[512], q[512], want[1200];
    snprintf(p, sizeof p, "%s/usr", dir);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/usr/lib", dir);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/usr/lib/libfoo.so.1.2", dir);
    write_file(p, "0123456789");
    snprintf(p, sizeof p, "%s/usr/lib/libfoo.so.1", dir);
    assert_int_equal(symlink("libfoo.so.1.2", p), 0);
    snprintf(p, sizeof p, "%s/lib", dir);
    assert_int_equal(symlink("usr/lib", p), 0);
    snprintf(p, sizeof p, "%s/abs", dir);
    snprintf(q, sizeof q, "%s/usr/lib", dir);
    assert_int_equal(symlink(q, p), 0);
    snprintf(p, sizeof p, "%s/loop1", dir);
    assert_int_equal(symlink("loop2", p), 0);
    snprintf(p, sizeof p, "%s/loop2", dir);
    assert_int_equal(symlink("loop1", p), 0);

    /* Every link on the way, then the file under its own name (what guest.sh replays). */
    sb_vm_ramroot r = {0};
    snprintf(p, sizeof p, "%s/lib/libfoo.so.1", dir);
    assert_int_equal(sb_vm_ramroot_add(&r, p), 0);
    snprintf(want, sizeof want, "L\t%s/lib\tusr/lib", dir);
    assert_non_null(has_line(&r, want));
    snprintf(want, sizeof want, "L\t%s/usr/lib/libfoo.so.1\tlibfoo.so.1.2", dir);
    assert_non_null(has_line(&r, want));
    snprintf(want, sizeof want, "F\t%s/usr/lib/libfoo.so.1.2", dir);
    assert_non_null(has_line(&r, want));
    assert_int_equal(r.bytes, 10);
    /* The same file again, through an absolute link and "..": no repeats, no bytes twice. */
    size_t n = r.n;
    snprintf(p, sizeof p, "%s/abs/../lib/./libfoo.so.1.2", dir);
    assert_int_equal(sb_vm_ramroot_add(&r, p), 0);
    snprintf(want, sizeof want, "L\t%s/abs\t%s/usr/lib", dir, dir);
    assert_non_null(has_line(&r, want));
    assert_int_equal(r.n, n + 1);
    assert_int_equal(r.bytes, 10);
    /* What cannot be copied as a file is refused. */
    snprintf(p, sizeof p, "%s/lib", dir);
    assert_int_equal(sb_vm_ramroot_add(&r, p), -EISDIR);
    snprintf(p, sizeof p, "%s/none", dir);
    assert_int_equal(sb_vm_ramroot_add(&r, p), -ENOENT);
    snprintf(p, sizeof p, "%s/loop1", dir);
    assert_int_equal(sb_vm_ramroot_add(&r, p), -ELOOP);
    snprintf(p, sizeof p, "%s/a\tb", dir);
    assert_int_equal(sb_vm_ramroot_add(&r, p), -EINVAL);
    assert_int_equal(sb_vm_ramroot_add(&r, "relative"), -EINVAL);
    sb_vm_ramroot_free(&r);

    /* A configuration's list: this program's libraries (not the program: guest.sh copies it
     * to its own place), the configuration's mkfs and its libraries, /bin/sh. */
    char self[512];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(len > 0);
    self[len] = 0;
    sb_scn_config c = {.devices = 1, .filesystem = "ext4"};
    if (access("/usr/sbin/mkfs.ext4", X_OK) == 0 || access("/sbin/mkfs.ext4", X_OK) == 0) {
        assert_int_equal(sb_vm_ramroot_for(&r, &c, self, err, sizeof err), 0);
        bool libc = false, mkfs = false, sh = false;
        for (size_t i = 0; i < r.n; i++) {
            libc |= r.line[i][0] == 'F' && strstr(r.line[i], "/libc.so") != NULL;
            mkfs |= strstr(r.line[i], "/mkfs.ext4") != NULL;
            sh |= strstr(r.line[i], "bin/sh") != NULL;
            snprintf(want, sizeof want, "F\t%s", self);
            assert_string_not_equal(r.line[i], want);
        }
        assert_true(libc && mkfs && sh);
        sb_vm_ramroot_free(&r);
    }
    /* A tool that is not installed fails the list, naming it. */
    sb_scn_config bad = {.devices = 1, .filesystem = "nosuchfs"};
    assert_int_equal(sb_vm_ramroot_for(&r, &bad, self, err, sizeof err), -ENOENT);
    assert_non_null(strstr(err, "mkfs.nosuchfs is not installed"));
    sb_vm_ramroot_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_keys),
        cmocka_unit_test(test_device_key_refusals),
        cmocka_unit_test(test_md),
        cmocka_unit_test(test_describe_device),
        cmocka_unit_test(test_qemu_argv),
        cmocka_unit_test(test_shell_quote_and_depends),
        cmocka_unit_test(test_qemu_argv_modeled),
        cmocka_unit_test_setup_teardown(test_initramfs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lab_initrd, setup, teardown),
        cmocka_unit_test_setup_teardown(test_guest_script, setup, teardown),
        cmocka_unit_test_setup_teardown(test_guest_disk, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kernel_tree, setup, teardown),
        cmocka_unit_test(test_static_check),
        cmocka_unit_test_setup_teardown(test_lab, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ramroot, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
