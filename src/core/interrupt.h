/*
 * interrupt — Ctrl-C handling. SIGINT, SIGTERM and SIGHUP set a flag that
 * workloads poll (sb_interrupted()) so that they stop at the next operation,
 * after which the runner removes the run's files and leaves the result file
 * untouched; a command that has begun saving a result file finishes the save
 * and then exits 130 (docs/architecture.md, "Interruption"). A third signal
 * gives up waiting: registered work directories are removed and the process
 * exits with 130 (an atomic save cut short leaves the old file).
 */
#ifndef SB_INTERRUPT_H
#define SB_INTERRUPT_H

#include <signal.h>
#include <stdbool.h>

void sb_interrupt_install(void);
/* What main() does first, for every command: sb_interrupt_install(), so that no signal
 * finds the default action (death with no word: exit 143 or 129) however early it comes,
 * and SIGPIPE made harmless: a write to a closed pipe fails with EPIPE, which the output
 * check at exit reports, instead of killing a run before it saved. SIGPIPE gets an empty
 * handler rather than SIG_IGN because a caught signal goes back to its default across
 * exec(), so the tools storbench starts see the usual SIGPIPE. */
void sb_signals_init(void);
bool sb_interrupted(void);
/* Signal number that interrupted us (0 if none), for the exit message. */
int sb_interrupt_signal(void);
/* Tests only: clear the flag. */
void sb_interrupt_reset(void);

#endif
