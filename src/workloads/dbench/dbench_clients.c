/*
 * dbench_clients — how the dbench workload's clients run: as forked processes,
 * as dbench's are (client=dbench), or as threads of storbench's process
 * (client=light); and the memory they share either way.
 *
 * Why processes: dbench forks one process per client, each with its own
 * address space and file table. Threads of one process share both: every
 * client's per-operation buffers (dbench's malloc/free of up to 64 KiB per
 * ReadX and WriteX) come and go in one mm, where unmapping a freed buffer
 * needs a TLB shootdown on every CPU that runs another client, and page faults
 * and open/close serialise on the one mm's and file table's locks. Counted in
 * docs/fidelity.md (dbench, "clients as processes").
 *
 * The counters and the phase are in one MAP_SHARED anonymous mapping (as
 * dbench's shm_setup), so the driver reads a forked client's counts as it
 * reads a thread's. A client process ignores the terminal's signals (the
 * driver sees them and sets the phase to stop), dies with the driver
 * (PR_SET_PDEATHSIG), reports a failure into the mapping, and leaves with
 * _exit, so that nothing of the driver's (stdio buffers, exit handlers) runs
 * twice.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/childfds.h"
#include "workloads/dbench/dbench.h"

/* db_shared, then the clients' db_stats on their own pages. */
static size_t db_map_offset(void)
{
    long pg = sysconf(_SC_PAGESIZE);
    size_t p = pg > 0 ? (size_t)pg : 4096;
    return (sizeof(db_shared) + p - 1) / p * p;
}

static size_t db_map_size(unsigned n)
{
    return db_map_offset() + (size_t)n * 2 * sizeof(db_stats);
}

db_shared *sb_dbench_shared_map(unsigned n, db_stats **stats)
{
    void *m = mmap(NULL, db_map_size(n), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    db_shared *sh = m;
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
    pthread_mutex_init(&sh->lock, &a);
    pthread_mutexattr_destroy(&a);
    atomic_init(&sh->phase, 0);
    *stats = (db_stats *)((char *)m + db_map_offset());
    for (unsigned i = 0; i < 2 * n; i++)
        sb_hist_init_zeroed(&(*stats)[i].hist);
    return sh;
}

void sb_dbench_shared_unmap(db_shared *sh, unsigned n)
{
    pthread_mutex_destroy(&sh->lock);
    munmap(sh, db_map_size(n));
}

/* In a freshly forked client: the driver handles SIGINT, SIGTERM and SIGHUP (it stops
 * the clients through the phase); the client goes when the driver goes. */
static void db_child_setup(pid_t driver)
{
    struct sigaction ign = {.sa_handler = SIG_IGN};
    sigaction(SIGINT, &ign, NULL);
    sigaction(SIGTERM, &ign, NULL);
    sigaction(SIGHUP, &ign, NULL);
    if (sb_child_die_with_parent(driver, SIGKILL) < 0) /* it went before we could ask */
        _exit(1);
}

static int db_start_one(db_client *c, bool procs, void *(*fn)(void *), pid_t driver)
{
    if (!procs)
        return pthread_create(&c->thread, NULL, fn, c);
    pid_t pid = fork();
    if (pid < 0)
        return errno;
    if (pid == 0) {
        db_child_setup(driver);
        c->parent = getppid(); /* as dbench's client: its parent, read once */
        fn(c);
        _exit(0);
    }
    c->pid = pid;
    return 0;
}

unsigned sb_dbench_start(db_client *cs, unsigned n, bool procs, void *(*fn)(void *))
{
    pid_t driver = getpid();
    fflush(NULL); /* nothing buffered is left for a child to inherit */
    for (unsigned i = 0; i < n; i++) {
        int rc = db_start_one(&cs[i], procs, fn, driver);
        if (rc != 0) {
            sb_dbench_report(cs[i].sh, rc, "dbench: start client %s: %s", procs ? "process" : "thread",
                             strerror(rc));
            return i;
        }
    }
    return n;
}

/* A reaped client's status: a client process leaves with 0 after a stop or its own
 * reported failure; anything else (a crash, a kill) ends the run with one line. */
static void db_reaped(db_client *c, int status)
{
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return;
    if (WIFSIGNALED(status))
        sb_dbench_report(c->sh, EIO, "dbench: client %u died: signal %d (%s)", c->id, WTERMSIG(status),
                         strsignal(WTERMSIG(status)));
    else
        sb_dbench_report(c->sh, EIO, "dbench: client %u exited with status %d", c->id, WEXITSTATUS(status));
}

void sb_dbench_poll(db_client *cs, unsigned started, bool procs)
{
    for (unsigned i = 0; procs && i < started; i++) {
        int status;
        if (cs[i].pid > 0 && waitpid(cs[i].pid, &status, WNOHANG) == cs[i].pid) {
            cs[i].pid = 0;
            db_reaped(&cs[i], status);
            if (atomic_load(&cs[i].sh->phase) != 2)
                sb_dbench_report(cs[i].sh, EIO, "dbench: client %u ended before the run did", cs[i].id);
        }
    }
}

void sb_dbench_reap(db_client *cs, unsigned started, bool procs)
{
    for (unsigned i = 0; i < started; i++) {
        if (!procs) {
            pthread_join(cs[i].thread, NULL);
            continue;
        }
        int status = 0;
        pid_t r = -1;
        while (cs[i].pid > 0 && (r = waitpid(cs[i].pid, &status, 0)) < 0 && errno == EINTR)
            ;
        if (cs[i].pid > 0 && r == cs[i].pid)
            db_reaped(&cs[i], status);
        cs[i].pid = 0;
    }
}
