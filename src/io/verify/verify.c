/*
 * verify — the verified-I/O block format and its checks (verify.h says what and
 * why). Checksums come from Debian libraries: ISA-L's crc32_iscsi for crc32c
 * (hardware-accelerated), libxxhash's XXH3 and OpenSSL's SHA-256.
 *
 * Block data is cheap to make and to regenerate: a 32 KiB table of random words,
 * drawn once from the job seed, XORed with the block's seed (and, past 32 KiB,
 * with a multiple of the period number, so a large block never repeats itself).
 * Every block differs from every other and none compresses, for about the cost of
 * a memcpy; and since the data is a function of the header's seed, a checksum
 * mismatch is located to the first wrong byte.
 *
 * Also the plain data pattern of verify_pattern-less pattern jobs (sb_io_pattern_fill /
 * sb_io_pattern_check, job.h): a word per 8 bytes from the seed and the offset.
 */
#include "io/verify/verify.h"

#include <errno.h>
#include <inttypes.h>
#include <isa-l/crc.h>
#include <openssl/sha.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "core/rand.h"

#define BASE_SHIFT 12u                  /* 4096 words = 32 KiB */
#define BASE_WORDS (1u << BASE_SHIFT)
#define HDR_WORDS (SB_VERIFY_HDR_LEN / 8)
#define NOT_CLAIMED UINT64_MAX

_Static_assert(sizeof(sb_verify_hdr) == SB_VERIFY_HDR_LEN, "header layout");
_Static_assert(offsetof(sb_verify_hdr, hdr_crc) == 48, "header CRC position");

int sb_verify_algo_parse(const char *s, sb_verify_algo *out)
{
    for (int i = 0; i < SB_VERIFY_N; i++)
        if (!strcmp(s, sb_verify_algo_names[i])) {
            *out = (sb_verify_algo)i;
            return 0;
        }
    if (!strcmp(s, "0")) {
        *out = SB_VERIFY_NONE;
        return 0;
    }
    /* fio's names for the same algorithms */
    if (!strcmp(s, "crc32c-intel")) {
        *out = SB_VERIFY_CRC32C;
        return 0;
    }
    if (!strcmp(s, "xxhash64")) {
        *out = SB_VERIFY_XXHASH;
        return 0;
    }
    return -EINVAL;
}

const char *sb_verify_algo_name(sb_verify_algo a)
{
    return (unsigned)a < SB_VERIFY_N ? sb_verify_algo_names[a] : "?";
}

/* ------------------------------------------------------------ block format */

static inline uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The data seed of a write: any change of job seed, offset, job or sequence changes it. */
static inline uint64_t block_seed(uint64_t job_seed, uint64_t offset, uint64_t ident)
{
    return mix64(job_seed ^ mix64(offset * 0x9e3779b97f4a7c15ull ^ mix64(ident + 0x632be59bd9b4e019ull)));
}

static inline uint32_t crc32c(const void *p, size_t n)
{
    return crc32_iscsi((unsigned char *)p, (int)n, 0xffffffffu) ^ 0xffffffffu;
}

static unsigned csum_len(sb_verify_algo a)
{
    return a == SB_VERIFY_CRC32C ? 4 : a == SB_VERIFY_XXHASH ? 8 : a == SB_VERIFY_SHA256 ? 32
                                                                 : sb_verify_csum_len(a);
}

/* The checksum of a whole block whose csum field is zero. */
static void block_csum(sb_verify_algo a, const void *buf, uint32_t len, uint8_t out[32])
{
    memset(out, 0, 32);
    if (a == SB_VERIFY_CRC32C) {
        uint32_t c = crc32c(buf, len);
        memcpy(out, &c, 4);
    } else if (a == SB_VERIFY_XXHASH) {
        uint64_t h = XXH3_64bits(buf, len);
        memcpy(out, &h, 8);
    } else if (a == SB_VERIFY_SHA256) {
        SHA256(buf, len, out);
    } else {
        sb_verify_csum(a, buf, len, out);
    }
}

/* Word i (counted from the block's start) of the data for seed. */
static inline uint64_t data_word(const sb_verify_fmt *f, uint64_t seed, uint32_t i)
{
    if (f->pat)
        return f->pat[i % f->pat_words];
    return f->base[i & (BASE_WORDS - 1)] ^ seed ^ ((uint64_t)(i >> BASE_SHIFT) * 0xd6e8feb86659fd93ull);
}

