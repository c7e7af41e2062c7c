/*
 * replay_check (fuzz harnesses fuzz_iolog.c and fuzz_blktrace.c) — reads a whole log from
 * memory through read_iolog's reader (io/log/iolog_replay.h) with the replay options a
 * byte sets, and aborts when the reader breaks a promise: an operation out of bounds,
 * unaligned under replay_align, of a skipped kind, more operations than input bytes, or
 * an error that is not one line naming the log.
 */
#ifndef SB_FUZZ_REPLAY_CHECK_H
#define SB_FUZZ_REPLAY_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/log/iolog_replay.h"

/* Reads the whole log at data; aborts on a broken promise. */
static void sb_fuzz_replay_log(const uint8_t *data, size_t size, uint8_t opts)
{
    if (!size)
        return;
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        return;
    sb_replay *r = malloc(sizeof *r);
    char err[1024] = "";
    if (!r || sb_replay_open_stream(r, f, "fuzz.log", err, sizeof err) < 0) {
        if (r && (!err[0] || strchr(err, '\n') || !strstr(err, "fuzz.log")))
            abort();
        free(r);
        fclose(f);
        return;
    }
    static const unsigned scales[] = {1, 1, 2, 512};
    r->scale = scales[opts & 3];
    r->align = (opts & 4) ? 4096 : 0;
    r->skip = (opts >> 3) & 0x0f;
    sb_rp_op op;
    int k;
    unsigned long n = 0;
    while ((k = sb_replay_next(r, &op, err, sizeof err)) == 1) {
        if (op.kind <= SB_RP_TRIM) {
            if (!op.len || op.len > SB_REPLAY_LEN_MAX + 4096u || op.offset > (uint64_t)INT64_MAX)
                abort();
            if (r->align && op.offset % r->align)
                abort();
            if (r->skip & (1u << op.kind))
                abort();
        }
        if (op.kind > SB_RP_CLOSE || (r->fmt != SB_RP_FMT_BLKTRACE && !op.file))
            abort();
        if (++n > size) /* each operation takes at least a byte of input */
            abort();
    }
    if (k < 0 && (!err[0] || strchr(err, '\n') || !strstr(err, "fuzz.log")))
        abort();
    sb_replay_close(r);
    free(r);
    fclose(f);
}

#endif
