/*
 * durability_guard — the guardian process and the run's journal (durability_guard.h
 * says why). The guardian starts and speaks as core/guardian.h says, one request and
 * one reply at a time: serve the FUSE file, log a mark, stop serving, quit. It is
 * started from a run that has no other thread at that moment (the durability test
 * starts no thread before it); it keeps no descriptor of the run's but its socket and
 * the journal, so that no lock or file of the run's (a result file, a `scenario run`
 * journal) outlives the run with it. Its requests carry paths, unlike the modeled
 * devices' guardian (scenario/modeled.c), which is told everything at its start: the
 * recorder is started and stopped several times in one run, around each crash.
 */
#include "workloads/durability/durability_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/guardian.h"
#include "core/strutil.h"
#include "workloads/durability/durability_fuse.h"

enum { G_READY = 1, G_FUSE_START, G_MARK, G_FUSE_STOP, G_QUIT };

typedef struct g_req {
    int op;
    char a[PATH_MAX], b[PATH_MAX], c[PATH_MAX];
} g_req;

/* ------------------------------------------------------------ the journal */

static int write_all_sync(int fd, const char *s)
{
    size_t len = strlen(s), off = 0;
    while (off < len) {
        ssize_t w = write(fd, s + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -errno;
        off += (size_t)w;
    }
    return fdatasync(fd) < 0 ? -errno : 0;
}

/* Made under a temporary name and locked before it gets its name, so that a journal
 * is never seen unlocked while its run lives. */
static int journal_create(dur_guard *g, const char *dir, char *err, size_t errlen)
{
    const char *sd = dur_state_dir();
    if (mkdir(sd, 0700) < 0 && errno != EEXIST) {
        int e = errno;
        snprintf(err, errlen, "cannot create the state directory %s: %s", sd, strerror(e));
        return -e;
    }
    for (int tries = 0; tries < 10; tries++) {
        char tmp[PATH_MAX];
        snprintf(tmp, sizeof tmp, "%s/.durability-XXXXXX", sd);
        int fd = mkostemp(tmp, O_CLOEXEC);
        if (fd < 0) {
            int e = errno;
            snprintf(err, errlen, "cannot create a journal in %s: %s", sd, strerror(e));
            return -e;
        }
        struct stat st;
        /* a cleaner may have taken the temporary file for a dead one: then anew */
        if (flock(fd, LOCK_EX) < 0 || fstat(fd, &st) < 0 || st.st_nlink == 0) {
            close(fd);
            continue;
        }
        char line[PATH_MAX + 64];
        snprintf(line, sizeof line, "storbench-durability\t1\t%ld\ndir\t%s\n", (long)getpid(), dir);
        snprintf(g->state_path, sizeof g->state_path, "%s/durability-%ld-%s.state", sd, (long)getpid(),
                 tmp + strlen(tmp) - 6);
        int e = write_all_sync(fd, line);
        if (e == 0 && renameat2(AT_FDCWD, tmp, AT_FDCWD, g->state_path, RENAME_NOREPLACE) < 0)
            e = -errno;
        if (e < 0) {
            unlink(tmp);
            close(fd);
            snprintf(err, errlen, "cannot write the journal %s: %s", g->state_path, strerror(-e));
            return e;
        }
        g->state_fd = fd;
        return 0;
    }
    snprintf(err, errlen, "cannot create a journal in %s", sd);
    return -EAGAIN;
}

int dur_guard_note(dur_guard *g, const char *kind, const char *value)
{
    if (g->state_fd < 0)
        return -EBADF;
    if (strpbrk(value, "\t\n"))
        return -EINVAL;
    char line[PATH_MAX + 64];
    snprintf(line, sizeof line, "%s\t%s\n", kind, value);
    return write_all_sync(g->state_fd, line);
}

/* Removes the journal if the name still is the file we hold. */
static void journal_remove(int fd, const char *path)
{
    struct stat a, b;
    if (fd >= 0 && fstat(fd, &a) == 0 && lstat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
        unlink(path);
}

/* ------------------------------------------------------------ the guardian */

/* The run is gone: take apart what it left, as its journal says. */
static void __attribute__((noreturn)) guard_orphaned(int state_fd, const char *state_path)
{
    long pid, gpid;
    char dir[PATH_MAX], dm[64];
    if (dur_journal_read(state_fd, &pid, &gpid, dir, sizeof dir, dm, sizeof dm) == 0) {
        dur_left left;
        dur_leftovers_remove(dir, dm, &left);
        if (!left.incomplete)
            journal_remove(state_fd, state_path);
    }
    _exit(0);
}

/* Only the socket (3) and the journal (keep[0], 4) are open here; 0-2 are on /dev/null,
 * so that a pipe reading the run's output ends with the run. */
static void __attribute__((noreturn)) guard_main(int sock, const int *keep, void *arg)
{
    int state_fd = keep[0];
    const char *state_path = arg;
    /* large (three paths; the FUSE server): on the heap, for the guardian's life */
    g_req *q = sb_xcalloc(1, sizeof *q);
    dur_fuse_server *fs = sb_xcalloc(1, sizeof *fs);
    bool serving = false;
    sb_guardian_reply_send(sock, G_READY, NULL);
    for (;;) {
        ssize_t n = sb_guardian_recv(sock, q, sizeof *q);
        if (n < (ssize_t)sizeof q->op)
            guard_orphaned(state_fd, state_path); /* end of file: every thread of the run has exited */
        q->a[sizeof q->a - 1] = q->b[sizeof q->b - 1] = q->c[sizeof q->c - 1] = '\0';
        char err[512] = "";
        int rc = 0;
        switch (q->op) {
        case G_FUSE_START:
            if (serving) {
                rc = -EBUSY;
                break;
            }
            rc = dur_fuse_serve(fs, q->a, q->b, q->c, err, sizeof err);
            serving = true; /* a failed start is ended by G_FUSE_STOP too */
            break;
        case G_MARK:
            rc = serving ? dur_fuse_mark(fs, q->a) : -EBADF;
            break;
        case G_FUSE_STOP:
        case G_QUIT:
            if (serving && (rc = dur_fuse_end(fs)) < 0)
                snprintf(err, sizeof err, "recording the writes: %s", strerror(-rc));
            serving = false;
            break;
        default:
            rc = -EINVAL;
        }
        sb_guardian_reply_send(sock, rc, err);
        if (q->op == G_QUIT)
            _exit(0);
    }
}

/* ------------------------------------------------------------ the run's side */

static int ask(dur_guard *g, int op, const char *a, const char *b, const char *c, char *err, size_t errlen)
{
    g_req *q = sb_xcalloc(1, sizeof *q); /* three paths: on the heap */
    q->op = op;
    snprintf(q->a, sizeof q->a, "%s", a ? a : "");
    snprintf(q->b, sizeof q->b, "%s", b ? b : "");
    snprintf(q->c, sizeof q->c, "%s", c ? c : "");
    sb_guardian gd = {.pid = g->pid, .sock = g->sock};
    sb_guardian_reply r;
    int rc = sb_guardian_ask(&gd, q, sizeof *q, &r);
    free(q);
    if (rc == -ECONNRESET && !r.err[0]) {
        if (err)
            snprintf(err, errlen, "the guardian process (pid %ld) is gone", (long)g->pid);
        return -ECONNRESET;
    }
    if (rc < 0 && err)
        snprintf(err, errlen, "%s", r.err[0] ? r.err : strerror(-rc));
    return rc;
}

int dur_guard_start(dur_guard *g, const char *dir, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    g->sock = g->state_fd = -1;
    if (strpbrk(dir, "\t\n")) {
        snprintf(err, errlen, "%s: a tab or newline in the path (cannot be journaled)", dir);
        return -EINVAL;
    }
    int rc = journal_create(g, dir, err, errlen);
    if (rc < 0)
        return rc;
    sb_guardian gd;
    sb_guardian_reply r;
    rc = sb_guardian_start(&gd, "the guardian process", "storbench-guard", &g->state_fd, 1, guard_main,
                           g->state_path, &r, err, errlen);
    g->pid = gd.pid;
    g->sock = gd.sock;
    /* Ready once it is in its own session: from then on a kill of our group spares it. */
    char num[32];
    snprintf(num, sizeof num, "%ld", (long)g->pid);
    if (rc == 0 && (r.rc != G_READY || (rc = dur_guard_note(g, "guardian", num)) < 0))
        snprintf(err, errlen, "the guardian process did not start");
    if (rc < 0 || r.rc != G_READY) {
        dur_guard_end(g);
        return rc < 0 ? rc : -ECHILD;
    }
    return 0;
}

int dur_guard_fuse_start(dur_guard *g, const char *image, const char *log_path, const char *mnt,
                         char *err, size_t errlen)
{
    return ask(g, G_FUSE_START, image, log_path, mnt, err, errlen);
}

int dur_guard_mark(dur_guard *g, const char *text)
{
    return ask(g, G_MARK, text, NULL, NULL, NULL, 0);
}

int dur_guard_fuse_stop(dur_guard *g, char *err, size_t errlen)
{
    return ask(g, G_FUSE_STOP, NULL, NULL, NULL, err, errlen);
}

void dur_guard_end(dur_guard *g)
{
    g_req *q = sb_xcalloc(1, sizeof *q); /* three paths: on the heap */
    q->op = G_QUIT;
    sb_guardian gd = {.pid = g->pid, .sock = g->sock};
    sb_guardian_end(&gd, q, sizeof *q);
    free(q);
    if (g->state_fd >= 0) {
        journal_remove(g->state_fd, g->state_path);
        close(g->state_fd);
    }
    g->sock = g->state_fd = -1;
    g->pid = 0;
}
