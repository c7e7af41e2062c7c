/*
 * dbench — the Dbench test (dbench 4.0, "Client Count: 6"): N clients, each a
 * thread in its own directory, replay a file-server operation stream in a
 * loop on the local file system, as dbench's "fileio" backend does. After a
 * warm-up the counters start; when the measured time is over the clients
 * stop and remove their directories.
 *
 * The stream is by default the one the seed's figures come from: dbench's own
 * NetBench-derived loadfile, /usr/share/dbench/client.txt (Debian package
 * dbench; GPL data, so it is read from there, never copied into storbench).
 * Any dbench-format loadfile can be named instead, and loadfile=builtin runs
 * storbench's own generator, a lighter mix that is a different test (its
 * figure is about twice client.txt's; docs/workloads.md).
 *
 * Each client by default also does what a dbench client does per line besides
 * the operation (client=dbench: its own reading and parsing of the loadfile,
 * the parent check, a fresh buffer per read and write; dbench_replay.h), so
 * that where the CPU is the limit the figure is dbench's; client=light skips it.
 *
 * The figure is dbench's: decimal MB/s of ReadX and WriteX request sizes
 * completed in the measured time, over all clients. Each operation is one
 * latency sample; per-verb counts and maximum latencies are secondary
 * figures.
 *
 * How each verb maps to system calls (as dbench 4.0's fileio backend does, so
 * that both do the same work for the same loadfile):
 *   NTCreateX   name lookup, open(2), then fstat(2) of the new handle;
 *               directory option -> mkdir + O_DIRECTORY; disposition CREATE
 *               adds O_CREAT, OVERWRITE(_IF) add O_CREAT|O_TRUNC (SUPERSEDE and
 *               OPEN_IF add nothing, as in dbench)
 *   ReadX/WriteX  pread/pwrite of the given size at the given offset (zeros)
 *   Close        close(2)      Flush  fsync(2)
 *   Unlink/Rename/Mkdir/Rmdir  name lookup, then the system call of that name
 *   QUERY_PATH_INFORMATION  name lookup: stat(2), and on failure a
 *               case-insensitive scan of the parent directory
 *   QUERY_FILE_INFORMATION  fstat(2)   SET_FILE_INFORMATION  fstat + utime
 *   QUERY_FS_INFORMATION    statvfs(2) of the run directory
 *   FIND_FIRST   read up to maxcnt entries of the pattern's directory
 *   LockX/UnlockX  fcntl byte-range lock / unlock
 *   Deltree      stat and unlink every file under the tree; directories stay
 * An operation whose outcome differs from the loadfile's status counts as
 * "unexpected" (dbench prints a warning); a real device error (ENOSPC, EIO,
 * EROFS, EDQUOT) stops the run with one line naming the operation and path.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

#include "core/clock.h"
#include "core/histogram.h"
#include "workloads/dbench_loadfile.h"
#include "workloads/dbench_replay.h"
#include "workloads/fs_common.h"
#include "workloads/workload.h"

#define DB_MAX_HANDLES 256
#define DB_GEN_OPS 100000

static const sb_choice db_client_choices[] = {
    {"dbench", "dbench"},
    {"light", "Light"},
    {NULL, NULL},
};

static const sb_option db_options[] = {
    {"clients", "Client Count", "6", NULL, NULL, "clients replaying the stream, each in its own directory", 0},
    {"time", "Time", "600", "4", NULL, "measured seconds (after the warm-up)", SB_OPT_HIDDEN},
    {"warmup", "Warm-up", "120", "1", NULL, "seconds run before the counters start", SB_OPT_HIDDEN},
    /* The seed's stream; any other (builtin included) is a different test and shows
     * in the option line. */
    {"loadfile", "Loadfile", SB_DB_CLIENT_TXT, NULL, NULL,
     "dbench loadfile to replay (default: dbench's client.txt, Debian package dbench), "
     "or builtin: storbench's own lighter generator, a different test",
     SB_OPT_IF_CHANGED},
    {"seed", "Seed", "1", NULL, NULL, "seed of the built-in generator (loadfile=builtin only)", SB_OPT_IF_CHANGED},
    /* What a client does per operation besides the operation: dbench's own per-line work
     * (the figure is dbench's where the CPU is the limit), or nothing (a lighter client,
     * a higher figure on tmpfs). */
    {"client", "Client", "dbench", NULL, db_client_choices,
     "per-operation client work: dbench (re-read and re-parse the loadfile line, check the "
     "parent, a fresh buffer per read and write, as dbench's client) or light (none)",
     SB_OPT_IF_CHANGED},
};

