/*
 * childfds — the descriptors and signals of a forked helper process (a guardian that serves FUSE
 * files, the run's journal) that must hold nothing of its parent's: no result file's
 * lock, no pipe of the parent's output, so that all of those end with the parent; and
 * the steps before exec that child.h's programs and the forked workers (dbench's
 * clients) share. Each is async-signal-safe: the caller may have other threads.
 */
#ifndef SB_CORE_CHILDFDS_H
#define SB_CORE_CHILDFDS_H

#include <sys/types.h>

/* In the child, after fork: fds[i] becomes descriptor 3 + i (close-on-exec) and fds[i]
 * is set to it, every descriptor above them is closed, 0-2 go to /dev/null. _exit(1)
 * when the descriptors cannot be arranged (the child must not run half set up). */
void sb_child_keep_fds(int *fds, unsigned n);

/* In the child, after fork: every signal back to its default, nothing blocked (what
 * a program we exec or a guardian must start from, whatever the run had set). */
void sb_child_signals_default(void);

/* In the child, after fork: sig when parent dies (PR_SET_PDEATHSIG); -1 when parent is
 * already gone (it went before the death signal was armed: the child must not go on). */
int sb_child_die_with_parent(pid_t parent, int sig);

/* In the child, after fork: uid and gid, no supplementary groups. 0, or -1 with errno. */
int sb_child_drop_creds(uid_t uid, gid_t gid);

/* In the child, after fork: a session of its own (the terminal's Ctrl-C is the parent's to
 * answer), every signal back to its default (not the run's handlers: a signal ends the
 * guardian, nothing else), SIGPIPE ignored, nothing blocked. */
void sb_child_detach(void);

#endif
