/*
 * test_scenario — the scenario file parser (what it accepts and each refusal
 * with its line number), the description a layout writes into a system entry,
 * and the state journal: a run that dies without undoing is undone by
 * sb_state_cleanup(), and a live run's journal is left alone. Nothing here
 * needs root or touches a device.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "results/result.h"
#include "scenario/layout.h"
#include "scenario/scenario.h"
#include "scenario/state.h"

static sb_scenario sc;
static char err[1024];

static int parse(const char *text)
{
    err[0] = 0;
    return sb_scenario_parse(text, "t.ini", &sc, err, sizeof err);
}

static void test_parse_seed001(void **state)
{
    (void)state;
    const char *text =
        "# comment\n"
        "; another\n"
        "[scenario]\n"
        "title = Btrfs RAID\n"
        "description =  Two disks  \n"
        "\n"
        "[Single Disk]\n"
        "filesystem = btrfs\n"
        "[2-Disk RAID1 + LZO]\n"
        "  filesystem=btrfs\n"
        "devices = 2\n"
        "raid = raid1\n"
        "mount-options = compress=lzo,noatime\n"
        "[Mixed]\n"
        "filesystem = btrfs\n"
        "devices = 4\n"
        "data-profile = raid10\n"
        "metadata-profile = raid1c3\n"
        "mkfs-options = -n 32k\n"
        "[Cached]\n"
        "filesystem = ext4\n"
        "cache = writeback\n"
        "cache-discard = yes\n";
    assert_int_equal(parse(text), 0);
    assert_string_equal(sc.title, "Btrfs RAID");
    assert_string_equal(sc.description, "Two disks");
    assert_int_equal(sc.n, 4);
    assert_string_equal(sc.configs[0].identifier, "Single Disk");
    assert_int_equal(sc.configs[0].devices, 1);
    assert_string_equal(sc.configs[0].data_profile, "");
    assert_string_equal(sc.configs[1].identifier, "2-Disk RAID1 + LZO");
    assert_int_equal(sc.configs[1].line, 9);
    assert_int_equal(sc.configs[1].devices, 2);
    assert_string_equal(sc.configs[1].data_profile, "raid1");
    assert_string_equal(sc.configs[1].metadata_profile, "raid1");
    assert_string_equal(sc.configs[1].mount_options, "compress=lzo,noatime");
    assert_string_equal(sc.configs[2].data_profile, "raid10");
    assert_string_equal(sc.configs[2].metadata_profile, "raid1c3");
    assert_string_equal(sc.configs[2].mkfs_options, "-n 32k");
    assert_int_equal(sc.configs[3].cache, SB_CACHE_WRITEBACK);
    assert_true(sc.configs[3].cache_discard);
    assert_int_equal(sc.configs[3].devices, 2); /* bcache: cache + backing */
}

static void refused(const char *text, const char *line_and_word)
{
    assert_int_equal(parse(text), -EINVAL);
    if (!strstr(err, line_and_word))
        fail_msg("error '%s' lacks '%s'", err, line_and_word);
}

