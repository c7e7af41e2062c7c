/*
 * test_sysinfo — the system description parsers on fixture text
 * (tests/data/sysinfo/) and the whole collection on a fake root directory
 * built here (proc, sys, etc), so that nothing depends on this machine.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/fileio.h"
#include "results/result.h"
#include "sysinfo/sysinfo.h"
#include "sysinfo/sysinfo_parse.h"

static char *fixture(const char *name)
{
    const char *src = getenv("STORBENCH_SRC");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/sysinfo/%s", src ? src : ".", name);
    char *buf;
    int rc = sb_read_file(path, (1 << 16) - 1, 1, &buf, NULL);
    if (rc < 0)
        fail_msg("cannot read fixture %s: %s", path, strerror(-rc));
    return buf;
}

/* ---- cpuinfo ---- */

static void test_cpu_model_tidied(void **state)
{
    char *text = fixture("cpuinfo");
    char *m = sb_sysinfo_cpu_model(text);
    assert_non_null(m);
    assert_string_equal(m, "Intel Core i7-5960X");
    free(m);
    assert_int_equal(sb_sysinfo_cpu_count(text), 4);
    assert_true(sb_sysinfo_cpu_mhz(text) > 3499.8 && sb_sysinfo_cpu_mhz(text) < 3499.9);
    free(text);
}

