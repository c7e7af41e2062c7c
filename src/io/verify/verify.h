/*
 * verify — verified I/O (fio's verify=, do_verify, verify_backlog, verify_only):
 * every block a verifying job writes starts with a header (magic, offset, length,
 * the writer's job, sequence number, seed, time, a CRC of the header, and a
 * checksum over header and data), and the rest of the block is incompressible data
 * derived from the seed. A block read back is checked field by field against what
 * the job knows it last wrote there; the first difference becomes one line naming
 * the file, the offset and the field (expected vs found).
 *
 * No false alarms by construction. Each file has a table with one word per block:
 * the identity (job, sequence) of the last write to it that completed, and a busy
 * bit. An I/O must take the busy bit before it is queued and gives it back when
 * its completion is seen. So no block ever has two writes, or a write and a
 * checked read, in flight at once — the cases in which what a device holds is
 * legitimately either write, or a mixture (QD > 1 with norandommap, randrw,
 * several jobs on one file) — and the table always names the one write whose
 * content the block must hold. A write whose block is busy takes the next block
 * of its sequence instead; a read whose block is busy goes ahead unchecked.
 */
#ifndef SB_IO_VERIFY_H
#define SB_IO_VERIFY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/histogram.h"

typedef enum sb_verify_algo {
    SB_VERIFY_NONE = 0,
    SB_VERIFY_CRC32C,   /* ISA-L's crc32_iscsi (SSE4.2 / PCLMUL where the CPU has them) */
    SB_VERIFY_XXHASH,   /* XXH3 64-bit (libxxhash) */
    SB_VERIFY_SHA256,   /* OpenSSL's libcrypto (SHA extensions where the CPU has them) */
    SB_VERIFY_PATTERN,  /* no checksum: the data is regenerated from the seed and compared */
    /* fio's other algorithms (verify_algos.c): ISA-L's CRCs, OpenSSL's digests (those
     * longer than the header's 32 bytes kept to their first 32), and meta, fio's
     * header-only check (offset, length, job, sequence, seed, time; the data checked only
     * against verify_pattern, when one is set, as fio's). */
    SB_VERIFY_CRC64,    /* ISA-L's crc64_ecma_refl */
    SB_VERIFY_CRC32,    /* ISA-L's crc32_gzip_refl: zlib's CRC-32 */
    SB_VERIFY_CRC16,    /* ISA-L's crc16_t10dif */
    SB_VERIFY_CRC7,     /* CRC-7 (x^7 + x^3 + 1, as MMC's) */
    SB_VERIFY_MD5,
    SB_VERIFY_SHA1,
    SB_VERIFY_SHA224,
    SB_VERIFY_SHA384,
    SB_VERIFY_SHA512,
    SB_VERIFY_SHA3_224,
    SB_VERIFY_SHA3_256,
    SB_VERIFY_SHA3_384,
    SB_VERIFY_SHA3_512,
    SB_VERIFY_META,
    SB_VERIFY_N,
} sb_verify_algo;

/* verify_algos.c: the names of the algorithms (fio's), a checksum's length in the header
 * (0: none) and the checksum of len bytes into out[32] (zero beyond the length). */
extern const char *const sb_verify_algo_names[SB_VERIFY_N];
unsigned sb_verify_csum_len(sb_verify_algo a);
void sb_verify_csum(sb_verify_algo a, const void *buf, uint32_t len, uint8_t out[32]);

/* "crc32c" -> SB_VERIFY_CRC32C ("0"/"none" -> NONE); -EINVAL when unknown. */
int sb_verify_algo_parse(const char *s, sb_verify_algo *out);
const char *sb_verify_algo_name(sb_verify_algo a);

/* What a job checked; merged over threads into sb_io_result.verify. */
typedef struct sb_verify_stats {
    uint64_t blocks_checked;   /* blocks read back and found intact */
    uint64_t bytes_checked;
    uint64_t errors;           /* mismatches (the job stops at the first) */
    uint64_t first_bad_offset; /* valid when errors > 0 */
    uint64_t writes_moved;     /* writes that took the next block: theirs was busy */
    uint64_t reads_unchecked;  /* reads of a busy or unknown block, not checked */
    uint64_t blocks_trimmed;   /* trim_percentage: written blocks trimmed while running */
    uint64_t trimmed_checked;  /* ... and read back as zeros (trim_verify_zero) */
} sb_verify_stats;

