/*
 * child — running another program: fork, the child's signals and descriptors set as
 * childfds.h's rules say (nothing of ours inherited but what is named: 0, 1 and 2),
 * an optional process group, credentials and death signal of its own, exec; and the
 * parent's side, a wait that survives signals and a stop that ends a child which will
 * not go. Every program storbench starts (mkfs and the other tools, QEMU, nbdkit,
 * PostgreSQL's server programs, useradd) goes through it, so that the rules are kept
 * in one place.
 */
#ifndef SB_CORE_CHILD_H
#define SB_CORE_CHILD_H

#include <stdbool.h>
#include <sys/types.h>

typedef struct sb_child_spec {
    char *const *argv;   /* argv[0] is searched in PATH unless it names a path */
    char *const *envp;   /* NULL: this process's environment */
    const char *cwd;     /* NULL: this process's */
    int in, out, err;    /* the child's 0, 1 and 2; -1: /dev/null */
    bool own_group;      /* a process group of its own: the terminal's Ctrl-C is ours to
                          * answer, and sb_child_stop ends the whole group */
    int deathsig;        /* 0, or the signal it gets when we die (PR_SET_PDEATHSIG) */
    bool drop;           /* run as uid/gid, without supplementary groups */
    uid_t uid;
    gid_t gid;
} sb_child_spec;

/* Starts s->argv as described; its pid in *pid. 0 or -errno (fork failed). A child that
 * cannot be set up exits 126 and one that cannot be executed 127, each after one line
 * on its stderr ("cannot run mkfs.xfs: No such file or directory"). */
int sb_child_spawn(const sb_child_spec *s, pid_t *pid);

/* waitpid(pid, status, 0) through EINTR: 0 or -errno. */
int sb_child_wait(pid_t pid, int *status);

/* Asks pid to go (SIGTERM, to its group when it leads one), waits up to grace_ms, then
 * kills it (SIGKILL); reaped either way. */
void sb_child_stop(pid_t pid, bool group, unsigned grace_ms);

#endif