static void test_cpu_tidy_rules(void **state)
{
    static const char *const cases[][2] = {
        {"Intel(R) Xeon(R) CPU E3-1280 v5 @ 3.70GHz", "Intel Xeon E3-1280 v5"},
        {"Intel(R) Xeon(R) Processor", "Intel Xeon"},
        {"AMD Ryzen 7 1700 Eight-Core Processor", "AMD Ryzen 7 1700 Eight-Core"},
        {"Intel(R) Core(TM) i5-5300U CPU @ 2.30GHz", "Intel Core i5-5300U"},
        {"  QEMU Virtual CPU version 2.5+  ", "QEMU Virtual version 2.5+"},
        {"Processor", "Processor"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[128];
        snprintf(buf, sizeof buf, "%s", cases[i][0]);
        sb_sysinfo_tidy_cpu_model(buf);
        assert_string_equal(buf, cases[i][1]);
    }
}

static void test_cpu_other_arch_and_empty(void **state)
{
    char *text = fixture("cpuinfo-arm");
    char *m = sb_sysinfo_cpu_model(text);
    assert_non_null(m);
    assert_string_equal(m, "BCM2835");
    free(m);
    assert_int_equal(sb_sysinfo_cpu_count(text), 2);
    assert_true(sb_sysinfo_cpu_mhz(text) == 0);
    free(text);
    /* the most telling key wins wherever it is */
    m = sb_sysinfo_cpu_model("Hardware\t: BCM2835\nProcessor\t: ARMv7 Processor rev 4 (v7l)\n");
    assert_string_equal(m, "ARMv7 Processor rev 4 (v7l)");
    free(m);
    assert_null(sb_sysinfo_cpu_model(""));
    assert_null(sb_sysinfo_cpu_model(NULL));
    assert_int_equal(sb_sysinfo_cpu_count(NULL), 0);
}

static void test_format_processor(void **state)
{
    char buf[128];
    sb_sysinfo_format_processor(buf, sizeof buf, "Intel Core i7-5960X", 3500.0, 16);
    assert_string_equal(buf, "Intel Core i7-5960X @ 3.50GHz (16 Cores)");
    sb_sysinfo_format_processor(buf, sizeof buf, "Intel Xeon E3-1280 v5", 4000.0, 8);
    assert_string_equal(buf, "Intel Xeon E3-1280 v5 @ 4.00GHz (8 Cores)");
    sb_sysinfo_format_processor(buf, sizeof buf, "X", 0, 1);
    assert_string_equal(buf, "X (1 Core)");
    sb_sysinfo_format_processor(buf, sizeof buf, NULL, 0, 0);
    assert_string_equal(buf, "Unknown");
}

/* ---- meminfo, os-release ---- */

static void test_meminfo(void **state)
{
    char *text = fixture("meminfo");
    assert_int_equal(sb_sysinfo_meminfo_kb(text, "MemTotal"), 16330168);
    assert_int_equal(sb_sysinfo_meminfo_kb(text, "SwapTotal"), 8388604);
    assert_int_equal(sb_sysinfo_meminfo_kb(text, "Mem"), -1); /* a prefix is not a key */
    assert_int_equal(sb_sysinfo_meminfo_kb(text, "Nope"), -1);
    free(text);
    assert_int_equal(sb_sysinfo_meminfo_kb(NULL, "MemTotal"), -1);
}

static void test_os_release(void **state)
{
    char *text = fixture("os-release");
    char *v = sb_sysinfo_os_release_value(text, "PRETTY_NAME");
    assert_string_equal(v, "Ubuntu 15.10 \"Wily\"");
    free(v);
    v = sb_sysinfo_os_release_value(text, "VERSION_ID");
    assert_string_equal(v, "15.10");
    free(v);
    v = sb_sysinfo_os_release_value(text, "HOME_URL");
    assert_string_equal(v, "http://www.ubuntu.com/");
    free(v);
    assert_null(sb_sysinfo_os_release_value(text, "VERSION_CODENAME"));
    assert_null(sb_sysinfo_os_release_value(text, "NAM"));
    free(text);
}

/* ---- mountinfo ---- */

static void expect_mount(const char *text, const char *path, const char *mp, const char *fstype,
                         const char *source, unsigned maj, unsigned min)
{
    sb_sysinfo_mount m;
    assert_int_equal(sb_sysinfo_mountinfo_find(text, path, &m), 0);
    assert_string_equal(m.mount_point, mp);
    assert_string_equal(m.fstype, fstype);
    assert_string_equal(m.source, source);
    assert_int_equal(m.major, maj);
    assert_int_equal(m.minor, min);
    sb_sysinfo_mount_free(&m);
}

static void test_mountinfo_longest_prefix(void **state)
{
    char *t = fixture("mountinfo");
    expect_mount(t, "/", "/", "ext4", "/dev/sda2", 8, 2);
    expect_mount(t, "/var/tmp", "/", "ext4", "/dev/sda2", 8, 2);
    expect_mount(t, "/home", "/home", "xfs", "/dev/sdb1", 8, 17);
    expect_mount(t, "/home/user", "/home", "xfs", "/dev/sdb1", 8, 17);
    expect_mount(t, "/home/user/data/x/y", "/home/user/data", "btrfs", "/dev/sdc", 0, 45);
    /* a path component boundary: /homeless is not under /home */
    expect_mount(t, "/homeless", "/", "ext4", "/dev/sda2", 8, 2);
    expect_mount(t, "/home/user/database", "/home", "xfs", "/dev/sdb1", 8, 17);
    /* \040 is a blank */
    expect_mount(t, "/mnt/my disk/f", "/mnt/my disk", "ext4", "/dev/sdc1", 8, 33);
    expect_mount(t, "/mnt/my", "/", "ext4", "/dev/sda2", 8, 2);
    /* the root mount is listed after this child of it (as on real systems) */
    expect_mount(t, "/proc/self", "/proc", "proc", "proc", 0, 21);
    free(t);
}

static void test_mountinfo_without_tree(void **state)
{
    /* parents that are not listed: the longest containing mount point, the last of equals */
    const char *t = "5 1 8:1 / /a rw - ext4 /dev/sda1 rw\n"
                    "6 2 8:2 / /a/b rw - xfs /dev/sda2 rw\n"
                    "7 3 8:3 / /a/b rw - btrfs /dev/sda3 rw\n";
    expect_mount(t, "/a/b/c", "/a/b", "btrfs", "/dev/sda3", 8, 3);
    expect_mount(t, "/a/bc", "/a", "ext4", "/dev/sda1", 8, 1);
    sb_sysinfo_mount m;
    assert_int_equal(sb_sysinfo_mountinfo_find(t, "/x", &m), -ENOENT);
}

static void test_mountinfo_stacked(void **state)
{
    char *t = fixture("mountinfo");
    /* mounted twice on the same point: the second is a child of the first, on top */
    expect_mount(t, "/dev/shm", "/dev/shm", "tmpfs", "tmpfs", 0, 27);
    /* /srv mounted after /srv/a (both children of /) hides it */
    expect_mount(t, "/srv/a/file", "/srv", "ext4", "/dev/mapper/vg-srv", 253, 0);
    free(t);
}

static void test_mountinfo_fields(void **state)
{
    char *t = fixture("mountinfo");
    sb_sysinfo_mount m;
    assert_int_equal(sb_sysinfo_mountinfo_find(t, "/home/user/data", &m), 0);
    assert_string_equal(m.root, "/@data");
    assert_string_equal(m.mount_opts, "rw,relatime");
    assert_string_equal(m.super_opts, "rw,compress=lzo,ssd,space_cache");
    sb_sysinfo_mount_free(&m);
    assert_int_equal(sb_sysinfo_mountinfo_find("garbage\n", "/", &m), -ENOENT);
    assert_int_equal(sb_sysinfo_mountinfo_find("", "/", &m), -ENOENT);
    assert_int_equal(sb_sysinfo_mountinfo_find(t, "relative", &m), -ENOENT);
    free(t);
}

static void test_merge_options(void **state)
{
    char *o = sb_sysinfo_merge_options("rw,relatime", "rw,discard,resuid=0");
    assert_string_equal(o, "rw,relatime,discard,resuid=0");
    free(o);
    o = sb_sysinfo_merge_options("ro,noatime", "rw,noatime,compress=lzo");
    assert_string_equal(o, "ro,noatime,compress=lzo");
    free(o);
    o = sb_sysinfo_merge_options("", "");
    assert_string_equal(o, "");
    free(o);
}

/* ---- block devices ---- */

static void test_scheduler(void **state)
{
    static const char *const cases[][2] = {
        {"none [mq-deadline] kyber bfq\n", "mq-deadline"},
        {"[none] mq-deadline kyber bfq\n", "none"},
        {"noop deadline [cfq]\n", "cfq"},
        {"none\n", "none"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *s = sb_sysinfo_scheduler(cases[i][0]);
        assert_non_null(s);
        assert_string_equal(s, cases[i][1]);
        free(s);
    }
    assert_null(sb_sysinfo_scheduler(""));
    assert_null(sb_sysinfo_scheduler("\n"));
    assert_null(sb_sysinfo_scheduler("a b c"));
    assert_null(sb_sysinfo_scheduler("[]"));
    assert_null(sb_sysinfo_scheduler(NULL));
}

static void test_disk_label(void **state)
{
    char buf[128];
    sb_sysinfo_disk_label(buf, sizeof buf, 120034123776ULL, "Samsung SSD 850");
    assert_string_equal(buf, "120GB Samsung SSD 850");
    sb_sysinfo_disk_label(buf, sizeof buf, 2000398934016ULL, "Hitachi HUA72302");
    assert_string_equal(buf, "2000GB Hitachi HUA72302");
    /* the model already names its size */
    sb_sysinfo_disk_label(buf, sizeof buf, 256060514304ULL, "Samsung SSD 950 PRO 256GB");
    assert_string_equal(buf, "Samsung SSD 950 PRO 256GB");
    /* ... but a size-like part of a model number does not count */
    sb_sysinfo_disk_label(buf, sizeof buf, 256060514304ULL, "INTEL SSDPEKKW256G7");
    assert_string_equal(buf, "256GB INTEL SSDPEKKW256G7");
    sb_sysinfo_disk_label(buf, sizeof buf, 274877906944ULL, NULL);
    assert_string_equal(buf, "275GB");
    sb_sysinfo_disk_label(buf, sizeof buf, 100000000ULL, "tiny");
    assert_string_equal(buf, "100MB tiny");
}

static void test_disk_grouping(void **state)
{
    char buf[256];
    sb_sysinfo_disk d[] = {
        {120034123776ULL, "Samsung SSD 850"},
        {240057409536ULL, "OCZ VERTEX3"},
        {120034123776ULL, "Samsung SSD 850"},
    };
    sb_sysinfo_format_disks(buf, sizeof buf, d, 3);
    assert_string_equal(buf, "2 x 120GB Samsung SSD 850 + 240GB OCZ VERTEX3");
    sb_sysinfo_format_disks(buf, sizeof buf, d + 1, 1);
    assert_string_equal(buf, "240GB OCZ VERTEX3");
    sb_sysinfo_format_disks(buf, sizeof buf, d, 0);
    assert_string_equal(buf, "Unknown");
    /* same model, different size: not grouped */
    sb_sysinfo_disk e[] = {
        {120034123776ULL, "Samsung SSD 850"},
        {250059350016ULL, "Samsung SSD 850"},
        {2000398934016ULL, "Hitachi HUA72302"},
        {2000398934016ULL, "Hitachi HUA72302"},
        {2000398934016ULL, "Hitachi HUA72302"},
    };
    sb_sysinfo_format_disks(buf, sizeof buf, e, 5);
    assert_string_equal(buf,
                        "120GB Samsung SSD 850 + 250GB Samsung SSD 850 + 3 x 2000GB Hitachi HUA72302");
}

static void test_fs_magic(void **state)
{
    assert_string_equal(sb_sysinfo_fs_magic_name(0xEF53), "ext4");
    assert_string_equal(sb_sysinfo_fs_magic_name(0x58465342), "xfs");
    assert_string_equal(sb_sysinfo_fs_magic_name(0x9123683E), "btrfs");
    assert_string_equal(sb_sysinfo_fs_magic_name(0x01021994), "tmpfs");
    assert_null(sb_sysinfo_fs_magic_name(0x12345678));
}

/* ---- the whole collection on a fake root ---- */

static char fake_root[256];

static void put(const char *rel, const char *content)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", fake_root, rel);
    /* make the parents */
    for (char *p = path + strlen(fake_root) + 1; (p = strchr(p, '/')); p++) {
        *p = '\0';
        mkdir(path, 0755);
        *p = '/';
    }
    FILE *f = fopen(path, "w");
    if (!f)
        fail_msg("cannot create %s", path);
    fputs(content, f);
    fclose(f);
}

static void link_to(const char *rel, const char *target)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", fake_root, rel);
    for (char *p = path + strlen(fake_root) + 1; (p = strchr(p, '/')); p++) {
        *p = '\0';
        mkdir(path, 0755);
        *p = '/';
    }
    if (symlink(target, path) != 0)
        fail_msg("symlink %s: %s", path, strerror(errno));
}

