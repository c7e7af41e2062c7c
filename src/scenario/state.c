/*
 * state — the journal of created objects and its replay (see state.h).
 * File format, one record per line, fields separated by tabs:
 *   storbench-scenario 1 <pid>      (header)
 *   <kind> <a> <b>                  (an object, in creation order)
 *   undo <index>                    (object <index> (0-based) was undone)
 * Paths with a tab or newline are refused when journaled.
 */

/* Messages and sysfs paths are built in fixed buffers sized for real paths (PATH_MAX);
 * a longer one is cut, which GCC cannot prove never happens. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "scenario/state.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/journal.h"
#include "scenario/undo.h"

static int push(sb_state *st, const char *kind, const char *a, const char *b)
{
    if (st->n == st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 16;
        sb_state_item *it = realloc(st->items, cap * sizeof *it);
        if (!it)
            return -ENOMEM;
        st->items = it;
        st->cap = cap;
    }
    sb_state_item *it = &st->items[st->n++];
    memset(it, 0, sizeof *it);
    snprintf(it->kind, sizeof it->kind, "%s", kind);
    snprintf(it->a, sizeof it->a, "%s", a ? a : "");
    snprintf(it->b, sizeof it->b, "%s", b ? b : "");
    return 0;
}

static int append_line(sb_state *st, const char *line)
{
    size_t len = strlen(line), off = 0;
    while (off < len) {
        ssize_t w = write(st->fd, line + off, len - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        off += (size_t)w;
    }
    return fdatasync(st->fd) < 0 ? -errno : 0;
}

int sb_state_open(sb_state *st, char *err, size_t errlen)
{
    memset(st, 0, sizeof *st);
    st->fd = -1;
    const char *dir = sb_journal_dir();
    if (sb_journal_dir_make() < 0) {
        int e = errno;
        snprintf(err, errlen, "cannot create the state directory %s: %s", dir, strerror(e));
        return -e;
    }
    snprintf(st->path, sizeof st->path, "%s/scenario-%ld.state", dir, (long)getpid());
    st->fd = open(st->path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
    if (st->fd < 0) {
        int e = errno;
        snprintf(err, errlen, "cannot create %s: %s", st->path, strerror(e));
        return -e;
    }
    /* The lock says "this run is alive": a killed run's lock goes with its process. */
    if (flock(st->fd, LOCK_EX | LOCK_NB) < 0) {
        int e = errno;
        snprintf(err, errlen, "cannot lock %s: %s", st->path, strerror(e));
        close(st->fd);
        st->fd = -1;
        return -e;
    }
    char head[64];
    snprintf(head, sizeof head, "storbench-scenario\t1\t%ld\n", (long)getpid());
    int rc = append_line(st, head);
    if (rc < 0)
        snprintf(err, errlen, "cannot write %s: %s", st->path, strerror(-rc));
    return rc;
}

int sb_state_add(sb_state *st, const char *kind, const char *a, const char *b)
{
    b = b ? b : "";
    if (strpbrk(a, "\t\n") || strpbrk(b, "\t\n"))
        return -EINVAL;
    char line[8300];
    snprintf(line, sizeof line, "%s\t%s\t%s\n", kind, a, b);
    int rc = push(st, kind, a, b);
    if (rc < 0)
        return rc;
    return st->fd >= 0 ? append_line(st, line) : 0;
}

static int undo_range(sb_state *st, size_t from, FILE *log, char *err, size_t errlen)
{
    int first = 0;
    for (size_t i = st->n; i-- > from;) {
        sb_state_item *it = &st->items[i];
        if (it->undone)
            continue;
        char e[1024] = "";
        int rc = sb_undo(it->kind, it->a, it->b, log, e, sizeof e);
        if (rc < 0) {
            if (!first) {
                first = rc;
                snprintf(err, errlen, "%s", e);
            }
            continue;
        }
        it->undone = true;
        if (st->fd >= 0) {
            char line[64];
            snprintf(line, sizeof line, "undo\t%zu\n", i);
            append_line(st, line);
        }
    }
    return first;
}

int sb_state_undo(sb_state *st, size_t from, FILE *log, char *err, size_t errlen)
{
    return undo_range(st, from, log, err, errlen);
}

void sb_state_close(sb_state *st)
{
    bool all = true;
    for (size_t i = 0; i < st->n; i++)
        all = all && st->items[i].undone;
    if (st->fd >= 0) {
        /* Keep the journal of anything left behind for `scenario cleanup`. */
        if (all)
            unlink(st->path);
        close(st->fd);
    }
    free(st->items);
    st->items = NULL;
    st->n = st->cap = 0;
    st->fd = -1;
}

