/*
 * child — see child.h. Between fork and exec the child makes only async-signal-safe
 * calls (no stdio, no malloc, no strerror's locale): storbench may have other threads
 * when it starts a program (pgbench starts the server while its clients run), and a
 * lock one of them held at the fork would stay held in the child for ever.
 */
#include "core/child.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/childfds.h"

/* "cannot run ARG: REASON" on the child's stderr, with write() alone. */
static void child_say(const char *what, const char *arg, int e)
{
    const char *why = strerrordesc_np(e);
    const char *parts[] = {what, arg, ": ", why ? why : "error", "\n"};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        (void)!write(STDERR_FILENO, parts[i], strlen(parts[i]));
}

static int child_stdio(const sb_child_spec *s)
{
    int null = -1;
    if (s->in < 0 || s->out < 0 || s->err < 0)
        if ((null = open("/dev/null", O_RDWR)) < 0)
            return -1;
    int from[3] = {s->in < 0 ? null : s->in, s->out < 0 ? null : s->out, s->err < 0 ? null : s->err};
    for (int i = 0; i < 3; i++)
        if (from[i] != i && dup2(from[i], i) < 0)
            return -1;
    return 0;
}

static void __attribute__((noreturn)) child_main(const sb_child_spec *s, pid_t parent)
{
    sb_child_signals_default();
    if (s->own_group)
        setpgid(0, 0);
    if (child_stdio(s) < 0)
        _exit(126);
    close_range(3, ~0U, 0);
    if (s->drop && sb_child_drop_creds(s->uid, s->gid) < 0) {
        child_say("cannot switch to the user to run as", "", errno);
        _exit(126);
    }
    /* After the credentials: changing them clears the death signal. */
    if (s->deathsig && sb_child_die_with_parent(parent, s->deathsig) < 0)
        _exit(126);
    if (s->cwd && chdir(s->cwd) < 0) {
        child_say("cannot enter ", s->cwd, errno);
        _exit(126);
    }
    if (s->envp)
        execvpe(s->argv[0], s->argv, s->envp);
    else
        execvp(s->argv[0], s->argv);
    child_say("cannot run ", s->argv[0], errno);
    _exit(127);
}

int sb_child_spawn(const sb_child_spec *s, pid_t *pid)
{
    pid_t parent = getpid(), p = fork();
    if (p < 0)
        return -errno;
    if (p == 0)
        child_main(s, parent);
    if (s->own_group) /* in both: whichever runs first, the group exists before a kill */
        setpgid(p, p);
    *pid = p;
    return 0;
}

int sb_child_wait(pid_t pid, int *status)
{
    int st;
    while (waitpid(pid, status ? status : &st, 0) < 0)
        if (errno != EINTR)
            return -errno;
    return 0;
}

void sb_child_stop(pid_t pid, bool group, unsigned grace_ms)
{
    if (pid <= 0)
        return;
    kill(group ? -pid : pid, SIGTERM);
    for (unsigned waited = 0; waited < grace_ms; waited += 100) {
        if (waitpid(pid, NULL, WNOHANG) == pid)
            return;
        nanosleep(&(struct timespec){0, 100000000L}, NULL);
    }
    kill(group ? -pid : pid, SIGKILL);
    sb_child_wait(pid, NULL);
}
