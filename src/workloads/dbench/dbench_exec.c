/*
 * dbench_exec — one operation of a dbench stream as system calls, the way dbench
 * 4.0's fileio backend does it, so that both do the same work for the same
 * loadfile; and, before it, the per-line work of a dbench client (client=dbench,
 * dbench_replay.h). How each verb maps to system calls:
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
 * An operation that fails with an error the loadfile does not expect (it expects
 * success, or expects "not found" and gets another error) ends the run with one line
 * naming the operation, the path and the loadfile line, and the run saves nothing:
 * dbench prints a warning and goes on, but a figure from a stream that did not run as
 * written is not dbench's figure (a directory removed under a run made 4.4 million
 * operations fail behind a saved "0 MB/s"). A real device error (ENOSPC, EIO, EROFS,
 * EDQUOT) ends it whatever the loadfile expects. What dbench counts as a mismatch
 * without an error (an operation expected to fail that succeeded, a short read, a
 * handle whose open already failed as expected) counts as "unexpected" and the run
 * goes on, as in dbench.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <utime.h>

#include "workloads/dbench/dbench.h"
#include "workloads/fs_common.h"

static bool db_is_device_error(int e)
{
    return e == ENOSPC || e == EIO || e == EROFS || e == EDQUOT;
}

void sb_dbench_report(db_shared *sh, int err, const char *fmt, ...)
{
    pthread_mutex_lock(&sh->lock);
    if (sh->err == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(sh->errmsg, sizeof sh->errmsg, fmt, ap);
        va_end(ap);
        sh->err = err == 0 ? -EIO : err < 0 ? err : -err;
    }
    pthread_mutex_unlock(&sh->lock);
    atomic_store(&sh->phase, 2);
}

void sb_dbench_fail(db_client *c, int err, const char *op, const char *path)
{
    sb_dbench_report(c->sh, err, "dbench: %s %s: %s", op, path, strerror(err));
}

/* An error the loadfile's status does not allow: any when it expects success; when it
 * expects "not found" (NT_STATUS_OBJECT_NAME_NOT_FOUND, _PATH_NOT_FOUND, NO_SUCH_FILE),
 * any other than ENOENT and ENOTDIR. */
static bool db_is_failure(const sb_dbench_op *op, int e)
{
    return op->expect_ok || (e != ENOENT && e != ENOTDIR);
}

/* Ends the run for operation op that failed with errno e (the first failure wins): one
 * line with the loadfile line, so that a loadfile that does not fit can be found. Returns
 * -e, for the callers to return. */
static int db_op_fail(db_client *c, const sb_dbench_op *op, int e, const char *what, const char *path)
{
    if (db_is_device_error(e))
        sb_dbench_fail(c, e, what, path);
    else
        sb_dbench_report(c->sh, e, "dbench: %s %s: %s (%s line %u expects %s)", what, path, strerror(e),
                         c->sh->loadfile ? "loadfile" : "generated stream", op->line,
                         op->expect_ok ? "success" : "not found");
    return -e;
}

/* sb_dbench_fail for the operation paths: returns -err so that callers can `return`. */
static int db_failr(db_client *c, int err, const char *op, const char *path)
{
    sb_dbench_fail(c, err, op, path);
    return -err;
}

