/*
 * modeled — the run's side of the modeled devices and their guardian process
 * (modeled.h says why there is one; core/guardian.h how it starts and speaks). It is
 * started between configurations, when the run has no other thread, and keeps only its
 * socket (no lock or file of the run's: the run's journal lock must die with the run, or
 * its journal would look alive). One message each way: "ready" (or the line that says
 * why not) after the FUSE file system is mounted, and "quit" from the run once its
 * journal's undo has unmounted it.
 */
#include "scenario/modeled.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/guardian.h"
#include "core/strutil.h"

int sb_modeled_wanted(const sb_scn_config *c)
{
    for (unsigned i = 0; i < c->devices; i++)
        if (c->dev[i].model[0])
            return 1;
    return 0;
}

void sb_modeled_file(const sb_modeled *md, unsigned i, char *path, size_t len)
{
    sb_fmt(path, len, "%s/d%u", md->mnt, i);
}

/* What the guardian serves (sb_modeled_start's arguments, read in the child). */
typedef struct {
    const char *mnt;
    char (*images)[PATH_MAX];
    const char *const *specs;
    unsigned n;
} guard_args;

/* The quit message, and the run's side of end-of-file, is any message at all. */
static const sb_guardian_reply quit_msg = {.rc = 0};

static void __attribute__((noreturn)) guard_main(int sock, const int *keep, void *arg)
{
    const guard_args *a = arg;
    /* A request's answer is due at its modeled time: on a busy host a normal thread woken
     * then waits for a time slice first (bench/device-model-cost.sh measured milliseconds),
     * so the serving threads (all inherit this) run at the lowest real-time priority. They
     * only sleep, copy a request's data and do the model's arithmetic; without the right
     * to it they stay as they are. */
    struct sched_param sp = {.sched_priority = 1};
    (void)sched_setscheduler(0, SCHED_FIFO, &sp);
    char err[512] = "";
    sb_modeled_server *srv = NULL;
    int rc = sb_modeled_serve(a->mnt, a->images, a->specs, a->n, &srv, err, sizeof err);
    sb_guardian_reply_send(sock, rc, err);
    sb_guardian_reply m;
    if (sb_guardian_recv(sock, &m, sizeof m) <= 0) {
        /* The run died without a word: take apart what its journal names while we still
         * serve (its filesystem unmounts through us), then stop. */
        unsigned found = 0, busy = 0;
        /* its journal's lock may go a moment after its socket: try for a few seconds */
        for (int i = 0; i < 50 && found == 0; i++) {
            sb_state_cleanup(NULL, &found, &busy, err, sizeof err);
            if (found == 0)
                nanosleep(&(struct timespec){0, 100000000L}, NULL);
        }
    }
    sb_modeled_serve_stop(srv);
    _exit(0);
}

/* The mount point: journaled, then made (0700, ours alone). */
static int make_mountpoint(sb_modeled *md, const sb_scn_config *c, const char *parent_dir, sb_state *st,
                           char *err, size_t errlen)
{
    static unsigned seq;
    sb_fmt(md->mnt, sizeof md->mnt, "%s/storbench-mnt-%ld-model-%u", parent_dir, (long)getpid(), seq++);
    int rc = sb_state_add(st, SB_ST_DIR, md->mnt, "");
    if (rc == 0 && mkdir(md->mnt, 0700) < 0)
        rc = -errno;
    if (rc == 0)
        rc = sb_state_add(st, SB_ST_FUSE, md->mnt, "");
    if (rc < 0)
        sb_fmt(err, errlen, "[%s]: the modeled devices' mount point %s: %s", c->identifier, md->mnt,
               strerror(-rc));
    return rc;
}

int sb_modeled_start(sb_modeled *md, const sb_scn_config *c, char images[][PATH_MAX], unsigned n,
                     const char *parent_dir, sb_state *st, char *err, size_t errlen)
{
    memset(md, 0, sizeof *md);
    md->sock = -1;
    md->n = n;
    const char *specs[SB_SCN_MAX_DEVICES];
    for (unsigned i = 0; i < n; i++)
        specs[i] = c->dev[i].model[0] ? c->dev[i].model : "ram";
    int rc = make_mountpoint(md, c, parent_dir, st, err, errlen);
    if (rc < 0)
        return rc;
    guard_args args = {md->mnt, images, specs, n};
    sb_guardian_reply m;
    sb_guardian g;
    rc = sb_guardian_start(&g, "the modeled devices' server", "storbench-model", NULL, 0, guard_main, &args,
                           &m, err, errlen);
    md->pid = g.pid;
    md->sock = g.sock;
    if (rc < 0)
        return rc;
    if (m.rc < 0) {
        sb_fmt(err, errlen, "[%s]: %s", c->identifier, m.err);
        return m.rc;
    }
    return 0;
}

void sb_modeled_end(sb_modeled *md)
{
    sb_guardian g = {.pid = md->pid, .sock = md->sock};
    sb_guardian_end(&g, &quit_msg, sizeof quit_msg);
    md->pid = 0;
    md->sock = -1;
}
