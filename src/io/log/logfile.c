/*
 * logfile — see logfile.h.
 */
#include "io/log/logfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/safepath.h"
#include "io/job.h"

#define DEFAULT_CAP (64u << 10)

int sb_logfile_open(sb_logfile *f, const sb_io_job *job, const char *prefix, const char *kind,
                    unsigned index, size_t cap, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    f->fd = -1;
    bool per_thread = job->per_job_logs;
    const char *suffix = job->log_gz_store ? "log.fz" : "log";
    char path[PATH_MAX];
    int n = per_thread ? snprintf(path, sizeof path, "%s_%s.%u.%s", prefix, kind, index + 1, suffix)
                       : snprintf(path, sizeof path, "%s_%s.%s", prefix, kind, suffix);
    if (n >= (int)sizeof path) {
        snprintf(err, errlen, "%s: %s", prefix, strerror(ENAMETOOLONG));
        return -ENAMETOOLONG;
    }
    f->cap = job->log_gz ? job->log_gz : DEFAULT_CAP;
    if (f->cap < cap)
        f->cap = cap; /* a histogram line must fit whole */
    f->max_lines = job->log_entries;
    f->deflate = job->log_gz_store;
    f->pin = job->log_gz_cpus_set;
    f->cpus = job->log_gz_cpus;
    if (!(f->buf = malloc(f->cap))) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    /* per_job_logs=0: the first thread (set up before the others) replaces the file, the
     * others append, and every write of a buffer (or of one zlib stream) lands whole */
    int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (per_thread || index == 0 ? O_TRUNC : 0) |
                (per_thread ? 0 : O_APPEND);
    int r = sb_open_resolved(path, flags, 0644, &f->fd, err, errlen);
    if (r < 0) {
        free(f->buf);
        f->buf = NULL;
        f->fd = -1;
    }
    return r;
}

static void write_all(sb_logfile *f, const char *p, size_t len)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(f->fd, p + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (!f->err)
                f->err = n < 0 ? -errno : -EIO;
            return;
        }
        done += (size_t)n;
    }
}

/* The buffer as one zlib stream (fio's chunk), deflated on the CPUs asked for. */
static void deflate_out(sb_logfile *f)
{
    uLongf out_len = compressBound((uLong)f->len);
    Bytef *out = malloc(out_len);
    if (!out) {
        if (!f->err)
            f->err = -ENOMEM;
        return;
    }
    cpu_set_t was;
    bool pinned = f->pin && sched_getaffinity(0, sizeof was, &was) == 0 &&
                  sched_setaffinity(0, sizeof f->cpus, &f->cpus) == 0;
    int z = compress2(out, &out_len, (const Bytef *)f->buf, (uLong)f->len, Z_DEFAULT_COMPRESSION);
    if (pinned)
        sched_setaffinity(0, sizeof was, &was);
    if (z == Z_OK)
        write_all(f, (const char *)out, out_len);
    else if (!f->err)
        f->err = -EIO;
    free(out);
}

static void flush(sb_logfile *f)
{
    if (f->len)
        f->deflate ? deflate_out(f) : write_all(f, f->buf, f->len);
    f->len = 0;
    f->lines = 0;
}

char *sb_logfile_room(sb_logfile *f, size_t n)
{
    if (f->fd < 0)
        return NULL;
    if (f->len + n > f->cap || (f->max_lines && f->lines >= f->max_lines))
        flush(f);
    return f->buf + f->len;
}

void sb_logfile_put(sb_logfile *f, size_t n)
{
    f->len += n;
    f->lines++;
}

int sb_logfile_close(sb_logfile *f)
{
    if (f->fd >= 0) {
        flush(f);
        close(f->fd);
        f->fd = -1;
    }
    free(f->buf);
    f->buf = NULL;
    return f->err;
}
