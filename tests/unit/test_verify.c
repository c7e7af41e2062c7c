/* Unit tests for verified I/O's block format (src/io/verify/verify.c) and its table
 * (verify_run.c): known checksum vectors; a formatted block passes for every
 * algorithm and block size; each kind of damage is caught and named by its field
 * (a flipped data byte, a flipped byte in each header field, a block at the wrong
 * offset, a stale block of an older sequence, another job's seed, a zeroed block);
 * the data is incompressible and differs between writes; the busy bit keeps a
 * second I/O off a block until the first completes, and the table then names the
 * last completed write; the read-back of a file catches a stale block, a
 * misdirected one and flipped bytes at their offsets. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "io/verify/verify.h"

static const sb_verify_algo algos[] = {SB_VERIFY_CRC32C, SB_VERIFY_XXHASH, SB_VERIFY_SHA256,
                                       SB_VERIFY_PATTERN};

static void *block(uint32_t bs)
{
    void *p = NULL;
    assert_int_equal(posix_memalign(&p, 4096, bs), 0);
    return p;
}

/* Formats a block (offset, job 0, seq) and checks that the damage done by
 * `damage` is reported as `field`. */
static void expect_field(sb_verify_algo a, uint32_t bs, void (*damage)(uint8_t *, uint32_t),
                         uint64_t check_offset, uint64_t expect, const char *field)
{
    sb_verify_fmt f;
    assert_int_equal(sb_verify_fmt_init(&f, a, bs, 77), 0);
    uint8_t *b = block(bs);
    sb_verify_format(&f, b, 8192, 0, 5);
    char msg[256] = "";
    assert_int_equal(sb_verify_check(&f, b, 8192, SB_VERIFY_IDENT(5, 0), 1, msg, sizeof msg), 0);
    damage(b, bs);
    int r = sb_verify_check(&f, b, check_offset, expect, 1, msg, sizeof msg);
    if (r != -EILSEQ || !strstr(msg, field))
        fail_msg("%s bs %u: expected a '%s' mismatch, got %d '%s'", sb_verify_algo_name(a), bs, field, r, msg);
    free(b);
    sb_verify_fmt_free(&f);
}

static void flip_data(uint8_t *b, uint32_t bs) { b[bs - 3] ^= 0x10; }
static void flip_magic(uint8_t *b, uint32_t bs) { b[1] ^= 1; }
static void flip_offset(uint8_t *b, uint32_t bs) { b[offsetof(sb_verify_hdr, offset) + 1] ^= 4; }
static void flip_seq(uint8_t *b, uint32_t bs) { b[offsetof(sb_verify_hdr, seq)] ^= 2; }
static void flip_len(uint8_t *b, uint32_t bs) { b[offsetof(sb_verify_hdr, len) + 1] ^= 1; }
static void flip_time(uint8_t *b, uint32_t bs) { b[offsetof(sb_verify_hdr, time_ns)] ^= 1; }
static void flip_seed(uint8_t *b, uint32_t bs) { b[offsetof(sb_verify_hdr, seed) + 7] ^= 0x80; }
static void flip_csum(uint8_t *b, uint32_t bs) { b[offsetof(sb_verify_hdr, csum)] ^= 1; }
static void zero_all(uint8_t *b, uint32_t bs) { memset(b, 0, bs); }
static void nothing(uint8_t *b, uint32_t bs) {}

static void test_vectors(void **state)
{
    /* CRC32C's check value ("123456789" -> e3069283) through the block format: a
     * block's checksum equals an independent bitwise CRC32C of it */
    sb_verify_fmt f;
    assert_int_equal(sb_verify_fmt_init(&f, SB_VERIFY_CRC32C, 4096, 1), 0);
    uint8_t *b = block(4096);
    sb_verify_format(&f, b, 0, 0, 1);
    sb_verify_hdr *h = (sb_verify_hdr *)b;
    uint32_t stored;
    memcpy(&stored, h->csum, 4);
    memset(h->csum, 0, sizeof h->csum);
    uint32_t c = 0xffffffffu;
    for (unsigned i = 0; i < 4096; i++) {
        c ^= b[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0x82f63b78u & (0u - (c & 1)));
    }
    assert_int_equal(stored, c ^ 0xffffffffu);
    free(b);
    sb_verify_fmt_free(&f);
    sb_verify_algo a;
    assert_int_equal(sb_verify_algo_parse("crc32c", &a), 0);
    assert_int_equal(a, SB_VERIFY_CRC32C);
    assert_int_equal(sb_verify_algo_parse("md5", &a), 0); /* fio's others: verify_algos.c */
    assert_int_equal(a, SB_VERIFY_MD5);
    assert_int_equal(sb_verify_algo_parse("crc99", &a), -EINVAL);
}

