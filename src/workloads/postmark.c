/*
 * postmark — the PostMark test (PostMark 1.51, "Disk Transaction
 * Performance"): the small-file workload of a mail or news server. A pool of
 * files of random sizes is created, then a number of transactions each do one
 * read-or-append on a random file and one create-or-delete, then every
 * remaining file is deleted.
 *
 * The headline is PostMark's own: transactions divided by the whole seconds
 * (time(2) difference) the transaction phase took. The exact rate, the
 * creation and deletion rates of each phase and the bytes read and written
 * are secondary figures; each transaction is one latency sample. Choices are
 * made by a seeded PRNG (seed 42 by default), so two runs do the same work,
 * though not the same work as PostMark's own random() stream.
 */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/histogram.h"
#include "core/rand.h"
#include "workloads/fs_common.h"
#include "workloads/workload.h"

static const sb_option pm_options[] = {
    {"files", "Files", "500", NULL, NULL, "files in the initial pool (set number)", SB_OPT_HIDDEN},
    {"size-min", "Minimum Size", "5120", NULL, NULL, "smallest file size (set size low)", SB_OPT_HIDDEN},
    {"size-max", "Maximum Size", "524288", NULL, NULL, "largest file size (set size high)", SB_OPT_HIDDEN},
    {"transactions", "Transactions", "250000", "25000", NULL, "transactions (set transactions)", SB_OPT_HIDDEN},
    {"read-block", "Read Block Size", "512", NULL, NULL, "bytes per read call (set read)", SB_OPT_HIDDEN},
    {"write-block", "Write Block Size", "512", NULL, NULL, "bytes per write call (set write)", SB_OPT_HIDDEN},
    {"bias-read", "Read Bias", "5", NULL, NULL, "reads out of 10 read-or-append choices (set bias read)",
     SB_OPT_HIDDEN},
    {"bias-create", "Create Bias", "5", NULL, NULL,
     "creates out of 10 create-or-delete choices (set bias create)", SB_OPT_HIDDEN},
    {"subdirs", "Subdirectories", "0", NULL, NULL, "subdirectories the files are spread over; 0 = one directory",
     SB_OPT_HIDDEN},
    {"buffered", "Buffered", "yes", NULL, NULL, "stdio-buffered I/O (set buffering true)", SB_OPT_HIDDEN},
    {"seed", "Seed", "42", NULL, NULL, "PRNG seed (set seed)", SB_OPT_HIDDEN},
};

static const sb_measure pm_measures[] = {
    /* The seed page's option line for PostMark, so that full-scale figures join it. */
    {"Disk Transaction Performance", "TPS", SB_HIGHER_IS_BETTER},
};

typedef struct pm_params {
    uint64_t files, size_min, size_max, transactions, read_block, write_block;
    uint64_t bias_read, bias_create, subdirs, seed;
    int buffered;
} pm_params;

static int pm_resolve(const sb_config *cfg, pm_params *p, char *err, size_t errlen)
{
    int rc;
    if ((rc = sb_config_uint(cfg, "files", 1, 10000000, &p->files, err, errlen)) ||
        (rc = sb_config_size(cfg, "size-min", &p->size_min, err, errlen)) ||
        (rc = sb_config_size(cfg, "size-max", &p->size_max, err, errlen)) ||
        (rc = sb_config_uint(cfg, "transactions", 0, UINT64_MAX / 2, &p->transactions, err, errlen)) ||
        (rc = sb_config_size(cfg, "read-block", &p->read_block, err, errlen)) ||
        (rc = sb_config_size(cfg, "write-block", &p->write_block, err, errlen)) ||
        (rc = sb_config_uint(cfg, "bias-read", 0, 10, &p->bias_read, err, errlen)) ||
        (rc = sb_config_uint(cfg, "bias-create", 0, 10, &p->bias_create, err, errlen)) ||
        (rc = sb_config_uint(cfg, "subdirs", 0, 100000, &p->subdirs, err, errlen)) ||
        (rc = sb_config_uint(cfg, "seed", 0, UINT64_MAX, &p->seed, err, errlen)) ||
        (rc = sb_config_bool(cfg, "buffered", &p->buffered, err, errlen)))
        return rc;
    if (p->size_min > p->size_max) {
        snprintf(err, errlen, "postmark: size-min (%llu) is larger than size-max (%llu)",
                 (unsigned long long)p->size_min, (unsigned long long)p->size_max);
        return -EINVAL;
    }
    if (p->read_block == 0 || p->write_block == 0 || p->read_block > (64u << 20) ||
        p->write_block > (64u << 20)) {
        snprintf(err, errlen, "postmark: read-block and write-block must be 1 byte .. 64 MiB");
        return -EINVAL;
    }
    return 0;
}

