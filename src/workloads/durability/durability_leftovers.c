/*
 * durability_leftovers — taking apart what a killed durability run left, by the
 * guardian when the run dies and by the next run (or `scenario cleanup`) when the
 * guardian died too (durability_guard.h). What is ours is found by where it is:
 * the mounts whose mount point is inside the run's private directory (made 0700 by
 * root, so nobody else mounts there), the loop devices over files in it or over the
 * FUSE files mounted in it, and the device-mapper name the journal gives.
 *
 * The FUSE connections are aborted first (through fusectl, mounted when the system
 * has not): from then on no I/O can wait on a server, so the unmounts and detaches
 * that follow cannot hang, whoever is still alive. The filesystem over the recorded
 * device loses its last writes to the abort (the kernel logs I/O errors for it);
 * they were scratch data of a run that was killed.
 */
#include "workloads/durability/durability_cmd.h"
#include "workloads/durability/durability_guard.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "core/fusectl.h"
#include "core/workdir.h"

#define MAX_MOUNTS 32

const char *dur_state_dir(void)
{
    /* the same place as `scenario run`'s journals (scenario/state.h) */
    const char *d = getenv("STORBENCH_STATE_DIR");
    return d && *d ? d : "/run/storbench";
}

int dur_journal_read(int fd, long *pid, long *gpid, char *dir, size_t dirlen, char *dm, size_t dmlen)
{
    char buf[3 * PATH_MAX];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    buf[n > 0 ? n : 0] = '\0';
    *pid = *gpid = 0;
    dir[0] = dm[0] = '\0';
    bool head = false;
    for (char *save, *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab++ = '\0';
        if (!strcmp(line, "storbench-durability") && !strncmp(tab, "1\t", 2))
            head = (*pid = strtol(tab + 2, NULL, 10)) > 0;
        else if (!strcmp(line, "guardian"))
            *gpid = strtol(tab, NULL, 10);
        else if (!strcmp(line, "dir"))
            snprintf(dir, dirlen, "%s", tab);
        else if (!strcmp(line, "dm"))
            snprintf(dm, dmlen, "%s", tab);
    }
    return head && dir[0] == '/' ? 0 : -EINVAL;
}

/* ------------------------------------------------------------ what is mounted */

typedef struct mnt_ent {
    char path[PATH_MAX];
    unsigned maj, min;
    bool fuse;
} mnt_ent;

static bool inside(const char *dir, const char *path)
{
    size_t n = strlen(dir);
    return !strncmp(path, dir, n) && path[n] == '/';
}