static void test_each_damage_caught(void **state)
{
    const uint32_t sizes[] = {512, 4096, 65536, 131072};
    for (unsigned i = 0; i < sizeof algos / sizeof algos[0]; i++)
        for (unsigned s = 0; s < 4; s++) {
            sb_verify_algo a = algos[i];
            uint32_t bs = sizes[s];
            uint64_t me = SB_VERIFY_IDENT(5, 0);
            expect_field(a, bs, flip_data, 8192, me, "data: byte");
            expect_field(a, bs, flip_magic, 8192, me, "magic");
            expect_field(a, bs, flip_offset, 8192, me, "offset");
            expect_field(a, bs, flip_seq, 8192, me, "sequence");
            expect_field(a, bs, flip_len, 8192, me, "length");
            expect_field(a, bs, flip_time, 8192, me, "header CRC");
            expect_field(a, bs, flip_seed, 8192, me, "seed");
            expect_field(a, bs, zero_all, 8192, me, "magic");
            /* an intact block read at another offset: written for 8192 */
            expect_field(a, bs, nothing, 8192 + bs, me, "a block written for another offset");
            /* an intact block of an older write: the table expects sequence 9 */
            expect_field(a, bs, nothing, 8192, SB_VERIFY_IDENT(9, 0), "stale block");
            expect_field(a, bs, nothing, 8192, SB_VERIFY_IDENT(5, 1), "job");
            if (a != SB_VERIFY_PATTERN)
                expect_field(a, bs, flip_csum, 8192, me, "checksum");
        }
}

static void test_damaged_header_named(void **state)
{
    /* a flipped sequence byte is not mistaken for a stale block */
    sb_verify_fmt f;
    assert_int_equal(sb_verify_fmt_init(&f, SB_VERIFY_XXHASH, 4096, 3), 0);
    uint8_t *b = block(4096);
    sb_verify_format(&f, b, 0, 0, 5);
    flip_seq(b, 4096);
    char msg[256];
    assert_int_equal(sb_verify_check(&f, b, 0, SB_VERIFY_IDENT(5, 0), 1, msg, sizeof msg), -EILSEQ);
    assert_non_null(strstr(msg, "offset 0: sequence: expected 5, found 7 (header CRC wrong"));
    /* verify_only (unknown identity): any sequence is accepted, another job seed is not */
    sb_verify_format(&f, b, 0, 0, 5);
    assert_int_equal(sb_verify_check(&f, b, 0, SB_VERIFY_UNKNOWN, 1, msg, sizeof msg), 0);
    sb_verify_fmt g;
    assert_int_equal(sb_verify_fmt_init(&g, SB_VERIFY_XXHASH, 4096, 4), 0);
    assert_int_equal(sb_verify_check(&g, b, 0, SB_VERIFY_UNKNOWN, 1, msg, sizeof msg), -EILSEQ);
    assert_non_null(strstr(msg, "seed"));
    sb_verify_fmt_free(&g);
    free(b);
    sb_verify_fmt_free(&f);
}

