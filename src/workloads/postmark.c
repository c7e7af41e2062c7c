/*
 * postmark — the PostMark test (PostMark 1.51, "Disk Transaction
 * Performance"): the small-file workload of a mail or news server. A pool of
 * files of random sizes is created, then a number of transactions each do one
 * read-or-append on a random file and one create-or-delete, then every
 * remaining file is deleted.
 *
 * The work is PostMark's, choice for choice: the same random stream
 * (postmark_rand: MT19937 seeded as PostMark seeds it, 42 by default) drawn
 * in the same order for the same decisions, the same file table (twice the
 * pool, files named by a running number), the same data (the first bytes of
 * a buffer of random printable characters, twice size-max long) and the same
 * stdio calls, so that a file system sees what PostMark makes it see.
 *
 * The headline is PostMark's own: transactions divided by the whole seconds
 * (time(2) difference) the transaction phase took. The exact rate, the
 * creation and deletion rates of each phase and the bytes read and written
 * are secondary figures; each transaction is one latency sample.
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
#include "workloads/fs_common.h"
#include "workloads/postmark_rand.h"
#include "workloads/workload.h"

static const sb_option pm_options[] = {
    {"files", "Files", "500", NULL, NULL, "files in the initial pool (set number)", SB_OPT_HIDDEN, .kind = SB_VAL_UINT, .min = 1, .max = 10000000},
    {"size-min", "Minimum Size", "5120", NULL, NULL, "smallest file size (set size low)", SB_OPT_HIDDEN, .kind = SB_VAL_SIZE},
    {"size-max", "Maximum Size", "524288", NULL, NULL, "largest file size (set size high)", SB_OPT_HIDDEN, .kind = SB_VAL_SIZE},
    {"transactions", "Transactions", "250000", "20000", NULL, "transactions (set transactions)", SB_OPT_HIDDEN, .kind = SB_VAL_UINT, .min = 0, .max = UINT64_MAX / 2},
    {"read-block", "Read Block Size", "512", NULL, NULL, "bytes per read call (set read)", SB_OPT_HIDDEN, .kind = SB_VAL_SIZE},
    {"write-block", "Write Block Size", "512", NULL, NULL, "bytes per write call (set write)", SB_OPT_HIDDEN, .kind = SB_VAL_SIZE},
    {"bias-read", "Read Bias", "5", NULL, NULL, "reads out of 10 read-or-append choices (set bias read)",
     SB_OPT_HIDDEN, .kind = SB_VAL_UINT, .min = 0, .max = 10},
    {"bias-create", "Create Bias", "5", NULL, NULL,
     "creates out of 10 create-or-delete choices (set bias create)", SB_OPT_HIDDEN, .kind = SB_VAL_UINT, .min = 0, .max = 10},
    {"subdirs", "Subdirectories", "0", NULL, NULL, "subdirectories the files are spread over; 0 = one directory",
     SB_OPT_HIDDEN, .kind = SB_VAL_UINT, .min = 0, .max = 100000},
    {"buffered", "Buffered", "yes", NULL, NULL, "stdio-buffered I/O (set buffering true)", SB_OPT_HIDDEN, .kind = SB_VAL_BOOL},
    {"seed", "Seed", "42", NULL, NULL, "seed of PostMark's random stream, 0 .. 4294967295 (set seed)",
     SB_OPT_HIDDEN, .kind = SB_VAL_UINT, .min = 0, .max = UINT32_MAX},
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

static int pm_resolve(const sb_config *cfg, void *params, char *err, size_t errlen)
{
    pm_params *p = params;
    int rc;
    if ((rc = sb_config_check(cfg, err, errlen)))
        return rc;
    p->files = sb_config_u(cfg, "files");
    p->size_min = sb_config_u(cfg, "size-min");
    p->size_max = sb_config_u(cfg, "size-max");
    p->transactions = sb_config_u(cfg, "transactions");
    p->read_block = sb_config_u(cfg, "read-block");
    p->write_block = sb_config_u(cfg, "write-block");
    p->bias_read = sb_config_u(cfg, "bias-read");
    p->bias_create = sb_config_u(cfg, "bias-create");
    p->subdirs = sb_config_u(cfg, "subdirs");
    p->seed = sb_config_u(cfg, "seed");
    p->buffered = sb_config_yes(cfg, "buffered");
    if (p->size_min > p->size_max) {
        snprintf(err, errlen, "postmark: size-min (%llu) is larger than size-max (%llu)",
                 (unsigned long long)p->size_min, (unsigned long long)p->size_max);
        return -EINVAL;
    }
    /* PostMark keeps sizes in an int and a buffer of twice size-max; storbench keeps
     * size-max bytes of it. */
    if (p->size_max > (1u << 30)) {
        snprintf(err, errlen, "postmark: size-max must be at most 1 GiB");
        return -EINVAL;
    }
    if (p->read_block == 0 || p->write_block == 0 || p->read_block > (64u << 20) ||
        p->write_block > (64u << 20)) {
        snprintf(err, errlen, "postmark: read-block and write-block must be 1 byte .. 64 MiB");
        return -EINVAL;
    }
    return 0;
}