static const sb_measure db_measures[] = {
    {NULL, "MB/s", SB_HIGHER_IS_BETTER},
};

typedef struct db_params {
    uint64_t clients, seed;
    double time, warmup;
    const char *loadfile; /* NULL = built-in */
    bool light;           /* client=light: no per-line client work */
} db_params;

static int db_resolve(const sb_config *cfg, db_params *p, char *err, size_t errlen)
{
    int rc;
    if ((rc = sb_config_uint(cfg, "clients", 1, 4096, &p->clients, err, errlen)) ||
        (rc = sb_config_uint(cfg, "seed", 0, UINT64_MAX, &p->seed, err, errlen)) ||
        (rc = sb_config_duration(cfg, "time", &p->time, err, errlen)) ||
        (rc = sb_config_duration(cfg, "warmup", &p->warmup, err, errlen)))
        return rc;
    if (p->time <= 0) {
        snprintf(err, errlen, "dbench: time must be more than 0 seconds");
        return -EINVAL;
    }
    if (p->warmup < 0) {
        snprintf(err, errlen, "dbench: warmup must not be negative");
        return -EINVAL;
    }
    const char *lf = sb_config_get(cfg, "loadfile");
    p->loadfile = (!lf || !*lf || !strcmp(lf, "builtin")) ? NULL : lf;
    const char *cl = sb_config_get(cfg, "client");
    p->light = cl && !strcmp(cl, "light");
    return 0;
}

static bool db_is_default_loadfile(const db_params *p)
{
    return p->loadfile && !strcmp(p->loadfile, SB_DB_CLIENT_TXT);
}

static int db_validate(const sb_config *cfg, char *err, size_t errlen)
{
    db_params p;
    int rc = db_resolve(cfg, &p, err, errlen);
    if (rc)
        return rc;
    if (p.loadfile && p.seed != 1) {
        snprintf(err, errlen, "dbench: seed applies to loadfile=builtin only");
        return -EINVAL;
    }
    /* Without the dbench package the default loadfile is missing: that is a property
     * of the machine, so run() skips the test (one line) instead of refusing the
     * whole command line. */
    if (db_is_default_loadfile(&p) && access(p.loadfile, F_OK) != 0)
        return 0;
    if (p.loadfile) {
        /* Parse it now, so that a bad loadfile is refused before any test starts
         * (client.txt parses in well under a second). */
        sb_db_script sc;
        char msg[400];
        if (sb_db_parse_file(&sc, p.loadfile, msg, sizeof msg) != 0) {
            snprintf(err, errlen, "dbench: loadfile %s", msg);
            return -EINVAL;
        }
        sb_db_script_free(&sc);
    }
    return 0;
}

static uint64_t db_space_needed(const sb_config *cfg)
{
    db_params p;
    char err[128];
    if (db_resolve(cfg, &p, err, sizeof err))
        return 0;
    /* client.txt's files peak at 24 MB per client (its largest extents summed over
     * the files alive at once); the generator stays below that. */
    return p.clients * 40000000ull;
}

static double db_estimate(const sb_config *cfg)
{
    db_params p;
    char err[128];
    if (db_resolve(cfg, &p, err, sizeof err))
        return 0;
    return p.warmup + p.time + 1;
}

typedef struct db_handle {
    int32_t handle; /* -1 = free */
    int fd;
    uint32_t op;    /* the NTCreateX that opened it, for its path */
} db_handle;

typedef struct db_stats {
    uint64_t count[SB_DB_N_VERBS];
    uint64_t max_ns[SB_DB_N_VERBS];
    uint64_t bytes, read_bytes, write_bytes, unexpected, loops;
    sb_histogram hist;
} db_stats;