/* Four words at a time: GCC's vector extension, compiled twice (target_clones) and
 * picked when the program loads: AVX2 where the CPU has it, else pairs of SSE2
 * operations. The header is 96 bytes and buffers are 32-byte aligned (bounce() makes
 * them so), so every vector is aligned. */
typedef uint64_t v4 __attribute__((vector_size(32)));

__attribute__((target_clones("avx2", "default")))
static void fill_data(const sb_verify_fmt *f, uint64_t *restrict w, uint32_t nwords, uint64_t seed)
{
    if (f->pat) { /* verify_pattern: one period by words, then copies of what is filled,
                   * doubling (a division a word cost more than the write it fed) */
        const uint32_t p = f->pat_words;
        uint32_t j = HDR_WORDS;
        for (; j < nwords && j % p; j++)
            w[j] = f->pat[j % p];
        const uint32_t start = j; /* a whole number of periods from the block's start */
        for (; j < nwords && j - start < p; j++)
            w[j] = f->pat[j - start];
        for (uint32_t have = j - start; j < nwords;) {
            uint32_t n = have < nwords - j ? have : nwords - j;
            memcpy(w + j, w + start, (size_t)n * sizeof *w);
            j += n, have += n;
        }
        return;
    }
    for (uint32_t start = 0; start < nwords; start += BASE_WORDS) {
        uint64_t k = seed ^ ((uint64_t)(start >> BASE_SHIFT) * 0xd6e8feb86659fd93ull);
        v4 kk = {k, k, k, k};
        uint32_t end = nwords - start < BASE_WORDS ? nwords : start + BASE_WORDS;
        uint32_t j0 = start ? start : HDR_WORDS;
        v4 *restrict out = (v4 *)(w + j0);
        const v4 *restrict in = (const v4 *)(f->base + (j0 - start));
        for (uint32_t j = 0; j < (end - j0) / 4; j++)
            out[j] = in[j] ^ kk;
    }
}

/* The first data word (from the block's start) that differs from what seed
 * generates, or -1: 64 words are compared at a time, OR-ing their differences. */
__attribute__((target_clones("avx2", "default")))
static int64_t first_bad_word(const sb_verify_fmt *f, const uint64_t *w, uint32_t nwords, uint64_t seed)
{
    if (f->pat) {
        for (uint32_t j = HDR_WORDS; j < nwords; j++)
            if (w[j] != f->pat[j % f->pat_words])
                return (int64_t)j;
        return -1;
    }
    for (uint32_t start = 0; start < nwords; start += BASE_WORDS) {
        uint64_t k = seed ^ ((uint64_t)(start >> BASE_SHIFT) * 0xd6e8feb86659fd93ull);
        v4 kk = {k, k, k, k};
        uint32_t end = nwords - start < BASE_WORDS ? nwords : start + BASE_WORDS;
        uint32_t j0 = start ? start : HDR_WORDS;
        const v4 *in = (const v4 *)(w + j0), *ref = (const v4 *)(f->base + (j0 - start));
        uint32_t nvec = (end - j0) / 4;
        for (uint32_t c = 0; c < nvec; c += 16) {
            uint32_t lim = nvec - c < 16 ? nvec : c + 16;
            v4 acc = {0, 0, 0, 0};
            for (uint32_t j = c; j < lim; j++)
                acc |= in[j] ^ ref[j] ^ kk;
            if (acc[0] | acc[1] | acc[2] | acc[3])
                for (uint32_t j = 4 * c; j < 4 * lim; j++)
                    if (w[j0 + j] != (f->base[j0 - start + j] ^ k))
                        return (int64_t)(j0 + j);
        }
    }
    return -1;
}

int sb_verify_fmt_init(sb_verify_fmt *f, sb_verify_algo algo, uint32_t bs, uint64_t job_seed)
{
    memset(f, 0, sizeof *f);
    f->algo = algo;
    f->bs = bs;
    f->job_seed = job_seed;
    if (posix_memalign((void **)&f->base, 64, BASE_WORDS * sizeof *f->base)) {
        f->base = NULL;
        return -ENOMEM;
    }
    sb_rand r;
    sb_rand_seed(&r, job_seed ^ 0x7e51f1edull);
    sb_rand_fill(&r, f->base, BASE_WORDS * sizeof *f->base);
    return 0;
}