static void test_parse_refusals(void **state)
{
    (void)state;
    refused("", "no configuration");
    refused("[scenario]\ntitle = x\n", "no configuration");
    refused("filesystem = ext4\n", "t.ini:1: 'filesystem' outside a section");
    refused("[a]\nfilesystem = zfs\n", "t.ini:2: filesystem 'zfs'");
    refused("[a]\ndevices = 2\n", "t.ini:1: [a]: no filesystem");
    refused("[a]\nfilesystem = ext4\nbogus = 1\n", "t.ini:3: unknown key 'bogus'");
    refused("[a]\nfilesystem = ext4\n[a]\nfilesystem = xfs\n", "t.ini:3: identifier 'a' appears twice");
    refused("[a]\nfilesystem = ext4\nraid = raid1\ndevices = 2\n", "RAID profiles are btrfs's");
    refused("[a]\nfilesystem = xfs\ndevices = 2\n", "xfs lives on one device");
    refused("[a]\nfilesystem = xfs\nmount-options = compress=lzo\n", "btrfs mount options");
    refused("[a]\nfilesystem = btrfs\nraid = raid1\n", "btrfs raid1 needs at least 2 devices");
    refused("[a]\nfilesystem = btrfs\ndevices = 3\nraid = raid1c4\n", "raid1c4 needs at least 4");
    refused("[a]\nfilesystem = btrfs\nraid = raid7\n", "t.ini:3: raid 'raid7'");
    refused("[a]\nfilesystem = btrfs\ndevices = 0\n", "t.ini:3: devices '0'");
    refused("[a]\nfilesystem = btrfs\nmount-options = compress=lzo, noatime\n", "without blanks");
    refused("[a]\nfilesystem = btrfs\nmount-options = noatime,,ssd\n", "empty option");
    refused("[a]\nfilesystem = btrfs\ndevices = 2\nmount-options = device=/dev/sda\n", "device=");
    refused("[a]\nfilesystem = ext4\ncache = writeback\ndevices = 3\n", "exactly 2 devices");
    refused("[a]\nfilesystem = ext4\ncache = fast\n", "t.ini:3: cache 'fast'");
    refused("[a]\nfilesystem = ext4\ncache-discard = yes\n", "cache-discard needs a cache mode");
    refused("[a]\nfilesystem = btrfs\ncache = writeback\nraid = raid1\n", "bcache do not go together");
    refused("[scenario]\ncolour = red\n[a]\nfilesystem = ext4\n", "t.ini:2: unknown key 'colour' in [scenario]");
    refused("[a\nfilesystem = ext4\n", "t.ini:1: a section header");
    refused("[]\n", "empty section name");
    refused("[a]\nfilesystem ext4\n", "t.ini:2: expected 'key = value'");
}

static void test_load_missing(void **state)
{
    (void)state;
    assert_int_equal(sb_scenario_load("/nonexistent/x.ini", &sc, err, sizeof err), -ENOENT);
    assert_non_null(strstr(err, "/nonexistent/x.ini"));
}

