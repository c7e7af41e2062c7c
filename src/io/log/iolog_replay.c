/*
 * iolog_replay — see iolog_replay.h. The text lines are read with a bound on their
 * length and split into whitespace-separated words; every word is checked (a number
 * where a number belongs, nothing after the last), so that whatever the log holds
 * either becomes one well-formed operation or one error line.
 */
#include "io/log/iolog_replay.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char v2_head[] = "fio version 2 iolog";
static const char v3_head[] = "fio version 3 iolog";

static const char *const kind_names[] = {
    [SB_RP_READ] = "read", [SB_RP_WRITE] = "write", [SB_RP_TRIM] = "trim",
    [SB_RP_SYNC] = "sync", [SB_RP_DATASYNC] = "datasync", [SB_RP_WAIT] = "wait",
    [SB_RP_ADD] = "add", [SB_RP_OPEN] = "open", [SB_RP_CLOSE] = "close",
};

const char *sb_rp_kind_name(sb_rp_kind k)
{
    return (unsigned)k < sizeof kind_names / sizeof kind_names[0] ? kind_names[k] : "?";
}

/* The next byte: the peeked ones first, then the stream's. */
static inline int next_byte(sb_replay *r)
{
    return r->ppeek < r->npeek ? r->peek[r->ppeek++] : getc_unlocked(r->f);
}

/* One line into r->buf without its newline: 1, 0 at the end, -EINVAL when longer than
 * the bound or holding a NUL byte (the replay stops there). */
static int read_line(sb_replay *r, char *err, size_t errlen)
{
    size_t n = 0;
    int c;
    while ((c = next_byte(r)) != EOF && c != '\n') {
        if (n == SB_REPLAY_LINE_MAX || c == '\0') {
            snprintf(err, errlen, "%s:%" PRIu64 ": %s", r->name, r->line + 1,
                     c ? "line longer than 4096 bytes" : "a NUL byte in the line");
            return -EINVAL;
        }
        r->buf[n++] = (char)c;
    }
    if (c == EOF && ferror(r->f)) {
        int e = errno ? errno : EIO;
        snprintf(err, errlen, "%s: reading: %s", r->name, strerror(e));
        return -e;
    }
    if (c == EOF && n == 0)
        return 0;
    r->line++;
    if (n && r->buf[n - 1] == '\r')
        n--;
    r->buf[n] = '\0';
    return 1;
}

int sb_replay_open_stream(sb_replay *r, FILE *f, const char *name, char *err, size_t errlen)
{
    memset(r, 0, offsetof(sb_replay, buf));
    r->f = f;
    snprintf(r->name, sizeof r->name, "%s", name);
    r->npeek = (unsigned)fread(r->peek, 1, sizeof r->peek, f);
    if (r->npeek == SB_BLKTRACE_REC && sb_blktrace_magic(r->peek, r->npeek, &r->swap)) {
        r->fmt = SB_RP_FMT_BLKTRACE;
        return 0;
    }
    int k = read_line(r, err, errlen);
    if (k < 0)
        return k;
    if (k == 0) {
        snprintf(err, errlen, "%s: empty: not an iolog (no 'fio version 2 iolog' line)", name);
        return -EINVAL;
    }
    if (!strcmp(r->buf, v2_head))
        r->fmt = SB_RP_FMT_V2;
    else if (!strcmp(r->buf, v3_head))
        r->fmt = SB_RP_FMT_V3;
    else {
        snprintf(err, errlen, "%s:1: not an iolog of version 2 or 3 nor a blktrace (fio's "
                 "version 1 logs are no longer read, as by fio)", name);
        return -EINVAL;
    }
    return 0;
}

int sb_replay_open(sb_replay *r, const char *path, char *err, size_t errlen)
{
    int fd0 = !strcmp(path, "-") ? dup(0) : -1; /* fio's "-": standard input */
    FILE *f = fd0 >= 0 ? fdopen(fd0, "r") : strcmp(path, "-") ? fopen(path, "re") : NULL;
    if (!f) {
        if (fd0 >= 0)
            close(fd0);
        int e = errno;
        snprintf(err, errlen, "read_iolog: %s: %s", path, strerror(e));
        return -e;
    }
    int k = sb_replay_open_stream(r, f, path, err, errlen);
    r->own = true;
    if (k < 0)
        sb_replay_close(r);
    return k;
}

void sb_replay_close(sb_replay *r)
{
    if (r->f && r->own)
        fclose(r->f);
    r->f = NULL;
}

/* A decimal number of at most max: 0, or -1 when w is not one. */
static int word_u64(const char *w, uint64_t max, uint64_t *out)
{
    if (*w < '0' || *w > '9')
        return -1;
    uint64_t v = 0;
    for (; *w; w++) {
        if (*w < '0' || *w > '9' || v > (max - (uint64_t)(*w - '0')) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*w - '0');
    }
    *out = v;
    return 0;
}