typedef struct db_shared {
    sb_run_ctx *ctx;
    const sb_db_script *script;
    const char *dir;
    atomic_int phase;   /* 0 warm-up, 1 measured, 2 stop */
    pthread_mutex_t lock;
    int err;
} db_shared;

typedef struct db_client {
    db_shared *sh;
    unsigned id;
    char root[4200];    /* <dir>/clients/client<id> */
    db_handle handles[DB_MAX_HANDLES];
    char *buf;
    size_t bufsz;
    db_stats stats[2];  /* per phase */
    pthread_t thread;
    bool replaying;     /* client=dbench with a loadfile: dbench's per-line work */
    sb_db_replay replay;
} db_client;

static bool db_is_device_error(int e)
{
    return e == ENOSPC || e == EIO || e == EROFS || e == EDQUOT;
}

static void db_fail(db_client *c, int err, const char *op, const char *path)
{
    db_shared *sh = c->sh;
    pthread_mutex_lock(&sh->lock);
    if (sh->err == 0)
        sh->err = sb_ctx_fail(sh->ctx, err, "dbench: %s %s: %s", op, path, strerror(err));
    pthread_mutex_unlock(&sh->lock);
    atomic_store(&sh->phase, 2);
}

/* db_fail for the operation paths: returns -err so that callers can `return`. */
static int db_failr(db_client *c, int err, const char *op, const char *path)
{
    db_fail(c, err, op, path);
    return -err;
}

static void db_path(const db_client *c, const sb_db_op *op, int which, char *out, size_t len)
{
    const char *p = sb_db_str(c->sh->script, which ? op->path2 : op->path);
    bool client = op->path_client & (which ? 2 : 1);
    if (client)
        snprintf(out, len, "%s%s", c->root, p ? p : "");
    else
        snprintf(out, len, "%s%s", c->sh->dir, p ? p : "");
}

static db_handle *db_find(db_client *c, int32_t h)
{
    for (int i = 0; i < DB_MAX_HANDLES; i++)
        if (c->handles[i].handle == h)
            return &c->handles[i];
    return NULL;
}

/* dbench's simulation of a CIFS server's name lookup: stat, and when that fails, a
 * case-insensitive search of the parent directory. */
static void db_resolve_name(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return;
    char parent[4096];
    snprintf(parent, sizeof parent, "%s", path);
    char *slash = strrchr(parent, '/');
    if (!slash)
        return;
    *slash = '\0';
    const char *name = slash + 1;
    DIR *d = opendir(parent);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
        if (!strcasecmp(de->d_name, name))
            break;
    closedir(d);
}

static int db_deltree(const char *path)
{
    int rc = sb_fs_empty_dir(path, NULL, 0);
    if (rmdir(path) != 0 && errno != ENOENT && rc == 0)
        rc = -errno;
    return rc;
}

/* The loadfile's Deltree, as dbench's fileio does it: every file under the tree is
 * stat()ed and unlinked, directories are kept (a loop that starts with Deltree
 * finds its folders still there). path is a buffer of len bytes, used as scratch
 * and restored. Returns 0 or the negative errno of a device error. */