/* mountinfo writes a blank, tab, newline and backslash as \ooo */
static void unescape(char *s)
{
    char *o = s;
    for (char *p = s; *p; p++) {
        if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && isdigit((unsigned char)p[2]) && isdigit((unsigned char)p[3])) {
            *o++ = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
            p += 3;
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
}

/* The mounts inside dir, deepest first. */
static size_t mounts_in(const char *dir, mnt_ent *m, size_t max)
{
    FILE *f = fopen("/proc/self/mountinfo", "r");
    size_t n = 0;
    char line[3 * PATH_MAX];
    while (f && n < max && fgets(line, sizeof line, f)) {
        char *dash = strstr(line, " - "), mp[PATH_MAX], type[64];
        unsigned maj, min;
        if (!dash || sscanf(line, "%*s %*s %u:%u %*s %4095s", &maj, &min, mp) != 3 ||
            sscanf(dash + 3, "%63s", type) != 1)
            continue;
        unescape(mp);
        if (!inside(dir, mp))
            continue;
        snprintf(m[n].path, sizeof m[n].path, "%s", mp);
        m[n].maj = maj;
        m[n].min = min;
        m[n].fuse = !strncmp(type, "fuse", 4);
        n++;
    }
    if (f)
        fclose(f);
    for (size_t i = 1; i < n; i++) /* deepest (longest) first: few entries */
        for (size_t j = i; j > 0 && strlen(m[j].path) > strlen(m[j - 1].path); j--) {
            mnt_ent t = m[j];
            m[j] = m[j - 1];
            m[j - 1] = t;
        }
    return n;
}

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Aborts a FUSE connection: its requests fail, and none waits any more. */
static void abort_fuse(const mnt_ent *m)
{
    /* the connection is named by the kernel's dev_t of the FUSE superblock; one that is
     * gone already had its server exit */
    (void)sb_fusectl_abort(((unsigned long)m->maj << 20) | m->min);
}

/* Unmounts path, lazily when it stays busy. True when it was mounted and no longer is. */
static bool unmount(const char *path)
{
    for (int i = 0; i < 25; i++) {
        if (umount2(path, UMOUNT_NOFOLLOW) == 0)
            return true;
        if (errno != EBUSY)
            return false;
        nap_ms(20);
    }
    return umount2(path, MNT_DETACH | UMOUNT_NOFOLLOW) == 0;
}

/* ------------------------------------------------------------ loop devices */

static bool backed_here(const char *name, const char *dir, const mnt_ent *m, size_t nm)
{
    char p[300], cur[PATH_MAX + 16] = "";
    snprintf(p, sizeof p, "/sys/block/%s/loop/backing_file", name);
    FILE *f = fopen(p, "r");
    if (!f)
        return false; /* not bound */
    if (fgets(cur, sizeof cur, f))
        cur[strcspn(cur, "\n")] = '\0';
    fclose(f);
    size_t n = strlen(cur);
    if (n > 10 && !strcmp(cur + n - 10, " (deleted)"))
        cur[n - 10] = '\0';
    if (inside(dir, cur))
        return true;
    /* over a FUSE file of ours: its device is that mount's */
    snprintf(p, sizeof p, "/dev/%s", name);
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    struct loop_info64 info;
    bool hit = false;
    if (fd >= 0 && ioctl(fd, LOOP_GET_STATUS64, &info) == 0)
        for (size_t i = 0; i < nm && !hit; i++)
            hit = m[i].fuse && info.lo_device == makedev(m[i].maj, m[i].min);
    if (fd >= 0)
        close(fd);
    return hit;
}

/* Detaches the loop devices over our files (detach) or counts those still bound. */
static unsigned loops_here(const char *dir, const mnt_ent *m, size_t nm, bool detach)
{
    DIR *d = opendir("/sys/block");
    unsigned n = 0;
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (strncmp(de->d_name, "loop", 4) || !backed_here(de->d_name, dir, m, nm))
            continue;
        if (!detach) {
            n++;
            continue;
        }
        char p[300];
        snprintf(p, sizeof p, "/dev/%s", de->d_name);
        int fd = open(p, O_RDONLY | O_CLOEXEC);
        /* still held (a lazily unmounted filesystem): the kernel clears it when let go */
        if (fd >= 0 && ioctl(fd, LOOP_CLR_FD, 0) == 0)
            n++;
        if (fd >= 0)
            close(fd);
    }
    if (d)
        closedir(d);
    return n;
}

/* ------------------------------------------------------------ all of it */

/* "storbench-<pid>-XXXXXX", as the runner names a run's private directory */
static bool run_dir_name(const char *dir)
{
    const char *b = strrchr(dir, '/');
    b = b ? b + 1 : dir;
    char *end;
    if (strncmp(b, "storbench-", 10) || strtol(b + 10, &end, 10) <= 0 || end == b + 10)
        return false;
    return *end == '-' && strlen(end + 1) == 6;
}

