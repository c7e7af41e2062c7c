/*
 * interrupt — see interrupt.h. The handler only sets flags (async-signal
 * safe), except on the third signal, where the user clearly wants out: it
 * removes the registered work directories and _exit()s.
 */
#include "core/interrupt.h"

#include <string.h>
#include <unistd.h>

#include "core/workdir.h"

static volatile sig_atomic_t interrupted_by;
static volatile sig_atomic_t signal_count;

static void on_signal(int sig)
{
    interrupted_by = sig;
    if (++signal_count >= 3) {
        static const char msg[] = "\nstorbench: interrupted three times, giving up\n";
        (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
        sb_workdir_cleanup_all();
        _exit(130);
    }
}

void sb_interrupt_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* No SA_RESTART: a long blocking call returns EINTR so the workload notices soon. */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

static void on_sigpipe(int sig) { (void)sig; }

void sb_signals_init(void)
{
    sb_interrupt_install();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigpipe;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART; /* it only ever answers a write that failed with EPIPE */
    sigaction(SIGPIPE, &sa, NULL);
}

bool sb_interrupted(void) { return interrupted_by != 0; }
int sb_interrupt_signal(void) { return interrupted_by; }
void sb_interrupt_reset(void) { interrupted_by = 0; signal_count = 0; }