static int pm_validate(const sb_config *cfg, char *err, size_t errlen)
{
    pm_params p;
    return pm_resolve(cfg, &p, err, errlen);
}

static uint64_t pm_space_needed(const sb_config *cfg)
{
    pm_params p;
    char err[128];
    if (pm_resolve(cfg, &p, err, sizeof err))
        return 0;
    /* The pool drifts around its initial size; leave room for it to grow by half. */
    return p.files * 3 / 2 * (p.size_max + 4096);
}

static double pm_estimate(const sb_config *cfg)
{
    pm_params p;
    char err[128];
    if (pm_resolve(cfg, &p, err, sizeof err))
        return 0;
    return (double)p.transactions / 8000.0 + (double)p.files * (double)(p.size_min + p.size_max) / 2 / 500e6;
}

typedef struct pm_file {
    uint32_t id;      /* names the file: "<subdir>/pm<id>" */
    uint32_t subdir;
    uint64_t size;
} pm_file;

typedef struct pm_state {
    sb_run_ctx *ctx;
    const pm_params *p;
    sb_rand rand;
    char base[4096];
    pm_file *files;     /* the live pool, unordered */
    size_t n, cap;
    uint32_t next_id;
    char *buf;          /* max(read, write) block */
    uint64_t bytes_read, bytes_written;
    uint64_t created_alone, created_mixed, deleted_alone, deleted_mixed;
    uint64_t reads, appends;
} pm_state;

static void pm_path(const pm_state *st, const pm_file *f, char *out, size_t len)
{
    if (st->p->subdirs)
        snprintf(out, len, "%s/s%u/pm%u", st->base, f->subdir, f->id);
    else
        snprintf(out, len, "%s/pm%u", st->base, f->id);
}

/* A new file's size: uniform in [size-min, size-max), as PostMark (size-max itself only
 * when the two are equal). */
static uint64_t pm_random_size(pm_state *st)
{
    uint64_t span = st->p->size_max - st->p->size_min;
    return st->p->size_min + (span ? sb_rand_below(&st->rand, span) : 0);
}

/* Writes len bytes at the end of an open file in write-block pieces, through stdio when
 * buffered (PostMark's fwrite path) or straight write(2). */
static int pm_write_blocks(pm_state *st, FILE *fp, int fd, uint64_t len)
{
    while (len > 0) {
        size_t n = len < st->p->write_block ? (size_t)len : (size_t)st->p->write_block;
        if (fp) {
            if (fwrite(st->buf, 1, n, fp) != n)
                return errno ? -errno : -EIO;
        } else {
            int rc = sb_fs_write_all(fd, st->buf, n, -1);
            if (rc < 0)
                return rc;
        }
        len -= n;
        st->bytes_written += n;
    }
    return 0;
}

static int pm_open(pm_state *st, const char *path, int flags, FILE **fp, int *fd)
{
    *fp = NULL;
    *fd = open(path, flags, 0644);
    if (*fd < 0)
        return -errno;
    if (st->p->buffered) {
        const char *mode = (flags & O_ACCMODE) == O_RDONLY ? "r" : (flags & O_APPEND) ? "a" : "w";
        *fp = fdopen(*fd, mode);
        if (!*fp) {
            int e = -errno;
            close(*fd);
            return e;
        }
    }
    return 0;
}

static int pm_close(FILE *fp, int fd)
{
    if (fp)
        return fclose(fp) == 0 ? 0 : -errno;
    return close(fd) == 0 ? 0 : -errno;
}