static int db_unlink_tree(char *path, size_t len)
{
    DIR *d = opendir(path);
    if (!d)
        return 0;
    size_t base = strlen(path);
    int rc = 0;
    struct dirent *de;
    while (rc == 0 && (de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if ((size_t)snprintf(path + base, len - base, "/%s", de->d_name) >= len - base)
            continue;
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            rc = db_unlink_tree(path, len);
        else if (unlink(path) != 0 && db_is_device_error(errno))
            rc = -errno;
    }
    closedir(d);
    if (rc == 0)
        path[base] = '\0';
    return rc;
}

static int db_grow(db_client *c, uint64_t size)
{
    if (size <= c->bufsz)
        return 0;
    char *b = realloc(c->buf, (size_t)size);
    if (!b)
        return -ENOMEM;
    memset(b + c->bufsz, 0, (size_t)size - c->bufsz);
    c->buf = b;
    c->bufsz = (size_t)size;
    return 0;
}

/* What one operation did, for the caller to count if it finished in the same phase. */
typedef struct db_outcome {
    uint64_t read_bytes, write_bytes;
    bool unexpected;
} db_outcome;

/* Executes one operation. Returns 0 (done, maybe unexpected) or a negative errno that
 * ends the run (already reported). */
static int db_exec(db_client *c, const sb_db_op *op, uint32_t idx, db_outcome *s)
{
    char path[8192], path2[8192];
    db_handle *h = NULL;
    int r = 0, e = 0;
    bool ok = true; /* outcome matched the expected status */

    switch (op->verb) {
    case SB_DB_NTCREATEX: {
        db_path(c, op, 0, path, sizeof path);
        db_resolve_name(path);
        /* dbench's mapping, not SMB's: SUPERSEDE and OPEN_IF open an existing file
         * only (client.txt uses neither). */
        int flags = O_RDWR;
        if (op->b == SB_DB_CREATE)
            flags |= O_CREAT;
        if (op->b == SB_DB_OVERWRITE || op->b == SB_DB_OVERWRITE_IF)
            flags |= O_CREAT | O_TRUNC;
        if (op->a & SB_DB_FILE_DIRECTORY_FILE) {
            if (mkdir(path, 0700) != 0 && db_is_device_error(errno))
                return db_failr(c, errno, "mkdir", path);
            flags = O_RDONLY | O_DIRECTORY;
        }
        int fd = open(path, flags, 0600);
        if (fd < 0 && errno == EISDIR)
            fd = open(path, O_RDONLY | O_DIRECTORY);
        if (fd < 0) {
            e = errno;
            if (db_is_device_error(e))
                return db_failr(c, e, "create", path);
            ok = !op->expect_ok;
            break;
        }
        if (!op->expect_ok) {
            close(fd);
            ok = false;
            break;
        }
        h = db_find(c, -1);
        if (!h) {
            close(fd);
            return db_failr(c, EMFILE, "create (more than 256 open handles)", path);
        }
        h->handle = op->handle;
        h->fd = fd;
        h->op = idx;
        /* dbench looks at every handle it opens (file or directory). */
        struct stat st;
        fstat(fd, &st);
        break;
    }
    case SB_DB_CLOSE:
    case SB_DB_READX:
    case SB_DB_WRITEX:
    case SB_DB_QFILEINFO:
    case SB_DB_SFILEINFO:
    case SB_DB_FLUSH:
    case SB_DB_LOCKX:
    case SB_DB_UNLOCKX: {
        h = db_find(c, op->handle);
        if (!h) {
            /* Its open failed against expectations: the stream goes on without it. */
            ok = false;
            break;
        }
        const sb_db_op *opener = &c->sh->script->ops[h->op];
        switch (op->verb) {
        case SB_DB_CLOSE:
            close(h->fd);
            h->handle = -1;
            if (opener->a & SB_DB_FILE_DELETE_ON_CLOSE) {
                db_path(c, opener, 0, path, sizeof path);
                unlink(path);
            }
            break;
        case SB_DB_READX: {
            if ((r = db_grow(c, op->size)) != 0)
                return db_failr(c, -r, "allocate", "read buffer");
            ssize_t n = pread(h->fd, c->buf, (size_t)op->size, (off_t)op->offset);
            if (n < 0 && db_is_device_error(e = errno)) {
                db_path(c, opener, 0, path, sizeof path);
                return db_failr(c, e, "read", path);
            }
            ok = n == (ssize_t)op->ret_size;
            s->read_bytes = op->size;
            break;
        }
        case SB_DB_WRITEX: {
            if ((r = db_grow(c, op->size)) != 0)
                return db_failr(c, -r, "allocate", "write buffer");
            r = sb_fs_write_all(h->fd, c->buf, (size_t)op->size, (off_t)op->offset);
            if (r < 0) {
                db_path(c, opener, 0, path, sizeof path);
                if (db_is_device_error(-r))
                    return db_failr(c, -r, "write", path);
                ok = false;
                break;
            }
            s->write_bytes = op->size;
            break;
        }
        case SB_DB_QFILEINFO: {
            struct stat st;
            ok = fstat(h->fd, &st) == 0;
            break;
        }
        case SB_DB_SFILEINFO: {
            struct stat st;
            if (fstat(h->fd, &st) == 0) {
                struct utimbuf tm = {.actime = st.st_atime - 10, .modtime = st.st_mtime - 12};
                db_path(c, opener, 0, path, sizeof path);
                ok = utime(path, &tm) == 0;
            }
            break;
        }
        case SB_DB_FLUSH:
            if (fsync(h->fd) != 0 && db_is_device_error(e = errno)) {
                db_path(c, opener, 0, path, sizeof path);
                return db_failr(c, e, "fsync", path);
            }
            break;
        default: {
            struct flock fl = {.l_type = op->verb == SB_DB_LOCKX ? F_WRLCK : F_UNLCK,
                               .l_whence = SEEK_SET,
                               .l_start = (off_t)op->offset,
                               .l_len = (off_t)op->size};
            /* Within one process the clients' threads share POSIX locks, so a lock
             * never waits here; dbench's processes would not contend either, as each
             * client locks only its own files. */
            ok = fcntl(h->fd, F_SETLK, &fl) == 0;
            break;
        }
        }
        break;
    }
    case SB_DB_UNLINK:
        db_path(c, op, 0, path, sizeof path);
        db_resolve_name(path);
        r = unlink(path);
        e = errno;
        if (r != 0 && db_is_device_error(e))
            return db_failr(c, e, "unlink", path);
        ok = (r == 0) == op->expect_ok;
        break;
    case SB_DB_RENAME:
        db_path(c, op, 0, path, sizeof path);
        db_path(c, op, 1, path2, sizeof path2);
        db_resolve_name(path);
        db_resolve_name(path2);
        r = rename(path, path2);
        e = errno;
        if (r != 0 && db_is_device_error(e))
            return db_failr(c, e, "rename", path);
        ok = (r == 0) == op->expect_ok;
        break;
    case SB_DB_QPATHINFO:
        db_path(c, op, 0, path, sizeof path);
        db_resolve_name(path);
        break;
    case SB_DB_QFSINFO: {
        struct statvfs sv;
        ok = statvfs(c->sh->dir, &sv) == 0;
        break;
    }
    case SB_DB_FINDFIRST: {
        db_path(c, op, 0, path, sizeof path);
        db_resolve_name(path);
        if (!strpbrk(path, "<>*?\""))
            break;
        char *slash = strrchr(path, '/');
        if (!slash)
            break;
        *slash = '\0';
        DIR *d = opendir(path);
        if (!d)
            break;
        uint32_t left = op->a;
        while (left && readdir(d))
            left--;
        closedir(d);
        break;
    }
    case SB_DB_DELTREE:
        db_path(c, op, 0, path, sizeof path);
        if ((r = db_unlink_tree(path, sizeof path)) < 0)
            return db_failr(c, -r, "deltree", path);
        break;
    case SB_DB_MKDIR:
        db_path(c, op, 0, path, sizeof path);
        db_resolve_name(path);
        if (mkdir(path, 0777) != 0 && db_is_device_error(errno))
            return db_failr(c, errno, "mkdir", path);
        break;
    case SB_DB_RMDIR:
        db_path(c, op, 0, path, sizeof path);
        db_resolve_name(path);
        r = rmdir(path);
        ok = (r == 0) == op->expect_ok;
        break;
    default:
        break;
    }
    s->unexpected = !ok;
    return 0;
}

static void db_close_all(db_client *c)
{
    for (int i = 0; i < DB_MAX_HANDLES; i++) {
        if (c->handles[i].handle != -1) {
            close(c->handles[i].fd);
            c->handles[i].handle = -1;
        }
    }
}

/* A timestamped loadfile line waits until its time into the loop, as dbench does (the
 * wait is not part of the operation's latency). Sleeps in short steps so that the end
 * of the run is seen; false when the run is over. */
static bool db_wait_until(db_shared *sh, uint64_t t_ns)
{
    for (;;) {
        if (atomic_load_explicit(&sh->phase, memory_order_relaxed) == 2)
            return false;
        uint64_t now = sb_now_ns();
        if (now >= t_ns)
            return true;
        uint64_t d = t_ns - now;
        if (d > 50000000u)
            d = 50000000u;
        struct timespec ts = {(time_t)(d / 1000000000u), (long)(d % 1000000000u)};
        nanosleep(&ts, NULL);
    }
}

/* client=dbench: the work dbench's client does for each loadfile line besides the
 * operation. It checks that its parent still runs (kill(2) with signal 0; dbench's client
 * exits when it does not), reads the line from its own stream of the loadfile and parses
 * it (sb_db_replay_next checks that it is this operation), and gives a ReadX or WriteX a
 * buffer of its own (dbench: malloc for a read, calloc and a copy of its write pattern for
 * a write), which the caller puts in place for the operation and frees after it. Without
 * this a storbench client is lighter than a dbench client, and on a CPU-bound target
 * (tmpfs) its figure is 1.2-1.4x dbench's (docs/workloads.md). 0 or a negative errno,
 * reported. */
static int db_line_work(db_client *c, const sb_db_op *op, char **fresh)
{
    *fresh = NULL;
    if (kill(getppid(), 0) != 0) {
        db_fail(c, ESRCH, "client", "parent process gone");
        return -ESRCH;
    }
    char msg[400];
    int rc = sb_db_replay_next(&c->replay, c->sh->script, op, msg, sizeof msg);
    if (rc < 0) {
        pthread_mutex_lock(&c->sh->lock);
        if (c->sh->err == 0)
            c->sh->err = sb_ctx_fail(c->sh->ctx, -rc, "dbench: loadfile %s", msg);
        pthread_mutex_unlock(&c->sh->lock);
        atomic_store(&c->sh->phase, 2);
        return rc;
    }
    if (op->verb != SB_DB_READX && op->verb != SB_DB_WRITEX)
        return 0;
    if ((rc = db_grow(c, op->size)) != 0) /* the write pattern (zeros): dbench's rw_buf */
        return db_failr(c, -rc, "buffer", "out of memory");
    size_t n = op->size ? (size_t)op->size : 1;
    char *b = op->verb == SB_DB_WRITEX ? calloc(1, n) : malloc(n);
    if (!b)
        return db_failr(c, ENOMEM, "buffer", "out of memory");
    if (op->verb == SB_DB_WRITEX)
        memcpy(b, c->buf, (size_t)op->size);
    *fresh = b;
    return 0;
}

static void *db_client_main(void *arg)
{
    db_client *c = arg;
    db_shared *sh = c->sh;
    const sb_db_script *sc = sh->script;
    if (mkdir(c->root, 0755) != 0 && errno != EEXIST) {
        db_fail(c, errno, "mkdir", c->root);
        return NULL;
    }
    for (;;) {
        uint64_t loop_t0 = sb_now_ns();
        for (uint32_t i = 0; i < sc->n; i++) {
            if (sc->ops[i].at > 0 && !db_wait_until(sh, loop_t0 + (uint64_t)(sc->ops[i].at * 1e9)))
                goto done;
            int phase = atomic_load_explicit(&sh->phase, memory_order_relaxed);
            if (phase == 2)
                goto done;
            db_stats *s = &c->stats[phase];
            db_outcome out = {0, 0, false};
            uint64_t t0 = sb_now_ns();
            char *fresh = NULL, *kept = NULL;
            if (c->replaying) {
                if (db_line_work(c, &sc->ops[i], &fresh) != 0)
                    goto done;
                kept = c->buf; /* after db_line_work: it may have grown (moved) it */
                if (fresh)
                    c->buf = fresh;
            }
            int rc = db_exec(c, &sc->ops[i], i, &out);
            if (fresh) {
                c->buf = kept;
                free(fresh);
            }
            if (rc != 0)
                goto done;
            uint64_t dt = sb_now_ns() - t0;
            s->unexpected += out.unexpected;
            /* An operation that finishes after its phase ended does not count. */
            if (atomic_load_explicit(&sh->phase, memory_order_relaxed) != phase)
                continue;
            s->read_bytes += out.read_bytes;
            s->write_bytes += out.write_bytes;
            s->bytes += out.read_bytes + out.write_bytes;
            int v = sc->ops[i].verb;
            s->count[v]++;
            if (dt > s->max_ns[v])
                s->max_ns[v] = dt;
            sb_hist_record(&s->hist, dt);
        }
        c->stats[atomic_load(&sh->phase) == 1 ? 1 : 0].loops++;
        db_close_all(c); /* a loadfile may end with handles open */
    }
done:
    db_close_all(c);
    return NULL;
}

static int db_run(sb_run_ctx *ctx, sb_sample *samples)
{
    db_params p;
    int rc = db_resolve(ctx->cfg, &p, ctx->err, sizeof ctx->err);
    if (rc)
        return rc;
    sb_db_script script;
    if (db_is_default_loadfile(&p) && access(p.loadfile, F_OK) != 0)
        return sb_ctx_fail(ctx, ENOTSUP,
                           "dbench: %s not found (Debian package dbench); loadfile=builtin runs "
                           "storbench's own generator, a different test",
                           p.loadfile);
    if (p.loadfile) {
        char err[400];
        rc = sb_db_parse_file(&script, p.loadfile, err, sizeof err);
        if (rc)
            return sb_ctx_fail(ctx, rc, "dbench: loadfile %s", err);
    } else if (sb_db_generate(&script, p.seed, DB_GEN_OPS) != 0) {
        return sb_ctx_fail(ctx, ENOMEM, "dbench: out of memory");
    }

    db_shared sh = {.ctx = ctx, .script = &script, .dir = ctx->dir};
    pthread_mutex_init(&sh.lock, NULL);
    char clients_dir[4096];
    snprintf(clients_dir, sizeof clients_dir, "%s/clients", ctx->dir);
    db_client *cs = calloc(p.clients, sizeof *cs);
    if (!cs) {
        sb_db_script_free(&script);
        return sb_ctx_fail(ctx, ENOMEM, "dbench: out of memory");
    }
    if (mkdir(clients_dir, 0755) != 0 && errno != EEXIST) {
        rc = sb_ctx_fail(ctx, errno, "dbench: mkdir %s: %s", clients_dir, strerror(errno));
        free(cs);
        sb_db_script_free(&script);
        return rc;
    }
    unsigned started = 0;
    for (unsigned i = 0; i < p.clients; i++) {
        db_client *c = &cs[i];
        c->sh = &sh;
        c->id = i;
        snprintf(c->root, sizeof c->root, "%s/client%u", clients_dir, i);
        for (int k = 0; k < DB_MAX_HANDLES; k++)
            c->handles[k].handle = -1;
        sb_hist_init(&c->stats[0].hist);
        sb_hist_init(&c->stats[1].hist);
    }
    /* client=dbench with a loadfile: each client its own stream of it, as dbench's clients
     * (the built-in generator has no text to read). */
    for (unsigned i = 0; i < p.clients && !p.light && p.loadfile && rc == 0; i++) {
        char err[400];
        if ((rc = sb_db_replay_open(&cs[i].replay, p.loadfile, err, sizeof err)) != 0)
            rc = sb_ctx_fail(ctx, -rc, "dbench: loadfile %s", err);
        cs[i].replaying = rc == 0;
    }
    if (rc != 0) {
        for (unsigned i = 0; i < p.clients; i++)
            sb_db_replay_close(&cs[i].replay);
        rmdir(clients_dir);
        free(cs);
        sb_db_script_free(&script);
        pthread_mutex_destroy(&sh.lock);
        return rc;
    }
    uint64_t t_start = sb_now_ns(), t_measure = 0, t_end = 0;
    for (; started < p.clients; started++) {
        if ((rc = pthread_create(&cs[started].thread, NULL, db_client_main, &cs[started])) != 0) {
            pthread_mutex_lock(&sh.lock);
            if (!sh.err)
                sh.err = sb_ctx_fail(ctx, rc, "dbench: start client thread: %s", strerror(rc));
            pthread_mutex_unlock(&sh.lock);
            atomic_store(&sh.phase, 2);
            break;
        }
    }
    if (p.warmup == 0)
        atomic_store(&sh.phase, 1), t_measure = t_start;
    double total = p.warmup + p.time;
    while (atomic_load(&sh.phase) != 2) {
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
        double el = (double)(sb_now_ns() - t_start) / 1e9;
        if (sb_ctx_interrupted(ctx)) {
            atomic_store(&sh.phase, 2);
            break;
        }
        if (t_measure == 0 && el >= p.warmup) {
            t_measure = sb_now_ns();
            atomic_store(&sh.phase, 1);
        }
        if (el >= total) {
            t_end = sb_now_ns();
            atomic_store(&sh.phase, 2);
        }
        sb_ctx_progress(ctx, el / total);
    }
    if (t_end == 0)
        t_end = sb_now_ns();
    for (unsigned i = 0; i < started; i++)
        pthread_join(cs[i].thread, NULL);

    /* Clean-up: each client's directory, then the shared one. */
    db_stats sum;
    memset(&sum, 0, sizeof sum);
    sb_hist_init(&sum.hist);
    for (unsigned i = 0; i < p.clients; i++) {
        int r = db_deltree(cs[i].root);
        if (r < 0 && !sh.err)
            sh.err = sb_ctx_fail(ctx, r, "dbench: remove %s: %s", cs[i].root, strerror(-r));
        const db_stats *s = &cs[i].stats[1];
        for (int v = 0; v < SB_DB_N_VERBS; v++) {
            sum.count[v] += s->count[v];
            if (s->max_ns[v] > sum.max_ns[v])
                sum.max_ns[v] = s->max_ns[v];
        }
        sum.bytes += s->bytes;
        sum.read_bytes += s->read_bytes;
        sum.write_bytes += s->write_bytes;
        sum.unexpected += s->unexpected + cs[i].stats[0].unexpected;
        sum.loops += s->loops + cs[i].stats[0].loops;
        sb_hist_merge(&sum.hist, &s->hist);
        free(cs[i].buf);
        sb_db_replay_close(&cs[i].replay);
    }
    /* Loadfile paths outside the client directories (other than \clients) go here. */
    char failed[512];
    int r = sb_fs_empty_dir(clients_dir, failed, sizeof failed);
    if (r < 0 && !sh.err)
        sh.err = sb_ctx_fail(ctx, r, "dbench: remove %s: %s", failed, strerror(-r));
    rmdir(clients_dir);
    free(cs);
    sb_db_script_free(&script);
    pthread_mutex_destroy(&sh.lock);
    if (sh.err)
        return sh.err;
    if (sb_ctx_interrupted(ctx))
        return sb_ctx_fail(ctx, EINTR, "dbench: interrupted");

    double secs = t_measure ? (double)(t_end - t_measure) / 1e9 : 0;
    sb_sample *s = &samples[0];
    s->value = secs > 0 ? (double)sum.bytes / secs / 1e6 : 0;
    s->valid = secs > 0;
    s->seconds = secs;
    uint64_t ops = 0;
    for (int v = 0; v < SB_DB_N_VERBS; v++)
        ops += sum.count[v];
    sb_sample_add(s, "operations", "ops", (double)ops);
    sb_sample_add(s, "ops_per_sec", "ops/s", secs > 0 ? (double)ops / secs : 0);
    sb_sample_add(s, "bytes_read", "bytes", (double)sum.read_bytes);
    sb_sample_add(s, "bytes_written", "bytes", (double)sum.write_bytes);
    sb_sample_add(s, "unexpected", "ops", (double)sum.unexpected);
    sb_sample_add(s, "max_latency", "ms", (double)sum.hist.max / 1e6);
    for (int v = 0; v < SB_DB_N_VERBS; v++) {
        if (!sum.count[v])
            continue;
        char n[32];
        snprintf(n, sizeof n, "n_%s", sb_db_verb_name(v));
        sb_sample_add(s, n, "ops", (double)sum.count[v]);
        snprintf(n, sizeof n, "max_%s", sb_db_verb_name(v));
        sb_sample_add(s, n, "ms", (double)sum.max_ns[v] / 1e6);
    }
    sb_sample_add_latency(s, "lat", &sum.hist);
    return 0;
}

const sb_workload sb_wl_dbench = {
    .name = "dbench",
    .title = "Dbench",
    .version = "4.0",
    .summary = "N clients replay dbench's client.txt file-server operation stream (or another loadfile); MB/s",
    .options = db_options,
    .n_options = sizeof db_options / sizeof db_options[0],
    .measures = db_measures,
    .n_measures = 1,
    .flags = SB_WL_WALL_CLOCK,
    .validate = db_validate,
    .space_needed = db_space_needed,
    .estimate_seconds = db_estimate,
    .run = db_run,
};
