/*
 * system — fio's process and system settings around one job (system.h): memory locked
 * (lockmem: an anonymous mapping mlocked, as fio's pinned memory, so that the page cache
 * has that much less), the I/O scheduler of the files' devices (fio writes it and reads
 * it back; storbench also puts the old one back after the job, which fio does not), a
 * cgroup v2 for the job (fio's cgroup with thread=1: the tid written to cgroup.procs
 * moves the whole process, so storbench moves the process in and back out; the cgroup is
 * made under the caller's own), the job's user and group (uid, gid: the effective ids of
 * the job's controlling thread, which its workers inherit; fio sets them in its worker,
 * whose files it then opens as that user, as storbench's are), and the exec_prerun /
 * exec_postrun commands, run as fio's: /bin/sh -c "CMD", output and errors to
 * JOBNAME.prerun.txt (postrun.txt) in the current directory; a prerun that fails fails
 * the job.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/child.h"
#include "io/run/system.h"

static const char *job_name(const sb_io_job *job) { return job->name[0] ? job->name : "storbench-io"; }

static void regain_ids(sb_io_sys *s);
static int drop_again(const sb_io_job *job, sb_io_sys *s);

/* fio's exec_string: CMD with its output in NAME.WHAT.txt; the shell's status. With
 * uid/gid the command runs as the job's user wholly (real ids too, as fio's worker has
 * them): a shell whose real id is root's would take root back, so the child is started
 * as root and drops everything itself (core/child.h), and this thread drops again. */
static int run_command(const sb_io_job *job, sb_io_sys *s, const char *cmd, const char *what, char *err,
                       size_t errlen)
{
    char out[sizeof job->name + 32];
    snprintf(out, sizeof out, "%s.%s.txt", job_name(job), what);
    fprintf(stderr, "%s : Saving output of %s in %s\n", job_name(job), what, out);
    int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, "exec_%s: %s: %s", what, out, strerror(e));
        return -e;
    }
    char *argv[] = {"/bin/sh", "-c", (char *)cmd, NULL};
    sb_child_spec sp = {.argv = argv, .in = -1, .out = fd, .err = fd, .drop = s->dropped,
                        .uid = job->uid >= 0 ? (uid_t)job->uid : 0,
                        .gid = job->gid >= 0 ? (gid_t)job->gid : s->egid};
    pid_t pid;
    bool dropped = s->dropped;
    regain_ids(s);
    int st = 0, r = sb_child_spawn(&sp, &pid);
    if (dropped && drop_again(job, s) < 0 && r == 0)
        r = -EPERM;
    close(fd);
    if (r == 0)
        r = sb_child_wait(pid, &st);
    if (r < 0) {
        snprintf(err, errlen, "exec_%s: cannot run /bin/sh: %s", what, strerror(-r));
        return r;
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st)) {
        snprintf(err, errlen, "exec_%s: '%s' failed (%s %d; its output in %s)", what, cmd,
                 WIFEXITED(st) ? "exit status" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st),
                 out);
        return -ECHILD;
    }
    return 0;
}

/* The queue/scheduler file of the device under path: /sys/dev/block/M:m/queue, or its
 * parent's for a partition. -ENODEV when there is no block device (tmpfs, fuse). */
static int scheduler_file(const char *path, char *out, size_t len)
{
    struct stat st;
    char up[PATH_MAX];
    if (stat(path, &st) < 0) { /* a file not made yet: its directory's device */
        snprintf(up, sizeof up, "%s", path);
        char *slash = strrchr(up, '/');
        if (errno != ENOENT || stat(slash ? (slash == up ? "/" : (*slash = '\0', up)) : ".", &st) < 0)
            return -ENODEV;
    }
    dev_t d = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
    const char *fmt[] = {"/sys/dev/block/%u:%u/queue/scheduler", "/sys/dev/block/%u:%u/../queue/scheduler"};
    for (int i = 0; i < 2; i++) {
        snprintf(out, len, fmt[i], major(d), minor(d));
        if (access(out, F_OK) == 0)
            return 0;
    }
    return -ENODEV;
}

/* One change written down in the job's journal before it is made (sysundo.h). */
static int journal(sb_io_sys *s, const char *kind, const char *a, const char *b, char *err, size_t errlen)
{
    int r = sb_io_undo_open(&s->undo, err, errlen);
    if (r == 0 && (r = sb_io_undo_add(&s->undo, kind, a, b)) < 0)
        snprintf(err, errlen, "%s: cannot journal %s in %s: %s", kind, a, s->undo.path, strerror(-r));
    return r;
}

