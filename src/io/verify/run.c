/*
 * verify_run — verified I/O while a job runs and after it: the per-file block
 * table, the per-thread hooks the engine loop calls around each I/O, the backlog
 * checks, and the read-back of a whole file (verify.h explains the table and why
 * it makes every check exact).
 *
 * Ordering: a thread takes a block's busy bit with an acquire compare-and-swap
 * before it queues the I/O, and releases it with a release store of the new
 * identity after it has seen the completion. The next I/O on that block, on any
 * thread, therefore starts after the previous one completed, and reads the
 * identity it wrote.
 */
#include "io/verify/verify.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/safepath.h"
#include "io/run/worker.h"

#define NOT_CLAIMED UINT64_MAX

/* ------------------------------------------------------------ table */

int sb_verify_table_init(sb_verify_table *t, uint64_t offset, uint64_t nblocks, uint32_t bs,
                         uint64_t known_from)
{
    memset(t, 0, sizeof *t);
    if (nblocks > SB_VERIFY_MAX_BLOCKS)
        return -E2BIG;
    t->first_block_off = offset;
    t->nblocks = nblocks;
    t->w = malloc(nblocks * sizeof *t->w);
    if (!t->w)
        return -ENOMEM;
    for (uint64_t b = 0; b < nblocks; b++)
        atomic_init(&t->w[b], offset + b * bs >= known_from ? 0 : SB_VERIFY_UNKNOWN << 1);
    return 0;
}

void sb_verify_table_free(sb_verify_table *t)
{
    free(t->w);
    free(t->checked);
    t->w = t->checked = NULL;
}

int sb_verify_table_backlog(sb_verify_table *t)
{
    t->checked = calloc((t->nblocks + 63) / 64 + 1, sizeof *t->checked);
    return t->checked ? 0 : -ENOMEM;
}

/* ------------------------------------------------------------ per thread */

int sb_verify_thread_init(sb_verify_thread *v, const sb_verify_fmt *fmt, sb_verify_table *t,
                          const char *path, unsigned job, unsigned njobs, unsigned depth,
                          unsigned backlog, int fd, bool check_unknown)
{
    memset(v, 0, sizeof *v);
    v->fmt = fmt;
    v->table = t;
    v->path = path;
    v->job = job;
    v->njobs = njobs;
    v->fd = fd;
    v->check_unknown = check_unknown;
    v->backlog = backlog;
    v->max_units = 1;
    v->slot_ident = malloc(depth * sizeof *v->slot_ident);
    v->slot_prev = malloc(depth * sizeof *v->slot_prev);
    v->bl_word = malloc(sizeof *v->bl_word);
    if (!v->slot_ident || !v->slot_prev || !v->bl_word)
        return -ENOMEM;
    for (unsigned i = 0; i < depth; i++)
        v->slot_ident[i] = NOT_CLAIMED;
    if (backlog) {
        v->ring = malloc(backlog * sizeof *v->ring);
        if (!(v->bl_clat = malloc(sizeof *v->bl_clat)))
            return -ENOMEM;
        sb_hist_init(v->bl_clat);
        if (!v->ring || posix_memalign(&v->rbuf, 4096, fmt->bs)) {
            v->rbuf = NULL;
            return -ENOMEM;
        }
    }
    return 0;
}

int sb_verify_thread_trim(sb_verify_thread *v, unsigned pct, unsigned backlog, unsigned batch,
                          bool zero, uint64_t seed)
{
    struct stat st;
    v->trim_pct = pct;
    v->trim_backlog = backlog;
    v->trim_batch = batch;
    v->trim_zero = zero;
    v->trim_rand = seed ^ 0x7b1a5eedull;
    v->trim_blkdev = fstat(v->fd, &st) == 0 && S_ISBLK(st.st_mode);
    v->tq_cap = v->table->nblocks; /* each write joins at most once */
    v->tq = malloc(v->tq_cap * sizeof *v->tq);
    return v->tq ? 0 : -ENOMEM;
}

/* With several files: file k in use for a call about an I/O of another file than the
 * one in use now; the one before is given back. */
static inline unsigned use_file(sb_verify_thread *v, unsigned k)
{
    unsigned was = v->cur;
    if (v->files && k != was)
        sb_verify_use(v, k);
    return was;
}