static uint64_t pm_space_needed(const void *params)
{
    const pm_params *p = params;
    /* The pool drifts around its initial size; leave room for it to grow by half. */
    return p->files * 3 / 2 * (p->size_max + 4096);
}

static double pm_estimate(const void *params)
{
    const pm_params *p = params;
    return (double)p->transactions / 8000.0 + (double)p->files * (double)(p->size_min + p->size_max) / 2 / 500e6;
}

/* One slot of PostMark's file table (twice the pool's size). */
typedef struct pm_file {
    uint32_t number;  /* names the file: "[s<subdir>/]<number>" */
    uint32_t subdir;
    uint64_t size;
    bool used;
} pm_file;

typedef struct pm_state {
    sb_run_ctx *ctx;
    const pm_params *p;
    sb_pm_rand rand;
    char base[4096];
    pm_file *table;     /* 2 x files slots */
    size_t slots;
    size_t allocated;   /* PostMark's file_allocated: where the next free slot is looked for */
    size_t live;
    uint32_t numbered;  /* files created so far: the next file's number - 1 */
    char *source;       /* the data every write takes its bytes from, from the start */
    char *read_buf;
    uint64_t bytes_read, bytes_written;
    uint64_t created_alone, created_mixed, deleted_alone, deleted_mixed;
    uint64_t reads, appends;
} pm_state;

static void pm_path(const pm_state *st, const pm_file *f, char *out, size_t len)
{
    if (st->p->subdirs > 1)
        snprintf(out, len, "%s/s%u/%u", st->base, f->subdir, f->number);
    else
        snprintf(out, len, "%s/%u", st->base, f->number);
}

/* Writes len bytes of the source in write-block pieces and the remainder, then closes, as
 * PostMark's fwrite_blocks / write_blocks (unbuffered, it writes even a remainder of 0
 * bytes: that write(2) is made here too). 0 or -errno. */
/* Opens path the way the run's mode asks: buffered through stdio (fopen mode, *fp) as
 * PostMark's buffered mode, else open(2) with flags (*fd). 0, or the errno. */
static int pm_open(const pm_state *st, const char *path, const char *mode, int flags, FILE **fp,
                   int *fd)
{
    *fp = NULL;
    *fd = -1;
    if (st->p->buffered)
        *fp = fopen(path, mode);
    else
        *fd = open(path, flags, 0644);
    return *fp || *fd >= 0 ? 0 : errno;
}