static void put_fixture(const char *rel, const char *name)
{
    char *t = fixture(name);
    put(rel, t);
    free(t);
}

static int setup_root(void **state)
{
    snprintf(fake_root, sizeof fake_root, "%s", "/tmp/sb_sysinfo.XXXXXX");
    if (!mkdtemp(fake_root))
        return -1;
    put_fixture("proc/cpuinfo", "cpuinfo");
    put_fixture("proc/meminfo", "meminfo");
    put_fixture("proc/self/mountinfo", "mountinfo");
    put_fixture("etc/os-release", "os-release");
    put("sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq", "3500000\n");
    put("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
    /* three online 128 MiB memory blocks and one offline */
    put("sys/devices/system/memory/block_size_bytes", "8000000\n");
    put("sys/devices/system/memory/memory0/online", "1\n");
    put("sys/devices/system/memory/memory1/online", "1\n");
    put("sys/devices/system/memory/memory2/online", "1\n");
    put("sys/devices/system/memory/memory3/online", "0\n");
    put("sys/devices/system/memory/auto_online_blocks", "online\n");
    put("sys/class/dmi/id/board_vendor", "Gigabyte Technology Co., Ltd.\n");
    put("sys/class/dmi/id/board_name", "X99-UD4-CF\n");
    put("sys/class/dmi/id/board_version", "To be filled by O.E.M.\n");
    put("sys/bus/pci/devices/0000:00:00.0/class", "0x060000\n");
    put("sys/bus/pci/devices/0000:00:00.0/vendor", "0x8086\n");
    put("sys/bus/pci/devices/0000:00:00.0/device", "0x2f00\n");
    put("sys/bus/pci/devices/0000:00:01.0/class", "0x060400\n");
    put("usr/share/misc/pci.ids", "# fixture\n8086  Intel Corporation\n"
                                  "\t2f00  Xeon E7 v3/Xeon E5 v3/Core i7 DMI2\n"
                                  "\t\t1234 5678  a subsystem\n"
                                  "8087  Intel Corp.\n");
    /* three disks, two alike; loop and dm devices that must not count; an empty reader */
    put("sys/block/sda/size", "234441648\n");
    put("sys/block/sda/device/model", "Samsung SSD 850 \n");
    put("sys/block/sda/queue/scheduler", "noop deadline [cfq]\n");
    put("sys/block/sda/queue/rotational", "0\n");
    put("sys/block/sda/sda2/partition", "2\n");
    put("sys/block/sdb/size", "468862128\n");
    put("sys/block/sdb/device/model", "OCZ-VERTEX3\n");
    put("sys/block/sdb/queue/scheduler", "[mq-deadline] none\n");
    put("sys/block/sdb/queue/rotational", "1\n");
    put("sys/block/sdb/sdb1/partition", "1\n");
    put("sys/block/sdc/size", "234441648\n");
    put("sys/block/sdc/device/model", "Samsung SSD 850\n");
    put("sys/block/sde/size", "0\n");
    put("sys/block/sde/device/model", "Card Reader\n");
    put("sys/block/loop0/size", "2048\n");
    put("sys/block/nvme0c0n1/size", "2048\n");
    put("sys/block/nvme0c0n1/hidden", "1\n");
    put("sys/block/dm-0/size", "2048\n");
    put("sys/block/dm-0/queue/scheduler", "none\n");
    link_to("sys/block/dm-0/slaves/sdb1", "../../sdb/sdb1");
    link_to("sys/dev/block/8:2", "../../block/sda/sda2");
    link_to("sys/dev/block/8:17", "../../block/sdb/sdb1");
    link_to("sys/dev/block/253:0", "../../block/dm-0");
    /* a two-device btrfs (sdb1 + sdc) mounted from /dev/sdc on an anonymous 0:45 */
    put("sys/block/sdc/dev", "8:32\n");
    link_to("sys/class/block/sdc", "../../block/sdc");
    link_to("sys/dev/block/8:32", "../../block/sdc");
    link_to("sys/fs/btrfs/0f0e-uuid/devices/sdc", "../../../../block/sdc");
    link_to("sys/fs/btrfs/0f0e-uuid/devices/sdb1", "../../../../block/sdb/sdb1");
    put("sys/fs/btrfs/features/raid1c34", "0\n");
    return 0;
}

static int teardown_root(void **state)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fake_root);
    return system(cmd) == 0 ? 0 : -1;
}