static void test_describe(void **state)
{
    (void)state;
    assert_int_equal(parse("[2-Disk RAID1 + LZO + Nobarrier]\nfilesystem = btrfs\ndevices = 2\nraid = raid1\n"
                           "mount-options = compress=lzo,nobarrier,noatime\n"), 0);
    sb_device devs[2];
    memset(devs, 0, sizeof devs);
    for (int i = 0; i < 2; i++) {
        snprintf(devs[i].path, sizeof devs[i].path, "/dev/loop%d", i + 5);
        snprintf(devs[i].image, sizeof devs[i].image, "/var/tmp/img%d.img", i);
        devs[i].size = 268435456;
        devs[i].direct_io = true;
    }
    sb_layout lay;
    memset(&lay, 0, sizeof lay);
    snprintf(lay.fs_device, sizeof lay.fs_device, "/dev/loop5");
    snprintf(lay.options, sizeof lay.options, "compress=lzo,noatime");
    snprintf(lay.not_applicable, sizeof lay.not_applicable, "nobarrier");
    snprintf(lay.data_profile, sizeof lay.data_profile, "raid1");
    snprintf(lay.metadata_profile, sizeof lay.metadata_profile, "raid1");
    sb_system sys;
    memset(&sys, 0, sizeof sys);
    sb_kvlist_add(&sys.hardware, "Processor", "x");
    sb_kvlist_add(&sys.hardware, "Disk", "the host's disk");
    sb_kvlist_add(&sys.software, "File-System", "btrfs");
    sb_kvlist_add(&sys.storage, "Mount Options", "rw,noatime,compress=lzo");
    sb_layout_describe(&sc.configs[0], devs, 2, &lay, &sys);
    assert_string_equal(sb_kvlist_get(&sys.hardware, "Disk"), "2 x 268MB Loop Image");
    assert_string_equal(sb_kvlist_get(&sys.software, "File-System"),
                        "btrfs RAID1 (compress=lzo, noatime; nobarrier: not applicable)");
    assert_string_equal(sb_kvlist_get(&sys.storage, "Layout"), "btrfs RAID1 over 2 loop devices");
    assert_string_equal(sb_kvlist_get(&sys.storage, "Data Profile"), "raid1");
    assert_string_equal(sb_kvlist_get(&sys.storage, "Metadata Profile"), "raid1");
    assert_string_equal(sb_kvlist_get(&sys.storage, "Compression"), "lzo");
    assert_string_equal(sb_kvlist_get(&sys.storage, "Mount Options"), "compress=lzo,noatime; nobarrier: not applicable");
    assert_string_equal(sb_kvlist_get(&sys.storage, "Kernel Mount Options"), "rw,noatime,compress=lzo");
    assert_non_null(strstr(sb_kvlist_get(&sys.storage, "Devices"), "/dev/loop6 = /var/tmp/img1.img (268MB, direct I/O)"));
    assert_null(sb_kvlist_get(&sys.storage, "Cache"));
    sb_kvlist_free(&sys.hardware);
    sb_kvlist_free(&sys.software);
    sb_kvlist_free(&sys.storage);

    /* A real SSD caching a real HDD with bcache. */
    assert_int_equal(parse("[BCache Writeback]\nfilesystem = ext4\ncache = writeback\ncache-discard = yes\n"), 0);
    memset(devs, 0, sizeof devs);
    snprintf(devs[0].path, sizeof devs[0].path, "/dev/sdb");
    snprintf(devs[0].model, sizeof devs[0].model, "Samsung SSD 850");
    devs[0].size = 120000000000ull;
    snprintf(devs[1].path, sizeof devs[1].path, "/dev/sdc");
    snprintf(devs[1].model, sizeof devs[1].model, "HGST HDN724040AL");
    devs[1].size = 4000000000000ull;
    memset(&lay, 0, sizeof lay);
    snprintf(lay.fs_device, sizeof lay.fs_device, "/dev/bcache0");
    memset(&sys, 0, sizeof sys);
    sb_layout_describe(&sc.configs[0], devs, 2, &lay, &sys);
    assert_string_equal(sb_kvlist_get(&sys.hardware, "Disk"), "120GB Samsung SSD 850 + 4000GB HGST HDN724040AL");
    assert_string_equal(sb_kvlist_get(&sys.software, "File-System"), "ext4 on bcache writeback + discard");
    assert_string_equal(sb_kvlist_get(&sys.storage, "Cache"), "bcache writeback, discard");
    assert_string_equal(sb_kvlist_get(&sys.storage, "Mount Options"), "defaults");
    assert_null(sb_kvlist_get(&sys.storage, "Data Profile"));
    sb_kvlist_free(&sys.hardware);
    sb_kvlist_free(&sys.software);
    sb_kvlist_free(&sys.storage);
}