static int pm_write_close(pm_state *st, FILE *fp, int fd, uint64_t len)
{
    const uint64_t wb = st->p->write_block;
    uint64_t off = 0;
    int rc = 0;
    for (;;) {
        size_t n = (size_t)(len - off < wb ? len - off : wb);
        if (fp) {
            if (n > 0 && fwrite(st->source + off, n, 1, fp) != 1)
                rc = errno ? -errno : -EIO;
        } else if (n > 0) {
            rc = sb_fs_write_all(fd, st->source + off, n, -1);
        } else if (write(fd, st->source, 0) < 0) {
            rc = -errno;
        }
        off += n;
        if (rc || n < wb)
            break;
    }
    if (rc == 0)
        st->bytes_written += len;
    int crc = fp ? (fclose(fp) == 0 ? 0 : -errno) : (close(fd) == 0 ? 0 : -errno);
    return rc ? rc : crc;
}

/* PostMark's find_free_file: the slot after the last one handed out, else the first free. */
static pm_file *pm_free_slot(pm_state *st)
{
    if (st->allocated < st->slots && !st->table[st->allocated].used)
        return &st->table[st->allocated++];
    for (size_t i = 0; i < st->slots; i++) {
        if (!st->table[i].used) {
            st->allocated = i + 1;
            return &st->table[i];
        }
    }
    return NULL;
}

/* PostMark's find_used_file: random slots until one holds a file (the caller makes sure
 * one does). */
static pm_file *pm_used_slot(pm_state *st)
{
    pm_file *f;
    do
        f = &st->table[sb_pm_rnd(&st->rand, (uint32_t)st->slots)];
    while (!f->used);
    return f;
}

static int pm_create(pm_state *st, bool mixed)
{
    pm_file *f = pm_free_slot(st);
    if (!f)
        return 0; /* the table is full: PostMark does nothing */
    const pm_params *p = st->p;
    f->subdir = p->subdirs > 1 ? sb_pm_rnd(&st->rand, (uint32_t)p->subdirs) : 0;
    f->number = ++st->numbered;
    f->size = p->size_min + sb_pm_rnd(&st->rand, (uint32_t)(p->size_max - p->size_min));
    char path[4200];
    pm_path(st, f, path, sizeof path);
    FILE *fp;
    int fd, e = pm_open(st, path, "w", O_RDWR | O_CREAT, &fp, &fd);
    if (e)
        return sb_ctx_fail(st->ctx, e, "postmark: create %s: %s", path, strerror(e));
    f->used = true; /* from here on the file exists and clean-up must see it */
    st->live++;
    int rc = pm_write_close(st, fp, fd, f->size);
    if (rc < 0)
        return sb_ctx_fail(st->ctx, -rc, "postmark: write %s: %s", path, strerror(-rc));
    if (mixed)
        st->created_mixed++;
    else
        st->created_alone++;
    return 0;
}

static int pm_delete(pm_state *st, pm_file *f, bool mixed)
{
    char path[4200];
    pm_path(st, f, path, sizeof path);
    if (unlink(path) != 0)
        return sb_ctx_fail(st->ctx, errno, "postmark: delete %s: %s", path, strerror(errno));
    f->used = false;
    st->live--;
    if (mixed)
        st->deleted_mixed++;
    else
        st->deleted_alone++;
    return 0;
}

/* Reads the file's known size in read-block pieces and the remainder, as PostMark. */
static int pm_read(pm_state *st, pm_file *f)
{
    char path[4200];
    pm_path(st, f, path, sizeof path);
    const uint64_t rb = st->p->read_block;
    FILE *fp;
    int fd, rc = 0, e = pm_open(st, path, "r", O_RDONLY, &fp, &fd);
    if (e)
        return sb_ctx_fail(st->ctx, e, "postmark: open %s: %s", path, strerror(e));
    /* Whole blocks, then the remainder (unbuffered, a read(2) of 0 bytes when there is none,
     * as PostMark). */
    for (uint64_t left = f->size; rc == 0;) {
        size_t n = (size_t)(left < rb ? left : rb);
        if (fp) {
            if (n > 0 && fread(st->read_buf, n, 1, fp) != 1)
                rc = ferror(fp) ? (errno ? -errno : -EIO) : -ENODATA;
        } else {
            size_t got = 0;
            rc = n > 0 ? sb_fs_read_all(fd, st->read_buf, n, -1, &got) : (read(fd, st->read_buf, 0) < 0 ? -errno : 0);
            if (rc == 0 && got < n)
                rc = -ENODATA;
        }
        left -= n;
        if (n < rb)
            break;
    }
    int crc = fp ? (fclose(fp) == 0 ? 0 : -errno) : (close(fd) == 0 ? 0 : -errno);
    if (rc == 0)
        rc = crc;
    if (rc < 0)
        return sb_ctx_fail(st->ctx, -rc, "postmark: read %s: %s", path,
                           rc == -ENODATA ? "shorter than written" : strerror(-rc));
    st->bytes_read += f->size;
    st->reads++;
    return 0;
}

