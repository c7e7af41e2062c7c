/*
 * pg_cluster — a private, throw-away PostgreSQL cluster for the pgbench
 * workload: find the server binaries, initdb into the run's directory,
 * start a postmaster that listens only on a Unix socket inside it, wait until
 * it accepts connections, stop it and remove every file.
 *
 * Safety rules, so that no postgres process outlives storbench:
 *   - the postmaster is our direct child (started without pg_ctl, which would
 *     detach it) in its own process group, so a terminal Ctrl-C reaches only
 *     storbench, which then stops the server itself in order;
 *   - the child sets PR_SET_PDEATHSIG=SIGQUIT after dropping privileges, so
 *     if storbench is killed (even with SIGKILL) the kernel sends the
 *     postmaster SIGQUIT, its "immediate shutdown", which also ends its
 *     backends. The files of such a killed run are left on the target,
 *     like any other workload's files after a SIGKILL. (The death signal
 *     follows the *thread* that forked: call start and stop from the thread
 *     that runs the workload, which outlives the server.)
 *   - sb_pg_cluster_stop() escalates SIGINT (fast shutdown) -> SIGQUIT ->
 *     SIGKILL of the whole process group.
 * As root the server runs as the existing user "postgres", or as a system
 * user "storbench-pg" created for it (PostgreSQL refuses to run as root).
 */
#ifndef SB_PG_CLUSTER_H
#define SB_PG_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define SB_PG_SUPERUSER "storbench"
#define SB_PG_PORT 5432

typedef struct sb_pg_cluster {
    char bindir[512];     /* .../bin holding postgres and initdb */
    char root[1024];      /* the cluster's directory, owned by the server user */
    char datadir[1100];   /* root/data */
    char sockdir[1100];   /* where the server's socket is (root, unless too long) */
    bool own_sockdir;     /* sockdir is a private /tmp directory to remove too */
    char logpath[1100];   /* server and initdb output */
    char server_user[64]; /* user the server runs as */
    bool created_user;    /* we created server_user (useradd) */
    bool drop;            /* run the server as uid/gid (we are root) */
    uid_t uid;
    gid_t gid;
    pid_t pid;            /* postmaster, 0 when not running */
    bool exists;          /* root was created (and must be removed) */
} sb_pg_cluster;

/* Finds the newest server binaries: $STORBENCH_PG_BINDIR if set, else
 * /usr/lib/postgresql/<version>/bin, /usr/local/pgsql/bin. -ENOTSUP when none
 * holds both postgres and initdb. */
int sb_pg_find_bindir(char *out, size_t len);

/* Creates a cluster in dir/pgsql: chooses the server user (as root), makes dir
 * traversable for it, runs initdb (SQL_ASCII, C locale, trust auth over the
 * socket, superuser SB_PG_SUPERUSER). Fills c. On failure, one line in err;
 * what was created is removed by sb_pg_cluster_destroy(), which must be
 * called in every case. -ENOTSUP (the test cannot run here: skip it) when no
 * server binaries are installed, or when, as root, the server user cannot
 * reach dir. */
int sb_pg_cluster_create(sb_pg_cluster *c, const char *dir, char *err, size_t errlen);

/* Starts the postmaster with listen_addresses='' and the given extra settings
 * ("name=value", NULL-terminated) and waits until it accepts connections.
 * stop() (may be NULL) is polled while waiting; when it returns true the wait
 * ends with -EINTR. */
int sb_pg_cluster_start(sb_pg_cluster *c, const char *const *settings,
                        bool (*stop)(void *), void *arg, char *err, size_t errlen);

/* libpq connection string for database db. */
void sb_pg_cluster_conninfo(const sb_pg_cluster *c, const char *db, char *buf, size_t len);

/* Stops the server (if running) and waits for it and all its processes to
 * exit. 0 or -errno. */
int sb_pg_cluster_stop(sb_pg_cluster *c);

/* Stops the server and removes the cluster's files. Safe to call on a
 * zeroed or half-created cluster and more than once. */
int sb_pg_cluster_destroy(sb_pg_cluster *c);

/* "No space left on device (/t: 12 kB free)" when the filesystem of path is full (less
 * than 1 MiB, or no inode, left), else "": what a server's own message may not say. */
void sb_pg_full_note(const char *path, char *out, size_t len);

#endif
