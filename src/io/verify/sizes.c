/*
 * sizes — verified I/O of sizes of several kinds (bsrange, bssplit, bs=READ,WRITE) and of
 * several files per thread (nrfiles, filename=a:b): the unit every size is made of (the
 * table's block, each with a header of its own, as fio's verify_interval of the smallest
 * size), its rules, and the per-thread state both need (slots of several blocks, a table
 * per file). Apart from run.c, which holds the one-size, one-file path they extend.
 */
#include "io/verify/verify.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/run/worker.h"

#define NOT_CLAIMED UINT64_MAX /* a slot's block not taken (run.c's) */

int sb_verify_thread_units(sb_verify_thread *v, unsigned units, unsigned depth)
{
    free(v->slot_ident);
    free(v->slot_prev);
    free(v->bl_word);
    v->max_units = units;
    v->slot_ident = malloc((size_t)depth * units * sizeof *v->slot_ident);
    v->slot_prev = malloc((size_t)depth * units * sizeof *v->slot_prev);
    v->bl_word = malloc(units * sizeof *v->bl_word);
    if (!v->slot_ident || !v->slot_prev || !v->bl_word)
        return -ENOMEM;
    for (size_t i = 0; i < (size_t)depth * units; i++)
        v->slot_ident[i] = NOT_CLAIMED;
    if (v->backlog) {
        free(v->rbuf);
        if (posix_memalign(&v->rbuf, 4096, (size_t)units * v->fmt->bs)) {
            v->rbuf = NULL;
            return -ENOMEM;
        }
    }
    return 0;
}

int sb_verify_thread_files(sb_verify_thread *v, const sb_verify_vfile *files, unsigned n, unsigned depth)
{
    if (!(v->files = malloc(n * sizeof *v->files)) || !(v->slot_file = calloc(depth, sizeof *v->slot_file)))
        return -ENOMEM;
    memcpy(v->files, files, n * sizeof *files);
    v->nfiles = n;
    sb_verify_use(v, 0);
    return 0;
}


static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

uint64_t sb_io_verify_unit(const sb_io_job *job)
{
    uint64_t u = job->bs; /* a range's sizes are multiples of its low end (worker_draw.c) */
    if (job->bs_w)
        u = gcd64(u, job->bs_w);
    for (unsigned i = 0; i < job->bssplit.n; i++)
        u = gcd64(u, job->bssplit.bs[i]);
    for (unsigned i = 0; i < job->bssplit_w.n; i++)
        u = gcd64(u, job->bssplit_w.bs[i]);
    return u;
}

/* Variable block sizes under verify: the unit each size is made of, and how many of them
 * the largest holds (an I/O's blocks). 0, or -EINVAL with the line. */
int sb_io_verify_check_units(const sb_io_job *job, unsigned depth, char *err, size_t errlen)
{
    uint64_t unit = sb_io_verify_unit(job), units = sb_io_job_max_bs(job) / unit;
    if (job->bs_unaligned || unit < SB_IO_MIN_BS) {
        snprintf(err, errlen, "verify with bsrange or bssplit: the sizes' common unit %" PRIu64 " bytes is "
                 "below 512 (bs_unaligned, or sizes of no common 512-byte unit)", unit);
        return -EINVAL;
    }
    if (job->trim_percentage) {
        snprintf(err, errlen, "trim_percentage with bsrange or bssplit: storbench's trims of verified "
                 "blocks are for one block size");
        return -EINVAL;
    }
    if (units > 4096 || units * depth > (1u << 20)) {
        snprintf(err, errlen, "verify with bsrange or bssplit: the largest size is %" PRIu64 " blocks of "
                 "their common unit %" PRIu64 " (at most 4096, and 1M over iodepth)", units, unit);
        return -EINVAL;
    }
    return 0;
}


/* A thread of several files (files.c's set, opened): each file's table, name and
 * descriptor for its verify state. */
int sb_io_verify_thread_files(worker *w, file_ctx *files)
{
    const unsigned per = w->fs->n;
    sb_verify_vfile *vf = calloc(per, sizeof *vf);
    if (!vf)
        return -ENOMEM;
    for (unsigned k = 0; k < per; k++) {
        file_ctx *f = &files[w->op_map[w->index * per + k]];
        vf[k] = (sb_verify_vfile){&f->vtab, f->path, w->fs->f[k].fd};
    }
    int r = sb_verify_thread_files(w->vt, vf, per, w->td.iodepth);
    free(vf);
    return r;
}

