/*
 * guardian — see guardian.h. The socket is made close-on-exec and the child closes
 * every descriptor but its own (sb_child_keep_fds), so the run's end is never held open
 * by the guardian: the guardian sees end-of-file as soon as the run is gone.
 */
#include "core/guardian.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/childfds.h"

static void __attribute__((noreturn)) guardian_child(int sock, const char *name, const int *keep, unsigned nkeep,
                                                     sb_guardian_main fn, void *arg)
{
    sb_child_detach(); /* own session, default signals: a signal ends the guardian */
    int fds[8] = {sock};
    for (unsigned i = 0; i < nkeep; i++)
        fds[1 + i] = keep[i];
    sb_child_keep_fds(fds, 1 + nkeep); /* 3, 4 ...; 0-2 on /dev/null, nothing else open */
    (void)!chdir("/");
    prctl(PR_SET_NAME, name);
    fn(fds[0], fds + 1, arg);
    _exit(0);
}

int sb_guardian_start(sb_guardian *g, const char *what, const char *name, const int *keep, unsigned nkeep,
                      sb_guardian_main fn, void *arg, sb_guardian_reply *first, char *err, size_t errlen)
{
    int sv[2];
    g->pid = 0;
    g->sock = -1;
    if (nkeep > 7)
        return -EINVAL;
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
        int e = errno;
        snprintf(err, errlen, "socketpair: %s", strerror(e));
        return -e;
    }
    fflush(NULL); /* nothing buffered for the child to hold */
    pid_t pid = fork();
    if (pid == 0) {
        close(sv[0]);
        guardian_child(sv[1], name, keep, nkeep, fn, arg);
    }
    int e = errno;
    close(sv[1]);
    if (pid < 0) {
        close(sv[0]);
        snprintf(err, errlen, "cannot start %s: %s", what, strerror(e));
        return -e;
    }
    g->pid = pid;
    g->sock = sv[0];
    if (sb_guardian_recv(g->sock, first, sizeof *first) != (ssize_t)sizeof *first) {
        snprintf(err, errlen, "%s (pid %ld) did not start", what, (long)pid);
        return -ECHILD;
    }
    first->err[sizeof first->err - 1] = '\0';
    return 0;
}

void sb_guardian_reply_send(int sock, int rc, const char *err)
{
    sb_guardian_reply r = {.rc = rc};
    snprintf(r.err, sizeof r.err, "%s", err ? err : "");
    (void)!send(sock, &r, sizeof r, MSG_NOSIGNAL);
}

ssize_t sb_guardian_recv(int sock, void *buf, size_t len)
{
    ssize_t n;
    while ((n = recv(sock, buf, len, 0)) < 0 && errno == EINTR)
        ;
    return n;
}

int sb_guardian_ask(sb_guardian *g, const void *req, size_t len, sb_guardian_reply *r)
{
    if (g->sock < 0 || send(g->sock, req, len, MSG_NOSIGNAL) != (ssize_t)len ||
        sb_guardian_recv(g->sock, r, sizeof *r) != (ssize_t)sizeof *r) {
        r->rc = -ECONNRESET;
        r->err[0] = '\0';
        return -ECONNRESET;
    }
    r->err[sizeof r->err - 1] = '\0';
    return r->rc;
}

void sb_guardian_end(sb_guardian *g, const void *quit, size_t len)
{
    if (g->sock >= 0) {
        sb_guardian_reply r;
        sb_guardian_ask(g, quit, len, &r); /* its answer, or end-of-file as it exits */
        close(g->sock);
    }
    if (g->pid > 0)
        while (waitpid(g->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    g->sock = -1;
    g->pid = 0;
}
