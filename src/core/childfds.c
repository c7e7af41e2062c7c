/*
 * childfds — see childfds.h. Each kept descriptor is first moved above 10, so that
 * placing one at 3 + i never closes another that happened to sit there.
 */
#include "core/childfds.h"

#include <signal.h>

#include <fcntl.h>
#include <grp.h>
#include <sys/prctl.h>
#include <unistd.h>

void sb_child_keep_fds(int *fds, unsigned n)
{
    int high[8];
    if (n > sizeof high / sizeof high[0])
        _exit(1);
    for (unsigned i = 0; i < n; i++)
        if ((high[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 10)) < 0)
            _exit(1);
    for (unsigned i = 0; i < n; i++) {
        if (dup3(high[i], 3 + (int)i, O_CLOEXEC) < 0)
            _exit(1);
        fds[i] = 3 + (int)i;
    }
    close_range(3 + n, ~0U, 0);
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
        if (null > 2)
            close(null);
    }
}

void sb_child_signals_default(void)
{
    struct sigaction dfl = {.sa_handler = SIG_DFL};
    for (int s = 1; s < NSIG; s++)
        sigaction(s, &dfl, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

int sb_child_die_with_parent(pid_t parent, int sig)
{
    prctl(PR_SET_PDEATHSIG, sig);
    return getppid() == parent ? 0 : -1;
}

int sb_child_drop_creds(uid_t uid, gid_t gid)
{
    return setgroups(0, NULL) != 0 || setgid(gid) != 0 || setuid(uid) != 0 ? -1 : 0;
}

void sb_child_detach(void)
{
    setsid();
    sb_child_signals_default();
    signal(SIGPIPE, SIG_IGN);
}