/* Appends a random amount in [1, size-max - size] to a file below size-max; a file
 * already at size-max is left alone (PostMark does not even open it). */
static int pm_append(pm_state *st, pm_file *f)
{
    const pm_params *p = st->p;
    if (f->size >= p->size_max)
        return 0;
    char path[4200];
    pm_path(st, f, path, sizeof path);
    FILE *fp;
    int fd, e = pm_open(st, path, "a", O_RDWR | O_APPEND, &fp, &fd);
    if (e)
        return sb_ctx_fail(st->ctx, e, "postmark: open %s: %s", path, strerror(e));
    uint64_t add = 1 + sb_pm_rnd(&st->rand, (uint32_t)(p->size_max - f->size));
    int rc = pm_write_close(st, fp, fd, add);
    if (rc < 0)
        return sb_ctx_fail(st->ctx, -rc, "postmark: append %s: %s", path, strerror(-rc));
    f->size += add;
    st->appends++;
    return 0;
}

/* One transaction, its random draws in PostMark's order: read-or-append choice, then its
 * file; create-or-delete choice, then (for a delete) its file. */
static int pm_transaction(pm_state *st, uint64_t done)
{
    /* An empty pool ends PostMark's run without a report; here it is an error that
     * says what to change. */
    if (st->live == 0)
        return sb_ctx_fail(st->ctx, ENOENT,
                           "postmark: out of files after %llu transactions: raise files or lower transactions",
                           (unsigned long long)done);
    int rc;
    if (sb_pm_rnd(&st->rand, 10) < st->p->bias_read)
        rc = pm_read(st, pm_used_slot(st));
    else
        rc = pm_append(st, pm_used_slot(st));
    if (rc)
        return rc;
    if (sb_pm_rnd(&st->rand, 10) < st->p->bias_create)
        return pm_create(st, true);
    /* The read-or-append above never removes a file, so one is still there. */
    return pm_delete(st, pm_used_slot(st), true);
}

/* The measured times of a run: each phase's exact seconds, the whole seconds time(2) saw
 * pass in the transaction phase (PostMark's divisor), and the transactions' latencies. */
typedef struct pm_times {
    double create, trans, del, total;
    time_t w0, w1;
    sb_histogram hist;
} pm_times;

/* The pool's directories: the base, and PostMark's sub-directories (only for 2 or more,
 * 0700, as it does). */
static int pm_make_dirs(sb_run_ctx *ctx, const pm_state *st, const pm_params *p)
{
    if (mkdir(st->base, 0755) != 0)
        return sb_ctx_fail(ctx, errno, "postmark: mkdir %s: %s", st->base, strerror(errno));
    for (uint64_t d = 0; p->subdirs > 1 && d < p->subdirs; d++) {
        char sub[4200];
        snprintf(sub, sizeof sub, "%s/s%u", st->base, (unsigned)d);
        if (mkdir(sub, 0700) != 0)
            return sb_ctx_fail(ctx, errno, "postmark: mkdir %s: %s", sub, strerror(errno));
    }
    return 0;
}

/* PostMark's three phases: create the pool, run the transactions, delete what is left in
 * table order. Progress: the pool creation counts as 10 %, the transactions as 90 %. */