static void free_sys(sb_system *s)
{
    sb_kvlist_free(&s->hardware);
    sb_kvlist_free(&s->software);
    sb_kvlist_free(&s->storage);
}

static void expect_keys(const sb_kvlist *l, const char *const *keys)
{
    size_t i = 0;
    for (; keys[i]; i++) {
        assert_true(i < l->n);
        assert_string_equal(l->items[i].key, keys[i]);
    }
    assert_int_equal(l->n, i);
}

static void test_collect_fake_root(void **state)
{
    sb_system s;
    memset(&s, 0, sizeof s);
    /* a target that does not exist on this machine is matched as given */
    assert_int_equal(sb_sysinfo_collect_at(&s, "/nonexistent-sb-target", fake_root), 0);
    static const char *const hw[] = {"Processor", "Motherboard", "Chipset", "Memory", "Disk", NULL};
    static const char *const sw[] = {"OS", "Kernel", "Compiler", "File-System", NULL};
    expect_keys(&s.hardware, hw);
    expect_keys(&s.software, sw);
    assert_string_equal(sb_kvlist_get(&s.hardware, "Processor"),
                        "Intel Core i7-5960X @ 3.50GHz (4 Cores)");
    assert_string_equal(sb_kvlist_get(&s.hardware, "Motherboard"), "Gigabyte X99-UD4-CF");
    assert_string_equal(sb_kvlist_get(&s.hardware, "Chipset"),
                        "Intel Xeon E7 v3/Xeon E5 v3/Core i7 DMI2"); /* seed: "Intel Xeon E7 v3/Xeon" */
    assert_string_equal(sb_kvlist_get(&s.hardware, "Memory"), "384MB");
    assert_string_equal(sb_kvlist_get(&s.hardware, "Disk"),
                        "2 x 120GB Samsung SSD 850 + 240GB OCZ-VERTEX3");
    assert_string_equal(sb_kvlist_get(&s.software, "OS"), "Ubuntu 15.10 \"Wily\"");
    assert_string_equal(sb_kvlist_get(&s.software, "File-System"), "ext4");
    assert_true(!strncmp(sb_kvlist_get(&s.software, "Compiler"), "GCC ", 4) ||
                !strncmp(sb_kvlist_get(&s.software, "Compiler"), "Clang ", 6));
    static const char *const st[] = {"Target", "Block Device", "Device Model", "Scheduler",
                                     "Rotational", "Mount Point", "Mount Source", "Mount Options",
                                     "CPU Governor", NULL};
    expect_keys(&s.storage, st);
    assert_string_equal(sb_kvlist_get(&s.storage, "Target"), "/nonexistent-sb-target");
    assert_string_equal(sb_kvlist_get(&s.storage, "Block Device"), "sda2 on sda");
    assert_string_equal(sb_kvlist_get(&s.storage, "Device Model"), "Samsung SSD 850");
    assert_string_equal(sb_kvlist_get(&s.storage, "Scheduler"), "cfq");
    assert_string_equal(sb_kvlist_get(&s.storage, "Rotational"), "No");
    assert_string_equal(sb_kvlist_get(&s.storage, "Mount Point"), "/");
    assert_string_equal(sb_kvlist_get(&s.storage, "Mount Source"), "/dev/sda2");
    assert_string_equal(sb_kvlist_get(&s.storage, "Mount Options"),
                        "rw,relatime,errors=remount-ro");
    assert_string_equal(sb_kvlist_get(&s.storage, "CPU Governor"), "performance");
    free_sys(&s);
}

