/*
 * vm_guest — the arguments of `scenario vm-guest DIR` (see vm_guest.h). The
 * host attaches its images as scsi-hd devices with scsi-id 0, 1 ...; the
 * guest's kernel names them sda, sdb ... in whatever order its probing
 * finishes, so each is found by its SCSI address (/sys/block/sdX/device
 * links to .../H:C:T:L).
 */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "scenario/vm_guest.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/fileio.h"
#include "core/strutil.h"
#include "scenario/lab_dilate.h"
#include "scenario/scenario.h"

int sb_vm_guest_disk(const char *sys_block, unsigned target, char *name, size_t len)
{
    DIR *d = opendir(sys_block);
    if (!d)
        return -ENOENT;
    struct dirent *e;
    int rc = -ENOENT;
    while (rc < 0 && (e = readdir(d))) {
        if (strncmp(e->d_name, "sd", 2))
            continue;
        char link[PATH_MAX], target_path[PATH_MAX];
        snprintf(link, sizeof link, "%s/%s/device", sys_block, e->d_name);
        ssize_t n = readlink(link, target_path, sizeof target_path - 1);
        if (n < 0)
            continue;
        target_path[n] = 0;
        const char *b = strrchr(target_path, '/');
        unsigned h, c, t, l;
        if (sscanf(b ? b + 1 : target_path, "%u:%u:%u:%u", &h, &c, &t, &l) == 4 && c == 0 && t == target &&
            l == 0) {
            snprintf(name, len, "%s", e->d_name);
            rc = 0;
        }
    }
    closedir(d);
    return rc;
}

void sb_vm_guest_free(char **argv, int argc)
{
    for (int i = 0; i < argc; i++)
        free(argv[i]);
    free(argv);
}

/* "/dev/sda,/dev/sdb" for targets 0..n-1, waiting for them to appear. */
static int find_disks(unsigned n, unsigned wait_s, char *list, size_t len, char *err, size_t errlen)
{
    list[0] = 0;
    for (unsigned t = 0; t < n; t++) {
        char name[64];
        int rc = -ENOENT;
        for (unsigned i = 0; i <= wait_s * 10 && (rc = sb_vm_guest_disk("/sys/block", t, name, sizeof name)) < 0;
             i++)
            sb_sleep_ms(100);
        if (rc < 0) {
            snprintf(err, errlen, "emulated disk %u (SCSI target %u) did not appear within %u s", t + 1, t, wait_s);
            return rc;
        }
        size_t l = strlen(list);
        snprintf(list + l, len - l, "%s/dev/%s", t ? "," : "", name);
    }
    return 0;
}

/* --vm-dilate: K from the lab file's "dilate K" line after the devices' (absent: 1), and the
 * page cache's writeback timers stretched by it before anything is written. 0 or -errno
 * with err. */
static int read_dilate(const char *path, const char *text, sb_vm_guest_lab *lab, char *err, size_t errlen)
{
    char done[256];
    unsigned k = 1;
    const char *line = strstr(text, "\n" SB_LAB_DILATE_LINE " ");
    if (line && (sscanf(line + 1, SB_LAB_DILATE_LINE " %u", &k) != 1 || k < 1 || k > SB_LAB_DILATE_MAX)) {
        snprintf(err, errlen, "%s: not written by 'scenario run --vm'", path);
        return -EINVAL;
    }
    lab->dilate = k;
    int rc = sb_lab_dilate_sysctl(k, done, sizeof done);
    if (rc < 0) {
        snprintf(err, errlen, "--vm-dilate %u: the writeback sysctls: %s", k, strerror(-rc));
        return rc;
    }
    if (k > 1) {
        printf("storbench-vm: dilated x%u: model delays x%u, %s\n", k, k, done);
        fflush(stdout);
    }
    return 0;
}

/* Virtual time: the devices DIR/lab lists, served here as /dev/nbd0 ... 1 when attached
 * (list filled), 0 when there is no DIR/lab, or -errno with err. */