void sb_verify_thread_free(sb_verify_thread *v)
{
    free(v->files);
    free(v->slot_file);
    free(v->bl_word);
    free(v->tq);
    free(v->slot_ident);
    free(v->slot_prev);
    free(v->ring);
    free(v->rbuf);
    free(v->bl_clat);
    free(v->pbuf);
    memset(v, 0, sizeof *v);
}

/* Slot slot's word for its i-th block. */
#define SLOT(v, slot, i) ((size_t)(slot) * (v)->max_units + (i))

bool sb_verify_issue_n(sb_verify_thread *v, unsigned slot, bool write, uint64_t b, unsigned n, void *buf)
{
    uint64_t word;
    const uint32_t bs = v->fmt->bs;
    if (v->files)
        v->slot_file[slot] = v->cur;
    if (!write) {
        for (unsigned i = 0; i < n; i++)
            v->slot_ident[SLOT(v, slot, i)] = sb_verify_claim(v->table, b + i, &word) ? word >> 1 : NOT_CLAIMED;
        return true;
    }
    for (unsigned i = 0; i < n; i++) {
        if (!sb_verify_claim(v->table, b + i, &word)) {
            while (i--) /* the ones taken go back as they were: the write goes elsewhere */
                sb_verify_release(v->table, b + i, v->slot_prev[SLOT(v, slot, i)]);
            v->st.writes_moved++;
            return false;
        }
        v->slot_prev[SLOT(v, slot, i)] = word >> 1;
    }
    uint64_t ident = SB_VERIFY_IDENT(++v->seq, v->job);
    uint64_t off = v->table->first_block_off + b * bs;
    for (unsigned i = 0; i < n; i++) {
        v->slot_ident[SLOT(v, slot, i)] = ident;
        sb_verify_format(v->fmt, (char *)buf + (size_t)i * bs, off + (uint64_t)i * bs, v->job, v->seq);
    }
    return true;
}

bool sb_verify_issue(sb_verify_thread *v, unsigned slot, bool write, uint64_t b, void *buf)
{
    return sb_verify_issue_n(v, slot, write, b, 1, buf);
}

void sb_verify_cancel_n(sb_verify_thread *v, unsigned slot, bool write, uint64_t b, unsigned n)
{
    unsigned was = use_file(v, v->files ? v->slot_file[slot] : 0);
    for (unsigned i = 0; i < n; i++) {
        uint64_t ident = v->slot_ident[SLOT(v, slot, i)];
        v->slot_ident[SLOT(v, slot, i)] = NOT_CLAIMED;
        if (ident != NOT_CLAIMED)
            sb_verify_release(v->table, b + i, write ? v->slot_prev[SLOT(v, slot, i)] : ident);
    }
    use_file(v, was);
}

void sb_verify_cancel(sb_verify_thread *v, unsigned slot, bool write, uint64_t b)
{
    sb_verify_cancel_n(v, slot, write, b, 1);
}

/* fio's verify_dump: the block as read and as the identity expected says it should be, to
 * BASENAME.OFFSET.received and .expected in the working directory or --aux-path's (new files only: one
 * that exists is left alone). A line on stderr names them. */
static void dump_block(const sb_verify_fmt *f, const char *path, const void *buf, uint64_t off,
                       uint64_t ident)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    void *want = NULL;
    const sb_verify_hdr *h = buf;
    if (ident == SB_VERIFY_UNKNOWN && h->magic == SB_VERIFY_MAGIC) /* any write: the header's */
        ident = SB_VERIFY_IDENT(h->seq, h->job);
    if (ident == SB_VERIFY_TRIMMED && !posix_memalign(&want, 4096, f->bs))
        memset(want, 0, f->bs); /* a trimmed block: zeros */
    else if (ident != SB_VERIFY_UNKNOWN && !posix_memalign(&want, 4096, f->bs))
        sb_verify_format(f, want, off, SB_VERIFY_IDENT_JOB(ident), SB_VERIFY_IDENT_SEQ(ident));
    const void *what[2] = {buf, want};
    const char *const kind[2] = {"received", "expected"};
    for (int i = 0; i < 2 && what[i]; i++) {
        char name[PATH_MAX];
        bool in_dir = f->dump_dir && f->dump_dir[0];
        snprintf(name, sizeof name, "%s%s%s.%" PRIu64 ".%s", in_dir ? f->dump_dir : "", in_dir ? "/" : "",
                 base, off, kind[i]);
        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        bool ok = fd >= 0 && write(fd, what[i], f->bs) == (ssize_t)f->bs;
        if (fd >= 0)
            close(fd);
        fprintf(stderr, "storbench: io: verify_dump: %s %s%s\n", ok ? "wrote" : "could not write",
                name, ok ? "" : " (it exists, or the directory is not writable)");
    }
    free(want);
}