static void test_data_differs_and_incompressible(void **state)
{
    sb_verify_fmt f;
    assert_int_equal(sb_verify_fmt_init(&f, SB_VERIFY_CRC32C, 65536, 9), 0);
    uint8_t *a = block(65536), *b = block(65536);
    sb_verify_format(&f, a, 0, 0, 1);
    sb_verify_format(&f, b, 0, 0, 2);
    unsigned same = 0;
    for (unsigned i = SB_VERIFY_HDR_LEN; i < 65536; i++)
        same += a[i] == b[i];
    assert_true(same < 65536 / 64); /* about 1/256 by chance */
    /* byte histogram of one block: near uniform */
    unsigned hist[256] = {0};
    for (unsigned i = SB_VERIFY_HDR_LEN; i < 65536; i++)
        hist[a[i]]++;
    for (int k = 0; k < 256; k++)
        assert_true(hist[k] > 128 && hist[k] < 400);
    /* the 32 KiB periods of a large block are not copies of each other */
    assert_memory_not_equal(a + 4096, a + 4096 + 32768, 4096);
    free(a);
    free(b);
    sb_verify_fmt_free(&f);
}

static void test_table_busy_and_last_write(void **state)
{
    sb_verify_fmt f;
    assert_int_equal(sb_verify_fmt_init(&f, SB_VERIFY_CRC32C, 4096, 5), 0);
    sb_verify_table t;
    assert_int_equal(sb_verify_table_init(&t, 0, 4, 4096, 0), 0);
    sb_verify_thread v;
    assert_int_equal(sb_verify_thread_init(&v, &f, &t, "file", 0, 1, 4, 0, -1, false), 0);
    uint8_t *b0 = block(4096), *b1 = block(4096), *b2 = block(4096);
    /* two writes to block 2 at once: the second must take another block */
    assert_true(sb_verify_issue(&v, 0, true, 2, b0));
    assert_false(sb_verify_issue(&v, 1, true, 2, b1));
    assert_int_equal(v.st.writes_moved, 1);
    /* a read while the write is in flight goes ahead unchecked */
    assert_true(sb_verify_issue(&v, 2, false, 2, b2));
    assert_int_equal(sb_verify_complete(&v, 2, false, 2, b2, 4096), 0);
    assert_int_equal(v.st.reads_unchecked, 1);
    assert_int_equal(sb_verify_complete(&v, 0, true, 2, b0, 4096), 0);
    /* now free; the second write goes, and the table names it */
    assert_true(sb_verify_issue(&v, 1, true, 2, b1));
    assert_int_equal(sb_verify_complete(&v, 1, true, 2, b1, 4096), 0);
    assert_int_equal(atomic_load(&t.w[2]) >> 1, SB_VERIFY_IDENT(2, 0));
    /* a read of the first write's content (stale) is caught; the second's passes */
    assert_true(sb_verify_issue(&v, 2, false, 2, b2));
    memcpy(b2, b0, 4096);
    assert_int_equal(sb_verify_complete(&v, 2, false, 2, b2, 4096), -EILSEQ);
    assert_non_null(strstr(v.msg, "file: offset 8192: sequence: expected 2, found 1 (a stale block"));
    assert_true(sb_verify_issue(&v, 2, false, 2, b2));
    memcpy(b2, b1, 4096);
    assert_int_equal(sb_verify_complete(&v, 2, false, 2, b2, 4096), 0);
    assert_int_equal(v.st.blocks_checked, 1);
    /* a failed write leaves the block unknown: never checked against either write */
    assert_true(sb_verify_issue(&v, 0, true, 3, b0));
    assert_int_equal(sb_verify_complete(&v, 0, true, 3, b0, -EIO), 0);
    assert_int_equal(atomic_load(&t.w[3]) >> 1, SB_VERIFY_UNKNOWN);
    free(b0);
    free(b1);
    free(b2);
    sb_verify_thread_free(&v);
    sb_verify_table_free(&t);
    sb_verify_fmt_free(&f);
}

/* The read-back of a file against its table (what do_verify runs): an intact
 * file passes, blocks the run did not write are skipped, and each kind of damage
 * is caught at its offset: a stale block (an older write, intact), a block written
 * for another offset, a flipped data byte, a flipped header byte. */
enum { NB = 16, BS = 4096 };

static int readback(sb_verify_fmt *f, sb_verify_table *t, const char *path, sb_verify_stats *st,
                    char *msg)
{
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    memset(st, 0, sizeof *st);
    int r = sb_verify_file(f, t, fd, path, 0, NB, 1, NULL, NULL, st, NULL, msg, 256);
    close(fd);
    return r;
}