void sb_verify_fmt_free(sb_verify_fmt *f)
{
    free(f->base);
    free(f->pat);
    f->base = NULL;
    f->pat = NULL;
}

int sb_verify_fmt_pattern(sb_verify_fmt *f, const uint8_t *bytes, unsigned len)
{
    /* len words hold 8 * len bytes: a whole number of patterns, so word i is pat[i % len] */
    f->pat = malloc((size_t)len * sizeof *f->pat);
    if (!f->pat)
        return -ENOMEM;
    uint8_t *b = (uint8_t *)f->pat;
    for (unsigned i = 0; i < 8 * len; i++)
        b[i] = bytes[i % len];
    f->pat_words = len;
    f->pat_len = len;
    return 0;
}

/* A piece of a block: the block itself, or with verify_interval each interval bytes. */
static uint32_t piece_len(const sb_verify_fmt *f)
{
    return f->interval && f->interval < f->bs ? f->interval : f->bs;
}

static void format_one(const sb_verify_fmt *f, void *buf, uint64_t offset, uint32_t job, uint64_t seq);

/* verify_offset: the header's bytes and those at hdr_off change places (they never
 * overlap: hdr_off is at least the header's length). Its own inverse. */
static void swap_header(const sb_verify_fmt *f, void *piece)
{
    if (!f->hdr_off)
        return;
    uint8_t tmp[SB_VERIFY_HDR_LEN], *p = piece;
    memcpy(tmp, p, sizeof tmp);
    memcpy(p, p + f->hdr_off, sizeof tmp);
    memcpy(p + f->hdr_off, tmp, sizeof tmp);
}

/* verify_pattern with %o: g gets the pattern of the block at offset in words (room for
 * pat_words), the offset in every copy of the pattern at each %o. */
static void block_pattern(const sb_verify_fmt *f, sb_verify_fmt *g, uint64_t *words, uint64_t offset)
{
    if (!f->pat_no)
        return;
    uint8_t *b = (uint8_t *)words, le[8];
    unsigned plen = f->pat_len;
    memcpy(words, f->pat, f->pat_words * sizeof *words);
    for (unsigned k = 0; k < 8; k++)
        le[k] = (uint8_t)(offset >> (8 * k));
    for (unsigned c = 0; c < 8; c++) /* 8 words a pattern byte: 8 copies */
        for (unsigned i = 0; i < f->pat_no; i++)
            memcpy(b + c * plen + f->pat_o[i], le, 8);
    g->pat = words;
}

/* The block code writes and reads a buffer in aligned words and vectors (fill_data); a
 * buffer that fio's iomem_align/mem_align starts off a 32-byte boundary goes through an
 * aligned copy instead (an aligned vector store there would fault). Rare, so allocated
 * each time; NULL when buf is aligned. */
static void *bounce(const void *buf, uint32_t bs)
{
    if (!((uintptr_t)buf & 31))
        return NULL;
    void *a = aligned_alloc(32, ((size_t)bs + 31) & ~(size_t)31);
    if (!a) {
        fprintf(stderr, "storbench: out of memory (%u bytes for a verify block)\n", bs);
        abort();
    }
    memcpy(a, buf, bs);
    return a;
}

void sb_verify_format(const sb_verify_fmt *f, void *buf, uint64_t offset, uint32_t job, uint64_t seq)
{
    void *a = bounce(buf, f->bs);
    if (a) {
        sb_verify_format(f, a, offset, job, seq);
        memcpy(buf, a, f->bs);
        free(a);
        return;
    }
    uint32_t step = piece_len(f);
    sb_verify_fmt g = *f;
    uint64_t words[512];
    block_pattern(f, &g, words, offset);
    g.bs = step;
    for (uint32_t at = 0; at < f->bs; at += step) {
        format_one(&g, (char *)buf + at, offset + at, job, seq);
        swap_header(f, (char *)buf + at);
    }
}

static void format_one(const sb_verify_fmt *f, void *buf, uint64_t offset, uint32_t job, uint64_t seq)
{
    sb_verify_hdr *h = buf;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME_COARSE, &ts);
    memset(h, 0, sizeof *h);
    h->magic = SB_VERIFY_MAGIC;
    h->algo = (uint8_t)f->algo;
    h->version = 1;
    h->hdr_len = SB_VERIFY_HDR_LEN;
    h->len = f->bs;
    h->job = job;
    h->offset = offset;
    h->seq = seq;
    h->seed = block_seed(f->job_seed, offset, SB_VERIFY_SEED_ID(seq, job));
    h->time_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    h->hdr_crc = crc32c(h, offsetof(sb_verify_hdr, hdr_crc));
    fill_data(f, buf, f->bs / 8, h->seed);
    if (csum_len(f->algo))
        block_csum(f->algo, buf, f->bs, h->csum);
}