static void test_collect_stacked_devices(void **state)
{
    sb_system s;
    memset(&s, 0, sizeof s);
    /* /srv is on dm-0, which sits on sdb1 */
    sb_sysinfo_collect_at(&s, "/srv/nonexistent-sb", fake_root);
    assert_string_equal(sb_kvlist_get(&s.storage, "Block Device"), "dm-0 on sdb");
    assert_string_equal(sb_kvlist_get(&s.storage, "Device Model"), "OCZ-VERTEX3");
    assert_string_equal(sb_kvlist_get(&s.storage, "Scheduler"), "mq-deadline");
    assert_string_equal(sb_kvlist_get(&s.storage, "Rotational"), "Yes");
    assert_string_equal(sb_kvlist_get(&s.software, "File-System"), "ext4");
    free_sys(&s);

    /* an overlay is described by the storage behind its upper directory (/home: sdb1) */
    memset(&s, 0, sizeof s);
    sb_sysinfo_collect_at(&s, "/var/lib/docker/x/nonexistent-sb", fake_root);
    assert_string_equal(sb_kvlist_get(&s.software, "File-System"), "overlay");
    assert_string_equal(sb_kvlist_get(&s.storage, "Block Device"), "sdb1 on sdb");
    assert_string_equal(sb_kvlist_get(&s.storage, "Mount Source"), "overlay");
    free_sys(&s);

    /* tmpfs has no block device */
    memset(&s, 0, sizeof s);
    sb_sysinfo_collect_at(&s, "/dev/shm/nonexistent-sb", fake_root);
    assert_string_equal(sb_kvlist_get(&s.software, "File-System"), "tmpfs");
    assert_string_equal(sb_kvlist_get(&s.storage, "Block Device"), "None");
    assert_string_equal(sb_kvlist_get(&s.storage, "Scheduler"), "None");
    free_sys(&s);

    /* btrfs: the anonymous device is resolved through the source; all members are named */
    memset(&s, 0, sizeof s);
    sb_sysinfo_collect_at(&s, "/home/user/data/nonexistent-sb", fake_root);
    assert_string_equal(sb_kvlist_get(&s.software, "File-System"), "btrfs");
    assert_string_equal(sb_kvlist_get(&s.storage, "Block Device"), "sdb1 + sdc");
    assert_string_equal(sb_kvlist_get(&s.storage, "Device Model"), "OCZ-VERTEX3");
    assert_string_equal(sb_kvlist_get(&s.storage, "Mount Options"),
                        "rw,relatime,compress=lzo,ssd,space_cache");
    free_sys(&s);

    /* a device sysfs does not know: its number, the rest Unknown */
    memset(&s, 0, sizeof s);
    sb_sysinfo_collect_at(&s, "/raid/nonexistent-sb", fake_root);
    assert_string_equal(sb_kvlist_get(&s.storage, "Block Device"), "9:0");
    assert_string_equal(sb_kvlist_get(&s.storage, "Scheduler"), "Unknown");
    free_sys(&s);
}