/* The line of file f (the schedulers it offers), into buf, for a message. */
static const char *scheduler_offers(const char *f, char *buf, size_t len)
{
    FILE *fp = fopen(f, "r");
    buf[0] = '\0';
    if (fp && !fgets(buf, (int)len, fp))
        buf[0] = '\0';
    if (fp)
        fclose(fp);
    buf[strcspn(buf, "\n")] = '\0';
    return buf;
}

/* The scheduler in use in file f (the bracketed name) into old. 0 or -errno with err. */
static int scheduler_get(const char *f, char *old, size_t oldlen, char *err, size_t errlen)
{
    char buf[256] = "";
    FILE *fp = fopen(f, "r");
    if (!fp || !fgets(buf, sizeof buf, fp)) {
        int e = errno ? errno : EIO;
        snprintf(err, errlen, "ioscheduler: %s: %s", f, strerror(e));
        if (fp)
            fclose(fp);
        return -e;
    }
    fclose(fp);
    char *a = strchr(buf, '['), *b = a ? strchr(a, ']') : NULL;
    snprintf(old, oldlen, "%.*s", a && b ? (int)(b - a - 1) : 0, a ? a + 1 : "");
    return 0;
}

/* Writes name into the scheduler file f and reads it back: 0 when it is now "[name]";
 * the old one (the bracketed name) into old. */
static int scheduler_set(const char *f, const char *name, char *old, size_t oldlen, char *err, size_t errlen)
{
    int r = scheduler_get(f, old, oldlen, err, errlen);
    if (r < 0)
        return r;
    int fd = open(f, O_WRONLY | O_CLOEXEC);
    bool w = fd >= 0 && write(fd, name, strlen(name)) == (ssize_t)strlen(name);
    if (fd >= 0)
        close(fd);
    char now[32] = "";
    if (!w || scheduler_get(f, now, sizeof now, err, errlen) < 0 || strcmp(now, name)) {
        snprintf(err, errlen, "ioscheduler: cannot set %s in %s (it offers %s)", name, f,
                 scheduler_offers(f, now, sizeof now));
        return -EINVAL;
    }
    return 0;
}

static int schedulers(const sb_io_job *job, const char *const *paths, unsigned n, sb_io_sys *s,
                      char *err, size_t errlen)
{
    for (unsigned i = 0; i < n; i++) {
        char f[96];
        if (scheduler_file(paths[i], f, sizeof f) < 0) {
            /* fio skips such a file without a word; an option that does nothing is refused */
            snprintf(err, errlen, "ioscheduler: %s has no block device under it (tmpfs?): there "
                     "is no scheduler to set", paths[i]);
            return -EINVAL;
        }
        bool seen = false;
        for (unsigned k = 0; k < s->ndev; k++)
            seen |= !strcmp(s->sched_path[k], f);
        if (seen)
            continue;
        if (s->ndev == SB_IO_SYS_MAX_DEVS) {
            snprintf(err, errlen, "ioscheduler: the job's files are on more than %d devices",
                     SB_IO_SYS_MAX_DEVS);
            return -EINVAL;
        }
        char old[32];
        int r = scheduler_get(f, old, sizeof old, err, errlen);
        if (r == 0)
            r = journal(s, SB_IO_UNDO_SCHED, f, old, err, errlen);
        if (r == 0)
            r = scheduler_set(f, job->ioscheduler, old, sizeof old, err, errlen);
        if (r < 0)
            return r;
        snprintf(s->sched_path[s->ndev], sizeof s->sched_path[0], "%s", f);
        snprintf(s->sched_old[s->ndev++], sizeof s->sched_old[0], "%s", old);
    }
    return 0;
}

static int lock_memory(const sb_io_job *job, sb_io_sys *s, char *err, size_t errlen)
{
    size_t len = (size_t)job->lockmem;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED || mlock(p, len) < 0) {
        int e = errno;
        if (p != MAP_FAILED)
            munmap(p, len);
        snprintf(err, errlen, "lockmem: cannot lock %zu bytes: %s%s", len, strerror(e),
                 e == EPERM || e == ENOMEM ? " (RLIMIT_MEMLOCK, ulimit -l)" : "");
        return -e;
    }
    s->locked = p;
    s->locked_len = len;
    return 0;
}