void dur_leftovers_remove(const char *dir, const char *dm, dur_left *left)
{
    memset(left, 0, sizeof *left);
    mnt_ent *m = calloc(MAX_MOUNTS, sizeof *m);
    if (!m) {
        left->incomplete = true;
        return;
    }
    size_t nm = mounts_in(dir, m, MAX_MOUNTS);
    /* counted now: one under a filesystem goes by itself when that is unmounted */
    left->loops = loops_here(dir, m, nm, false);
    for (size_t i = 0; i < nm; i++)
        if (m[i].fuse)
            abort_fuse(&m[i]);
    for (size_t i = 0; i < nm; i++)
        if (!m[i].fuse && unmount(m[i].path))
            left->mounts++;
    char path[128];
    snprintf(path, sizeof path, "/dev/mapper/%s", dm ? dm : "");
    if (dm && dm[0] && access(path, F_OK) == 0) {
        char e[200];
        const char *argv[] = {"dmsetup", "remove", "--retry", dm, NULL};
        if (dur_run(argv, e, sizeof e) == 0)
            left->dm++;
        else
            left->incomplete = true;
    }
    loops_here(dir, m, nm, true);
    /* the kernel lets a detached device go a moment later: wait for it, briefly */
    for (int i = 0; i < 100 && left->loops && loops_here(dir, m, nm, false); i++)
        nap_ms(20);
    if (loops_here(dir, m, nm, false))
        left->incomplete = true;
    for (size_t i = 0; i < nm; i++)
        if (m[i].fuse && umount2(m[i].path, MNT_DETACH | UMOUNT_NOFOLLOW) == 0)
            left->fuse++;
    struct stat st;
    if (mounts_in(dir, m, MAX_MOUNTS) > 0)
        left->incomplete = true; /* never remove files through a mount still there */
    else if (run_dir_name(dir) && lstat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (sb_remove_tree(dir) == 0)
            left->dir = true;
        else
            left->incomplete = true;
    }
    free(m);
}

/* "1 mount, 2 loop devices" */
static void count(char *buf, size_t len, unsigned n, const char *what)
{
    if (n)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%u %s%s", buf[0] ? ", " : "", n, what,
                 n == 1 ? "" : "s");
}

static void describe(const dur_left *l, long pid, const char *dir, char *line, size_t len)
{
    char what[256] = "";
    count(what, sizeof what, l->mounts, "mount");
    count(what, sizeof what, l->fuse, "FUSE mount");
    count(what, sizeof what, l->loops, "loop device");
    count(what, sizeof what, l->dm, "device-mapper device");
    if (l->incomplete)
        snprintf(line, len, "could not take apart all that a killed run (pid %ld) left in %s (still "
                 "mounted or busy); once it is free, run 'storbench scenario cleanup'", pid, dir);
    else if (what[0] || l->dir)
        snprintf(line, len, "removed what a killed run (pid %ld) left: %s%s%s", pid, what,
                 what[0] && l->dir ? " and its directory " : l->dir ? "its directory " : "", l->dir ? dir : "");
    else
        snprintf(line, len, "removed the journal of a killed run (pid %ld)", pid);
}

unsigned dur_cleanup_stale(void (*say)(void *arg, const char *line), void *arg)
{
    const char *sd = dur_state_dir();
    DIR *d = opendir(sd);
    if (!d)
        return 0;
    unsigned found = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        const char *n = de->d_name;
        size_t nl = strlen(n);
        bool tmp = !strncmp(n, ".durability-", 12);
        if (!tmp && (strncmp(n, "durability-", 11) || nl < 7 || strcmp(n + nl - 6, ".state")))
            continue;
        int fd = openat(dirfd(d), n, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        struct stat a, b;
        /* locked: its run or its guardian lives; held by us: nobody else cleans it now */
        if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) < 0 || fstat(fd, &a) < 0 ||
            fstatat(dirfd(d), n, &b, AT_SYMLINK_NOFOLLOW) < 0 || a.st_ino != b.st_ino || a.st_dev != b.st_dev) {
            if (fd >= 0)
                close(fd);
            continue;
        }
        long pid, gpid;
        char dir[PATH_MAX], dm[64], line[PATH_MAX + 512];
        if (tmp) {
            unlinkat(dirfd(d), n, 0); /* killed before it made anything */
        } else if (dur_journal_read(fd, &pid, &gpid, dir, sizeof dir, dm, sizeof dm) < 0) {
            snprintf(line, sizeof line, "%s/%s: not a journal of storbench durability (left alone)", sd, n);
            if (say)
                say(arg, line);
        } else {
            dur_left left;
            dur_leftovers_remove(dir, dm, &left);
            if (!left.incomplete)
                unlinkat(dirfd(d), n, 0);
            describe(&left, pid, dir, line, sizeof line);
            if (say)
                say(arg, line);
            found++;
        }
        close(fd);
    }
    closedir(d);
    return found;
}
