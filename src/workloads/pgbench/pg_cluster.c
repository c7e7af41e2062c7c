/*
 * pg_cluster — the life cycle of the pgbench workload's private PostgreSQL
 * cluster (see pg_cluster.h for the rules it keeps). Server programs are run
 * through core/child.h from the calling thread (storbench has other threads: the
 * child makes only async-signal-safe calls before its exec).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "workloads/pgbench/pg_cluster.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <glob.h>
#include <grp.h>
#include <libpq-fe.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/child.h"
#include "core/childfds.h"
#include "core/clock.h"
#include "core/log.h"
#include "core/workdir.h"

extern char **environ;

#define SB_PG_CREATED_USER "storbench-pg"

static bool has_server(const char *bindir)
{
    char p[600];
    snprintf(p, sizeof p, "%s/postgres", bindir);
    if (access(p, X_OK) != 0)
        return false;
    snprintf(p, sizeof p, "%s/initdb", bindir);
    return access(p, X_OK) == 0;
}

int sb_pg_find_bindir(char *out, size_t len)
{
    const char *env = getenv("STORBENCH_PG_BINDIR");
    if (env && *env) {
        if (!has_server(env))
            return -ENOTSUP;
        snprintf(out, len, "%s", env);
        return 0;
    }
    /* Debian installs each major version side by side; take the newest. */
    glob_t g;
    double best = -1;
    int rc = -ENOTSUP;
    if (glob("/usr/lib/postgresql/*/bin", 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++) {
            double v = atof(g.gl_pathv[i] + strlen("/usr/lib/postgresql/"));
            if (v > best && has_server(g.gl_pathv[i])) {
                best = v;
                snprintf(out, len, "%s", g.gl_pathv[i]);
                rc = 0;
            }
        }
        globfree(&g);
    }
    if (rc < 0 && has_server("/usr/local/pgsql/bin")) {
        snprintf(out, len, "/usr/local/pgsql/bin");
        rc = 0;
    }
    return rc;
}

/* The last non-empty line of the server log, for error messages. */
static void log_tail(const sb_pg_cluster *c, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen(c->logpath, "r");
    if (!f)
        return;
    char line[384];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0])
            snprintf(buf, len, "%s", line);
    }
    fclose(f);
}

/* The environment for server programs: ours without PG* and locale
 * variables (which would redirect or change the cluster), plus LC_ALL=C. */
static char **server_env(void)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 2, sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const char *e = environ[i];
        if (!strncmp(e, "PG", 2) || !strncmp(e, "LC_", 3) || !strncmp(e, "LANG", 4))
            continue;
        env[k++] = (char *)e;
    }
    env[k++] = "LC_ALL=C";
    env[k] = NULL;
    return env;
}

/* Starts argv[0] as the server user with output to outfd, or to the log file when
 * outfd is -1. The child gets its own process group and dies with us (deathsig). */