/* Header layout (little-endian, at the start of every block). */
#define SB_VERIFY_MAGIC 0x31564253u   /* "SBV1" */
#define SB_VERIFY_HDR_LEN 96u
#define SB_VERIFY_MAX_BLOCKS (1ull << 28)  /* the table: 8 bytes a block, 2 GiB at most */

typedef struct sb_verify_hdr {
    uint32_t magic;
    uint8_t algo;
    uint8_t version;
    uint16_t hdr_len;
    uint32_t len;              /* block length */
    uint32_t job;              /* writing job's index */
    uint64_t offset;           /* byte offset in the file */
    uint64_t seed;             /* of the data; derived from the job seed, offset and sequence */
    uint64_t seq;              /* the writing job's sequence number (1, 2, ...; 0 = layout) */
    uint64_t time_ns;          /* CLOCK_REALTIME when the block was written */
    uint32_t hdr_crc;          /* CRC32C of the bytes before it */
    uint32_t reserved;
    uint8_t csum[32];          /* over the whole block with this field zeroed */
    uint8_t pad[8];
} sb_verify_hdr;

/* A write's identity in the table: (seq << 16) | job; job < 65536 (SB_IO_MAX_VERIFY_JOBS, as
 * fio's header keeps its thread number in 16 bits). */
#define SB_VERIFY_IDENT(seq, job) (((uint64_t)(seq) << 16) | (uint64_t)(job))
#define SB_VERIFY_IDENT_SEQ(id) ((uint64_t)(id) >> 16)
#define SB_VERIFY_IDENT_JOB(id) ((unsigned)((id) & 0xffffu))
/* What a block's data seed is drawn from: (seq << 8) ^ job, the identity of the 8-bit
 * layout before, so that blocks written by an earlier storbench still verify. */
#define SB_VERIFY_SEED_ID(seq, job) (((uint64_t)(seq) << 8) ^ (uint64_t)(job))
#define SB_VERIFY_UNKNOWN (UINT64_MAX >> 1)  /* content this run did not write */
#define SB_VERIFY_TRIMMED (SB_VERIFY_UNKNOWN - 1) /* trimmed by trim_percentage: reads as zeros */

#define SB_VERIFY_PAT_MAX_O 8 /* verify_pattern's %o, at most (fio's) */

/* The format of one job: algorithm, job seed, and the shared data base. */
typedef struct sb_verify_fmt {
    sb_verify_algo algo;
    uint32_t bs;
    uint64_t job_seed;
    uint64_t *base;            /* SB_VERIFY_BASE_WORDS random words from the job seed */
    /* fio's verify_interval: a header every interval bytes of a block (0: one per block);
     * each piece is formatted and checked as a block of its own, at its own offset */
    uint32_t interval;
    /* fio's verify_pattern: the data is these bytes over and over from the block's start
     * (under the header), instead of the seed's; pat[i % pat_words] is word i */
    uint64_t *pat;
    uint32_t pat_words;
    /* ... and where its %o are (fio's): each copy of the pattern carries the offset of the
     * block (the I/O's, little-endian) in the 8 bytes at each pat_o[i] */
    uint16_t pat_o[SB_VERIFY_PAT_MAX_O];
    uint32_t pat_len;          /* the pattern's bytes (pat holds 8 copies) */
    unsigned pat_no;
    /* fio's verify_offset: the header is swapped with the bytes this far into each piece
     * before the write and swapped back before the check (0: at the start) */
    uint32_t hdr_off;
    bool dump;                 /* fio's verify_dump: a mismatching block goes to files */
    const char *dump_dir;      /* ... in this directory (fio's --aux-path); NULL or "": cwd */
    /* continue_on_error=verify (EILSEQ listed in ignore_error's verify list): a mismatch is
     * counted among the job's errors instead of failing it, each printed on stderr; with
     * verify_fatal=0 the checks also go on after it (go_on), else the job ends there */
    bool survive;
    bool go_on;
} sb_verify_fmt;

/* verify_pattern's bytes (1 .. 512 of them) into f (after sb_verify_fmt_init). -ENOMEM. */
int sb_verify_fmt_pattern(sb_verify_fmt *f, const uint8_t *bytes, unsigned len);

int sb_verify_fmt_init(sb_verify_fmt *f, sb_verify_algo algo, uint32_t bs, uint64_t job_seed);
void sb_verify_fmt_free(sb_verify_fmt *f);