/* Reads a journal into st (fd stays -1: replaying a dead run's journal appends nothing). */
static int load(const char *path, sb_state *st)
{
    memset(st, 0, sizeof *st);
    st->fd = -1;
    snprintf(st->path, sizeof st->path, "%s", path);
    FILE *f = fopen(path, "r");
    if (!f)
        return -errno;
    char line[8400];
    int rc = 0;
    bool head = true;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char *save = NULL, *kind = strtok_r(line, "\t", &save);
        char *a = kind ? strtok_r(NULL, "\t", &save) : NULL;
        char *b = a ? strtok_r(NULL, "\t", &save) : NULL;
        if (!kind)
            continue;
        if (head) {
            head = false;
            if (strcmp(kind, "storbench-scenario")) {
                rc = -EINVAL;
                break;
            }
            continue;
        }
        if (!strcmp(kind, "undo")) {
            size_t i = a ? strtoul(a, NULL, 10) : (size_t)-1;
            if (i < st->n)
                st->items[i].undone = true;
            continue;
        }
        if (a && (rc = push(st, kind, a, b)) < 0)
            break;
    }
    fclose(f);
    return rc;
}

bool sb_state_pid_alive(long pid)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/scenario-%ld.state", sb_journal_dir(), pid);
    return sb_journal_locked(path);
}

int sb_state_cleanup(FILE *log, unsigned *found, unsigned *busy, char *err, size_t errlen)
{
    *found = *busy = 0;
    const char *dir = sb_journal_dir();
    DIR *d = opendir(dir);
    if (!d) {
        if (errno == ENOENT)
            return 0;
        int e = errno;
        snprintf(err, errlen, "%s: %s", dir, strerror(e));
        return -e;
    }
    int first = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t nl = strlen(de->d_name);
        if (strncmp(de->d_name, "scenario-", 9) || nl < 7 || strcmp(de->d_name + nl - 6, ".state"))
            continue;
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        int fd = sb_journal_lock_stale(path, strtol(de->d_name + 9, NULL, 10));
        if (fd < 0) {
            (*busy)++;
            if (log)
                fprintf(log, "%s: that run is still going (left alone)\n", path);
            continue;
        }
        (*found)++;
        sb_state st;
        int rc = load(path, &st);
        char e[1024] = "";
        if (rc < 0) {
            snprintf(e, sizeof e, "%s: unreadable journal: %s", path, strerror(-rc));
        } else {
            rc = undo_range(&st, 0, log, e, sizeof e);
        }
        if (rc == 0) {
            unlink(path);
            if (log)
                fprintf(log, "removed journal %s\n", path);
        } else if (!first) {
            first = rc;
            snprintf(err, errlen, "%s", e);
        }
        free(st.items);
        close(fd); /* the lock goes only now, with the journal already gone */
    }
    closedir(d);
    return first;
}

/* Is path the backing file of some loop device? */
static bool attached(const char *path)
{
    DIR *d = opendir("/sys/block");
    if (!d)
        return false;
    struct dirent *de;
    bool hit = false;
    while (!hit && (de = readdir(d))) {
        if (strncmp(de->d_name, "loop", 4))
            continue;
        char p[300], cur[4200];
        snprintf(p, sizeof p, "/sys/block/%s/loop/backing_file", de->d_name);
        FILE *f = fopen(p, "r");
        if (!f)
            continue;
        if (fgets(cur, sizeof cur, f)) {
            cur[strcspn(cur, "\n")] = 0;
            size_t n = strlen(cur);
            if (n > 10 && !strcmp(cur + n - 10, " (deleted)"))
                cur[n - 10] = 0;
            hit = !strcmp(cur, path);
        }
        fclose(f);
    }
    closedir(d);
    return hit;
}

int sb_state_sweep_dir(const char *dir, FILE *log, unsigned *removed, char *err, size_t errlen)
{
    *removed = 0;
    DIR *d = opendir(dir);
    if (!d) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", dir, strerror(e));
        return -e;
    }
    int first = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        bool image = !strncmp(de->d_name, "storbench-scn-", 14);
        bool mnt = !strncmp(de->d_name, "storbench-mnt-", 14);
        if (!image && !mnt)
            continue;
        char *end;
        long pid = strtol(de->d_name + 14, &end, 10);
        if (end == de->d_name + 14 || *end != '-' || sb_state_pid_alive(pid))
            continue;
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (image) {
            size_t nl = strlen(de->d_name);
            if (nl < 4 || strcmp(de->d_name + nl - 4, ".img") || attached(path))
                continue;
            if (unlink(path) == 0) {
                (*removed)++;
                if (log)
                    fprintf(log, "removed image %s\n", path);
            } else if (!first) {
                first = -errno;
                snprintf(err, errlen, "cannot remove %s: %s", path, strerror(errno));
            }
        } else {
            struct stat a, b;
            if (stat(path, &a) < 0 || stat(dir, &b) < 0 || !S_ISDIR(a.st_mode) || a.st_dev != b.st_dev)
                continue; /* still a mount point: its journal is the way to undo it */
            if (rmdir(path) == 0) {
                (*removed)++;
                if (log)
                    fprintf(log, "removed directory %s\n", path);
            }
        }
    }
    closedir(d);
    return first;
}