static int spawn(const sb_pg_cluster *c, char *const argv[], int deathsig, int outfd, pid_t *out)
{
    int logfd = outfd >= 0 ? fcntl(outfd, F_DUPFD_CLOEXEC, 3)
                           : open(c->logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (logfd < 0)
        return -errno;
    char **env = server_env();
    if (!env) {
        close(logfd);
        return -ENOMEM;
    }
    sb_child_spec spec = {.argv = argv, .envp = env, .cwd = c->root, .in = -1, .out = logfd, .err = logfd,
                          .own_group = true, .deathsig = deathsig, .drop = c->drop, .uid = c->uid, .gid = c->gid};
    pid_t pid;
    int e = sb_child_spawn(&spec, &pid);
    free(env);
    close(logfd);
    if (e)
        return e;
    *out = pid;
    return 0;
}

/* As root: the user the server runs as. An existing "postgres" user is the
 * natural choice; otherwise we create a system user and say so. */
static int choose_user(sb_pg_cluster *c, char *err, size_t errlen)
{
    struct passwd *pw = getpwnam("postgres");
    if (!pw)
        pw = getpwnam(SB_PG_CREATED_USER);
    if (!pw) {
        char *argv[] = {"useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell",
                        "/usr/sbin/nologin", SB_PG_CREATED_USER, NULL};
        sb_child_spec spec = {.argv = argv, .in = -1, .out = -1, .err = STDERR_FILENO};
        pid_t pid;
        int status = 0;
        if (sb_child_spawn(&spec, &pid) < 0 || sb_child_wait(pid, &status) < 0 || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0) {
            snprintf(err, errlen, "pgbench: cannot create the user %s to run the "
                     "PostgreSQL server as (useradd failed)", SB_PG_CREATED_USER);
            return -EPERM;
        }
        pw = getpwnam(SB_PG_CREATED_USER);
        if (!pw) {
            snprintf(err, errlen, "pgbench: user %s not found after useradd", SB_PG_CREATED_USER);
            return -ENOENT;
        }
        c->created_user = true;
        sb_warn("pgbench: created system user %s to run the PostgreSQL server "
                "(PostgreSQL does not run as root)", SB_PG_CREATED_USER);
    }
    snprintf(c->server_user, sizeof c->server_user, "%s", pw->pw_name);
    c->uid = pw->pw_uid;
    c->gid = pw->pw_gid;
    c->drop = true;
    return 0;
}

/* Whether the server user may enter and write path (as root only). */
static bool user_can_reach(const sb_pg_cluster *c, const char *path)
{
    pid_t pid = fork();
    if (pid == 0)
        _exit(sb_child_drop_creds(c->uid, c->gid) == 0 && access(path, W_OK | X_OK) == 0 ? 0 : 1);
    int status = 0;
    if (pid < 0 || sb_child_wait(pid, &status) < 0)
        return false;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* ------------------------------------------------------------ socket directory */

/* "storbench-pg-<pid>-XXXXXX" in /tmp: a killed run's is found by its pid. (Before,
 * the name had no pid: "storbench-pg-XXXXXX".) */
#define SOCKDIR_PREFIX "storbench-pg-"

/* The first line of path as a pid (the postmaster's, in a socket's lock file), or 0. */
static long pid_in(int dfd, const char *name)
{
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    char buf[32] = "";
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    buf[n > 0 ? n : 0] = '\0';
    return strtol(buf, NULL, 10);
}

static bool alive(long pid)
{
    return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno != ESRCH);
}

/* Whether /tmp/<name> is a socket directory a killed run left: a real directory owned by
 * us or the server user, whose run is dead and whose server (the socket's lock file
 * names it) is dead too. An old-style name without a pid counts when its server is dead,
 * or, with no lock file, when nothing has changed in it for ten minutes (a live run's
 * server makes its socket within seconds of the directory). */
static bool stale_sockdir(const sb_pg_cluster *c, int tmp, const char *name)
{
    struct stat st;
    if (fstatat(tmp, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode) ||
        (st.st_uid != geteuid() && st.st_uid != c->uid))
        return false;
    const char *rest = name + strlen(SOCKDIR_PREFIX);
    char *end;
    long pid = strtol(rest, &end, 10);
    bool with_pid = end != rest && *end == '-' && strlen(end + 1) == 6;
    if (!with_pid && strlen(rest) != 6)
        return false;
    if (with_pid && (pid == (long)getpid() || alive(pid)))
        return false;
    int dfd = openat(tmp, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0)
        return false;
    long server = pid_in(dfd, ".s.PGSQL.5432.lock");
    close(dfd);
    if (server)
        return !alive(server);
    return with_pid || time(NULL) - st.st_mtime > 600;
}

/* Removes what killed runs left in /tmp; one line says how many. */
static void remove_stale_sockdirs(const sb_pg_cluster *c)
{
    DIR *d = opendir("/tmp");
    unsigned n = 0;
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (strncmp(de->d_name, SOCKDIR_PREFIX, strlen(SOCKDIR_PREFIX)) || !stale_sockdir(c, dirfd(d), de->d_name))
            continue;
        char path[300];
        snprintf(path, sizeof path, "/tmp/%s", de->d_name);
        if (sb_remove_tree(path) == 0)
            n++;
    }
    if (d)
        closedir(d);
    if (n)
        sb_warn("pgbench: removed %u socket director%s in /tmp that killed runs left", n, n == 1 ? "y" : "ies");
}