static int pm_phases(sb_run_ctx *ctx, pm_state *st, const pm_params *p, pm_times *tm)
{
    int rc;
    uint64_t total_start = sb_now_ns();
    if ((rc = pm_make_dirs(ctx, st, p)) != 0)
        return rc;
    uint64_t t0 = sb_now_ns();
    for (uint64_t i = 0; i < p->files; i++) {
        if (sb_ctx_interrupted(ctx))
            return sb_ctx_fail(ctx, EINTR, "postmark: interrupted");
        if ((rc = pm_create(st, false)) != 0)
            return rc;
        if ((i & 63) == 0)
            sb_ctx_progress(ctx, 0.1 * (double)i / (double)p->files);
    }
    tm->create = (double)(sb_now_ns() - t0) / 1e9;

    tm->w0 = time(NULL);
    t0 = sb_now_ns();
    for (uint64_t done_tx = 0; done_tx < p->transactions; done_tx++) {
        if ((done_tx & 255) == 0) {
            if (sb_ctx_interrupted(ctx))
                return sb_ctx_fail(ctx, EINTR, "postmark: interrupted");
            sb_ctx_progress(ctx, 0.1 + 0.9 * (double)done_tx / (double)p->transactions);
        }
        uint64_t s = sb_now_ns();
        if ((rc = pm_transaction(st, done_tx)) != 0)
            return rc;
        sb_hist_record(&tm->hist, sb_now_ns() - s);
    }
    tm->trans = (double)(sb_now_ns() - t0) / 1e9;
    tm->w1 = time(NULL);

    t0 = sb_now_ns();
    for (size_t i = 0; i < st->slots; i++) {
        if (st->table[i].used && (rc = pm_delete(st, &st->table[i], false)) != 0)
            return rc;
    }
    tm->del = (double)(sb_now_ns() - t0) / 1e9;
    tm->total = (double)(sb_now_ns() - total_start) / 1e9;
    return 0;
}

/* Removes what is left of the pool (all of it after a failure): never leave files
 * behind. Returns rc, or the first clean-up error when rc was 0. */
static int pm_cleanup(sb_run_ctx *ctx, pm_state *st, int rc)
{
    char failed[512];
    for (size_t i = 0; i < st->slots; i++) {
        if (st->table[i].used) {
            char path[4200];
            pm_path(st, &st->table[i], path, sizeof path);
            unlink(path);
        }
    }
    int crc = sb_fs_empty_dir(st->base, failed, sizeof failed);
    if (crc < 0 && rc == 0)
        rc = sb_ctx_fail(ctx, crc, "postmark: remove %s: %s", failed, strerror(-crc));
    if (rmdir(st->base) != 0 && errno != ENOENT && rc == 0)
        rc = sb_ctx_fail(ctx, errno, "postmark: rmdir %s: %s", st->base, strerror(errno));
    return rc;
}

