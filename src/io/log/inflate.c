/*
 * inflate — `storbench io --inflate-log=FILE`, fio's --inflate-log: a log stored compressed
 * (log_store_compressed: PREFIX_KIND.N.log.fz, fio's or storbench's) printed as the text
 * log it stands for. The file is a run of zlib streams (fio's chunks), each holding fio's
 * binary samples (iolog.h); the first sample of a stream says whether its samples carry an
 * offset and whether the prio column is an ioprio value (log_prio), as fio reads them. The
 * file is read and inflated 64 KiB at a time, so any size prints in bounded memory; a
 * stream's last, partial sample is dropped, as fio does.
 */
#include "io/log/inflate.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "io/log/iolog.h"

#define CHUNK (64u << 10)

typedef struct reader {
    unsigned char rec[SB_IOLOG_SAMPLE_OFFSET_BYTES];
    size_t have, size;          /* size 0: this stream's first sample has not said it yet */
    FILE *out;
} reader;

/* One whole sample, as fio's text log prints it. */
static void print_sample(const reader *r)
{
    uint64_t t, off = 0, bs;
    int64_t v;
    uint32_t d;
    uint16_t prio;
    memcpy(&t, r->rec, 8);
    memcpy(&v, r->rec + 8, 8);
    memcpy(&d, r->rec + 16, 4);
    memcpy(&prio, r->rec + 20, 2);
    memcpy(&bs, r->rec + 24, 8);
    unsigned ddir = d & ~(SB_IOLOG_FLAG_OFFSET | SB_IOLOG_FLAG_PRIO);
    char p[16];
    if (d & SB_IOLOG_FLAG_PRIO)
        snprintf(p, sizeof p, "0x%04x", prio);
    else /* fio: 1 for a real-time class value */
        snprintf(p, sizeof p, "%u", (unsigned)(prio >> 13) == 1);
    if (d & SB_IOLOG_FLAG_OFFSET) {
        memcpy(&off, r->rec + 32, 8);
        fprintf(r->out, "%" PRIu64 ", %" PRId64 ", %u, %" PRIu64 ", %" PRIu64 ", %s\n", t, v, ddir, bs, off, p);
    } else {
        fprintf(r->out, "%" PRIu64 ", %" PRId64 ", %u, %" PRIu64 ", %s\n", t, v, ddir, bs, p);
    }
}

static void feed(reader *r, const unsigned char *p, size_t n)
{
    while (n) {
        size_t need = (r->size ? r->size : 20) - r->have;
        size_t k = need < n ? need : n;
        memcpy(r->rec + r->have, p, k);
        r->have += k;
        p += k;
        n -= k;
        if (!r->size && r->have == 20) {
            uint32_t d;
            memcpy(&d, r->rec + 16, 4);
            r->size = d & SB_IOLOG_FLAG_OFFSET ? SB_IOLOG_SAMPLE_OFFSET_BYTES : SB_IOLOG_SAMPLE_BYTES;
        } else if (r->size && r->have == r->size) {
            print_sample(r);
            r->have = 0;
        }
    }
}

/* Inflate what is in zs->next_in; 1 at the end of a stream, 0 when it wants more, <0 bad. */
static int step(z_stream *zs, reader *r, unsigned char *out)
{
    while (zs->avail_in) {
        zs->next_out = out;
        zs->avail_out = CHUNK;
        int z = inflate(zs, Z_NO_FLUSH);
        feed(r, out, CHUNK - zs->avail_out);
        if (z == Z_STREAM_END) {
            r->have = r->size = 0; /* the next stream says its own sample size */
            if (inflateReset(zs) != Z_OK)
                return -EINVAL;
            continue;
        }
        if (z != Z_OK && z != Z_BUF_ERROR)
            return -EINVAL;
        if (z == Z_BUF_ERROR && zs->avail_out)
            break;
    }
    return 0;
}

int sb_iolog_inflate(const char *path, FILE *out, char *err, size_t errlen)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -errno;
    }
    unsigned char ibuf[CHUNK], obuf[CHUNK];
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    reader r = {.out = out};
    int rc = inflateInit2(&zs, 15 + 32) == Z_OK ? 0 : -ENOMEM; /* zlib or gzip, as fio's */
    bool mid = false;           /* inside a stream: input taken since its start */
    size_t n;
    while (rc == 0 && (n = fread(ibuf, 1, sizeof ibuf, in)) > 0) {
        zs.next_in = ibuf;
        zs.avail_in = (uInt)n;
        rc = step(&zs, &r, obuf);
        mid = zs.total_in > 0;
    }
    if (rc == 0 && ferror(in))
        rc = -EIO;
    if (rc == 0 && mid) /* the file ends inside a stream */
        rc = -EINVAL;
    if (rc == -EINVAL)
        snprintf(err, errlen, "%s: not a compressed fio log (zlib streams of fio's samples), or cut short",
                 path);
    else if (rc < 0)
        snprintf(err, errlen, "%s: %s", path, strerror(-rc));
    inflateEnd(&zs);
    fclose(in);
    return rc;
}
