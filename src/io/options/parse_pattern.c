/*
 * parse_pattern — fio's data-pattern syntax for verify_pattern and buffer_pattern: a run
 * of pieces, each a 0xHEX number (its bytes as written; an odd count of digits makes the
 * first byte of one digit), a decimal number in the int range (its bytes little-endian,
 * as few as hold it; 0 is one zero byte, -12 is f4 ff ff ff), a "string" or 'string' (its
 * bytes), and in verify_pattern %o: 8 bytes the offset of the block is written into
 * (little-endian) when a block is made or checked. So 0xff%o"abcd"-12 is 17 bytes. Pieces
 * follow each other without separators; a decimal stops where a later 0x starts
 * (-100xab is -10, then 0xab) and a hex number before a 0x (0xff0x14: ff, then 14), as fio
 * reads them. Up to 512 bytes, as fio's. Kept apart from the other parsers because the
 * syntax is a small grammar of its own.
 */
#include "io/options/options.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io/job.h"

typedef struct pat_out {
    uint8_t *b;
    size_t cap, n;
    uint16_t *o_at;   /* where each %o is; NULL: %o is not allowed */
    unsigned o_cap, no;
} pat_out;

static int hexval(char c)
{
    return isdigit((unsigned char)c) ? c - '0' : tolower((unsigned char)c) - 'a' + 10;
}

static const char *pat_hex(const char *p, pat_out *o)
{
    p += 2;
    size_t k = 0;
    while (isxdigit((unsigned char)p[k]))
        k++;
    if (k > 1 && (p[k] == 'x' || p[k] == 'X') && p[k - 1] == '0')
        k--; /* the 0 starts the next number */
    if (!k || o->n + (k + 1) / 2 > o->cap)
        return NULL;
    size_t i = 0;
    if (k & 1)
        o->b[o->n++] = (uint8_t)hexval(p[i++]);
    for (; i < k; i += 2)
        o->b[o->n++] = (uint8_t)(hexval(p[i]) << 4 | hexval(p[i + 1]));
    return p + k;
}

static const char *pat_decimal(const char *p, pat_out *o)
{
    char num[24];
    const char *hx = strcasestr(p, "0x");
    size_t len = hx ? (size_t)(hx - p) : strlen(p);
    if (len == 0)
        return NULL;
    if (len >= sizeof num)
        len = sizeof num - 1;
    memcpy(num, p, len);
    num[len] = '\0';
    char *end;
    errno = 0;
    long v = strtol(num, &end, 10);
    if (end == num || errno || v > INT_MAX || v < INT_MIN)
        return NULL;
    uint32_t u = (uint32_t)v;
    do {
        if (o->n == o->cap)
            return NULL;
        o->b[o->n++] = (uint8_t)u;
        u >>= 8;
    } while (u);
    return p + (end - num);
}

static const char *pat_piece(const char *p, pat_out *o)
{
    if (*p == '"' || *p == '\'') {
        const char *q = strchr(p + 1, *p);
        size_t l = q ? (size_t)(q - p - 1) : 0;
        if (!q || !l || o->n + l > o->cap)
            return NULL;
        memcpy(o->b + o->n, p + 1, l);
        o->n += l;
        return q + 1;
    }
    if (*p == '%') {
        if (p[1] != 'o' || !o->o_at || o->no == o->o_cap || o->n + 8 > o->cap)
            return NULL;
        o->o_at[o->no++] = (uint16_t)o->n;
        memset(o->b + o->n, 0, 8);
        o->n += 8;
        return p + 2;
    }
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2]))
        return pat_hex(p, o);
    return pat_decimal(p, o);
}

int sb_io_pattern_parse(const char *v, uint8_t *b, size_t cap, size_t *len, uint16_t *o_at,
                        unsigned o_cap, unsigned *no)
{
    pat_out o = {b, cap, 0, o_at, o_cap, 0};
    if (!*v)
        return -EINVAL;
    for (const char *p = v; *p;)
        if (!(p = pat_piece(p, &o)))
            return -EINVAL;
    *len = o.n;
    if (no)
        *no = o.no;
    return 0;
}

static int bad_pattern(const char *v, bool offsets, char *err, size_t errlen)
{
    snprintf(err, errlen, "'%s' is not a pattern: 0xHEX, decimal numbers, \"strings\"%s one after "
             "another, 1 .. 512 bytes in all", v, offsets ? " and %o (8 bytes: the block's offset)" :
             " (%o is verify_pattern's, as fio's)");
    return -EINVAL;
}

/* verify_pattern makes a job verify=pattern unless verify says otherwise (fio's). */
int sb_opt_parse_verify_pattern(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                                char *err, size_t errlen)
{
    sb_io_job *job = base;
    uint8_t b[sizeof job->verify_pat];
    uint16_t at[SB_IO_PAT_MAX_O];
    size_t n;
    unsigned no;
    if (sb_io_pattern_parse(v, b, sizeof b, &n, at, SB_IO_PAT_MAX_O, &no) < 0)
        return bad_pattern(v, true, err, errlen);
    memcpy(job->verify_pat, b, n);
    job->verify_pat_len = (unsigned)n;
    memcpy(job->verify_pat_o, at, sizeof at);
    job->verify_pat_no = no;
    if (job->verify == SB_VERIFY_NONE)
        job->verify = SB_VERIFY_PATTERN;
    return 0;
}

int sb_opt_parse_buffer_pattern(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                                char *err, size_t errlen)
{
    sb_io_job *job = base;
    uint8_t b[sizeof job->buffer_pat];
    size_t n;
    if (sb_io_pattern_parse(v, b, sizeof b, &n, NULL, 0, NULL) < 0)
        return bad_pattern(v, false, err, errlen);
    memcpy(job->buffer_pat, b, n);
    job->buffer_pat_len = (unsigned)n;
    return 0;
}
