/*
 * blktrace_merge — fio's merge_blktrace_file (blktrace.h): several traces become one,
 * read a record at a time from each (a cursor per trace: bounded memory), the earliest
 * event written next. As fio, a trace's time is first repeated: iteration k adds k times
 * the trace's length (the time of its last event), then scaled by its percentage; the
 * merged records keep their fields but lose their payloads and are written in this
 * machine's byte order, so that the merged trace replays like any other.
 */
#include "io/log/blktrace.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/safepath.h"
#include "io/job.h"
#include "io/log/iolog_replay.h"


typedef struct cursor {
    FILE *f;
    const char *name;
    bool swap, live;
    uint64_t recno, last_time, length, iter, iters;
    double scalar;
    unsigned char raw[SB_BLKTRACE_REC];
    uint64_t time;             /* the event in raw, repeated and scaled */
} cursor;

void sb_bt_to_native(unsigned char *p)
{
    static const unsigned char w32[] = {0, 4, 24, 28, 32, 36, 40};
    for (unsigned i = 0; i < sizeof w32; i++) {
        uint32_t v;
        memcpy(&v, p + w32[i], 4);
        v = __builtin_bswap32(v);
        memcpy(p + w32[i], &v, 4);
    }
    for (unsigned o = 8; o <= 16; o += 8) {
        uint64_t v;
        memcpy(&v, p + o, 8);
        v = __builtin_bswap64(v);
        memcpy(p + o, &v, 8);
    }
    for (unsigned o = 44; o <= 46; o += 2) {
        uint16_t v;
        memcpy(&v, p + o, 2);
        v = __builtin_bswap16(v);
        memcpy(p + o, &v, 2);
    }
}

/* The cursor's next read, write or trim (fio's merge passes flushes over): 1, 0 when the
 * trace's iterations are done, or an error. */
static int cursor_next(cursor *c, char *err, size_t errlen)
{
    for (;;) {
        sb_bt_rec t;
        int k = sb_bt_read(c->f, c->name, c->recno, c->swap, c->raw, &t, err, errlen);
        if (k < 0)
            return k;
        if (k == 0) {
            if (!c->length)
                c->length = c->last_time;
            if (++c->iter >= c->iters || c->recno == 0)
                return 0;
            if (fseeko(c->f, 0, SEEK_SET) < 0) {
                snprintf(err, errlen, "%s: cannot read it again: %s", c->name, strerror(errno));
                return -errno;
            }
            c->recno = 0;
            continue;
        }
        c->recno++;
        int kind = sb_bt_kind(&t);
        if (kind < 0 || kind == SB_RP_SYNC)
            continue;
        c->last_time = t.time;
        long double v = ((long double)t.time + (long double)c->iter * c->length) * c->scalar / 100;
        c->time = v >= 18446744073709551615.0L ? UINT64_MAX : (uint64_t)v;
        return 1;
    }
}

static int open_traces(cursor *c, unsigned n, const char *paths, const double *scalars,
                       const unsigned *iters, char *err, size_t errlen)
{
    const char *p = paths;
    for (unsigned i = 0; i < n; i++, p += strlen(p) + 1) {
        c[i].name = p;
        c[i].scalar = scalars ? scalars[i] : 100;
        c[i].iters = iters ? iters[i] : 1;
        if (!(c[i].f = fopen(p, "re"))) {
            snprintf(err, errlen, "read_iolog: %s: %s", p, strerror(errno));
            return -errno;
        }
        unsigned char head[SB_BLKTRACE_REC];
        if (fread(head, 1, sizeof head, c[i].f) != sizeof head || !sb_blktrace_magic(head, sizeof head, &c[i].swap)) {
            snprintf(err, errlen, "merge_blktrace_file: %s is not a blktrace", p);
            return -EINVAL;
        }
        rewind(c[i].f);
        int k = cursor_next(&c[i], err, errlen);
        if (k < 0)
            return k;
        c[i].live = k == 1;
    }
    return 0;
}

static int merge_into(cursor *c, unsigned n, FILE *out, const char *outname, char *err, size_t errlen)
{
    for (;;) {
        int best = -1;
        for (unsigned i = 0; i < n; i++)
            if (c[i].live && (best < 0 || c[i].time < c[best].time))
                best = (int)i;
        if (best < 0)
            return 0;
        cursor *b = &c[best];
        sb_bt_set_time(b->raw, b->swap, b->time);
        sb_bt_clear_pdu(b->raw);
        if (b->swap)
            sb_bt_to_native(b->raw);
        if (fwrite(b->raw, SB_BLKTRACE_REC, 1, out) != 1) {
            snprintf(err, errlen, "merge_blktrace_file: %s: %s", outname, strerror(errno));
            return -errno;
        }
        int k = cursor_next(b, err, errlen);
        if (k < 0)
            return k;
        b->live = k == 1;
    }
}

int sb_blktrace_merge(const char *paths, const double *scalars, unsigned nscalars,
                      const unsigned *iters, unsigned niters, const char *out, char *err, size_t errlen)
{
    unsigned n = 0;
    for (const char *p = paths; *p; p += strlen(p) + 1)
        n++;
    if (n == 0 || n > SB_IO_MAX_MERGE) {
        snprintf(err, errlen, "merge_blktrace_file: %u traces in read_iolog (1 .. %u)", n, SB_IO_MAX_MERGE);
        return -EINVAL;
    }
    if ((nscalars && nscalars != n) || (niters && niters != n)) {
        snprintf(err, errlen, "merge_blktrace_%s: %u values for %u traces in read_iolog (one each, as fio)",
                 nscalars && nscalars != n ? "scalars" : "iters", nscalars && nscalars != n ? nscalars : niters, n);
        return -EINVAL;
    }
    cursor *c = calloc(n, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    int fd = -1;
    FILE *f = NULL;
    int r = open_traces(c, n, paths, nscalars ? scalars : NULL, niters ? iters : NULL, err, errlen);
    if (r == 0)
        r = sb_open_resolved(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644, &fd, err, errlen);
    if (r == 0 && !(f = fdopen(fd, "w"))) {
        r = -errno;
        close(fd);
        snprintf(err, errlen, "merge_blktrace_file: %s: %s", out, strerror(-r));
    }
    if (r == 0)
        r = merge_into(c, n, f, out, err, errlen);
    if (f && fclose(f) != 0 && r == 0) {
        r = -errno;
        snprintf(err, errlen, "merge_blktrace_file: %s: %s", out, strerror(-r));
    }
    for (unsigned i = 0; i < n; i++)
        if (c[i].f)
            fclose(c[i].f);
    free(c);
    return r;
}