static void write_file(sb_verify_fmt *f, sb_verify_table *t, const char *path)
{
    /* block b written twice (sequence b+1, then b+1+NB) except block 0 (never) */
    uint8_t *buf = block(BS * NB);
    memset(buf, 0, BS);
    for (unsigned b = 1; b < NB; b++) {
        sb_verify_format(f, buf + b * BS, (uint64_t)b * BS, 0, b + 1 + NB);
        atomic_store(&t->w[b], SB_VERIFY_IDENT(b + 1 + NB, 0) << 1);
    }
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    assert_int_equal(fwrite(buf, 1, BS * NB, fp), BS * NB);
    fclose(fp);
    free(buf);
}

static void patch(const char *path, uint64_t off, const void *p, size_t n)
{
    FILE *fp = fopen(path, "r+");
    assert_non_null(fp);
    fseek(fp, (long)off, SEEK_SET);
    assert_int_equal(fwrite(p, 1, n, fp), n);
    fclose(fp);
}

static void test_readback_catches(void **state)
{
    char path[] = "/var/tmp/sbverify.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    sb_verify_fmt f;
    assert_int_equal(sb_verify_fmt_init(&f, SB_VERIFY_CRC32C, BS, 11), 0);
    sb_verify_table t;
    assert_int_equal(sb_verify_table_init(&t, 0, NB, BS, 0), 0);
    sb_verify_stats st;
    char msg[256] = "";
    uint8_t *old = block(BS);

    write_file(&f, &t, path);
    assert_int_equal(readback(&f, &t, path, &st, msg), 0);
    assert_int_equal(st.blocks_checked, NB - 1); /* block 0: not written, not read */

    /* stale: block 6 holds its first write (sequence 7), intact */
    sb_verify_format(&f, old, 6 * BS, 0, 7);
    patch(path, 6 * BS, old, BS);
    assert_int_equal(readback(&f, &t, path, &st, msg), -EILSEQ);
    assert_non_null(strstr(msg, ": offset 24576: sequence: expected 23, found 7 (a stale block"));
    assert_int_equal(st.first_bad_offset, 6 * BS);
    assert_int_equal(st.blocks_checked, 5);

    /* misdirected: block 9 holds block 3's content */
    write_file(&f, &t, path);
    sb_verify_format(&f, old, 3 * BS, 0, 3 + 1 + NB);
    patch(path, 9 * BS, old, BS);
    assert_int_equal(readback(&f, &t, path, &st, msg), -EILSEQ);
    assert_non_null(strstr(msg, "offset 36864: offset: expected 36864, found 12288"));

    /* a flipped data byte, then a flipped header byte */
    write_file(&f, &t, path);
    uint8_t x = 0x5a;
    patch(path, 4 * BS + 3000, &x, 1);
    assert_int_equal(readback(&f, &t, path, &st, msg), -EILSEQ);
    assert_non_null(strstr(msg, "offset 16384: data: byte 3000 of the block"));
    write_file(&f, &t, path);
    patch(path, 11 * BS + offsetof(sb_verify_hdr, len), &x, 1);
    assert_int_equal(readback(&f, &t, path, &st, msg), -EILSEQ);
    assert_non_null(strstr(msg, "offset 45056: length: expected 4096"));
    assert_non_null(strstr(msg, "header CRC wrong"));

    /* verify_only (no table): every block, written by any sequence, must be valid;
     * block 0 (zeros) is not */
    write_file(&f, &t, path);
    assert_int_equal(readback(&f, NULL, path, &st, msg), -EILSEQ);
    assert_non_null(strstr(msg, "offset 0: magic"));

    free(old);
    unlink(path);
    sb_verify_table_free(&t);
    sb_verify_fmt_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_each_damage_caught),
        cmocka_unit_test(test_damaged_header_named),
        cmocka_unit_test(test_data_differs_and_incompressible),
        cmocka_unit_test(test_table_busy_and_last_write),
        cmocka_unit_test(test_readback_catches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