/* PostMark's report as figures: TPS (its integer figure), counts and rates. */
static void pm_record(sb_sample *s, const pm_params *p, const pm_state *st, const pm_times *tm)
{
    /* PostMark divides by the whole seconds time(2) saw pass; a phase under one second
     * counts as one so that tiny runs still give a number. */
    double whole = (double)(tm->w1 - tm->w0);
    if (whole < 1)
        whole = 1;
    /* Integer division, as PostMark prints "(%d per second)": the seed's TPS are integers. */
    s->value = floor((double)p->transactions / whole);
    s->valid = true;
    s->seconds = tm->trans;
    uint64_t created = st->created_alone + st->created_mixed;
    uint64_t deleted = st->deleted_alone + st->deleted_mixed;
    sb_sample_add(s, "tps_exact", "TPS", tm->trans > 0 ? (double)p->transactions / tm->trans : 0);
    sb_sample_add(s, "transactions", "ops", (double)p->transactions);
    sb_sample_add(s, "files_created", "files", (double)created);
    sb_sample_add(s, "created_alone", "files", (double)st->created_alone);
    sb_sample_add(s, "created_mixed", "files", (double)st->created_mixed);
    sb_sample_add(s, "files_deleted", "files", (double)deleted);
    sb_sample_add(s, "deleted_alone", "files", (double)st->deleted_alone);
    sb_sample_add(s, "deleted_mixed", "files", (double)st->deleted_mixed);
    sb_sample_add(s, "files_read", "files", (double)st->reads);
    sb_sample_add(s, "files_appended", "files", (double)st->appends);
    /* PostMark's rates: totals over the whole run, "alone" over its own phase, "mixed"
     * over the transaction phase (here with exact seconds rather than whole ones). */
#define PM_RATE(n, t) ((t) > 0 ? (double)(n) / (t) : 0)
    sb_sample_add(s, "create_rate", "files/s", PM_RATE(created, tm->total));
    sb_sample_add(s, "create_alone_rate", "files/s", PM_RATE(st->created_alone, tm->create));
    sb_sample_add(s, "create_mixed_rate", "files/s", PM_RATE(st->created_mixed, tm->trans));
    sb_sample_add(s, "delete_rate", "files/s", PM_RATE(deleted, tm->total));
    sb_sample_add(s, "delete_alone_rate", "files/s", PM_RATE(st->deleted_alone, tm->del));
    sb_sample_add(s, "delete_mixed_rate", "files/s", PM_RATE(st->deleted_mixed, tm->trans));
    sb_sample_add(s, "read_files_rate", "files/s", PM_RATE(st->reads, tm->trans));
    sb_sample_add(s, "append_files_rate", "files/s", PM_RATE(st->appends, tm->trans));
    sb_sample_add(s, "bytes_read", "bytes", (double)st->bytes_read);
    sb_sample_add(s, "bytes_written", "bytes", (double)st->bytes_written);
    sb_sample_add(s, "read_rate", "MB/s", PM_RATE(st->bytes_read, tm->total) / 1e6);
    sb_sample_add(s, "write_rate", "MB/s", PM_RATE(st->bytes_written, tm->total) / 1e6);
#undef PM_RATE
    sb_sample_add(s, "seconds_total", "s", tm->total);
    sb_sample_add_latency(s, "lat", &tm->hist);
}

static int pm_run(sb_run_ctx *ctx, const void *params, sb_sample *samples)
{
    const pm_params *p = params;
    int rc;
    pm_state st = {.ctx = ctx, .p = p};
    snprintf(st.base, sizeof st.base, "%s/postmark", ctx->dir);
    st.slots = (size_t)p->files * 2;
    st.table = calloc(st.slots, sizeof *st.table);
    st.source = malloc((size_t)p->size_max + 1);
    st.read_buf = malloc((size_t)p->read_block);
    if (!st.table || !st.source || !st.read_buf) {
        free(st.table);
        free(st.source);
        free(st.read_buf);
        return sb_ctx_fail(ctx, ENOMEM, "postmark: out of memory");
    }
    /* PostMark fills twice size-max with printable characters from the seeded stream
     * before anything else; no write reaches past size-max, so only that much is kept,
     * but every draw is made so that the choices after it are PostMark's. */
    sb_pm_rand_seed(&st.rand, (uint32_t)p->seed);
    for (uint64_t i = 0; i < 2 * p->size_max; i++) {
        char c = (char)(32 + sb_pm_rnd(&st.rand, 95));
        if (i < p->size_max)
            st.source[i] = c;
    }
    pm_times tm = {0};
    sb_hist_init(&tm.hist);
    rc = pm_cleanup(ctx, &st, pm_phases(ctx, &st, p, &tm));
    free(st.table);
    free(st.source);
    free(st.read_buf);
    if (rc)
        return rc;
    pm_record(&samples[0], p, &st, &tm);
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
    .params_size = sizeof(pm_params),
    .resolve = pm_resolve,
    .space_needed = pm_space_needed,
    .estimate_seconds = pm_estimate,
    .run = pm_run,
};