static int pm_create(pm_state *st, bool mixed)
{
    /* PostMark's file table holds twice the initial pool; a create finding it full does
     * nothing. */
    if (st->n >= 2 * st->p->files)
        return 0;
    if (st->n == st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 64;
        pm_file *nf = realloc(st->files, cap * sizeof *nf);
        if (!nf)
            return sb_ctx_fail(st->ctx, ENOMEM, "postmark: out of memory");
        st->files = nf;
        st->cap = cap;
    }
    pm_file *f = &st->files[st->n];
    f->id = st->next_id++;
    f->subdir = st->p->subdirs ? (uint32_t)sb_rand_below(&st->rand, st->p->subdirs) : 0;
    f->size = pm_random_size(st);
    char path[4200];
    pm_path(st, f, path, sizeof path);
    FILE *fp;
    int fd;
    int rc = pm_open(st, path, O_CREAT | O_EXCL | O_WRONLY, &fp, &fd);
    if (rc < 0)
        return sb_ctx_fail(st->ctx, rc, "postmark: create %s: %s", path, strerror(-rc));
    st->n++; /* from here on the file exists and clean-up must see it */
    rc = pm_write_blocks(st, fp, fd, f->size);
    int crc = pm_close(fp, fd);
    if (rc == 0)
        rc = crc;
    if (rc < 0)
        return sb_ctx_fail(st->ctx, rc, "postmark: write %s: %s", path, strerror(-rc));
    if (mixed)
        st->created_mixed++;
    else
        st->created_alone++;
    return 0;
}

static int pm_delete(pm_state *st, size_t idx, bool mixed)
{
    char path[4200];
    pm_path(st, &st->files[idx], path, sizeof path);
    if (unlink(path) != 0)
        return sb_ctx_fail(st->ctx, errno, "postmark: delete %s: %s", path, strerror(errno));
    st->files[idx] = st->files[--st->n];
    if (mixed)
        st->deleted_mixed++;
    else
        st->deleted_alone++;
    return 0;
}

static int pm_read(pm_state *st, pm_file *f)
{
    char path[4200];
    pm_path(st, f, path, sizeof path);
    FILE *fp;
    int fd;
    int rc = pm_open(st, path, O_RDONLY, &fp, &fd);
    if (rc < 0)
        return sb_ctx_fail(st->ctx, rc, "postmark: open %s: %s", path, strerror(-rc));
    size_t bs = (size_t)st->p->read_block;
    for (;;) {
        size_t got;
        if (fp) {
            got = fread(st->buf, 1, bs, fp);
            if (got < bs && ferror(fp)) {
                rc = errno ? -errno : -EIO;
                break;
            }
        } else {
            ssize_t n = read(fd, st->buf, bs);
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                rc = -errno;
                break;
            }
            got = (size_t)n;
        }
        st->bytes_read += got;
        if (got == 0)
            break;
    }
    int crc = pm_close(fp, fd);
    if (rc == 0)
        rc = crc;
    if (rc < 0)
        return sb_ctx_fail(st->ctx, rc, "postmark: read %s: %s", path, strerror(-rc));
    st->reads++;
    return 0;
}

/* Appends a random amount in [1, size-max - size] to a file below size-max; a file
 * already at size-max is left alone (PostMark does not even open it). */
static int pm_append(pm_state *st, pm_file *f)
{
    if (f->size >= st->p->size_max)
        return 0;
    uint64_t add = 1 + sb_rand_below(&st->rand, st->p->size_max - f->size);
    char path[4200];
    pm_path(st, f, path, sizeof path);
    FILE *fp;
    int fd;
    int rc = pm_open(st, path, O_WRONLY | O_APPEND, &fp, &fd);
    if (rc < 0)
        return sb_ctx_fail(st->ctx, rc, "postmark: open %s: %s", path, strerror(-rc));
    rc = pm_write_blocks(st, fp, fd, add);
    int crc = pm_close(fp, fd);
    if (rc == 0)
        rc = crc;
    if (rc < 0)
        return sb_ctx_fail(st->ctx, rc, "postmark: append %s: %s", path, strerror(-rc));
    f->size += add;
    st->appends++;
    return 0;
}