static int kind_of(const char *w)
{
    for (unsigned k = 0; k < sizeof kind_names / sizeof kind_names[0]; k++)
        if (!strcmp(w, kind_names[k]))
            return (int)k;
    return -1;
}

#define BAD(...) (snprintf(err, errlen, "%s:%" PRIu64 ": ", r->name, r->line), \
                  snprintf(err + strlen(err), errlen - strlen(err), __VA_ARGS__), -EINVAL)

/* One text line (in r->buf) as an operation, before the replay options. */
static int parse_line(sb_replay *r, sb_rp_op *op, char *err, size_t errlen)
{
    char *w[6];
    unsigned n = 0;
    for (char *save = NULL, *t = strtok_r(r->buf, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (n == 6)
            return BAD("too many words (at most '%sFILE ACTION OFFSET LENGTH')",
                       r->fmt == SB_RP_FMT_V3 ? "TIME " : "");
        w[n++] = t;
    }
    unsigned base = 0;
    memset(op, 0, sizeof *op);
    if (r->fmt == SB_RP_FMT_V3) {
        uint64_t us;
        if (n < 1 || word_u64(w[0], UINT64_MAX / 1000, &us) < 0)
            return BAD("'%s' is not a time in microseconds (a version 3 line starts with one)",
                       n ? w[0] : "");
        op->timed = true;
        op->time_ns = us * 1000;
        base = 1;
    }
    if (n < base + 2)
        return BAD("expected '%sFILE ACTION [OFFSET LENGTH]'", base ? "TIME " : "");
    if (strlen(w[base]) > SB_REPLAY_NAME_MAX)
        return BAD("file name longer than %u bytes", SB_REPLAY_NAME_MAX);
    op->file = w[base];
    int k = kind_of(w[base + 1]);
    if (k < 0)
        return BAD("'%s' is not an action (read, write, trim, sync, datasync, wait, add, open, close)",
                   w[base + 1]);
    op->kind = (sb_rp_kind)k;
    unsigned args = n - base - 2;
    if (op->kind >= SB_RP_ADD) {
        if (args)
            return BAD("'%s' takes no offset or length", w[base + 1]);
        return 1;
    }
    if (op->kind == SB_RP_WAIT && r->fmt == SB_RP_FMT_V3)
        return BAD("'wait' is not allowed in a version 3 log (its times pace the replay)");
    if (args != 2)
        return BAD("'%s' needs OFFSET and LENGTH", w[base + 1]);
    uint64_t off, len;
    if (word_u64(w[base + 2], INT64_MAX, &off) < 0)
        return BAD("'%s' is not an offset (decimal bytes, at most 2^63 - 1)", w[base + 2]);
    if (word_u64(w[base + 3], UINT32_MAX, &len) < 0)
        return BAD("'%s' is not a length (decimal bytes)", w[base + 3]);
    if (op->kind <= SB_RP_TRIM && (len == 0 || len > SB_REPLAY_LEN_MAX))
        return BAD("a %s of %" PRIu64 " bytes (1 .. %u)", w[base + 1], len, SB_REPLAY_LEN_MAX);
    if (op->kind <= SB_RP_TRIM && off > (uint64_t)INT64_MAX - len)
        return BAD("offset + length beyond 2^63 - 1");
    op->offset = off;
    op->len = (uint32_t)len;
    return 1;
}

/* replay_skip, replay_scale, replay_align: false when the operation is skipped. */
static bool apply_options(const sb_replay *r, sb_rp_op *op)
{
    unsigned bit = op->kind == SB_RP_DATASYNC ? SB_RP_SKIP_SYNC : 1u << op->kind;
    if (op->kind <= SB_RP_SYNC || op->kind == SB_RP_DATASYNC)
        if (r->skip & bit)
            return false;
    if (op->kind <= SB_RP_TRIM) {
        if (r->scale > 1)
            op->offset /= r->scale;
        if (r->align)
            op->offset &= ~((uint64_t)r->align - 1);
    }
    return true;
}

int sb_replay_next(sb_replay *r, sb_rp_op *op, char *err, size_t errlen)
{
    for (;;) {
        int k;
        if (r->fmt == SB_RP_FMT_BLKTRACE)
            k = sb_blktrace_next(r, op, err, errlen);
        else if ((k = read_line(r, err, errlen)) == 1) {
            const char *p = r->buf + strspn(r->buf, " \t");
            if (!*p) /* a blank line carries nothing: as fio, nothing is done */
                continue;
            k = parse_line(r, op, err, errlen);
        }
        if (k <= 0)
            return k;
        if (apply_options(r, op))
            return 1;
    }
}