/* Writes a whole block at buf (32-byte aligned, as every I/O buffer is): header for
 * (offset, job, seq) and its data. */
void sb_verify_format(const sb_verify_fmt *f, void *buf, uint64_t offset, uint32_t job, uint64_t seq);

/* Checks one block read from offset. expect_ident is the identity the block must
 * carry, or SB_VERIFY_UNKNOWN to accept any write of this job whose header and data
 * agree (verify_only); max_job bounds the job field then. 0 when intact; otherwise
 * -EILSEQ with "offset N: FIELD: expected X, found Y" in msg. buf (32-byte aligned) is
 * restored. */
int sb_verify_check(const sb_verify_fmt *f, void *buf, uint64_t offset, uint64_t expect_ident,
                    unsigned max_job, char *msg, size_t msglen);

/* ---------------------------------------------------------- the block table */

typedef struct sb_verify_table {
    uint64_t first_block_off;  /* job->offset */
    uint64_t nblocks;
    _Atomic uint64_t *w;       /* (ident << 1) | busy */
    /* verify_backlog, verify phases: a bit per block, set when a backlog check or a phase
     * read its last write, cleared by the next write; the read-back after the job leaves
     * these, as fio's history keeps only the writes not yet checked
     * (sb_verify_table_backlog; NULL: none) */
    _Atomic uint64_t *checked;
} sb_verify_table;

/* Blocks at or past known_from (a byte offset; laid out by this run with layout
 * blocks, seq 0) start as identity 0, the others as unknown. */
int sb_verify_table_init(sb_verify_table *t, uint64_t offset, uint64_t nblocks, uint32_t bs,
                         uint64_t known_from);
void sb_verify_table_free(sb_verify_table *t);
/* The table's checked bits (verify_backlog). -ENOMEM. */
int sb_verify_table_backlog(sb_verify_table *t);

/* ---------------------------------------------------------- per thread */

/* One of a thread's several files (nrfiles, filename=a:b): its table, name and descriptor. */
typedef struct sb_verify_vfile {
    sb_verify_table *table;
    const char *path;
    int fd;
} sb_verify_vfile;

typedef struct sb_verify_thread {
    const sb_verify_fmt *fmt;
    /* the file in use: with several files, files[cur]'s (the worker's file switch sets
     * them, io/job/files.c); each slot remembers its I/O's file (slot_file), each backlog
     * entry its own, and the calls below work on that one */
    sb_verify_table *table;
    const char *path;
    unsigned job;              /* this thread's index */
    unsigned njobs;
    int fd;                    /* for backlog reads */
    bool check_unknown;        /* a read-only job: unknown blocks must be valid blocks */
    uint64_t seq;              /* last sequence number issued */
    /* Variable block sizes (bsrange, bssplit): an I/O covers up to max_units blocks of
     * fmt->bs (the sizes' common unit), each formatted and checked as a block of its own
     * (fio's verify_interval of the smallest size); 1 for a job of one size */
    unsigned max_units;
    sb_verify_vfile *files;    /* [nfiles] several files per thread; NULL: one */
    unsigned nfiles, cur;
    unsigned *slot_file;       /* [depth] with files: the file of the slot's I/O */
    /* per I/O slot (sb_io_u.index), max_units words each: what each of its blocks holds */
    uint64_t *slot_ident;      /* the ident written / expected, or UINT64_MAX = not claimed */
    uint64_t *slot_prev;       /* the table word before a write claimed it */
    uint64_t *bl_word;         /* [max_units] the backlog check's claimed words */
    unsigned backlog;          /* verify_backlog: check every N written I/Os */
    uint64_t *ring;            /* [backlog] I/Os written and not yet checked, oldest first:
                                * (file << 45) | (blocks << 32) | first block */
    unsigned nring;
    /* fio's verify_backlog_batch (0: backlog): when the blocks waiting reach a multiple of
     * backlog, a batch of this many checks starts, the oldest first; what the waiting
     * blocks cannot fill is done one after each later write, as fio's history works */
    unsigned batch;
    unsigned rhead;            /* the oldest waiting block's place in ring */
    unsigned pending;          /* checks of the running batch still to do */
    /* fio's trim_percentage, trim_backlog, trim_backlog_batch and trim_verify_zero: each
     * written block joins the trim queue with trim_pct % chance; whenever the blocks written
     * are a multiple of trim_backlog a batch of trims (trim_batch, 0: trim_backlog) takes
     * the oldest queued ones, and the table expects zeros there (or nothing: trim_zero 0) */
    unsigned trim_pct, trim_backlog, trim_batch, trim_pending;
    bool trim_zero, trim_blkdev;
    uint64_t *tq;              /* [tq_cap] queued blocks, oldest at tq_head */
    uint64_t tq_cap, tq_head, tq_n, written;
    uint64_t trim_rand;        /* the queue's draw (splitmix64 state) */
    void *rbuf;                /* one aligned block for backlog reads */
    /* verify_backlog's reads and the verify phases', timed and counted as the job's reads
     * (fio issues them among the job's I/Os); merged into the result's verify reads after
     * the job */
    uint64_t bl_ios, bl_bytes;
    sb_histogram *bl_clat;
    /* fio's verify phase inside the job (phase.c): `phase` says when one runs (SB_VPHASE_*);
     * each reads back this thread's writes of sequence (phase_seq, phase_upto], in
     * phase_ns of time after the ramp (fio's read runtime), into pbuf (max_units blocks) */
    unsigned phase;
    uint64_t phase_seq, phase_upto, phase_ns;
    void *pbuf;
    sb_verify_stats st;
    char msg[256];             /* the first mismatch */
} sb_verify_thread;

