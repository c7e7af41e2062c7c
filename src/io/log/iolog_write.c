/*
 * iolog_write — see iolog_write.h.
 */
#include "io/log/iolog_write.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/safepath.h"
#include "io/log/iolog_replay.h"

#define W_CAP (64u << 10)
#define W_LINE 400u /* a line's bound: two numbers, a name of at most 255 bytes, a word */

static void flush_w(sb_iolog_w *l)
{
    size_t off = 0;
    while (off < l->len && !l->err) {
        ssize_t k = write(l->fd, l->buf + off, l->len - off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            l->err = k < 0 ? -errno : -EIO;
        else
            off += (size_t)k;
    }
    l->len = 0;
}

static void line(sb_iolog_w *l, const char *what, int with_range, uint64_t offset, uint32_t len)
{
    if (l->len + W_LINE > W_CAP)
        flush_w(l);
    uint64_t us = (sb_now_ns() - l->t0_ns) / 1000;
    int n = with_range ? snprintf(l->buf + l->len, W_LINE, "%" PRIu64 " %s %s %" PRIu64 " %" PRIu32 "\n",
                                  us, l->file, what, offset, len)
                       : snprintf(l->buf + l->len, W_LINE, "%" PRIu64 " %s %s\n", us, l->file, what);
    if (n > 0 && (unsigned)n < W_LINE)
        l->len += (size_t)n;
}

int sb_iolog_w_open(const char *path, const char *file, sb_iolog_w **out, char *err, size_t errlen)
{
    *out = NULL;
    sb_iolog_w *l = calloc(1, sizeof *l);
    if (!l || !(l->buf = malloc(W_CAP))) {
        free(l);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    int r = sb_open_resolved(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644, &l->fd, err, errlen);
    if (r < 0) {
        free(l->buf);
        free(l);
        return r;
    }
    snprintf(l->file, sizeof l->file, "%s", file);
    l->t0_ns = sb_now_ns();
    l->len = (size_t)snprintf(l->buf, W_LINE, "fio version 3 iolog\n");
    line(l, "add", 0, 0, 0);
    line(l, "open", 0, 0, 0);
    *out = l;
    return 0;
}

void sb_iolog_w_op(sb_iolog_w *l, int kind, uint64_t offset, uint32_t len)
{
    line(l, sb_rp_kind_name((sb_rp_kind)kind), 1, offset, len);
}

int sb_iolog_w_close(sb_iolog_w *l)
{
    if (!l)
        return 0;
    line(l, "close", 0, 0, 0);
    flush_w(l);
    int r = l->err;
    if (close(l->fd) < 0 && !r)
        r = -errno;
    free(l->buf);
    free(l);
    return r;
}