static void db_path(const db_client *c, const sb_dbench_op *op, int which, char *out, size_t len)
{
    const char *p = sb_dbench_str(c->sh->script, which ? op->path2 : op->path);
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

/* NTCreateX: open (or create, or make the directory) and keep the handle. */
static int db_create(db_client *c, const sb_dbench_op *op, uint32_t idx, bool *ok)
{
    char path[8192];
    db_path(c, op, 0, path, sizeof path);
    db_resolve_name(path);
    /* dbench's mapping, not SMB's: SUPERSEDE and OPEN_IF open an existing file
     * only (client.txt uses neither). */
    int flags = O_RDWR;
    if (op->b == SB_DBENCH_CREATE)
        flags |= O_CREAT;
    if (op->b == SB_DBENCH_OVERWRITE || op->b == SB_DBENCH_OVERWRITE_IF)
        flags |= O_CREAT | O_TRUNC;
    if (op->a & SB_DBENCH_FILE_DIRECTORY_FILE) {
        /* EEXIST is the common case; any other error shows in the open below */
        if (mkdir(path, 0700) != 0 && db_is_device_error(errno))
            return db_failr(c, errno, "mkdir", path);
        flags = O_RDONLY | O_DIRECTORY;
    }
    int fd = open(path, flags, 0600);
    if (fd < 0 && errno == EISDIR)
        fd = open(path, O_RDONLY | O_DIRECTORY);
    if (fd < 0) {
        int e = errno;
        if (db_is_device_error(e) || db_is_failure(op, e))
            return db_op_fail(c, op, e, "create", path);
        return 0; /* failed as the loadfile expects */
    }
    if (!op->expect_ok) {
        close(fd);
        *ok = false;
        return 0;
    }
    db_handle *h = db_find(c, -1);
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
    return 0;
}

/* ReadX and WriteX on handle h (opened by opener). */
static int db_read_write(db_client *c, const sb_dbench_op *op, db_handle *h, const sb_dbench_op *opener,
                         db_outcome *s, bool *ok)
{
    char path[8192];
    int r, e;
    if ((r = db_grow(c, op->size)) != 0)
        return db_failr(c, -r, "allocate", op->verb == SB_DBENCH_READX ? "read buffer" : "write buffer");
    if (op->verb == SB_DBENCH_READX) {
        ssize_t n = pread(h->fd, c->buf, (size_t)op->size, (off_t)op->offset);
        if (n < 0) {
            e = errno;
            db_path(c, opener, 0, path, sizeof path);
            return db_op_fail(c, op, e, "read", path);
        }
        *ok = n == (ssize_t)op->ret_size;
        s->read_bytes = op->size;
        return 0;
    }
    r = sb_fs_write_all(h->fd, c->buf, (size_t)op->size, (off_t)op->offset);
    if (r < 0) { /* dbench too stops at a failed write */
        db_path(c, opener, 0, path, sizeof path);
        return db_op_fail(c, op, -r, "write", path);
    }
    s->write_bytes = op->size;
    return 0;
}

/* The verbs on an open handle: Close, ReadX, WriteX, QUERY/SET_FILE_INFORMATION, Flush,
 * LockX, UnlockX. */
static int db_handle_op(db_client *c, const sb_dbench_op *op, db_outcome *s, bool *ok)
{
    char path[8192];
    int e;
    db_handle *h = db_find(c, op->handle);
    if (!h) {
        /* Its open failed against expectations: the stream goes on without it. */
        *ok = false;
        return 0;
    }
    const sb_dbench_op *opener = &c->sh->script->ops[h->op];
    struct stat st;
    switch (op->verb) {
    case SB_DBENCH_CLOSE:
        close(h->fd);
        h->handle = -1;
        if (opener->a & SB_DBENCH_FILE_DELETE_ON_CLOSE) {
            db_path(c, opener, 0, path, sizeof path);
            unlink(path);
        }
        return 0;
    case SB_DBENCH_READX:
    case SB_DBENCH_WRITEX:
        return db_read_write(c, op, h, opener, s, ok);
    case SB_DBENCH_QFILEINFO:
        if (fstat(h->fd, &st) != 0 && db_is_failure(op, e = errno)) {
            db_path(c, opener, 0, path, sizeof path);
            return db_op_fail(c, op, e, "fstat", path);
        }
        return 0;
    case SB_DBENCH_SFILEINFO: {
        db_path(c, opener, 0, path, sizeof path);
        if (fstat(h->fd, &st) != 0) {
            e = errno;
            return db_is_failure(op, e) ? db_op_fail(c, op, e, "fstat", path) : 0;
        }
        struct utimbuf tm = {.actime = st.st_atime - 10, .modtime = st.st_mtime - 12};
        if (utime(path, &tm) != 0 && db_is_failure(op, e = errno))
            return db_op_fail(c, op, e, "utime", path);
        return 0;
    }
    case SB_DBENCH_FLUSH:
        if (fsync(h->fd) != 0) {
            e = errno;
            db_path(c, opener, 0, path, sizeof path);
            return db_op_fail(c, op, e, "fsync", path);
        }
        return 0;
    default: {
        struct flock fl = {.l_type = op->verb == SB_DBENCH_LOCKX ? F_WRLCK : F_UNLCK,
                           .l_whence = SEEK_SET,
                           .l_start = (off_t)op->offset,
                           .l_len = (off_t)op->size};
        /* Within one process the clients' threads share POSIX locks, so a lock
         * never waits here; dbench's processes would not contend either, as each
         * client locks only its own files. */
        if (fcntl(h->fd, F_SETLK, &fl) != 0 && db_is_failure(op, e = errno)) {
            db_path(c, opener, 0, path, sizeof path);
            return db_op_fail(c, op, e, op->verb == SB_DBENCH_LOCKX ? "lock" : "unlock", path);
        }
        return 0;
    }
    }
}

/* FIND_FIRST: up to maxcnt entries of the directory of a pattern (path, modified). */
static void db_find_first(char *path, uint32_t maxcnt)
{
    if (!strpbrk(path, "<>*?\""))
        return;
    char *slash = strrchr(path, '/');
    if (!slash)
        return;
    *slash = '\0';
    DIR *d = opendir(path);
    if (!d)
        return;
    uint32_t left = maxcnt;
    while (left && readdir(d))
        left--;
    closedir(d);
}

/* The verbs on names: Unlink, Rename, QUERY_PATH_INFORMATION, FIND_FIRST, Deltree, Mkdir,
 * Rmdir. */
static int db_name_op(db_client *c, const sb_dbench_op *op, bool *ok)
{
    char path[8192], path2[8192];
    int r, e;
    db_path(c, op, 0, path, sizeof path);
    if (op->verb != SB_DBENCH_DELTREE)
        db_resolve_name(path);
    switch (op->verb) {
    case SB_DBENCH_UNLINK:
        r = unlink(path);
        e = errno;
        if (r != 0 && (db_is_device_error(e) || db_is_failure(op, e)))
            return db_op_fail(c, op, e, "unlink", path);
        *ok = (r == 0) == op->expect_ok;
        return 0;
    case SB_DBENCH_RENAME:
        db_path(c, op, 1, path2, sizeof path2);
        db_resolve_name(path2);
        r = rename(path, path2);
        e = errno;
        if (r != 0 && (db_is_device_error(e) || db_is_failure(op, e)))
            return db_op_fail(c, op, e, "rename", path);
        *ok = (r == 0) == op->expect_ok;
        return 0;
    case SB_DBENCH_FINDFIRST:
        db_find_first(path, op->a);
        return 0;
    case SB_DBENCH_DELTREE:
        if ((r = db_unlink_tree(path, sizeof path)) < 0)
            return db_failr(c, -r, "deltree", path);
        return 0;
    case SB_DBENCH_MKDIR: /* an existing directory is what a loop finds (Deltree keeps them) */
        if (mkdir(path, 0777) != 0 && (e = errno) != EEXIST && (db_is_device_error(e) || db_is_failure(op, e)))
            return db_op_fail(c, op, e, "mkdir", path);
        return 0;
    case SB_DBENCH_RMDIR:
        r = rmdir(path);
        e = errno;
        if (r != 0 && db_is_failure(op, e))
            return db_op_fail(c, op, e, "rmdir", path);
        *ok = (r == 0) == op->expect_ok;
        return 0;
    default: /* SB_DBENCH_QPATHINFO: the name lookup is all */
        return 0;
    }
}

int sb_dbench_exec(db_client *c, const sb_dbench_op *op, uint32_t idx, db_outcome *s)
{
    bool ok = true; /* outcome matched the expected status */
    int r = 0;
    switch (op->verb) {
    case SB_DBENCH_NTCREATEX:
        r = db_create(c, op, idx, &ok);
        break;
    case SB_DBENCH_CLOSE:
    case SB_DBENCH_READX:
    case SB_DBENCH_WRITEX:
    case SB_DBENCH_QFILEINFO:
    case SB_DBENCH_SFILEINFO:
    case SB_DBENCH_FLUSH:
    case SB_DBENCH_LOCKX:
    case SB_DBENCH_UNLOCKX:
        r = db_handle_op(c, op, s, &ok);
        break;
    case SB_DBENCH_UNLINK:
    case SB_DBENCH_RENAME:
    case SB_DBENCH_QPATHINFO:
    case SB_DBENCH_FINDFIRST:
    case SB_DBENCH_DELTREE:
    case SB_DBENCH_MKDIR:
    case SB_DBENCH_RMDIR:
        r = db_name_op(c, op, &ok);
        break;
    case SB_DBENCH_QFSINFO: {
        struct statvfs sv;
        if (statvfs(c->sh->dir, &sv) != 0)
            r = db_op_fail(c, op, errno, "statvfs", c->sh->dir);
        break;
    }
    default:
        break;
    }
    if (r < 0)
        return r;
    s->unexpected = !ok;
    return 0;
}

void sb_dbench_close_all(db_client *c)
{
    for (int i = 0; i < DB_MAX_HANDLES; i++) {
        if (c->handles[i].handle != -1) {
            close(c->handles[i].fd);
            c->handles[i].handle = -1;
        }
    }
}

/* client=dbench: the work dbench's client does for each loadfile line besides the
 * operation. It checks that its parent still runs (kill(2) with signal 0; dbench's client
 * exits when it does not), reads the line from its own stream of the loadfile and parses
 * it (sb_dbench_replay_next checks that it is this operation), and gives a ReadX or WriteX a
 * buffer of its own (dbench: malloc for a read, calloc and a copy of its write pattern for
 * a write), which the caller puts in place for the operation and frees after it. Without
 * this a storbench client is lighter than a dbench client, and on a CPU-bound target
 * (tmpfs) its figure is 1.2-1.4x dbench's (docs/workloads.md). 0 or a negative errno,
 * reported. */
int sb_dbench_line_work(db_client *c, const sb_dbench_op *op, char **fresh)
{
    *fresh = NULL;
    if (kill(c->parent, 0) != 0) {
        sb_dbench_fail(c, ESRCH, "client", "parent process gone");
        return -ESRCH;
    }
    char msg[400];
    int rc = sb_dbench_replay_next(&c->replay, c->sh->script, op, msg, sizeof msg);
    if (rc < 0) {
        sb_dbench_report(c->sh, rc, "dbench: loadfile %s", msg);
        return rc;
    }
    if (op->verb != SB_DBENCH_READX && op->verb != SB_DBENCH_WRITEX)
        return 0;
    if ((rc = db_grow(c, op->size)) != 0) /* the write pattern (zeros): dbench's rw_buf */
        return db_failr(c, -rc, "buffer", "out of memory");
    size_t n = op->size ? (size_t)op->size : 1;
    char *b = op->verb == SB_DBENCH_WRITEX ? calloc(1, n) : malloc(n);
    if (!b)
        return db_failr(c, ENOMEM, "buffer", "out of memory");
    if (op->verb == SB_DBENCH_WRITEX)
        memcpy(b, c->buf, (size_t)op->size);
    *fresh = b;
    return 0;
}