int sb_verify_thread_init(sb_verify_thread *v, const sb_verify_fmt *fmt, sb_verify_table *t,
                          const char *path, unsigned job, unsigned njobs, unsigned depth,
                          unsigned backlog, int fd, bool check_unknown);
void sb_verify_thread_free(sb_verify_thread *v);
/* Variable block sizes: each I/O of the thread covers up to units blocks (its slots and
 * backlog buffer sized for them), for depth slots. -ENOMEM. */
int sb_verify_thread_units(sb_verify_thread *v, unsigned units, unsigned depth);
/* Several files per thread: files[0 .. n) (copied), the first in use; depth slots. -ENOMEM. */
int sb_verify_thread_files(sb_verify_thread *v, const sb_verify_vfile *files, unsigned n, unsigned depth);
/* Makes file k of the thread's the one in use. */
static inline void sb_verify_use(sb_verify_thread *v, unsigned k)
{
    v->cur = k;
    v->table = v->files[k].table;
    v->path = v->files[k].path;
    v->fd = v->files[k].fd;
}
/* When a thread's verify phase runs inside the job (fio's backend.c: do_verify after each
 * do_io): never (the read-back after the job is the only one), after each loop but the
 * last (loops=N), or after each `size` bytes issued (a time-based job on an asynchronous
 * engine, whose queued bytes end fio's write phase; a synchronous engine's never do). */
enum { SB_VPHASE_NONE = 0, SB_VPHASE_LOOP, SB_VPHASE_SIZE };

/* trim_percentage and the rest (fields above) on a thread set up: -ENOMEM. */
int sb_verify_thread_trim(sb_verify_thread *v, unsigned pct, unsigned backlog, unsigned batch,
                          bool zero, uint64_t seed);

/* Before queueing an I/O of slot `slot` on blocks b .. b+n-1 (n: 1, or up to max_units).
 * A write formats buf (each block with its own header) and returns false when any of
 * them is busy (none is then taken: the caller takes other blocks); a read always
 * returns true, and each of its blocks is checked at completion only when it could take
 * it. */
bool sb_verify_issue_n(sb_verify_thread *v, unsigned slot, bool write, uint64_t b, unsigned n, void *buf);
/* An I/O that sb_verify_issue_n() let through but that was not queued after all. */
void sb_verify_cancel_n(sb_verify_thread *v, unsigned slot, bool write, uint64_t b, unsigned n);
/* When the I/O of slot completed with result (bytes or -errno): records a write,
 * checks a read, runs the backlog. 0, or -EILSEQ (v->msg says why). */
int sb_verify_complete_n(sb_verify_thread *v, unsigned slot, bool write, uint64_t b, unsigned n, void *buf,
                         int64_t result);
/* The same for an I/O of one block. */
bool sb_verify_issue(sb_verify_thread *v, unsigned slot, bool write, uint64_t b, void *buf);
void sb_verify_cancel(sb_verify_thread *v, unsigned slot, bool write, uint64_t b);
int sb_verify_complete(sb_verify_thread *v, unsigned slot, bool write, uint64_t b, void *buf,
                       int64_t result);