/* The socket's path must fit sun_path ("<dir>/.s.PGSQL.5432"); when the target's path
 * is too long, the socket goes in a private directory in /tmp. */
static int make_sockdir(sb_pg_cluster *c, char *err, size_t errlen)
{
    struct sockaddr_un addr;
    if (strlen(c->root) + sizeof "/.s.PGSQL.5432" + 1 <= sizeof addr.sun_path) {
        snprintf(c->sockdir, sizeof c->sockdir, "%s", c->root);
        return 0;
    }
    remove_stale_sockdirs(c);
    snprintf(c->sockdir, sizeof c->sockdir, "/tmp/" SOCKDIR_PREFIX "%ld-XXXXXX", (long)getpid());
    if (!mkdtemp(c->sockdir)) {
        int rc = -errno;
        snprintf(err, errlen, "pgbench: cannot create a socket directory in /tmp: %s", strerror(-rc));
        c->sockdir[0] = '\0';
        return rc;
    }
    c->own_sockdir = true;
    return 0;
}

/* ------------------------------------------------------------ initdb */

/* The line of initdb's output that says why it failed: its "error:" line, or a
 * server's FATAL/PANIC, else the last one that is not its "removing ..." epilogue. */
static void why_line(char *text, char *out, size_t len)
{
    out[0] = '\0';
    bool best = false;
    for (char *save, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        bool err = strstr(l, "error:") || strstr(l, "FATAL:") || strstr(l, "PANIC:");
        const char *from = err && strstr(l, "initdb: ") ? strstr(l, "initdb: ") : l; /* after "step ... " */
        if ((err && !best) || (!best && !strstr(l, ": removing ")))
            snprintf(out, len, "%s", from);
        best |= err;
    }
}

/* "No space left on device (/t: 12 kB free)" when the filesystem of path is full
 * (less than 1 MiB, or no inode, left), else "". */
void sb_pg_full_note(const char *path, char *out, size_t len)
{
    struct statvfs v;
    out[0] = '\0';
    if (statvfs(path, &v) < 0)
        return;
    double avail = (double)v.f_bavail * (double)v.f_frsize;
    if (avail < (1 << 20))
        snprintf(out, len, "%s (%s: %.0f kB free)", strerror(ENOSPC), path, avail / 1000);
    else if (v.f_files && v.f_favail == 0)
        snprintf(out, len, "%s (%s: no inode free)", strerror(ENOSPC), path);
}

/* initdb, its output in memory: on a full disk the log file could not hold it. */
static int run_initdb(sb_pg_cluster *c, const char *dir, char *err, size_t errlen)
{
    char initdb[600];
    snprintf(initdb, sizeof initdb, "%s/initdb", c->bindir);
    char *argv[] = {initdb, "-D", c->datadir, "-U", SB_PG_SUPERUSER, "--auth=trust",
                    "--encoding=SQL_ASCII", "--locale=C", "--no-sync", NULL};
    int outfd = memfd_create("initdb", MFD_CLOEXEC);
    pid_t pid;
    int rc = spawn(c, argv, SIGKILL, outfd, &pid);
    if (rc < 0) {
        snprintf(err, errlen, "pgbench: cannot start initdb: %s", strerror(-rc));
        if (outfd >= 0)
            close(outfd);
        return rc;
    }
    int status = 0;
    sb_child_wait(pid, &status);
    char out[8192] = "", why[400], full[200];
    ssize_t n = outfd >= 0 ? pread(outfd, out, sizeof out - 1, 0) : -1;
    out[n > 0 ? n : 0] = '\0';
    if (outfd >= 0)
        close(outfd);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        int fd = open(c->logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (fd >= 0) { /* the log keeps initdb's output, as before */
            (void)!write(fd, out, strlen(out));
            close(fd);
        }
        return 0;
    }
    sb_pg_full_note(dir, full, sizeof full);
    bool enospc = full[0] || strstr(out, strerror(ENOSPC));
    why_line(out, why, sizeof why);
    if (!why[0] && !WIFEXITED(status))
        snprintf(why, sizeof why, "killed by signal %d", WTERMSIG(status));
    snprintf(err, errlen, "pgbench: initdb failed as user %s: %s%s%s", c->server_user, full,
             full[0] && why[0] ? ": " : "", full[0] ? why : why[0] ? why : "no output");
    return enospc ? -ENOSPC : -EIO;
}