static void test_collect_empty_root(void **state)
{
    /* nothing readable at all: every value Unknown, nothing fails */
    char empty[] = "/tmp/sb_sysinfo_empty.XXXXXX";
    assert_non_null(mkdtemp(empty));
    sb_system s;
    memset(&s, 0, sizeof s);
    assert_int_equal(sb_sysinfo_collect_at(&s, NULL, empty), 0);
    assert_int_equal(s.hardware.n, 5);
    assert_int_equal(s.storage.n, 0);
    assert_string_equal(sb_kvlist_get(&s.hardware, "Motherboard"), "Unknown");
    assert_string_equal(sb_kvlist_get(&s.hardware, "Chipset"), "Unknown");
    assert_string_equal(sb_kvlist_get(&s.hardware, "Memory"), "Unknown");
    assert_string_equal(sb_kvlist_get(&s.hardware, "Disk"), "Unknown");
    assert_string_equal(sb_kvlist_get(&s.software, "OS"), "Unknown");
    /* with no mountinfo, statfs of / still names the filesystem (or Unknown) */
    assert_non_null(sb_kvlist_get(&s.software, "File-System"));
    free_sys(&s);

    /* without memory blocks in sysfs, MemTotal in MiB */
    char path[256];
    snprintf(path, sizeof path, "%s/proc", empty);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/proc/meminfo", empty);
    char *mi = fixture("meminfo");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(mi, f);
    fclose(f);
    free(mi);
    memset(&s, 0, sizeof s);
    sb_sysinfo_collect_at(&s, NULL, empty);
    assert_string_equal(sb_kvlist_get(&s.hardware, "Memory"), "15947MB");
    free_sys(&s);
    unlink(path);
    snprintf(path, sizeof path, "%s/proc", empty);
    rmdir(path);
    rmdir(empty);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpu_model_tidied),
        cmocka_unit_test(test_cpu_tidy_rules),
        cmocka_unit_test(test_cpu_other_arch_and_empty),
        cmocka_unit_test(test_format_processor),
        cmocka_unit_test(test_meminfo),
        cmocka_unit_test(test_os_release),
        cmocka_unit_test(test_mountinfo_longest_prefix),
        cmocka_unit_test(test_mountinfo_stacked),
        cmocka_unit_test(test_mountinfo_without_tree),
        cmocka_unit_test(test_mountinfo_fields),
        cmocka_unit_test(test_merge_options),
        cmocka_unit_test(test_scheduler),
        cmocka_unit_test(test_disk_label),
        cmocka_unit_test(test_disk_grouping),
        cmocka_unit_test(test_fs_magic),
        cmocka_unit_test(test_collect_fake_root),
        cmocka_unit_test(test_collect_stacked_devices),
        cmocka_unit_test(test_collect_empty_root),
    };
    return cmocka_run_group_tests_name("sysinfo", tests, setup_root, teardown_root);
}