static void test_state_cleanup(void **state)
{
    (void)state;
    char dir[] = "/tmp/sbstate.XXXXXX";
    assert_non_null(mkdtemp(dir));
    setenv("STORBENCH_STATE_DIR", dir, 1);
    char img[256], sub[256], stdir[300];
    snprintf(img, sizeof img, "%s/x.img", dir);
    snprintf(sub, sizeof sub, "%s/mnt", dir);
    snprintf(stdir, sizeof stdir, "%s", dir);

    /* A child journals an image and a directory, makes them, and dies without undoing. */
    pid_t pid = fork();
    if (pid == 0) {
        sb_state st;
        char e[256];
        if (sb_state_open(&st, e, sizeof e) < 0)
            _exit(1);
        sb_state_add(&st, SB_ST_IMAGE, img, NULL);
        close(open(img, O_CREAT | O_WRONLY, 0600));
        sb_state_add(&st, SB_ST_DIR, sub, NULL);
        mkdir(sub, 0700);
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_int_equal(access(img, F_OK), 0);
    assert_false(sb_state_pid_alive(pid));

    /* This process's own live journal must be left alone. */
    sb_state live;
    assert_int_equal(sb_state_open(&live, err, sizeof err), 0);
    char keep[256];
    snprintf(keep, sizeof keep, "%s/keep.img", dir);
    assert_int_equal(sb_state_add(&live, SB_ST_IMAGE, keep, NULL), 0);
    close(open(keep, O_CREAT | O_WRONLY, 0600));

    unsigned found, busy;
    assert_int_equal(sb_state_cleanup(NULL, &found, &busy, err, sizeof err), 0);
    assert_int_equal(found, 1);
    assert_int_equal(busy, 1);
    assert_int_equal(access(img, F_OK), -1);
    assert_int_equal(access(sub, F_OK), -1);
    assert_int_equal(access(keep, F_OK), 0);
    char jpath[400];
    snprintf(jpath, sizeof jpath, "%s/scenario-%ld.state", dir, (long)pid);
    assert_int_equal(access(jpath, F_OK), -1);

    /* The live run undoes its own objects and its journal goes. */
    assert_true(sb_state_pid_alive((long)getpid()));
    assert_int_equal(sb_state_undo(&live, 0, NULL, err, sizeof err), 0);
    assert_int_equal(access(keep, F_OK), -1);
    sb_state_close(&live);
    snprintf(jpath, sizeof jpath, "%s/scenario-%ld.state", dir, (long)getpid());
    assert_int_equal(access(jpath, F_OK), -1);

    /* A stray image of a dead run, no journal (a reboot emptied /run): the sweep finds it. */
    char stray[300];
    snprintf(stray, sizeof stray, "%s/storbench-scn-%ld-0-0.img", dir, (long)pid);
    close(open(stray, O_CREAT | O_WRONLY, 0600));
    char other[300];
    snprintf(other, sizeof other, "%s/unrelated.img", dir);
    close(open(other, O_CREAT | O_WRONLY, 0600));
    unsigned removed;
    assert_int_equal(sb_state_sweep_dir(dir, NULL, &removed, err, sizeof err), 0);
    assert_int_equal(removed, 1);
    assert_int_equal(access(stray, F_OK), -1);
    assert_int_equal(access(other, F_OK), 0);
    unlink(other);
    assert_int_equal(rmdir(stdir), 0);
    unsetenv("STORBENCH_STATE_DIR");
}

/* The undo table: every kind the journal writes has its row, each row once; an unknown kind
 * is left alone; an image and a directory are removed through the table (one already gone
 * is fine). */
static void test_undo_table(void **state)
{
    (void)state;
    const char *kinds[] = {SB_ST_IMAGE, SB_ST_LOOP, SB_ST_DIR, SB_ST_MOUNT, SB_ST_BTRFS, SB_ST_BCACHE, SB_ST_MD};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        int rows = 0;
        for (const sb_undo_kind *k = sb_undo_kinds; k->kind; k++)
            rows += !strcmp(k->kind, kinds[i]) && k->undo && k->what;
        assert_int_equal(rows, 1);
    }
    char err[256] = "", dir[] = "/tmp/sbundo.XXXXXX", path[64];
    assert_int_equal(sb_undo("no-such-kind", "/", "", NULL, err, sizeof err), 0);
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/x.img", dir);
    int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0600);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(sb_undo(SB_ST_IMAGE, path, "", NULL, err, sizeof err), 0);
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(sb_undo(SB_ST_IMAGE, path, "", NULL, err, sizeof err), 0); /* gone: fine */
    assert_int_equal(sb_undo(SB_ST_DIR, dir, "", NULL, err, sizeof err), 0);
    assert_int_equal(access(dir, F_OK), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_seed001),
        cmocka_unit_test(test_parse_refusals),
        cmocka_unit_test(test_load_missing),
        cmocka_unit_test(test_describe),
        cmocka_unit_test(test_state_cleanup),
        cmocka_unit_test(test_undo_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
