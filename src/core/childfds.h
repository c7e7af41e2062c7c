/*
 * childfds — the descriptors and signals of a forked helper process (a guardian that serves FUSE
 * files, the run's journal) that must hold nothing of its parent's: no result file's
 * lock, no pipe of the parent's output, so that all of those end with the parent.
 */
#ifndef SB_CORE_CHILDFDS_H
#define SB_CORE_CHILDFDS_H

/* In the child, after fork: fds[i] becomes descriptor 3 + i (close-on-exec) and fds[i]
 * is set to it, every descriptor above them is closed, 0-2 go to /dev/null. _exit(1)
 * when the descriptors cannot be arranged (the child must not run half set up). */
void sb_child_keep_fds(int *fds, unsigned n);

/* In the child, after fork: a session of its own (the terminal's Ctrl-C is the parent's to
 * answer), every signal back to its default (not the run's handlers: a signal ends the
 * guardian, nothing else), SIGPIPE ignored, nothing blocked. */
void sb_child_detach(void);

#endif
