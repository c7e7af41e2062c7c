/*
 * guardian — a process of storbench's own, forked to serve what must not die with the
 * run or wait for ever on it (the FUSE files of modeled devices and of the durability
 * test's recorder), and the handshake both sides keep. The guardian is forked, not
 * executed, from a run that has no other thread at that moment; it lives in a session
 * of its own with default signals (a Ctrl-C of the run's group does not reach it, a
 * signal ends it) and holds nothing of the run's but a SOCK_SEQPACKET socket and the
 * descriptors it is given (childfds.h), so that no lock or file of the run's outlives
 * the run with it. The socket carries one message at a time each way; the guardian's
 * first message says whether it is ready, and end-of-file on its side means the run is
 * gone without a word (every thread of it has exited), which each guardian answers by
 * taking apart what the run's journal names.
 */
#ifndef SB_CORE_GUARDIAN_H
#define SB_CORE_GUARDIAN_H

#include <stddef.h>
#include <sys/types.h>

typedef struct sb_guardian {
    pid_t pid;  /* 0 when none */
    int sock;   /* the run's end of the socket; -1 when none */
} sb_guardian;

/* Every answer of a guardian: a code, and the line that says why when it is negative. */
typedef struct sb_guardian_reply {
    int rc;
    char err[512];
} sb_guardian_reply;

/* The guardian's own code, run in the child: sock is descriptor 3, keep[i] descriptor
 * 4 + i. It never returns (it ends with _exit). */
typedef void (*sb_guardian_main)(int sock, const int *keep, void *arg);

/* Forks a guardian named name (its comm), keeping keep[0..nkeep) (at most 7) besides
 * its socket, that runs fn(sock, keep, arg), and waits for its first reply into *first.
 * 0; or -errno with one line in err naming what (the socketpair or the fork failed,
 * nothing left to end), or -ECHILD when it did not answer. After any start, even a failed
 * one, sb_guardian_end ends it. */
int sb_guardian_start(sb_guardian *g, const char *what, const char *name, const int *keep, unsigned nkeep,
                      sb_guardian_main fn, void *arg, sb_guardian_reply *first, char *err, size_t errlen);

/* The guardian's side: one reply. */
void sb_guardian_reply_send(int sock, int rc, const char *err);
/* Either side: one message into buf (through EINTR); its size, 0 at end-of-file, or -1. */
ssize_t sb_guardian_recv(int sock, void *buf, size_t len);

/* The run's side: sends req and waits for the answer into *r. Its rc, or -ECONNRESET
 * with an empty r->err when the guardian is gone. */
int sb_guardian_ask(sb_guardian *g, const void *req, size_t len, sb_guardian_reply *r);

/* Sends quit (when the socket is open), waits for its answer or end-of-file, closes the
 * socket and reaps the guardian. Safe to call on a zeroed or ended one. */
void sb_guardian_end(sb_guardian *g, const void *quit, size_t len);

#endif
