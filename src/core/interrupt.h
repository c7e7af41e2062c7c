/*
 * interrupt — Ctrl-C handling. SIGINT, SIGTERM and SIGHUP set a flag that
 * workloads poll (sb_interrupted()) so that they stop at the next operation,
 * after which the runner removes the run's files and leaves the result file
 * untouched. A third signal gives up waiting: registered work directories are
 * removed and the process exits with 130.
 */
#ifndef SB_INTERRUPT_H
#define SB_INTERRUPT_H

#include <signal.h>
#include <stdbool.h>

void sb_interrupt_install(void);
bool sb_interrupted(void);
/* Signal number that interrupted us (0 if none), for the exit message. */
int sb_interrupt_signal(void);
/* Tests only: clear the flag. */
void sb_interrupt_reset(void);

#endif