/* Checks one block b of the file in use, read into buf, against the identity expect: 0,
 * or -EILSEQ (the first mismatch in v->msg; counted in v->st). */
int sb_verify_check_one(sb_verify_thread *v, void *buf, uint64_t b, uint64_t expect);

/* Block b's busy bit taken (false: another I/O holds it; *word gets the table's word), and
 * given back with the identity the block now holds. Acquire and release: verify_run.c. */
static inline bool sb_verify_claim(sb_verify_table *t, uint64_t b, uint64_t *word)
{
    uint64_t cur = atomic_load_explicit(&t->w[b], memory_order_relaxed);
    do {
        if (cur & 1)
            return false;
    } while (!atomic_compare_exchange_weak_explicit(&t->w[b], &cur, cur | 1, memory_order_acquire,
                                                    memory_order_relaxed));
    *word = cur;
    return true;
}

static inline void sb_verify_release(sb_verify_table *t, uint64_t b, uint64_t ident)
{
    atomic_store_explicit(&t->w[b], ident << 1, memory_order_release);
}

/* Block b's checked bit (a backlog check or a verify phase read its last write), set or
 * cleared; its busy bit is the caller's. */
static inline void sb_verify_mark_checked(sb_verify_table *t, uint64_t b, bool on)
{
    if (!t->checked)
        return;
    uint64_t bit = 1ull << (b % 64);
    if (on)
        atomic_fetch_or_explicit(&t->checked[b / 64], bit, memory_order_relaxed);
    else
        atomic_fetch_and_explicit(&t->checked[b / 64], ~bit, memory_order_relaxed);
}

/* One thread's verify reads when each thread is reported on its own (numjobs without
 * group_reporting), as fio's threads each verify their own writes: its verify_backlog's and
 * verify phases' reads, and its share of the read-back after the job, with the read-back's
 * time spent on its blocks (reads and checks) and its phases' (the read runtime's). */
typedef struct sb_verify_thread_reads {
    uint64_t ios, bytes;
    uint64_t read_ns, phase_ns;
    sb_histogram clat;
} sb_verify_thread_reads;

/* The read-back's reads as figures of the job, as fio counts its verify reads among the
 * job's reads, each timed into clat (a histogram of the caller's); ios and bytes added up.
 * With the block table, one read per write (the run of blocks holding one identity: a
 * bsrange or bssplit write is read back at its own size, as fio's), of at most unit bytes;
 * without it (verify_only), one per unit bytes (a multiple of the format's block). threads
 * (NULL: none): each read is also counted to the thread whose write it reads (a block of
 * unknown writer, to owner), [nthreads]. */
typedef struct sb_verify_reads {
    uint64_t unit;
    uint64_t ios, bytes;
    sb_histogram *clat;
    sb_verify_thread_reads *threads;
    unsigned nthreads, owner;
} sb_verify_reads;

/* After the job: reads back [job offset, +nblocks*bs) of path and checks every block
 * written in this run (ident != 0), or every block when t is NULL (verify_only),
 * through fd in chunks (rd: of rd->unit bytes, counted there; NULL: of 1 MiB). stop() is
 * polled between chunks. 0, -EILSEQ (msg) or -errno. */
int sb_verify_file(const sb_verify_fmt *f, const sb_verify_table *t, int fd, const char *path,
                   uint64_t offset, uint64_t nblocks, unsigned njobs, bool (*stop)(void *),
                   void *stop_arg, sb_verify_stats *st, sb_verify_reads *rd, char *msg, size_t msglen);

void sb_verify_stats_merge(sb_verify_stats *into, const sb_verify_stats *from);

/* ---------------------------------------------------------- state files (state.c) */

/* fio's name for a job's state file: [DIR/]local-JOB-INDEX-verify.state. */
void sb_verify_state_path(char *out, size_t n, const char *dir, const char *job, unsigned index);
/* t (its identities, busy bits cleared) to path, replacing it whole. 0 or -errno (err). */
int sb_verify_state_save(const sb_verify_fmt *f, const sb_verify_table *t, const char *path,
                         char *err, size_t errlen);
/* path into t, whose job (bs, region, seed, algorithm, numjobs) it must match: 0, -EINVAL
 * (err names what differs) or -errno. */
int sb_verify_state_load(const sb_verify_fmt *f, sb_verify_table *t, unsigned njobs, const char *path,
                         char *err, size_t errlen);

#endif