/* A trimmed block reads as zeros (trim_verify_zero): 0, or -EILSEQ naming the first other byte. */
static int check_zeros(const uint8_t *buf, uint32_t bs, uint64_t off, char *why, size_t len)
{
    for (uint32_t i = 0; i < bs; i++)
        if (buf[i]) {
            snprintf(why, len, "offset %" PRIu64 ": trimmed: byte %u of the block: expected 0, found "
                     "%#04x (trim_verify_zero)", off, i, buf[i]);
            return -EILSEQ;
        }
    return 0;
}

/* Checks one block read from off against the identity the table expects. */
static int check_block(const sb_verify_fmt *f, void *buf, uint64_t off, uint64_t expect,
                       unsigned njobs, sb_verify_stats *st, char *why, size_t len)
{
    if (expect == SB_VERIFY_TRIMMED) {
        int r = check_zeros(buf, f->bs, off, why, len);
        st->trimmed_checked += r == 0;
        return r;
    }
    return sb_verify_check(f, buf, off, expect, njobs, why, len);
}

/* Checks one block read into buf against the identity the table expects. */
int sb_verify_check_one(sb_verify_thread *v, void *buf, uint64_t b, uint64_t expect)
{
    uint64_t off = v->table->first_block_off + b * v->fmt->bs;
    if (expect == SB_VERIFY_UNKNOWN && !v->check_unknown) {
        v->st.reads_unchecked++;
        return 0;
    }
    char why[192];
    if (check_block(v->fmt, buf, off, expect, v->njobs, &v->st, why, sizeof why) < 0) {
        if (v->fmt->survive)
            fprintf(stderr, "storbench: io: verify error (continue_on_error): %s: %s\n", v->path, why);
        if (!v->st.errors++) {
            v->st.first_bad_offset = off;
            snprintf(v->msg, sizeof v->msg, "%s: %s", v->path, why);
            if (v->fmt->dump)
                dump_block(v->fmt, v->path, buf, off, expect);
        }
        return -EILSEQ;
    }
    v->st.blocks_checked++;
    v->st.bytes_checked += v->fmt->bs;
    return 0;
}

/* verify_backlog: checks the oldest waiting I/Os' blocks while a batch runs. A block that
 * another I/O holds right now is left to the final read-back. */
static int run_backlog(sb_verify_thread *v)
{
    int r = 0;
    uint32_t bs = v->fmt->bs;
    while (v->pending && v->nring && !r) {
        uint64_t e = v->ring[v->rhead], b = e & UINT32_MAX;
        unsigned n = (unsigned)(e >> 32 & 0x1fff), got = 0, was = use_file(v, (unsigned)(e >> 45));
        v->rhead = (v->rhead + 1) % v->backlog;
        v->nring--;
        v->pending--;
        for (unsigned i = 0; i < n; i++)
            if (sb_verify_claim(v->table, b + i, &v->bl_word[i]))
                got++;
            else
                v->bl_word[i] = NOT_CLAIMED;
        if (!got) {
            use_file(v, was);
            continue;
        }
        uint64_t off = v->table->first_block_off + b * bs, t0 = sb_now_ns();
        ssize_t k = pread(v->fd, v->rbuf, (size_t)n * bs, (off_t)off);
        if (k == (ssize_t)n * bs) { /* one of the job's reads, as fio's (verify.h) */
            sb_hist_record(v->bl_clat, sb_now_ns() - t0);
            v->bl_ios++;
            v->bl_bytes += (uint64_t)k;
        } else {
            int en = k < 0 ? errno : EIO;
            snprintf(v->msg, sizeof v->msg, "%s: verify_backlog read at offset %" PRIu64 ": %s", v->path,
                     off, k < 0 ? strerror(en) : "short read");
            r = -en;
        }
        for (unsigned i = 0; i < n; i++) {
            if (v->bl_word[i] == NOT_CLAIMED)
                continue;
            if (r == 0)
                r = sb_verify_check_one(v, (char *)v->rbuf + (size_t)i * bs, b + i, v->bl_word[i] >> 1);
            sb_verify_mark_checked(v->table, b + i, r == 0); /* the read-back leaves it (fio's history) */
            sb_verify_release(v->table, b + i, v->bl_word[i] >> 1);
        }
        use_file(v, was);
    }
    return r;
}