/* The cgroup2 mount and this process's cgroup in it (the "0::PATH" line of
 * /proc/self/cgroup) as a directory into out. -ENOENT when cgroup2 is not mounted. */
static int cgroup_self(char *out, size_t len)
{
    char line[PATH_MAX + 64], mnt[PATH_MAX] = "", self[PATH_MAX] = "";
    FILE *f = fopen("/proc/self/mounts", "r");
    while (f && fgets(line, sizeof line, f)) {
        char dev[64], dir[PATH_MAX], type[32];
        if (sscanf(line, "%63s %4095s %31s", dev, dir, type) == 3 && !strcmp(type, "cgroup2")) {
            snprintf(mnt, sizeof mnt, "%s", dir);
            break;
        }
    }
    if (f)
        fclose(f);
    f = fopen("/proc/self/cgroup", "r");
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "0::", 3)) {
            line[strcspn(line, "\n")] = '\0';
            snprintf(self, sizeof self, "%.4000s", line + 3);
        }
    if (f)
        fclose(f);
    if (!mnt[0] || !self[0])
        return -ENOENT;
    if (snprintf(out, len, "%.2047s%.2047s", mnt, strcmp(self, "/") ? self : "") >= (int)len)
        return -ENAMETOOLONG;
    return 0;
}

