/*
 * modeled — the run's side of the modeled devices and their guardian process
 * (modeled.h says why there is one). The guardian is forked, not executed, between
 * configurations, when the run has no other thread; it keeps only its socket (no lock
 * or file of the run's: the run's journal lock must die with the run, or its journal
 * would look alive). One message each way: "ready" (or the line that says why not)
 * after the FUSE file system is mounted, and "quit" from the run once its journal's
 * undo has unmounted it.
 */
#include "scenario/modeled.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/childfds.h"
#include "core/strutil.h"

typedef struct {
    int rc;
    char err[512];
} g_msg;

int sb_modeled_wanted(const sb_scn_config *c)
{
    for (unsigned i = 0; i < c->devices; i++)
        if (c->dev[i].model[0])
            return 1;
    return 0;
}

void sb_modeled_file(const sb_modeled *md, unsigned i, char *path, size_t len)
{
    sb_fmt(path, len, "%s/d%u", md->mnt, i);
}

static void __attribute__((noreturn)) guard_main(int sock, const char *mnt, char images[][PATH_MAX],
                                                 const char *const *specs, unsigned n)
{
    sb_child_detach(); /* own session, default signals: a signal ends the guardian */
    sb_child_keep_fds(&sock, 1); /* the socket as 3, 0-2 on /dev/null, nothing else open */
    (void)!chdir("/");
    prctl(PR_SET_NAME, "storbench-model");
    /* A request's answer is due at its modeled time: on a busy host a normal thread woken
     * then waits for a time slice first (bench/device-model-cost.sh measured milliseconds),
     * so the serving threads (all inherit this) run at the lowest real-time priority. They
     * only sleep, copy a request's data and do the model's arithmetic; without the right
     * to it they stay as they are. */
    struct sched_param sp = {.sched_priority = 1};
    (void)sched_setscheduler(0, SCHED_FIFO, &sp);
    g_msg m = {0};
    sb_modeled_server *srv = NULL;
    m.rc = sb_modeled_serve(mnt, images, specs, n, &srv, m.err, sizeof m.err);
    (void)!send(sock, &m, sizeof m, MSG_NOSIGNAL);
    ssize_t got;
    while ((got = recv(sock, &m, sizeof m, 0)) < 0 && errno == EINTR)
        ;
    if (got <= 0) {
        /* The run died without a word: take apart what its journal names while we still
         * serve (its filesystem unmounts through us), then stop. */
        unsigned found = 0, busy = 0;
        char err[256];
        /* its journal's lock may go a moment after its socket: try for a few seconds */
        for (int i = 0; i < 50 && found == 0; i++) {
            sb_state_cleanup(NULL, &found, &busy, err, sizeof err);
            if (found == 0)
                nanosleep(&(struct timespec){0, 100000000L}, NULL);
        }
    }
    sb_modeled_serve_stop(srv);
    _exit(0);
}

/* The mount point: journaled, then made (0700, ours alone). */
static int make_mountpoint(sb_modeled *md, const sb_scn_config *c, const char *parent_dir, sb_state *st,
                           char *err, size_t errlen)
{
    static unsigned seq;
    sb_fmt(md->mnt, sizeof md->mnt, "%s/storbench-mnt-%ld-model-%u", parent_dir, (long)getpid(), seq++);
    int rc = sb_state_add(st, SB_ST_DIR, md->mnt, "");
    if (rc == 0 && mkdir(md->mnt, 0700) < 0)
        rc = -errno;
    if (rc == 0)
        rc = sb_state_add(st, SB_ST_FUSE, md->mnt, "");
    if (rc < 0)
        sb_fmt(err, errlen, "[%s]: the modeled devices' mount point %s: %s", c->identifier, md->mnt,
               strerror(-rc));
    return rc;
}

int sb_modeled_start(sb_modeled *md, const sb_scn_config *c, char images[][PATH_MAX], unsigned n,
                     const char *parent_dir, sb_state *st, char *err, size_t errlen)
{
    memset(md, 0, sizeof *md);
    md->sock = -1;
    md->n = n;
    const char *specs[SB_SCN_MAX_DEVICES];
    for (unsigned i = 0; i < n; i++)
        specs[i] = c->dev[i].model[0] ? c->dev[i].model : "ram";
    int rc = make_mountpoint(md, c, parent_dir, st, err, errlen);
    if (rc < 0)
        return rc;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
        rc = -errno;
        sb_fmt(err, errlen, "socketpair: %s", strerror(-rc));
        return rc;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(sv[0]);
        guard_main(sv[1], md->mnt, images, specs, n);
    }
    close(sv[1]);
    if (pid < 0) {
        rc = -errno;
        close(sv[0]);
        sb_fmt(err, errlen, "cannot start the modeled devices' server: %s", strerror(-rc));
        return rc;
    }
    md->pid = pid;
    md->sock = sv[0];
    g_msg m;
    ssize_t got;
    while ((got = recv(md->sock, &m, sizeof m, 0)) < 0 && errno == EINTR)
        ;
    if (got != (ssize_t)sizeof m) {
        sb_fmt(err, errlen, "the modeled devices' server (pid %ld) did not start", (long)pid);
        return -ECHILD;
    }
    if (m.rc < 0) {
        m.err[sizeof m.err - 1] = '\0';
        sb_fmt(err, errlen, "[%s]: %s", c->identifier, m.err);
        return m.rc;
    }
    return 0;
}

void sb_modeled_end(sb_modeled *md)
{
    if (md->sock >= 0) {
        g_msg m = {.rc = 0};
        (void)!send(md->sock, &m, sizeof m, MSG_NOSIGNAL);
        close(md->sock);
        md->sock = -1;
    }
    if (md->pid > 0)
        while (waitpid(md->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    md->pid = 0;
}
