/*
 * varsize — the next I/O of a job of variable block sizes (bsrange, bssplit): its size
 * drawn from the worker's table (worker.c fills it, a direction's own where they
 * differ) and its offset, a sequential job's next bytes or a random job's independent
 * draw in multiples of the block-align unit. Off the hot loop's fixed-size path (loop.c
 * calls it only when the job has a table), so it lives in a file of its own.
 */
#include "core/rand.h"
#include "io/run/worker.h"

/* Variable block sizes (bsrange, bssplit; verify's blocks are their common unit): the next size
 * from the table, a sequential job's next bytes or a random job's independent draw in
 * multiples of bs. *pass_end when the pass's size is done. */
uint64_t sb_io_next_var(worker *w, sb_io_u *u, bool *pass_end)
{
    const sb_io_job *job = w->job;
    const uint64_t size = w->fs_size ? w->fs_size : job->size; /* filesize=LO-HI: the file's */
    const uint32_t *tab = u->ddir == SB_DDIR_WRITE && w->bs_table_w ? w->bs_table_w : w->bs_table;
    uint32_t len = tab[w->bs_next++ % SB_IO_BS_TABLE];
    uint64_t off;
    /* a split's size larger than the region is skipped, as fio's (one fits: job.c) */
    for (unsigned k = 0; len > size && k < SB_IO_BS_TABLE; k++)
        len = tab[w->bs_next++ % SB_IO_BS_TABLE];
    if (len > size)
        len = (uint32_t)size;
    if (!sb_rw_is_random(job->rw)) {
        /* the pass's last bytes: a size of the direction's that fits, as fio's io_u_fits;
         * when none does (writes of their own larger sizes) the pass ends with this one */
        for (unsigned k = 0; w->seq_pos + len > size && k < SB_IO_BS_TABLE; k++)
            len = tab[w->bs_next++ % SB_IO_BS_TABLE];
        bool wrap = w->seq_pos + len > size;
        u->len = len = len > size ? (uint32_t)size : len;
        off = wrap ? 0 : w->seq_pos;
        w->seq_pos = off + len;
        *pass_end = wrap || w->seq_pos + job->bs > size;
        if (*pass_end)
            w->seq_pos = 0;
    } else {
        /* fio draws the offset first, where the direction's smallest size still fits (in
         * blockalign's unit, the writes' own; a skewed distribution's block cut to there),
         * then sizes until one fits after it (its io_u_fits): in a region not much larger
         * than the largest size, the sizes drawn are the smaller ones, as fio's are */
        uint64_t unit = u->ddir == SB_DDIR_WRITE && w->unit_w ? w->unit_w : w->unit;
        uint64_t minlen = u->ddir == SB_DDIR_WRITE ? w->bs_min_w : w->bs_min;
        minlen = minlen && minlen <= size ? minlen : len;
        uint64_t last = (size - minlen) / unit;
        uint64_t b = w->og.dist ? sb_distgen_next(w->og.dist, &w->og.rng) : sb_rand_below(&w->og.rng, last + 1);
        off = unit * (b > last ? b % (last + 1) : b);
        for (unsigned k = 0; off + len > size && k < SB_IO_BS_TABLE; k++)
            len = tab[w->bs_next++ % SB_IO_BS_TABLE];
        if (off + len > size) /* none of the table's: the smallest, which fits */
            len = (uint32_t)minlen;
        u->len = len;
        w->pass_bytes += len;
        *pass_end = w->pass_bytes >= size;
        if (*pass_end)
            w->pass_bytes = 0;
    }
    return off;
}