int sb_pg_cluster_create(sb_pg_cluster *c, const char *dir, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    int rc = sb_pg_find_bindir(c->bindir, sizeof c->bindir);
    if (rc < 0) {
        snprintf(err, errlen, "no PostgreSQL server binaries "
                 "(install the Debian package postgresql)");
        return rc;
    }
    if (snprintf(c->root, sizeof c->root, "%s/pgsql", dir) >= (int)sizeof c->root) {
        snprintf(err, errlen, "pgbench: directory name too long: %s", dir);
        return -ENAMETOOLONG;
    }
    snprintf(c->datadir, sizeof c->datadir, "%s/data", c->root);
    snprintf(c->logpath, sizeof c->logpath, "%s/server.log", c->root);

    if (geteuid() == 0) {
        rc = choose_user(c, err, errlen);
        if (rc < 0)
            return rc;
        /* The runner makes the run directory 0700 root: let the server user
         * through it (not list it). The target above must already be
         * traversable, as /var/tmp and /tmp are. */
        if (chmod(dir, 0711) != 0) {
            rc = -errno;
            snprintf(err, errlen, "pgbench: chmod %s: %s", dir, strerror(-rc));
            return rc;
        }
    } else {
        struct passwd *pw = getpwuid(geteuid());
        snprintf(c->server_user, sizeof c->server_user, "%s", pw ? pw->pw_name : "?");
        c->uid = geteuid();
        c->gid = getegid();
    }

    if ((rc = make_sockdir(c, err, errlen)) < 0)
        return rc;
    if (mkdir(c->root, 0700) != 0) {
        rc = -errno;
        snprintf(err, errlen, "pgbench: mkdir %s: %s", c->root, strerror(-rc));
        return rc;
    }
    c->exists = true;
    if (c->drop && (chown(c->root, c->uid, c->gid) != 0 ||
                    (c->own_sockdir && chown(c->sockdir, c->uid, c->gid) != 0))) {
        rc = -errno;
        snprintf(err, errlen, "pgbench: chown %s to %s: %s", c->root, c->server_user,
                 strerror(-rc));
        return rc;
    }

    /* Every directory above the cluster must let the server user through;
     * say so plainly rather than let initdb fail on it. */
    /* This is a property of the target, like missing binaries: -ENOTSUP
     * makes the runner skip the test with this line rather than stop a
     * whole suite. */
    if (c->drop && !user_can_reach(c, c->root)) {
        snprintf(err, errlen, "the PostgreSQL server runs as user %s, which cannot reach %s "
                 "(make the target and its parents traversable, chmod o+x, or choose another "
                 "target)", c->server_user, dir);
        return -ENOTSUP;
    }

    return run_initdb(c, dir, err, errlen);
}

void sb_pg_cluster_conninfo(const sb_pg_cluster *c, const char *db, char *buf, size_t len)
{
    /* Values are quoted: the socket path may hold spaces. */
    snprintf(buf, len, "host='%s' port=%d dbname='%s' user='%s' connect_timeout=10",
             c->sockdir, SB_PG_PORT, db, SB_PG_SUPERUSER);
}