/* ------------------------------------------------------------ checking */

static int mismatch(char *msg, size_t len, uint64_t offset, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static int mismatch(char *msg, size_t len, uint64_t offset, const char *field, const char *fmt, ...)
{
    int n = snprintf(msg, len, "offset %" PRIu64 ": %s: ", offset, field);
    if (n >= 0 && (size_t)n < len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg + n, len - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -EILSEQ;
}

static void hex(char *out, const uint8_t *p, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", p[i]);
}

/* The header fields that can be compared with what the reader expects, in order;
 * the first that differs is named. 0 when they all agree. */
static int check_fields(const sb_verify_fmt *f, const sb_verify_hdr *h, uint64_t offset,
                        uint64_t expect, unsigned max_job, const char *why, char *msg, size_t len)
{
    if (h->offset != offset)
        return mismatch(msg, len, offset, "offset", "expected %" PRIu64 ", found %" PRIu64 "%s",
                         offset, h->offset, why[0] ? why : " (a block written for another offset)");
    if (h->len != f->bs)
        return mismatch(msg, len, offset, "length", "expected %u, found %u%s", f->bs, h->len, why);
    if (h->algo != f->algo || h->version != 1 || h->hdr_len != SB_VERIFY_HDR_LEN)
        return mismatch(msg, len, offset, "format", "expected %s v1, found %s v%u%s",
                        sb_verify_algo_name(f->algo), sb_verify_algo_name((sb_verify_algo)h->algo),
                        h->version, why);
    if (expect != SB_VERIFY_UNKNOWN) {
        uint64_t eseq = SB_VERIFY_IDENT_SEQ(expect);
        unsigned ejob = SB_VERIFY_IDENT_JOB(expect);
        if (h->job != ejob)
            return mismatch(msg, len, offset, "job", "expected %u, found %u (sequence %" PRIu64 ")%s",
                            ejob, h->job, h->seq, why);
        if (h->seq != eseq)
            return mismatch(msg, len, offset, "sequence", "expected %" PRIu64 ", found %" PRIu64 "%s",
                            eseq, h->seq, why[0] ? why : h->seq < eseq ? " (a stale block: an older write)"
                                                                       : " (not the last write)");
    } else if (h->job >= max_job) {
        return mismatch(msg, len, offset, "job", "expected < %u, found %u%s", max_job, h->job, why);
    }
    uint64_t seed = block_seed(f->job_seed, offset, SB_VERIFY_SEED_ID(h->seq, h->job));
    if (h->seed != seed)
        return mismatch(msg, len, offset, "seed", "expected %#" PRIx64 ", found %#" PRIx64 "%s", seed,
                        h->seed, why[0] ? why : " (written by a job with another seed)");
    return 0;
}

/* Names the first data byte that differs from what the header's seed generates;
 * -1 when the data is as generated. */
static int64_t first_bad_byte(const sb_verify_fmt *f, const uint8_t *buf, uint64_t seed)
{
    int64_t i = first_bad_word(f, (const uint64_t *)buf, f->bs / 8, seed);
    if (i < 0)
        return -1;
    uint64_t want = data_word(f, seed, (uint32_t)i);
    const uint8_t *wb = (const uint8_t *)&want;
    for (unsigned k = 0; k < 8; k++)
        if (buf[8 * i + k] != wb[k])
            return 8 * i + k;
    return -1;
}

static int check_data(const sb_verify_fmt *f, uint8_t *buf, uint64_t offset, char *msg, size_t len)
{
    sb_verify_hdr *h = (sb_verify_hdr *)buf;
    unsigned cl = csum_len(f->algo);
    uint8_t stored[32], got[32];
    if (cl) {
        memcpy(stored, h->csum, 32);
        memset(h->csum, 0, 32);
        block_csum(f->algo, buf, f->bs, got);
        memcpy(h->csum, stored, 32);
        if (!memcmp(stored, got, cl))
            return 0;
    }
    /* fio's header-only check: the header was checked; with verify_pattern the data is
     * compared with the pattern too, as fio's (verify_io_u: VERIFY_HDR_ONLY) */
    if (f->algo == SB_VERIFY_META && !f->pat)
        return 0;
    int64_t bad = first_bad_byte(f, buf, h->seed);
    if (bad < 0 && !cl)
        return 0;
    if (bad >= 0) {
        uint8_t want = (uint8_t)(data_word(f, h->seed, (uint32_t)(bad / 8)) >> (8 * (bad % 8)));
        return mismatch(msg, len, offset, "data", "byte %" PRId64 " of the block: expected %#04x, found "
                        "%#04x", bad, want, buf[bad]);
    }
    char e[65], g[65];
    hex(e, got, cl);
    hex(g, stored, cl);
    return mismatch(msg, len, offset, "checksum", "expected %s (%s of the block as read), found %s",
                    e, sb_verify_algo_name(f->algo), g);
}

static int check_one(const sb_verify_fmt *f, void *buf, uint64_t offset, uint64_t expect_ident,
                     unsigned max_job, char *msg, size_t msglen);

int sb_verify_check(const sb_verify_fmt *f, void *buf, uint64_t offset, uint64_t expect_ident,
                    unsigned max_job, char *msg, size_t msglen)
{
    void *a = bounce(buf, f->bs);
    if (a) {
        int r = sb_verify_check(f, a, offset, expect_ident, max_job, msg, msglen);
        free(a);
        return r;
    }
    uint32_t step = piece_len(f);
    sb_verify_fmt g = *f;
    uint64_t words[512];
    block_pattern(f, &g, words, offset);
    g.bs = step;
    for (uint32_t at = 0; at < f->bs; at += step) {
        swap_header(f, (char *)buf + at);
        int r = check_one(&g, (char *)buf + at, offset + at, expect_ident, max_job, msg, msglen);
        swap_header(f, (char *)buf + at); /* buf as read again */
        if (r < 0)
            return r;
    }
    return 0;
}

static int check_one(const sb_verify_fmt *f, void *buf, uint64_t offset, uint64_t expect_ident,
                     unsigned max_job, char *msg, size_t msglen)
{
    sb_verify_hdr *h = buf;
    if (h->magic != SB_VERIFY_MAGIC)
        return mismatch(msg, msglen, offset, "magic", "expected %#010x, found %#010x%s", SB_VERIFY_MAGIC,
                        h->magic, h->magic ? "" : " (never written, or zeroed)");
    uint32_t hc = crc32c(h, offsetof(sb_verify_hdr, hdr_crc));
    if (hc != h->hdr_crc) {
        /* A damaged header: name the field that disagrees, else the CRC. */
        if (check_fields(f, h, offset, expect_ident, max_job, " (header CRC wrong: a damaged header)",
                         msg, msglen) < 0)
            return -EILSEQ;
        return mismatch(msg, msglen, offset, "header CRC", "expected %#010x, found %#010x", hc, h->hdr_crc);
    }
    if (check_fields(f, h, offset, expect_ident, max_job, "", msg, msglen) < 0)
        return -EILSEQ;
    return check_data(f, buf, offset, msg, msglen);
}

/* ------------------------------------------------------------ data pattern (loop.c, prepare.c) */

static inline uint64_t pattern_word(uint64_t seed, uint64_t off)
{
    uint64_t z = off * 0x9e3779b97f4a7c15ull ^ seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Words through memcpy: iomem_align may start buf at any byte, and a word access the
 * compiler assumes aligned may become an aligned vector one. */
void sb_io_pattern_fill(void *buf, uint64_t offset, uint32_t len, uint64_t seed)
{
    char *p = buf;
    for (uint32_t i = 0; i < len / 8; i++) {
        uint64_t w = pattern_word(seed, offset + 8ull * i);
        memcpy(p + 8ull * i, &w, 8);
    }
}

bool sb_io_pattern_check(const void *buf, uint64_t offset, uint32_t len, uint64_t seed, uint64_t *bad)
{
    const char *p = buf;
    for (uint32_t i = 0; i < len / 8; i++) {
        uint64_t w;
        memcpy(&w, p + 8ull * i, 8);
        if (w != pattern_word(seed, offset + 8ull * i)) {
            *bad = offset + 8ull * i;
            return false;
        }
    }
    return true;
}