/* A written I/O (n blocks from b) joins the waiting ones; a batch starts when they are a
 * multiple of backlog (fio's), and the running one goes on. */
static int backlog_written(sb_verify_thread *v, uint64_t b, unsigned n)
{
    v->ring[(v->rhead + v->nring++) % v->backlog] = (uint64_t)v->cur << 45 | (uint64_t)n << 32 | b;
    if (!v->pending && v->nring % v->backlog == 0)
        v->pending = v->batch ? v->batch : v->backlog;
    return v->pending ? run_backlog(v) : 0;
}

/* splitmix64: the trim queue's draw, cheap and the thread's own */
static uint64_t trim_draw(sb_verify_thread *v)
{
    uint64_t z = (v->trim_rand += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Trims the oldest queued blocks while a batch runs; a block another I/O holds now is
 * left as it is. The table then expects zeros there, or nothing (trim_verify_zero=0). */
static int run_trims(sb_verify_thread *v)
{
    uint32_t bs = v->fmt->bs;
    while (v->trim_pending && v->tq_n) {
        uint64_t b = v->tq[v->tq_head], word;
        v->tq_head = (v->tq_head + 1) % v->tq_cap;
        v->tq_n--;
        v->trim_pending--;
        if (!sb_verify_claim(v->table, b, &word))
            continue;
        uint64_t off = v->table->first_block_off + b * bs;
        int64_t r = sb_io_trim(v->fd, v->trim_blkdev, off, bs);
        if (r < 0) {
            sb_verify_release(v->table, b, SB_VERIFY_UNKNOWN);
            snprintf(v->msg, sizeof v->msg, "%s: trim_percentage: trim at offset %" PRIu64 ": %s",
                     v->path, off, strerror((int)-r));
            return (int)r;
        }
        v->st.blocks_trimmed++;
        sb_verify_release(v->table, b, v->trim_zero ? SB_VERIFY_TRIMMED : SB_VERIFY_UNKNOWN);
    }
    return 0;
}

/* A written block: queued for a trim with trim_pct % chance; a batch starts whenever the
 * blocks written are a multiple of trim_backlog (fio's). */
static int trim_written(sb_verify_thread *v, uint64_t b)
{
    if (trim_draw(v) % 100 < v->trim_pct && v->tq_n < v->tq_cap)
        v->tq[(v->tq_head + v->tq_n++) % v->tq_cap] = b;
    if (!v->trim_backlog)
        return 0;
    if (++v->written % v->trim_backlog == 0 && !v->trim_pending)
        v->trim_pending = v->trim_batch ? v->trim_batch : v->trim_backlog;
    return v->trim_pending ? run_trims(v) : 0;
}

static int complete_n(sb_verify_thread *v, unsigned slot, bool write, uint64_t b, unsigned n, void *buf,
                      int64_t result)
{
    const uint32_t bs = v->fmt->bs;
    bool ok = result == (int64_t)n * bs;
    if (write) {
        uint64_t ident = v->slot_ident[SLOT(v, slot, 0)];
        for (unsigned i = 0; i < n; i++) { /* a failed or short write leaves its blocks unknown */
            v->slot_ident[SLOT(v, slot, i)] = NOT_CLAIMED;
            sb_verify_mark_checked(v->table, b + i, false); /* a new write: to check again */
            sb_verify_release(v->table, b + i, ok ? ident : SB_VERIFY_UNKNOWN);
        }
        int r = ok && v->trim_pct ? trim_written(v, b) : 0; /* trims: one size only (check) */
        return r == 0 && ok && v->backlog ? backlog_written(v, b, n) : r;
    }
    int r = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t ident = v->slot_ident[SLOT(v, slot, i)];
        v->slot_ident[SLOT(v, slot, i)] = NOT_CLAIMED;
        if (ident == NOT_CLAIMED) {
            v->st.reads_unchecked++;
            continue;
        }
        /* buf is ours now: give the block back first, then check the copy */
        sb_verify_release(v->table, b + i, ident);
        if (ok && r == 0)
            r = sb_verify_check_one(v, (char *)buf + (size_t)i * bs, b + i, ident);
    }
    return r;
}

int sb_verify_complete_n(sb_verify_thread *v, unsigned slot, bool write, uint64_t b, unsigned n, void *buf,
                         int64_t result)
{
    unsigned was = use_file(v, v->files ? v->slot_file[slot] : 0); /* the I/O's file, its table */
    int r = complete_n(v, slot, write, b, n, buf, result);
    use_file(v, was);
    return r;
}

int sb_verify_complete(sb_verify_thread *v, unsigned slot, bool write, uint64_t b, void *buf,
                       int64_t result)
{
    return sb_verify_complete_n(v, slot, write, b, 1, buf, result);
}

void sb_verify_stats_merge(sb_verify_stats *into, const sb_verify_stats *from)
{
    if (from->errors && (!into->errors || from->first_bad_offset < into->first_bad_offset))
        into->first_bad_offset = from->first_bad_offset;
    into->blocks_checked += from->blocks_checked;
    into->bytes_checked += from->bytes_checked;
    into->errors += from->errors;
    into->writes_moved += from->writes_moved;
    into->reads_unchecked += from->reads_unchecked;
    into->blocks_trimmed += from->blocks_trimmed;
    into->trimmed_checked += from->trimmed_checked;
}

/* ------------------------------------------------------------ read-back */

/* Whether block b is one to read back: written in this run (table), or any (verify_only). */
static inline bool wanted(const sb_verify_table *t, uint64_t b, uint64_t *ident)
{
    if (!t) {
        *ident = SB_VERIFY_UNKNOWN;
        return true;
    }
    *ident = atomic_load_explicit(&t->w[b], memory_order_acquire) >> 1;
    if (t->checked && atomic_load_explicit(&t->checked[b / 64], memory_order_relaxed) >> (b % 64) & 1)
        return false; /* a backlog check read its last write (fio's history let it go) */
    return *ident != 0 && *ident != SB_VERIFY_UNKNOWN;
}

/* A read of the read-back (got bytes, lat its latency, ns with its checks) counted to the
 * thread whose write it read (ident's job), or to rd's owner when no write of this run is
 * known there (verify_only, a trimmed block). */
static void count_thread(sb_verify_reads *rd, uint64_t ident, size_t got, uint64_t lat, uint64_t ns)
{
    unsigned j = ident < SB_VERIFY_TRIMMED ? SB_VERIFY_IDENT_JOB(ident) : rd->owner;
    sb_verify_thread_reads *tr = &rd->threads[j < rd->nthreads ? j : rd->owner];
    tr->ios++;
    tr->bytes += got;
    tr->read_ns += ns;
    sb_hist_record(&tr->clat, lat);
}

int sb_verify_file(const sb_verify_fmt *f, const sb_verify_table *t, int fd, const char *path,
                   uint64_t offset, uint64_t nblocks, unsigned njobs, bool (*stop)(void *),
                   void *stop_arg, sb_verify_stats *st, sb_verify_reads *rd, char *msg, size_t msglen)
{
    const uint32_t bs = f->bs;
    const uint64_t per_chunk = rd ? (rd->unit > bs ? rd->unit / bs : 1) : bs >= (1u << 20) ? 1 : (1u << 20) / bs;
    void *buf;
    if (posix_memalign(&buf, 4096, per_chunk * bs))
        return -ENOMEM;
    int r = 0;
    bool bad = false;
    const bool by_write = rd && t; /* a read per write, as fio's verify reads each logged write */
    uint64_t ident, first;
    for (uint64_t b = 0; b < nblocks && !r;) {
        if (!wanted(t, b, &first)) {
            b++;
            continue;
        }
        if (stop && stop(stop_arg)) {
            r = -EINTR;
            break;
        }
        /* one read for the run of wanted blocks that starts here */
        uint64_t n = 1;
        while (n < per_chunk && b + n < nblocks && wanted(t, b + n, &ident) && (!by_write || ident == first))
            n++;
        uint64_t off = offset + b * bs;
        size_t want = (size_t)(n * bs), got = 0;
        uint64_t t0 = rd ? sb_now_ns() : 0;
        while (got < want) {
            ssize_t k = pread(fd, (char *)buf + got, want - got, (off_t)(off + got));
            if (k < 0 && errno == EINTR && !(stop && stop(stop_arg)))
                continue;
            if (k <= 0) {
                int e = k < 0 ? errno : EIO;
                snprintf(msg, msglen, "%s: reading back at offset %" PRIu64 ": %s", path, off + got,
                         k < 0 ? strerror(e) : "end of file");
                r = -e;
                break;
            }
            got += (size_t)k;
        }
        uint64_t lat = rd ? sb_now_ns() - t0 : 0;
        if (rd && !r) { /* one of the job's reads, as fio counts it */
            sb_hist_record(rd->clat, lat);
            rd->ios++;
            rd->bytes += got;
        }
        for (uint64_t i = 0; i < n && !r; i++) {
            char why[256];
            wanted(t, b + i, &ident);
            uint64_t boff = off + i * bs;
            if (check_block(f, (char *)buf + i * bs, boff, ident, njobs, st, why, sizeof why) < 0) {
                if (f->survive)
                    fprintf(stderr, "storbench: io: verify error (continue_on_error): %s: %s\n", path, why);
                if (!st->errors++) { /* the first names the failure */
                    st->first_bad_offset = boff;
                    snprintf(msg, msglen, "%s: %s", path, why);
                }
                if (f->dump)
                    dump_block(f, path, (char *)buf + i * bs, boff, ident);
                bad = true;
                if (!f->go_on)
                    r = -EILSEQ;
            } else {
                st->blocks_checked++;
                st->bytes_checked += bs;
            }
        }
        if (rd && rd->threads && got == want)
            count_thread(rd, first, got, lat, sb_now_ns() - t0);
        b += n;
    }
    free(buf);
    return r == 0 && bad ? -EILSEQ : r;
}

/* ------------------------------------------------------------ the job's side */

int sb_io_verify_check(const sb_io_job *job, unsigned depth, char *err, size_t errlen)
{
    if (job->experimental_verify) {
        snprintf(err, errlen, "experimental_verify=1 (fio's replay of the writes to check them) is not "
                 "storbench's: its block table records each block's last write, so there is nothing "
                 "to replay; leave it 0");
        return -EINVAL;
    }
    if (job->verify_state_load && !job->verify) {
        snprintf(err, errlen, "verify_state_load needs --verify (it says which blocks to check)");
        return -EINVAL;
    }
    if (job->verify_state_load && sb_rw_writes(job->rw) && !job->verify_only) {
        snprintf(err, errlen, "verify_state_load is for a check: verify_only or a read job");
        return -EINVAL;
    }
    if (job->trim_percentage || job->trim_backlog || job->trim_backlog_batch) {
        const char *why = !job->verify ? "trims verified blocks: it needs --verify"
                          : !job->trim_percentage ? "needs trim_percentage (which written blocks to trim)"
                          : !job->trim_backlog ? "needs trim_backlog (when to trim, as fio's)"
                          : !sb_rw_writes(job->rw) || job->verify_only ? "trims written blocks: it needs "
                            "a write job" : NULL;
        if (why) {
            snprintf(err, errlen, "%s %s", job->trim_percentage ? "trim_percentage" : job->trim_backlog ?
                     "trim_backlog" : "trim_backlog_batch", why);
            return -EINVAL;
        }
    }
    if (!job->verify) {
        if (job->verify_only || job->verify_backlog || job->verify_backlog_batch) {
            snprintf(err, errlen, "%s needs --verify", job->verify_only ? "verify_only" :
                     job->verify_backlog ? "verify_backlog" : "verify_backlog_batch");
            return -EINVAL;
        }
        return 0;
    }
    const uint64_t unit = sb_io_verify_unit(job);
    const bool var = sb_io_job_max_bs(job) > unit;
    if (var && sb_io_verify_check_units(job, depth, err, errlen) < 0)
        return -EINVAL;
    uint64_t piece = job->verify_interval ? job->verify_interval : unit;
    if (job->verify_offset && (job->verify_offset < SB_VERIFY_HDR_LEN ||
                               job->verify_offset + SB_VERIFY_HDR_LEN > piece)) {
        snprintf(err, errlen, "verify_offset %" PRIu64 ": the header (%u bytes) moves to a place of "
                 "its own in the block: %u .. %" PRIu64, job->verify_offset, SB_VERIFY_HDR_LEN,
                 SB_VERIFY_HDR_LEN, piece - SB_VERIFY_HDR_LEN);
        return -EINVAL;
    }
    if (job->verify_backlog_batch && !job->verify_backlog) {
        snprintf(err, errlen, "verify_backlog_batch needs verify_backlog (the blocks between batches)");
        return -EINVAL;
    }
    uint64_t nblocks = job->size / unit;
    if (nblocks > SB_VERIFY_MAX_BLOCKS) {
        snprintf(err, errlen, "verify keeps 8 bytes per block: %" PRIu64 " blocks is more than %llu "
                 "(use a larger bs or a smaller size)", nblocks, SB_VERIFY_MAX_BLOCKS);
        return -EINVAL;
    }
    if (job->verify_only && job->directory[0]) {
        snprintf(err, errlen, "verify_only needs a --filename (files made in a directory are removed "
                 "after their run)");
        return -EINVAL;
    }
    /* Writes never share a block. A write is drawn when its slot is free, so at most
     * in flight - 1 others hold blocks then: as many blocks as I/Os in flight let it always
     * find a free one (fio runs 16 blocks at iodepth 16); with sizes of up to K blocks,
     * room for a write of K between K-block I/Os in flight: (2 x in flight + 1) x K */
    uint64_t in_flight = (uint64_t)depth * (job->filename[0] ? job->numjobs : 1);
    uint64_t k = sb_io_job_max_bs(job) / unit, need = var ? (2 * in_flight + 1) * k + 1 : in_flight;
    if (sb_rw_writes(job->rw) && !job->verify_only && nblocks < need) {
        snprintf(err, errlen, "verify needs at least as many blocks (%" PRIu64 ") as I/Os in flight on "
                 "a file (%" PRIu64 ")%s", nblocks, in_flight, var ? " could hold, with the largest size" : "");
        return -EINVAL;
    }
    return 0;
}

/* continue_on_error=verify and EILSEQ in ignore_error's verify list (the default list,
 * EIO:EILSEQ, when none was given): a mismatch is survived, as fio's. */
static bool verify_survives(const sb_io_job *job)
{
    if (!(job->continue_on_error & 4u))
        return false;
    if (!job->n_ignore_error[2])
        return true;
    for (unsigned i = 0; i < job->n_ignore_error[2]; i++)
        if (job->ignore_error[2][i] == EILSEQ)
            return true;
    return false;
}

int sb_io_verify_fmt_init(sb_verify_fmt *fmt, const sb_io_job *job, uint32_t bs)
{
    int r = sb_verify_fmt_init(fmt, job->verify, bs, job->seed);
    fmt->interval = (uint32_t)job->verify_interval; /* fio's verify_interval, verify_pattern */
    fmt->dump = job->verify_dump;
    fmt->hdr_off = (uint32_t)job->verify_offset;
    fmt->dump_dir = job->aux_path;
    fmt->survive = verify_survives(job);
    fmt->go_on = fmt->survive && !job->verify_fatal;
    if (r == 0 && job->verify_pat_len)
        r = sb_verify_fmt_pattern(fmt, job->verify_pat, job->verify_pat_len);
    if (r == 0 && job->verify_pat_len) {
        memcpy(fmt->pat_o, job->verify_pat_o, sizeof fmt->pat_o);
        fmt->pat_no = job->verify_pat_no;
    }
    return r;
}

/* When the thread's verify phases run (verify.h, SB_VPHASE_*), as fio's thread_main calls
 * do_verify: after each loop of a job that writes, but the last (the read-back after the
 * job is that one); time based, after each size bytes issued, but only where fio's write
 * phase ends there: on an asynchronous engine, whose queued bytes fio counts (a synchronous
 * engine's completed ones it does not, nor offload's, so there it writes until the runtime
 * is spent and never verifies). With io_size the loops end by bytes: no phases. */
static unsigned phase_kind(const worker *w, const sb_io_job *job)
{
    bool queued = !w->td.ops->sync && !job->submit_offload && !(w->td.ops->caps & SB_ENGINE_FILE_OPS);
    if (!job->do_verify || job->verify_only || !sb_rw_writes(job->rw) || w->iolog_next)
        return SB_VPHASE_NONE;
    if (job->time_based)
        return queued ? SB_VPHASE_SIZE : SB_VPHASE_NONE;
    return job->loops > 1 && !job->io_size && !job->submit_offload ? SB_VPHASE_LOOP : SB_VPHASE_NONE;
}

/* A thread's verify phases set up: the bytes of a write phase (fio's do_io: size, at least
 * io_size for random writes without the map, and size more with verify_backlog), the
 * buffer and timing of its reads, and the tables' bits of the blocks read. -ENOMEM. */
static int phase_setup(worker *w, const sb_io_job *job, unsigned units)
{
    sb_verify_thread *v = w->vt;
    unsigned nf = w->fs ? w->fs->n : 1;
    if (!(v->phase = phase_kind(w, job)))
        return 0;
    if (v->phase == SB_VPHASE_SIZE) {
        uint64_t total = job->size * nf;
        if (sb_rw_is_random(job->rw) && job->norandommap && job->io_size > total)
            total = job->io_size;
        w->vphase_bytes = total + (job->verify_backlog ? job->size * nf : 0);
    }
    if (posix_memalign(&v->pbuf, 4096, (size_t)units * v->fmt->bs)) {
        v->pbuf = NULL;
        return -ENOMEM;
    }
    if (!v->bl_clat) { /* (verify_backlog made it already) */
        if (!(v->bl_clat = malloc(sizeof *v->bl_clat)))
            return -ENOMEM;
        sb_hist_init(v->bl_clat);
    }
    for (unsigned k = 0; k < nf; k++) { /* tables shared by threads: made once, before they start */
        sb_verify_table *t = v->files ? v->files[k].table : v->table;
        if (!t->checked && sb_verify_table_backlog(t) < 0)
            return -ENOMEM;
    }
    return 0;
}

int sb_io_verify_setup(const sb_io_job *job, sb_verify_fmt *fmt, file_ctx *files, unsigned nfiles,
                       worker **ws, char *err, size_t errlen)
{
    if (!job->verify)
        return 0;
    const uint64_t unit = sb_io_verify_unit(job);
    const unsigned units = (unsigned)(sb_io_job_max_bs(job) / unit);
    uint64_t nblocks = job->size / unit;
    int r = sb_io_verify_fmt_init(fmt, job, (uint32_t)unit);
    for (unsigned i = 0; i < nfiles && r == 0; i++) {
        r = sb_verify_table_init(&files[i].vtab, job->offset, nblocks, (uint32_t)unit, files[i].known_from);
        if (r == 0 && job->verify_backlog && job->do_verify) /* the blocks its checks read */
            r = sb_verify_table_backlog(&files[i].vtab);
    }
    if (r == 0 && job->verify_state_load) /* what an earlier run's writes left, block by block */
        for (unsigned i = 0; i < nfiles; i++) {
            char path[PATH_MAX + 128];
            sb_verify_state_path(path, sizeof path, job->aux_path, job->name, i);
            if ((r = sb_verify_state_load(fmt, &files[i].vtab, job->numjobs, path, err, errlen)) < 0)
                return r;
        }
    for (unsigned i = 0; i < job->numjobs && r == 0; i++) {
        worker *w = ws[i];
        file_ctx *f = &files[nfiles == 1 ? 0 : w->op_map[i * (w->fs ? w->fs->n : 1)]];
        if (!(w->vt = calloc(1, sizeof *w->vt)))
            r = -ENOMEM;
        else
            r = sb_verify_thread_init(w->vt, fmt, &f->vtab, f->path, i, job->numjobs, w->td.iodepth,
                                      job->do_verify ? job->verify_backlog : 0, w->fd,
                                      !sb_rw_writes(job->rw) && !job->verify_state_load);
        if (r == 0 && units > 1) /* bsrange, bssplit: an I/O covers several blocks */
            r = sb_verify_thread_units(w->vt, units, w->td.iodepth);
        if (r == 0 && w->fs) /* several files: each its own table */
            r = sb_io_verify_thread_files(w, files);
        if (r == 0)
            w->vt->batch = job->verify_backlog_batch;
        if (r == 0 && job->trim_percentage)
            r = sb_verify_thread_trim(w->vt, job->trim_percentage, job->trim_backlog,
                                      job->trim_backlog_batch, job->trim_verify_zero, job->seed + i);
        if (r == 0)
            r = phase_setup(w, job, units);
    }
    if (r < 0)
        snprintf(err, errlen, "verify: cannot allocate its block table (%" PRIu64 " blocks): %s",
                 nblocks, strerror(-r));
    return r;
}

void sb_io_verify_free(sb_verify_fmt *fmt, file_ctx *files, unsigned nfiles, worker **ws, unsigned n)
{
    for (unsigned i = 0; ws && i < n; i++)
        if (ws[i] && ws[i]->vt) {
            sb_verify_thread_free(ws[i]->vt);
            free(ws[i]->vt);
            ws[i]->vt = NULL;
        }
    for (unsigned i = 0; files && i < nfiles; i++)
        sb_verify_table_free(&files[i].vtab);
    sb_verify_fmt_free(fmt);
}