int sb_pg_cluster_start(sb_pg_cluster *c, const char *const *settings,
                        bool (*stop)(void *), void *arg, char *err, size_t errlen)
{
    char postgres[600];
    snprintf(postgres, sizeof postgres, "%s/postgres", c->bindir);
    enum { MAX_ARGS = 96 };
    char *argv[MAX_ARGS];
    char port[16], sock[1200];
    size_t n = 0;
    snprintf(port, sizeof port, "%d", SB_PG_PORT);
    snprintf(sock, sizeof sock, "unix_socket_directories=%s", c->sockdir);
    argv[n++] = postgres;
    argv[n++] = "-D";
    argv[n++] = c->datadir;
    argv[n++] = "-p";
    argv[n++] = port;
    argv[n++] = "-c";
    argv[n++] = "listen_addresses=";
    argv[n++] = "-c";
    argv[n++] = sock;
    for (size_t i = 0; settings && settings[i] && n + 3 < MAX_ARGS; i++) {
        argv[n++] = "-c";
        argv[n++] = (char *)settings[i];
    }
    argv[n] = NULL;

    /* SIGQUIT on our death: the postmaster's immediate shutdown, which also
     * takes its backends down. */
    int rc = spawn(c, argv, SIGQUIT, -1, &c->pid);
    if (rc < 0) {
        c->pid = 0;
        snprintf(err, errlen, "pgbench: cannot start postgres: %s", strerror(-rc));
        return rc;
    }

    char conninfo[1400];
    sb_pg_cluster_conninfo(c, "postgres", conninfo, sizeof conninfo);
    uint64_t deadline = sb_now_ns() + 120ull * 1000000000ull;
    for (;;) {
        int status;
        pid_t w = waitpid(c->pid, &status, WNOHANG);
        if (w == c->pid) {
            c->pid = 0;
            char tail[400], full[200];
            log_tail(c, tail, sizeof tail);
            sb_pg_full_note(c->root, full, sizeof full); /* a full disk may have kept the log empty */
            snprintf(err, errlen, "pgbench: the PostgreSQL server exited at start: %s%s%s", full,
                     full[0] && tail[0] ? ": " : "", tail[0] || full[0] ? tail : "no output");
            return full[0] ? -ENOSPC : -EIO;
        }
        if (PQping(conninfo) == PQPING_OK)
            return 0;
        if (stop && stop(arg)) {
            snprintf(err, errlen, "pgbench: interrupted");
            return -EINTR;
        }
        if (sb_now_ns() > deadline) {
            snprintf(err, errlen, "pgbench: the PostgreSQL server did not accept "
                     "connections within 120 s (log: %s)", c->logpath);
            return -ETIMEDOUT;
        }
        sb_sleep_ms(50);
    }
}

/* Waits up to ms for the postmaster to exit. True when it did. */
static bool wait_exit(pid_t pid, unsigned ms)
{
    for (unsigned t = 0;; t += 20) {
        int status;
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid || (w < 0 && errno == ECHILD))
            return true;
        if (t >= ms)
            return false;
        sb_sleep_ms(20);
    }
}

int sb_pg_cluster_stop(sb_pg_cluster *c)
{
    if (c->pid <= 0)
        return 0;
    pid_t pid = c->pid;
    int rc = 0;
    /* Fast shutdown: roll back sessions, checkpoint, exit. Then immediate
     * shutdown; then kill whatever is left of the process group. */
    kill(pid, SIGINT);
    if (!wait_exit(pid, 60000)) {
        kill(pid, SIGQUIT);
        if (!wait_exit(pid, 10000)) {
            kill(-pid, SIGKILL);
            sb_child_wait(pid, NULL);
            rc = -ETIMEDOUT;
        }
    }
    /* The postmaster waits for its children, but be certain none is left. */
    kill(-pid, SIGKILL);
    c->pid = 0;
    return rc;
}

int sb_pg_cluster_destroy(sb_pg_cluster *c)
{
    int rc = sb_pg_cluster_stop(c);
    if (c->exists) {
        int r = sb_remove_tree(c->root);
        if (r < 0 && r != -ENOENT && rc == 0)
            rc = r;
        c->exists = false;
    }
    if (c->own_sockdir) {
        int r = sb_remove_tree(c->sockdir);
        if (r < 0 && r != -ENOENT && rc == 0)
            rc = r;
        c->own_sockdir = false;
    }
    return rc;
}
