/*
 * varsize — the next I/O of a job of variable block sizes (bsrange, bssplit): its size
 * drawn from the worker's table (worker.c fills it, a direction's own where they
 * differ) and its offset, a sequential job's next bytes or a random job's draw in
 * multiples of the block-align unit, kept to blocks not yet taken in the pass by fio's
 * random map (varmap.h) where the job has it; with rw=randread:N or percentage_random, the
 * I/Os between the random ones at the end of the last (or its start again), in bytes, as
 * fio's get_next_block. Off the hot loop's fixed-size path (loop.c calls it only when the
 * job has a table), so it lives in a file of its own.
 */
#include "core/rand.h"
#include "io/loop/varmap.h"
#include "io/run/worker.h"

/* randread:N, percentage_random (offsets.h's sb_seqmix) with sizes drawn: where fio's
 * get_next_block puts the next I/O of this kind, in bytes: the random offset drawn, the end
 * of the direction's last I/O (at the region's end: the random one, or 0 in a time-based
 * job of one file) or its start again (rw_sequencer=identical). SB_IO_VAR_CUT where a
 * sequential one leaves less than the smallest size before the end: fio's get_next_buflen
 * finds no size that fits there, and its fill_io_u failing ends the file's pass. */
static uint64_t mix_offset(worker *w, unsigned ddir, unsigned kind, uint64_t random_off, uint64_t size,
                           uint64_t minlen)
{
    const sb_seqmix *m = &w->seqmix;
    if (kind == SB_SEQMIX_RANDOM)
        return random_off;
    if (kind == SB_SEQMIX_SAME)
        return m->pos.start[ddir];
    uint64_t p = m->pos.end[ddir];
    if (p >= size)
        return m->wrap ? 0 : random_off;
    return p + minlen > size ? SB_IO_VAR_CUT : p;
}

/* A random job's next I/O (u->len set, its offset returned). fio draws the offset first,
 * where the direction's smallest size still fits (in blockalign's unit, the writes' own; a
 * skewed distribution's block cut to there), then sizes until one fits after it (its
 * io_u_fits): in a region not much larger than the largest size, the sizes drawn are the
 * smaller ones, as fio's are. With the random map (varmap.h) a taken block moves the offset
 * to the next free one and the I/O is trimmed to the free blocks there; a full map ends
 * the pass (a time-based job's starts the map again), as fio's get_next_rand_block. */
static uint64_t next_random(worker *w, sb_io_u *u, const uint32_t *tab, uint32_t len, uint64_t size,
                            bool *pass_end)
{
    const sb_io_job *job = w->job;
    uint64_t unit = u->ddir == SB_DDIR_WRITE && w->unit_w ? w->unit_w : w->unit;
    uint64_t minlen = u->ddir == SB_DDIR_WRITE ? w->bs_min_w : w->bs_min;
    minlen = minlen && minlen <= size ? minlen : len;
    uint64_t last = (size - minlen) / unit;
    uint64_t b = w->og.dist ? sb_distgen_next(w->og.dist, &w->og.rng) : sb_rand_below(&w->og.rng, last + 1);
    b = b > last ? b % (last + 1) : b;
    unsigned kind = w->seqmix_on ? sb_seqmix_kind(&w->seqmix, u->ddir) : SB_SEQMIX_RANDOM;
    bool mapped = kind == SB_SEQMIX_RANDOM && w->vmap.nblocks;
    uint64_t off = mix_offset(w, u->ddir, kind, unit * b, size, minlen);
    if (mapped && (b = sb_varmap_free_from(&w->vmap, b)) == UINT64_MAX && job->time_based) {
        sb_varmap_reset(&w->vmap); /* full: fio's time-based job resets the file's map */
        b = sb_varmap_free_from(&w->vmap, off / unit);
    }
    if (mapped)
        off = b == UINT64_MAX || b > last ? SB_IO_VAR_CUT : unit * b;
    if (off == SB_IO_VAR_CUT) {
        /* the file's pass ends here, short; the next starts from its beginning (fio's reset) */
        w->pass_bytes = 0;
        w->seqmix.pos = (sb_seqpos){0};
        sb_varmap_reset(&w->vmap);
        *pass_end = true;
        return SB_IO_VAR_CUT;
    }
    for (unsigned k = 0; off + len > size && k < SB_IO_BS_TABLE; k++)
        len = tab[w->bs_next++ % SB_IO_BS_TABLE];
    if (off + len > size) /* none of the table's: the smallest, which fits */
        len = (uint32_t)minlen;
    if (mapped) { /* trimmed to the free blocks from b (fio's mark_random_map) */
        uint64_t got = sb_varmap_take(&w->vmap, b, (len + unit - 1) / unit);
        len = got * unit < len ? (uint32_t)(got * unit) : len;
    }
    u->len = len;
    if (w->seqmix_on) {
        w->seqmix.pos.start[u->ddir] = off;
        w->seqmix.pos.end[u->ddir] = off + len;
    }
    w->pass_bytes += len;
    *pass_end = w->pass_bytes >= size;
    if (*pass_end)
        w->pass_bytes = 0;
    if (*pass_end && !job->time_based) { /* the next loop starts afresh, as fio's */
        w->seqmix.pos = (sb_seqpos){0};
        sb_varmap_reset(&w->vmap);
    }
    return off;
}

/* Variable block sizes (bsrange, bssplit; verify's blocks are their common unit): the next size
 * from the table, a sequential job's next bytes or a random job's (next_random). *pass_end
 * when the pass's size is done; SB_IO_VAR_CUT when it ended short (worker.h). */
static uint64_t next_var(worker *w, sb_io_u *u, bool *pass_end)
{
    const sb_io_job *job = w->job;
    const uint64_t size = w->fs_size ? w->fs_size : job->size; /* filesize=LO-HI: the file's */
    const uint32_t *tab = u->ddir == SB_DDIR_WRITE && w->bs_table_w ? w->bs_table_w : w->bs_table;
    uint32_t len = tab[w->bs_next++ % SB_IO_BS_TABLE];
    /* a split's size larger than the region is skipped, as fio's (one fits: job.c) */
    for (unsigned k = 0; len > size && k < SB_IO_BS_TABLE; k++)
        len = tab[w->bs_next++ % SB_IO_BS_TABLE];
    if (len > size)
        len = (uint32_t)size;
    if (sb_rw_is_random(job->rw))
        return next_random(w, u, tab, len, size, pass_end);
    /* the pass's last bytes: a size of the direction's that fits, as fio's io_u_fits;
     * when none does (writes of their own larger sizes) the pass ends with this one */
    for (unsigned k = 0; w->seq_pos + len > size && k < SB_IO_BS_TABLE; k++)
        len = tab[w->bs_next++ % SB_IO_BS_TABLE];
    bool wrap = w->seq_pos + len > size;
    u->len = len = len > size ? (uint32_t)size : len;
    uint64_t off = wrap ? 0 : w->seq_pos;
    w->seq_pos = off + len;
    *pass_end = wrap || w->seq_pos + job->bs > size;
    if (*pass_end)
        w->seq_pos = 0;
    return off;
}

uint64_t sb_io_next_var(worker *w, sb_io_u *u, bool *pass_end)
{
    uint64_t off;
    /* a file whose pass ended short leaves the rotation (fio's file done): the next file
     * of the pass; when none is left the caller ends the thread's pass */
    while ((off = next_var(w, u, pass_end)) == SB_IO_VAR_CUT && w->fs) {
        bool all = sb_io_files_pass_end(w, true, 0);
        sb_io_files_pick(w);
        if (all)
            break;
    }
    return off;
}