/* Writes text into dir/file: 0 or -errno. */
static int cg_write(const char *dir, const char *file, const char *text)
{
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/%s", dir, file);
    int fd = open(p, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    ssize_t n = write(fd, text, strlen(text));
    int e = n < 0 ? errno : 0;
    close(fd);
    return -e;
}

static int cgroup_enter(const sb_io_job *job, sb_io_sys *s, char *err, size_t errlen)
{
    if (strchr(job->cgroup, '/') || job->cgroup[0] == '.') {
        snprintf(err, errlen, "cgroup '%s': a name without '/' and not starting with '.'", job->cgroup);
        return -EINVAL;
    }
    int r = cgroup_self(s->cg_from, sizeof s->cg_from);
    if (r < 0) {
        snprintf(err, errlen, "cgroup: cgroup v2 is not mounted here (no cgroup2 in /proc/self/mounts)");
        return -EINVAL;
    }
    snprintf(s->cg_dir, sizeof s->cg_dir, "%.*s/%s", (int)(sizeof s->cg_dir - sizeof job->cgroup - 2),
             s->cg_from, job->cgroup);
    /* journaled once made, not before: a cgroup that was there already is not ours to
     * remove (the moment between the two is what a SIGKILL could leave) */
    if (mkdir(s->cg_dir, 0755) == 0) {
        s->cg_made = true;
        /* with cgroup_nodelete the user keeps it, killed or not: nothing to journal */
        if (!job->cgroup_nodelete && (r = journal(s, SB_IO_UNDO_CGROUP, s->cg_dir, "", err, errlen)) < 0)
            return r;
    } else if (errno != EEXIST) {
        int e = errno;
        snprintf(err, errlen, "cgroup: cgroup2 is not writable here: %s: %s", s->cg_dir, strerror(e));
        return -EINVAL;
    }
    char pid[32];
    snprintf(pid, sizeof pid, "%d\n", (int)getpid());
    if (job->cgroup_weight) {
        char w[32];
        snprintf(w, sizeof w, "default %u\n", job->cgroup_weight);
        if ((r = cg_write(s->cg_dir, "io.weight", w)) < 0) {
            snprintf(err, errlen, "cgroup_weight: %s/io.weight: %s%s", s->cg_dir, strerror(-r),
                     r == -ENOENT ? " (the io controller is not enabled in its parent's "
                                    "cgroup.subtree_control)" : "");
            return -EINVAL;
        }
    }
    if ((r = cg_write(s->cg_dir, "cgroup.procs", pid)) < 0) {
        snprintf(err, errlen, "cgroup: moving the job into %s: %s", s->cg_dir, strerror(-r));
        return -EINVAL;
    }
    s->cg_moved = true;
    return 0;
}

/* Back into the caller's cgroup, the job's removed unless cgroup_nodelete. Whether the
 * journal may go: false when the cgroup should have gone and did not. */
static bool cgroup_leave(const sb_io_job *job, sb_io_sys *s)
{
    char pid[32];
    snprintf(pid, sizeof pid, "%d\n", (int)getpid());
    if (s->cg_moved && cg_write(s->cg_from, "cgroup.procs", pid) < 0)
        fprintf(stderr, "storbench: warning: cgroup: cannot move back into %s\n", s->cg_from);
    if (s->cg_made && !job->cgroup_nodelete && rmdir(s->cg_dir) < 0) {
        fprintf(stderr, "storbench: warning: cgroup: cannot remove %s: %s\n", s->cg_dir, strerror(errno));
        return false;
    }
    return true;
}

/* The job's effective ids on this thread (gid first, as fio's). 0 or -errno. */
static int drop_again(const sb_io_job *job, sb_io_sys *s)
{
    if (job->gid >= 0 && syscall(SYS_setresgid, -1, job->gid, -1) < 0)
        return -errno;
    s->dropped = true;
    if (job->uid >= 0 && syscall(SYS_setresuid, -1, job->uid, -1) < 0)
        return -errno;
    return 0;
}

/* uid/gid: the calling thread's effective ids become the job's (raw syscalls: this thread
 * only, where glibc's would change every thread of the process), real and saved ids stay
 * root's so that sb_io_sys_end can take them back; the threads it starts inherit them. */
static int drop_ids(const sb_io_job *job, const char *dir_made, sb_io_sys *s, char *err, size_t errlen)
{
    if (geteuid() != 0) {
        snprintf(err, errlen, "%s: only root may run a job as another user (this is uid %d)",
                 job->uid >= 0 ? "uid" : "gid", (int)geteuid());
        return -EINVAL;
    }
    /* the private directories storbench made for the job's files are the job's user's */
    for (const char *d = dir_made ? dir_made : ""; *d; d += strlen(d) + 1)
        if (chown(d, job->uid >= 0 ? (uid_t)job->uid : (uid_t)-1, job->gid >= 0 ? (gid_t)job->gid : (gid_t)-1) < 0) {
            int e = errno;
            snprintf(err, errlen, "uid/gid: %s: chown: %s", d, strerror(e));
            return -e;
        }
    s->egid = getegid();
    int r = drop_again(job, s);
    if (r < 0)
        snprintf(err, errlen, "uid %d / gid %d: setresuid/setresgid: %s", job->uid, job->gid, strerror(-r));
    return r;
}

static void regain_ids(sb_io_sys *s)
{
    if (!s->dropped)
        return;
    if (syscall(SYS_setresuid, -1, 0, -1) < 0 || syscall(SYS_setresgid, -1, s->egid, -1) < 0)
        fprintf(stderr, "storbench: warning: uid/gid: cannot become root again: %s\n", strerror(errno));
    s->dropped = false;
}

int sb_io_sys_begin(const sb_io_job *job, const char *const *paths, unsigned npaths, const char *dir_made,
                    sb_io_sys *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->undo.fd = -1;
    s->began = true;
    int r = 0;
    sb_io_undo_replay_stale(stderr); /* what a killed job left changed (one readdir when nothing) */
    if (job->cgroup[0])
        r = cgroup_enter(job, s, err, errlen);
    if (r == 0 && job->ioscheduler[0])
        r = schedulers(job, paths, npaths, s, err, errlen);
    if (r == 0 && job->lockmem)
        r = lock_memory(job, s, err, errlen);
    if (r == 0 && (job->uid >= 0 || job->gid >= 0))
        r = drop_ids(job, dir_made, s, err, errlen);
    return r;
}

int sb_io_sys_prerun(const sb_io_job *job, sb_io_sys *s, char *err, size_t errlen)
{
    return job->exec_prerun[0] ? run_command(job, s, job->exec_prerun, "prerun", err, errlen) : 0;
}

void sb_io_sys_end(const sb_io_job *job, sb_io_sys *s)
{
    if (!s->began)
        return;
    char err[256];
    if (job->exec_postrun[0] && run_command(job, s, job->exec_postrun, "postrun", err, sizeof err) < 0)
        fprintf(stderr, "storbench: warning: %s\n", err);
    regain_ids(s);
    if (s->locked)
        munmap(s->locked, s->locked_len);
    bool all_back = true;
    for (unsigned k = 0; k < s->ndev; k++) {
        char old[32];
        if (s->sched_old[k][0] &&
            scheduler_set(s->sched_path[k], s->sched_old[k], old, sizeof old, err, sizeof err) < 0) {
            fprintf(stderr, "storbench: warning: %s: restoring %s\n", err, s->sched_old[k]);
            all_back = false;
        }
    }
    all_back &= cgroup_leave(job, s);
    sb_io_undo_done(&s->undo, all_back);
    s->began = false;
}