static int pm_transaction(pm_state *st, uint64_t done)
{
    /* An empty pool ends PostMark's run without a report; here it is an error that
     * says what to change. */
    if (st->n == 0)
        return sb_ctx_fail(st->ctx, ENOENT,
                           "postmark: out of files after %llu transactions: raise files or lower transactions",
                           (unsigned long long)done);
    pm_file *f = &st->files[sb_rand_below(&st->rand, st->n)];
    int rc = sb_rand_below(&st->rand, 10) < st->p->bias_read ? pm_read(st, f) : pm_append(st, f);
    if (rc)
        return rc;
    if (sb_rand_below(&st->rand, 10) < st->p->bias_create)
        return pm_create(st, true);
    return pm_delete(st, (size_t)sb_rand_below(&st->rand, st->n), true);
}

static int pm_run(sb_run_ctx *ctx, sb_sample *samples)
{
    pm_params p;
    int rc = pm_resolve(ctx->cfg, &p, ctx->err, sizeof ctx->err);
    if (rc)
        return rc;
    pm_state st = {.ctx = ctx, .p = &p};
    sb_rand_seed(&st.rand, p.seed);
    snprintf(st.base, sizeof st.base, "%s/postmark", ctx->dir);
    size_t bufsz = (size_t)(p.read_block > p.write_block ? p.read_block : p.write_block);
    st.buf = malloc(bufsz);
    if (!st.buf)
        return sb_ctx_fail(ctx, ENOMEM, "postmark: out of memory");
    /* Incompressible content from a separate stream, so the choices do not depend on it. */
    sb_rand fill;
    sb_rand_seed(&fill, p.seed ^ 0x9e3779b97f4a7c15ull);
    sb_rand_fill(&fill, st.buf, bufsz);

    sb_histogram hist;
    sb_hist_init(&hist);
    double t_create = 0, t_trans = 0, t_delete = 0, t_total = 0;
    time_t w0 = 0, w1 = 0;
    uint64_t done_tx = 0;
    uint64_t total_start = sb_now_ns();

    if (mkdir(st.base, 0755) != 0) {
        rc = sb_ctx_fail(ctx, errno, "postmark: mkdir %s: %s", st.base, strerror(errno));
        goto out;
    }
    for (uint64_t d = 0; d < p.subdirs; d++) {
        char sub[4200];
        snprintf(sub, sizeof sub, "%s/s%u", st.base, (unsigned)d);
        if (mkdir(sub, 0755) != 0) {
            rc = sb_ctx_fail(ctx, errno, "postmark: mkdir %s: %s", sub, strerror(errno));
            goto out;
        }
    }

    /* Progress: the pool creation counts as 10 %, the transactions as 90 %. */
    uint64_t t0 = sb_now_ns();
    for (uint64_t i = 0; i < p.files; i++) {
        if (sb_ctx_interrupted(ctx)) {
            rc = sb_ctx_fail(ctx, EINTR, "postmark: interrupted");
            goto out;
        }
        if ((rc = pm_create(&st, false)) != 0)
            goto out;
        if ((i & 63) == 0)
            sb_ctx_progress(ctx, 0.1 * (double)i / (double)p.files);
    }
    t_create = (double)(sb_now_ns() - t0) / 1e9;

    w0 = time(NULL);
    t0 = sb_now_ns();
    for (; done_tx < p.transactions; done_tx++) {
        if ((done_tx & 255) == 0) {
            if (sb_ctx_interrupted(ctx)) {
                rc = sb_ctx_fail(ctx, EINTR, "postmark: interrupted");
                goto out;
            }
            sb_ctx_progress(ctx, 0.1 + 0.9 * (double)done_tx / (double)p.transactions);
        }
        uint64_t s = sb_now_ns();
        if ((rc = pm_transaction(&st, done_tx)) != 0)
            goto out;
        sb_hist_record(&hist, sb_now_ns() - s);
    }
    t_trans = (double)(sb_now_ns() - t0) / 1e9;
    w1 = time(NULL);

    t0 = sb_now_ns();
    while (st.n > 0) {
        if ((rc = pm_delete(&st, st.n - 1, false)) != 0)
            goto out;
    }
    t_delete = (double)(sb_now_ns() - t0) / 1e9;
    t_total = (double)(sb_now_ns() - total_start) / 1e9;

out:
    /* On failure, remove what is left of the pool; never leave files behind. */
    {
        char failed[512];
        for (size_t i = 0; i < st.n; i++) {
            char path[4200];
            pm_path(&st, &st.files[i], path, sizeof path);
            unlink(path);
        }
        int crc = sb_fs_empty_dir(st.base, failed, sizeof failed);
        if (crc < 0 && rc == 0)
            rc = sb_ctx_fail(ctx, crc, "postmark: remove %s: %s", failed, strerror(-crc));
        if (rmdir(st.base) != 0 && errno != ENOENT && rc == 0)
            rc = sb_ctx_fail(ctx, errno, "postmark: rmdir %s: %s", st.base, strerror(errno));
    }
    free(st.files);
    free(st.buf);
    if (rc)
        return rc;

    /* PostMark divides by the whole seconds time(2) saw pass; a phase under one second
     * counts as one so that tiny runs still give a number. */
    double whole = (double)(w1 - w0);
    if (whole < 1)
        whole = 1;
    sb_sample *s = &samples[0];
    /* Integer division, as PostMark prints "(%d per second)": the seed's TPS are integers. */
    s->value = floor((double)p.transactions / whole);
    s->valid = true;
    s->seconds = t_trans;
    uint64_t created = st.created_alone + st.created_mixed;
    uint64_t deleted = st.deleted_alone + st.deleted_mixed;
    sb_sample_add(s, "tps_exact", "TPS", t_trans > 0 ? (double)p.transactions / t_trans : 0);
    sb_sample_add(s, "transactions", "ops", (double)p.transactions);
    sb_sample_add(s, "files_created", "files", (double)created);
    sb_sample_add(s, "created_alone", "files", (double)st.created_alone);
    sb_sample_add(s, "created_mixed", "files", (double)st.created_mixed);
    sb_sample_add(s, "files_deleted", "files", (double)deleted);
    sb_sample_add(s, "deleted_alone", "files", (double)st.deleted_alone);
    sb_sample_add(s, "deleted_mixed", "files", (double)st.deleted_mixed);
    sb_sample_add(s, "files_read", "files", (double)st.reads);
    sb_sample_add(s, "files_appended", "files", (double)st.appends);
    /* PostMark's rates: totals over the whole run, "alone" over its own phase, "mixed"
     * over the transaction phase (here with exact seconds rather than whole ones). */
#define PM_RATE(n, t) ((t) > 0 ? (double)(n) / (t) : 0)
    sb_sample_add(s, "create_rate", "files/s", PM_RATE(created, t_total));
    sb_sample_add(s, "create_alone_rate", "files/s", PM_RATE(st.created_alone, t_create));
    sb_sample_add(s, "create_mixed_rate", "files/s", PM_RATE(st.created_mixed, t_trans));
    sb_sample_add(s, "delete_rate", "files/s", PM_RATE(deleted, t_total));
    sb_sample_add(s, "delete_alone_rate", "files/s", PM_RATE(st.deleted_alone, t_delete));
    sb_sample_add(s, "delete_mixed_rate", "files/s", PM_RATE(st.deleted_mixed, t_trans));
    sb_sample_add(s, "read_files_rate", "files/s", PM_RATE(st.reads, t_trans));
    sb_sample_add(s, "append_files_rate", "files/s", PM_RATE(st.appends, t_trans));
    sb_sample_add(s, "bytes_read", "bytes", (double)st.bytes_read);
    sb_sample_add(s, "bytes_written", "bytes", (double)st.bytes_written);
    sb_sample_add(s, "read_rate", "MB/s", PM_RATE(st.bytes_read, t_total) / 1e6);
    sb_sample_add(s, "write_rate", "MB/s", PM_RATE(st.bytes_written, t_total) / 1e6);
#undef PM_RATE
    sb_sample_add(s, "seconds_total", "s", t_total);
    sb_sample_add_latency(s, "lat", &hist);
    return 0;
}

const sb_workload sb_wl_postmark = {
    .name = "postmark",
    .title = "PostMark",
    .version = "1.51",
    .summary = "mail-server small-file transactions: read/append and create/delete on a file pool; TPS",
    .options = pm_options,
    .n_options = sizeof pm_options / sizeof pm_options[0],
    .measures = pm_measures,
    .n_measures = 1,
    .flags = SB_WL_WALL_CLOCK,
    .validate = pm_validate,
    .space_needed = pm_space_needed,
    .estimate_seconds = pm_estimate,
    .run = pm_run,
};
