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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/fileio.h"
#include "core/strutil.h"
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

/* The kernel's jiffies (/proc/schedstat's "timestamp" line), 0 when unknown. */
static uint64_t jiffies_now(void)
{
    char buf[128];
    if (sb_read_text("/proc/schedstat", buf, sizeof buf) < 0)
        return 0;
    const char *t = strstr(buf, "timestamp ");
    return t ? strtoull(t + 10, NULL, 10) : 0;
}

static void sleep_ns(uint64_t ns)
{
    struct timespec ts = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
    while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
        ;
}

/* Waits until the kernel's jiffies are a multiple of lcm(HZ, 512). Why: the guest's boot
 * reads from the host, so it ends at a virtual time that depends on the host, and with it
 * the phase of the kernel's timer wheel when the disks are attached. A timer armed a fixed
 * time later (ext4's journal commit, rounded up to a whole second; the writeback flusher's
 * 5 s and btrfs's 30 s, rounded up to their wheel level's 64 or 512 jiffies) would fire at a
 * different point of the battery in each run. From a multiple of both, every run starts at
 * the same phase (within an eighth of a jiffy). Under virtual time the wait costs little host
 * time: the guest idles and its clock jumps to each timer. Says how it ended in one line. */
static void align_timer_wheel(void)
{
    static const unsigned hzs[] = {100, 250, 300, 1000};
    uint64_t j0 = jiffies_now(), t0 = sb_now_ns();
    if (!j0)
        return;
    sleep_ns(200000000u);
    uint64_t j1 = jiffies_now(), t1 = sb_now_ns();
    double hz = (double)(j1 - j0) * 1e9 / (double)(t1 > t0 ? t1 - t0 : 1);
    unsigned h = hzs[0];
    for (size_t i = 1; i < sizeof hzs / sizeof hzs[0]; i++)
        if (fabs(hz - hzs[i]) < fabs(hz - h))
            h = hzs[i];
    uint64_t a = h, b = 512;
    while (b) { /* gcd */
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    uint64_t period = (uint64_t)h * 512 / a, tick = 1000000000u / h, left = 0;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) < 0)
        return;
    /* Most of the way on a high-resolution sleep, the last jiffies on a socket's receive
     * timeout: the kernel's own jiffies timer, which wakes this thread from the tick at the
     * jiffy itself, so that the disks are attached at the same point of the tick too (the
     * scheduler's preemptions fall on ticks: six Dbench clients interleave by them). The
     * timer wheel fires a timeout of n jiffies at the (n + 1)th tick (kernel/time/timer.c,
     * calc_index: "does not fire early"), so the timeout is one jiffy short. A wake past the
     * multiple starts on the next period the same way. (Until 2026-12-06 the timeout was the
     * whole rest: every wake was a jiffy late, and each retry's timeout of a whole period went
     * to the wheel's coarse levels and missed again, a hundred times: 25,600 virtual seconds
     * of idle a guest, some 15 s of the host's CPU.) */
    unsigned waits = 0;
    for (; waits < 8 && (left = (period - jiffies_now() % period) % period) > 0; waits++) {
        if (left > 8 || left < 2) {
            sleep_ns((left > 8 ? left - 4 : left + period - 4) * tick);
            continue;
        }
        left--; /* the wheel's extra jiffy */
        struct timeval tv = {(time_t)(left / h), (suseconds_t)(left % h * (1000000u / h))};
        char c;
        if (setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) < 0 || recv(sv[0], &c, 1, 0) >= 0)
            break;
    }
    close(sv[0]);
    close(sv[1]);
    uint64_t j = jiffies_now();
    printf("lab: disks attached at jiffy %llu, %s of %llu (HZ %u, %u waits)\n", (unsigned long long)j,
           j % period ? "not a multiple" : "a multiple", (unsigned long long)period, h, waits);
    fflush(stdout);
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
    /* guest.sh runs this program from a root in guest RAM (vm_ramroot.c); where it does not
     * (an older host), it and its libraries come over 9p, and a code page first touched while
     * measuring would wait for the host while the guest's clock jumps. Fault them all in now,
     * before the disks' stores exist (MCL_CURRENT only: the stores are sparse and must stay
     * so). Best effort. Then the timer wheel's phase, and only then the disks. */
    (void)mlockall(MCL_CURRENT);
    align_timer_wheel();
    list[0] = 0;
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    for (unsigned i = 0; i < n; i++, line = strtok_r(NULL, "\n", &save)) {
        char spec[256], dev[32];
        unsigned long long size;
        if (!line || sscanf(line, "%255s %llu", spec, &size) != 2) {
            snprintf(err, errlen, "%s: not written by 'scenario run --vm'", path);
            return -EINVAL;
        }
        int rc = sb_lab_nbd_attach(spec, size, i, &lab->disk[i], dev, sizeof dev, err, errlen);
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