static int attach_lab(const char *dir, unsigned n, sb_vm_guest_lab *lab, char *list, size_t len, char *err,
                      size_t errlen)
{
    char path[PATH_MAX], text[SB_SCN_MAX_DEVICES * 300] = "";
    snprintf(path, sizeof path, "%s/" SB_VM_LAB_FILE, dir);
    if (sb_read_text(path, text, sizeof text) < 0)
        return 0;
    /* The host's initrd carries this program and its libraries (vm_labinit.h); mlockall
     * faults them all in before the disks' stores exist (MCL_CURRENT only: the stores are
     * sparse and must stay so). Best effort. No wait for a timer phase: the guest's boot
     * repeats itself to the instruction, so every run attaches the disks at the same one. */
    (void)mlockall(MCL_CURRENT);
    int rc = read_dilate(path, text, lab, err, errlen);
    if (rc < 0)
        return rc;
    list[0] = 0;
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    for (unsigned i = 0; i < n; i++, line = strtok_r(NULL, "\n", &save)) {
        char spec[256], dev[32];
        unsigned long long size;
        if (!line || sscanf(line, "%255s %llu", spec, &size) != 2) {
            snprintf(err, errlen, "%s: not written by 'scenario run --vm'", path);
            return -EINVAL;
        }
        rc = sb_lab_nbd_attach(spec, size, i, lab->dilate, &lab->disk[i], dev, sizeof dev, err, errlen);
        if (rc < 0)
            return rc;
        lab->n = i + 1;
        size_t l = strlen(list);
        snprintf(list + l, len - l, "%s%s", i ? "," : "", dev);
    }
    return 1;
}

void sb_vm_guest_lab_end(sb_vm_guest_lab *lab)
{
    for (unsigned i = lab->n; i-- > 0;) {
        char line[512];
        sb_lab_nbd_detach(lab->disk[i], line, sizeof line);
        printf("lab: %s\n", line);
    }
    fflush(stdout);
    lab->n = 0;
}

int sb_vm_guest_args(const char *dir, unsigned wait_s, char ***argv_out, int *argc_out, sb_vm_guest_lab *lab,
                     char *err, size_t errlen)
{
    char path[PATH_MAX], nd[32] = "", *text = NULL;
    size_t len = 0;
    snprintf(path, sizeof path, "%s/ndevices", dir);
    unsigned n = 0;
    if (sb_read_text(path, nd, sizeof nd) < 0 || sscanf(nd, "%u", &n) != 1 || n == 0 || n > SB_SCN_MAX_DEVICES) {
        snprintf(err, errlen, "%s: not written by 'scenario run --vm'", path);
        return -EINVAL;
    }
    snprintf(path, sizeof path, "%s/args", dir);
    int rc = sb_read_file(path, 1 << 20, 0, &text, &len);
    if (rc < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(-rc));
        return rc;
    }
    char list[SB_SCN_MAX_DEVICES * 16];
    rc = attach_lab(dir, n, lab, list, sizeof list, err, errlen);
    if (rc == 0)
        rc = find_disks(n, wait_s, list, sizeof list, err, errlen);
    if (rc < 0) {
        free(text);
        return rc;
    }
    size_t max = 8; /* "scenario", the 4 added, NULL */
    for (size_t i = 0; i < len; i++)
        max += text[i] == 0;
    char **argv = sb_xrealloc(NULL, max * sizeof *argv);
    int argc = 0;
    argv[argc++] = sb_xstrdup("scenario");
    for (size_t i = 0; i < len; i += strlen(text + i) + 1)
        argv[argc++] = sb_xstrdup(text + i);
    argv[argc++] = sb_xstrdup("--devices");
    argv[argc++] = sb_xstrdup(list);
    argv[argc++] = sb_xstrdup("--destroy-data-on");
    argv[argc++] = sb_xstrdup(list);
    argv[argc] = NULL;
    free(text);
    *argv_out = argv;
    *argc_out = argc;
    return 0;
}
