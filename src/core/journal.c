/*
 * journal — the state directory and how a dead run's journal is told from a live one's
 * (journal.h). The lock is the proof of life; the pid in the name covers the moment
 * between a journal's creation and its lock, and a pid reused by another process only
 * delays a cleanup, never lets one run on a live run's journal.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/journal.h"

const char *sb_journal_dir(void)
{
    const char *d = getenv("STORBENCH_STATE_DIR");
    return d && *d ? d : "/run/storbench";
}

int sb_journal_dir_make(void)
{
    return mkdir(sb_journal_dir(), 0700) < 0 && errno != EEXIST ? -errno : 0;
}

bool sb_journal_pid_lives(long pid)
{
    if (kill((pid_t)pid, 0) < 0 && errno != EPERM)
        return false;
    char p[64], st[512];
    snprintf(p, sizeof p, "/proc/%ld/stat", pid);
    FILE *f = fopen(p, "re");
    if (!f)
        return true;
    size_t n = fread(st, 1, sizeof st - 1, f);
    fclose(f);
    st[n] = '\0';
    const char *close_paren = strrchr(st, ')'); /* "pid (comm) S ..." */
    return !(close_paren && close_paren[1] == ' ' && close_paren[2] == 'Z');
}

int sb_journal_lock_stale(const char *path, long pid)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat a, b;
    if (fd < 0)
        return -1;
    if (flock(fd, LOCK_EX | LOCK_NB) < 0 || fstat(fd, &a) < 0 || lstat(path, &b) < 0 ||
        a.st_ino != b.st_ino || a.st_dev != b.st_dev ||
        (pid != (long)getpid() && pid > 0 && sb_journal_pid_lives(pid))) {
        close(fd);
        return -1;
    }
    return fd;
}

bool sb_journal_locked(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    bool live = flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK;
    close(fd);
    return live;
}
