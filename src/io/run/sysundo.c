/*
 * sysundo — the journal of a job's system settings (sysundo.h). Replaying trusts nothing
 * in a journal but what it checks: a scheduler line is written back only into a
 * queue/scheduler file under /sys and only a scheduler's name; a cgroup line is only
 * rmdir'ed, only on a cgroup2 file system (an rmdir of a cgroup with a process in it
 * fails, and is left so); a journal not owned by the caller is left alone. Lines are
 * bounded (SB_IO_UNDO_MAX_LINES, each shorter than a path and a name) so a hostile or
 * torn journal costs no more memory than a good one.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "core/journal.h"
#include "io/run/sysundo.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

/* A job changes at most 16 devices' schedulers (SB_IO_SYS_MAX_DEVS) and one cgroup. */
#define SB_IO_UNDO_MAX_LINES 32

int sb_io_undo_open(sb_io_undo *u, char *err, size_t errlen)
{
    if (u->fd >= 0 && u->path[0])
        return 0;
    int r = sb_journal_dir_make();
    if (r < 0) {
        snprintf(err, errlen, "cannot create the state directory %s: %s (STORBENCH_STATE_DIR)",
                 sb_journal_dir(), strerror(-r));
        return r;
    }
    snprintf(u->path, sizeof u->path, "%s/io-%ld-XXXXXX.undo", sb_journal_dir(), (long)getpid());
    u->fd = mkostemps(u->path, 5, O_CLOEXEC);
    if (u->fd < 0 || flock(u->fd, LOCK_EX | LOCK_NB) < 0) {
        int e = errno;
        snprintf(err, errlen, "cannot create a journal in %s: %s", sb_journal_dir(), strerror(e));
        if (u->fd >= 0) {
            unlink(u->path);
            close(u->fd);
        }
        u->fd = -1;
        u->path[0] = '\0';
        return -e;
    }
    char head[64];
    snprintf(head, sizeof head, "storbench-io\t1\t%ld\n", (long)getpid());
    if (write(u->fd, head, strlen(head)) != (ssize_t)strlen(head)) {
        snprintf(err, errlen, "cannot write %s: %s", u->path, strerror(errno ? errno : EIO));
        sb_io_undo_done(u, true);
        return -EIO;
    }
    return 0;
}

int sb_io_undo_add(sb_io_undo *u, const char *kind, const char *a, const char *b)
{
    if (u->fd < 0 || strpbrk(a, "\t\n") || strpbrk(b, "\t\n"))
        return -EINVAL;
    char line[PATH_MAX + 96];
    int n = snprintf(line, sizeof line, "%s\t%s\t%s\n", kind, a, b);
    if (n < 0 || (size_t)n >= sizeof line)
        return -ENAMETOOLONG;
    if (write(u->fd, line, (size_t)n) != n)
        return errno ? -errno : -EIO;
    return fdatasync(u->fd) < 0 ? -errno : 0;
}

void sb_io_undo_done(sb_io_undo *u, bool all_back)
{
    if (u->fd < 0)
        return;
    if (all_back)
        unlink(u->path); /* before the lock goes: no cleaner may replay a journal already done */
    close(u->fd);
    u->fd = -1;
    u->path[0] = '\0';
}

static bool scheduler_name(const char *s)
{
    if (!*s || strlen(s) > 31)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_')
            return false;
    return true;
}

/* One journal line put back; what was done said on log. */
static void undo_line(const char *kind, const char *a, const char *b, FILE *log)
{
    char real[PATH_MAX];
    if (!strcmp(kind, SB_IO_UNDO_SCHED)) {
        size_t n = realpath(a, real) ? strlen(real) : 0, tail = strlen("/queue/scheduler");
        if (n <= tail || strncmp(real, "/sys/", 5) || strcmp(real + n - tail, "/queue/scheduler") ||
            !scheduler_name(b))
            return;
        int fd = open(real, O_WRONLY | O_CLOEXEC);
        bool ok = fd >= 0 && write(fd, b, strlen(b)) == (ssize_t)strlen(b);
        if (fd >= 0)
            close(fd);
        if (log)
            fprintf(log, "storbench: %s the I/O scheduler %s of %s a killed job left changed\n",
                    ok ? "put back" : "could not put back", b, a);
    } else if (!strcmp(kind, SB_IO_UNDO_CGROUP)) {
        struct statfs fs;
        if (!realpath(a, real) || statfs(real, &fs) < 0 || fs.f_type != CGROUP2_SUPER_MAGIC)
            return;
        bool ok = rmdir(real) == 0 || errno == ENOENT;
        if (log)
            fprintf(log, "storbench: %s the cgroup %s a killed job left\n", ok ? "removed" : "could not remove", a);
    }
}

/* Replays one dead run's journal (fd locked, read-only), last line first. */
static void replay(int fd, FILE *log)
{
    FILE *f = fdopen(dup(fd), "re");
    if (!f)
        return;
    char (*lines)[PATH_MAX + 96] = calloc(SB_IO_UNDO_MAX_LINES, sizeof *lines);
    unsigned n = 0;
    char buf[PATH_MAX + 96];
    while (lines && n < SB_IO_UNDO_MAX_LINES && fgets(buf, sizeof buf, f))
        if (strchr(buf, '\n') && strncmp(buf, "storbench-io\t", 13))
            snprintf(lines[n++], sizeof lines[0], "%s", buf);
    fclose(f);
    while (lines && n--) {
        char *kind = lines[n], *a = strchr(kind, '\t'), *b = a ? strchr(a + 1, '\t') : NULL;
        if (!b)
            continue;
        *a++ = '\0';
        *b++ = '\0';
        b[strcspn(b, "\n")] = '\0';
        undo_line(kind, a, b, log);
    }
    free(lines);
}

int sb_io_undo_replay_stale(FILE *log)
{
    DIR *d = opendir(sb_journal_dir());
    if (!d)
        return 0;
    int done = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t nl = strlen(de->d_name);
        if (strncmp(de->d_name, "io-", 3) || nl < 8 || strcmp(de->d_name + nl - 5, ".undo"))
            continue;
        char path[PATH_MAX];
        if (snprintf(path, sizeof path, "%s/%s", sb_journal_dir(), de->d_name) >= (int)sizeof path)
            continue;
        int fd = sb_journal_lock_stale(path, strtol(de->d_name + 3, NULL, 10));
        struct stat st;
        if (fd < 0)
            continue;
        if (fstat(fd, &st) == 0 && st.st_uid == geteuid() && S_ISREG(st.st_mode)) {
            replay(fd, log);
            unlink(path);
            done++;
        }
        close(fd);
    }
    closedir(d);
    return done;
}
